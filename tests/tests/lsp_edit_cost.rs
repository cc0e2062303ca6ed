//! An edit's check must not depend on the document's size: the language
//! server's re-check (`Snapshot::checked` over `checker::check_segments`)
//! looks one by one only at the games of the pieces the edit touched,
//! whatever the number of games; every other piece's diagnostics are taken
//! whole. `Snapshot::check_stats` counts the games looked at
//! (`Stats::examined`); the diagnostics stay those of a full check
//! (`lsp_stress.rs`, `tests/tests/checker.rs`).
//!
//! With `#`/`##` values (§4.8), an edit resolves inherited values again
//! only until the state between two pieces is what it was
//! (`Stats::resolved`), and the result is a fresh open's.
//!
//! `edit_cost_by_size` (ignored) times the check of an edit at 1,000 and
//! 100,000 games (`PBN_EDIT_GAMES=1000,100000`).

use pbn::lsp::document::Document;
use pbn_core::checker::Stats as CheckStats;
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

/// What each of a series of edits in middle games did (a digit replaced,
/// a character inserted and deleted, a line added), and the most games
/// any one piece of the document holds.
fn stats_per_edit(text: &str) -> (Vec<CheckStats>, usize) {
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
            out.push(doc.snapshot.check_stats().unwrap());
        }
    }
    // A new line between two games (the pieces around it cut again).
    let at = doc.snapshot.game_spans().get(n / 3).unwrap().start;
    change(&mut doc, at..at, "\n");
    out.push(doc.snapshot.check_stats().unwrap());
    (out, per_piece)
}

/// The games looked at by each edit of [`stats_per_edit`].
fn examined_per_edit(text: &str) -> (Vec<usize>, usize) {
    let (stats, per_piece) = stats_per_edit(text);
    (stats.iter().map(|s| s.examined).collect(), per_piece)
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

/// A generated file with `#`/`##` values (§4.8): `##` on game 0's Site
/// (replaced by game 1's own), `#` on every later game's Event, and
/// `extra` added to game 0's tags.
fn inheriting(games: usize, extra: &str) -> String {
    let text = generate(games, 5, &GenOptions::default()).replacen("[Site \"", "[Site \"##", 1);
    let mut parts = text.split("[Event \"");
    let mut out = parts.next().unwrap().to_owned();
    for (k, part) in parts.enumerate() {
        out.push_str("[Event \"");
        if k == 0 {
            out.push_str(part);
            out = out.replacen("[Site \"", &format!("{extra}[Site \""), 1);
        } else {
            out.push('#');
            out.push_str(&part[part.find('"').unwrap()..]);
        }
    }
    out
}

/// With `#` values an edit resolves inherited values again only from its
/// piece until the state between two pieces is what it was, and looks at
/// the games of the pieces it touched only.
#[test]
fn an_edit_in_an_inheriting_file_stays_in_its_pieces() {
    let text = inheriting(3000, "");
    let (stats, per_piece) = stats_per_edit(&text);
    for (k, s) in stats.iter().enumerate() {
        assert!(
            s.examined <= 3 * per_piece && s.resolved <= 3 * per_piece,
            "edit {k}: {s:?}, a piece holds at most {per_piece}: {stats:?}"
        );
    }
}

/// An edit of a `##` value that every later game inherits changes every
/// game's inherited values: the counters see the whole document's work
/// (what the test above would catch).
#[test]
fn an_edit_of_a_value_every_game_inherits_is_seen_by_the_counters() {
    let text = inheriting(300, "[Annotator \"##Ann\"]\n");
    let mut doc = open(&text);
    let at = doc.snapshot.source.text.find("##Ann").unwrap() + 2;
    change(&mut doc, at..at + 1, "B");
    let s = doc.snapshot.check_stats().unwrap();
    assert!(s.resolved >= 300 && s.examined >= 300, "{s:?}");
}

/// Every game's inherited values and sources, and every diagnostic.
fn outcome(doc: &Document) -> (Vec<String>, Vec<String>) {
    let r = doc
        .snapshot
        .checked()
        .resolutions
        .clone()
        .expect("# values");
    let n = doc.snapshot.game_spans().len();
    let res = (0..n).map(|i| format!("{:?}", r.get(i))).collect();
    let diags = doc
        .snapshot
        .check()
        .diagnostics
        .iter()
        .map(|d| format!("{d:?}"))
        .collect();
    (res, diags)
}

/// Edits that add and remove games (so later sources are renumbered, not
/// resolved again) and change inherited values give what a fresh open of
/// the same text gives.
#[test]
fn incremental_inheritance_equals_a_fresh_resolution() {
    let text = inheriting(600, "[Annotator \"##Ann\"]\n");
    let mut doc = open(&text);
    for k in 0..24 {
        let spans = doc.snapshot.game_spans();
        let n = spans.len();
        let g = (k * 97 + 13) % (n - 2) + 1;
        let span = spans.get(g).unwrap();
        let next = spans.get(g + 1).unwrap().start;
        let body = doc.snapshot.source.text[span.start..next].to_owned();
        match k % 4 {
            // A copy of game g before it: every later game moves.
            0 => change(&mut doc, span.start..span.start, &body),
            // Game g removed.
            1 => change(&mut doc, span.start..next, ""),
            // A real Event value: later `#` Events inherit it.
            2 => {
                let at = span.start + body.find("[Event \"").unwrap() + 8;
                change(&mut doc, at..at + 1, &format!("E{k}\"][X \""));
            }
            // The `##` value in game 0 changed.
            _ => {
                let at = doc.snapshot.source.text.find("##").unwrap() + 2;
                change(&mut doc, at..at, "z");
            }
        }
        let fresh = open(&doc.snapshot.source.text);
        let (a, b) = (outcome(&doc), outcome(&fresh));
        let first = |x: &[String], y: &[String]| {
            (0..x.len().max(y.len()))
                .find(|&i| x.get(i) != y.get(i))
                .map(|i| (i, x.get(i).cloned(), y.get(i).cloned()))
        };
        assert!(
            a == b,
            "edit {k} (game {g}): differs from a fresh open: resolutions {:?}, diagnostics {:?}",
            first(&a.0, &b.0),
            first(&a.1, &b.1)
        );
    }
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
            let index = &doc.snapshot.index;
            let pos = |b: usize| {
                let line = index.line_of(b);
                serde_json::json!({"line": line, "character": b - index.line_start(line)})
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
