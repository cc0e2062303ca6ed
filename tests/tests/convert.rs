//! Directory-driven snapshots of the conversions: every
//! `tests/fixtures/convert/rbn/*.rbn` → the PBN `pbn convert` writes (export
//! format), the reader's diagnostics and what `pbn check` says of the
//! result; every `tests/fixtures/convert/forum/*.pbn` → forum notation and
//! the losses; the RBN writer on the same PBN files.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::convert::{self, Format};
use pbn_core::format::{format_fixed, FormatOptions};
use pbn_core::text::{decode, LineIndex, PositionEncoding};
use std::path::{Path, PathBuf};

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/convert")
        .join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

fn at(text: &str, offset: usize) -> String {
    let p = LineIndex::new(text).line_col(text, offset, PositionEncoding::Chars);
    format!("{}:{}", p.line + 1, p.col + 1)
}

/// The report of one RBN → PBN conversion.
fn rbn_report(input: &str) -> String {
    let c = convert::convert(input, Format::Rbn, Format::Pbn);
    let formatted = format_fixed(&decode(c.text.as_bytes()), &FormatOptions::default()).text;
    let mut s = String::from("--- PBN\n");
    s.push_str(&formatted);
    s.push_str("--- read diagnostics\n");
    for d in &c.diagnostics {
        s.push_str(&format!(
            "{} {} {}\n",
            at(input, d.range.start),
            d.severity.name(),
            d.message
        ));
    }
    s.push_str("--- pbn check (errors and warnings)\n");
    let res = check_text(
        &decode(formatted.as_bytes()),
        &CheckOptions {
            export: false,
            ..Default::default()
        },
    );
    for d in &res.diagnostics {
        if matches!(
            d.severity,
            pbn_core::codes::Severity::Error | pbn_core::codes::Severity::Warning
        ) {
            s.push_str(&format!(
                "{} {} {} {}\n",
                at(&formatted, d.range.start),
                d.severity.name(),
                d.code.code,
                d.message
            ));
        }
    }
    s
}

#[test]
fn rbn_fixtures() {
    let all = files("rbn", "rbn");
    assert!(all.len() >= 17, "the RBN document's examples");
    for path in all {
        let input = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("rbn__{name}"), rbn_report(&input));
    }
}

#[test]
fn rbn_reader_never_panics_on_truncations() {
    // Every prefix of every fixture (cut at a char boundary) reads without
    // a panic: malformed input gives diagnostics, not crashes.
    for path in files("rbn", "rbn") {
        let input = std::fs::read_to_string(&path).unwrap();
        for (i, _) in input.char_indices() {
            let _ = convert::convert(&input[..i], Format::Rbn, Format::Pbn);
        }
    }
}

#[test]
fn rbn_line_opening_with_a_non_ascii_character_is_no_label() {
    for input in ["% RBN 2.2\né Ö\n", "\u{e9}\n", "ÿ\nN Ann:Bob:Cy:Di\n"] {
        let c = convert::convert(input, Format::Rbn, Format::Pbn);
        let d = &c.diagnostics[0];
        assert!(
            d.message.starts_with("expected a label"),
            "{input:?}: {d:?}"
        );
        assert!(input.is_char_boundary(d.range.end) && d.range.end <= input.len());
    }
}

#[test]
fn malformed_rbn_gets_positioned_diagnostics() {
    let c = convert::convert("% RBN 2.2\nQ nope\nA QZ:1S\n", Format::Rbn, Format::Pbn);
    let got: Vec<(usize, String)> = c
        .diagnostics
        .iter()
        .map(|d| (d.range.start, d.message.clone()))
        .collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].0, 10);
    assert!(got[0].1.contains("not an RBN label"), "{got:?}");
    assert_eq!(got[1].0, 19);
    assert!(got[1].1.contains("expected the dealer"), "{got:?}");
    // A clean deal has none.
    let c = convert::convert("E Club\nB 1\n\n", Format::Rbn, Format::Pbn);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    assert!(c.text.contains("[Event \"Club\"]"), "{}", c.text);
}

/// The report of one PBN → forum conversion: the text and the losses.
fn forum_report(input: &str) -> String {
    let c = convert::convert(input, Format::Pbn, Format::Forum);
    let mut s = String::from("--- forum\n");
    s.push_str(&c.text);
    s.push_str("--- losses\n");
    for l in &c.losses {
        s.push_str(&format!("game {}: {}\n", l.game + 1, l.what));
    }
    s
}

#[test]
fn forum_fixtures() {
    let all = files("forum", "pbn");
    assert!(all.len() >= 3, "the forum fixtures");
    for path in all {
        let input = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("forum__{name}"), forum_report(&input));
    }
}

#[test]
fn forum_deal_is_south_west_north_east() {
    // "[Deal]" lists South, West, North, East "exactly in that order";
    // a clean game has no loss, an unknown tag is one.
    let pbn = "[Dealer \"N\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432\"]\n";
    let c = convert::convert(pbn, Format::Pbn, Format::Forum);
    assert!(
        c.text
            .contains("[Deal 6543.876.876.876 2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9]"),
        "{}",
        c.text
    );
    assert!(c.losses.is_empty(), "{:?}", c.losses);
    let c = convert::convert(
        &format!("{pbn}[Room \"Open\"]\n"),
        Format::Pbn,
        Format::Forum,
    );
    assert_eq!(c.losses.len(), 1, "{:?}", c.losses);
    assert!(c.losses[0].what.contains("Room"), "{:?}", c.losses);
}

#[test]
fn a_deal_of_null_labels_stays_a_game() {
    // Every game converts or is reported: a PBN game whose values RBN
    // writes as null labels comes back as a game, not as nothing.
    let c = convert::convert("T\nD\nE\n\n", Format::Rbn, Format::Pbn);
    assert!(c.text.contains("[Event \"?\"]"), "{}", c.text);
    // A paragraph alone is commentary, not a game.
    let c = convert::convert("{just text}\n\n", Format::Rbn, Format::Pbn);
    assert!(!c.text.contains('['), "{}", c.text);
}

/// RBN's M makes ("Detailed Explanation of Labels", M) become the
/// OptimumResultTable (§5.7) and come back as M: each example of the RBN
/// document, RBN → PBN → RBN, in the writer's shortest form.
#[test]
fn rbn_m_makes_round_trip_through_the_optimum_result_table() {
    let cases = [
        ("A:88DAC", "A:88DAC"),
        (":978A7+979A7:46435+45436", ":978A7+979A7:46435+45436"),
        (":BAB8A+AAA89:22253=", ":BAB8A+AAA89:22253="),
        ("C:DCC99=:!=", "C:DCC99=:!="),
        (":+??A", ":+??A"),
        // East the complement of South: `!` instead of `+?9`.
        ("9:?4=:?8+?9", "9:?4=:?8!"),
        // West the complement of North, East of South.
        (":DCC99+DCC98:!!", ":DCC99+DCC98:!!"),
        // Only the tricks after the lead: no table, commentary.
        ("BA", "BA"),
    ];
    for (m, want) in cases {
        let pbn = convert::convert(&format!("M {m}\n"), Format::Rbn, Format::Pbn);
        assert!(
            pbn.diagnostics
                .iter()
                .all(|d| d.severity != pbn_core::codes::Severity::Error),
            "{m}: {:?}",
            pbn.diagnostics
        );
        assert_eq!(
            pbn.text.contains("[OptimumResultTable"),
            m.contains(':'),
            "{m}: {}",
            pbn.text
        );
        let rbn = convert::convert(&pbn.text, Format::Pbn, Format::Rbn);
        let got = rbn
            .text
            .lines()
            .find_map(|l| l.strip_prefix("M "))
            .unwrap_or_else(|| panic!("{m}: no M in\n{}", rbn.text));
        assert_eq!(got, want, "{m}: via\n{}", pbn.text);
        assert!(rbn.losses.is_empty(), "{m}: {:?}", rbn.losses);
    }
}

/// A table M cannot hold exactly is written as far as it can be read, and
/// the loss says so.
#[test]
fn an_optimum_result_table_of_another_layout_is_a_loss() {
    let pbn = "[Event \"e\"]\n[OptimumResultTable \"Declarer;Denomination;Result\"]\nN NT 9\nS NT 9\nE X 4\n";
    let rbn = convert::convert(pbn, Format::Pbn, Format::Rbn);
    assert!(rbn.text.contains("\nM :9=\n"), "{}", rbn.text);
    assert!(
        rbn.losses
            .iter()
            .any(|l| l.what.starts_with("the OptimumResultTable's layout")),
        "{:?}",
        rbn.losses
    );
    let exact = "[Event \"e\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT 9\nS NT 9\n";
    let rbn = convert::convert(exact, Format::Pbn, Format::Rbn);
    assert!(rbn.text.contains("\nM :9=\n"), "{}", rbn.text);
    assert!(rbn.losses.is_empty(), "{:?}", rbn.losses);
}
