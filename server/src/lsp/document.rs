//! An open document: the text that incremental changes are applied to
//! (the current snapshot's, edited in place), the parse kept in step with
//! `InputEdit`s, and the immutable [`Snapshot`] that requests run on.
//!
//! The parse is a [`Forest`]: the document in pieces of about 32 KB cut at
//! game breaks, without trees. An edit (`InputEdit`) moves the pieces after
//! it and gives the pieces it touched new ids (cutting them again with
//! their neighbours when the game breaks around them moved); nothing is
//! parsed on the main loop. The check of the new version (on a worker)
//! parses the pieces with new ids, and requests parse the piece they look
//! at; a few recently used pieces' trees are cached. One tree for the whole
//! document would not do: tree-sitter never reuses the "fragile" nodes
//! that its repeat rules build, so reparsing a long flat list of games
//! after a one-character edit cost about as much as parsing it afresh
//! (1.2 s on 20,000 games), and it would take 15 times the text in memory.
//!
//! Positions are converted with the snapshot's [`LineIndex`] (lines end at
//! LF, CRLF or a lone CR, as tree-sitter rows do here), which every edit
//! keeps up to date anyway: no second copy of the text (a rope took as much
//! memory as the text, and building it a tenth of a second per 100 MB at
//! open).

use super::snapshot::Snapshot;
use pbn_core::syntax::{Forest, EDIT_PIECE};
use pbn_core::text::{LineCol, LineIndex, PositionEncoding, SourceText};
use std::sync::Arc;
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};
use tree_sitter::{InputEdit, Point};

pub struct Document {
    pub uri: Uri,
    pub version: i32,
    pub forest: Forest,
    pub snapshot: Arc<Snapshot>,
    /// The latest version, shared with the snapshots (`Snapshot::is_stale`).
    pub latest: Arc<std::sync::atomic::AtomicI32>,
}

/// The byte offset in `text` of an LSP position (a column past the end of
/// its line clamps to the line's end; a line past the last, to the end).
pub fn text_offset(text: &str, index: &LineIndex, p: Position, enc: PositionEncoding) -> usize {
    index.offset(
        text,
        LineCol {
            line: p.line,
            col: p.character,
        },
        enc,
    )
}

/// How long [`Document::take_text`] waits for the previous snapshot to be
/// released before copying a text of `len` bytes: about what the copy
/// would cost (0.5 ns a byte, the text and its line index), at most 30 ms.
fn release_wait(len: usize) -> std::time::Duration {
    std::time::Duration::from_nanos(len as u64 / 2).min(std::time::Duration::from_millis(30))
}

/// The tree-sitter point (row, byte column) of byte `byte`.
fn point(index: &LineIndex, byte: usize) -> Point {
    let row = index.line_of(byte);
    Point {
        row,
        column: byte - index.line_start(row),
    }
}

impl Document {
    pub fn open(
        uri: Uri,
        version: i32,
        text: String,
        settings: super::settings::Settings,
    ) -> Document {
        let forest = Forest::cut(&text, EDIT_PIECE);
        let index = LineIndex::new(&text);
        let latest = Arc::new(std::sync::atomic::AtomicI32::new(version));
        let snapshot = Arc::new(
            Snapshot::with_index(
                uri.clone(),
                version,
                SourceText::from_text(text),
                forest.clone(),
                index,
                settings,
            )
            .with_latest(&latest),
        );
        Document {
            uri,
            version,
            forest,
            snapshot,
            latest,
        }
    }

    /// The current snapshot's text and line index, to edit: taken from it
    /// when nothing else holds it, else copied. Another holder (a request,
    /// the background formatting, a check still running) usually lets go
    /// within a moment once the snapshot is stale, so this waits up to
    /// `wait` for that before copying a whole document.
    pub fn take_text(&mut self, wait: std::time::Duration) -> (SourceText, LineIndex) {
        let start = std::time::Instant::now();
        loop {
            if let Some(s) = Arc::get_mut(&mut self.snapshot) {
                return (
                    std::mem::replace(&mut s.source, SourceText::from_text(String::new())),
                    std::mem::replace(&mut s.index, LineIndex::new("")),
                );
            }
            if start.elapsed() >= wait {
                return (self.snapshot.source.clone(), self.snapshot.index.clone());
            }
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
    }

    /// Applies the changes of one `didChange`, in order, then reparses the
    /// pieces they touched. Runs synchronously: the next notification sees
    /// the result.
    ///
    /// The text and line index of the new snapshot are the previous
    /// snapshot's, edited in place when nothing else holds that snapshot any
    /// more (the usual case: its diagnostics were published), so that a
    /// keystroke in a large document copies neither.
    pub fn apply(
        &mut self,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        enc: PositionEncoding,
        settings: super::settings::Settings,
    ) {
        // Older snapshots are stale from now on: walks over them stop at
        // their next piece and let go of them.
        self.latest
            .store(version, std::sync::atomic::Ordering::Relaxed);
        let (mut source, mut index) = self.take_text(release_wait(self.snapshot.source.text.len()));
        for change in changes {
            match change.range {
                None => {
                    self.forest = Forest::cut(&change.text, EDIT_PIECE);
                    index = LineIndex::new(&change.text);
                    source = SourceText::from_text(change.text);
                }
                Some(range) => {
                    let text = source.text.as_str();
                    let start = text_offset(text, &index, range.start, enc);
                    let end = text_offset(text, &index, range.end, enc).max(start);
                    let start_position = point(&index, start);
                    let old_end_position = point(&index, end);
                    source.replace(start, end, &change.text);
                    let new_end = start + change.text.len();
                    index.replace(&source.text, start, end, new_end);
                    let new_end_position = point(&index, new_end);
                    self.forest.edit(&InputEdit {
                        start_byte: start,
                        old_end_byte: end,
                        new_end_byte: new_end,
                        start_position,
                        old_end_position,
                        new_end_position,
                    });
                }
            }
        }
        self.forest.recut(&source.text);
        self.version = version;
        let next = Snapshot::with_index(
            self.uri.clone(),
            version,
            source,
            self.forest.clone(),
            index,
            settings,
        )
        .with_previous(&self.snapshot)
        .with_latest(&self.latest);
        self.snapshot = Arc::new(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::settings::Settings;
    use tower_lsp_server::ls_types::{Position, Range};

    fn uri() -> Uri {
        "file:///t.pbn".parse().unwrap()
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    fn position_of(text: &str, offset: usize, enc: PositionEncoding) -> Position {
        let idx = pbn_core::text::LineIndex::new(text);
        let lc = idx.line_col(text, offset, enc);
        Position {
            line: lc.line,
            character: lc.col,
        }
    }

    /// Random edit sequences applied incrementally give the same tree and
    /// the same diagnostics as opening the final text afresh.
    #[test]
    fn incremental_edits_equal_a_fresh_open() {
        let base = "% PBN 2.1\n[Event \"Café ♠ 𝄞\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C =1= Pass 1H $3\r\nPass\n[Note \"1:x\"]\n\n{ comment\n\n over lines }\n[Board \"2\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n";
        let pieces = [
            "",
            "\n",
            "\n\n",
            "\r\n",
            "[",
            "]",
            "\"",
            "{",
            "}",
            "é",
            "𝄞",
            "Pass ",
            "=1=",
            "%",
            " ",
            "[Note \"2:y\"]",
            "XX",
        ];
        for enc in [PositionEncoding::Utf16, PositionEncoding::Utf8] {
            let settings = Settings {
                encoding: enc,
                ..Settings::default()
            };
            let mut rng = Rng(0x1234_5678_9abc_def1 ^ enc as u64);
            for round in 0..40 {
                let mut doc = Document::open(uri(), 0, base.to_owned(), settings);
                let mut text = base.to_owned();
                for v in 1..=8 {
                    let mut changes = Vec::new();
                    for _ in 0..1 + rng.below(3) {
                        let mut a = rng.below(text.len() + 1);
                        while !text.is_char_boundary(a) {
                            a -= 1;
                        }
                        let mut b = (a + rng.below(12)).min(text.len());
                        while !text.is_char_boundary(b) {
                            b -= 1;
                        }
                        // A position cannot fall between the CR and LF of a line end.
                        let inside_crlf = |o: usize| {
                            o > 0
                                && text.as_bytes()[o - 1] == b'\r'
                                && text.as_bytes().get(o) == Some(&b'\n')
                        };
                        if inside_crlf(a) {
                            a -= 1;
                        }
                        if inside_crlf(b) {
                            b -= 1;
                        }
                        let b = b.max(a);
                        let new = pieces[rng.below(pieces.len())];
                        let range = Range {
                            start: position_of(&text, a, enc),
                            end: position_of(&text, b, enc),
                        };
                        text.replace_range(a..b, new);
                        changes.push(TextDocumentContentChangeEvent {
                            range: Some(range),
                            range_length: None,
                            text: new.to_owned(),
                        });
                    }
                    // A request may still hold the previous version: its
                    // text is copied then, not edited in place.
                    let held = (v % 2 == 0)
                        .then(|| (doc.snapshot.clone(), doc.snapshot.source.text.clone()));
                    doc.apply(v, changes, enc, settings);
                    if let Some((snap, before)) = held {
                        assert_eq!(
                            snap.source.text, before,
                            "round {round} version {v}: a held snapshot changed"
                        );
                        assert_eq!(snap.index, pbn_core::text::LineIndex::new(&before));
                    }
                    assert_eq!(
                        doc.snapshot.source.text, text,
                        "round {round} version {v}: text differs"
                    );
                    assert_eq!(
                        doc.snapshot.index,
                        pbn_core::text::LineIndex::new(&text),
                        "round {round} version {v}: line index differs"
                    );
                }
                let fresh = Document::open(uri(), 99, text.clone(), settings);
                let nodes = |f: &Forest| {
                    pbn_core::syntax::top_nodes(&f.trees(&text))
                        .iter()
                        .map(|n| (n.to_sexp(), n.byte_range(), n.start_position()))
                        .collect::<Vec<_>>()
                };
                assert_eq!(
                    nodes(&doc.snapshot.forest),
                    nodes(&fresh.snapshot.forest),
                    "round {round}: trees differ"
                );
                // And the canonical parse of the whole text, in any pieces.
                let split = pbn_core::syntax::parse_split(&text, 1);
                let whole: Vec<_> = pbn_core::syntax::top_nodes(&split)
                    .iter()
                    .map(|n| (n.to_sexp(), n.byte_range(), n.start_position()))
                    .collect();
                assert_eq!(
                    nodes(&doc.snapshot.forest),
                    whole,
                    "round {round}: trees differ from a parse game by game"
                );
                let a: Vec<_> = doc
                    .snapshot
                    .check()
                    .diagnostics
                    .iter()
                    .map(|d| (d.code.code, d.range.clone()))
                    .collect();
                let b: Vec<_> = fresh
                    .snapshot
                    .check()
                    .diagnostics
                    .iter()
                    .map(|d| (d.code.code, d.range.clone()))
                    .collect();
                assert_eq!(a, b, "round {round}: diagnostics differ");
            }
        }
    }

    #[test]
    fn an_edit_checks_again_only_the_games_it_touches() {
        let game = |b: usize| {
            format!(
                "[Event \"E\"]\n[Board \"{b}\"]\n[Date \"2024-01-0{}\"]\n",
                b % 9 + 1
            )
        };
        let text: String = (1..=50).map(game).collect::<Vec<_>>().join("\n");
        // Each game's date listed (one file-wide pattern otherwise).
        let settings = Settings {
            group: false,
            ..Settings::default()
        };
        let mut doc = Document::open(uri(), 1, text.clone(), settings);
        let before = doc.snapshot.check().diagnostics.len();
        assert_eq!(before, 50, "one nonstandard-date warning per game");
        // Edit game 10's Board value.
        let at = text.find("[Board \"10\"]").unwrap() + 8;
        let pos = position_of(&text, at, PositionEncoding::Utf16);
        doc.apply(
            2,
            vec![TextDocumentContentChangeEvent {
                range: Some(Range {
                    start: pos,
                    end: pos,
                }),
                range_length: None,
                text: "0".into(),
            }],
            PositionEncoding::Utf16,
            settings,
        );
        assert_eq!(doc.snapshot.reusable_games(), 50);
        let after: Vec<_> = doc
            .snapshot
            .check()
            .diagnostics
            .iter()
            .map(|d| (d.code.code, d.range.clone(), d.game))
            .collect();
        let fresh = Document::open(uri(), 3, doc.snapshot.source.text.clone(), settings);
        let expect: Vec<_> = fresh
            .snapshot
            .check()
            .diagnostics
            .iter()
            .map(|d| (d.code.code, d.range.clone(), d.game))
            .collect();
        assert_eq!(
            after, expect,
            "reused diagnostics are shifted and renumbered exactly"
        );
    }

    /// A request still running on an older version stops its walk over
    /// the whole document once a newer version exists.
    #[test]
    fn walks_over_a_stale_snapshot_stop() {
        let text = "[Event \"a\"]\n[Board \"1\"]\n\n[Event \"b\"]\n";
        let settings = Settings::default();
        let mut doc = Document::open(uri(), 1, text.to_owned(), settings);
        let old = doc.snapshot.clone();
        assert!(!old.is_stale());
        assert!(old.for_each_piece(|_, _| {}));
        let pos = position_of(text, 8, PositionEncoding::Utf16);
        doc.apply(
            2,
            vec![TextDocumentContentChangeEvent {
                range: Some(Range {
                    start: pos,
                    end: pos,
                }),
                range_length: None,
                text: "x".into(),
            }],
            PositionEncoding::Utf16,
            settings,
        );
        assert!(old.is_stale());
        assert!(!old.for_each_piece(|_, _| {}), "the walk stops");
        assert!(old
            .format(&pbn_core::format::FormatOptions::default())
            .is_none());
        assert!(!doc.snapshot.is_stale());
        assert!(doc
            .snapshot
            .format(&pbn_core::format::FormatOptions::default())
            .is_some());
    }

    /// The text of a snapshot that another thread lets go of soon is taken,
    /// not copied; one still held when the wait ends is copied.
    #[test]
    fn an_edit_takes_the_text_once_the_previous_snapshot_is_released() {
        let text = "[Event \"a\"]\n[Board \"1\"]\n".repeat(100);
        let mut doc = Document::open(uri(), 1, text.clone(), Settings::default());
        let at = doc.snapshot.source.text.as_ptr();
        let held = doc.snapshot.clone();
        let release = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            drop(held);
        });
        let (source, index) = doc.take_text(std::time::Duration::from_secs(10));
        release.join().unwrap();
        assert_eq!(source.text.as_ptr(), at, "taken, not copied");
        assert_eq!(
            (source.text.as_str(), index),
            (text.as_str(), LineIndex::new(&text))
        );

        let mut doc = Document::open(uri(), 1, text.clone(), Settings::default());
        let held = doc.snapshot.clone();
        let (source, index) = doc.take_text(std::time::Duration::from_millis(5));
        assert_ne!(source.text.as_ptr(), held.source.text.as_ptr(), "copied");
        assert_eq!(
            (source.text.as_str(), index),
            (text.as_str(), LineIndex::new(&text))
        );
        assert_eq!(held.source.text, text, "the holder's snapshot is intact");
        assert!(release_wait(100 << 20) <= std::time::Duration::from_millis(30));
        assert!(release_wait(1 << 20) < std::time::Duration::from_millis(1));
    }

    #[test]
    fn positions_in_utf16_and_utf8_address_the_same_bytes() {
        let text = "[Event \"𝄞é\"] x\n";
        let index = LineIndex::new(text);
        let at = |p, enc| text_offset(text, &index, p, enc);
        let x = text.find(" x").unwrap() + 1;
        let p16 = Position {
            line: 0,
            character: 14,
        };
        let p8 = Position {
            line: 0,
            character: x as u32,
        };
        assert_eq!(at(p16, PositionEncoding::Utf16), x);
        assert_eq!(at(p8, PositionEncoding::Utf8), x);
        // Past the end of the line clamps to the line end.
        assert_eq!(
            at(
                Position {
                    line: 0,
                    character: 999
                },
                PositionEncoding::Utf16
            ),
            text.len() - 1
        );
        // Lines end at LF, CRLF and a lone CR; a line past the last is the end.
        let text = "a\rbc\r\nd\n";
        let index = LineIndex::new(text);
        let at = |line, character| {
            text_offset(
                text,
                &index,
                Position { line, character },
                PositionEncoding::Utf16,
            )
        };
        assert_eq!(
            [at(0, 5), at(1, 1), at(1, 9), at(2, 0), at(3, 0), at(9, 0)],
            [1, 3, 4, 6, 8, 8]
        );
        assert_eq!(point(&index, 3), Point { row: 1, column: 1 });
        assert_eq!(point(&index, 8), Point { row: 3, column: 0 });
    }
}
