//! The tag value parsers (`pbn_core::model::values`) on the shared corpus:
//! the reference verifier's `correct_10.pbn` gives no value error, its
//! `errors_10.pbn` games with a bad value give theirs, and (ignored, for
//! review) a report of what the parsers say on every corpus file.

use pbn_core::codes::values as codes;
use pbn_core::diagnostic::Severity;
use pbn_core::model::values::table;
use pbn_core::model::values::{check_table_cell, parse_columns, parse_for_tag, ValueIssue};
use pbn_tests::corpus::{corpus_dir, corpus_files};

/// White space inside a tag value (as the parsers see it).
fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `[Name "value"]` pairs of a PBN fragment or file (one tag per line,
/// possibly several on a line), raw values (escapes kept), with the line
/// number. Lines starting with `%` are skipped.
pub fn extract_tags(text: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        if line.starts_with('%') {
            continue;
        }
        let mut rest = line;
        while let Some(open) = rest.find('[') {
            let after = &rest[open + 1..];
            let name_len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            let name = &after[..name_len];
            let tail = after[name_len..].trim_start();
            if name.is_empty() || !tail.starts_with('"') {
                rest = after;
                continue;
            }
            // Find the closing quote, honouring \" and \\.
            let body = &tail[1..];
            let mut end = None;
            let mut chars = body.char_indices();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(end) = end else { break };
            out.push((ln + 1, name.to_string(), body[..end].to_string()));
            rest = &body[end + 1..];
        }
    }
    out
}

/// A file of the reference verifier's directory, read as Latin-1 (as
/// they are written); `None` (skipped loudly) without the corpus.
fn read_latin1(name: &str) -> Option<String> {
    let path = corpus_dir()?.join("pbnjveri").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(bytes.iter().map(|&b| b as char).collect())
}

/// Tags with their game number (from the `% ===== game N =====` headers,
/// or counting semi-empty lines when there are no headers).
fn tags_by_game(text: &str) -> Vec<(usize, usize, String, String)> {
    let mut game_of_line = Vec::new();
    let mut game = 1;
    let mut prev_blank = false;
    let has_headers = text.contains("==================== game");
    for line in text.lines() {
        let l = line.trim_end_matches('\r');
        if has_headers {
            if let Some(rest) = l.strip_prefix("% ==================== game ") {
                game = rest
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(game);
            }
        } else {
            let blank = l.trim().is_empty();
            if blank && !prev_blank {
                game += 1;
            }
            prev_blank = blank;
        }
        game_of_line.push(game);
    }
    extract_tags(text)
        .into_iter()
        .map(|(ln, name, raw)| (game_of_line[ln - 1], ln, name, raw))
        .collect()
}

/// Prints what the parsers report on every corpus file (run with
/// `--ignored --nocapture` to review noise on real files).
#[test]
#[ignore]
fn corpus_sweep_report() {
    use std::collections::BTreeMap;
    let mut by_code: BTreeMap<&str, (usize, Vec<String>)> = BTreeMap::new();
    let Some(dir) = corpus_dir() else {
        return;
    };
    for rel in corpus_files(&dir) {
        {
            let p = dir.join(&rel);
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let text = String::from_utf8(bytes.clone())
                .unwrap_or_else(|_| bytes.iter().map(|&b| b as char).collect());
            let lines: Vec<&str> = text.lines().collect();
            for (ln, name, raw) in extract_tags(&text) {
                if raw.starts_with('#') {
                    continue;
                }
                if table::is_table_tag(&name) {
                    // Table elements: the lines after the tag, up to the next tag or blank line.
                    let cols = parse_columns(&raw).value.unwrap_or_default();
                    let mut elements = Vec::new();
                    for line in lines.iter().skip(ln) {
                        let line = line.trim_end_matches('\r');
                        if line.trim().is_empty() || line.trim_start().starts_with('[') {
                            break;
                        }
                        let mut rest = line.trim_start();
                        while !rest.is_empty() {
                            if let Some(r) = rest.strip_prefix('"') {
                                let end = r.find('"').unwrap_or(r.len());
                                elements.push(r[..end].to_string());
                                rest = r.get(end + 1..).unwrap_or("").trim_start();
                            } else {
                                let end = rest.find(is_ws).unwrap_or(rest.len());
                                elements.push(rest[..end].to_string());
                                rest = rest[end..].trim_start();
                            }
                        }
                    }
                    if !cols.is_empty() {
                        for (k, cell) in elements.iter().enumerate() {
                            let col = &cols[k % cols.len()];
                            if let Some(i) = check_table_cell(&name, &col.name, cell) {
                                let e = by_code.entry(i.code.code).or_default();
                                e.0 += 1;
                                if e.1.len() < 12 {
                                    e.1.push(format!(
                                        "{}:{ln} {name} column {} cell {cell:?}: {}",
                                        p.display(),
                                        col.name,
                                        i.message
                                    ));
                                }
                            }
                        }
                    }
                }
                for i in parse_for_tag(&name, &raw).unwrap_or_default() {
                    let e = by_code.entry(i.code.code).or_default();
                    e.0 += 1;
                    if e.1.len() < 12 {
                        e.1.push(format!(
                            "{}:{ln} [{name} \"{raw}\"] {}",
                            p.display(),
                            i.message
                        ));
                    }
                }
            }
        }
    }
    for (code, (n, examples)) in by_code {
        println!("{code}: {n}");
        for e in examples {
            println!("    {e}");
        }
    }
}

#[test]
fn corpus_correct_10_has_no_value_errors() {
    let Some(text) = read_latin1("correct_10.pbn") else {
        return;
    };
    let mut checked = 0;
    let mut problems = Vec::new();
    for (_, ln, name, raw) in tags_by_game(&text) {
        if raw.starts_with('#') {
            continue;
        }
        if let Some(issues) = parse_for_tag(&name, &raw) {
            checked += 1;
            for i in issues.iter().filter(|i| i.severity() >= Severity::Warning) {
                problems.push(format!(
                    "line {ln}: [{name} \"{raw}\"]: {} {}",
                    i.code.code, i.message
                ));
            }
        }
    }
    assert!(checked > 100, "only {checked} values checked");
    assert!(
        problems.is_empty(),
        "correct_10.pbn:\n{}",
        problems.join("\n")
    );
}

#[test]
fn corpus_errors_10_value_errors_are_caught() {
    let Some(text) = read_latin1("errors_10.pbn") else {
        return;
    };
    let tags = tags_by_game(&text);
    let issues_of_game = |g: usize| -> Vec<(String, String, Vec<ValueIssue>)> {
        tags.iter()
            .filter(|(game, ..)| *game == g)
            .filter_map(|(_, _, n, r)| parse_for_tag(n, r).map(|i| (n.clone(), r.clone(), i)))
            .collect()
    };
    // Games with exactly one bad value: it must give an error.
    for g in (5..=22).chain([67]) {
        let found = issues_of_game(g);
        assert!(
            found
                .iter()
                .any(|(_, _, i)| i.iter().any(|i| i.severity() == Severity::Error)),
            "game {g}: no error in {found:#?}"
        );
    }
    // Games 63-66: each of the four score tags is bad.
    for g in 63..=66 {
        let found = issues_of_game(g);
        assert_eq!(found.len(), 4, "game {g}: {found:#?}");
        for (n, r, i) in &found {
            assert!(
                i.iter().any(|i| i.severity() == Severity::Error),
                "game {g}: [{n} \"{r}\"] gives {i:#?}"
            );
        }
    }
    // Game 59: "sum differs from 13".
    let found = issues_of_game(59);
    assert!(found.iter().any(|(n, _, i)| n == "Result"
        && i.iter()
            .any(|i| std::ptr::eq(i.code, &codes::RESULT_SUM_UNDER_13))));
    // Game 56: note indexes 0 and 33.
    let bad_notes: Vec<_> = issues_of_game(56)
        .into_iter()
        .filter(|(n, _, i)| n == "Note" && !i.is_empty())
        .map(|(_, r, _)| r)
        .collect();
    assert_eq!(bad_notes.len(), 2, "{bad_notes:?}");
    // Game 72: five malformed notes.
    let found = issues_of_game(72);
    let notes: Vec<_> = found.iter().filter(|(n, ..)| n == "Note").collect();
    assert_eq!(notes.len(), 5);
    for (_, r, i) in notes {
        assert!(
            i.iter().any(|i| std::ptr::eq(i.code, &codes::NOTE_FORMAT)),
            "[Note \"{r}\"]: {i:#?}"
        );
    }
    // Game 70: unknown values are reported (warning for Scoring, info otherwise).
    let found = issues_of_game(70);
    assert_eq!(found.len(), 4);
    for (n, r, i) in &found {
        assert_eq!(i.len(), 1, "[{n} \"{r}\"]: {i:#?}");
    }
    // Valid games of errors_10 (e.g. 28, 56-61, 73, 74) have no value error
    // except the ones listed above.
    for g in [28, 57, 58, 60, 61, 73, 74] {
        for (n, r, i) in issues_of_game(g) {
            assert!(i.is_empty(), "game {g}: [{n} \"{r}\"]: {i:#?}");
        }
    }
}
