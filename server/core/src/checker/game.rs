//! Checking one game: its key (what its diagnostics depend on) and the
//! rules run on it.

use super::piece::{mix, part_lines};
use crate::checker::CheckOptions;
use crate::diagnostic::Diagnostic;
use crate::model::inherit::Resolution;
use crate::model::lower::lower_game;
use crate::model::score_table::ScoreMark;
use crate::model::Game;
use crate::rules;
use crate::rules::deal_id::DealIdMark;
use crate::syntax::{self, GameChunk};
use crate::text::SourceText;
use std::ops::Range;

/// The key of a game's diagnostics: its span's hash, the hash of the values
/// it inherits, and whether export rules apply to it (from `export_from`
/// on; a game's first tag is in its span, so comparing with the span is
/// enough unless the `% EXPORT` line is inside this very span).
pub(super) fn game_key(
    hash: u64,
    env: u64,
    export_from: Option<usize>,
    span: &Range<usize>,
) -> u64 {
    let export = match export_from {
        None => 0u64,
        Some(p) if p <= span.start => 1,
        Some(p) if p >= span.end => 2,
        Some(p) => 3 + (p - span.start) as u64,
    };
    mix(mix(hash, env), export)
}

/// What checking one game gives: its diagnostics and what it contributes
/// to the rules across games, relative to the game's span start. Kept per
/// game text and inherited values, as the diagnostics are. A check may
/// hold one for every game of a file at once (the language server's state,
/// the games checked while the pieces are walked): what most games do not
/// have is boxed.
#[derive(Debug, Default)]
pub(super) struct GameCheck {
    pub(super) diags: Vec<Diagnostic>,
    /// How many of each per-file capped code were left out of `diags`
    /// ([`rules::text::thin`]), when any was: a game needs no more than
    /// the first [`rules::text::CAP`] of each, whatever the games before
    /// it hold. [`GameCheck::dropped`] reads it.
    dropped: Option<Box<rules::text::CapCounts>>,
    /// What the rules across games read of it, when anything.
    pub(super) across: Option<Box<Across>>,
}

/// What the rules across games read of a game, relative to its span.
#[derive(Debug, Default)]
pub(super) struct Across {
    /// Its DealId and deal (§4.1.2: [`rules::deal_id`]).
    pub(super) deal_id: Option<DealIdMark>,
    /// What it gives the TotalScoreTable totals (§5.10: [`ScoreMark`]).
    pub(super) score: Option<ScoreMark>,
}

impl GameCheck {
    pub(super) fn deal_id(&self) -> Option<&DealIdMark> {
        self.across.as_ref()?.deal_id.as_ref()
    }

    pub(super) fn score(&self) -> Option<&ScoreMark> {
        self.across.as_ref()?.score.as_ref()
    }
}

/// Game `i` (`chunk`, whose span is `span`) lowered, given its inherited
/// values, and checked: its diagnostics relative to the span's start.
pub(super) fn check_one(
    source: &SourceText,
    chunk: &GameChunk<'_>,
    span: Range<usize>,
    i: usize,
    resolution: Option<&Resolution>,
    opts: &CheckOptions,
    export_from: Option<usize>,
) -> GameCheck {
    let mut game = lower_game(i, chunk, &source.text);
    if let Some(r) = resolution {
        r.clone().apply_to(&mut game);
    }
    let start = span.start as isize;
    let deal_id = DealIdMark::of(&game).map(|m| m.shifted(-start));
    let score = ScoreMark::of(&game).map(|m| m.shifted(-start));
    let across =
        (deal_id.is_some() || score.is_some()).then(|| Box::new(Across { deal_id, score }));
    let diags: Vec<Diagnostic> = game_diagnostics(
        source,
        chunk,
        span,
        &game,
        opts,
        rules::game_export(export_from, &game),
    )
    .into_iter()
    .map(|d| d.shifted(-start))
    .collect();
    let mut check = GameCheck {
        diags,
        dropped: Default::default(),
        across,
    };
    check.thin(&mut Default::default());
    check
}

impl GameCheck {
    /// Keeps of its diagnostics only what the per-file caps can show after
    /// the `seen` before it ([`rules::text::thin`]), counting the rest.
    pub(super) fn thin(&mut self, seen: &mut rules::text::CapCounts) {
        let mut dropped = self.dropped();
        rules::text::thin(&mut self.diags, seen, &mut dropped);
        if dropped != rules::text::CapCounts::default() {
            self.dropped = Some(Box::new(dropped));
        }
        self.diags.shrink_to_fit();
    }

    /// How many of each per-file capped code were left out of its
    /// diagnostics ([`rules::text::thin`]).
    pub(super) fn dropped(&self) -> rules::text::CapCounts {
        self.dropped.as_deref().copied().unwrap_or_default()
    }
}

/// Everything one game contributes: syntax, text and per-game rules.
pub(super) fn game_diagnostics(
    source: &SourceText,
    chunk: &GameChunk<'_>,
    span: Range<usize>,
    game: &Game,
    opts: &CheckOptions,
    export: bool,
) -> Vec<Diagnostic> {
    let text = source.text.as_str();
    let mut out = Vec::new();
    // Under an ERROR root the root is reported instead (`PieceInfo::of`).
    let under_error_root = || {
        chunk
            .nodes
            .first()
            .and_then(|n| n.parent())
            .is_some_and(|p| p.is_error() && p.parent().is_none())
    };
    if (game.syntax_error || chunk.nodes.iter().any(|n| n.has_error())) && !under_error_root() {
        out.extend(syntax::nodes_diagnostics(&chunk.nodes, text));
    }
    let lines = part_lines(text, chunk, span.clone());
    out.extend(rules::text::span_lines(
        source.encoding,
        text,
        span,
        lines,
        &chunk.nodes,
    ));
    out.extend(rules::check_game(text, opts, export, game));
    out
}

#[cfg(test)]
mod tests {
    use super::GameCheck;

    /// A check may hold one [`GameCheck`] for every game of a file: a
    /// game without diagnostics, dropped counts or DealId costs its empty
    /// list and two pointers, not the 80 bytes of the counts and the 56 of
    /// a DealId mark and a score mark (a file of 770,000 such games held 176 bytes each
    /// behind their `Arc`).
    #[test]
    fn a_game_check_is_small() {
        let size = std::mem::size_of::<GameCheck>();
        assert!(size <= 40, "{size} bytes");
    }
}
