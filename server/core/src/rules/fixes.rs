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

use crate::bridge::{self, FinalContract, Seat, Strain};
use crate::codes::{
    bridge as cb, export as ce, notes as cn, syntax as cs, tags as ct, text as cx, values as cv,
    CodeInfo,
};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::model::values::{self, ContractValue};
use crate::model::{
    typed, Annotation, AnnotationKind, CallToken, CardToken, Game, Inherit, Tag, TagRole,
};
use crate::rules::tags::{MANDATORY, MISC_AND_TABLES, SECTION_TAGS, SUPPLEMENTAL};
use std::ops::Range;
use std::sync::Arc;

/// A fix from the helpers below: safe when `preferred` (the applicability
/// is then decided per code by [`fixes_for`]).
fn mk(title: impl Into<String>, edits: Vec<Edit>, preferred: bool) -> Fix {
    let mut f = Fix::new(
        title,
        edits,
        if preferred {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        },
    );
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
pub(crate) fn attach(text: &str, g: &Game, diags: &mut [Diagnostic]) {
    for d in diags.iter_mut() {
        if d.fix.is_none() {
            d.fix = fixes_for(text, g, d).into_iter().next().map(Arc::new);
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
    FIXERS.iter().find(|f| f.code.code == code)
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

// ---------------------------------------------------------------------------
// Text helpers.

/// The line ending to use in inserted lines: the document's first.
pub(crate) fn eol(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(i) if text[i..].starts_with("\r\n") => "\r\n",
        Some(i) if text.as_bytes()[i] == b'\r' => "\r",
        _ => "\n",
    }
}

/// Offset of the line break ending the line of `offset` (or the text end).
fn line_end(text: &str, offset: usize) -> usize {
    text[offset..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| offset + i)
}

/// The start of the next line after the line of `offset`.
fn next_line_start(text: &str, offset: usize) -> usize {
    let e = line_end(text, offset);
    if text[e..].starts_with("\r\n") {
        e + 2
    } else if e < text.len() {
        e + 1
    } else {
        e
    }
}

fn is_blank(s: &str) -> bool {
    s.chars().all(|c| c == ' ' || c == '\t')
}

/// Where to insert new lines after the item ending at `end`: the end of its
/// line when only white space or comments that end on the line follow it,
/// else right after the item (what followed moves to the new line).
fn after_point(text: &str, g: &Game, end: usize) -> usize {
    let le = line_end(text, end);
    let mut p = end;
    loop {
        let rest = &text[p..le];
        let skip = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        p += skip;
        if p >= le {
            return le;
        }
        match g
            .comments
            .iter()
            .find(|c| c.range.start == p && c.range.end <= le)
        {
            Some(c) => p = c.range.end,
            None => return end,
        }
    }
}

fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]", crate::model::escape(value))
}

// ---------------------------------------------------------------------------
// Tags.

/// The first tag named `name` (the one that counts, §3.4).
fn tag_of<'g>(g: &'g Game, name: &str) -> Option<&'g Tag> {
    g.tag(name)
}

/// The tag whose value contains `r`.
fn tag_at_value<'g>(g: &'g Game, r: &Range<usize>) -> Option<&'g Tag> {
    g.tags.iter().find(|t| {
        t.value
            .as_ref()
            .is_some_and(|v| v.range.start <= r.start && r.end <= v.range.end)
    })
}

/// The edit that makes `new` the value of `tag`.
fn set_value(tag: &Tag, new: &str) -> Option<Edit> {
    set_value_range(tag, new).map(|(range, new_text)| Edit { range, new_text })
}

fn set_value_range(tag: &Tag, new: &str) -> Option<(Range<usize>, String)> {
    match &tag.value {
        Some(v) if v.quoted && v.terminated => Some((v.range.clone(), crate::model::escape(new))),
        Some(v) if !v.quoted => Some((
            v.range.clone(),
            format!("\"{}\"", crate::model::escape(new)),
        )),
        Some(_) => None,
        None => Some((
            tag.name_range.end..tag.name_range.end,
            format!(" \"{}\"", crate::model::escape(new)),
        )),
    }
}

fn set_value_fix(tag: &Tag, new: &str, title: String, preferred: bool) -> Option<Fix> {
    let raw = tag.value.as_ref().map(|v| v.raw.as_str());
    if raw == Some(new) {
        return None;
    }
    Some(mk(title, vec![set_value(tag, new)?], preferred))
}

/// PBN0006 of the model: unsafe (where the value ends is a guess; the
/// syntax diagnostic's fix is safe when the text up to the `]` is the value).
fn quote_value(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r)?;
    let v = tag.value.as_ref().filter(|v| !v.quoted)?;
    let mut f = mk(
        format!("Quote the value: \"{}\"", v.raw),
        vec![set_value(tag, &v.raw)?],
        true,
    );
    f.applicability = Applicability::Unsafe;
    Some(f)
}

fn tag_name_case(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = g.tags.iter().find(|t| t.name_range == *r)?;
    let known = MANDATORY
        .iter()
        .chain(&SECTION_TAGS)
        .chain(&SUPPLEMENTAL)
        .chain(&MISC_AND_TABLES)
        .find(|k| k.eq_ignore_ascii_case(&tag.name))?;
    Some(mk(
        format!("Rename the tag to `{known}`"),
        vec![edit(r.clone(), *known)],
        true,
    ))
}

/// The edit that deletes a tag pair: its whole line when it is alone on
/// it, else the tag and the blanks before it.
fn delete_tag(text: &str, g: &Game, tag: &Tag) -> Edit {
    let (range, new_text) = delete_range(text, g, tag);
    Edit { range, new_text }
}

fn delete_range(text: &str, g: &Game, tag: &Tag) -> (Range<usize>, String) {
    // Only the spaces and tabs beside the tag are looked at, never the whole
    // line: thousands of tags on one line stay linear.
    let b = text.as_bytes();
    let blank = |c: u8| c == b' ' || c == b'\t';
    let line_break = |i: usize| b.get(i).is_none_or(|&c| c == b'\n' || c == b'\r');
    let space = |c: u8| blank(c) || c == b'\n' || c == b'\r';
    // The game's last tag goes with the space back to what comes before
    // it: the game then ends where that ends, and what followed the tag
    // (spaces at the end of the line before it included) is still what
    // follows the game, as `pbn fmt` piece by piece requires of a fix (fuzz
    // fixture `fmt/repeated-tag-with-an-unclosed-bracket`).
    if b.get(tag.range.end..g.range.end)
        .is_some_and(|t| t.iter().all(|&c| space(c)))
    {
        let mut from = tag.range.start;
        while from > g.range.start && space(b[from - 1]) {
            from -= 1;
        }
        if from > g.range.start {
            return (from..tag.range.end, String::new());
        }
    }
    let mut start = tag.range.start;
    while start > 0 && blank(b[start - 1]) {
        start -= 1;
    }
    let before_blank = start == 0 || line_break(start - 1);
    let mut end = tag.range.end;
    while end < b.len() && blank(b[end]) {
        end += 1;
    }
    let after_blank = line_break(end);
    if before_blank && after_blank && start > g.range.start {
        // The line with the line end before it, not after it: the text after
        // the game stays as written, also where the line ends differ or the
        // last line has none (a game kept as written ends where it did:
        // fuzz fixtures `fmt/repeated-result-tag-after-stray-quotes`,
        // `fmt/repeated-tag-after-a-lone-cr`).
        let cr_lf = b[start - 1] == b'\n' && start >= 2 && b[start - 2] == b'\r';
        (start - 1 - usize::from(cr_lf)..end, String::new())
    } else if before_blank && after_blank {
        (start..next_line_start(text, tag.range.end), String::new())
    } else if after_blank {
        (start..end, String::new())
    } else {
        (tag.range.start..end, String::new())
    }
}

fn remove_duplicate(text: &str, g: &Game, r: &Range<usize>) -> Vec<Fix> {
    // Tags are in source order: a binary search, not a scan per repeat
    // (the scan only if that order were ever broken).
    let i = g.tags.partition_point(|t| t.range.start < r.start);
    let Some(i) = Some(i)
        .filter(|&i| g.tags.get(i).is_some_and(|t| t.range == *r))
        .or_else(|| g.tags.iter().position(|t| t.range == *r))
    else {
        return Vec::new();
    };
    let tag = &g.tags[i];
    if tag.role != TagRole::Plain {
        return Vec::new(); // a second section: which one to keep is not clear
    }
    let Some(first) = g.tags[..i].iter().find(|t| t.name == tag.name) else {
        return Vec::new();
    };
    let value = |t: &Tag| t.value.as_ref().map(|v| v.text.clone()).unwrap_or_default();
    // Safe only between whole tag pairs: one without its value, closing
    // quote or `]` may end elsewhere than it seems, and its removal could
    // join what follows to the line before (fuzz fixture
    // `fmt/repeated-tag-without-value-or-bracket`).
    let whole = |t: &Tag| {
        t.value.as_ref().is_some_and(|v| v.quoted && v.terminated)
            && text[t.range.clone()].ends_with(']')
    };
    if value(first) == value(tag) && whole(first) && whole(tag) {
        return vec![mk(
            format!("Remove the repeated `{}` tag", tag.name),
            vec![delete_tag(text, g, tag)],
            true,
        )];
    }
    let mut out = vec![mk(
        format!(
            "Remove the repeated `{}` tag (keep {:?})",
            tag.name,
            value(first)
        ),
        vec![delete_tag(text, g, tag)],
        false,
    )];
    if first.role == TagRole::Plain {
        out.push(mk(
            format!(
                "Keep {:?} (remove the first `{}` tag)",
                value(tag),
                tag.name
            ),
            vec![delete_tag(text, g, first)],
            false,
        ));
    }
    out
}

/// PBN0303: a date written day first ([`values::day_month_swapped`]).
/// PBN0302: the date as `YYYY.MM.DD`; a time written after it moves to
/// the Time (UTCTime) tag when that tag is absent, unknown or says the
/// same time (else no fix: one of the two times is wrong).
fn standard_date(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let date = values::parse_date(text.get(r.clone())?).value?;
    let mut edits = vec![edit(r.clone(), date.canonical.clone())];
    let mut title = format!("Write the date as `{}`", date.canonical);
    if let Some(time) = &date.time {
        let tag = tag_at_value(g, r).filter(|t| t.inherit == Inherit::None)?;
        let time_tag = match tag.name.as_str() {
            "Date" => "Time",
            "UTCDate" => "UTCTime",
            _ => return None,
        };
        match g.tag(time_tag) {
            None if g.value(time_tag).is_none() => {
                let at = after_point(text, g, tag.range.end);
                edits.push(edit(
                    at..at,
                    format!("{}{}", eol(text), tag_line(time_tag, time)),
                ));
            }
            Some(t) if t.inherit == Inherit::None => {
                let old = t.value.as_ref().map_or("", |v| v.raw.trim());
                if old.is_empty() || old == "?" {
                    edits.push(set_value(t, time)?);
                } else if values::parse_time(old).value != values::parse_time(time).value {
                    return None;
                }
            }
            _ => return None,
        }
        title.push_str(&format!(" and the time in {time_tag} `{time}`"));
    }
    Some(mk(title, edits, true))
}

/// PBN0316 in a table's Contract column (`3N` in a ScoreTable, §5.2):
/// the cell as the Contract tag writes it (`3NT`).
fn table_contract(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let e = g
        .sections
        .iter()
        .flat_map(|s| &s.elements)
        .find(|e| !e.quoted && e.range.start <= r.start && r.end <= e.range.end)?;
    let new = values::parse_contract(&e.text).value?.export_form();
    (new != *e.text).then(|| {
        mk(
            format!("Write `{}` as `{new}`", &*e.text),
            vec![edit(e.range.clone(), new)],
            true,
        )
    })
}

/// PBN0209: the text after an identification tag (`Generated 16 hands`
/// on a line of its own) kept as a `{…}` comment, when no brace in it would
/// end the comment early.
fn data_as_comment(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    // Not a Note tag's data: `pbn fmt` keeps such a game as written.
    let s = g
        .sections
        .iter()
        .find(|s| s.elements.first().is_some_and(|e| e.range.start == r.start))
        .filter(|s| g.tags.get(s.tag).is_some_and(|t| t.name != "Note"))?;
    let data = r.start..s.elements.last()?.range.end;
    let t = text.get(data.clone())?;
    if t.contains(['{', '}', '%']) {
        return None;
    }
    Some(mk(
        "Keep the text as a comment",
        vec![edit(data, format!("{{{t}}}"))],
        true,
    ))
}

/// PBN0310 on `[Play ""]` (or `"?"`) with no card, no annotation and no
/// note: a board not played. The tag says nothing; it goes.
fn empty_play(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = crate::model::empty_play_tag(g)?;
    let v = tag.value.as_ref()?;
    if !(v.range.start <= r.start && r.end <= v.range.end) {
        return None;
    }
    Some(mk(
        "Remove the empty play section: no card was played",
        vec![delete_tag(text, g, tag)],
        true,
    ))
}

fn swapped_date(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.inherit == Inherit::None)?;
    let v = tag.value.as_ref()?;
    let new = values::day_month_swapped(&v.raw)?;
    set_value_fix(tag, &new, format!("Swap day and month: \"{new}\""), false)
}

/// PBN0311, PBN0313, PBN0316: the value as the spec writes it.
fn standard_value(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let Some(tag) = tag_at_value(g, r) else {
        return table_contract(g, r);
    };
    let v = tag.value.as_ref()?;
    if tag.inherit != Inherit::None {
        return None;
    }
    let new = match tag.name.as_str() {
        "Dealer" => values::parse_dealer(&v.raw)
            .value
            .map(|s| s.seat.letter().to_string()),
        "Auction" => values::parse_auction_seat(&v.raw)
            .value
            .map(|s| s.seat.letter().to_string()),
        "Play" => values::parse_play_seat(&v.raw)
            .value
            .map(|s| s.seat.letter().to_string()),
        "Declarer" => values::parse_declarer(&v.raw).value.and_then(|d| {
            d.seat
                .map(|s| format!("{}{}", if d.swapped { "^" } else { "" }, s.letter()))
        }),
        "Vulnerable" => values::parse_vulnerable(&v.raw)
            .value
            .map(|x| x.canonical_export().to_owned()),
        "Contract" => values::parse_contract(&v.raw)
            .value
            .map(|c| c.export_form()),
        _ => None,
    }?;
    set_value_fix(tag, &new, format!("Write `{}` as \"{new}\"", v.raw), true)
}

// ---------------------------------------------------------------------------
// Calls, cards and annotations.

fn nonstandard_call(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let e = entry_at(&g.auction.as_ref()?.entries, r)?;
    let t = &text[e.range.clone()];
    let (_, as_text) = typed::interpret_call(t)?;
    Some(mk(
        format!("Replace `{t}` with `{as_text}`"),
        vec![edit(r.clone(), as_text)],
        true,
    ))
}

fn nonstandard_card(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let e = entry_at(&g.play.as_ref()?.entries, r)?;
    let t = &text[e.range.clone()];
    let (_, as_text) = typed::interpret_card(t)?;
    Some(mk(
        format!("Replace `{t}` with `{as_text}`"),
        vec![edit(r.clone(), as_text)],
        true,
    ))
}

/// PBN1006: a tag value, call or card in upper case.
fn upper_case(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let (old, new) = if let Some(tag) = tag_at_value(g, r) {
        let raw = &tag.value.as_ref()?.raw;
        let new = if tag.name == "Contract" && raw.trim().eq_ignore_ascii_case("pass") {
            raw.replace(raw.trim(), "Pass")
        } else {
            raw.to_ascii_uppercase()
        };
        // Only a value the tag's reader reads: a template's `$contract` is
        // no value, and `$CONTRACT` would be other text.
        if !reads_as_value(&tag.name, &new) {
            return None;
        }
        return set_value_fix(tag, &new, format!("Write \"{new}\" in upper case"), true);
    } else if let Some(e) = g.auction.as_ref().and_then(|a| entry_at(&a.entries, r)) {
        let t = &text[r.clone()];
        let new = match e.token {
            CallToken::Bid(_) => t.to_ascii_uppercase(),
            CallToken::Pass => "Pass".into(),
            CallToken::Double => "X".into(),
            CallToken::Redouble => "XX".into(),
            CallToken::AllPass => "AP".into(),
            _ => return None,
        };
        (t, new)
    } else if let Some(e) = g.play.as_ref().and_then(|p| entry_at(&p.entries, r)) {
        if !matches!(e.token, CardToken::Card(_)) {
            return None;
        }
        let t = &text[r.clone()];
        (t, t.to_ascii_uppercase())
    } else {
        return None;
    };
    (old != new).then(|| {
        mk(
            format!("Replace `{old}` with `{new}`"),
            vec![edit(r.clone(), new)],
            true,
        )
    })
}

/// Whether `value` is a value of tag `name` that its reader reads (a tag
/// of §3.11's list, whose values may be written in lower case).
fn reads_as_value(name: &str, value: &str) -> bool {
    match name {
        "Dealer" => values::parse_dealer(value).value.is_some(),
        "Auction" => values::parse_auction_seat(value).value.is_some(),
        "Play" => values::parse_play_seat(value).value.is_some(),
        "Declarer" => values::parse_declarer(value).value.is_some(),
        "Contract" => values::parse_contract(value).value.is_some(),
        // `x` for a spot card (lower case) is no card `X`; a character
        // that is no card (`v`) stays as written, not made another one.
        "Deal" => {
            let p = values::parse_deal(value);
            p.value.is_some()
                && !value.contains('X')
                && !p
                    .issues
                    .iter()
                    .any(|i| i.severity() == crate::diagnostic::Severity::Error)
        }
        _ => false,
    }
}

/// The annotations after a call or card that holds the annotation `r`:
/// whether it is in the play section, and the annotations.
fn annotations_at<'g>(g: &'g Game, r: &Range<usize>) -> Option<(bool, &'g [Annotation])> {
    // The entries are in text order and an entry's annotations follow its
    // token: the entry is the last one starting before the annotation (a
    // binary search, not a scan: one diagnostic per call of a long auction
    // made the scans quadratic).
    fn find<'e, T>(
        entries: &'e [crate::model::Entry<T>],
        r: &Range<usize>,
    ) -> Option<&'e [Annotation]> {
        let i = entries.partition_point(|e| {
            probe();
            e.range.start <= r.start
        });
        let post = entries.get(i.checked_sub(1)?)?.post();
        at(post, r).map(|_| post)
    }
    if let Some(post) = g.auction.as_ref().and_then(|a| find(&a.entries, r)) {
        return Some((false, post));
    }
    g.play
        .as_ref()
        .and_then(|p| find(&p.entries, r))
        .map(|post| (true, post))
}

/// The annotation at `r` among `post` (in text order).
fn at<'a>(post: &'a [Annotation], r: &Range<usize>) -> Option<&'a Annotation> {
    let i = post.partition_point(|a| {
        probe();
        a.range.start < r.start
    });
    post.get(i).filter(|a| a.range == *r)
}

#[cfg(test)]
thread_local! {
    /// How many entries and annotations [`annotations_at`] looked at.
    static PROBES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[inline]
fn probe() {
    #[cfg(test)]
    PROBES.with(|p| p.set(p.get() + 1));
}

/// PBN1007/PBN1008: the note reference, then the NAGs in increasing order,
/// suffixes written as their NAG (§3.5.2, §3.7).
fn annotation_order(text: &str, g: &Game, r: &Range<usize>, suffix: bool) -> Option<Fix> {
    let (play, post) = annotations_at(g, r)?;
    let nag_of = |s: u8| s as u32 + if play { 6 } else { 0 };
    let title = if suffix {
        let a = at(post, r)?;
        let AnnotationKind::Suffix(s) = a.kind else {
            return None;
        };
        format!("Replace `{}` with `${}`", &text[r.clone()], nag_of(s))
    } else {
        "Put the note reference first and the NAGs in increasing order".to_owned()
    };
    let contiguous = post
        .windows(2)
        .all(|w| is_blank(&text[w[0].range.end..w[1].range.start]));
    if !contiguous {
        // Comments between the annotations: only the suffix can be replaced.
        let a = at(post, r)?;
        let AnnotationKind::Suffix(s) = a.kind else {
            return None;
        };
        return Some(mk(
            title,
            vec![edit(r.clone(), format!("${}", nag_of(s)))],
            true,
        ));
    }
    let (mut refs, mut nags, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for a in post {
        match a.kind {
            AnnotationKind::NoteRef(_) => refs.push(text[a.range.clone()].to_owned()),
            AnnotationKind::Suffix(s) => nags.push(nag_of(s)),
            AnnotationKind::Nag(Some(n)) => nags.push(n),
            _ => rest.push(text[a.range.clone()].to_owned()),
        }
    }
    nags.sort_unstable();
    nags.dedup();
    let parts: Vec<String> = refs
        .into_iter()
        .chain(nags.iter().map(|n| format!("${n}")))
        .chain(rest)
        .collect();
    let span = post.first()?.range.start..post.last()?.range.end;
    Some(mk(title, vec![edit(span, parts.join(" "))], true))
}

/// PBN0709: `[Note "n:"]` at the end of the section of the reference.
/// PBN0511: the `*` at `r`, right after a call, as an alert (§3.5.4): a
/// reference to a new note (the next number after those the auction uses)
/// and `[Note "n:Alert"]` after the auction's notes. None when the call
/// has a note reference already (at most one, §3.5.2) or the numbers are
/// used up (1 to 32, §3.5.4).
fn star_as_alert(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let a = g.auction.as_ref()?;
    let k = a.entries.iter().position(|e| e.range == *r)?;
    let call = a.entries.get(k.checked_sub(1)?)?;
    let is_ref = |x: &Annotation| matches!(x.kind, AnnotationKind::NoteRef(_));
    if call.post().iter().any(is_ref) {
        return None;
    }
    let refs = a
        .entries
        .iter()
        .flat_map(|e| e.post())
        .filter_map(|x| match x.kind {
            AnnotationKind::NoteRef(Some(n)) => Some(n),
            _ => None,
        });
    let notes = a.notes.iter().filter_map(|&i| {
        let v = g.tags.get(i)?.value.as_ref()?;
        values::parse_note(&v.raw).value.map(|n| u32::from(n.index))
    });
    let n = refs.chain(notes).max().unwrap_or(0) + 1;
    if n > 32 {
        return None;
    }
    let end = a
        .notes
        .last()
        .map(|&i| g.tags[i].range.end)
        .unwrap_or(a.range.end)
        .max(a.range.end);
    let at = after_point(text, g, end);
    Some(mk(
        format!("Write the `*` as an alert: `={n}=` and `[Note \"{n}:Alert\"]` (§3.5.4)"),
        vec![
            edit(r.clone(), format!(" ={n}=")),
            edit(at..at, format!("{}[Note \"{n}:Alert\"]", eol(text))),
        ],
        false,
    ))
}

fn add_note(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let (play, post) = annotations_at(g, r)?;
    let a = at(post, r)?;
    let AnnotationKind::NoteRef(Some(n)) = a.kind else {
        return None;
    };
    let (notes, end) = if play {
        let p = g.play.as_ref()?;
        (&p.notes, p.range.end)
    } else {
        let a = g.auction.as_ref()?;
        (&a.notes, a.range.end)
    };
    let end = notes
        .last()
        .map(|&i| g.tags[i].range.end)
        .unwrap_or(end)
        .max(end);
    let at = after_point(text, g, end);
    let line = format!("{}[Note \"{n}:\"]", eol(text));
    Some(mk(
        format!(
            "Add `[Note \"{n}:\"]` at the end of the {} section",
            if play { "play" } else { "auction" }
        ),
        vec![edit(at..at, line)],
        false,
    ))
}

// ---------------------------------------------------------------------------
// Declarer, Contract and Result from the auction and the play.

/// What the auction and the play say about Contract, Declarer and Result.
#[derive(Debug, Default)]
struct Facts {
    outcome: Option<FinalContract>,
    /// The Result as declarer's tricks, when the play decides it.
    result: Option<String>,
}

fn seat_of(v: Option<&str>, parse: fn(&str) -> values::Parsed<values::SeatTag>) -> Option<Seat> {
    v.and_then(|v| parse(v).value).map(|s| s.seat)
}

/// Declarer's tricks when the play decides them: all tricks played (or a
/// claim whose outcome is forced), `declarer` playing in `strain`.
fn play_tricks(text: &str, g: &Game, strain: Option<Strain>, declarer: Seat) -> Option<u8> {
    let p = g.play.as_ref()?;
    let tag = g.tags.get(p.tag).filter(|t| t.inherit == Inherit::None)?;
    let first = seat_of(tag.effective(), values::parse_play_seat)?;
    let hands = g
        .value("Deal")
        .and_then(|v| values::parse_deal(v).value)
        .map(|d| d.hands)
        .unwrap_or([None; 4]);
    let (items, _) = typed::play_items(text, p);
    let a = bridge::analyze_play(
        &hands,
        strain.and_then(Strain::suit),
        Some(declarer),
        first,
        &items,
    );
    if !a.complete || a.end_position {
        return None;
    }
    let (lo, hi) = a.final_bounds(declarer);
    (lo == hi).then_some(lo)
}

fn facts(text: &str, g: &Game) -> Facts {
    let outcome = typed::auction_outcome(text, g);
    let tag_contract = g
        .value("Contract")
        .and_then(|v| values::parse_contract(v).value)
        .map(|c| c.value);
    let tag_declarer = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value);
    let passed = matches!(outcome, Some(FinalContract::PassedOut))
        || (outcome.is_none() && matches!(tag_contract, Some(ContractValue::Pass)));
    let result = if passed {
        Some(String::new())
    } else {
        let (strain, declarer) = match outcome {
            Some(FinalContract::Contract { contract, declarer }) => {
                // The Declarer tag may name the irregular declarer (`^`).
                let playing = tag_declarer
                    .and_then(|d| d.seat)
                    .filter(|s| bridge::same_side(*s, declarer));
                (Some(contract.bid.strain), Some(playing.unwrap_or(declarer)))
            }
            _ => {
                let strain = match tag_contract {
                    Some(ContractValue::Contract(c)) => Some(c.bid.strain),
                    Some(ContractValue::EndPosition(s)) => Some(s),
                    _ => None,
                };
                (strain, tag_declarer.and_then(|d| d.seat))
            }
        };
        match (strain, declarer) {
            (Some(s), Some(d)) => play_tricks(text, g, Some(s), d).map(|n| n.to_string()),
            _ => None,
        }
    };
    Facts { outcome, result }
}

fn contract_value(outcome: FinalContract) -> String {
    match outcome {
        FinalContract::PassedOut => "Pass".into(),
        FinalContract::Contract { contract, .. } => bridge::contract_text(contract),
    }
}

/// The Declarer value of the auction's outcome, keeping the `^` form when
/// the tag uses it.
fn declarer_value(outcome: FinalContract, g: &Game) -> String {
    match outcome {
        FinalContract::PassedOut => String::new(),
        FinalContract::Contract { declarer, .. } => {
            let swapped = g
                .value("Declarer")
                .and_then(|v| values::parse_declarer(v).value)
                .is_some_and(|d| d.swapped);
            if swapped {
                format!("^{}", declarer.partner().letter())
            } else {
                declarer.letter().to_string()
            }
        }
    }
}

/// The play section was led by the left-hand opponent of the Declarer tag's
/// seat but not of `new` (a seat that plays the hand): the Declarer tag
/// PBN0908: the Result emptied (all players passed).
fn empty_result(g: &Game) -> Option<Fix> {
    tag_of(g, "Result")
        .and_then(|t| set_value(t, ""))
        .map(|e| mk("Empty the Result: all players passed", vec![e], true))
}

/// agrees with the play, and the auction may be what is wrong.
fn play_supports_tag(g: &Game, new: Option<Seat>) -> bool {
    let Some(p) = &g.play else { return false };
    let leader = g
        .tags
        .get(p.tag)
        .and_then(|t| seat_of(t.effective(), values::parse_play_seat));
    let current = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value)
        .and_then(|d| d.seat);
    match (leader, current) {
        (Some(l), Some(c)) => l == c.lho() && new.is_none_or(|n| l != n.lho()),
        _ => false,
    }
}

fn fix_declarer(text: &str, g: &Game) -> Option<Fix> {
    let outcome = typed::auction_outcome(text, g)?;
    let tag = tag_of(g, "Declarer")?;
    let new = declarer_value(outcome, g);
    let new_seat = values::parse_declarer(&new).value.and_then(|d| d.seat);
    let preferred = !play_supports_tag(g, new_seat);
    set_value_fix(
        tag,
        &new,
        format!("Set Declarer to \"{new}\" (from the auction)"),
        preferred,
    )
}

fn fix_contract(text: &str, g: &Game) -> Option<Fix> {
    let outcome = typed::auction_outcome(text, g)?;
    let tag = tag_of(g, "Contract")?;
    let new = contract_value(outcome);
    // With a play section and a Result, another denomination changes who
    // won the tricks: the Contract tag may be right and the auction wrong.
    let strain = |v: Option<&str>| match v
        .and_then(|v| values::parse_contract(v).value)
        .map(|c| c.value)
    {
        Some(ContractValue::Contract(c)) => Some(c.bid.strain),
        _ => None,
    };
    let has_result = g
        .value("Result")
        .and_then(|v| values::parse_result(v).value)
        .is_some_and(|r| r.tricks.is_some());
    let preferred =
        g.play.is_none() || !has_result || strain(g.value("Contract")) == strain(Some(&new));
    let mut fix = set_value_fix(
        tag,
        &new,
        format!("Set Contract to \"{new}\" (from the auction)"),
        preferred,
    )?;
    // The Declarer goes with the contract (a Contract "Pass" hides its
    // mismatch).
    if let Some(d) = tag_of(g, "Declarer").filter(|t| t.inherit == Inherit::None) {
        let dv = declarer_value(outcome, g);
        if d.value.as_ref().map(|v| v.raw.as_str()) != Some(dv.as_str())
            && d.effective().map(str::trim) != Some("?")
        {
            fix.edits.push(set_value(d, &dv)?);
            let dv_seat = values::parse_declarer(&dv).value.and_then(|x| x.seat);
            fix.preferred &= !play_supports_tag(g, dv_seat);
            fix.title =
                format!("Set Contract to \"{new}\" and Declarer to \"{dv}\" (from the auction)");
        }
    }
    Some(fix)
}

fn fix_result(text: &str, g: &Game) -> Vec<Fix> {
    let Some(tag) = tag_of(g, "Result") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(n) = facts(text, g).result.filter(|n| !n.is_empty()) {
        out.extend(set_value_fix(
            tag,
            &n,
            format!("Set Result to \"{n}\" (tricks won by declarer in the play)"),
            true,
        ));
    }
    if let Some(v) = tag.value.as_ref().filter(|v| v.quoted && v.terminated) {
        let lead = v.raw.len() - v.raw.trim_start().len();
        if !v.raw.trim_start().starts_with('^') {
            let at = v.range.start + lead;
            out.push(mk(
                "Mark the Result with `^` (the players agreed on a different number)",
                vec![edit(at..at, "^")],
                false,
            ));
        }
    }
    out
}

fn remove_result_caret(g: &Game) -> Option<Fix> {
    let v = tag_of(g, "Result")?.value.as_ref()?;
    let i = v.raw.find('^')?;
    let at = v.range.start + i;
    Some(mk(
        "Remove the `^`: the Result equals the tricks won",
        vec![edit(at..at + 1, "")],
        true,
    ))
}

/// Insertions of new tag lines at their export-order place (§3.4): after
/// the nearest mandatory tag before them in that order that precedes the
/// sections, else before the first tag of the game.
fn insert_tags(text: &str, g: &Game, new: &[(&str, String)]) -> Vec<Edit> {
    let nl = eol(text);
    let limit = g
        .tags
        .iter()
        .filter(|t| t.role != TagRole::Plain)
        .map(|t| t.range.start)
        .min()
        .unwrap_or(usize::MAX);
    let order = |name: &str| {
        MANDATORY
            .iter()
            .position(|m| *m == name)
            .unwrap_or(MANDATORY.len())
    };
    // (offset, after an existing tag) → (export position, line)
    type Lines = Vec<(usize, String)>;
    let mut at: Vec<((usize, bool), Lines)> = Vec::new();
    for (name, value) in new {
        let i = order(name);
        let anchor = g
            .tags
            .iter()
            .filter(|t| t.role == TagRole::Plain && t.range.end <= limit && order(&t.name) < i)
            .max_by_key(|t| (order(&t.name), std::cmp::Reverse(t.range.start)));
        let key = match anchor {
            Some(t) => (after_point(text, g, t.range.end), true),
            None => match g.tags.first() {
                Some(t) => (t.range.start, false),
                None => continue,
            },
        };
        let line = tag_line(name, value);
        match at.iter_mut().find(|(k, _)| *k == key) {
            Some((_, lines)) => lines.push((i, line)),
            None => at.push((key, vec![(i, line)])),
        }
    }
    at.into_iter()
        .map(|((p, after), mut lines)| {
            lines.sort_by_key(|(i, _)| *i);
            let mut s = String::new();
            for (_, l) in lines {
                if after {
                    s.push_str(nl);
                    s.push_str(&l);
                } else {
                    s.push_str(&l);
                    s.push_str(nl);
                }
            }
            edit(p..p, s)
        })
        .collect()
}

/// The value to write for a mandatory tag that is missing.
fn missing_value(name: &str, f: &Facts, g: &Game) -> (String, bool) {
    let passed =
        matches!(f.outcome, Some(FinalContract::PassedOut)) || crate::model::contract_is_pass(g);
    let known = match (name, f.outcome) {
        ("Contract", Some(o)) => Some(contract_value(o)),
        ("Declarer", Some(o)) => Some(declarer_value(o, g)),
        ("Declarer", None) if passed => Some(String::new()),
        ("Result", _) => f.result.clone(),
        _ => None,
    };
    match known {
        Some(v) => (v, true),
        None => ("?".into(), false),
    }
}

fn add_mandatory(text: &str, g: &Game) -> Option<Fix> {
    let missing: Vec<&str> = MANDATORY
        .iter()
        .copied()
        .filter(|n| g.tag(n).is_none() && g.value(n).is_none())
        .collect();
    if missing.is_empty() {
        return None;
    }
    let f = facts(text, g);
    let new: Vec<(&str, String)> = missing
        .iter()
        .map(|n| (*n, missing_value(n, &f, g).0))
        .collect();
    let edits = insert_tags(text, g, &new);
    (!edits.is_empty()).then(|| {
        mk(
            format!("Add the missing mandatory tags ({})", missing.join(", ")),
            edits,
            true,
        )
    })
}

/// PBN0205: Deal, Declarer and Contract before the play section.
fn add_play_tags(text: &str, g: &Game) -> Option<Fix> {
    let f = facts(text, g);
    let mut inserts = Vec::new();
    let mut edits = Vec::new();
    let mut all_known = true;
    let mut names = Vec::new();
    for name in ["Deal", "Declarer", "Contract"] {
        let filled = g.value(name).is_some_and(|v| !v.trim().is_empty());
        if filled {
            continue;
        }
        let (value, known) = missing_value(name, &f, g);
        if value.is_empty() {
            continue; // all passed: nothing to play
        }
        all_known &= known;
        names.push(format!("{name} \"{value}\""));
        match g.tag(name) {
            Some(t) => edits.push(set_value(t, &value)?),
            None => inserts.push((name, value)),
        }
    }
    edits.extend(insert_tags(text, g, &inserts));
    (!edits.is_empty()).then(|| {
        mk(
            format!("Add {} before the play section", names.join(", ")),
            edits,
            all_known,
        )
    })
}

/// The refactoring: Declarer, Contract and Result that are missing or `?`
/// filled from the auction and the play.
pub fn fill_from_auction(text: &str, g: &Game) -> Option<Fix> {
    let f = facts(text, g);
    let mut edits = Vec::new();
    let mut inserts = Vec::new();
    let mut names = Vec::new();
    for name in ["Declarer", "Contract", "Result"] {
        let value = match (name, f.outcome) {
            ("Contract", Some(o)) => Some(contract_value(o)),
            ("Declarer", Some(o)) => Some(declarer_value(o, g)),
            ("Result", _) => f.result.clone(),
            _ => None,
        };
        let Some(value) = value else { continue };
        match g.tag(name) {
            Some(t)
                if t.inherit == Inherit::None
                    && t.value.as_ref().is_some_and(|v| v.raw.trim() == "?") =>
            {
                edits.push(set_value(t, &value)?);
            }
            None if g.value(name).is_none() => inserts.push((name, value.clone())),
            _ => continue,
        }
        names.push(name);
    }
    edits.extend(insert_tags(text, g, &inserts));
    (!edits.is_empty()).then(|| {
        mk(
            format!("Fill {} from the auction and play", names.join(", ")),
            edits,
            false,
        )
    })
}

// ---------------------------------------------------------------------------
// Export forms of values.

/// PBN0412: a Deal in another program's form written as PBN writes it.
fn deal_read_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.inherit == Inherit::None)?;
    let (new, _) = values::deal_read_form(&tag.value.as_ref()?.raw)?;
    set_value_fix(tag, &new, format!("Write the Deal as \"{new}\""), true)
}

/// PBN0411: a hand of four empty suits (`...`), which is read as a hand not
/// given, written as such (`-`, §3.4.11). Always safe: the diagnostic is
/// only made when another hand has cards, and then no other reading
/// exists (a Deal gives 13 cards a hand or an end position, never a hand
/// of none), whatever the other hands hold (`x` spot cards too: `pbn dump`
/// writes such a Deal's hands not given as `-` either way).
fn empty_hand(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let hand = text.get(r.clone())?;
    if hand != "..." {
        return None;
    }
    tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    Some(mk(
        "Write the hand not given as `-`",
        vec![edit(r.clone(), "-")],
        true,
    ))
}

/// PBN0405 on a `10`: the ten is written `T` (§3.4.11). One fix writes
/// every `10` of the Deal as `T`; unsafe when the Deal still cannot be read
/// as a whole (`pbn dump` then shows its text as written, which changes).
fn deal_ten(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    if text.get(r.clone())? != "10" {
        return None;
    }
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    let fixed = tag.value.as_ref()?.raw.replace("10", "T");
    let readable = values::parse_deal(&fixed)
        .value
        .is_some_and(|d| d.export_form(d.first).is_some());
    set_value_fix(tag, &fixed, "Write the ten as `T`".into(), readable)
}

/// PBN0406, PBN0407, PBN0408: the Deal's only smallest correction
/// ([`values::unique_correction`]), one fix for all its diagnostics.
fn deal_cards(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    let c = values::unique_correction(&tag.value.as_ref()?.raw)?;
    let card = bridge::card_word;
    let hand = |s: Seat| bridge::seat_name(s);
    let title = match (c.removed, c.added) {
        (Some((from, a)), Some((to, b))) if a == b => {
            format!(
                "Move {} from {}'s hand to {}'s",
                card(a),
                hand(from),
                hand(to)
            )
        }
        (Some((from, a)), Some((to, b))) if from == to => {
            format!(
                "Replace {} by {} in {}'s hand",
                card(a),
                card(b),
                hand(from)
            )
        }
        (Some((from, a)), Some((to, b))) => format!(
            "Take {} out of {}'s hand and give the missing {} to {}",
            card(a),
            hand(from),
            card(b),
            hand(to)
        ),
        (Some((from, a)), None) => {
            format!("Take the extra {} out of {}'s hand", card(a), hand(from))
        }
        (None, Some((to, b))) => format!("Give the missing {} to {}", card(b), hand(to)),
        (None, None) => return None,
    };
    set_value_fix(tag, &c.value, title, false)
}

/// PBN0612: each seat given the hand the Deal gives the seat the play
/// shows it held, written in the Deal's own first seat.
fn rotate_deal(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal" && t.inherit == Inherit::None)?;
    let k = super::bridge::deal_rotation(text, g)?;
    let mut deal = values::parse_deal(&tag.value.as_ref()?.raw).value?;
    let hands = deal.hands;
    deal.hands = std::array::from_fn(|s| hands[(s + k) % 4]);
    let new = deal.export_form(deal.first)?;
    let seats = if k == 1 { "seat" } else { "seats" };
    set_value_fix(
        tag,
        &new,
        format!("Rotate the Deal's hands by {k} {seats}: \"{new}\""),
        true,
    )
}

/// PBN0512: the passes before the first call.
fn write_left_out_passes(text: &str, g: &Game) -> Option<Fix> {
    let k = super::bridge::left_out_passes(text, g)?;
    let at = g.auction.as_ref()?.entries.first()?.range.start;
    let passes = if k == 1 { "pass" } else { "passes" };
    Some(mk(
        format!("Write the {k} {passes} before the first bid"),
        vec![edit(at..at, "Pass ".repeat(k))],
        false,
    ))
}

fn deal_export_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    let raw = &tag.value.as_ref()?.raw;
    let p = values::parse_deal(raw);
    if !p.issues.is_empty() {
        return None;
    }
    let deal = p.value?;
    let dealer = seat_of(g.value("Dealer"), values::parse_dealer).unwrap_or(deal.first);
    let new = deal.export_form(dealer)?;
    set_value_fix(
        tag,
        &new,
        "Write the Deal from the dealer with the ranks in descending order".into(),
        true,
    )
}

fn value_export_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r)?;
    let raw = &tag.value.as_ref()?.raw;
    match tag.name.as_str() {
        "Vulnerable" => {
            let new = values::vulnerable_export_form(raw)?;
            set_value_fix(tag, new, format!("Write Vulnerable as \"{new}\""), true)
        }
        "Result" => {
            let result = values::parse_result(raw).value?;
            let declarer = g
                .value("Declarer")
                .and_then(|v| values::parse_declarer(v).value)?
                .seat?;
            let n = result
                .tricks?
                .for_declarer(bridge::is_north_south(declarer))?;
            let new = format!("{}{n}", if result.differs_from_actual { "^" } else { "" });
            set_value_fix(
                tag,
                &new,
                format!("Write the Result as declarer's tricks: \"{new}\""),
                true,
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// An auction of `n` calls, each with a note reference, lowered.
    fn game(text: &str) -> Game {
        let trees = crate::syntax::parse_pieces(text);
        crate::model::lower(&trees, text).games.remove(0)
    }

    #[test]
    fn annotations_are_found_by_binary_search() {
        let n = 4096;
        let mut text = String::from("[Dealer \"N\"]\n[Auction \"N\"]\n");
        for i in 0..n {
            text += &format!(
                "1C ={}= $1{}",
                i % 32 + 1,
                if i % 4 == 3 { "\n" } else { " " }
            );
        }
        text += "[Play \"E\"]\nS2 =1= $7\n";
        let g = game(&text);
        let refs: Vec<Range<usize>> = g
            .auction
            .as_ref()
            .unwrap()
            .entries
            .iter()
            .map(|e| e.post()[0].range.clone())
            .collect();
        assert_eq!(refs.len(), n);
        PROBES.with(|p| p.set(0));
        for r in &refs {
            let (play, post) = annotations_at(&g, r).expect("found");
            assert!(!play);
            assert_eq!(post[0].range, *r);
        }
        // A scan per annotation looked at n²/2 entries (8 million): one
        // diagnostic per call of a long auction made it quadratic.
        let probes = PROBES.with(|p| p.get());
        assert!(probes <= n * 16, "{probes} probes for {n} annotations");

        // The NAG after each call, the play's annotations, and a range
        // that is no annotation.
        let nag = g.auction.as_ref().unwrap().entries[7].post()[1]
            .range
            .clone();
        assert_eq!(
            annotations_at(&g, &nag).map(|(p, a)| (p, a.len())),
            Some((false, 2))
        );
        let card = &g.play.as_ref().unwrap().entries[0];
        let (play, post) = annotations_at(&g, &card.post()[1].range).expect("in the play");
        assert!(play);
        assert_eq!(post.len(), 2);
        assert_eq!(annotations_at(&g, &(card.range.clone())), None);
        let before = 0..1;
        assert_eq!(annotations_at(&g, &before), None);
    }
}
