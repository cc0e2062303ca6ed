//! `pbn fmt`'s safe fixes, piece by piece: the games of one piece of the
//! document are checked, the safe fixes of their diagnostics applied
//! (round after round, as [`crate::checker::fix::fix_source`] does on the
//! whole text), and the fixed text of the piece parsed and lowered again
//! for the formatter. Every fix is made from one game and edits only that
//! game (`crate::rules::fixes`), so a piece can be fixed on its own; its
//! `#`/`##` values are resolved from the state before the piece (§4.8),
//! as the checker resolves them.

use crate::checker::fix::MAX_PASSES;
use crate::checker::CheckOptions;
use crate::diagnostic::{apply_fixes, Diagnostic, Fix};
use crate::model::lower::{lower_piece, PieceAt};
use crate::model::Game;
use std::sync::Arc;

/// A piece with its safe fixes applied.
pub(super) struct FixedPiece {
    /// The piece's text, fixed (offsets below are into it).
    pub(super) text: String,
    pub(super) trees: Vec<tree_sitter::Tree>,
    /// Its games, numbered as in the document, `#`/`##` values resolved.
    pub(super) games: Vec<Game>,
    /// How many fixes were applied.
    pub(super) fixes: usize,
}

/// Piece `p` of `text` with the safe fixes of its games' diagnostics
/// applied until none is left (at most [`MAX_PASSES`] rounds); `None` when
/// no safe fix applies. `pbn fmt` writes export format, so the export
/// rules' fixes apply to every game ([`fix_options`]), wherever the
/// document's `% EXPORT` line is.
/// `resolve` gives the games of a fixed piece, lowered again, their
/// `#`/`##` values. With `skip_broken`, the games with syntax errors get
/// no fix (see [`super::format_piece_fixed`]).
pub(super) fn fix_piece(
    text: &str,
    p: &PieceAt<'_>,
    resolve: &dyn Fn(&mut [Game]),
    skip_broken: bool,
) -> Option<FixedPiece> {
    let opts = fix_options();
    // A piece without games may hold a `{` comment left open (PBN0004).
    let first = p.games.first().map_or(0, |g| g.index);
    let mut current: Option<FixedPiece> = None;
    for _ in 0..MAX_PASSES {
        let (whole, base, piece, games) = match &current {
            Some(c) => (c.text.as_str(), 0, c.text.as_str(), c.games.as_slice()),
            None => (text, p.range.start, &text[p.range.clone()], p.games),
        };
        let mut diags: Vec<Diagnostic> = games
            .iter()
            .flat_map(|g| crate::rules::check_game(whole, &opts, true, g))
            .filter(|d| d.fix.as_ref().is_some_and(|f| f.applies(false)))
            .map(|d| shifted(d, base))
            .collect();
        // The safe fixes of syntax errors (a stray line of text kept as a
        // comment, an unquoted value with spaces quoted): the game is
        // then formatted, not kept as written.
        let broken = !skip_broken && games.iter().any(|g| g.syntax_error && !g.is_part());
        // And a `{` comment between games left open (PBN0004), closed where
        // it is read to end, as the whole text's fixes close it.
        let trees_now = current.as_ref().map_or(p.trees, |c| c.trees.as_slice());
        let open = crate::syntax::top_nodes(trees_now)
            .iter()
            .any(|n| n.kind() == "unterminated_comment");
        // And a Note too long for one line, cut and continued in a comment.
        let long = crate::rules::text::may_hold_long_note(piece);
        if broken || open || long {
            let trees = crate::syntax::parse_split(piece, usize::MAX);
            if broken || open {
                diags.extend(
                    crate::syntax::syntax_diagnostics(&trees, piece)
                        .into_iter()
                        .filter(|d| d.fix.as_ref().is_some_and(|f| f.applies(false))),
                );
            }
            if long {
                let in_part = |at: usize| {
                    games
                        .iter()
                        .any(|g| g.is_part() && g.range.contains(&(at + base)))
                };
                diags.extend(
                    crate::rules::text::long_note_fixes(piece, &trees)
                        .into_iter()
                        .filter(|d| !in_part(d.range.start)),
                );
            }
        }
        if skip_broken {
            let in_broken = |at: usize| {
                games
                    .iter()
                    .any(|g| g.syntax_error && g.range.contains(&(at + base)))
            };
            diags.retain(|d| !in_broken(d.range.start));
        }
        let Some((fixed, applied)) = apply_fixes(piece, &diags, false) else {
            break;
        };
        let applied = applied.len();
        // The diagnostics and the last round's piece are done with: freed
        // before the fixed text is parsed and lowered, so that at most two
        // trees and models of the piece exist at once (the document's and
        // this round's), not three.
        drop(diags);
        let fixes = current.take().map_or(0, |c| c.fixes) + applied;
        let trees = crate::syntax::parse_split(&fixed, usize::MAX);
        let (mut games, _) = lower_piece(&trees, &fixed, first);
        keep_parts(p.games, &mut games);
        resolve(&mut games);
        current = Some(FixedPiece {
            text: fixed,
            trees,
            games,
            fixes,
        });
    }
    current
}

/// The fixed text of a piece is parsed alone, so its ends are not where a
/// game longer than [`crate::syntax::GAME_WINDOW`] was cut: its first and
/// last games are marked as the piece's were (parts get no fixes, so they
/// are those games, unchanged), and stay parts, kept as written.
fn keep_parts(before: &[Game], after: &mut [Game]) {
    if let (Some(a), Some(b)) = (before.first(), after.first_mut()) {
        if a.cut_before.is_some() {
            b.cut_before = Some(b.range.start);
            b.syntax_error = true;
        }
    }
    if let (Some(a), Some(b)) = (before.last(), after.last_mut()) {
        if a.cut_after {
            b.cut_after = true;
            b.syntax_error = true;
        }
    }
}

/// The options `pbn fmt` fixes with: export rules on (the formatter writes
/// export format, and the export rules' fixes are what makes a value its
/// export form: `3N` → `3NT`, `s` → `S`, a Deal from the dealer), fixes
/// built, each diagnostic's fix on its own (none grouped).
pub(super) fn fix_options() -> CheckOptions {
    CheckOptions {
        export: true,
        fixes: true,
        ungrouped: true,
    }
}

/// `d` with its fix's edits moved `by` bytes back (into a piece's text).
fn shifted(mut d: Diagnostic, by: usize) -> Diagnostic {
    if by > 0 {
        if let Some(f) = &d.fix {
            let mut f: Fix = (**f).clone();
            for e in &mut f.edits {
                // An edit outside the piece (none is made) is left out by
                // `apply_fixes`, as one outside the text.
                e.range = match (e.range.start.checked_sub(by), e.range.end.checked_sub(by)) {
                    (Some(s), Some(t)) => s..t,
                    _ => usize::MAX..usize::MAX,
                };
            }
            d.fix = Some(Arc::new(f));
        }
    }
    d
}
