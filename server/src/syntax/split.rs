//! Parsing a large file in pieces, on every core.
//!
//! A game break (§3: a semi-empty line) is a point where the parser is back
//! at the start of the document rule: the document is a flat sequence of
//! games, game breaks, comments and escape lines. A file can therefore be
//! cut right after a game break and each piece parsed on its own, with
//! tree-sitter's included ranges so that every node keeps its byte offset in
//! the whole file. The pieces' top-level nodes, one after the other, are
//! the top-level nodes of the whole file's tree.
//!
//! The cut points are found by a byte scan that knows the only tokens that
//! can span lines or hide a semi-empty line: `{…}` comments (§3.8). Strings,
//! `;` comments and `%` escape lines end at the line end.
//!
//! **The canonical parse.** Where a document has no syntax error, any cutting
//! gives the tree of the whole file. Where it has one, tree-sitter's error
//! recovery may reach across a game break, so the cutting would matter. The
//! syntax of a PBN document is therefore defined game by game, as §3 defines
//! the document ("each game … starts with a semi-empty line"): a piece whose
//! tree has an ERROR or MISSING node is parsed again one game at a time. A
//! broken game then never swallows the next, and the result does not depend
//! on where the pieces were cut: `pbn check` (large pieces, every core) and
//! the language server (small pieces, reparsing only those an edit touches,
//! [`Forest::edit`]) see the same trees.

use tree_sitter::{InputEdit, Point, Range, Tree};

/// Files smaller than this are parsed in one piece (unless it has an error).
pub const MIN_SPLIT: usize = 512 * 1024;

/// The pieces the language server keeps: an edit reparses one or a few.
pub const EDIT_PIECE: usize = 32 * 1024;

/// Byte offsets where a piece may start: the start of the first non-blank
/// line after a run of semi-empty lines outside any `{}` comment, at least
/// `piece` bytes after the previous cut. Never 0 or `text.len()`.
pub fn cut_points(text: &str, piece: usize) -> Vec<usize> {
    scan(text, piece).0
}

/// [`cut_points`], and whether the scan ends outside any `{}` comment (so
/// that the end of `text` is a valid place for the next piece to start, if
/// it follows a semi-empty line).
fn scan(text: &str, piece: usize) -> (Vec<usize>, bool) {
    let b = text.as_bytes();
    let n = b.len();
    let mut cuts = Vec::new();
    let mut last = 0;
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        let c = b[i];
        if line_start && c == b'%' {
            // Escape line (§2.4): to the end of the line.
            i = line_end(b, i);
            line_start = false;
            continue;
        }
        line_start = false;
        match c {
            b'{' => match memchr(b'}', &b[i + 1..]) {
                Some(p) => i += p + 2,
                // An unterminated comment is cut by the lexer at the next
                // semi-empty line (see the grammar), unless a `}` follows
                // further on; rare enough not to cut anything after it.
                None => return (cuts, false),
            },
            b';' => i = line_end(b, i),
            b'"' => {
                i += 1;
                while i < n && b[i] != b'"' && b[i] != b'\n' && b[i] != b'\r' {
                    i += if b[i] == b'\\' && i + 1 < n && b[i + 1] != b'\n' && b[i + 1] != b'\r' { 2 } else { 1 };
                }
                if i < n && b[i] == b'"' {
                    i += 1;
                }
            }
            b'\n' | b'\r' => {
                i = after_newline(b, i);
                line_start = true;
                // A run of semi-empty lines right after this line end?
                let mut j = i;
                let mut blank = false;
                loop {
                    let mut k = j;
                    while k < n && matches!(b[k], b' ' | b'\t' | 0x0b | 0x0c) {
                        k += 1;
                    }
                    if k < n && (b[k] == b'\n' || b[k] == b'\r') {
                        j = after_newline(b, k);
                        blank = true;
                    } else {
                        break;
                    }
                }
                if blank {
                    i = j;
                    if j < n && j - last >= piece {
                        cuts.push(j);
                        last = j;
                    }
                }
            }
            _ => i += 1,
        }
    }
    (cuts, true)
}

fn line_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
        i += 1;
    }
    i
}

fn after_newline(b: &[u8], i: usize) -> usize {
    if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
        i + 2
    } else {
        i + 1
    }
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == needle)
}

/// The canonical parse of `text` (see the module documentation), in pieces
/// on every core when it is large. The trees are in document order.
pub fn parse_pieces(text: &str) -> Vec<Tree> {
    Forest::parse(text).trees
}

/// The canonical parse with pieces of at least `piece` bytes, whatever the
/// size of the file (for tests: `piece` 1 cuts at every game break).
pub fn parse_split(text: &str, piece: usize) -> Vec<Tree> {
    Forest::parse_with(text, piece).trees
}

/// A document parsed in pieces, each a tree-sitter tree of a run of whole
/// games (with included ranges, so that nodes keep their offsets in the
/// document). The pieces' top-level nodes, in order, are the document's.
#[derive(Clone)]
pub struct Forest {
    ranges: Vec<std::ops::Range<usize>>,
    trees: Vec<Tree>,
    /// One id per tree, new for every tree parsed ([`super::Trees::pieces`]).
    ids: Vec<u64>,
    /// Pieces an edit touched, to reparse ([`Forest::reparse`]).
    dirty: Vec<bool>,
    piece: usize,
}

impl super::Trees for Forest {
    fn trees(&self) -> &[Tree] {
        &self.trees
    }
    fn pieces(&self) -> Option<(&[std::ops::Range<usize>], &[u64])> {
        Some((&self.ranges, &self.ids))
    }
}

/// `n` ids never handed out before (in this process).
fn fresh_ids(n: usize) -> impl Iterator<Item = u64> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let first = NEXT.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
    first..first + n as u64
}

impl std::fmt::Debug for Forest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forest").field("ranges", &self.ranges).finish()
    }
}

impl Forest {
    /// The canonical parse: one piece for small files, several pieces on
    /// every core for large ones.
    pub fn parse(text: &str) -> Forest {
        let threads = crate::par::threads();
        let piece = if text.len() < MIN_SPLIT || threads < 2 { usize::MAX } else { (text.len() / (threads * 4)).max(MIN_SPLIT / 2) };
        Forest::parse_with(text, piece)
    }

    /// The canonical parse in pieces of at least `piece` bytes.
    pub fn parse_with(text: &str, piece: usize) -> Forest {
        let (ranges, trees) = parse_region(text, 0..text.len(), Point { row: 0, column: 0 }, piece);
        let dirty = vec![false; ranges.len()];
        let ids = fresh_ids(ranges.len()).collect();
        Forest { ranges, trees, ids, dirty, piece }
    }

    /// The byte ranges of the pieces.
    pub fn ranges(&self) -> &[std::ops::Range<usize>] {
        &self.ranges
    }

    /// The tree of the piece containing byte `offset` (the last piece for
    /// the end of the text).
    pub fn tree_at(&self, offset: usize) -> &Tree {
        let i = self.ranges.partition_point(|r| r.end <= offset).min(self.trees.len() - 1);
        &self.trees[i]
    }

    /// Records one edit of the text (already described as an `InputEdit`
    /// with the rows and columns of the text before it): the trees of pieces
    /// after it are shifted, the pieces it touches are marked for
    /// [`Forest::reparse`].
    pub fn edit(&mut self, edit: &InputEdit) {
        let (start, old_end, new_end) = (edit.start_byte, edit.old_end_byte, edit.new_end_byte);
        // An edit that keeps every later byte and point where it was (a
        // character replaced by one of the same length) leaves the trees
        // after it as they are: shifting them would copy each one's
        // leftmost nodes for nothing. (Edited pieces are parsed afresh,
        // never incrementally, so no tree needs the edit's change marks.)
        let in_place = old_end == new_end && edit.old_end_position == edit.new_end_position;
        let last = self.ranges.len() - 1;
        for i in 0..self.ranges.len() {
            let r = self.ranges[i].clone();
            if r.end < start || (r.end == start && i < last) {
                continue; // wholly before the edit
            }
            if r.start > old_end || (r.start == old_end && r.start > start) {
                // wholly after the edit: shifted
                if in_place {
                    continue;
                }
                self.ranges[i] = r.start - old_end + new_end..r.end - old_end + new_end;
            } else {
                let s = r.start.min(start);
                let e = if r.end >= old_end { r.end - old_end + new_end } else { new_end };
                self.ranges[i] = s..e.max(s);
                self.dirty[i] = true;
            }
            self.trees[i].edit(edit);
        }
    }

    /// Reparses the pieces [`Forest::edit`] marked, with their neighbours,
    /// so that the result is the canonical parse of `text` (the text after
    /// the edits). When the game breaks around them did not move, only the
    /// marked pieces are parsed again; the neighbours keep their trees.
    pub fn reparse(&mut self, text: &str) {
        while let Some(d) = self.dirty.iter().position(|&d| d) {
            // The window: the dirty run and one clean piece on each side,
            // whose outer ends are still valid cut points.
            let mut last = d;
            while last + 1 < self.dirty.len() && self.dirty[last + 1] {
                last += 1;
            }
            let first = d.saturating_sub(1);
            let mut last = (last + 1).min(self.ranges.len() - 1);
            let ws = self.ranges[first].start;
            let mut we = self.ranges[last].end;
            let (_, outside) = scan(&text[ws..we], usize::MAX);
            if !outside && we < text.len() {
                // A `{` without its `}` in the window: the comment may run
                // on, so the rest of the document is parsed again.
                last = self.ranges.len() - 1;
                we = text.len();
            }
            let at = if first == 0 {
                Point { row: 0, column: 0 }
            } else {
                let prev = self.trees[first - 1].root_node();
                if prev.end_byte() == ws { prev.end_position() } else { advance(text, 0, ws, Point { row: 0, column: 0 }) }
            };
            // Incremental: the window's cuts are the old ones, so only the
            // dirty pieces change.
            let (cuts, _) = scan(&text[ws..we], 1);
            let old_inner: Vec<usize> = self.ranges[first + 1..=last].iter().map(|r| r.start).collect();
            let same_cuts = old_inner.iter().all(|c| cuts.binary_search(&(c - ws)).is_ok())
                && self.ranges[first..=last].iter().all(|r| r.start < r.end)
                && self.ranges[first..=last].windows(2).all(|w| w[0].end == w[1].start);
            let (ranges, trees, ids) = if same_cuts {
                let mut ranges = Vec::new();
                let mut trees = Vec::new();
                let mut ids = Vec::new();
                let mut at = at;
                for i in first..=last {
                    let r = self.ranges[i].clone();
                    if self.dirty[i] {
                        // A fresh parse of the piece, not an incremental one
                        // from its edited tree: with syntax errors,
                        // tree-sitter's incremental error recovery may differ
                        // from a fresh parse's (found by fuzzing, see
                        // ROBUSTNESS.md), and the forest must stay the
                        // canonical parse. A 32 KB piece parses in 2-3 ms.
                        let tree = parse_range(text, r.start, r.end, at);
                        if tree.root_node().has_error() && scan(&text[r.clone()], 1).0.len() > 0 {
                            let (rs, ts) = parse_region(text, r.clone(), at, self.piece);
                            ids.extend(fresh_ids(rs.len()));
                            ranges.extend(rs);
                            trees.extend(ts);
                        } else {
                            ranges.push(r.clone());
                            trees.push(tree);
                            ids.extend(fresh_ids(1));
                        }
                    } else {
                        ranges.push(r.clone());
                        trees.push(self.trees[i].clone());
                        ids.push(self.ids[i]);
                    }
                    at = advance(text, r.start, r.end, at);
                }
                (ranges, trees, ids)
            } else {
                let (ranges, trees) = parse_region(text, ws..we, at, self.piece);
                let ids = fresh_ids(ranges.len()).collect();
                (ranges, trees, ids)
            };
            let n = ranges.len();
            self.ranges.splice(first..=last, ranges);
            self.trees.splice(first..=last, trees);
            self.ids.splice(first..=last, ids);
            self.dirty.splice(first..=last, std::iter::repeat_n(false, n));
        }
    }
}

/// The canonical parse of `text[region]` (which starts at a valid cut point,
/// at point `at`, and ends at one or at the end of the text), in pieces of
/// at least `piece` bytes, in parallel; pieces with a syntax error are
/// parsed again one game at a time.
fn parse_region(text: &str, region: std::ops::Range<usize>, at: Point, piece: usize) -> (Vec<std::ops::Range<usize>>, Vec<Tree>) {
    let (cuts, _) = scan(&text[region.clone()], piece);
    let mut bounds = Vec::with_capacity(cuts.len() + 1);
    let mut start = region.start;
    let mut at = at;
    for c in cuts.iter().map(|c| c + region.start).chain(std::iter::once(region.end)) {
        bounds.push((start, c, at));
        at = advance(text, start, c, at);
        start = c;
    }
    let parts = crate::par::map(&bounds, |&(start, end, at)| {
        let tree = parse_range(text, start, end, at);
        if !tree.root_node().has_error() || piece <= 1 {
            return vec![(start..end, tree)];
        }
        // One game at a time.
        let (cuts, _) = scan(&text[start..end], 1);
        if cuts.is_empty() {
            return vec![(start..end, tree)];
        }
        let mut out = Vec::new();
        let mut s = start;
        let mut at = at;
        for c in cuts.iter().map(|c| c + start).chain(std::iter::once(end)) {
            out.push((s..c, parse_range(text, s, c, at)));
            at = advance(text, s, c, at);
            s = c;
        }
        out
    });
    parts.into_iter().flatten().unzip()
}

/// The point (row and byte column, rows counted at LF only as tree-sitter
/// counts them) of byte `to`, from the point `at` of byte `from`; it looks
/// only at the bytes in between, so that walking the pieces of a file stays
/// linear even without any LF (lone CR line ends).
fn advance(text: &str, from: usize, to: usize, at: Point) -> Point {
    let b = &text.as_bytes()[from..to];
    match b.iter().rposition(|&c| c == b'\n') {
        Some(last) => Point { row: at.row + b.iter().filter(|&&c| c == b'\n').count(), column: b.len() - last - 1 },
        None => Point { row: at.row, column: at.column + b.len() },
    }
}

/// Parses `text[start..end]` with byte offsets of the whole text; `at` is
/// the point of `start`. After a lone CR line end a piece does not start in
/// column 0 (found by fuzzing: the shifted trees of an edited forest
/// disagreed with a fresh one).
fn parse_range(text: &str, start: usize, end: usize, at: Point) -> Tree {
    let range = Range { start_byte: start, end_byte: end, start_point: at, end_point: advance(text, start, end, at) };
    if start == end {
        // An empty document (an empty included range is not allowed).
        return super::parse(&text[..0]);
    }
    super::with_parser(|p| {
        p.set_included_ranges(&[range]).expect("one range inside the text is a valid set of included ranges");
        let tree = p.parse(text, None);
        p.set_included_ranges(&[]).expect("the empty set of ranges means the whole text");
        tree.expect("parsing without a timeout or cancellation flag always yields a tree")
    })
}
