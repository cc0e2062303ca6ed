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
use crate::syntax::Trees;

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
pub fn check_document<T: Trees + ?Sized>(source: &SourceText, trees: &T, doc: &Document, opts: &CheckOptions) -> Vec<Diagnostic> {
    check_document_impl(source, trees, doc, opts, None).0
}

/// Per-game diagnostics of an earlier check, keyed by everything a game's
/// diagnostics depend on: its text, the values it inherits (§4.8) and
/// whether export rules apply. The language server re-checks only the games
/// whose key changed (an edit inside them, or a change of what they
/// inherit); the others reuse their diagnostics, shifted.
#[derive(Clone, Debug, Default)]
pub struct GameCache {
    entries: std::collections::HashMap<u64, (usize, Vec<Diagnostic>)>,
}

impl GameCache {
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

fn game_key(text: &str, g: &Game, export: bool) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text[g.range.clone()].hash(&mut h);
    export.hash(&mut h);
    for t in &g.tags {
        if let Some((v, _)) = &t.resolved {
            v.hash(&mut h);
        }
    }
    for i in &g.inherited {
        i.name.hash(&mut h);
        i.value.hash(&mut h);
    }
    h.finish()
}

/// [`check_document`] reusing the per-game diagnostics of `cache`; returns
/// the diagnostics and the cache for the next check.
pub fn check_document_cached<T: Trees + ?Sized>(source: &SourceText, trees: &T, doc: &Document, opts: &CheckOptions, cache: &GameCache) -> (Vec<Diagnostic>, GameCache) {
    check_document_impl(source, trees, doc, opts, Some(cache))
}

/// Without a cache (a one-off check), no game keys are computed and no
/// cache is built.
fn check_document_impl<T: Trees + ?Sized>(source: &SourceText, trees: &T, doc: &Document, opts: &CheckOptions, cache: Option<&GameCache>) -> (Vec<Diagnostic>, GameCache) {
    let text = source.text.as_str();
    let export = opts.export || export::declares_export(text);
    let mut out = text::check(source, trees);
    // A `% EXPORT` line further down switches the games after it to export
    // rules (the reference verifier's error file does this).
    let export_from = if export { Some(0) } else { export::export_line_offset(text) };
    if export {
        let (chunks, _) = crate::syntax::games(trees);
        let mut file = Vec::new();
        export::check_file(source, trees, &chunks, &mut file);
        for d in &mut file {
            d.game = crate::syntax::game_at(&chunks, d.range.start);
        }
        out.extend(file);
    }
    let mut next = GameCache::default();
    let Some(cache) = cache else {
        let all: Vec<usize> = (0..doc.games.len()).collect();
        out.extend(check_some_games(text, doc, opts, export_from, &all).into_iter().flatten());
        return (out, next);
    };
    let mut todo = Vec::new();
    for (i, g) in doc.games.iter().enumerate() {
        let first_tag = g.tags.first().map(|t| t.range.start).unwrap_or(g.range.start);
        let game_export = export_from.is_some_and(|p| p <= first_tag);
        let key = game_key(text, g, game_export);
        match cache.entries.get(&key) {
            Some((start, diags)) => {
                let shifted: Vec<Diagnostic> = diags.iter().cloned().map(|mut d| {
                    d.range = d.range.start - start + g.range.start..d.range.end - start + g.range.start;
                    for r in &mut d.related {
                        r.range = r.range.start - start + g.range.start..r.range.end - start + g.range.start;
                    }
                    d.game = Some(i);
                    d
                }).collect();
                next.entries.insert(key, (g.range.start, shifted.clone()));
                out.extend(shifted);
            }
            None => todo.push((i, key)),
        }
    }
    let fresh = check_some_games(text, doc, opts, export_from, &todo.iter().map(|(i, _)| *i).collect::<Vec<_>>());
    for ((i, key), diags) in todo.into_iter().zip(fresh) {
        next.entries.insert(key, (doc.games[i].range.start, diags.clone()));
        out.extend(diags);
    }
    (out, next)
}

/// Runs the per-game rules on a range of games.
pub fn check_games(text: &str, doc: &Document, opts: &CheckOptions, export_from: Option<usize>, games: std::ops::Range<usize>) -> Vec<Diagnostic> {
    let idx: Vec<usize> = games.collect();
    check_some_games(text, doc, opts, export_from, &idx).into_iter().flatten().collect()
}

fn check_one(text: &str, doc: &Document, opts: &CheckOptions, export_from: Option<usize>, g: &Game) -> Vec<Diagnostic> {
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
}

/// The per-game diagnostics of the games `idx`, in that order; in parallel
/// over the cores for many games.
fn check_some_games(text: &str, doc: &Document, opts: &CheckOptions, export_from: Option<usize>, idx: &[usize]) -> Vec<Vec<Diagnostic>> {
    let one = |&i: &usize| check_one(text, doc, opts, export_from, &doc.games[i]);
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    if idx.len() < 256 || threads < 2 {
        return idx.iter().map(one).collect();
    }
    let chunk = idx.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = idx.chunks(chunk).map(|part| s.spawn(move || part.iter().map(one).collect::<Vec<_>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("rule panicked")).collect()
    })
}
