//! The repairs of the diagnostics whose meaning is recoverable: each
//! diagnostic of a fixable code gets its [`Fix`] here, from the game it
//! belongs to, right after the rules found it ([`attach`]); `pbn check
//! --fix`, `pbn fmt` and the language server's quick fixes apply these
//! and nothing else. Every fix edits the smallest piece of text it can (a
//! token, a tag value, one tag line) and leaves valid PBN:
//!
//! [`FIXERS`] is the one list of the fixable codes: for each, the kind of
//! its fixes (safe, unsafe, or either by case), what the fix does (`pbn
//! explain` prints it) and the function that makes it from the game, or
//! none where the fix is made with the diagnostic (the syntax, token and
//! file rules).
//!
//! PBN0410 (`x` spot cards in a Deal) has no fix: an `x` does not say
//! which small card it is, and two hands with `x` in one suit can hold
//! those cards either way round.
//!
//! PBN0406, PBN0407 and PBN0408 have no fix when more than one
//! correction of that size is possible: a card in two hands of 13 (either
//! may be wrong), a hand of 14 next to one of 12 without a repeated card
//! (any of the 14 may be the misplaced one), a hand of 12 next to hands not
//! given (the missing card may be any of theirs).
//!
//! PBN0006 (an unquoted tag value: safe when the text up to the tag's
//! `]` is the value, else unsafe, where the value ends is a guess) and
//! PBN0001 on a line of free text are fixed where the syntax diagnostic is
//! made (applied by `pbn check --fix`; `pbn fmt` prints a game with a
//! syntax error as written).
//!
//! The fix functions are filed by what they repair: tags and their values
//! (`tags.rs`), calls, cards and annotations (`annotations.rs`), Declarer,
//! Contract and Result from the auction and the play (`outcome.rs`), the
//! Deal and the export forms of values (`export.rs`); `text.rs` holds their
//! text helpers.

mod annotations;
mod export;
mod outcome;
mod tags;
mod text;

pub use outcome::fill_from_auction;
pub(crate) use text::eol;

use annotations::{
    add_note, annotation_order, nonstandard_call, nonstandard_card, star_as_alert, upper_case,
};
use export::{
    deal_cards, deal_export_form, deal_read_form, deal_ten, empty_hand, rotate_deal,
    value_export_form, write_left_out_passes,
};
use outcome::{
    add_mandatory, add_play_tags, empty_result, fix_contract, fix_declarer, fix_result,
    remove_result_caret,
};
use tags::{
    data_as_comment, empty_play, quote_value, remove_duplicate, standard_date, standard_value,
    swapped_date, tag_name_case,
};

use crate::codes::{
    bridge as cb, export as ce, notes as cn, syntax as cs, tables as cl, tags as ct, text as cx,
    values as cv, CodeInfo,
};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::model::Game;
use std::ops::Range;
use std::sync::Arc;

/// A fix for a fix function to return: safe when `preferred` (the applicability
/// is then decided per code by [`fixes_for`]).
fn mk(title: impl Into<String>, edits: Vec<Edit>, preferred: bool) -> Fix {
    let mut f = Fix::new(title, edits, Applicability::safe_if(preferred));
    f.preferred = preferred;
    f
}

/// The entry of a section (in text order) whose range is `r`, by binary
/// search: a section may hold 100,000 calls, each with a diagnostic.
fn entry_at<'e, T>(
    entries: &'e [crate::model::Entry<T>],
    r: &Range<usize>,
) -> Option<&'e crate::model::Entry<T>> {
    let i = entries.partition_point(|e| e.range.start < r.start);
    entries.get(i).filter(|e| e.range == *r)
}

fn edit(range: Range<usize>, new_text: impl Into<String>) -> Edit {
    Edit {
        range,
        new_text: new_text.into(),
    }
}

/// Gives each diagnostic of one game's rules its fix (the first of
/// [`fixes_for`]).
///
/// In a game with a syntax error the parser read the text by error
/// recovery, so an edit there may change how the rest of it reads (a
/// repeated tag removed, and a `"##` after it becomes a string whose `##`
/// reaches the next game, §4.8). There a fix is safe only when the game,
/// fixed, reads the same around the edits ([`reads_the_same_around`]);
/// else it is a guess, unsafe. And it is applied with no other fix in the
/// game in the same round ([`Fix::alone_in`]).
pub(crate) fn attach(text: &str, g: &Game, diags: &mut [Diagnostic]) {
    let mut around = None;
    for d in diags.iter_mut() {
        if d.fix.is_none() {
            d.fix = fixes_for(text, g, d).into_iter().next().map(Arc::new);
        }
        // Also the fixes a rule made with its diagnostic.
        let Some(made) = d
            .fix
            .as_ref()
            .filter(|f| g.syntax_error && f.alone_in.is_none())
        else {
            continue;
        };
        let around = around
            .get_or_insert_with(|| between_game_breaks(text, &g.range))
            .clone();
        let mut fix = (**made).clone();
        if fix.applicability == Applicability::Safe
            && !reads_the_same_around(text, around.clone(), &fix)
        {
            fix.applicability = Applicability::Unsafe;
            fix.preferred = false;
        }
        fix.alone_in = Some(around);
        d.fix = Some(Arc::new(fix));
    }
}

/// The lines around `r` from the semi-empty line (§3: a game break)
/// before it to the end of the run of them after it: the text the
/// canonical parse reads a broken game in, with the errors next to its
/// nodes.
fn between_game_breaks(text: &str, r: &Range<usize>) -> Range<usize> {
    use crate::syntax::split::scan::{after_newline, is_semi_empty, line_end, semi_empty_run_end};
    let b = text.as_bytes();
    let line_start = |i: usize| {
        b[..i]
            .iter()
            .rposition(|&c| c == b'\n' || c == b'\r')
            .map_or(0, |p| p + 1)
    };
    let mut start = line_start(r.start.min(b.len()));
    while start > 0 {
        let mut e = start - 1;
        if e > 0 && b[e] == b'\n' && b[e - 1] == b'\r' {
            e -= 1;
        }
        let s = line_start(e);
        if is_semi_empty(&b[s..e]) {
            break;
        }
        start = s;
    }
    let mut end = line_end(b, r.end.min(b.len()));
    while end < b.len() {
        let next = after_newline(b, end);
        let e = line_end(b, next);
        if is_semi_empty(&b[next..e]) {
            // With the game break: the parser reads a game before one
            // otherwise than one at the end of its input. A last
            // semi-empty line without a line end is part of it.
            let i = semi_empty_run_end(b, next);
            return start..if is_semi_empty(&b[i..]) { b.len() } else { i };
        }
        end = e;
    }
    start..end
}

/// Whether `text[game]`, parsed on its own with `fix` applied, has the
/// same tokens before and after the edited span, at the same places and
/// under the same kinds of nodes, as without it. An edit outside the game
/// never does.
fn reads_the_same_around(text: &str, game: Range<usize>, fix: &Fix) -> bool {
    let mut edits: Vec<&Edit> = fix.edits.iter().collect();
    edits.sort_by_key(|e| (e.range.start, e.range.end));
    let (Some(first), Some(last)) = (edits.first(), edits.last()) else {
        return false;
    };
    let span = first.range.start - game.start.min(first.range.start)
        ..last.range.end.saturating_sub(game.start);
    let mut fixed = String::with_capacity(game.len() + 16);
    let mut at = game.start;
    for e in &edits {
        let inside = game.start <= e.range.start && e.range.end <= game.end;
        match text.get(at..e.range.start) {
            Some(kept) if inside && e.range.start <= e.range.end => fixed.push_str(kept),
            _ => return false,
        }
        fixed.push_str(&e.new_text);
        at = e.range.end;
    }
    match text.get(at..game.end) {
        Some(rest) => fixed.push_str(rest),
        None => return false,
    }
    let grown = fixed.len() as isize - game.len() as isize;
    let after_span = span.start..(span.end as isize + grown) as usize;
    let before = tokens_around(&text[game.clone()], &span, 0);
    before == tokens_around(&fixed, &after_span, -grown)
}

/// The leaves of `text`'s parse that lie before or after `span`, each with
/// the kinds of the nodes above it and its range, those after moved by
/// `shift` bytes.
fn tokens_around(text: &str, span: &Range<usize>, shift: isize) -> Vec<(Vec<u16>, Range<usize>)> {
    let tree = crate::syntax::parse(text);
    let mut out = Vec::new();
    let mut kinds = Vec::new();
    let mut c = tree.walk();
    loop {
        let n = c.node();
        kinds.push(n.kind_id() | if n.is_missing() { 0x8000 } else { 0 });
        if c.goto_first_child() {
            continue;
        }
        let r = n.byte_range();
        if r.end <= span.start {
            out.push((kinds.clone(), r));
        } else if r.start >= span.end {
            let moved = |p: usize| (p as isize + shift) as usize;
            out.push((kinds.clone(), moved(r.start)..moved(r.end)));
        }
        kinds.pop();
        while !c.goto_next_sibling() {
            if !c.goto_parent() {
                return out;
            }
            kinds.pop();
        }
    }
}

/// What fix the diagnostics of a code carry where the repair is possible
/// (`pbn explain`): always safe, always unsafe, or safe or unsafe by case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixKind {
    Safe,
    Unsafe,
    Either,
}

/// Makes the fixes of one diagnostic (at the range) of a game, in the
/// game's text.
type FixFn = fn(&str, &Game, &Range<usize>) -> Vec<Fix>;

/// A fixable code.
pub struct Fixer {
    pub code: &'static CodeInfo,
    /// The kind of its fixes. An `Unsafe` code's fixes are never applied
    /// without asking: a guess about which of two statements is wrong, a
    /// value made up, or another tag (§3.3: `event` is not `Event`).
    pub kind: FixKind,
    /// What the fix does.
    pub does: &'static str,
    /// Makes the fixes from the game; `None` where the fix is made with the
    /// diagnostic (the syntax diagnostics, the token and file rules).
    fix: Option<FixFn>,
}

const fn fixer(
    code: &'static CodeInfo,
    kind: FixKind,
    does: &'static str,
    fix: Option<FixFn>,
) -> Fixer {
    Fixer {
        code,
        kind,
        does,
        fix,
    }
}

fn one(f: Option<Fix>) -> Vec<Fix> {
    f.into_iter().collect()
}

use FixKind::{Either, Safe, Unsafe};

/// Every fixable code, by code. A test holds every fix of every code's
/// example to its kind.
pub static FIXERS: &[Fixer] = &[
    fixer(&cs::SYNTAX_ERROR, Safe, "a line of free text where a tag should be, as a `{…}` comment", None),
    fixer(&cs::UNTERMINATED_COMMENT, Safe, "a `{` comment without its `}` closed where it is read to end", None),
    fixer(&cs::UNQUOTED_TAG_VALUE, Either, "the value quoted: safe when the text up to the tag's `]` is the value, else unsafe (where the value ends is a guess)", Some(|_, g, r| one(quote_value(g, r)))),
    fixer(&cx::TOKEN_TOO_LONG, Safe, "a Note too long for one line cut at a space, the rest in a `{Note n continued: …}` comment after the tag (the note reads the same)", None),
    fixer(&cx::CHARSET_MISMATCH, Safe, "the `charset=` declaration names the file's encoding", None),
    fixer(&cx::UTF8_FILE, Safe, "the file written in ISO 8859-1, when every character has a byte there", None),
    fixer(&ct::TAG_NAME_CASE, Unsafe, "the known tag name in its case (`event` → `Event`; unsafe: §3.3 names are case sensitive)", Some(|_, g, r| one(tag_name_case(g, r)))),
    fixer(&ct::DUPLICATE_TAG, Either, "the repeated tag pair removed (unsafe when its value differs, or the tag is not whole: or keep its value)", Some(remove_duplicate)),
    fixer(&ct::PLAY_NEEDS_TAGS, Unsafe, "Deal, Declarer and Contract added before the play (from the auction, else `?`)", Some(|t, g, _| one(add_play_tags(t, g)))),
    fixer(&ct::UNEXPECTED_SECTION_DATA, Safe, "the text after an identification tag as a `{…}` comment", Some(|t, g, r| one(data_as_comment(t, g, r)))),
    fixer(&ct::COMMENT_IN_TAG, Safe, "the comment moved after the tag pair", None),
    fixer(&cv::NONSTANDARD_DATE, Safe, "the date as `YYYY.MM.DD` (`2-Aug-2023`, `24.08.2013`; a time after it moves to Time when that is absent or equal)", Some(|t, g, r| one(standard_date(t, g, r)))),
    fixer(&cv::IMPOSSIBLE_DATE, Unsafe, "a date whose month is 13 or more with month and day swapped, when that date exists (`2024.13.05` → `2024.05.13`; a guess at the writer's order)", Some(|_, g, r| one(swapped_date(g, r)))),
    fixer(&cv::SEAT_FORMAT, Safe, "an empty `[Play \"\"]` without cards removed (a board not played)", Some(|t, g, r| one(empty_play(t, g, r)))),
    fixer(&cv::NONSTANDARD_SEAT, Safe, "the seat as the spec writes it (`North` → `N`)", Some(|_, g, r| one(standard_value(g, r)))),
    fixer(&cv::NONSTANDARD_VULNERABLE, Safe, "the vulnerability as the spec writes it (`N-S` → `NS`)", Some(|_, g, r| one(standard_value(g, r)))),
    fixer(&cv::NONSTANDARD_CONTRACT, Safe, "the contract as the spec writes it (`3N` → `3NT`)", Some(|_, g, r| one(standard_value(g, r)))),
    fixer(&cv::DEAL_RANK, Either, "a ten written `10` in the Deal as `T`, every one at once (unsafe when the Deal still cannot be read)", Some(|t, g, r| one(deal_ten(t, g, r)))),
    fixer(&cv::DEAL_DUPLICATE_CARD, Unsafe, "the one card out and/or in that makes every hand 13 different cards, when that correction is the only one (the card may be wrong elsewhere)", Some(|_, g, r| one(deal_cards(g, r)))),
    fixer(&cv::DEAL_TOO_MANY_CARDS, Unsafe, "the one card out and/or in that makes every hand 13 different cards, when that correction is the only one (the card may be wrong elsewhere)", Some(|_, g, r| one(deal_cards(g, r)))),
    fixer(&cv::DEAL_UNEQUAL_HANDS, Unsafe, "the one card out and/or in that makes every hand 13 different cards, when that correction is the only one (the card may be wrong elsewhere)", Some(|_, g, r| one(deal_cards(g, r)))),
    fixer(&cv::DEAL_EMPTY_HAND, Safe, "a hand written `...` as `-` (both are read as a hand not given)", Some(|t, g, r| one(empty_hand(t, g, r)))),
    fixer(&cv::DEAL_OTHER_FORM, Safe, "a Deal in another program's form (no `<first>:`, a seat before every hand, `-` for a void suit) as PBN writes it", Some(|_, g, r| one(deal_read_form(g, r)))),
    fixer(&cb::STAR_AFTER_CALL, Unsafe, "a `*` right after a call as an alert: `=n=` and `[Note \"n:Alert\"]` at the end of the auction (it may end the auction)", Some(|t, g, r| one(star_as_alert(t, g, r)))),
    fixer(&cb::LEFT_OUT_PASSES, Unsafe, "the passes left out before the auction's first bid written (it changes who made every call)", Some(|t, g, _| one(write_left_out_passes(t, g)))),
    fixer(&cb::NONSTANDARD_CALL, Safe, "the call as read (`1N` → `1NT`, `P` → `Pass`)", Some(|t, g, r| one(nonstandard_call(t, g, r)))),
    fixer(&cb::ROTATED_DEAL, Unsafe, "the Deal's hands rotated so that the play fits them (it changes who held what)", Some(|t, g, r| one(rotate_deal(t, g, r)))),
    fixer(&cb::NONSTANDARD_CARD, Safe, "the card as read (`--` → `-`)", Some(|t, g, r| one(nonstandard_card(t, g, r)))),
    fixer(&cn::MISSING_NOTE, Unsafe, "`[Note \"n:\"]` added at the end of the section", Some(|t, g, r| one(add_note(t, g, r)))),
    fixer(&cl::SCORE_TABLE_IMPS, Either, "the IMP_NS, IMP_EW or ButlerDatum cell as the Scoring tag's method computes it from the board's scores (unsafe when most of the table's figures differ: the file computes them some other way)", None),
    fixer(&cl::SCORE_TABLE_MATCHPOINTS, Either, "the MP or Percentage cell as matchpoint scoring computes it from the board's scores (unsafe for MP cells when Scoring names no scale, and when most of the table's figures differ)", None),
    fixer(&cl::SCORE_TAG_FIGURES, Either, "the ScoreMP, ScoreIMP or ScorePercentage value as the game's ScoreTable gives it (unsafe for ScoreMP when Scoring names no scale)", None),
    fixer(&cl::TOTAL_SCORE_TABLE, Unsafe, "the TotalScoreTable figure as the pair's boards in the file give it (made from every game, not its own alone: `pbn score --write`)", None),
    fixer(&cb::DECLARER_MISMATCH, Unsafe, "the Declarer from the auction (the tag may be right)", Some(|t, g, _| one(fix_declarer(t, g)))),
    fixer(&cb::CONTRACT_MISMATCH, Unsafe, "the Contract from the auction (the tag may be right)", Some(|t, g, _| one(fix_contract(t, g)))),
    fixer(&cb::RESULT_MISMATCH, Unsafe, "the Result as declarer's tricks in the play; or the Result marked `^`", Some(|t, g, _| fix_result(t, g))),
    fixer(&cb::RESULT_CARET_BUT_EQUAL, Safe, "the `^` of the Result removed", Some(|_, g, _| one(remove_result_caret(g)))),
    fixer(&cb::RESULT_WITHOUT_CONTRACT, Unsafe, "the Result emptied when all passed (the Result may be right)", Some(|_, g, _| one(empty_result(g)))),
    fixer(&ce::EXPORT_MISSING_TAG, Unsafe, "the missing mandatory tags added in export order, `?` unless the auction or play give the value", Some(|t, g, _| one(add_mandatory(t, g)))),
    fixer(&ce::EXPORT_LOWERCASE, Safe, "upper case (`Pass`, `X`, `XX`, `AP` for calls); a tag value only when it reads as one (not `$contract`)", Some(|t, g, r| one(upper_case(t, g, r)))),
    fixer(&ce::EXPORT_SUFFIX, Safe, "the annotations of the call or card in export order: note reference, then NAGs ascending, suffixes as NAGs", Some(|t, g, r| one(annotation_order(t, g, r, true)))),
    fixer(&ce::EXPORT_ANNOTATION_ORDER, Safe, "the annotations of the call or card in export order: note reference, then NAGs ascending", Some(|t, g, r| one(annotation_order(t, g, r, false)))),
    fixer(&ce::EXPORT_DEAL_FORM, Safe, "the Deal from the dealer, ranks descending", Some(|_, g, r| one(deal_export_form(g, r)))),
    fixer(&ce::EXPORT_VALUE_FORM, Safe, "Vulnerable as `None`/`NS`/`EW`/`All`; Result as declarer's tricks", Some(|_, g, r| one(value_export_form(g, r)))),
    fixer(&ce::EXPORT_DUPLICATE_TAG, Either, "the repeated tag pair removed (unsafe when its value differs, or the tag is not whole: or keep its value)", Some(remove_duplicate)),
    fixer(&ce::EXPORT_SPACING, Safe, "the tokens of the line one space apart", None),
];

/// The fixable code `code`, if it is one.
pub fn fixer_of(code: &str) -> Option<&'static Fixer> {
    // Looked up for every diagnostic without a fix: by binary search, the
    // table being sorted by code (a test holds it so).
    FIXERS
        .binary_search_by(|f| f.code.code.cmp(code))
        .ok()
        .map(|i| &FIXERS[i])
}

/// The kind of fix a code's diagnostics carry; `None` when they have none.
pub fn fix_kind(code: &str) -> Option<FixKind> {
    fixer_of(code).map(|f| f.kind)
}

/// Whether `pbn fmt` clears a code's diagnostics that carry no safe fix:
/// the export layout it writes (tag order, line layout, missing tags as
/// `?`…), but for line endings, which it keeps unless asked (`--eol crlf`).
pub fn cleared_by_fmt(code: &crate::codes::CodeInfo) -> bool {
    code.category == crate::codes::Category::Export && code.code != "PBN1004"
}

/// The fixes of one diagnostic of game `g`, the preferred one first.
pub fn fixes_for(text: &str, g: &Game, d: &Diagnostic) -> Vec<Fix> {
    let Some(f) = fixer_of(d.code.code) else {
        return Vec::new();
    };
    let mut fixes = f.fix.map_or_else(Vec::new, |fix| fix(text, g, &d.range));
    if f.kind == FixKind::Unsafe {
        for f in &mut fixes {
            f.applicability = Applicability::Unsafe;
        }
    }
    fixes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text between a range's game breaks: from the line after a
    /// semi-empty line before it, through the run of semi-empty lines after
    /// it (LF, CRLF or CR; a last semi-empty line without a line end too).
    #[test]
    fn between_game_breaks_takes_the_game_and_the_break_after_it() {
        let t = "[A \"1\"]\n\n[B \"2\"]\r\n[C \"3\"]\r\n \r\n\t\r\n[D \"4\"]\r \r[E \"5\"]\n  ";
        let at = |s: &str| t.find(s).unwrap();
        // B..C: from B's line start through the two semi-empty lines.
        let r = between_game_breaks(t, &(at("[C")..at("[C") + 2));
        assert_eq!(&t[r], "[B \"2\"]\r\n[C \"3\"]\r\n \r\n\t\r\n");
        // D: CR line ends, a semi-empty line of one space.
        let r = between_game_breaks(t, &(at("[D")..at("[D") + 1));
        assert_eq!(&t[r], "[D \"4\"]\r \r");
        // E: the last line, semi-empty and without a line end, is taken.
        let r = between_game_breaks(t, &(at("[E")..at("[E")));
        assert_eq!(&t[r], "[E \"5\"]\n  ");
        // A: the first game.
        let r = between_game_breaks(t, &(0..1));
        assert_eq!(&t[r], "[A \"1\"]\n\n");
    }

    #[test]
    fn fixers_are_sorted_by_code_once_each() {
        let codes: Vec<&str> = FIXERS.iter().map(|f| f.code.code).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(codes, sorted);
    }

    #[test]
    fn every_fix_of_every_example_is_in_the_fixable_table() {
        let mut missing = Vec::new();
        for c in crate::codes::all() {
            for (example, export) in [(c.bad, false), (c.bad, true), (c.good, true)] {
                let source = crate::text::decode(example.as_bytes());
                let opts = crate::rules::CheckOptions {
                    export,
                    fixes: true,
                    ungrouped: true,
                };
                for d in crate::checker::check_text(&source, &opts).diagnostics {
                    let Some(f) = &d.fix else { continue };
                    let ok = match fix_kind(d.code.code) {
                        Some(FixKind::Either) => true,
                        Some(FixKind::Safe) => f.applicability == Applicability::Safe,
                        Some(FixKind::Unsafe) => f.applicability == Applicability::Unsafe,
                        None => false,
                    };
                    if !ok {
                        missing.push(format!("{} {:?}", d.code.code, f.applicability));
                    }
                }
            }
        }
        missing.sort();
        missing.dedup();
        assert!(missing.is_empty(), "not in FIXERS as found: {missing:?}");
    }
}
