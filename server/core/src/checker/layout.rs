//! The layout of a document for the checker: where each game and each
//! piece is, computed piece by piece and reused for pieces whose tree did
//! not change.

use super::deal_ids::Lining;
use super::game::{check_one, game_key, GameCheck};
use super::piece::{games_and_gaps, PieceInfo};
use super::state::{Entry, Games, State};
use crate::checker::CheckOptions;
use crate::diagnostic::Diagnostic;
use crate::rules;
use crate::syntax::{self, Forest, GameChunk};
use crate::text::SourceText;
use std::ops::Range;
use std::sync::Arc;

/// The games of the document: spans, chunk ranges and hashes, and the
/// diagnostics between games; from the pieces of a forest (reusing what
/// `prev` knows of unchanged pieces) or from the whole tree.
pub(super) struct Layout {
    pub(super) spans: Vec<Range<usize>>,
    pub(super) ranges: Vec<Range<usize>>,
    pub(super) hashes: Vec<u64>,
    /// Between the games (whole tree only: a forest's are in its pieces).
    pub(super) between: Vec<Diagnostic>,
    /// Per game: its piece (index into the trees) and index in the piece.
    pub(super) place: Vec<(usize, usize)>,
}

/// A game's index in its piece and its diagnostics (relative to its span).
pub(super) type LocalDiags = (usize, Arc<GameCheck>);

/// A piece of a forest lined up with the previous check: its slot, what
/// that check kept of it (if it is the same piece), and the diagnostics of
/// its games checked while walking it.
pub(super) type Lined<'p> = (Slot, Option<&'p Arc<Entry>>, Vec<LocalDiags>);

/// A piece of a forest in a check.
pub(super) struct Slot {
    pub(super) id: u64,
    /// The piece's start and length now (its [`PieceInfo`] may be older).
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) info: Arc<PieceInfo>,
    /// Its games (indices into the document's).
    pub(super) games: Range<usize>,
}

/// The export separator rule on the game break that ends piece `p`, which
/// `rest` (the pieces after it) may end: the next top-level node is the
/// first node of a later piece (none: the break ends the document, and the
/// rule does not apply). Relative to the piece's start.
pub(super) fn tail_separator(text: &str, p: &Slot, rest: &[Slot]) -> Option<Diagnostic> {
    let (before, brk) = p.info.tail_break.clone()?;
    let moved =
        |s: &Slot, o: usize| (o as isize + s.start as isize - s.info.start as isize) as usize;
    let after = rest
        .iter()
        .find_map(|s| s.info.first_node.map(|f| moved(s, f)))?;
    rules::export::separator(
        text,
        moved(p, before),
        moved(p, brk.start)..moved(p, brk.end),
        after,
    )
    .map(|d| d.shifted(-(p.start as isize)))
}

/// The pieces of `forest`, lined up with those of the previous check
/// (`prev`) by id: the pieces before and after the edited ones are
/// found there, the others are walked now. For the pieces walked now in a
/// document without `#` values, the diagnostics of their games that `prev`
/// does not have, computed while the piece's trees are at hand, so that
/// opening a document parses each piece once and never holds the trees of
/// all of them; how the pieces line up. `None` when a game reaches across
/// pieces. Unless the state is `kept` for a next check, each piece's
/// games keep only what the per-file caps can show ([`rules::text::thin`]
/// across the piece's games).
#[allow(clippy::too_many_arguments)]
pub(super) fn layout_of_pieces<'p>(
    source: &SourceText,
    forest: &Forest,
    prev: &'p State,
    walked: &mut usize,
    export_from: Option<usize>,
    inherits: bool,
    opts: &CheckOptions,
    kept: bool,
) -> Option<(Vec<Lined<'p>>, Games, Lining)> {
    let text = source.text.as_str();
    let (ranges, ids) = (forest.ranges(), forest.ids());
    let olds = &prev.entries;
    let prefix = ids
        .iter()
        .zip(olds.iter())
        .take_while(|(id, e)| **id == e.id)
        .count();
    let room = ids.len().min(olds.len()) - prefix;
    let suffix = ids
        .iter()
        .rev()
        .zip(olds.iter().rev())
        .take(room)
        .take_while(|(id, e)| **id == e.id)
        .count();
    let old_of = |i: usize| -> Option<&'p Arc<Entry>> {
        if i < prefix {
            Some(&olds[i])
        } else if i >= ids.len() - suffix {
            Some(&olds[i + olds.len() - ids.len()])
        } else {
            None
        }
    };
    // The games of the pieces replaced: what an edited piece's other
    // games find their diagnostics in.
    let replaced: Games = Arc::new(
        olds[prefix..olds.len() - suffix]
            .iter()
            .flat_map(|e| e.check.games.iter().cloned())
            .collect(),
    );
    let known = |key: &u64| replaced.get(key).or_else(|| prev.games.get(key));
    let missing: Vec<usize> = (prefix..ids.len() - suffix).collect();
    *walked = missing.len();
    let last = ids.len().saturating_sub(1);
    let fresh = crate::par::map(&missing, |&i| {
        let trees = forest.piece_trees(i, text);
        let info = PieceInfo::of(source, &trees, ranges[i].clone());
        let mut done = Vec::new();
        if !inherits {
            let (chunks, _) = syntax::games(&trees[..], text);
            let mut seen = rules::text::CapCounts::default();
            for (k, (span, _, h)) in info.games.iter().enumerate() {
                if known(&game_key(*h, 0, export_from, span)).is_none() {
                    let mut g =
                        check_one(source, &chunks[k], span.clone(), k, None, opts, export_from);
                    if !kept {
                        g.thin(&mut seen);
                    }
                    done.push((k, Arc::new(g)));
                }
            }
        }
        (info, done)
    });
    let mut fresh = fresh.into_iter();
    let mut out = Vec::with_capacity(ids.len());
    let mut first = 0;
    for p in 0..ids.len() {
        let old = old_of(p);
        let (info, done) = match old {
            Some(e) => (e.info.clone(), Vec::new()),
            None => {
                let (info, done) = fresh.next().expect("a fresh piece");
                (Arc::new(info), done)
            }
        };
        if p < last && !info.ends_with_break {
            return None; // a game across pieces: use the whole-document walk
        }
        let games = first..first + info.games.len();
        first = games.end;
        out.push((
            Slot {
                id: ids[p],
                start: ranges[p].start,
                len: ranges[p].len(),
                info,
                games,
            },
            old,
            done,
        ));
    }
    let lining = Lining {
        prefix,
        suffix,
        old_len: olds.len(),
    };
    Some((out, replaced, lining))
}

/// [`Layout`] from the document's trees and chunks (one walk of every
/// top-level node).
pub(super) fn layout_of_chunks(
    source: &SourceText,
    trees: &[tree_sitter::Tree],
    chunks: &[GameChunk<'_>],
    loose: &[tree_sitter::Node<'_>],
) -> Layout {
    let (games, between) = games_and_gaps(source, trees, chunks, loose, 0..source.text.len());
    let mut l = Layout {
        spans: Vec::new(),
        ranges: Vec::new(),
        hashes: Vec::new(),
        between,
        place: Vec::new(),
    };
    for (k, (span, range, h)) in games.into_iter().enumerate() {
        l.spans.push(span);
        l.ranges.push(range);
        l.hashes.push(h);
        l.place.push((0, k));
    }
    l
}
