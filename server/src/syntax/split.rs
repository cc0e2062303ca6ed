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
//! `;` comments and `%` escape lines end at the line end. A piece whose tree
//! has an ERROR or MISSING node makes the whole file parse again in one
//! piece: error recovery may reach across a game break, and a broken file
//! must get exactly the diagnostics of a whole-file parse.

use tree_sitter::{Point, Range, Tree};

/// Files smaller than this are parsed in one piece.
pub const MIN_SPLIT: usize = 512 * 1024;

/// Byte offsets where a piece may start: the start of the first non-blank
/// line after a run of semi-empty lines outside any `{}` comment, at least
/// `piece` bytes after the previous cut. Never 0 or `text.len()`.
pub fn cut_points(text: &str, piece: usize) -> Vec<usize> {
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
                // semi-empty line (see the grammar); rare enough not to cut
                // anything after it.
                None => return cuts,
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
                    while k < n && (b[k] == b' ' || b[k] == b'\t') {
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
    cuts
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

/// Parses `text` in pieces on every core when it is large (see the module
/// documentation); otherwise, or when a piece has a syntax error, in one
/// piece. The trees are in document order.
pub fn parse_pieces(text: &str) -> Vec<Tree> {
    let threads = crate::par::threads();
    if text.len() < MIN_SPLIT || threads < 2 {
        return vec![super::parse(text)];
    }
    // Several pieces per core, so that a slow piece does not leave a core idle.
    parse_split(text, (text.len() / (threads * 4)).max(MIN_SPLIT / 2))
}

/// [`parse_pieces`] with pieces of at least `piece` bytes, whatever the size
/// of the file (for tests: `piece` 1 cuts at every game break).
pub fn parse_split(text: &str, piece: usize) -> Vec<Tree> {
    let cuts = cut_points(text, piece);
    if cuts.is_empty() {
        return vec![super::parse(text)];
    }
    let mut bounds = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    let mut row = 0;
    for &c in cuts.iter().chain(std::iter::once(&text.len())) {
        let rows = text.as_bytes()[start..c].iter().filter(|&&b| b == b'\n').count();
        bounds.push((start, c, row));
        row += rows;
        start = c;
    }
    let trees = crate::par::map(&bounds, |&(start, end, row)| parse_range(text, start, end, row));
    if trees.iter().any(|t| t.root_node().has_error()) {
        return vec![super::parse(text)];
    }
    trees
}

/// [`parse_split`] without the fallback to a whole parse (for tests).
pub fn parse_split_exact(text: &str, piece: usize) -> Vec<Tree> {
    let cuts = cut_points(text, piece);
    let mut out = Vec::new();
    let mut start = 0;
    let mut row = 0;
    for &c in cuts.iter().chain(std::iter::once(&text.len())) {
        out.push(parse_range(text, start, c, row));
        row += text.as_bytes()[start..c].iter().filter(|&&b| b == b'\n').count();
        start = c;
    }
    out
}

/// Parses `text[start..end]` with byte offsets of the whole text; `row` is
/// the line number of `start` (which is at column 0).
fn parse_range(text: &str, start: usize, end: usize, row: usize) -> Tree {
    let end_row = row + text.as_bytes()[start..end].iter().filter(|&&b| b == b'\n').count();
    let end_col = end - text[..end].rfind('\n').map(|p| p + 1).unwrap_or(0);
    let range = Range {
        start_byte: start,
        end_byte: end,
        start_point: Point { row, column: 0 },
        end_point: Point { row: end_row, column: end_col },
    };
    super::with_parser(|p| {
        p.set_included_ranges(&[range]).expect("one range inside the text is a valid set of included ranges");
        let tree = p.parse(text, None);
        p.set_included_ranges(&[]).expect("the empty set of ranges means the whole text");
        tree.expect("parsing without a timeout or cancellation flag always yields a tree")
    })
}
