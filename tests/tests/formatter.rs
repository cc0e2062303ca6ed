//! The formatter's guarantees on every corpus file and on generated files:
//! idempotent, meaning-preserving (`pbn dump` equal), every comment printed,
//! games with syntax errors printed verbatim.

use pbn::format::{format, FormatOptions};
use pbn::text::decode;
use pbn_tests::corpus::{corpus_dir, corpus_files};
use std::collections::BTreeMap;

fn dump(text: &str) -> serde_json::Value {
    let tree = pbn::syntax::parse(text);
    let doc = pbn::model::lower(&tree, text);
    pbn::model::dump::dump(&doc, text)
}

fn comments(text: &str) -> BTreeMap<String, usize> {
    let tree = pbn::syntax::parse(text);
    let mut out = BTreeMap::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "comment" | "unterminated_comment" | "escape_line") {
            *out.entry(text[n.byte_range()].trim_end().to_owned()).or_default() += 1;
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

fn check_one(name: &str, bytes: &[u8], failures: &mut Vec<String>) {
    let source = decode(bytes);
    let opts = FormatOptions::default();
    let once = format(&source, &opts);
    let twice = format(&decode(once.text.as_bytes()), &opts);
    if once.text != twice.text {
        let line = once.text.lines().zip(twice.text.lines()).position(|(a, b)| a != b).unwrap_or(0);
        failures.push(format!("{name}: not idempotent (first difference at line {})", line + 1));
    }
    if dump(&source.text)["games"] != dump(&once.text)["games"] {
        let a = dump(&source.text);
        let b = dump(&once.text);
        let g = a["games"].as_array().unwrap().iter().zip(b["games"].as_array().unwrap()).position(|(x, y)| x != y);
        failures.push(format!("{name}: dump differs after formatting (game {:?}, {} vs {} games)", g.map(|g| g + 1), a["games"].as_array().unwrap().len(), b["games"].as_array().unwrap().len()));
    }
    if comments(&source.text) != comments(&once.text) {
        failures.push(format!("{name}: comments differ after formatting"));
    }
}

#[test]
fn corpus_files_format_idempotently_and_keep_meaning_and_comments() {
    let Some(dir) = corpus_dir() else { return };
    let mut failures = Vec::new();
    for rel in corpus_files(&dir) {
        let bytes = std::fs::read(dir.join(&rel)).unwrap();
        check_one(&rel.display().to_string(), &bytes, &mut failures);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn generated_files_format_idempotently_and_keep_meaning() {
    let mut failures = Vec::new();
    for seed in 0..4 {
        let text = pbn_tests::gen::generate(200, seed, &pbn_tests::gen::GenOptions::default());
        check_one(&format!("generated seed {seed}"), text.as_bytes(), &mut failures);
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
