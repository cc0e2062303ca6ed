//! Every file of the shared corpus parses without a crash, and exactly the
//! files listed in `MALFORMED` contain ERROR or MISSING nodes. Each entry says
//! why the file is malformed; a spec-valid file with an ERROR node is a
//! grammar bug and fails this test.

use pbn_tests::corpus::{corpus_dir, corpus_files};
use std::collections::BTreeMap;

/// Files that contain syntax errors, and why (checked against the file).
const MALFORMED: &[(&str, &str, &str)] = &[
    (
        "bridge-bots/sample.pbn",
        "}",
        "a `{` comment contains `{…}`: brace comments do not nest (§3.8), so the inner `}` ends the comment and the outer `}` is stray",
    ),
    (
        "bridge-pbn/errors_10.pbn",
        "bad characters",
        "the reference verifier's error file: game 23 holds free text outside a comment (and other deliberate errors)",
    ),
    (
        "pbnjveri/errors_10.pbn",
        "bad characters",
        "the reference verifier's error file (original CRLF copy): free text outside a comment in game 23",
    ),
    (
        "pbn-to-pdf/Precision 1C Auctions with Notes.pbn",
        "/",
        "free prose inside an auction section without comment braces (§3.5 allows only calls and annotations): its punctuation (`3D/H`, `or,`) is not a token",
    ),
];

fn latin1_or_utf8(bytes: &[u8]) -> String {
    pbn_core::text::decode(bytes).text
}

fn error_snippets(text: &str) -> Vec<String> {
    let tree = pbn_core::syntax::parse(text);
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            let s = text[n.byte_range()].trim();
            out.push(if n.is_missing() {
                format!("MISSING {}", n.kind())
            } else {
                s.to_owned()
            });
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
    }
    out
}

#[test]
fn corpus_parses_and_only_malformed_files_have_errors() {
    let Some(dir) = corpus_dir() else { return };
    let files = corpus_files(&dir);
    assert!(
        files.len() >= 50,
        "expected the 55-file corpus, found {}",
        files.len()
    );
    let mut with_errors = BTreeMap::new();
    for rel in &files {
        let bytes = std::fs::read(dir.join(rel)).unwrap();
        let text = latin1_or_utf8(&bytes);
        let errs = error_snippets(&text);
        if !errs.is_empty() {
            with_errors.insert(rel.to_string_lossy().replace('\\', "/"), errs);
        }
    }
    let mut problems = Vec::new();
    for (file, errs) in &with_errors {
        match MALFORMED.iter().find(|(f, ..)| f == file) {
            None => problems.push(format!("{file}: unexpected syntax errors {errs:?} (spec-valid file? then it is a grammar bug)")),
            Some((_, needle, _)) => {
                if !errs.iter().any(|e| e.contains(needle)) {
                    problems.push(format!("{file}: errors {errs:?} do not include the documented `{needle}`"));
                }
            }
        }
    }
    for (file, _, why) in MALFORMED {
        if !with_errors.contains_key(*file) {
            problems.push(format!(
                "{file}: listed as malformed ({why}) but parses cleanly now: update the list"
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    eprintln!(
        "corpus: {} files, {} with syntax errors (all documented)",
        files.len(),
        with_errors.len()
    );
}

#[test]
fn incremental_reparse_after_edits_equals_full_parse() {
    // A deterministic mini-fuzz over the corpus: random single edits
    // (delete, insert a PBN-significant character, duplicate a line) applied
    // incrementally must give the same tree as parsing the result afresh.
    let Some(dir) = corpus_dir() else { return };
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let inserts = [
        "\n", "\n\n", "{", "}", "\"", "[", "]", "%", ";", " ", "=1=", "$3", "Pass ", "SA ",
    ];
    let mut parser = pbn_core::syntax::new_parser();
    let mut edits = 0;
    for rel in corpus_files(&dir) {
        let text = latin1_or_utf8(&std::fs::read(dir.join(&rel)).unwrap());
        if text.len() > 60_000 {
            continue;
        }
        let mut tree = parser.parse(&text, None).unwrap();
        let mut current = text.clone();
        for _ in 0..8 {
            let mut start = rand(current.len() + 1);
            while !current.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + rand(6)).min(current.len());
            while !current.is_char_boundary(end) {
                end -= 1;
            }
            let new_text = inserts[rand(inserts.len())];
            let mut next = String::with_capacity(current.len() + new_text.len());
            next.push_str(&current[..start]);
            next.push_str(new_text);
            next.push_str(&current[end..]);
            let point = |s: &str, off: usize| {
                let before = &s[..off];
                let row = before.matches('\n').count();
                let col = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0);
                tree_sitter::Point { row, column: col }
            };
            tree.edit(&tree_sitter::InputEdit {
                start_byte: start,
                old_end_byte: end,
                new_end_byte: start + new_text.len(),
                start_position: point(&current, start),
                old_end_position: point(&current, end),
                new_end_position: point(&next, start + new_text.len()),
            });
            let incremental = parser.parse(&next, Some(&tree)).unwrap();
            let fresh = parser.parse(&next, None).unwrap();
            assert_eq!(
                incremental.root_node().to_sexp(),
                fresh.root_node().to_sexp(),
                "{}: incremental reparse differs after replacing {start}..{end} with {new_text:?}",
                rel.display()
            );
            tree = incremental;
            current = next;
            edits += 1;
        }
    }
    assert!(edits > 100);
}
