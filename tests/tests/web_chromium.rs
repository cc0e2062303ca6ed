//! The web page (web/) in headless Chromium, compared with the `pbn` CLI.
//!
//! `web/build.sh` builds the page into a scratch directory (the core as
//! WebAssembly, wasm-bindgen-cli's glue, the vendored CodeMirror), and
//! `web/test/e2e.mjs` drives it in Debian's chromium with playwright-core,
//! as a person would (file picker, buttons), printing what the page shows.
//! Then, on real files of the shared corpus:
//! - the diagnostics listed equal `pbn check --output-format json`'s, and
//!   each is drawn as a squiggle; a diagnostic's Fix button applies its fix;
//! - Fix all equals `pbn check --fix` byte for byte, Format `pbn fmt`;
//! - a Latin-1 file round-trips byte for byte (open, then Download's bytes);
//! - hovering a Deal shows the core's hover (the language server's);
//! - the hand-record view draws every board, and the double-dummy tables
//!   solved in the page's worker equal `pbn dd --overwrite`'s;
//! - a 10 MB file opens and checks with no main-thread task over
//!   [`LONGEST_TASK_MS`] (the check runs in a worker).
//!
//! Needs clang and lld (tree-sitter's C for wasm32), the rustup target
//! wasm32-unknown-unknown, wasm-bindgen-cli of the version web/pbn-wasm
//! pins (`$WASM_BINDGEN`, `.ci/cache/wasm-bindgen-<version>/bin`, or on
//! PATH), node, chromium and `npm ci` in web/test: `.ci/install-web.sh`
//! installs them. Without them the test skips loudly, unless
//! `PBN_REQUIRE_WEB=1` (set by `.ci/run`) makes that a failure.

use pbn_tests::binary::run_pbn_stdin_bytes;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The longest main-thread task allowed while a 10 MB file opens and
/// checks: the check itself runs in a worker; what is left on the main
/// thread is CodeMirror taking the text and drawing the diagnostics.
const LONGEST_TASK_MS: f64 = 1000.0;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repo root")
        .to_path_buf()
}

fn skip(what: &str) {
    let reason = format!("{what} (run .ci/install-web.sh)");
    if std::env::var("PBN_REQUIRE_WEB").is_ok_and(|v| v == "1") {
        panic!("SKIPPED: {reason}: PBN_REQUIRE_WEB=1 makes this a failure");
    }
    pbn_tests::skips::skip(&reason);
}

/// The wasm-bindgen-cli to build with, of the pinned version, or why not.
fn wasm_bindgen() -> Result<PathBuf, String> {
    let manifest = std::fs::read_to_string(repo().join("web/pbn-wasm/Cargo.toml")).unwrap();
    let want = manifest
        .lines()
        .find_map(|l| l.strip_prefix("wasm-bindgen = \"="))
        .and_then(|v| v.strip_suffix('"'))
        .expect("web/pbn-wasm pins wasm-bindgen");
    let candidates = [
        std::env::var_os("WASM_BINDGEN").map(PathBuf::from),
        Some(repo().join(format!(".ci/cache/wasm-bindgen-{want}/bin/wasm-bindgen"))),
        Some(PathBuf::from("wasm-bindgen")),
    ];
    for c in candidates.into_iter().flatten() {
        let Ok(out) = Command::new(&c).arg("--version").output() else {
            continue;
        };
        if String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .nth(1)
            == Some(want)
        {
            return Ok(c);
        }
    }
    Err(format!("wasm-bindgen-cli {want} not found"))
}

fn tools() -> Result<PathBuf, String> {
    let chromium = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/usr/bin/chromium".into());
    if !chromium.exists() {
        return Err(format!("chromium not found at {}", chromium.display()));
    }
    if !repo()
        .join("web/test/node_modules/playwright-core/package.json")
        .exists()
    {
        return Err("playwright-core not installed in web/test/node_modules".into());
    }
    for tool in ["clang", "wasm-ld"] {
        if Command::new(tool).arg("--version").output().is_err() {
            return Err(format!("{tool} not found (clang, lld)"));
        }
    }
    wasm_bindgen()
}

/// What `pbn check --output-format json` lists for `file`: line, column,
/// code, severity and message of each diagnostic.
fn cli_diagnostics(file: &Path) -> Vec<Value> {
    let bytes = std::fs::read(file).unwrap();
    let (_, out, err) =
        run_pbn_stdin_bytes(&["check", "--output-format", "json", "-"], Some(&bytes));
    let report: Value = serde_json::from_slice(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    report["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            serde_json::json!({
                "line": d["line"], "column": d["column"], "code": d["code"],
                "severity": d["severity"], "message": d["message"],
            })
        })
        .collect()
}

/// The DoubleDummyTricks values `pbn dd --overwrite` writes, game by game.
fn cli_dd_tables(file: &Path) -> Vec<String> {
    let bytes = std::fs::read(file).unwrap();
    let (code, out, err) =
        run_pbn_stdin_bytes(&["dd", "--overwrite", "--quiet", "-"], Some(&bytes));
    assert!(code == 0 || code == 1, "pbn dd: {err}");
    pbn_core::text::decode(&out)
        .text
        .lines()
        .filter_map(|l| l.strip_prefix("[DoubleDummyTricks \""))
        .map(|v| v.trim_end().trim_end_matches("\"]").to_owned())
        .collect()
}

#[test]
fn web_page_in_headless_chromium() {
    let Some(corpus) = pbn_tests::corpus::corpus_dir() else {
        return;
    };
    let bindgen = match tools() {
        Ok(b) => b,
        Err(why) => return skip(&why),
    };
    let dir = std::env::temp_dir().join(format!("pbn-web-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dist = dir.join("dist");
    let started = std::time::Instant::now();
    let build = Command::new(repo().join("web/build.sh"))
        .arg(&dist)
        .env("WASM_BINDGEN", &bindgen)
        .output()
        .expect("web/build.sh");
    assert!(
        build.status.success(),
        "web/build.sh failed:\n{}{}",
        String::from_utf8_lossy(&build.stdout),
        String::from_utf8_lossy(&build.stderr)
    );

    eprintln!(
        "web: web/build.sh took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let errors = corpus.join("pbnjveri/errors_10.pbn");
    let latin1 = corpus.join("zdenecek-pbn/bridgecomposer.pbn");
    let records = corpus.join("zdenecek-pbn/bigdeal.pbn");
    let big = dir.join("big.pbn");
    let gen = pbn_tests::gen::generate(10_000, 1, &Default::default());
    assert!(gen.len() > 10_000_000, "{} bytes", gen.len());
    std::fs::write(&big, gen).unwrap();
    let spec = dir.join("spec.json");
    std::fs::write(
        &spec,
        serde_json::json!({
            "dist": dist, "out": dir, "errors": errors, "latin1": latin1, "records": records, "big": big,
        })
        .to_string(),
    )
    .unwrap();
    let run = Command::new("node")
        .arg(repo().join("web/test/e2e.mjs"))
        .arg(&spec)
        .current_dir(repo().join("web/test"))
        .output()
        .expect("node");
    eprintln!(
        "web: page built and driven in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    if run.status.code() == Some(77) {
        return skip(stdout.trim().trim_start_matches("SKIP: "));
    }
    assert!(run.status.success(), "e2e.mjs failed:\n{stdout}\n{stderr}");
    let out: Value = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}:\n{stdout}\n{stderr}"));

    // The diagnostics shown are the CLI's.
    let e = &out["errors"];
    let shown = e["diagnostics"].as_array().unwrap();
    let cli = cli_diagnostics(&errors);
    assert!(!cli.is_empty());
    assert_eq!(shown.len(), cli.len(), "{shown:#?}");
    for (s, c) in shown.iter().zip(&cli) {
        assert_eq!(s, c);
    }
    assert_eq!(e["encoding"], "iso-8859-1");
    assert!(e["squiggles"].as_u64().unwrap() > 0, "{e}");
    assert!(e["highlighted"].as_u64().unwrap() > 0, "{e}");
    assert!(e["fixButtons"].as_u64().unwrap() > 0, "{e}");
    assert!(
        e["afterOneFix"].as_u64() < e["beforeOneFix"].as_u64(),
        "{e}"
    );
    // Fix all and Format: the CLI's bytes.
    let original = std::fs::read(&errors).unwrap();
    let (_, fixed, err) = run_pbn_stdin_bytes(&["check", "--fix", "--quiet", "-"], Some(&original));
    let saved = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert!(
        saved("fixed.pbn") == fixed,
        "Fix all differs from pbn check --fix: {err}"
    );
    let (_, formatted, err) = run_pbn_stdin_bytes(&["fmt", "-"], Some(&original));
    assert!(
        saved("formatted.pbn") == formatted,
        "Format differs from pbn fmt: {err}"
    );

    // Latin-1 round trip.
    assert_eq!(out["latin1"]["encoding"], "iso-8859-1");
    assert!(saved("latin1.pbn") == std::fs::read(&latin1).unwrap());

    // Every board drawn, and the double-dummy tables the CLI's.
    let r = &out["records"];
    let text = pbn_core::text::decode(&std::fs::read(&records).unwrap()).text;
    let games = pbn_core::model::lower(&pbn_core::syntax::parse_pieces(&text), &text)
        .games
        .len();
    assert_eq!(r["articles"].as_u64(), Some(games as u64), "{r}");
    let page_tables: Vec<String> = r["dd"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.as_str().map(str::to_owned))
        .collect();
    assert_eq!(page_tables, cli_dd_tables(&records), "{r}");

    // The hover on a Deal is the core's (the language server's) hover.
    let h = &out["hover"];
    let text = pbn_core::text::decode(&std::fs::read(&records).unwrap()).text;
    let parsed = pbn_core::hover::Parsed::new(&text);
    let offset = parsed.lines.offset(
        &text,
        pbn_core::text::LineCol {
            line: h["line"].as_u64().unwrap() as u32,
            col: h["col"].as_u64().unwrap() as u32,
        },
        pbn_core::text::PositionEncoding::Utf16,
    );
    let want = pbn_core::hover::hover(&parsed.input(&text, &pbn_core::hover::SolveNow), offset)
        .expect("a hover on the Deal");
    assert_eq!(h["markdown"].as_str(), Some(want.markdown.as_str()));
    assert!(
        !h["tooltip"].as_str().unwrap_or("").trim().is_empty(),
        "{h}"
    );

    // Download as: `pbn convert`'s output, `pbn dump`'s and `pbn score`'s.
    let original = std::fs::read(&records).unwrap();
    for to in ["rbn", "lin", "forum"] {
        let (_, cli, err) = run_pbn_stdin_bytes(
            &["convert", "-", "--from", "pbn", "--to", to, "--allow-loss"],
            Some(&original),
        );
        assert!(
            saved(&format!("converted.{to}")) == cli,
            "{to} differs from pbn convert: {err}"
        );
    }
    let (_, cli, _) = run_pbn_stdin_bytes(&["dump", "-"], Some(&original));
    assert!(
        saved("converted.dump") == cli,
        "the dump differs from pbn dump"
    );
    let (_, cli, _) = run_pbn_stdin_bytes(&["score", "-"], Some(&original));
    assert!(
        saved("converted.score") == cli,
        "the score report differs from pbn score"
    );

    // Pasted text is checked.
    let pasted = out["pasted"].as_array().unwrap();
    let text = b"[Event \"pasted\"]\n[Board \"x\"]\n";
    let (_, cli, _) = run_pbn_stdin_bytes(&["check", "--output-format", "json", "-"], Some(text));
    let cli: Value = serde_json::from_slice(&cli).unwrap();
    let codes = |v: &[Value]| v.iter().map(|d| d["code"].clone()).collect::<Vec<_>>();
    assert!(!pasted.is_empty());
    assert_eq!(
        codes(pasted),
        codes(cli["files"][0]["diagnostics"].as_array().unwrap())
    );

    // The 10 MB file.
    let b = &out["big"];
    eprintln!("web: 10 MB file: {b}");
    assert_eq!(b["games"].as_u64(), Some(10_000), "{b}");
    let longest = b["longestTaskMs"].as_f64().unwrap();
    assert!(
        longest < LONGEST_TASK_MS,
        "longest main-thread task {longest} ms: {b}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
