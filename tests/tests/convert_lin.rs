//! LIN ↔ PBN (`pbn_core::convert::lin`): directory-driven snapshots of
//! `tests/fixtures/convert/lin` (`*.lin` → PBN and read diagnostics,
//! `*.pbn` → LIN and losses) and random input that must not panic (the
//! corpus round trip is in `convert_roundtrip.rs`).

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::codes::Severity;
use pbn_core::convert::lin::{from_pbn, to_pbn};
use pbn_core::text::{LineIndex, PositionEncoding, SourceText};
use std::path::{Path, PathBuf};

fn fixtures(ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/convert/lin");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

fn name(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// `line:col severity message` of each read diagnostic, placed in `input`.
fn read_report(input: &str, diags: &[pbn_core::convert::ReadDiagnostic]) -> String {
    let index = LineIndex::new(input);
    let mut s = String::new();
    for d in diags {
        let p = index.line_col(input, d.range.start, PositionEncoding::Chars);
        s.push_str(&format!(
            "{}:{} {} {}\n",
            p.line + 1,
            p.col + 1,
            d.severity.name(),
            d.message
        ));
    }
    s
}

/// `pbn check` errors of a PBN text.
fn check_errors(pbn: &str) -> Vec<String> {
    let res = check_text(
        &SourceText::from_text(pbn.to_string()),
        &CheckOptions {
            export: false,
            ..Default::default()
        },
    );
    res.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code.code, d.message))
        .collect()
}

#[test]
fn lin_fixtures_read_as_pbn() {
    let files = fixtures("lin");
    assert!(files.len() >= 4);
    for path in files {
        let input = std::fs::read_to_string(&path).unwrap();
        let n = name(&path);
        let out = to_pbn(&input);
        let report = format!(
            "{}\n--- diagnostics\n{}",
            out.text,
            read_report(&input, &out.diagnostics)
        );
        insta::assert_snapshot!(format!("lin_to_pbn__{n}"), report);
        if n == "malformed" {
            assert!(
                out.diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count()
                    >= 5,
                "{n}: every malformed pair is reported"
            );
        } else {
            assert!(
                out.diagnostics
                    .iter()
                    .all(|d| d.severity != Severity::Error),
                "{n}: {:?}",
                out.diagnostics
            );
            assert_eq!(check_errors(&out.text), Vec::<String>::new(), "{n}");
        }
    }
}

#[test]
fn pbn_fixtures_write_as_lin() {
    let files = fixtures("pbn");
    assert!(!files.is_empty());
    for path in files {
        let input = std::fs::read_to_string(&path).unwrap();
        let n = name(&path);
        let out = from_pbn(&input);
        let mut report = format!("{}--- losses\n", out.text);
        for l in &out.losses {
            report.push_str(&format!("game {}: {}\n", l.game + 1, l.what));
        }
        insta::assert_snapshot!(format!("pbn_to_lin__{n}"), report);
        // And back: the LIN this writes reads without a diagnostic.
        let back = to_pbn(&out.text);
        assert_eq!(back.diagnostics, vec![], "{n}");
    }
}

/// A game after one with only `sv` and `ah` leads with a pair the reader
/// sees repeated: its `pn` and `md` stay in its own board.
#[test]
fn writer_leads_a_board_with_a_pair_that_starts_it() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/convert/lin/writer_header_order.pbn");
    let input = std::fs::read_to_string(path).unwrap();
    let out = from_pbn(&input);
    assert_eq!(out.losses.len(), 0, "{:?}", out.losses);
    let back = to_pbn(&out.text).text;
    let games: Vec<&str> = back.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 2, "{back}");
    assert!(
        !games[0].contains("J9.AQJ63") && !games[0].contains("Walter"),
        "{back}"
    );
    assert!(games[1].contains("[Board \"5\"]") && games[1].contains("[Deal \"N:J9.AQJ63"));
    assert!(games[1].contains("[West \"Walter\"]"), "{back}");
}

/// A small deterministic generator (xorshift): random LIN-like text from
/// pieces that matter (keys, pipes, cards, digits, commas, newlines).
#[test]
fn random_input_never_panics() {
    let pieces = [
        "|", "||", "md", "mb", "pc", "an", "mc", "qx", "pn", "sv", "vg", "ah", "nt", "%", "\n",
        ",", "3", "S", "HA", "1N", "!", "p", "o1", "10", "é", "zz", " ", "SAKQ", "13",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let len = (next() % 60) as usize;
        let input: String = (0..len)
            .map(|_| pieces[(next() % pieces.len() as u64) as usize])
            .collect();
        let out = to_pbn(&input);
        for d in &out.diagnostics {
            assert!(
                d.range.start <= d.range.end && input.is_char_boundary(d.range.start),
                "{input:?}: {d:?}"
            );
        }
        let _ = from_pbn(&out.text);
    }
}
