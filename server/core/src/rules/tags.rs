//! PBN02xx: tag names, duplicates, inheritance, section dependencies and
//! placement of Note tags (§3.1, §3.3, §3.4, §3.5.5, §4.8, §4.9, §5.1).

use super::GameCtx;
use crate::codes::tags as c;
use crate::diagnostic::{Diagnostic, Severity};
use crate::hash::Map as HashMap;
use crate::model::{CommentKind, Inherit, TagRole};

pub use crate::spec::tags::{
    is_known, MANDATORY, MISC_AND_TABLES, NO_INHERIT, SECTION_TAGS, SUPPLEMENTAL,
};

pub fn check(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    comments_in_tags(ctx, out);
    names_and_repeats(ctx, out);
    section_dependencies(ctx, out);
    section_data(ctx, out);
    note_indices(ctx, out);
}

/// Each tag's name (§3.3, §4.9), inheritance (§4.8), repetition (§3.4)
/// and a Note outside its section.
fn names_and_repeats(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    let mut first: super::FastMap<&str, usize> =
        super::FastMap::with_capacity_and_hasher(g.tags.len(), Default::default());
    for (i, tag) in g.tags.iter().enumerate() {
        let name = tag.name.as_str();
        if name.is_empty() {
            continue;
        }
        // §3.3 names begin with an upper case letter.
        if !name.as_bytes()[0].is_ascii_uppercase() {
            let suggestion = all_known().find(|k| k.eq_ignore_ascii_case(name));
            let msg = match suggestion {
                Some(k) => format!("tag name `{name}` must begin with an upper case letter; did you mean `{k}`? (§3.3)"),
                None => format!("tag name `{name}` must begin with an upper case letter (§3.3)"),
            };
            ctx.push(
                out,
                Diagnostic::new(&c::TAG_NAME_CASE, tag.name_range.clone(), msg),
            );
        } else if !is_known(name) {
            let mut d = Diagnostic::new(
                &c::UNKNOWN_TAG,
                tag.name_range.clone(),
                match all_known().find(|k| close(k, name)) {
                    Some(k) => format!("unknown tag `{name}`; did you mean `{k}`? (§4.9)"),
                    None => format!("unknown tag `{name}` is skipped by PBN readers (§4.9)"),
                },
            );
            if crate::spec::tags::vendor(name).is_some() {
                d.severity = Severity::Hint;
                d.set_message(format!(
                    "`{name}` is an application-specific tag, not part of PBN 2.1 (§4.9)"
                ));
            }
            ctx.push(out, d);
        }
        // §4.8 inheritance forbidden for some tags.
        if tag.inherit != Inherit::None && NO_INHERIT.contains(&name) {
            let r = tag
                .value
                .as_ref()
                .map(|v| v.range.clone())
                .unwrap_or(tag.range.clone());
            ctx.push(out, Diagnostic::new(
                &c::FORBIDDEN_INHERITANCE,
                r,
                format!("`{name}` may not use `#` or `##`: every game must be playable on its own (§4.8)"),
            ));
        }
        // §3.4 duplicates (Note tags are checked per section).
        if name == "Note" {
            // A Note followed by data outside the auction and play is a
            // supplemental section named Note (§5.1): as misplaced.
            if matches!(tag.role, TagRole::Plain | TagRole::Section) {
                ctx.push(out, Diagnostic::new(
                    &c::NOTE_OUTSIDE_SECTION,
                    tag.range.clone(),
                    "Note tag outside the auction and play sections; notes go at the end of the section whose calls or cards refer to them (§3.5.5, §3.6.5)",
                ));
            }
            continue;
        }
        match first.get(name) {
            None => {
                first.insert(name, i);
            }
            Some(&f) => {
                let a = g.tags[f].value.as_ref().map(|v| v.text.as_str());
                let b = tag.value.as_ref().map(|v| v.text.as_str());
                let d = Diagnostic::new(
                    &c::DUPLICATE_TAG,
                    tag.range.clone(),
                    if a == b {
                        format!("`{name}` occurs again; the repeated tag is ignored (§3.4)")
                    } else {
                        format!(
                            "`{name}` occurs again with value {:?}, which is ignored: the first value {:?} counts (§3.4)",
                            b.unwrap_or(""),
                            a.unwrap_or("")
                        )
                    },
                )
                .with_related(g.tags[f].range.clone(), format!("first `{name}` tag"));
                ctx.push(out, d);
            }
        }
    }
}

/// §3.1: the tags the auction and play sections need before them.
fn section_dependencies(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    let filled = |name: &str, before: usize| -> Result<(), bool> {
        // Ok: present before; Err(true): present after; Err(false): absent/empty.
        let has_value = |v: Option<&str>| v.is_some_and(|v| !v.trim().is_empty());
        match g.tags.iter().position(|t| t.name == name) {
            Some(p) if has_value(g.tags[p].effective()) => {
                if p < before {
                    Ok(())
                } else {
                    Err(true)
                }
            }
            Some(_) => Err(false),
            None => {
                if has_value(g.value(name)) {
                    Ok(()) // inherited through ## from an earlier game
                } else {
                    Err(false)
                }
            }
        }
    };
    if let Some(a) = &g.auction {
        if a.tag != usize::MAX {
            let at = &g.tags[a.tag];
            match filled("Dealer", a.tag) {
                Ok(()) => {}
                Err(true) => ctx.push(out, Diagnostic::new(
                    &c::TAGS_OUT_OF_ORDER,
                    at.range.clone(),
                    "the Dealer tag must come before the auction section (§3.1)",
                )),
                Err(false) => ctx.push(out, Diagnostic::new(
                    &c::AUCTION_NEEDS_DEALER,
                    at.range.clone(),
                    "auction section without a Dealer: the tag Dealer must be filled before the auction section (§3.1)",
                )),
            }
        }
    }
    if let Some(p) = &g.play {
        if p.tag != usize::MAX {
            let pt = &g.tags[p.tag];
            let mut missing = Vec::new();
            // §3.10: in an end position the Play tag names the leader and the
            // Contract gives only the denomination; no Declarer is needed
            // (the reference verifier accepts such a game too).
            let end_position = g
                .value("Contract")
                .and_then(|v| crate::model::values::parse_contract(v).value)
                .is_some_and(|c| {
                    matches!(c.value, crate::model::values::ContractValue::EndPosition(_))
                });
            for name in ["Deal", "Declarer", "Contract"] {
                if name == "Declarer" && end_position {
                    continue;
                }
                match filled(name, p.tag) {
                    Ok(()) => {}
                    Err(true) => ctx.push(
                        out,
                        Diagnostic::new(
                            &c::TAGS_OUT_OF_ORDER,
                            pt.range.clone(),
                            format!("the {name} tag must come before the play section (§3.1)"),
                        ),
                    ),
                    Err(false) => missing.push(name),
                }
            }
            if !missing.is_empty() {
                ctx.push(out, Diagnostic::new(
                    &c::PLAY_NEEDS_TAGS,
                    pt.range.clone(),
                    format!(
                        "play section without {}: Deal, Declarer and Contract must be filled before the play section (§3.1)",
                        missing.join(", ")
                    ),
                ));
            }
        }
    }
}

/// §5.1: section data after an identification tag is free text.
fn section_data(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    for s in &g.sections {
        if s.tag == usize::MAX {
            continue;
        }
        let name = g.tags[s.tag].name.as_str();
        if crate::spec::tags::takes_no_section_data(name) || name == "Note" {
            let r = s
                .elements
                .first()
                .map(|e| e.range.start)
                .unwrap_or(s.range.start)..s.range.end;
            let first_line_end = ctx.text[r.clone()]
                .find(['\n', '\r'])
                .map(|i| r.start + i)
                .unwrap_or(r.end);
            ctx.push(out, Diagnostic::new(
                &c::UNEXPECTED_SECTION_DATA,
                r.start..first_line_end,
                format!("text after the `{name}` tag, which has no section data; put free text in a `{{…}}` comment (§5.1, §3.8)"),
            ));
        }
    }
}

/// §3.5.5 / §3.6.5: note indices differ within a section.
fn note_indices(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    for notes in [
        g.auction.as_ref().map(|a| &a.notes),
        g.play.as_ref().map(|p| &p.notes),
    ]
    .into_iter()
    .flatten()
    {
        let mut seen: HashMap<u32, usize> = HashMap::default();
        for (n, i) in g.note_indices(notes) {
            if let Some(&f) = seen.get(&n) {
                ctx.push(out, Diagnostic::new(
                    &c::DUPLICATE_NOTE,
                    g.tags[i].range.clone(),
                    format!("a second note number {n} in this section; notes must differ in their index (§3.5.5)"),
                ).with_related(g.tags[f].range.clone(), format!("first note {n}")));
            } else {
                seen.insert(n, i);
            }
        }
    }
}

fn all_known() -> impl Iterator<Item = &'static str> {
    MANDATORY
        .iter()
        .chain(&SECTION_TAGS)
        .chain(&SUPPLEMENTAL)
        .chain(&MISC_AND_TABLES)
        .copied()
}

/// Edit distance ≤ 1 or case-insensitively equal: a probable misspelling.
fn close(known: &str, name: &str) -> bool {
    if known.eq_ignore_ascii_case(name) {
        return true;
    }
    let (a, b) = (known.as_bytes(), name.as_bytes());
    if a.len().abs_diff(b.len()) > 1 || a.len() < 4 {
        return false;
    }
    // Levenshtein distance bounded by 1 (with transpositions).
    let (mut i, mut j, mut edits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        edits += 1;
        if edits > 1 {
            return false;
        }
        if a.len() == b.len() {
            if i + 1 < a.len() && a[i] == b[j + 1] && a[i + 1] == b[j] {
                i += 2;
                j += 2;
            } else {
                i += 1;
                j += 1;
            }
        } else if a.len() > b.len() {
            i += 1;
        } else {
            j += 1;
        }
    }
    edits + (a.len() - i) + (b.len() - j) <= 1
}

/// §3.8: "Comments cannot appear inside any token, nor inside a tag pair."
fn comments_in_tags(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    if g.comments.is_empty() {
        return;
    }
    for tag in &g.tags {
        // Only a whole tag pair: a tag without its `]` runs on into what follows.
        if !ctx.text[..tag.range.end].ends_with(']') {
            continue;
        }
        let from = g
            .comments
            .partition_point(|cm| cm.range.start <= tag.range.start);
        for cm in g.comments[from..]
            .iter()
            .take_while(|cm| cm.range.end <= tag.range.end)
        {
            if cm.kind == CommentKind::Escape {
                continue;
            }
            let d = Diagnostic::new(
                &c::COMMENT_IN_TAG,
                cm.range.clone(),
                format!(
                    "comment inside the {} tag pair; comments cannot appear inside a tag pair (§3.8): put it after the `]`",
                    tag.name
                ),
            );
            ctx.push(
                out,
                d.with_fix(move_comment_after(ctx.text, tag.range.end, cm)),
            );
        }
    }
}

/// The fix of [`comments_in_tags`]: a brace comment moved to just after its
/// tag pair (a `;` comment runs to the end of its line, so it has none).
fn move_comment_after(
    text: &str,
    tag_end: usize,
    cm: &crate::model::Comment,
) -> Option<crate::diagnostic::Fix> {
    if cm.kind != CommentKind::Brace {
        return None;
    }
    // The comment and the white space before it go.
    let start = text[..cm.range.start].trim_end_matches([' ', '\t']).len();
    let start = if text[..start].ends_with('[') {
        cm.range.start
    } else {
        start
    };
    let comment = &text[cm.range.clone()];
    Some(crate::diagnostic::Fix::new(
        "Move the comment after the tag pair",
        vec![
            crate::diagnostic::Edit {
                range: start..cm.range.end,
                new_text: String::new(),
            },
            crate::diagnostic::Edit {
                range: tag_end..tag_end,
                new_text: format!(" {comment}"),
            },
        ],
        crate::diagnostic::Applicability::Safe,
    ))
}
