//! `[check] ignore` and `[check.severity]` in `pbn.toml`, honoured by
//! `pbn check` and the language server alike, and `pbn check
//! --statistics`.

use pbn_tests::binary::run_pbn;
use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/policy/statistics.pbn")
}

/// A repository of its own (so that no pbn.toml above applies) holding the
/// fixture and, if given, a pbn.toml.
fn repo(name: &str, config: Option<&str>) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-policy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join(".git")).unwrap();
    let d = std::fs::canonicalize(&d).unwrap();
    std::fs::copy(fixture(), d.join("game.pbn")).unwrap();
    if let Some(c) = config {
        std::fs::write(d.join("pbn.toml"), c).unwrap();
    }
    d
}

fn pbn(args: &[&str], dir: &Path) -> (i32, String, String) {
    run_pbn(args, Some(dir), dir)
}

/// `(code, severity)` of every diagnostic `pbn check --format json` reports.
fn reported(dir: &Path) -> Vec<(String, String)> {
    let (_, out, err) = pbn(&["check", "--format", "json", "game.pbn"], dir);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    v["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const POLICY: &str = "[check]\nignore = [\"nonstandard-date\", \"auction\"]\n\n[check.severity]\nPBN0316 = \"warning\"\ntag = \"info\"\n";

#[test]
fn statistics_count_each_code_with_its_title() {
    let d = repo("stats", None);
    let (code, out, err) = pbn(&["check", "--statistics", "game.pbn"], &d);
    assert_eq!(code, 1, "{err}");
    insta::assert_snapshot!("statistics", out);
    let (code, _, err) = pbn(
        &["check", "--statistics", "--format", "json", "game.pbn"],
        &d,
    );
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn pbn_toml_ignores_codes_and_categories_and_sets_severities() {
    let plain = repo("plain", None);
    let before = reported(&plain);
    let has = |v: &[(String, String)], code: &str, sev: &str| {
        v.iter().any(|(c, s)| c == code && s == sev)
    };
    // Readable forms: warnings in an import-format file (codes::POLICY).
    assert!(has(&before, "PBN0302", "warning"), "{before:?}");
    assert!(has(&before, "PBN0316", "warning"), "{before:?}");
    assert!(has(&before, "PBN0312", "error"), "{before:?}");
    assert!(has(&before, "PBN0510", "warning"), "{before:?}");
    assert!(
        before.iter().any(|(c, _)| c.starts_with("PBN05")),
        "{before:?}"
    );
    let (code, _, _) = pbn(&["check", "game.pbn"], &plain);
    assert_eq!(code, 1);

    let d = repo("policy", Some(POLICY));
    let after = reported(&d);
    assert!(!after.iter().any(|(c, _)| c == "PBN0302"), "{after:?}");
    assert!(
        !after.iter().any(|(c, _)| c.starts_with("PBN05")),
        "{after:?}"
    );
    assert!(has(&after, "PBN0316", "warning"), "{after:?}");
    // The category's severity for the other tag codes.
    assert!(has(&after, "PBN0312", "info"), "{after:?}");
    assert!(has(&after, "PBN0313", "info"), "{after:?}");
    // The exit status follows the configured severities: no error is left.
    let (code, out, _) = pbn(&["check", "game.pbn"], &d);
    assert_eq!(code, 0, "every error was ignored or demoted: {out}");
    std::fs::write(
        d.join("pbn.toml"),
        "[check]\nignore = [\"tag\", \"PBN0520\"]\n[check.severity]\nPBN0510 = \"error\"\n",
    )
    .unwrap();
    let (code, out, _) = pbn(&["check", "game.pbn"], &d);
    assert_eq!(code, 1, "PBN0510 is an error now: {out}");
    assert!(out.contains("PBN0510"), "{out}");
    // `pbn config show` shows the entries.
    std::fs::write(d.join("pbn.toml"), POLICY).unwrap();
    let (_, shown, _) = pbn(&["config", "show", "game.pbn"], &d);
    assert!(
        shown.contains("ignore = [\"PBN0302\", \"auction\"]"),
        "{shown}"
    );
    assert!(shown.contains("PBN0316 = \"warning\""), "{shown}");
    // An unknown code is an error with the file's line and column.
    std::fs::write(d.join("pbn.toml"), "[check]\nignore = [\"PBN0000\"]\n").unwrap();
    let (code, _, err) = pbn(&["check", "game.pbn"], &d);
    assert_eq!(code, 2);
    assert!(err.contains("pbn.toml:2:"), "{err}");
    assert!(
        err.contains("`PBN0000` is neither a diagnostic code"),
        "{err}"
    );
    std::fs::remove_dir_all(&plain).ok();
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_language_server_applies_the_same_policy() {
    let d = repo("lsp", Some(POLICY));
    let uri = format!("file://{}", d.join("game.pbn").display());
    let text = std::fs::read_to_string(fixture()).unwrap();
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(&uri, 1);
    let codes: Vec<(&str, i64)> = diags
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["severity"].as_i64().unwrap()))
        .collect();
    assert!(!codes.iter().any(|(c, _)| *c == "PBN0302"), "{codes:?}");
    assert!(
        !codes.iter().any(|(c, _)| c.starts_with("PBN05")),
        "{codes:?}"
    );
    assert!(codes.contains(&("PBN0316", 2)), "warning: {codes:?}");
    assert!(codes.contains(&("PBN0312", 3)), "information: {codes:?}");
    c.shutdown();
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_policy_is_written_once_and_quoted_by_readme_and_explain() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let policy = pbn_core::codes::POLICY;
    assert!(
        readme.contains(policy),
        "README.md must quote codes::POLICY:\n{policy}"
    );
    let d = repo("explain", None);
    let (code, out, _) = pbn(&["explain", "--policy"], &d);
    assert_eq!(code, 0);
    assert_eq!(out, policy);
    std::fs::remove_dir_all(&d).ok();
}

/// The policy applied: a value the spec does not allow is an error even
/// when it was read (a call, a contract, a date, a seat, a card alike).
#[test]
fn readable_but_nonstandard_values_are_errors_alike() {
    use pbn_core::codes::{lookup, Severity};
    for code in [
        "nonstandard-call",
        "nonstandard-contract",
        "nonstandard-date",
        "nonstandard-seat",
        "nonstandard-vulnerable",
        "nonstandard-card",
        "value-case",
        "deal-spot-cards",
    ] {
        assert_eq!(lookup(code).unwrap().severity, Severity::Error, "{code}");
    }
    for code in ["unknown-tag", "incomplete-auction", "value-padding"] {
        assert_eq!(lookup(code).unwrap().severity, Severity::Warning, "{code}");
    }
}

/// `pbn check --fix` reports what is left as plain `pbn check` would:
/// pbn.toml's `ignore` and severities apply to the leftovers too.
#[test]
fn fix_reports_the_leftovers_under_the_pbn_toml_policy() {
    // Failing case: without a policy, the leftovers are errors and warnings.
    let plain = repo("fix-plain", None);
    let (code, out, err) = pbn(&["check", "--fix", "--color", "never", "game.pbn"], &plain);
    assert!(err.contains("applied"), "{err}");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("warning[PBN0510]"), "{out}");
    assert!(out.contains("error[PBN0312]"), "{out}");
    // Passing case: `auction` ignored, `tag` codes demoted to info.
    let d = repo("fix-policy", Some(POLICY));
    let (code, out, err) = pbn(&["check", "--fix", "--color", "never", "game.pbn"], &d);
    assert!(err.contains("applied"), "{err}");
    assert_eq!(code, 0, "no error is left under the policy: {out}");
    assert!(!out.contains("PBN05"), "{out}");
    assert!(out.contains("info[PBN0312]"), "{out}");
    assert!(out.contains(": 0 errors, 0 warnings"), "{out}");
    std::fs::remove_dir_all(&plain).ok();
    std::fs::remove_dir_all(&d).ok();
}
