//! The semantic checker: every rule, one file per group (matching
//! `codes/`). [`check_document`] runs them all; games are independent and
//! are checked in parallel on large documents.

mod bridge;
mod export;
mod notes;
mod tables;
pub mod tags;
mod text;
mod values;

use crate::check::CheckOptions;
use crate::diagnostic::Diagnostic;
use crate::model::{Document, Game};
use crate::text::SourceText;
use tree_sitter::Tree;

/// What a per-game rule sees.
pub struct GameCtx<'a> {
    pub text: &'a str,
    pub doc: &'a Document,
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

/// Runs every rule on a document.
pub fn check_document(source: &SourceText, tree: &Tree, doc: &Document, opts: &CheckOptions) -> Vec<Diagnostic> {
    let text = source.text.as_str();
    let export = opts.export || export::declares_export(text);
    let mut out = text::check(source, tree);
    // A `% EXPORT` line further down switches the games after it to export
    // rules (the reference verifier's error file does this).
    let export_from = if export { Some(0) } else { export::export_line_offset(text) };
    if export {
        let (chunks, _) = crate::syntax::games(tree);
        let mut file = Vec::new();
        export::check_file(source, tree, &chunks, &mut file);
        for d in &mut file {
            d.game = crate::syntax::game_at(&chunks, d.range.start);
        }
        out.extend(file);
    }
    out.extend(check_games(text, doc, opts, export_from, 0..doc.games.len()));
    out
}

/// Runs the per-game rules on a range of games (used by the server to
/// re-check only the games an edit touched).
pub fn check_games(text: &str, doc: &Document, opts: &CheckOptions, export_from: Option<usize>, games: std::ops::Range<usize>) -> Vec<Diagnostic> {
    let games = &doc.games[games];
    let per_game = |g: &Game| {
        let first_tag = g.tags.first().map(|t| t.range.start).unwrap_or(g.range.start);
        let export = export_from.is_some_and(|p| p <= first_tag);
        let ctx = GameCtx { text, doc, game: g, opts, export };
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
    };
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    if games.len() < 256 || threads < 2 {
        return games.iter().flat_map(per_game).collect();
    }
    let chunk = games.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().flat_map(per_game).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("rule panicked")).collect()
    })
}
