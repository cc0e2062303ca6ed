//! `pbn fmt`'s safe fixes, one stretch of the document at a time: the
//! games of a stretch between two cut points (a game and the text after
//! it up to the next game break, [`crate::syntax::cut_points`]) are
//! checked, the safe fixes of their diagnostics applied (round after round,
//! by the loop [`crate::checker::fix::fix_source`] runs on the whole text,
//! `fix_loop`), and the
//! fixed text of the stretch parsed and lowered again for the formatter.
//! Every fix is made from one game and edits only that game
//! (`crate::rules::fixes`), so a stretch can be fixed on its own; its
//! `#`/`##` values are resolved from the state before it (§4.8), as the
//! checker resolves them. Whether a stretch's fixes are taken depends on
//! that stretch alone, never on which pieces the document was cut into
//! (`super::format_piece_fixed`).

use crate::checker::fix::{fix_loop, Round};
use crate::checker::CheckOptions;
use crate::diagnostic::{apply_fixes, Diagnostic, Fix};
use crate::model::lower::lower_piece;
use crate::model::Game;
use std::ops::Range;
use std::sync::Arc;

/// A stretch with its safe fixes applied.
pub(super) struct FixedPiece {
    /// The stretch's text, fixed (offsets below are into it).
    pub(super) text: String,
    pub(super) trees: Vec<tree_sitter::Tree>,
    /// Its games, numbered as in the document, `#`/`##` values resolved.
    pub(super) games: Vec<Game>,
    /// How many fixes were applied.
    pub(super) fixes: usize,
}

/// One stretch of the document between two cut points, to be fixed.
pub(super) struct Unit<'u> {
    /// Where it is in the document.
    pub(super) range: Range<usize>,
    /// Its games (none is a part of a game longer than a window).
    pub(super) games: &'u [Game],
    /// The safe fixes of its games' diagnostics (document offsets).
    pub(super) fixes: Vec<Diagnostic>,
    /// It holds a `{` comment left open (PBN0004).
    pub(super) open: bool,
}

impl Unit<'_> {
    /// Whether a safe fix may apply ([`may_fix`]).
    pub(super) fn has_fixes(&self, text: &str) -> bool {
        may_fix(
            text,
            self.range.clone(),
            self.games,
            !self.fixes.is_empty(),
            self.open,
        )
    }
}

/// Whether a safe fix may apply to `text[range]`, whose games are `games`:
/// a diagnostic's (`diagnosed`), a syntax error's (not in a part of a game
/// longer than a window: parts get no fixes), an open comment's (`open`)
/// or a long Note's.
pub(super) fn may_fix(
    text: &str,
    range: Range<usize>,
    games: &[Game],
    diagnosed: bool,
    open: bool,
) -> bool {
    diagnosed
        || open
        || games.iter().any(|g| g.syntax_error && !g.is_part())
        || crate::rules::text::may_hold_long_note(&text[range])
}

/// The safe fixes of game `g`'s diagnostics (export rules on: see
/// [`fix_options`]), offsets into `text`.
pub(super) fn game_fixes(text: &str, g: &Game) -> Vec<Diagnostic> {
    crate::rules::check_game(text, &fix_options(), true, g)
        .into_iter()
        .filter(|d| d.fix.as_ref().is_some_and(|f| f.applies(false)))
        .collect()
}

/// Stretch `u` of `text` with the safe fixes of its games' diagnostics
/// applied until none is left ([`crate::checker::fix::fix_loop`]); `None`
/// when no safe fix applies, or a fix makes a game longer than a window.
/// `pbn fmt` writes export format, so the export rules' fixes apply to every
/// game ([`fix_options`]), wherever the document's `% EXPORT` line is.
/// `resolve` gives the games of a fixed stretch, lowered again, their
/// `#`/`##` values.
pub(super) fn fix_unit(
    text: &str,
    u: Unit<'_>,
    resolve: &dyn Fn(&mut [Game]),
) -> Option<FixedPiece> {
    let first = u.games.first().map_or(0, |g| g.index);
    let piece = &text[u.range.clone()];
    let given = u.fixes.into_iter().map(|d| shifted(d, u.range.start));
    // The stretch (`None`: as written) and its safe fixes; `Err` once a fix
    // made a game longer than a window.
    type State = Result<(Option<FixedPiece>, Vec<Diagnostic>), ()>;
    let start: State = Ok((
        None,
        unit_fixes(piece, u.games, Some(given.collect()), u.open),
    ));
    let looped = fix_loop(start, |state, apply| {
        let Ok((current, diags)) = state else {
            return Round::Unfixed(state);
        };
        let piece = current.as_ref().map_or(piece, |c| c.text.as_str());
        let Some((fixed, applied)) = apply.then(|| apply_fixes(piece, &diags, false)).flatten()
        else {
            return Round::Unfixed(Ok((current, diags)));
        };
        // The diagnostics and the last round's stretch are done with: freed
        // before the fixed text is parsed and lowered, so that at most two
        // trees and models of it exist at once, not three.
        drop(diags);
        let fixes = current.map_or(0, |c| c.fixes) + applied.len();
        let trees = crate::syntax::parse_split(&fixed, usize::MAX);
        let (mut games, _) = lower_piece(&trees, &fixed, first);
        if games.iter().any(Game::is_part) {
            return Round::Unfixed(Err(()));
        }
        resolve(&mut games);
        let open = crate::syntax::top_nodes(&trees)
            .iter()
            .any(|n| n.kind() == "unterminated_comment");
        let diags = unit_fixes(&fixed, &games, None, open);
        Round::Fixed(Ok((
            Some(FixedPiece {
                text: fixed,
                trees,
                games,
                fixes,
            }),
            diags,
        )))
    });
    looped.state.ok().and_then(|(current, _)| current)
}

/// The safe fixes of stretch `piece`, whose games are `games`: those of
/// their diagnostics (`given`, or made here); those of
/// its syntax errors (a stray line of text kept as a comment, an unquoted
/// value with spaces quoted: the game is then formatted, not kept as
/// written) and of a `{` comment between games left `open` (PBN0004,
/// closed where it is read to end, as the whole text's fixes close it); and
/// those of a Note too long for one line (cut and continued in a comment).
fn unit_fixes(
    piece: &str,
    games: &[Game],
    given: Option<Vec<Diagnostic>>,
    open: bool,
) -> Vec<Diagnostic> {
    let mut diags =
        given.unwrap_or_else(|| games.iter().flat_map(|g| game_fixes(piece, g)).collect());
    let broken = games.iter().any(|g| g.syntax_error);
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
            diags.extend(crate::rules::text::long_note_fixes(piece, &trees));
        }
    }
    diags
}

/// The options `pbn fmt` fixes with: export rules on (the formatter writes
/// export format, and the export rules' fixes are what makes a value its
/// export form: `3N` → `3NT`, `s` → `S`, a Deal from the dealer), fixes
/// built, each diagnostic's fix on its own (none grouped).
pub(crate) fn fix_options() -> CheckOptions {
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
            if let Some(a) = &mut f.alone_in {
                *a = a.start.saturating_sub(by)..a.end.saturating_sub(by);
            }
            d.fix = Some(Arc::new(f));
        }
    }
    d
}
