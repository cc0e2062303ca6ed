//! Applying the diagnostics' fixes ([`crate::diagnostic::Fix`]) until none
//! is left: `pbn check --fix` and `pbn fmt` (which then formats the result).

use super::{check_text, CheckOptions, CheckResult};
use crate::codes::CodeInfo;
use crate::diagnostic::{apply_fixes, Diagnostic};
use crate::text::SourceText;

/// At most this many rounds of check-and-fix: a fix whose edits touch an
/// earlier one waits for the next round, and a fix may uncover another
/// (a quoted value then read as a date); more rounds than this mean two
/// fixes undo each other, and the text of the last round is kept.
pub const MAX_PASSES: usize = 10;

/// What [`fix_source`] did.
pub struct Fixed {
    /// The text with the fixes applied, in the encoding to write it in:
    /// the input's, or ISO 8859-1 (UTF-8 without a byte order mark) when a
    /// fix of the encoding applied ([`crate::diagnostic::Fix::encoding`]).
    pub source: SourceText,
    /// How many fixes of each code were applied, in code order.
    pub applied: Vec<(&'static CodeInfo, usize)>,
    /// The rounds of checking that applied at least one fix.
    pub passes: usize,
    /// Whether the text was still changing after [`MAX_PASSES`] rounds.
    pub unstable: bool,
    /// The check of the fixed text: what is left.
    pub remaining: CheckResult,
}

impl Fixed {
    pub fn count(&self) -> usize {
        self.applied.iter().map(|(_, n)| n).sum()
    }
}

/// One round of fixes of `src` from its `diagnostics`: the text fixes
/// ([`apply_fixes`]); once there is none, the fix of the encoding
/// ([`crate::diagnostic::Fix::encoding`]: a UTF-8 file written in ISO
/// 8859-1, §2.2), the text as it reads in that encoding
/// ([`crate::text::reencoded`]), since the writer encodes the final text.
/// Returns the fixed source and the diagnostics whose fix was applied;
/// `None` when none applies.
pub(crate) fn fix_round(
    src: &SourceText,
    diagnostics: &[Diagnostic],
    unsafe_fixes: bool,
) -> Option<(SourceText, Vec<usize>)> {
    if let Some((text, which)) = apply_fixes(&src.text, diagnostics, unsafe_fixes) {
        return Some((src.with_text(text), which));
    }
    let wanted = |d: &Diagnostic| {
        d.fix
            .as_deref()
            .filter(|f| f.applies(unsafe_fixes))
            .and_then(|f| f.encoding)
    };
    let to = diagnostics.iter().find_map(wanted)?;
    let which = (0..diagnostics.len())
        .filter(|&i| wanted(&diagnostics[i]) == Some(to))
        .collect();
    Some((crate::text::reencoded(src, to)?, which))
}

/// How a round of [`fix_loop`] ended.
pub(crate) enum Round<S> {
    /// Fixes applied: the state after them, diagnosed. In the round after
    /// the last one allowed (`apply` false), a state to which fixes still
    /// apply: the text is unstable.
    Fixed(S),
    /// No fix applies, or the round's fixes were refused: the state before
    /// the round stays (or one that says the loop's fixes are given up).
    Unfixed(S),
}

/// What [`fix_loop`] ends with.
pub(crate) struct Looped<S> {
    /// The last state.
    pub(crate) state: S,
    /// The rounds that applied a fix.
    pub(crate) passes: usize,
    /// Whether fixes still applied after [`MAX_PASSES`] rounds.
    pub(crate) unstable: bool,
}

/// The one fix loop of the core: `pbn check --fix` on the whole text
/// ([`fix_source_of`]), `pbn fmt`'s file-level fixes and each of its
/// stretches (`crate::format`). `round(state, apply)` applies the fixes of
/// the diagnosed `state` (its diagnostics are part of it) and diagnoses the
/// result; rounds go on while one applies, at most [`MAX_PASSES`]. Then
/// `round` is called once more with `apply` false, to tell whether fixes
/// still apply ([`Round::Fixed`]) without applying them.
pub(crate) fn fix_loop<S>(start: S, mut round: impl FnMut(S, bool) -> Round<S>) -> Looped<S> {
    let mut state = start;
    let mut passes = 0;
    loop {
        let apply = passes < MAX_PASSES;
        let (s, fixed) = match round(state, apply) {
            Round::Fixed(s) => (s, true),
            Round::Unfixed(s) => (s, false),
        };
        state = s;
        if !fixed || !apply {
            return Looped {
                state,
                passes,
                unstable: fixed,
            };
        }
        passes += 1;
    }
}

/// The fixes applied so far, per code.
type Applied = Vec<(&'static CodeInfo, usize)>;

/// Applies every safe fix (and the unsafe ones with `unsafe_fixes`) of the
/// check of `source`, checks again and repeats until no fix applies, at
/// most [`MAX_PASSES`] times.
pub fn fix_source(source: &SourceText, opts: &CheckOptions, unsafe_fixes: bool) -> Fixed {
    fix_source_of(source, opts, unsafe_fixes, |_| true)
}

/// [`fix_source`] with the fixes of the codes `wanted` takes only (`pbn
/// score --write`: the scoring arithmetic's).
pub fn fix_source_of(
    source: &SourceText,
    opts: &CheckOptions,
    unsafe_fixes: bool,
    wanted: impl Fn(&CodeInfo) -> bool,
) -> Fixed {
    // Each fix of each diagnostic, counted and applied one by one; what is
    // left is grouped as the options say.
    let group = !opts.ungrouped;
    let opts = &CheckOptions {
        ungrouped: true,
        ..opts.with_fixes()
    };
    let check = |src: &SourceText| {
        let mut res = check_text(src, opts);
        for d in res.diagnostics.iter_mut().filter(|d| !wanted(d.code)) {
            d.fix = None;
        }
        res
    };
    // The text (`None`: the input's), its check, the fixes applied to it.
    struct State {
        text: Option<SourceText>,
        res: CheckResult,
        applied: Applied,
    }
    let start = State {
        text: None,
        res: check(source),
        applied: Vec::new(),
    };
    let games = start.res.games;
    let Looped {
        state,
        passes,
        unstable,
    } = fix_loop(start, |s, apply| {
        let src = s.text.as_ref().unwrap_or(source);
        if !apply {
            return match apply_fixes(&src.text, &s.res.diagnostics, unsafe_fixes) {
                Some(_) => Round::Fixed(s),
                None => Round::Unfixed(s),
            };
        }
        let Some((next, which)) = fix_round(src, &s.res.diagnostics, unsafe_fixes) else {
            return Round::Unfixed(s);
        };
        let res = check(&next);
        // A round of fixes that changes the number of games is refused:
        // fixes never move game breaks. (Deletions that empty a line take
        // the line with them, `diagnostic::apply_fixes`; this is the
        // safety net.)
        if res.games != games {
            return Round::Unfixed(s);
        }
        let mut applied = s.applied;
        for i in which {
            let code = s.res.diagnostics[i].code;
            match applied.iter_mut().find(|(c, _)| std::ptr::eq(*c, code)) {
                Some((_, n)) => *n += 1,
                None => applied.push((code, 1)),
            }
        }
        Round::Fixed(State {
            text: Some(next),
            res,
            applied,
        })
    });
    let mut applied = state.applied;
    applied.sort_by_key(|(c, _)| c.code);
    Fixed {
        source: state
            .text
            .unwrap_or_else(|| source.with_text(source.text.clone())),
        applied,
        passes,
        unstable,
        remaining: grouped(state.res, group),
    }
}

/// `res` with its file-wide patterns grouped ([`super::group`]) when `group`.
fn grouped(mut res: CheckResult, group: bool) -> CheckResult {
    if group {
        super::group::group(&mut res.diagnostics, res.games);
    }
    res
}
