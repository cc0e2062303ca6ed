//! Safe fixes never change what a file means: on every corpus file and
//! every fixture of `tests/fixtures/fmt/` and `tests/fixtures/fix/`, each
//! game without a syntax error dumps (`pbn dump`) the same after
//! `fix_source` applied every safe fix, but for the scoring figures a
//! Scoring tag computes (`tests/fixtures/fix/0808-*`, `0809-*`, `0810-*`).
//! Games with errors count too: a safe fix repairs an error (`P` for
//! `Pass`, `--` for `-`) by writing what the checker and `dump` read.

use pbn_core::checker::fix::fix_source;
use pbn_core::checker::CheckOptions;
use pbn_core::text::SourceText;
use pbn_tests::corpus::{corpus_dir, corpus_sources, pbn_files};
use std::path::Path;

fn games(text: &str) -> Vec<serde_json::Value> {
    let tree = pbn_core::syntax::parse_pieces(text);
    let doc = pbn_core::model::lower(&tree, text);
    let dump = pbn_core::model::dump::dump(&doc, text);
    dump["games"].as_array().cloned().unwrap_or_default()
}

/// The games of `source` whose meaning its safe fixes changed: "name: game
/// n" lines.
fn changed_games(name: &str, source: &SourceText) -> Vec<String> {
    let opts = CheckOptions::default();
    let fixed = fix_source(source, &opts, false);
    let (before, after) = (games(&source.text), games(&fixed.source.text));
    if before.len() != after.len() {
        return vec![format!(
            "{name}: {} games before the fixes, {} after",
            before.len(),
            after.len()
        )];
    }
    before
        .iter()
        .zip(&after)
        .enumerate()
        .filter(|(_, (b, a))| {
            // But for the scoring figures the Scoring tag computes.
            b.get("syntax_error").is_none()
                && pbn_tests::fuzz::without_figures(b) != pbn_tests::fuzz::without_figures(a)
        })
        .map(|(i, (b, a))| format!("{name}: game {}: {}", i + 1, differences(b, a)))
        .collect()
}

/// Where two dumps differ: the paths of the differing values, with both.
fn differences(b: &serde_json::Value, a: &serde_json::Value) -> String {
    fn walk(path: &str, b: &serde_json::Value, a: &serde_json::Value, out: &mut Vec<String>) {
        match (b, a) {
            (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
                for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                    let null = serde_json::Value::Null;
                    let (p, q) = (x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null));
                    walk(&format!("{path}/{k}"), p, q, out);
                }
            }
            (serde_json::Value::Array(x), serde_json::Value::Array(y)) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    walk(&format!("{path}/{i}"), p, q, out);
                }
            }
            _ if b != a => out.push(format!("{path}: {b} → {a}")),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk("", b, a, &mut out);
    out.join("; ")
}

#[test]
fn safe_fixes_keep_the_meaning_of_every_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut failures = Vec::new();
    let mut n = 0;
    for dir in ["fmt", "fix"] {
        for path in pbn_files(&root.join(dir)) {
            let source = pbn_core::text::decode(&std::fs::read(&path).unwrap());
            failures.extend(changed_games(&path.display().to_string(), &source));
            n += 1;
        }
    }
    assert!(n >= 15, "{n} fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn safe_fixes_keep_the_meaning_of_every_corpus_file() {
    let Some(dir) = corpus_dir() else { return };
    let mut failures = Vec::new();
    for (name, source) in corpus_sources(&dir) {
        failures.extend(changed_games(&name, &source));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The failing case the property guards against: a fix that changed a card.
#[test]
fn a_changed_card_is_a_changed_meaning() {
    let a = games("[Play \"N\"]\nSA -- H2 -\n");
    let b = games("[Play \"N\"]\nSA -- H3 -\n");
    assert_ne!(a, b);
}

/// A safe fix changes only values it reads: placeholders of a template
/// (`$contract`) are no values, and upper-casing them would make other
/// text; a lower-case value it reads is still upper-cased.
#[test]
fn safe_fixes_leave_values_they_do_not_read_alone() {
    let text = "[Dealer \"$dealer\"]\n[Declarer \"$declarer\"]\n[Contract \"$contract\"]\n\
        [Deal \"$dealer:$deal\"]\n[Auction \"$dealer\"]\n[Play \"$leader\"]\n\n\
        [Dealer \"n\"]\n[Declarer \"s\"]\n[Contract \"3nt\"]\n[Auction \"n\"]\nPass\n";
    let source = SourceText::from_text(text.to_owned());
    let fixed = fix_source(
        &source,
        &CheckOptions {
            export: true,
            ..Default::default()
        },
        false,
    );
    let out = &fixed.source.text;
    for placeholder in [
        "\"$dealer\"",
        "\"$declarer\"",
        "\"$contract\"",
        "\"$dealer:$deal\"",
        "\"$leader\"",
    ] {
        assert!(out.contains(placeholder), "{placeholder} changed:\n{out}");
    }
    for fixed_value in [
        "[Dealer \"N\"]",
        "[Declarer \"S\"]",
        "[Contract \"3NT\"]",
        "[Auction \"N\"]",
    ] {
        assert!(out.contains(fixed_value), "{fixed_value} not fixed:\n{out}");
    }
}
