//! Annotations: NAGs, suffixes, note references and Note tags,
//! irregularity marks (§3.5.3-5, §3.6.3-5, §3.7, §3.9).

use super::HoverInput;
use crate::model::values;
use crate::model::{Game, Tag, TagRole};
use crate::spec::sections::{self, Section};

pub(super) fn nag_hover(text: &str, section: Option<Section>) -> Option<String> {
    let digits = &text[1..];
    let n = (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse::<u32>().ok())
        .flatten();
    let Some(n) = n else {
        return Some(format!(
            "**`{text}`**: not a NAG — a NAG is `$` followed by a number 0..255 (§3.7)"
        ));
    };
    let mut md = format!("**NAG ${n}**: {} (§3.7)", sections::nag_meaning(n));
    if let Some(warn) = section.and_then(|s| s.nag_misplaced(n)) {
        md.push_str(&format!("\n\n⚠ {warn}"));
    }
    Some(md)
}

pub(super) fn suffix_hover(text: &str, section: Option<Section>) -> Option<String> {
    let line = |sec: Section| {
        sec.nag_of_suffix(text).map(|n| {
            format!(
                "**`{text}`** = **${n}**: {} ({}, §3.7)",
                sections::nag_meaning(n),
                sec.suffix_section()
            )
        })
    };
    match section {
        Some(sec) => line(sec),
        None => Some(format!(
            "{}\n\n{}",
            line(Section::Auction)?,
            line(Section::Play)?
        )),
    }
}

pub(super) fn note_hover(
    h: &HoverInput<'_>,
    game: &Game,
    text: &str,
    section: Option<Section>,
) -> Option<String> {
    let inside = &text[1..text.len() - 1];
    let n = inside
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=32).contains(n) && inside.bytes().all(|b| b.is_ascii_digit()));
    let Some(n) = n else {
        return Some(format!(
            "**`{text}`**: not a note reference — it is `=n=` with n 1..32 (§3.5.4, §3.6.4)"
        ));
    };
    let section = section?;
    let (notes, what, sec) = match section {
        Section::Auction => (
            game.auction.as_ref().map(|a| a.notes.as_slice()),
            "auction",
            "§3.5.5",
        ),
        Section::Play => (
            game.play.as_ref().map(|p| p.notes.as_slice()),
            "play",
            "§3.6.5",
        ),
    };
    let found = find_note(notes.unwrap_or(&[]), game, n);
    Some(match found {
        Some((note, at)) => {
            let line = h.line(at);
            format!("**Note {n}** ({what}, line {line}):\n\n{}", note.text)
        }
        None => format!("**Note {n}**: no note {n} in this {what} section (a `[Note \"{n}:…\"]` after the {}, {sec})", if section == Section::Play { "cards" } else { "calls" }),
    })
}

/// Note `n` among the Note tags `notes` (indexes into the game's tags) and
/// where its tag starts.
pub(super) fn find_note(
    notes: &[usize],
    game: &Game,
    n: u32,
) -> Option<(values::note::Note, usize)> {
    notes.iter().find_map(|&i| {
        let note = game.note(i)?;
        (note.index as u32 == n).then_some((note, game.tags[i].range.start))
    })
}

/// The text of each note a call refers to with `=n=` (§3.5.4-5).
pub(super) fn call_notes(game: &Game, post: &[crate::model::Annotation]) -> String {
    let notes = game.auction.as_ref().map_or(&[][..], |a| &a.notes[..]);
    let mut md = String::new();
    for a in post {
        if let crate::model::AnnotationKind::NoteRef(Some(n)) = a.kind {
            if let Some((note, _)) = find_note(notes, game, n) {
                md.push_str(&format!("\n\n**Note {n}**: {}", note.text));
            }
        }
    }
    md
}

/// At most this many referring calls or cards are listed on a Note tag.
const MAX_NOTE_REFERRERS: usize = 12;

/// The value of a `[Note "n:…"]` of the auction or play section: the note
/// and the calls or cards that refer to it with `=n=` (§3.5.4-5, §3.6.4-5).
pub(super) fn note_tag_hover(h: &HoverInput<'_>, game: &Game, tag: &Tag) -> Option<String> {
    let i = game.tags.iter().position(|t| std::ptr::eq(t, tag))?;
    let note = game.note(i)?;
    let n = note.index as u32;
    let text = h.text;
    let refers = |post: &[crate::model::Annotation]| {
        post.iter()
            .any(|a| a.kind == crate::model::AnnotationKind::NoteRef(Some(n)))
    };
    // (token, offset) of each referring call or card; stray references
    // (before the first call or card) as `None`.
    let (what, sec, tokens, stray): (&str, &str, Vec<(&str, usize)>, usize) = match tag.role {
        TagRole::AuctionNote => {
            let a = game.auction.as_ref()?;
            (
                "call",
                "§3.5.5",
                a.entries
                    .iter()
                    .filter(|e| refers(e.post()))
                    .map(|e| (&text[e.range.clone()], e.range.start))
                    .collect(),
                a.stray
                    .iter()
                    .filter(|s| refers(std::slice::from_ref(s)))
                    .count(),
            )
        }
        TagRole::PlayNote => {
            let p = game.play.as_ref()?;
            (
                "card",
                "§3.6.5",
                p.entries
                    .iter()
                    .filter(|e| refers(e.post()))
                    .map(|e| (&text[e.range.clone()], e.range.start))
                    .collect(),
                p.stray
                    .iter()
                    .filter(|s| refers(std::slice::from_ref(s)))
                    .count(),
            )
        }
        _ => return None,
    };
    let mut md = format!("**Note {n}** ({sec}):\n\n{}\n\n", note.text);
    if tokens.is_empty() && stray == 0 {
        md.push_str(&format!(
            "No {what} refers to it: no `={n}=` in this section."
        ));
        return Some(md);
    }
    let mut list: Vec<String> = tokens
        .iter()
        .take(MAX_NOTE_REFERRERS)
        .map(|(tok, at)| format!("`{tok}` (line {})", h.line(*at)))
        .collect();
    if tokens.len() > MAX_NOTE_REFERRERS {
        list.push(format!("and {} more", tokens.len() - MAX_NOTE_REFERRERS));
    }
    if stray > 0 {
        list.push(format!("`={n}=` with no {what} before it"));
    }
    md.push_str(&format!(
        "Referred to by `={n}=` after: {}",
        list.join(", ")
    ));
    Some(md)
}

pub(super) fn irregularity_hover(text: &str) -> Option<String> {
    let letter = text[1..].chars().next()?;
    Some(match sections::irregularity_meaning(letter) {
        Some(doc) => format!("**`^{}`**: {doc} (§3.9)", letter.to_ascii_uppercase()),
        None => {
            format!("**`{text}`**: not an irregularity — PBN has `^I`, `^S`, `^R` and `^L` (§3.9)")
        }
    })
}
