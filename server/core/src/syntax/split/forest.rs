//! The language server's [`Forest`]: the document cut into pieces with ids,
//! moved and cut again as edits come, the pieces' trees parsed on demand
//! through the [`TreeCache`].

use super::cache::{CacheKey, PieceTrees, TreeCache, CACHE_BUDGET};
use super::pieces::{advance, cut_region, parse_one};
use super::scan::{last_close, scan};
use tree_sitter::{InputEdit, Point, Tree};

/// The language server's view of a document's parse: the document cut at
/// game breaks into pieces of about [`EDIT_PIECE`](super::EDIT_PIECE) bytes, each with an id
/// that changes whenever its text does. It holds no trees: a piece's trees
/// (its canonical parse, [`Forest::piece_trees`]) are parsed when some
/// work needs them and kept in a small cache shared by the versions of the
/// document ([`TreeCache`]), so that the server's memory does not hold a
/// syntax tree of the whole document (about 15 times the text) while an
/// edit still reparses only the piece it touched.
#[derive(Clone)]
pub struct Forest {
    ranges: Vec<std::ops::Range<usize>>,
    /// The point (tree-sitter row and byte column) of each piece's start.
    starts: Vec<Point>,
    /// One id per piece, new whenever its text changes.
    ids: Vec<u64>,
    /// Pieces an edit touched, to cut again ([`Forest::recut`]).
    dirty: Vec<bool>,
    piece: usize,
    cache: std::sync::Arc<TreeCache>,
    /// The text's last `}` ([`last_close`]), as of the last cut.
    last_close: Option<usize>,
    /// The first `{` with no `}` after it, as of the last cut, moved by the
    /// edits since (or the start of an edit that touched it): the pieces
    /// after it were cut as if no `}` could follow, which a `}` typed after
    /// it makes wrong ([`Forest::recut`] then cuts the rest again).
    open: Option<usize>,
}

/// The most text of the pieces in one of [`Forest::batches`]: two parts of
/// a game cut at [`GAME_WINDOW`](super::GAME_WINDOW).
pub const BATCH_BYTES: usize = 2 * super::GAME_WINDOW;

/// The next piece id. Process-wide, not per [`TreeCache`]: the language
/// server's re-check state ([`crate::checker::engine`]) is keyed by piece ids and
/// outlives a forest (a new forest after a whole-text change), so an id must
/// never be handed out twice in a process.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// `n` ids never handed out before (in this process).
fn fresh_ids(n: usize) -> impl Iterator<Item = u64> {
    let first = NEXT_ID.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
    first..first + n as u64
}

/// Fuzz builds only: hands out ids from 1 again. The fuzz properties call
/// it first thing in every execution, when no forest or re-check state of
/// an earlier input is alive. Otherwise an input's ids, the keys of the tree
/// cache's and the re-check's hash maps, would depend on how many forests
/// the inputs before it made, and with them the maps' probe paths, which
/// are instrumented generic code: a campaign, which runs its inputs in a
/// random order, would count those paths as new coverage by chance.
#[cfg(fuzzing)]
pub fn restart_ids_for_fuzzing() {
    NEXT_ID.store(1, std::sync::atomic::Ordering::Relaxed);
}

impl std::fmt::Debug for Forest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forest")
            .field("ranges", &self.ranges)
            .finish()
    }
}

impl Forest {
    /// `text` cut into pieces of at least `piece` bytes (nothing is parsed).
    pub fn cut(text: &str, piece: usize) -> Forest {
        Forest::cut_with_cache(text, piece, CACHE_BUDGET)
    }

    /// [`Forest::cut`] with a tree cache of `budget` bytes of piece text.
    pub fn cut_with_cache(text: &str, piece: usize, budget: usize) -> Forest {
        let close = last_close(text);
        let (ranges, starts, open) = cut_region(
            text,
            0..text.len(),
            Point { row: 0, column: 0 },
            piece,
            close,
        );
        let dirty = vec![false; ranges.len()];
        let ids = fresh_ids(ranges.len()).collect();
        Forest {
            ranges,
            starts,
            ids,
            dirty,
            piece,
            cache: std::sync::Arc::new(TreeCache::new(budget)),
            last_close: close,
            open,
        }
    }

    /// The byte ranges of the pieces.
    pub fn ranges(&self) -> &[std::ops::Range<usize>] {
        &self.ranges
    }

    /// The pieces' ids (an id stays while the piece's text does).
    pub fn ids(&self) -> &[u64] {
        &self.ids
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The cache of this document's piece trees.
    pub fn cache(&self) -> &TreeCache {
        &self.cache
    }

    /// `pieces` (indices in order) in batches for a walk on every core that
    /// holds a batch's trees at once: at most four pieces per core and,
    /// unless one piece is longer, [`BATCH_BYTES`] of text, so that the
    /// parts of a game longer than [`GAME_WINDOW`](super::GAME_WINDOW) are
    /// not all parsed at once.
    pub fn batches(&self, pieces: &[usize]) -> Vec<Vec<usize>> {
        let count = 4 * crate::par::threads().max(1);
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut bytes = 0;
        for &p in pieces {
            let len = self.ranges[p].len();
            match out.last_mut() {
                Some(b) if b.len() < count && bytes + len <= BATCH_BYTES => {
                    b.push(p);
                    bytes += len;
                }
                _ => {
                    out.push(vec![p]);
                    bytes = len;
                }
            }
        }
        out
    }

    /// The index of the piece containing byte `offset` (the last piece for
    /// the end of the text).
    pub fn piece_at(&self, offset: usize) -> usize {
        self.ranges
            .partition_point(|r| r.end <= offset)
            .min(self.ranges.len() - 1)
    }

    /// The trees of piece `i` of `text` (the text this forest was cut from
    /// or kept in step with): from the cache, or parsed now and cached.
    pub fn piece_trees(&self, i: usize, text: &str) -> PieceTrees {
        let (key, cached) = self.cached(i, text);
        cached.unwrap_or_else(|| {
            let trees = self.parse_piece(i, key, text);
            self.cache.put(key, trees.clone(), self.ranges[i].len());
            trees
        })
    }

    /// The trees of piece `i`, from the cache or parsed now without being
    /// cached (for walks over every piece, which would only push the
    /// recently used pieces out).
    pub fn piece_trees_uncached(&self, i: usize, text: &str) -> PieceTrees {
        let (key, cached) = self.cached(i, text);
        cached.unwrap_or_else(|| self.parse_piece(i, key, text))
    }

    /// Piece `i`'s cache key (its id, start byte and start point) and its
    /// trees when the cache has them.
    fn cached(&self, i: usize, text: &str) -> (CacheKey, Option<PieceTrees>) {
        let at = self.start_point(i, text);
        let key = (self.ids[i], self.ranges[i].start, at.row, at.column);
        (key, self.cache.get(key))
    }

    /// Parses piece `i`, whose cache key (and so start point) is `key`.
    fn parse_piece(&self, i: usize, key: CacheKey, text: &str) -> PieceTrees {
        let at = Point {
            row: key.2,
            column: key.3,
        };
        std::sync::Arc::new(parse_one(
            text,
            self.ranges[i].start,
            self.ranges[i].end,
            at,
            usize::MAX,
            self.last_close,
        ))
    }

    /// The point of piece `i`'s start. Its column (bytes since the last LF,
    /// which the external scanner asks for: a `%` line starts in column 0)
    /// is taken from the text: the positions of edits from an editor count
    /// lone CRs as line ends, tree-sitter does not, so a moved piece's
    /// column could be off after a lone CR (its row, which only positions
    /// depend on, is kept).
    fn start_point(&self, i: usize, text: &str) -> Point {
        let start = self.ranges[i].start;
        let b = text.as_bytes();
        let column = if start == 0 || b[start - 1] == b'\n' {
            0
        } else {
            start
                - b[..start]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1)
        };
        Point {
            row: self.starts[i].row,
            column,
        }
    }

    /// Every piece's trees, in order (the canonical parse of the whole
    /// text; for tests and for rare whole-document walks).
    pub fn trees(&self, text: &str) -> Vec<Tree> {
        let all: Vec<usize> = (0..self.ranges.len()).collect();
        crate::par::map(&all, |&i| (*self.piece_trees_uncached(i, text)).clone())
            .into_iter()
            .flatten()
            .collect()
    }

    /// Records one edit of the text (already described as an `InputEdit`
    /// with the rows and columns of the text before it): pieces after it
    /// move, the pieces it touches are marked for [`Forest::recut`].
    pub fn edit(&mut self, edit: &InputEdit) {
        let (start, old_end, new_end) = (edit.start_byte, edit.old_end_byte, edit.new_end_byte);
        let last = self.ranges.len() - 1;
        for i in 0..self.ranges.len() {
            let r = self.ranges[i].clone();
            if r.end < start || (r.end == start && i < last) {
                continue; // wholly before the edit
            }
            if r.start > old_end || (r.start == old_end && r.start > start) {
                // wholly after the edit: moved
                self.ranges[i] = r.start - old_end + new_end..r.end - old_end + new_end;
                self.starts[i] = edit_point(self.starts[i], edit);
            } else {
                let s = r.start.min(start);
                let e = if r.end >= old_end {
                    r.end - old_end + new_end
                } else {
                    new_end
                };
                self.ranges[i] = s..e.max(s);
                self.dirty[i] = true;
            }
        }
        let moved = |p: usize| {
            if p >= old_end {
                p - old_end + new_end
            } else if p >= start {
                start
            } else {
                p
            }
        };
        self.open = self.open.map(moved);
    }

    /// Cuts the pieces [`Forest::edit`] marked again, with their
    /// neighbours, so that the pieces are valid for `text` (the text after
    /// the edits). When the game breaks around them did not move, the marked
    /// pieces only get new ids; the neighbours keep theirs.
    pub fn recut(&mut self, text: &str) {
        let close = last_close(text);
        self.last_close = close;
        let close_after = |end: usize| close.is_some_and(|c| c >= end);
        // A `}` after the first unterminated `{` (typed after it, or the
        // `{` moved before one): the pieces after it were cut as if no `}`
        // could follow, so they are all cut again.
        if let (Some(p), Some(c)) = (self.open, close) {
            if c > p {
                let from = self.piece_at(p);
                self.dirty[from..].iter_mut().for_each(|d| *d = true);
                self.open = None;
            }
        }
        while let Some(d) = self.dirty.iter().position(|&d| d) {
            // The window: the dirty run and one clean piece on each side,
            // whose outer ends are still valid cut points.
            let mut last = d;
            while last + 1 < self.dirty.len() && self.dirty[last + 1] {
                last += 1;
            }
            let mut first = d.saturating_sub(1);
            let mut last = (last + 1).min(self.ranges.len() - 1);
            // A game cut into parts is cut again from its start: where its
            // parts end depends on the text from there
            // ([`super::GAME_WINDOW`]).
            while first > 0 && super::continues_game(text, self.ranges[first].start) {
                first -= 1;
            }
            while last + 1 < self.ranges.len() && super::continues_game(text, self.ranges[last].end)
            {
                last += 1;
            }
            let ws = self.ranges[first].start;
            let mut we = self.ranges[last].end;
            let outside = scan(&text[ws..we], usize::MAX, close_after(we)).outside;
            if !outside && we < text.len() {
                // A `{` without its `}` in the window: the comment may run
                // on, so the rest of the document is cut again.
                last = self.ranges.len() - 1;
                we = text.len();
            }
            // The window's first piece starts before the edit (or at 0).
            let at = if first == 0 {
                Point { row: 0, column: 0 }
            } else {
                self.starts[first]
            };
            let scanned = scan(&text[ws..we], 1, close_after(we));
            let cuts = scanned.cuts;
            // The first unterminated `{` (see the field).
            let wlen = text.len();
            self.open = rescanned_mark(self.open, scanned.open.map(|o| o + ws), ws..we, wlen);
            let old_inner: Vec<usize> = self.ranges[first + 1..=last]
                .iter()
                .map(|r| r.start)
                .collect();
            // The old cuts are still places to cut, and every cut that
            // must be made (a game cut for its length) is one of them.
            let same_cuts = old_inner
                .iter()
                .all(|c| cuts.binary_search(&(c - ws)).is_ok())
                && cuts
                    .iter()
                    .filter(|&&c| super::continues_game(text, ws + c))
                    .all(|c| old_inner.binary_search(&(c + ws)).is_ok())
                && self.ranges[first..=last].iter().all(|r| r.start < r.end)
                && self.ranges[first..=last]
                    .windows(2)
                    .all(|w| w[0].end == w[1].start);
            let (ranges, starts, ids) = if same_cuts {
                let mut ranges = Vec::new();
                let mut starts = Vec::new();
                let mut ids = Vec::new();
                let mut at = at;
                for i in first..=last {
                    let r = self.ranges[i].clone();
                    ranges.push(r.clone());
                    starts.push(at);
                    ids.push(if self.dirty[i] {
                        fresh_ids(1).next().expect("one id")
                    } else {
                        self.ids[i]
                    });
                    at = advance(text, r.start, r.end, at);
                }
                (ranges, starts, ids)
            } else {
                let (ranges, starts, _) = cut_region(text, ws..we, at, self.piece, close);
                let ids = fresh_ids(ranges.len()).collect();
                (ranges, starts, ids)
            };
            let n = ranges.len();
            self.ranges.splice(first..=last, ranges);
            self.starts.splice(first..=last, starts);
            self.ids.splice(first..=last, ids);
            self.dirty
                .splice(first..=last, std::iter::repeat_n(false, n));
        }
    }
}

/// The mark of the first unterminated `{` (`Forest::open`) after the
/// window `w` of a text of `len` bytes was scanned again and found `found`
/// there: kept before the window, the window's after it, and
/// where it was in the window, the window's or, where it is not known any
/// more, the window's end (an edit after it then cuts from there again).
fn rescanned_mark(
    old: Option<usize>,
    found: Option<usize>,
    w: std::ops::Range<usize>,
    len: usize,
) -> Option<usize> {
    match old {
        Some(p) if p < w.start => Some(p),
        Some(p) if p >= w.end => found.or(Some(p)),
        Some(_) => found.or((w.end < len).then_some(w.end)),
        None => found,
    }
}

/// A point moved by an edit (as tree-sitter moves the positions of the
/// nodes after it).
fn edit_point(p: Point, e: &InputEdit) -> Point {
    if p >= e.old_end_position {
        let (row, column) = if p.row > e.old_end_position.row {
            (p.row - e.old_end_position.row, p.column)
        } else {
            (0, p.column - e.old_end_position.column)
        };
        if row > 0 {
            Point {
                row: e.new_end_position.row + row,
                column,
            }
        } else {
            Point {
                row: e.new_end_position.row,
                column: e.new_end_position.column + column,
            }
        }
    } else if p > e.start_position {
        e.new_end_position
    } else {
        p
    }
}
