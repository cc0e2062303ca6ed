//! The language server keeps no syntax tree or model of a whole document:
//! its `Forest` holds the pieces' ranges only, and each piece is parsed
//! when some work needs it (a few recently used pieces' trees are cached).
//! Whatever walks the whole document does so piece by piece
//! (`Snapshot::map_pieces`), and must see exactly what the whole-document
//! functions see: the same games (inherited values resolved), the same
//! formatted text (`pbn fmt`'s, safe fixes applied), the same single game
//! on demand (`Snapshot::game`).
//! Checked with pieces of one game, of a few hundred bytes and of 32 KB on
//! every corpus file, fixture and code example, and on a generated file
//! with `#`/`##` values.

use pbn::lsp::snapshot::Snapshot;
use pbn::lsp::state::Settings;
use pbn_core::format::{format_fixed, FormatOptions};
use pbn_core::model::{self, dump::dump};
use pbn_core::syntax::{parse_pieces, Forest, EDIT_PIECE};
use pbn_core::text::{LineIndex, SourceText};
use pbn_tests::corpus::{corpus_dir, corpus_sources, own_sources};
use pbn_tests::gen::{generate, GenOptions};

fn snapshot(text: &str, piece: usize) -> Snapshot {
    let uri = "file:///t.pbn".parse().unwrap();
    let forest = Forest::cut(text, piece);
    Snapshot::with_index(
        uri,
        1,
        SourceText::from_text(text.to_owned()),
        forest,
        LineIndex::new(text),
        Settings::default(),
    )
}

/// Returns the number of pieces of the smallest cut.
fn assert_pieces_like_whole(name: &str, text: &str) -> usize {
    let trees = parse_pieces(text);
    let whole = model::lower(&trees, text);
    let want = dump(&whole, text);
    let source = SourceText::from_text(text.to_owned());
    let mut most = 0;
    for piece in [1, 300, EDIT_PIECE] {
        let snap = snapshot(text, piece);
        most = most.max(snap.forest.len());
        // The games and loose comments, piece by piece.
        let mut doc = model::Document::default();
        let done = snap.for_each_piece(|games, loose| {
            doc.games.extend(games.iter().cloned());
            doc.loose.extend(loose.iter().cloned());
        });
        assert!(done, "not stale");
        assert_eq!(
            dump(&doc, text),
            want,
            "{name}, pieces of {piece} bytes: the games piece by piece differ from the model"
        );
        assert_eq!(
            doc.loose.len(),
            whole.loose.len(),
            "{name}, pieces of {piece} bytes: loose comments"
        );
        // Each game on demand.
        assert_eq!(snap.game_spans().len(), whole.games.len(), "{name}");
        for (i, g) in whole.games.iter().enumerate() {
            let one = model::Document {
                games: vec![snap.game(i).expect("every game").clone()],
                loose: Vec::new(),
            };
            let expect = model::Document {
                games: vec![g.clone()],
                loose: Vec::new(),
            };
            assert_eq!(
                dump(&one, text),
                dump(&expect, text),
                "{name}, pieces of {piece} bytes: game {i} on demand"
            );
        }
        // Formatting, with and without the missing tags added.
        for add_missing_tags in [false, true] {
            let opts = FormatOptions {
                add_missing_tags,
                ..FormatOptions::default()
            };
            let a = snap.format(&opts).expect("not stale");
            // What `pbn fmt` writes: the server fixes and formats each piece.
            let b = format_fixed(&source, &opts);
            assert_eq!(
                a.text, b.text,
                "{name}, pieces of {piece} bytes: formatted text differs"
            );
            assert_eq!(a.verbatim_games, b.verbatim_games, "{name}");
            assert_eq!(a.dropped_duplicates, b.dropped_duplicates, "{name}");
        }
    }
    most
}

#[test]
fn corpus_files_walked_piece_by_piece_equal_the_whole() {
    let Some(dir) = corpus_dir() else { return };
    let mut split = 0;
    for (name, source) in corpus_sources(&dir) {
        if assert_pieces_like_whole(&name, &source.text) > 1 {
            split += 1;
        }
    }
    assert!(
        split >= 30,
        "only {split} corpus files were cut into several pieces"
    );
}

#[test]
fn fixtures_and_code_examples_walked_piece_by_piece_equal_the_whole() {
    for c in pbn_core::codes::all() {
        for ex in [c.bad, c.good] {
            assert_pieces_like_whole(c.code, &format!("{ex}\n\n{ex}"));
        }
    }
    for (name, source) in own_sources() {
        assert_pieces_like_whole(&name, &source.text);
    }
}

#[test]
fn inherited_values_resolve_across_pieces() {
    let mut text = generate(40, 3, &GenOptions::default());
    // `##` in the first game, `#` in later ones, and a game that drops a
    // mandatory tag that a later `#` inherits.
    text = text
        .replacen("[Event \"", "[Event \"##", 1)
        .replacen("[Site \"", "[Site \"##", 1);
    let mut n = 0;
    text = text
        .split("[Room \"")
        .map(|s| s.to_owned())
        .reduce(|a, b| {
            n += 1;
            if n % 3 == 0 {
                format!("{a}[Room \"#\"]\n[X \"{}", &b[b.find('"').unwrap() + 1..])
            } else {
                format!("{a}[Room \"{b}")
            }
        })
        .unwrap();
    assert!(text.contains("[Room \"#\"]"));
    assert!(assert_pieces_like_whole("generated with # values", &text) > 10);
}

/// The server's memory: a document's pieces keep no trees except the few
/// in the cache, whose budget bounds the text they cover.
#[test]
fn only_the_tree_cache_keeps_trees() {
    let text = generate(400, 9, &GenOptions::default());
    let uri = "file:///t.pbn".parse().unwrap();
    let forest = Forest::cut_with_cache(&text, 2048, 16 * 1024);
    let snap = Snapshot::with_index(
        uri,
        1,
        SourceText::from_text(text.clone()),
        forest,
        LineIndex::new(&text),
        Settings::default(),
    );
    assert!(snap.forest.len() > 100, "{} pieces", snap.forest.len());
    let _ = snap.checked();
    assert!(snap.format(&FormatOptions::default()).is_some());
    for i in (0..snap.game_spans().len()).step_by(7) {
        snap.game(i).expect("a game");
    }
    let kept = snap.forest.cache().len();
    assert!(
        (1..=16).contains(&kept),
        "{kept} pieces' trees kept for a budget of 16 KB of 2 KB pieces"
    );
}
