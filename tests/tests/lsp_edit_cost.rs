//! An edit's check must not depend on the document's size: the language
//! server's re-check (`Snapshot::checked` over `checker::check_segments`)
//! looks one by one only at the games of the pieces the edit touched,
//! whatever the number of games; every other piece's diagnostics are taken
//! whole. `Snapshot::check_stats` counts the games looked at
//! (`Stats::examined`); the diagnostics stay those of a full check
//! (`lsp_stress.rs`, `tests/tests/checker.rs`).
//!
//! `edit_cost_by_size` (ignored) times the check of an edit at 1,000 and
//! 100,000 games (`PBN_EDIT_GAMES=1000,100000`).

use pbn::lsp::document::Document;
use pbn_core::text::PositionEncoding;
use pbn_tests::gen::{generate, GenOptions};
use pbn_tests::lsp_doc::settings;
use std::ops::Range;

fn open(text: &str) -> Document {
    let doc = Document::open(
        "file:///t.pbn".parse().unwrap(),
        1,
        text.to_owned(),
        settings(),
    );
    let _ = doc.snapshot.checked();
    doc
}

/// Replaces bytes `r` of the document by `new`, as an editor would, and
/// checks the new version.
fn change(doc: &mut Document, r: Range<usize>, new: &str) {
    pbn_tests::lsp_doc::change(doc, r, new);
    let _ = doc.snapshot.checked();
}

/// The offset of the last digit of game `g`'s `[Board]` value.
fn board_digit(doc: &Document, g: usize) -> usize {
    let text = doc.snapshot.source.text.as_str();
    let start = doc.snapshot.game_spans().get(g).expect("game g").start;
    let at = start + text[start..].find("[Board \"").expect("a Board tag") + 8;
    at + text[at..].find('"').expect("a closing quote") - 1
}

/// The games looked at by each of a series of edits in middle games (a
/// digit replaced, a character inserted and deleted, a line added),
/// and the most games any one piece of the document holds.
fn examined_per_edit(text: &str) -> (Vec<usize>, usize) {
    let mut doc = open(text);
    let n = doc.snapshot.game_spans().len();
    let stats = doc.snapshot.check_stats().unwrap();
    assert_eq!(stats.examined, n, "the open looks at every game");
    let spans = doc.snapshot.game_spans();
    let per_piece = doc
        .snapshot
        .forest
        .ranges()
        .iter()
        .map(|r| {
            spans.partition_point(|g| g.start < r.end)
                - spans.partition_point(|g| g.start < r.start)
        })
        .max()
        .unwrap();
    let mut out = Vec::new();
    for k in 0..6 {
        let g = n / 2 + 7 * k;
        let at = board_digit(&doc, g);
        let digit = doc.snapshot.source.text.as_bytes()[at];
        let new = if digit == b'9' { "0" } else { "9" };
        let step: [(Range<usize>, &str); 3] = [
            (at..at + 1, new),
            (at + 1..at + 1, "7"),
            (at + 1..at + 2, ""),
        ];
        for (r, s) in step {
            change(&mut doc, r, s);
            out.push(doc.snapshot.check_stats().unwrap().examined);
        }
    }
    // A new line between two games (the pieces around it cut again).
    let at = doc.snapshot.game_spans().get(n / 3).unwrap().start;
    change(&mut doc, at..at, "\n");
    out.push(doc.snapshot.check_stats().unwrap().examined);
    (out, per_piece)
}

#[test]
fn an_edit_looks_only_at_the_games_of_the_pieces_it_touched() {
    let mut most = Vec::new();
    for games in [300, 3000] {
        let text = generate(games, 5, &GenOptions::default());
        let (examined, per_piece) = examined_per_edit(&text);
        // An edit re-cuts its piece, and at most its neighbours.
        for (k, e) in examined.iter().enumerate() {
            assert!(
                *e <= 3 * per_piece,
                "{games} games, edit {k}: {e} games looked at, a piece holds at most {per_piece}: {examined:?}"
            );
        }
        most.push(*examined.iter().max().unwrap());
    }
    // Ten times the games, not ten times the work.
    assert!(most[1] <= 2 * most[0].max(1) + 40, "{most:?}");
}

/// With `#` values (§4.8) the inherited values of every later game may
/// change, so an edit still steps through every game's tag summary: what
/// the counter reports, and what the test above would catch.
#[test]
fn the_counter_sees_whole_document_work() {
    let text = generate(300, 5, &GenOptions::default()).replacen("[Site \"", "[Site \"##", 1);
    let (examined, _) = examined_per_edit(&text);
    assert!(examined.iter().all(|&e| e >= 300), "{examined:?}");
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
#[ignore = "timing: run with --ignored --nocapture"]
fn edit_cost_by_size() {
    pbn::alloc::init();
    let sizes: Vec<usize> = std::env::var("PBN_EDIT_GAMES")
        .unwrap_or_else(|_| "1000,100000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("a number of games"))
        .collect();
    for games in sizes {
        let text = generate(games, 1, &GenOptions::clean());
        let mut doc = open(&text);
        let n = doc.snapshot.game_spans().len();
        let (mut apply, mut check) = (Vec::new(), Vec::new());
        let reps: usize =
            std::env::var("PBN_EDIT_REPS").map_or(40, |s| s.parse().expect("a number"));
        for k in 0..reps {
            let at = board_digit(&doc, n / 2 + k);
            let digit = doc.snapshot.source.text.as_bytes()[at];
            let new = if digit == b'9' { "0" } else { "9" };
            let pos = |b: usize| {
                let line = doc.rope.byte_to_line(b);
                serde_json::json!({"line": line, "character": b - doc.rope.line_to_byte(line)})
            };
            let changes = serde_json::from_value(serde_json::json!([
                {"range": {"start": pos(at), "end": pos(at + 1)}, "text": new}
            ]))
            .unwrap();
            let v = doc.version + 1;
            let t = std::time::Instant::now();
            doc.apply(v, changes, PositionEncoding::Utf8, settings());
            apply.push(t.elapsed().as_secs_f64() * 1e3);
            let t = std::time::Instant::now();
            let _ = doc.snapshot.checked();
            check.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let stats = doc.snapshot.check_stats().unwrap();
        println!(
            "{games} games: apply {:.3} ms, check {:.3} ms (median of {reps}; last edit: {stats:?})",
            median(apply),
            median(check)
        );
    }
}
