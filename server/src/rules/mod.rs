//! The semantic checker: every rule, one file per group (matching
//! `codes/`). [`check_document`] runs them all; games are independent and
//! are checked in parallel on large documents.

mod bridge;
pub(crate) mod export;
mod notes;
mod tables;
pub mod tags;
pub(crate) mod text;
mod values;

use crate::check::CheckOptions;
use crate::diagnostic::Diagnostic;
use crate::model::{Document, Game};
use crate::text::SourceText;
use crate::syntax::Trees;

/// FxHash (the multiply-rotate hash rustc uses) for the rules' small
/// per-game sets and maps of tag names: with SipHash, hashing and growing
/// them from empty cost about a tenth of the per-game rules.
#[derive(Clone, Copy, Default)]
pub(crate) struct FxHasher(u64);

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FxHasher>>;
pub(crate) type FastSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<FxHasher>>;

/// A map or set for `n` entries.
pub(crate) fn fast_with_capacity<C: FromCapacity>(n: usize) -> C {
    C::with_capacity(n)
}

pub(crate) trait FromCapacity {
    fn with_capacity(n: usize) -> Self;
}

impl<K, V> FromCapacity for FastMap<K, V> {
    fn with_capacity(n: usize) -> Self {
        FastMap::with_capacity_and_hasher(n, Default::default())
    }
}

impl<K> FromCapacity for FastSet<K> {
    fn with_capacity(n: usize) -> Self {
        FastSet::with_capacity_and_hasher(n, Default::default())
    }
}

/// What a per-game rule sees.
pub struct GameCtx<'a> {
    pub text: &'a str,
    pub game: &'a Game,
    pub opts: &'a CheckOptions,
    /// Export-format rules are on (`--export` or a `% EXPORT` line).
    pub export: bool,
}

impl GameCtx<'_> {
    pub fn push(&self, out: &mut Vec<Diagnostic>, d: Diagnostic) {
        out.push(d.with_game(Some(self.game.index)));
    }
}

/// Whether export rules apply to the document, and from which offset: a
/// `% EXPORT` line further down switches the games after it to export rules
/// (the reference verifier's error file does this).
pub fn export_from(text: &str, opts: &CheckOptions) -> Option<usize> {
    if opts.export || export::declares_export(text) {
        Some(0)
    } else {
        export::export_line_offset(text)
    }
}

/// Whether export rules apply to game `g`.
pub fn game_export(export_from: Option<usize>, g: &Game) -> bool {
    let first_tag = g.tags.first().map(|t| t.range.start).unwrap_or(g.range.start);
    export_from.is_some_and(|p| p <= first_tag)
}

/// Runs every rule on a document.
pub fn check_document<T: Trees + ?Sized>(source: &SourceText, trees: &T, doc: &Document, opts: &CheckOptions) -> Vec<Diagnostic> {
    let text = source.text.as_str();
    let mut out = text::check(source, trees);
    let export_from = export_from(text, opts);
    if export_from == Some(0) {
        out.extend(file_export(source, trees));
    }
    let all: Vec<usize> = (0..doc.games.len()).collect();
    out.extend(check_some_games(text, doc, opts, export_from, &all).into_iter().flatten());
    out
}

/// The file-level export rules (line ends, tabs, game separators), each
/// with its game.
pub fn file_export<T: Trees + ?Sized>(source: &SourceText, trees: &T) -> Vec<Diagnostic> {
    let top = crate::syntax::top_nodes(trees);
    let (chunks, _) = crate::syntax::games(trees);
    file_export_in(source, &top, &chunks)
}

/// [`file_export`] from the top-level nodes and games already collected.
pub fn file_export_in(source: &SourceText, top: &[tree_sitter::Node<'_>], chunks: &[crate::syntax::GameChunk<'_>]) -> Vec<Diagnostic> {
    let mut file = Vec::new();
    export::check_file(source, top, chunks, &mut file);
    for d in &mut file {
        d.game = crate::syntax::game_at(chunks, d.range.start);
    }
    file
}

/// Runs the per-game rules on a range of games.
pub fn check_games(text: &str, doc: &Document, opts: &CheckOptions, export_from: Option<usize>, games: std::ops::Range<usize>) -> Vec<Diagnostic> {
    let idx: Vec<usize> = games.collect();
    check_some_games(text, doc, opts, export_from, &idx).into_iter().flatten().collect()
}

/// The per-game rules on one game.
pub fn check_game(text: &str, opts: &CheckOptions, export: bool, g: &Game) -> Vec<Diagnostic> {
    let ctx = GameCtx { text, game: g, opts, export };
    let mut out = Vec::new();
    tags::check(&ctx, &mut out);
    notes::check(&ctx, &mut out);
    tables::check(&ctx, &mut out);
    values::check(&ctx, &mut out);
    bridge::check(&ctx, &mut out);
    if export {
        export::check(&ctx, &mut out);
    }
    out
}

/// The per-game diagnostics of the games `idx`, in that order; in parallel
/// over the cores for many games.
fn check_some_games(text: &str, doc: &Document, opts: &CheckOptions, export_from: Option<usize>, idx: &[usize]) -> Vec<Vec<Diagnostic>> {
    let runs: Vec<&[usize]> = idx.chunks(64).collect();
    crate::par::map(&runs, |run| {
        run.iter().map(|&i| check_game(text, opts, game_export(export_from, &doc.games[i]), &doc.games[i])).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}
