//! The language server's formatting request answers with edits computed
//! piece by piece from formatted pieces it keeps between versions
//! (`Snapshot::format_edits`). Under random edits (seeded), applying its
//! edits must give exactly what `pbn fmt` writes (`format::format_fixed`:
//! every safe fix applied, then laid out), also with pieces of a few hundred
//! bytes; an already formatted document gets no edit, and after an edit of
//! one game, only that game is edited.

use pbn::lsp::document::Document;
use pbn_core::format::{format_fixed, FormatOptions};
use pbn_core::text::SourceText;
use pbn_tests::gen::{generate, GenOptions};
use pbn_tests::lsp_doc::settings;
use std::ops::Range;

fn open(text: &str) -> Document {
    Document::open(
        "file:///t.pbn".parse().unwrap(),
        1,
        text.to_owned(),
        settings(),
    )
}

/// [`open`] with the document cut into pieces of about `piece` bytes (the
/// server's are [`pbn_core::syntax::EDIT_PIECE`]): more piece ends, where a
/// piece's fixed text meets the text as written around it.
fn open_in_pieces(text: &str, piece: usize) -> Document {
    use pbn::lsp::snapshot::Snapshot;
    use std::sync::{atomic::AtomicI32, Arc};
    let forest = pbn_core::syntax::Forest::cut(text, piece);
    let latest = Arc::new(AtomicI32::new(1));
    let snapshot = Snapshot::with_index(
        "file:///t.pbn".parse().unwrap(),
        1,
        SourceText::from_text(text.to_owned()),
        forest.clone(),
        pbn_core::text::LineIndex::new(text),
        settings(),
    )
    .with_latest(&latest);
    Document {
        uri: snapshot.uri.clone(),
        version: 1,
        forest,
        snapshot: Arc::new(snapshot),
        latest,
    }
}

use pbn_tests::lsp_doc::change;

fn whole(text: &str) -> String {
    let opts = FormatOptions {
        add_missing_tags: settings().add_missing_tags,
        ..FormatOptions::default()
    };
    format_fixed(&SourceText::from_text(text.to_owned()), &opts).text
}

fn edits(doc: &Document) -> Vec<(Range<usize>, String)> {
    let opts = FormatOptions {
        add_missing_tags: settings().add_missing_tags,
        ..FormatOptions::default()
    };
    doc.snapshot.format_edits(&opts).expect("not stale")
}

fn applied(text: &str, edits: &[(Range<usize>, String)]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for (r, s) in edits {
        assert!(r.start >= at, "edits in order and apart: {edits:?}");
        out.push_str(&text[at..r.start]);
        out.push_str(s);
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// splitmix64: a seeded generator of its own, stable across runs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A random edit: text an editor could type, at a char boundary.
fn random_edit(rng: &mut Rng, text: &str) -> (Range<usize>, String) {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut end = (at + rng.below(40)).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    const INSERTS: &[&str] = &[
        "",
        " ",
        "\n",
        "\n\n",
        "\r\n",
        "[Event \"#\"]\n",
        "[Site \"##Club\"]\n",
        "{",
        "}",
        "\"",
        "]",
        "% x\n",
        "[dealer \"s\"]\n",
        "  ",
        "; note\n",
        "pass ",
        "SA ",
        "#",
        // What the safe fixes repair: `Pass`, `X`, `3NT`, `N`.
        "P ",
        "Dbl ",
        " 3N",
        "[Dealer \"n\"]\n",
    ];
    (at..end, INSERTS[rng.below(INSERTS.len())].to_owned())
}

#[test]
fn incremental_formatting_equals_the_whole_document_format_under_random_edits() {
    for (seed, crlf, piece) in [
        (1u64, false, None),
        (2, true, None),
        (3, false, None),
        (4, false, Some(512)),
        (5, true, Some(256)),
    ] {
        // Small pieces: fewer games, as many piece ends.
        let games = if piece.is_some() { 40 } else { 120 };
        let mut text = generate(games, seed, &GenOptions::default());
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let mut doc = match piece {
            None => open(&text),
            Some(n) => open_in_pieces(&text, n),
        };
        assert!(doc.forest.len() > 3, "several pieces");
        let mut rng = Rng(seed);
        for step in 0..60 {
            let (r, new) = random_edit(&mut rng, &doc.snapshot.source.text);
            change(&mut doc, r, &new);
            let text = doc.snapshot.source.text.clone();
            let e = edits(&doc);
            assert_eq!(applied(&text, &e), whole(&text), "seed {seed}, step {step}");
            // Now and then, as on save: the edits applied to the document;
            // formatting it again then changes nothing.
            if step % 7 == 0 {
                for (r, s) in e.iter().rev() {
                    change(&mut doc, r.clone(), s);
                }
                let e = edits(&doc);
                assert_eq!(
                    applied(&doc.snapshot.source.text, &e),
                    whole(&doc.snapshot.source.text),
                    "seed {seed}, step {step}, after formatting"
                );
            }
        }
    }
}

#[test]
fn a_formatted_document_gets_no_edit_and_a_one_game_edit_only_that_game() {
    let text = generate(150, 5, &GenOptions::default());
    let mut doc = open(&text);
    // The generator writes export format: already formatted.
    assert_eq!(whole(&text), text);
    assert!(edits(&doc).is_empty());
    assert!(edits(&doc).is_empty(), "again, from the kept pieces");
    // One game made unformatted (two spaces before its Dealer's value; the
    // pieces are laid out, values are the fixes' business): one edit,
    // inside that game.
    let at = text.match_indices("[Dealer \"").nth(80).unwrap().0 + 8;
    change(&mut doc, at..at, " ");
    let e = edits(&doc);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].0, at..at + 1);
    assert_eq!(e[0].1, "");
    let spans = doc.snapshot.game_spans();
    let game = spans.iter().find(|g| g.contains(&at)).unwrap();
    assert!(game.start <= e[0].0.start && e[0].0.end <= game.end);
    // The request in LSP positions: the same single edit.
    let params = serde_json::from_value(serde_json::json!({
        "textDocument": {"uri": "file:///t.pbn"},
        "options": {"tabSize": 4, "insertSpaces": true}
    }))
    .unwrap();
    let lsp = pbn::lsp::requests::formatting::document(&doc.snapshot, params).unwrap();
    assert_eq!(lsp.len(), 1);
    assert_eq!(lsp[0].new_text, "");
}

#[test]
fn the_background_fill_keeps_every_piece_and_survives_a_newer_version() {
    let text = generate(150, 6, &GenOptions::default());
    let mut doc = open(&text);
    let n = doc.forest.len();
    assert!(n > 3, "several pieces");
    let opts = FormatOptions {
        add_missing_tags: settings().add_missing_tags,
        ..FormatOptions::default()
    };
    // A fill on a version that a newer one replaced stops: nothing is
    // reported filled, and the newer version formats what is left.
    let old = doc.snapshot.clone();
    let at = text.match_indices("[Dealer \"").nth(70).unwrap().0 + 8;
    change(&mut doc, at..at, " ");
    assert!(old.is_stale());
    let _ = old.checked();
    assert_eq!(old.fill_format(&opts), None);
    assert!(!doc.snapshot.format_filled());
    assert_eq!(doc.snapshot.fill_format(&opts), Some(n));
    assert!(doc.snapshot.format_filled());
    // Filled: nothing left to format, and the request answers from the
    // kept pieces (the one edited game).
    assert_eq!(doc.snapshot.fill_format(&opts), Some(0));
    let e = edits(&doc);
    assert_eq!(e, vec![(at..at + 1, String::new())]);
    // After an edit, only its piece is formatted again.
    let at2 = text.match_indices("[Dealer \"").nth(10).unwrap().0 + 8;
    change(&mut doc, at2..at2, " ");
    assert_eq!(doc.snapshot.fill_format(&opts), Some(1));
    assert!(
        doc.snapshot.format_filled(),
        "kept by the document's versions"
    );
}

/// The server fills its formatting cache in the background after an open
/// (and says so in a log message): the first formatting request then
/// answers from kept pieces.
#[test]
fn the_server_formats_in_the_background_after_an_open() {
    use pbn_tests::lsp_client::LspClient;
    use serde_json::json;
    const URI: &str = "file:///tmp/pbn-format-fill/games.pbn";
    let text = generate(300, 7, &GenOptions::default());
    let mut c = LspClient::spawn();
    c.initialize(&["utf-8"]);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": text}}),
    );
    c.diagnostics(URI, 1);
    let log = c.wait_for(|m| m["method"] == "window/logMessage");
    let msg = log["params"]["message"].as_str().unwrap();
    assert!(msg.starts_with(URI), "{msg}");
    let pieces = Document::open(URI.parse().unwrap(), 1, text.clone(), settings())
        .forest
        .len();
    assert!(
        msg.contains(&format!("formatted {pieces} of {pieces} pieces")),
        "{msg}"
    );
    let fmt = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(fmt["result"], json!([]), "already formatted: {fmt}");
    assert_eq!(c.shutdown(), Some(0));
}

/// Not a test: `PBN_FORMAT_TIMING=N cargo test --release -p pbn-tests
/// --test lsp_format -- --ignored --nocapture` prints the formatting
/// request's times on a generated formatted file of N games (the background
/// fill, the first request after it, again, after a one-game edit) for
/// BENCHMARKS.md. No assertion on time.
#[test]
#[ignore]
fn print_formatting_request_times() {
    let n: usize = std::env::var("PBN_FORMAT_TIMING")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let text = generate(n, 1, &GenOptions::default());
    let mut doc = open(&text);
    let t = std::time::Instant::now();
    let _ = doc.snapshot.checked();
    println!("{n} games: check {:?}", t.elapsed());
    let opts = FormatOptions {
        add_missing_tags: settings().add_missing_tags,
        ..FormatOptions::default()
    };
    let t = std::time::Instant::now();
    let filled = doc.snapshot.fill_format(&opts);
    println!(
        "{n} games: background fill {:?}, {filled:?} pieces",
        t.elapsed()
    );
    let t = std::time::Instant::now();
    let e = edits(&doc);
    println!(
        "{n} games: first request (after the fill) {:?}, {} edits",
        t.elapsed(),
        e.len()
    );
    let t = std::time::Instant::now();
    let e = edits(&doc);
    println!(
        "{n} games: again (kept pieces) {:?}, {} edits",
        t.elapsed(),
        e.len()
    );
    let at = text.match_indices("[Dealer \"").nth(n / 2).unwrap().0 + 9;
    change(&mut doc, at..at + 1, "n");
    let _ = doc.snapshot.checked();
    let t = std::time::Instant::now();
    let e = edits(&doc);
    println!(
        "{n} games: after a one-game edit {:?}, {} edit(s) of {} bytes",
        t.elapsed(),
        e.len(),
        e.iter().map(|(_, s)| s.len()).sum::<usize>()
    );
}
