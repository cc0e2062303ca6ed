//! The fixes of tags and their values: quoting, the name's case, a repeated
//! tag, dates, a seat, vulnerability or contract as the spec writes it.

use super::text::{after_point, eol, next_line_start, tag_line};
use super::{edit, mk};
use crate::diagnostic::{Applicability, Edit, Fix};
use crate::model::values;
use crate::model::{Game, Inherit, Tag, TagRole};
use crate::rules::tags::{MANDATORY, MISC_AND_TABLES, SECTION_TAGS, SUPPLEMENTAL};
use std::ops::Range;

/// The first tag named `name` (the one that counts, §3.4).
pub(super) fn tag_of<'g>(g: &'g Game, name: &str) -> Option<&'g Tag> {
    g.tag(name)
}

/// The tag whose value contains `r`.
pub(super) fn tag_at_value<'g>(g: &'g Game, r: &Range<usize>) -> Option<&'g Tag> {
    g.tags.iter().find(|t| {
        t.value
            .as_ref()
            .is_some_and(|v| v.range.start <= r.start && r.end <= v.range.end)
    })
}

/// The edit that makes `new` the value of `tag`.
pub(super) fn set_value(tag: &Tag, new: &str) -> Option<Edit> {
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

pub(super) fn set_value_fix(tag: &Tag, new: &str, title: String, preferred: bool) -> Option<Fix> {
    let raw = tag.value.as_ref().map(|v| v.raw.as_str());
    if raw == Some(new) {
        return None;
    }
    Some(mk(title, vec![set_value(tag, new)?], preferred))
}

/// PBN0006 of the model: unsafe (where the value ends is a guess; the
/// syntax diagnostic's fix is safe when the text up to the `]` is the value).
pub(super) fn quote_value(g: &Game, r: &Range<usize>) -> Option<Fix> {
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

pub(super) fn tag_name_case(g: &Game, r: &Range<usize>) -> Option<Fix> {
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

pub(super) fn remove_duplicate(text: &str, g: &Game, r: &Range<usize>) -> Vec<Fix> {
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

/// PBN0302: the date as `YYYY.MM.DD`; a time written after it moves to
/// the Time (UTCTime) tag when that tag is absent, unknown or says the
/// same time (else no fix: one of the two times is wrong).
pub(super) fn standard_date(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
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
pub(super) fn data_as_comment(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
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
pub(super) fn empty_play(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
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

/// PBN0303: a date written day first ([`values::day_month_swapped`]).
pub(super) fn swapped_date(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.inherit == Inherit::None)?;
    let v = tag.value.as_ref()?;
    let new = values::day_month_swapped(&v.raw)?;
    set_value_fix(tag, &new, format!("Swap day and month: \"{new}\""), false)
}

/// PBN0311, PBN0313, PBN0316: the value as the spec writes it.
pub(super) fn standard_value(g: &Game, r: &Range<usize>) -> Option<Fix> {
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
