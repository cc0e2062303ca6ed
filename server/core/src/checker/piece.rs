//! What the checker knows of one forest piece without its tree: each
//! game's span and hash and the text between games ([`PieceInfo`]), and
//! the line and hash helpers that compute them.

use crate::diagnostic::Diagnostic;
use crate::rules;
use crate::syntax::{self, GameChunk};
use crate::text::SourceText;
use std::ops::Range;

/// A game's span (whole lines), its chunk's range and the span's hash.
pub(super) type GameSpan = (Range<usize>, Range<usize>, u64);

/// One piece of a forest: its games and what lies between them, with byte
/// offsets as they were when `start` was the piece's start.
#[derive(Debug)]
pub(super) struct PieceInfo {
    pub(super) start: usize,
    pub(super) games: Vec<GameSpan>,
    /// Diagnostics of the text between the games and of comments outside
    /// games (the file-level part of the piece).
    pub(super) between: Vec<Diagnostic>,
    /// The export rule on the game separators inside the piece (used when
    /// export rules apply to the whole file).
    pub(super) separators: Vec<Diagnostic>,
    /// The piece's last node when it is a game break: where the node before
    /// it ends, and the break. Its separator rule looks at the next piece's
    /// first character too, so it is checked on every re-check
    /// ([`tail_separator`]), not kept.
    pub(super) tail_break: Option<(usize, Range<usize>)>,
    /// Where the piece's first top-level node starts (the end of the game
    /// separator before it).
    pub(super) first_node: Option<usize>,
    /// The piece's last top-level node is a game break (every piece but
    /// the last is cut right after one, so games never straddle pieces),
    /// or the piece ends where a game longer than
    /// [`syntax::GAME_WINDOW`] is cut into parts.
    pub(super) ends_with_break: bool,
}

impl PieceInfo {
    /// The layout of a document walked whole, as one piece (only its
    /// games' spans, ranges and hashes).
    pub(super) fn whole(
        spans: Vec<Range<usize>>,
        ranges: Vec<Range<usize>>,
        hashes: Vec<u64>,
    ) -> PieceInfo {
        PieceInfo {
            start: 0,
            games: spans
                .into_iter()
                .zip(ranges)
                .zip(hashes)
                .map(|((s, r), h)| (s, r, h))
                .collect(),
            between: Vec::new(),
            separators: Vec::new(),
            tail_break: None,
            first_node: None,
            ends_with_break: false,
        }
    }

    /// The layout of a piece from its trees (one, or one per game where
    /// the piece has a syntax error: [`syntax::PieceTrees`]).
    pub(super) fn of(
        source: &SourceText,
        trees: &[tree_sitter::Tree],
        range: Range<usize>,
    ) -> PieceInfo {
        let text = source.text.as_str();
        let top = syntax::top_nodes(trees);
        // As `rules::export::check_file` on the whole document.
        let mut separators = Vec::new();
        let mut tail_break = None;
        for (k, n) in top.iter().enumerate() {
            if n.kind() != "game_break" || k == 0 {
                continue;
            }
            match top.get(k + 1) {
                Some(next) => separators.extend(rules::export::separator(
                    text,
                    top[k - 1].end_byte(),
                    n.byte_range(),
                    next.start_byte(),
                )),
                None => tail_break = Some((top[k - 1].end_byte(), n.byte_range())),
            }
        }
        let ends_with_break = top.last().is_some_and(|n| n.kind() == "game_break")
            || syntax::continues_game(text, range.end);
        // A tree's end ends a game (`syntax::games`).
        let (chunks, loose) = syntax::games(trees, text);
        let (games, between) = games_and_gaps(source, trees, &chunks, &loose, range.clone());
        PieceInfo {
            start: range.start,
            games,
            between,
            separators,
            tail_break,
            first_node: top.first().map(|n| n.start_byte()),
            ends_with_break,
        }
    }
}

/// Per game of `region` (parsed as `trees`, whose games and other
/// top-level nodes are `chunks` and `loose`): its span (whole lines), its
/// chunk's range and the span's hash; and the diagnostics of the region
/// outside the games (the text between them, comments outside games, a
/// tree whose root is an ERROR node).
pub(super) fn games_and_gaps(
    source: &SourceText,
    trees: &[tree_sitter::Tree],
    chunks: &[GameChunk<'_>],
    loose: &[tree_sitter::Node<'_>],
    region: Range<usize>,
) -> (Vec<GameSpan>, Vec<Diagnostic>) {
    let text = source.text.as_str();
    let error_roots: Vec<Range<usize>> = trees
        .iter()
        .map(|t| t.root_node())
        .filter(|r| r.is_error())
        .map(|r| r.byte_range())
        .collect();
    let games: Vec<GameSpan> = chunks
        .iter()
        .map(|c| {
            // A part of a game cut for its length spans from its cut to the
            // next part's, not the whole lines there.
            let start = c
                .cut_before
                .unwrap_or_else(|| line_start(text, c.range.start));
            let end = match c.cut_after {
                Some(cut) => span_end(&text[..cut], c.range.clone()),
                None => span_end(text, c.range.clone()),
            };
            let span = start..end;
            let mut h = fast_hash(text[span.clone()].as_bytes());
            // A part of a game cut for its length: where it was cut, and
            // the lines its line rule reads, decide its diagnostics too.
            if c.cut_before.is_some() || c.cut_after.is_some() {
                let lines = part_lines(text, c, span.clone());
                let flags = 1 + c.cut_before.is_some() as u64 + 2 * c.cut_after.is_some() as u64;
                h = mix(mix(h, flags), fast_hash(text[lines].as_bytes()));
            }
            // A game's text decides its parse, except where tree-sitter had
            // to recover from an error: the recovery depends on what came
            // before (found by fuzzing). Such a game is keyed by its tree too.
            let under_error = error_roots
                .iter()
                .any(|r| r.start <= c.range.start && c.range.end <= r.end);
            if under_error || c.nodes.iter().any(|n| n.has_error()) {
                h = mix(h, tree_hash(&c.nodes, span.start, under_error));
            }
            (span, c.range.clone(), h)
        })
        .collect();
    // Nodes under an ERROR root: the root is reported instead (`PieceInfo::of`).
    let reported: Vec<tree_sitter::Node<'_>> = loose
        .iter()
        .copied()
        .filter(|n| {
            !error_roots
                .iter()
                .any(|r| r.start <= n.start_byte() && n.end_byte() <= r.end)
        })
        .collect();
    let mut between = syntax::nodes_diagnostics(&reported, text);
    let mut gap_start = region.start;
    for span in games
        .iter()
        .map(|g| &g.0)
        .chain(std::iter::once(&(region.end..region.end)))
    {
        if span.start > gap_start {
            // The token rules look at the nodes outside games there too
            // (`loose` is in document order).
            let nodes = &loose[loose.partition_point(|n| n.start_byte() < gap_start)
                ..loose.partition_point(|n| n.start_byte() < span.start)];
            between.extend(rules::text::span(
                source.encoding,
                text,
                gap_start..span.start,
                nodes,
            ));
        }
        gap_start = span.end;
    }
    between.extend(trees.iter().filter_map(|t| syntax::root_error(t, text)));
    (games, between)
}

pub(super) fn line_start(text: &str, at: usize) -> usize {
    text.as_bytes()[..at]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map(|p| p + 1)
        .unwrap_or(0)
}

/// The whole lines a game's span starts: its span, but for a part of a
/// game cut for its length ([`syntax::GAME_WINDOW`]) inside a line, the
/// line it starts with belongs to the part before, and the line it ends
/// with runs on to its end.
pub(super) fn part_lines(text: &str, chunk: &GameChunk<'_>, span: Range<usize>) -> Range<usize> {
    let at_line_start = |c: usize| c == 0 || matches!(text.as_bytes()[c - 1], b'\n' | b'\r');
    let start = match chunk.cut_before {
        Some(c) if !at_line_start(c) => {
            // Looked for in the span only: parts inside one long line do
            // not each read it to its end.
            let e = line_end(&text[..span.end], c);
            if e >= span.end {
                return span.end..span.end;
            }
            let next = if text[e..].starts_with("\r\n") {
                e + 2
            } else {
                (e + 1).min(text.len())
            };
            if next >= span.end {
                return span.end..span.end;
            }
            next
        }
        _ => span.start,
    };
    let end = match chunk.cut_after {
        Some(c) if !at_line_start(c) => line_end(text, span.end),
        _ => span.end,
    };
    start..end
}

/// The end of the line holding the last byte of `range` (before its line
/// break). A range whose last byte is a line break (an ERROR node that
/// took the break with it) ends its line there: the next line belongs to the
/// next game (found by fuzzing: both games' spans held that line, so its
/// text rules counted twice).
pub(super) fn span_end(text: &str, range: Range<usize>) -> usize {
    let b = text.as_bytes();
    let mut end = range.end;
    if end > range.start && matches!(b[end - 1], b'\n' | b'\r') {
        end -= 1;
        if end > range.start && b[end] == b'\n' && b[end - 1] == b'\r' {
            end -= 1;
        }
        return end;
    }
    line_end(text, end)
}

pub(super) fn line_end(text: &str, at: usize) -> usize {
    text.as_bytes()[at..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|p| at + p)
        .unwrap_or(text.len())
}

/// A hash of the shape of `nodes` and everything under them (kinds, ranges
/// relative to `base`, error and missing marks) and of whether their parent
/// is an ERROR node (`under_error`).
pub(super) fn tree_hash(nodes: &[tree_sitter::Node<'_>], base: usize, under_error: bool) -> u64 {
    let mut h = under_error as u64;
    for n in nodes {
        syntax::for_each_node(*n, |node| {
            let flags = node.is_error() as u64 | (node.is_missing() as u64) << 1;
            h = mix(
                h,
                ((node.kind_id() as u64) << 2 | flags)
                    ^ ((node.start_byte() - base) as u64) << 20
                    ^ ((node.end_byte() - base) as u64) << 42,
            );
        });
    }
    h
}

pub(super) fn mix(a: u64, b: u64) -> u64 {
    (a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .rotate_left(29)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// A fast 64-bit hash of bytes (8 bytes a step, two multiplies); enough to
/// tell edited game texts apart, it is not meant to resist crafted input.
pub(super) fn fast_hash(b: &[u8]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ (b.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(31);
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(last)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}
