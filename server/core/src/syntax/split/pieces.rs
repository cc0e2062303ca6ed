//! The canonical parse of a region of the text: cut at the scan's cut
//! points, the pieces parsed in parallel with tree-sitter's included ranges,
//! and a piece with a syntax error parsed again one game at a time.

use super::scan::{last_close, scan};
use super::MIN_SPLIT;
use tree_sitter::{Point, Range, Tree};

/// The canonical parse of `text` (see the module documentation), in pieces
/// on every core when it is large. The trees are in document order.
pub fn parse_pieces(text: &str) -> Vec<Tree> {
    let threads = crate::par::threads();
    let piece = if text.len() < MIN_SPLIT || threads < 2 {
        usize::MAX
    } else {
        (text.len() / (threads * 4)).max(MIN_SPLIT / 2)
    };
    parse_split(text, piece)
}

/// The canonical parse with pieces of at least `piece` bytes, whatever the
/// size of the file (for tests: `piece` 1 cuts at every game break).
pub fn parse_split(text: &str, piece: usize) -> Vec<Tree> {
    parse_region(text, 0..text.len(), Point { row: 0, column: 0 }, piece)
}

/// `text[region]` (which starts at a valid cut point, at point `at`, and
/// ends at one or at the end of the text) cut into pieces of at least
/// `piece` bytes: their ranges and start points. An empty region is one
/// empty piece.
pub(super) fn cut_region(
    text: &str,
    region: std::ops::Range<usize>,
    at: Point,
    piece: usize,
    last_close: Option<usize>,
) -> (Vec<std::ops::Range<usize>>, Vec<Point>, Option<usize>) {
    let scanned = scan(
        &text[region.clone()],
        piece,
        last_close.is_some_and(|c| c >= region.end),
    );
    let cuts = scanned.cuts;
    let mut ranges = Vec::with_capacity(cuts.len() + 1);
    let mut starts = Vec::with_capacity(cuts.len() + 1);
    let mut start = region.start;
    let mut at = at;
    for c in cuts
        .iter()
        .map(|c| c + region.start)
        .chain(std::iter::once(region.end))
    {
        ranges.push(start..c);
        starts.push(at);
        at = advance(text, start, c, at);
        start = c;
    }
    (ranges, starts, scanned.open.map(|o| o + region.start))
}

/// The canonical parse of `text[region]` (which starts at a valid cut point,
/// at point `at`, and ends at one or at the end of the text), in pieces of
/// at least `piece` bytes, in parallel; pieces with a syntax error are
/// parsed again one game at a time.
fn parse_region(text: &str, region: std::ops::Range<usize>, at: Point, piece: usize) -> Vec<Tree> {
    let close = last_close(text);
    let (ranges, starts, _) = cut_region(text, region, at, piece, close);
    let bounds: Vec<(usize, usize, Point)> = ranges
        .iter()
        .zip(starts)
        .map(|(r, at)| (r.start, r.end, at))
        .collect();
    crate::par::map(&bounds, |&(start, end, at)| {
        parse_one(text, start, end, at, piece, close)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The canonical parse of one piece `text[start..end]` (starting at point
/// `at`): one tree, or one per game when it has an error. `last_close`:
/// the offset of the text's last `}` ([`last_close`]).
pub(super) fn parse_one(
    text: &str,
    start: usize,
    end: usize,
    at: Point,
    piece: usize,
    last_close: Option<usize>,
) -> Vec<Tree> {
    // A `{` with no `}` after it: tree-sitter's lexer looks for the `}` to
    // the end of its input at every such `{`, so a piece holding many of
    // them would take time quadratic in its length; one game at a time it
    // stays linear (the games' nodes are the same either way).
    let after_close = last_close.map_or(start, |c| (c + 1).clamp(start, end));
    // Larger than a window: game by game, so that only a game longer than
    // a window is cut ([`super::MAX_WINDOW`]).
    if end - start > super::MAX_WINDOW {
        if let Some(trees) = parse_games(text, start, end, at) {
            return trees;
        }
        return parse_windows(text, start, end, at);
    }
    if piece > 1 && memchr::memchr(b'{', &text.as_bytes()[after_close..end]).is_some() {
        if let Some(trees) = parse_games(text, start, end, at) {
            return trees;
        }
    }
    let tree = parse_range(text, start, end, at);
    if !tree.root_node().has_error() || piece <= 1 {
        return vec![tree];
    }
    parse_games(text, start, end, at).unwrap_or_else(|| vec![tree])
}

/// `text[start..end]` parsed one game at a time; `None` when it is one
/// game.
///
/// The piece is scanned as if no `}` followed it. The piece was cut where
/// the scan of the whole text found a game break, so every `{` in it ends
/// inside it: a `{` whose `}` is not in the piece is one the whole scan
/// took for an unterminated comment.
fn parse_games(text: &str, start: usize, end: usize, at: Point) -> Option<Vec<Tree>> {
    let cuts = scan(&text[start..end], 1, false).cuts;
    if cuts.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut s = start;
    let mut at = at;
    for c in cuts.iter().map(|c| c + start).chain(std::iter::once(end)) {
        out.extend(parse_windows(text, s, c, at));
        at = advance(text, s, c, at);
        s = c;
    }
    Some(out)
}

/// The point (row and byte column, rows counted at LF only as tree-sitter
/// counts them) of byte `to`, from the point `at` of byte `from`; it looks
/// only at the bytes in between, so that walking the pieces of a file stays
/// linear even without any LF (lone CR line ends).
pub(super) fn advance(text: &str, from: usize, to: usize, at: Point) -> Point {
    let b = &text.as_bytes()[from..to];
    match memchr::memrchr(b'\n', b) {
        Some(last) => Point {
            row: at.row + memchr::memchr_iter(b'\n', b).count(),
            column: b.len() - last - 1,
        },
        None => Point {
            row: at.row,
            column: at.column + b.len(),
        },
    }
}

/// `text[start..end]` parsed in windows of at most [`super::MAX_WINDOW`] bytes
/// (one window, one tree, when it is not longer): each window ends after
/// its last line end, or at a character boundary when it has none.
fn parse_windows(text: &str, start: usize, end: usize, at: Point) -> Vec<Tree> {
    parse_windows_of(text, start, end, at, super::MAX_WINDOW)
}

pub(super) fn parse_windows_of(
    text: &str,
    start: usize,
    end: usize,
    at: Point,
    window: usize,
) -> Vec<Tree> {
    let mut at = at;
    windows(text, start, end, window)
        .into_iter()
        .map(|r| {
            let tree = parse_range(text, r.start, r.end, at);
            at = advance(text, r.start, r.end, at);
            tree
        })
        .collect()
}

/// The windows of [`parse_windows`] of at most `window` bytes.
pub(super) fn windows(
    text: &str,
    start: usize,
    end: usize,
    window: usize,
) -> Vec<std::ops::Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut s = start;
    while end - s > window {
        let limit = s + window;
        // After the last line end that ends in the window (a CR followed by
        // an LF ends with the LF).
        let mut c = limit;
        let mut upto = limit;
        while let Some(p) = memchr::memrchr2(b'\n', b'\r', &b[s..upto]) {
            let p = s + p;
            if b[p] == b'\r' && b.get(p + 1) == Some(&b'\n') {
                upto = p;
                continue;
            }
            if p > s {
                c = p + 1;
            }
            break;
        }
        while !text.is_char_boundary(c) {
            c -= 1;
        }
        out.push(s..c);
        s = c;
    }
    out.push(s..end);
    out
}

/// Parses `text[start..end]` with byte offsets of the whole text; `at` is
/// the point of `start`. After a lone CR line end a piece does not start in
/// column 0 (found by fuzzing: the shifted trees of an edited forest
/// disagreed with a fresh one).
fn parse_range(text: &str, start: usize, end: usize, at: Point) -> Tree {
    let range = Range {
        start_byte: start,
        end_byte: end,
        start_point: at,
        end_point: advance(text, start, end, at),
    };
    if start == end {
        // An empty document (an empty included range is not allowed).
        return crate::syntax::parse(&text[..0]);
    }
    crate::syntax::with_parser(|p| {
        p.set_included_ranges(&[range])
            .expect("one range inside the text is a valid set of included ranges");
        let tree = crate::syntax::parse_with_nul(p, text, start..end);
        p.set_included_ranges(&[])
            .expect("the empty set of ranges means the whole text");
        tree
    })
}
