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
//! `;` comments and `%` escape lines end at the line end. The scan must
//! agree with the lexer on where comments end, or a piece would not start
//! where the grammar sees a game break; the parser reads a NUL byte as any
//! other control character (`crate::syntax::parse_with_nul`), so a NUL
//! ends nothing.
//!
//! **The canonical parse.** Where a document has no syntax error, any cutting
//! gives the tree of the whole file. Where it has one, tree-sitter's error
//! recovery may reach across a game break, so the cutting would matter. The
//! syntax of a PBN document is therefore defined game by game, as §3 defines
//! the document ("each game … starts with a semi-empty line"): a piece whose
//! tree has an ERROR or MISSING node is parsed again one game at a time (and
//! a piece holding a `{` with no `}` after it, an unterminated comment, is
//! parsed one game at a time from the start: tree-sitter's lexer looks for
//! the `}` to the end of its input at each such `{`). A
//! broken game then never swallows the next, and the result does not depend
//! on where the pieces were cut: `pbn check` (large pieces, every core) and
//! the language server (small pieces, parsed when needed: [`Forest`]) see
//! the same trees.
//!
//! The parts, one job each:
//! - `scan.rs`: the byte scan that finds the cut points (game breaks outside
//!   `{}` comments) and the unterminated comments;
//! - `pieces.rs`: the canonical parse of a region, piece by piece in
//!   parallel, and game by game where a piece has an error;
//! - `forest.rs`: the language server's [`Forest`] of pieces, kept in step
//!   with edits and cut again where an edit needs it;
//! - `cache.rs`: the [`TreeCache`] of recently used piece trees.

mod cache;
mod forest;
mod pieces;
pub(crate) mod scan;
#[cfg(test)]
mod tests;

pub use cache::{PieceTrees, TreeCache, CACHE_BUDGET};
#[cfg(fuzzing)]
pub use forest::restart_ids_for_fuzzing;
pub use forest::Forest;
pub use pieces::{parse_pieces, parse_split};
pub use scan::cut_points;

/// Files smaller than this are parsed in one piece (unless it has an error).
pub const MIN_SPLIT: usize = 512 * 1024;

/// The pieces the language server keeps: an edit reparses one or a few.
pub const EDIT_PIECE: usize = 32 * 1024;

/// A game longer than this is read in parts of at most this many bytes,
/// each a game of its own marked as having a syntax error (no PBN game is
/// that long: a line holds at most 255 characters, §2.3, and the largest
/// game of the corpus files takes 5 KB). A part ends at the
/// last line start (outside comments) within the window, or at the last
/// `[` on a line longer than the window; the scan cuts the pieces there
/// ([`cut_points`]), so that the syntax tree of a hostile file's one
/// huge game (tree-sitter takes up to 36 times its text) is never held
/// whole. The cuts depend only on the text from the game's start, so every
/// way of cutting the text into pieces finds them ([`continues_game`]).
pub const GAME_WINDOW: usize = 1 << 20;

/// Whether a piece starting at `offset` (a cut point of the scan) continues
/// a game cut at a [`GAME_WINDOW`] rather than starting after a game break
/// (§3: a semi-empty line). The start and the end of the text are not cuts.
pub fn continues_game(text: &str, offset: usize) -> bool {
    if offset == 0 || offset >= text.len() {
        return false;
    }
    let b = &text.as_bytes()[..offset];
    let strip_eol = |b: &[u8]| -> Option<usize> {
        match b {
            [.., b'\r', b'\n'] => Some(b.len() - 2),
            [.., b'\n'] | [.., b'\r'] => Some(b.len() - 1),
            _ => None,
        }
    };
    // After a game break the text ends with a line end, a semi-empty line
    // and its line end.
    let Some(e) = strip_eol(b) else {
        return true;
    };
    let mut k = e;
    while k > 0 && matches!(b[k - 1], b' ' | b'\t' | 0x0b | 0x0c) {
        k -= 1;
    }
    strip_eol(&b[..k]).is_none()
}

/// The most bytes given to tree-sitter at once. A game longer than this
/// (no PBN game is: a tag value holds at most 255 characters, §2.3) is
/// parsed in windows of at most this many bytes, cut at line starts where
/// the window has a line end, each its own tree (its syntax errors are
/// reported as usual; the end of a window ends a game like the end of a
/// piece). Tree-sitter adds up the error cost of a parse in 32 bits (about
/// 100 per skipped token, 1 per skipped byte, 30 per skipped line): about
/// 43 MB of `[` overflowed it and tripped an assertion that aborted every
/// command. A window of 16 MB stays below half of that limit.
pub const MAX_WINDOW: usize = 16 << 20;
