//! The rule table, `server/core/src/codes/spec_rules.tsv`: every normative
//! sentence of PBN 2.1 (quoted, with its §) and the codes that check it, or
//! `none: <why>`; rows with section `own` name pbn's codes that no sentence
//! asks for (style, advice, double-dummy).
//!
//! - every code the table names is in the registry and in `pbn explain --list`;
//! - every code of the registry is named by at least one row;
//! - every code a row names has a failing and a passing fixture (its `bad`
//!   and `good` examples, the ones `pbn explain` prints) that do and do not
//!   trigger it;
//! - every quoted sentence is in its section of the standard (when the
//!   standard is found: `$PBN_SPEC`, or `seeds/` beside the corpus).

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::codes::{self, Category};
use pbn_core::text::decode;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const TABLE: &str = include_str!("../../server/core/src/codes/spec_rules.tsv");
const HEADER: &str = "section\tsentence\tcodes";

#[derive(Debug)]
struct Row {
    line: usize,
    section: String,
    sentence: String,
    /// The codes, or empty with `none` set to the reason.
    codes: Vec<String>,
    none: Option<String>,
}

/// Parses the table; a malformed row is an error naming its line.
fn parse(text: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h == HEADER => {}
        other => return Err(format!("line 1: header must be {HEADER:?}, got {other:?}")),
    }
    let mut rows = Vec::new();
    for (i, l) in lines {
        let line = i + 1;
        let fields: Vec<&str> = l.split('\t').collect();
        let [section, sentence, codes] = fields[..] else {
            return Err(format!("line {line}: {} fields, expected 3", fields.len()));
        };
        let section_ok = section == "own"
            || section.strip_prefix('§').is_some_and(|n| {
                !n.is_empty()
                    && n.split('.')
                        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            });
        if !section_ok {
            return Err(format!(
                "line {line}: section {section:?} is not §N.N… or own"
            ));
        }
        if sentence.trim().is_empty() {
            return Err(format!("line {line}: empty sentence"));
        }
        let (codes, none) = match codes.strip_prefix("none:") {
            Some(why) if !why.trim().is_empty() => (Vec::new(), Some(why.trim().to_string())),
            Some(_) => return Err(format!("line {line}: `none:` without a reason")),
            None => {
                let list: Vec<String> = codes.split(' ').map(str::to_string).collect();
                if let Some(bad) = list.iter().find(|c| {
                    c.len() != 7
                        || !c.starts_with("PBN")
                        || !c[3..].bytes().all(|b| b.is_ascii_digit())
                }) {
                    return Err(format!(
                        "line {line}: {bad:?} is neither a code nor `none: <why>`"
                    ));
                }
                (list, None)
            }
        };
        if section == "own" && codes.is_empty() {
            return Err(format!(
                "line {line}: an own row names the codes it explains"
            ));
        }
        rows.push(Row {
            line,
            section: section.to_string(),
            sentence: sentence.to_string(),
            codes,
            none,
        });
    }
    Ok(rows)
}

fn table() -> Vec<Row> {
    parse(TABLE).unwrap_or_else(|e| panic!("spec_rules.tsv: {e}"))
}

#[test]
fn the_parser_rejects_malformed_rows() {
    let ok = format!("{HEADER}\n§3.4\tIn export format, tag pairs may only occur once.\tPBN1015\n");
    assert_eq!(parse(&ok).unwrap().len(), 1);
    for bad in [
        "§3.4\tx\n",                  // no header
        "§3.4\tx\tPBN1015\textra\n",  // four fields
        "3.4\tx\tPBN1015\n",          // no §
        "§3.\tx\tPBN1015\n",          // empty number
        "§3.4\t \tPBN1015\n",         // no sentence
        "§3.4\tx\tnone:\n",           // no reason
        "§3.4\tx\tPBN1015,PBN1001\n", // comma list
        "§3.4\tx\tcode PBN1015\n",    // not a code
        "own\tx\tnone: style\n",      // own row without a code
    ] {
        let text = if bad.starts_with("§3.4\tx\n") {
            bad.to_string()
        } else {
            format!("{HEADER}\n{bad}")
        };
        assert!(parse(&text).is_err(), "accepted {bad:?}");
    }
}

#[test]
fn every_named_code_exists_and_is_listed() {
    let out = Command::new(pbn_tests::binary::pbn_binary())
        .args(["explain", "--list"])
        .output()
        .expect("run pbn explain --list");
    assert!(out.status.success());
    let listed: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    let mut problems = Vec::new();
    for row in table() {
        for c in &row.codes {
            if codes::lookup(c).is_none_or(|info| info.code != c) {
                problems.push(format!("line {}: {c} is not in the registry", row.line));
            }
            if !listed.contains(c) {
                problems.push(format!(
                    "line {}: {c} is not in `pbn explain --list`",
                    row.line
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_registry_code_is_in_the_table() {
    let named: BTreeSet<String> = table().into_iter().flat_map(|r| r.codes).collect();
    let missing: Vec<_> = codes::all()
        .iter()
        .filter(|c| !named.contains(c.code))
        .map(|c| format!("{} {} ({})", c.code, c.name, c.section))
        .collect();
    assert!(
        missing.is_empty(),
        "codes no row of spec_rules.tsv names (add the sentence they check, or an `own` row):\n{}",
        missing.join("\n")
    );
}

/// The codes `src` gets (export rules for export codes).
fn codes_of(src: &str, export: bool) -> BTreeSet<&'static str> {
    codes_of_bytes(src.as_bytes(), export)
}

/// The codes the bytes `b` get.
fn codes_of_bytes(b: &[u8], export: bool) -> BTreeSet<&'static str> {
    let source = decode(b);
    check_text(
        &source,
        &CheckOptions {
            export,
            ..Default::default()
        },
    )
    .diagnostics
    .iter()
    .map(|d| d.code.code)
    .collect()
}

/// Codes whose `bad`/`good` are not runnable as they stand: the double-dummy
/// ones (`pbn check --dd`, run in server/core/tests/code_examples.rs), and
/// those about bytes or line ends (fixtures below).
const NOT_AS_TEXT: &[&str] = &["PBN1004", "PBN0108", "PBN0007"];

#[test]
fn every_row_code_has_a_failing_and_a_passing_fixture() {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for row in table() {
        for c in &row.codes {
            if !seen.insert(c.clone()) {
                continue;
            }
            let Some(info) = codes::lookup(c) else {
                continue;
            };
            if info.bad.trim().is_empty() || info.good.trim().is_empty() {
                problems.push(format!("{c}: no failing or no passing example"));
                continue;
            }
            if NOT_AS_TEXT.contains(&c.as_str()) || c.starts_with("PBN11") {
                continue;
            }
            let export = info.category == Category::Export;
            if !codes_of(info.bad, export).contains(info.code) {
                problems.push(format!(
                    "{c} (line {}): the failing example passes:\n{}",
                    row.line, info.bad
                ));
            }
            if codes_of(info.good, export).contains(info.code) {
                problems.push(format!(
                    "{c} (line {}): the passing example fails:\n{}",
                    row.line, info.good
                ));
            }
        }
    }
    // Byte-level fixtures of NOT_AS_TEXT.
    let bytes = codes_of_bytes;
    // PBN0007: a game just over and one just under 1 MiB.
    let tags = |n: usize| "[Event \"x\"]\n".repeat(n).into_bytes();
    let (long, short) = (tags((1 << 20) / 12 + 100), tags((1 << 20) / 12 - 100));
    for (code, bad, good, export) in [
        ("PBN0007", &long[..], &short[..], false),
        (
            "PBN1004",
            &b"[Event \"x\"]\n"[..],
            &b"[Event \"x\"]\r\n"[..],
            true,
        ),
        (
            "PBN0108",
            b"%charset=windows-1252\n{ \x93q\x94 }\n[Event \"x\"]\n",
            b"%charset=windows-1252\n{ \"q\" }\n[Event \"x\"]\n",
            false,
        ),
    ] {
        if !bytes(bad, export).contains(code) || bytes(good, export).contains(code) {
            problems.push(format!("{code}: byte fixtures do not tell it apart"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Collapses white space, so a quote may join the standard's wrapped lines.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of section `number` (e.g. "3.4.15") of the standard: from its
/// heading (a numbered line underlined with dashes) to the next heading.
fn section_text<'a>(spec: &'a str, number: &str) -> Option<&'a str> {
    let lines: Vec<(usize, &str)> = spec
        .split_inclusive('\n')
        .scan(0, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let heading = |i: usize| -> Option<&str> {
        let (_, l) = lines[i];
        let underlined = lines.get(i + 1).is_some_and(|(_, n)| n.starts_with("---"));
        let n = l.split_whitespace().next()?.trim_end_matches('.');
        (underlined && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
            .then_some(n)
    };
    let mut start = None;
    for i in 0..lines.len() {
        match (heading(i), start) {
            (Some(n), None) if n == number => start = Some(lines[i].0),
            (Some(_), Some(s)) => return Some(&spec[s..lines[i].0]),
            _ => {}
        }
    }
    start.map(|s| &spec[s..])
}

/// `$PBN_SPEC`, else `seeds/` next to the corpus (`$PBN_CORPUS/..`), else
/// `<repo>/../shared/seeds/`.
fn spec_path() -> PathBuf {
    const NAME: &str = "seeds/001_faf97842eac7ec0d.txt";
    if let Some(p) = std::env::var_os("PBN_SPEC") {
        return PathBuf::from(p);
    }
    match std::env::var_os("PBN_CORPUS") {
        Some(c) => Path::new(&c).join("..").join(NAME),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared")
            .join(NAME),
    }
}

#[test]
fn every_sentence_is_quoted_from_its_section() {
    let path = spec_path();
    let Ok(bytes) = std::fs::read(&path) else {
        let reason = format!(
            "PBN 2.1 text not found at {} (set PBN_SPEC or PBN_CORPUS)",
            path.display()
        );
        if std::env::var("PBN_REQUIRE_CORPUS").is_ok_and(|v| v == "1") {
            panic!("{reason}: PBN_REQUIRE_CORPUS=1 makes this a failure");
        }
        pbn_tests::skips::skip(&reason);
        return;
    };
    let spec = String::from_utf8_lossy(&bytes);
    let mut problems = Vec::new();
    for row in table().iter().filter(|r| r.section != "own") {
        let number = &row.section["§".len()..];
        match section_text(&spec, number) {
            None => problems.push(format!(
                "line {}: no section {number} in the standard",
                row.line
            )),
            Some(text) if !squash(text).contains(&squash(&row.sentence)) => problems.push(format!(
                "line {}: not a quote of {}: {:?}",
                row.line, row.section, row.sentence
            )),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_quote_check_can_fail() {
    let spec = "3.4  Id\n---\n  In export format, tag pairs may\nonly occur once.\n255    /\n3.4.1  Event\n---\nShould.\n";
    let s34 = section_text(spec, "3.4").unwrap();
    assert!(squash(s34).contains("tag pairs may only occur once."));
    assert!(!squash(s34).contains("Should."));
    assert!(section_text(spec, "3.5").is_none());
}

#[test]
fn not_checked_rows_say_why() {
    // A `none:` reason is a sentence, not a placeholder.
    let lazy: Vec<_> = table()
        .into_iter()
        .filter(|r| r.none.as_deref().is_some_and(|w| w.len() < 12))
        .map(|r| format!("line {}: none: {:?}", r.line, r.none))
        .collect();
    assert!(lazy.is_empty(), "{}", lazy.join("\n"));
}
