//! The Vim integration (editors/vim: ALE linter and fixer, filetype, syntax)
//! in a real Vim with ALE (Debian's vim-nox and vim-ale).
//!
//! Each test runs `vim -N -u editors/vim/test/vimrc -i NONE -es -S
//! editors/vim/test/run.vim` with one scenario; the Vim script writes a JSON
//! result checked here. `pbn` is the binary of this build, on `PATH`.
//!
//! Vim is `$PBN_VIM`, else `vim` on `PATH`, and must have +job, +channel and
//! +timers; ALE is `$PBN_ALE_DIR`, else Debian's
//! /usr/share/vim/vimfiles/pack/dist-bundle/opt/ale (`.ci/install-emacs-vim.sh`
//! installs both). Without them the tests skip with a loud message, unless
//! `PBN_REQUIRE_EDITORS=1` makes that a failure.

use pbn_tests::editors::{self, assert_same, example, messy_schiphol, put, repo};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn scratch(name: &str) -> PathBuf {
    editors::scratch(Path::new(env!("CARGO_TARGET_TMPDIR")), "vim", name)
}

fn skip(what: &str) {
    editors::skip(what, "run .ci/install-emacs-vim.sh or set PBN_VIM")
}

/// Kill a Vim that has not finished by then (its own waits are 20 s).
const DEBIAN_ALE: &str = "/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale";

struct Vim {
    vim: PathBuf,
    ale: PathBuf,
}

/// Vim with jobs and timers, and ALE, or `None` (after a loud skip message).
fn vim() -> Option<&'static Vim> {
    static VIM: OnceLock<Result<Vim, String>> = OnceLock::new();
    let found = VIM.get_or_init(|| {
        let vim = std::env::var_os("PBN_VIM")
            .map(PathBuf::from)
            .unwrap_or_else(|| "vim".into());
        let out = Command::new(&vim)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("{}: {e}", vim.display()))?;
        let version = String::from_utf8_lossy(&out.stdout).into_owned();
        if !version.starts_with("VIM - Vi IMproved") {
            return Err(format!("{} is not Vim", vim.display()));
        }
        for feature in ["+job", "+channel", "+timers", "+eval", "+lambda"] {
            if !version.split_whitespace().any(|w| w == feature) {
                return Err(format!(
                    "{} lacks {feature} (apt-get install vim-nox)",
                    vim.display()
                ));
            }
        }
        let ale = std::env::var_os("PBN_ALE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| DEBIAN_ALE.into());
        if !ale.join("plugin/ale.vim").is_file() {
            return Err(format!(
                "ALE not found at {} (apt-get install vim-ale)",
                ale.display()
            ));
        }
        Ok(Vim { vim, ale })
    });
    match found {
        Ok(v) => Some(v),
        Err(e) => {
            skip(&format!("Vim tests: {e}"));
            None
        }
    }
}

/// Runs one scenario of editors/vim/test/run.vim on `file`.
fn run_vim(vim: &Vim, dir: &Path, scenario: &str, file: &Path, env: &[(&str, String)]) -> Value {
    let rtp = repo().join("editors/vim");
    let out_file = dir.join("result.json");
    let path = editors::path_with_pbn();
    let mut cmd = Command::new(&vim.vim);
    cmd.args(["-N", "-u"])
        .arg(rtp.join("test/vimrc"))
        .args(["-i", "NONE", "-n", "-es", "-S"])
        .arg(rtp.join("test/run.vim"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir) // no ~/.vim from outside
        .env("PBN_VIM_RTP", &rtp)
        .env("PBN_ALE_DIR", &vim.ale)
        .env("PBN_TEST_SCENARIO", scenario)
        .env("PBN_TEST_FILE", file)
        .env("PBN_TEST_OUT", &out_file)
        .env("PBN_TEST_TIMEOUT_MS", "20000")
        .env_remove("VIMINIT")
        .env_remove("PBN_ALE_LSP");
    for (k, v) in env {
        cmd.env(k, v);
    }
    editors::run_scenario("vim", scenario, cmd, dir, &out_file, &[])
}

/// (line, column, code) of the location list, the code taken from ALE's
/// default `%code: %s` message format.
fn loclist(data: &Value) -> Vec<(u64, u64, String)> {
    data["loclist"]
        .as_array()
        .expect("loclist")
        .iter()
        .map(|i| {
            let text = i["text"].as_str().unwrap();
            let code = text.split(':').next().unwrap_or("").to_owned();
            (
                i["lnum"].as_u64().unwrap(),
                i["col"].as_u64().unwrap(),
                code,
            )
        })
        .collect()
}

fn check_broken_loclist(data: &Value) {
    let got = loclist(data);
    // examples/broken.pbn: line 17 column 7 (1-based), etc.
    for want in [(17, 7, "PBN0003"), (20, 8, "PBN0006"), (22, 1, "PBN0004")] {
        assert!(
            got.iter()
                .any(|(l, c, code)| (*l, *c, code.as_str()) == want),
            "{want:?} missing in the location list {got:?}"
        );
    }
    let first = data["loclist"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["lnum"] == json!(17))
        .unwrap();
    assert_eq!(first["type"], json!("E"), "{first}");
    assert!(
        first["text"].as_str().unwrap().contains("closing quote"),
        "{first}"
    );
}

#[test]
fn vim_ale_lints_with_pbn_check() {
    let Some(vim) = vim() else { return };
    let dir = scratch("lint");
    let file = put(&dir, "broken.pbn", &example("broken.pbn"));
    let data = run_vim(vim, &dir, "lint", &file, &[]);
    assert_eq!(data["linters"], json!(["pbn"]), "{data}");
    check_broken_loclist(&data);
}

#[test]
fn vim_ale_lints_with_pbn_lsp() {
    let Some(vim) = vim() else { return };
    let dir = scratch("lint-lsp");
    let file = put(&dir, "broken.pbn", &example("broken.pbn"));
    let data = run_vim(vim, &dir, "lint", &file, &[("PBN_ALE_LSP", "1".into())]);
    assert_eq!(data["linters"], json!(["pbn(lsp)"]), "{data}");
    check_broken_loclist(&data);
}

#[test]
fn vim_ale_fixer_formats_with_pbn_fmt() {
    let Some(vim) = vim() else { return };
    let dir = scratch("fix");
    let (text, expected) = messy_schiphol();
    let file = put(&dir, "messy.pbn", &text);
    let data = run_vim(vim, &dir, "fix", &file, &[]);
    assert_eq!(data["changed"], json!(true), "{data}");
    assert_same(
        &expected,
        &fs::read_to_string(&file).unwrap(),
        "the file fixed by vim :ALEFix",
    );
}

#[test]
fn vim_filetype_and_syntax() {
    let Some(vim) = vim() else { return };
    let dir = scratch("syntax");
    let file = put(&dir, "broken.pbn", &example("broken.pbn"));
    // (1-based line, 1-based column) → syntax group
    let expected: &[(u64, u64, &str)] = &[
        (1, 1, "pbnEscape"),
        (3, 2, "pbnTagName"),
        (3, 8, "pbnString"),
        (13, 2, "pbnSectionTag"),
        (14, 1, "pbnCall"),
        (14, 4, "pbnCall"),
        (15, 14, "pbnNoteRef"),
        (17, 7, "pbnString"),
        (19, 2, "pbnTagName"),
        (22, 1, "pbnComment"),
    ];
    let positions: Vec<_> = expected.iter().map(|(l, c, _)| json!([l, c])).collect();
    let data = run_vim(
        vim,
        &dir,
        "syntax",
        &file,
        &[("PBN_TEST_POSITIONS", json!(positions).to_string())],
    );
    assert_eq!(data["commentstring"], json!("; %s"), "{data}");
    let mut bad = Vec::new();
    for ((line, col, want), got) in expected.iter().zip(data["syntax"].as_array().unwrap()) {
        if got["group"] != json!(want) {
            bad.push(format!("{line}:{col}: want {want}, got {}", got["group"]));
        }
    }
    assert!(bad.is_empty(), "wrong syntax groups:\n{}", bad.join("\n"));
}
