//! The Emacs integration (editors/emacs/pbn-mode.el) in a real `emacs
//! --batch` with Eglot (Debian's elpa-eglot on Emacs 28; built in from 29).
//!
//! Each test runs `emacs --batch -q -l editors/emacs/test/pbn-mode-test.el`
//! with one scenario (`-q`: no user init file, but the site start-up files
//! that activate Debian's elpa-* packages); the Lisp driver writes a JSON result checked here.
//! `pbn` is the binary of this build, on `PATH`.
//!
//! Emacs is `$PBN_EMACS`, else `emacs` on `PATH` (`.ci/install-emacs-vim.sh`
//! installs it). Without Emacs or Eglot the tests skip with a loud message,
//! unless `PBN_REQUIRE_EDITORS=1` makes that a failure.

use pbn_tests::editors::{self, assert_same, example, messy_schiphol, put, repo};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn scratch(name: &str) -> PathBuf {
    editors::scratch(Path::new(env!("CARGO_TARGET_TMPDIR")), "emacs", name)
}

fn skip(what: &str) {
    editors::skip(what, "run .ci/install-emacs-vim.sh or set PBN_EMACS")
}

/// Emacs with Eglot available, or `None` (after a loud skip message).
fn emacs() -> Option<PathBuf> {
    static EMACS: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = EMACS.get_or_init(|| {
        let emacs = std::env::var_os("PBN_EMACS").map(PathBuf::from).unwrap_or_else(|| "emacs".into());
        let probe = Command::new(&emacs)
            .args(["--batch", "-q", "--eval"])
            .arg("(progn (require 'package) (package-initialize) (princ (format \"%s %s\" emacs-version (if (locate-library \"eglot\") \"eglot\" \"no-eglot\"))))")
            .stdin(Stdio::null())
            .output();
        match probe {
            Err(e) => Err(format!("{}: {e}", emacs.display())),
            Ok(out) => {
                let said = String::from_utf8_lossy(&out.stdout).into_owned();
                if !out.status.success() {
                    Err(format!("{} failed: {}", emacs.display(), String::from_utf8_lossy(&out.stderr)))
                } else if !said.ends_with(" eglot") {
                    Err(format!("Emacs {said} has no Eglot (apt-get install elpa-eglot)"))
                } else {
                    Ok(emacs)
                }
            }
        }
    });
    match found {
        Ok(p) => Some(p.clone()),
        Err(e) => {
            skip(&format!("Emacs tests: {e}"));
            None
        }
    }
}

/// Runs one scenario of editors/emacs/test/pbn-mode-test.el on `file`.
fn run_emacs(emacs: &Path, dir: &Path, scenario: &str, file: &Path, positions: Value) -> Value {
    let el = repo().join("editors/emacs");
    let out_file = dir.join("result.json");
    let path = editors::path_with_pbn();
    let mut cmd = Command::new(emacs);
    cmd.args(["--batch", "-q", "-l"])
        .arg(el.join("test/pbn-mode-test.el"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir) // no ~/.emacs.d, no eglot/flymake state from outside
        .env("PBN_EMACS_DIR", &el)
        .env("PBN_TEST_SCENARIO", scenario)
        .env("PBN_TEST_FILE", file)
        .env("PBN_TEST_POSITIONS", positions.to_string())
        .env("PBN_TEST_OUT", &out_file)
        .env("PBN_TEST_TIMEOUT", "30");
    editors::run_scenario("emacs", scenario, cmd, dir, &out_file, &[])
}

#[test]
fn emacs_pbn_mode_font_lock() {
    let Some(emacs) = emacs() else { return };
    let dir = scratch("font-lock");
    let file = put(&dir, "broken.pbn", &example("broken.pbn"));
    // (1-based line, 0-based column) → face
    let expected: &[(u64, u64, &str)] = &[
        (1, 0, "pbn-escape-face"),         // % PBN 2.1
        (3, 1, "pbn-tag-face"),            // Event
        (3, 7, "font-lock-string-face"),   // "Club night"
        (13, 1, "pbn-section-tag-face"),   // Auction
        (14, 0, "pbn-call-face"),          // 1D
        (14, 3, "pbn-call-face"),          // Pass
        (15, 13, "pbn-note-ref-face"),     // =1=
        (17, 6, "font-lock-string-face"),  // "1:to play]   (unterminated)
        (19, 1, "pbn-tag-face"),           // Event: the unterminated string stopped at its line
        (22, 0, "font-lock-comment-face"), // { a comment that never ends
        (22, 5, "font-lock-comment-face"),
    ];
    let positions: Vec<_> = expected.iter().map(|(l, c, _)| json!([l, c])).collect();
    let data = run_emacs(&emacs, &dir, "font-lock", &file, json!(positions));
    assert_eq!(
        data["major_mode"],
        json!("pbn-mode"),
        "*.pbn is not in pbn-mode: {data}"
    );
    assert_eq!(data["comment_start"], json!("; "), "{data}");
    let mut bad = Vec::new();
    for ((line, col, want), got) in expected.iter().zip(data["faces"].as_array().unwrap()) {
        let faces: Vec<&str> = got["faces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        if !faces.contains(want) {
            bad.push(format!(
                "{line}:{col} ({}): want {want}, got {faces:?}",
                got["char"]
            ));
        }
    }
    assert!(bad.is_empty(), "wrong faces:\n{}", bad.join("\n"));
}

#[test]
fn emacs_eglot_flymake_diagnostics_of_a_broken_file() {
    let Some(emacs) = emacs() else { return };
    let dir = scratch("diagnostics");
    let file = put(&dir, "broken.pbn", &example("broken.pbn"));
    let data = run_emacs(&emacs, &dir, "diagnostics", &file, json!([]));
    assert!(
        data["eglot_entry"]
            .as_str()
            .unwrap()
            .contains("\"pbn\" \"lsp\""),
        "eglot-server-programs: {data}"
    );
    let diags = data["diagnostics"].as_array().unwrap();
    let d = diags
        .iter()
        .find(|d| d["text"].as_str().unwrap().contains("PBN0003"))
        .unwrap_or_else(|| panic!("no PBN0003 in {diags:?}"));
    // examples/broken.pbn line 17 column 7 (1-based)
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(17), Some(6)),
        "{d}"
    );
    assert!(d["type"].as_str().unwrap().contains("error"), "{d}");
    assert!(d["text"].as_str().unwrap().contains("closing quote"), "{d}");
    for (code, line) in [("PBN0006", 20), ("PBN0004", 22)] {
        assert!(
            diags
                .iter()
                .any(|d| d["text"].as_str().unwrap().contains(code) && d["line"] == json!(line)),
            "no {code} at line {line} in {diags:?}"
        );
    }
}

#[test]
fn emacs_format_on_save_through_eglot() {
    let Some(emacs) = emacs() else { return };
    let dir = scratch("format");
    let (text, expected) = messy_schiphol();
    let file = put(&dir, "messy.pbn", &text);
    let data = run_emacs(&emacs, &dir, "format", &file, json!([]));
    assert_eq!(data["modified"], json!(false), "{data}");
    // The test added an empty line at the end; formatting drops it again.
    assert_same(
        &expected,
        &fs::read_to_string(&file).unwrap(),
        "the file saved by Emacs",
    );
}

#[test]
fn emacs_format_buffer_without_eglot() {
    let Some(emacs) = emacs() else { return };
    let dir = scratch("format-cli");
    let (text, expected) = messy_schiphol();
    let file = put(&dir, "messy.pbn", &text);
    let data = run_emacs(&emacs, &dir, "format-cli", &file, json!([]));
    assert_eq!(data["eglot"], json!(false), "{data}");
    assert_same(
        &expected,
        &fs::read_to_string(&file).unwrap(),
        "the file formatted by pbn-format-buffer",
    );
}
