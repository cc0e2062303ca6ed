//! The layout of a document for the checker: where each game and each
//! piece is, computed piece by piece and reused for pieces whose tree did
//! not change.

use super::game::{check_one, game_key};
use super::piece::{games_and_gaps, PieceInfo};
use super::state::{shift, State};
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
    /// A forest's pieces.
    pub(super) pieces: Vec<Slot>,
}

/// A game's index and its diagnostics (relative to its span).
pub(super) type GameDiags = (usize, Arc<Vec<Diagnostic>>);

/// A piece of a forest in a [`Layout`].
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
    .map(|d| shift(d, -(p.start as isize)))
}

/// The games of `forest`'s pieces (what `prev` knows of unchanged pieces
/// is reused) and, for the pieces walked now in a document without `#`
/// values, the diagnostics of their games that `prev` does not have:
/// computed while the piece's trees are at hand, so that opening a
/// document parses each piece once and never holds the trees of all of
/// them. `None` when a game reaches across pieces.
#[allow(clippy::too_many_arguments)]
pub(super) fn layout_of_pieces(
    source: &SourceText,
    forest: &Forest,
    prev: &State,
    next: &mut State,
    walked: &mut usize,
    export_from: Option<usize>,
    inherits: bool,
    opts: &CheckOptions,
) -> Option<(Layout, Vec<GameDiags>)> {
    let text = source.text.as_str();
    let (ranges, ids) = (forest.ranges(), forest.ids());
    let missing: Vec<usize> = (0..ids.len())
        .filter(|&i| !prev.pieces.contains_key(&ids[i]))
        .collect();
    *walked = missing.len();
    let last = ids.len().saturating_sub(1);
    let fresh = crate::par::map(&missing, |&i| {
        let trees = forest.piece_trees(i, text);
        let info = PieceInfo::of(source, &trees, ranges[i].clone());
        let mut done = Vec::new();
        if !inherits {
            let (chunks, _) = syntax::games(&trees[..]);
            for (k, (span, _, h)) in info.games.iter().enumerate() {
                if prev
                    .games
                    .get(&game_key(*h, 0, export_from, span))
                    .is_none()
                {
                    done.push((
                        k,
                        Arc::new(check_one(
                            source,
                            &chunks[k],
                            span.clone(),
                            k,
                            None,
                            opts,
                            export_from,
                        )),
                    ));
                }
            }
        }
        (info, done)
    });
    let mut infos: Vec<Option<Arc<PieceInfo>>> =
        ids.iter().map(|id| prev.pieces.get(id).cloned()).collect();
    let mut done_by_piece: Vec<Vec<GameDiags>> = vec![Vec::new(); ids.len()];
    for (&i, (info, done)) in missing.iter().zip(fresh) {
        infos[i] = Some(Arc::new(info));
        done_by_piece[i] = done;
    }
    if infos
        .iter()
        .enumerate()
        .any(|(i, info)| i < last && !info.as_ref().expect("every piece").ends_with_break)
    {
        return None; // a game across pieces: use the whole-document walk
    }
    let games: usize = infos
        .iter()
        .map(|i| i.as_ref().expect("every piece").games.len())
        .sum();
    let mut l = Layout {
        spans: Vec::with_capacity(games),
        ranges: Vec::with_capacity(games),
        hashes: Vec::with_capacity(games),
        between: Vec::new(),
        place: Vec::with_capacity(games),
        pieces: Vec::with_capacity(ids.len()),
    };
    let mut done = Vec::new();
    for (p, info) in infos.into_iter().enumerate() {
        let info = info.expect("every piece");
        let by = ranges[p].start as isize - info.start as isize;
        let at =
            |r: &Range<usize>| (r.start as isize + by) as usize..(r.end as isize + by) as usize;
        let first = l.spans.len();
        for (k, (span, range, h)) in info.games.iter().enumerate() {
            l.spans.push(at(span));
            l.ranges.push(at(range));
            l.hashes.push(*h);
            l.place.push((p, k));
        }
        done.extend(
            std::mem::take(&mut done_by_piece[p])
                .into_iter()
                .map(|(k, d)| (first + k, d)),
        );
        next.pieces.insert(ids[p], info.clone());
        l.pieces.push(Slot {
            id: ids[p],
            start: ranges[p].start,
            len: ranges[p].len(),
            info,
            games: first..l.spans.len(),
        });
    }
    Some((l, done))
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
        pieces: Vec::new(),
    };
    for (k, (span, range, h)) in games.into_iter().enumerate() {
        l.spans.push(span);
        l.ranges.push(range);
        l.hashes.push(h);
        l.place.push((0, k));
    }
    l
}
