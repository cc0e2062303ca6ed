//! `textDocument/completion`. What is offered depends on where the cursor is:
//!
//! - inside the quotes of a tag value: the values the spec enumerates for
//!   that tag (Dealer, Declarer, Auction, Play: W N E S; Vulnerable; Room;
//!   FrenchMP; Contract; the fields of Scoring; the example values of the
//!   open-list tags), nothing for free-text tags;
//! - after `[` (or on a tag name): every PBN 2.1 tag name, with its
//!   description;
//! - after `=` in an auction or play section: the numbers of the section's
//!   notes, and the next free number (§3.5.4, §3.6.4);
//! - on a new call in an auction section: exactly the legal calls of the
//!   player on turn after the calls before the cursor (§3.5.1), plus `AP`,
//!   `*` and `+` (or only `-` for a player before the dealer);
//! - on a new card in a play section: the cards of the seat whose column
//!   the card takes (§3.6: the Play tag's seat, turned by the columns
//!   before it), following the lead when the trick's leader stands in an
//!   earlier column (§3.6.1).
//!
//! Completions replace the word being typed (a `textEdit` over it); no
//! snippets.

use crate::lsp::snapshot::Snapshot;
use contract_bridge::{Bid, Level, Strain};
use pbn_core::bridge::{self, Seat};
use pbn_core::model::values::misc::{OpenListTag, SCORING_BASICS, SCORING_MODIFIERS};
use pbn_core::model::{self, values, AnnotationKind, CommentKind, Game};
use pbn_core::spec::{self, sections::Section};
use std::ops::Range;
use tower_lsp_server::ls_types::*;

pub fn register(caps: &mut ServerCapabilities) {
    caps.completion_provider = Some(CompletionOptions {
        trigger_characters: Some(["[", "\"", "=", " "].map(String::from).to_vec()),
        ..Default::default()
    });
}

pub fn completion(snap: &Snapshot, params: CompletionParams) -> Option<CompletionResponse> {
    let offset = snap
        .converter()
        .offset(params.text_document_position.position)
        .min(snap.source.text.len());
    if !snap.source.text.is_char_boundary(offset) || in_comment(snap, offset) {
        return None;
    }
    let items = if let Some((game, tag)) = value_at(snap, offset) {
        value_items(snap, &game.tags[tag], offset)
    } else if let Some(replace) = tag_name_at(&snap.source.text, offset) {
        tag_name_items(snap, replace)
    } else {
        let game = game_for(snap, offset)?;
        let (section, zone) = section_at(game, offset)?;
        match note_ref_at(&snap.source.text, game, section, offset) {
            NoteRefContext::Open(replace, close) => note_items(snap, game, section, replace, close),
            NoteRefContext::Closing => return None,
            NoteRefContext::No => match section {
                Section::Auction => call_items(snap, game, &zone, offset),
                Section::Play => card_items(snap, game, &zone, offset),
            },
        }
    };
    let items = items?;
    if items.is_empty() {
        return None;
    }
    Some(CompletionResponse::Array(items))
}

// ---- where the cursor is ----------------------------------------------------

/// Inside a comment or an escape line (a `;` comment and an escape line
/// reach the end of their line, so their end counts as inside).
fn in_comment(snap: &Snapshot, offset: usize) -> bool {
    // The token holding the byte before the cursor (comments are tokens).
    let Some(before) = offset.checked_sub(1) else {
        return false;
    };
    let trees = snap.piece_trees_at(before);
    let root = pbn_core::syntax::root_at(&trees, before);
    let Some(node) = root.descendant_for_byte_range(before, before) else {
        return false;
    };
    let r = node.byte_range();
    let to_eol = match node.kind() {
        "comment" => snap.source.text.as_bytes()[r.start] == b';',
        "escape_line" | "unterminated_comment" => true,
        _ => return false,
    };
    let _ = CommentKind::Line;
    r.start < offset && (offset < r.end || (to_eol && offset == r.end))
}

/// The game the cursor belongs to: the last game starting before it, unless
/// a semi-empty line (a game break, §3) lies between its end and the cursor.
fn game_for(snap: &Snapshot, offset: usize) -> Option<&Game> {
    let g = snap.game_before(offset)?;
    if offset > g.range.end && has_blank_line(&snap.source.text[g.range.end..offset]) {
        return None;
    }
    Some(g)
}

fn has_blank_line(s: &str) -> bool {
    let lines: Vec<&str> = s.split('\n').collect();
    lines.len() > 2
        && lines[1..lines.len() - 1]
            .iter()
            .any(|l| l.trim().is_empty())
}

/// The tag whose quoted value holds the cursor (between the quotes).
fn value_at(snap: &Snapshot, offset: usize) -> Option<(&Game, usize)> {
    let g = snap.game_before(offset)?;
    let i = g.tags.iter().position(|t| {
        t.value
            .as_ref()
            .is_some_and(|v| v.quoted && v.range.start <= offset && offset <= v.range.end)
    })?;
    Some((g, i))
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// After `[` (white space allowed, §3.3) and on the name being typed: the
/// range of that name.
fn tag_name_at(text: &str, offset: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let mut start = offset;
    while start > 0 && is_name_byte(b[start - 1]) {
        start -= 1;
    }
    let mut k = start;
    while k > 0 && matches!(b[k - 1], b' ' | b'\t') {
        k -= 1;
    }
    if k == 0 || b[k - 1] != b'[' {
        return None;
    }
    let mut end = offset;
    while end < b.len() && is_name_byte(b[end]) {
        end += 1;
    }
    Some(start..end)
}

/// Where the calls (cards) of a section are written: from the end of its
/// tag to the start of the next tag pair, and the Note tags that follow.
struct Zone {
    range: Range<usize>,
    notes: Vec<usize>,
}

fn zone(g: &Game, tag: usize) -> Option<Zone> {
    let start = g.tags.get(tag)?.range.end;
    let mut after: Vec<(usize, &model::Tag)> = g
        .tags
        .iter()
        .enumerate()
        .filter(|(_, t)| t.range.start >= start)
        .collect();
    after.sort_by_key(|(_, t)| t.range.start);
    let end = after.first().map_or(usize::MAX, |(_, t)| t.range.start);
    let notes = after
        .iter()
        .take_while(|(_, t)| t.name == "Note")
        .map(|(i, _)| *i)
        .collect();
    Some(Zone {
        range: start..end,
        notes,
    })
}

fn section_at(g: &Game, offset: usize) -> Option<(Section, Zone)> {
    let sections = [
        (Section::Auction, g.auction.as_ref().map(|a| a.tag)),
        (Section::Play, g.play.as_ref().map(|p| p.tag)),
    ];
    for (section, tag) in sections {
        let Some(z) = tag.and_then(|t| zone(g, t)) else {
            continue;
        };
        if z.range.start < offset && offset <= z.range.end {
            return Some((section, z));
        }
    }
    None
}

enum NoteRefContext {
    /// After an opening `=` (and digits): the range to replace, and whether
    /// the closing `=` must be written.
    Open(Range<usize>, bool),
    /// Right after a complete `=n=`.
    Closing,
    No,
}

fn note_ref_at(text: &str, g: &Game, section: Section, offset: usize) -> NoteRefContext {
    let b = text.as_bytes();
    let mut start = offset;
    while start > 0 && b[start - 1].is_ascii_digit() {
        start -= 1;
    }
    if start == 0 || b[start - 1] != b'=' {
        return NoteRefContext::No;
    }
    let annotations: Vec<&model::Annotation> = match section {
        Section::Auction => g
            .auction
            .iter()
            .flat_map(|a| {
                a.stray
                    .iter()
                    .chain(a.entries.iter().flat_map(|e| e.post().iter()))
            })
            .collect(),
        Section::Play => g
            .play
            .iter()
            .flat_map(|p| {
                p.stray
                    .iter()
                    .chain(p.entries.iter().flat_map(|e| e.post().iter()))
            })
            .collect(),
    };
    let closing = annotations.iter().any(|a| {
        matches!(a.kind, AnnotationKind::NoteRef(_))
            && a.range.end == start
            && a.range.start < start - 1
    });
    if closing {
        return NoteRefContext::Closing;
    }
    let mut end = offset;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    NoteRefContext::Open(start..end, b.get(end) != Some(&b'='))
}

/// The word (call or card token, §3.2) being typed at the cursor, when the
/// cursor starts a new token: the word's range.
fn word_at(text: &str, offset: usize) -> Option<Range<usize>> {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let b = text.as_bytes();
    let mut start = offset;
    while start > 0 && word(b[start - 1]) {
        start -= 1;
    }
    if start > 0 && !matches!(b[start - 1], b' ' | b'\t' | b'\r' | b'\n' | b'}') {
        return None;
    }
    let mut end = offset;
    while end < b.len() && word(b[end]) {
        end += 1;
    }
    Some(start..end)
}

// ---- items ------------------------------------------------------------------

fn item(
    snap: &Snapshot,
    label: &str,
    kind: CompletionItemKind,
    replace: &Range<usize>,
    new_text: String,
    order: usize,
) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        sort_text: Some(format!("{order:04}")),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
            range: snap.converter().range(replace.clone()),
            new_text,
        })),
        insert_text_format: Some(InsertTextFormat::PLAIN_TEXT),
        ..Default::default()
    }
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

fn tag_name_items(snap: &Snapshot, replace: Range<usize>) -> Option<Vec<CompletionItem>> {
    let items = spec::tags::DOCS
        .iter()
        .enumerate()
        .map(|(i, (name, section, description))| CompletionItem {
            detail: Some(format!("PBN tag ({section})")),
            documentation: Some(markdown(format!("**{name}** ({section})\n\n{description}"))),
            ..item(
                snap,
                name,
                CompletionItemKind::PROPERTY,
                &replace,
                name.to_string(),
                i,
            )
        })
        .collect();
    Some(items)
}

/// (value, description) pairs for a tag, and whether the value is a list of
/// `;`-separated fields (Scoring).
fn enumerated_values(name: &str) -> Option<(Vec<(String, String)>, bool)> {
    let seats = || {
        [Seat::West, Seat::North, Seat::East, Seat::South]
            .iter()
            .map(|&s| (s.letter().to_string(), bridge::seat_name(s).to_string()))
            .collect::<Vec<_>>()
    };
    let pairs = |list: &[(&str, &str)]| {
        list.iter()
            .map(|(v, d)| (v.to_string(), d.to_string()))
            .collect::<Vec<_>>()
    };
    let values = match name {
        "Dealer" | "Declarer" | "Auction" | "Play" => seats(),
        "Vulnerable" => pairs(&[
            ("None", "no vulnerability (also Love, -)"),
            ("NS", "North-South vulnerable"),
            ("EW", "East-West vulnerable"),
            ("All", "both sides vulnerable (also Both)"),
        ]),
        "Room" => pairs(&[("Open", "the open room"), ("Closed", "the closed room")]),
        "FrenchMP" => pairs(&[
            ("Yes", "French MatchPoint scoring"),
            ("No", "no French MatchPoint scoring (the default)"),
        ]),
        "Scoring" => {
            let mut v: Vec<(String, String)> = SCORING_BASICS
                .iter()
                .map(|b| (b.to_string(), "basic scoring system".to_string()))
                .collect();
            v.extend(
                SCORING_MODIFIERS
                    .iter()
                    .map(|m| (m.to_string(), "modifier".to_string())),
            );
            return Some((v, true));
        }
        "Contract" => {
            let mut v = vec![("Pass".to_string(), "all four players passed".to_string())];
            for level in 1..=7u8 {
                for strain in Strain::ASC {
                    let bid = bridge::bid_text(Bid {
                        level: Level::new(level),
                        strain,
                    });
                    v.push((bid.clone(), "undoubled".into()));
                    v.push((format!("{bid}X"), "doubled".into()));
                    v.push((format!("{bid}XX"), "redoubled".into()));
                }
            }
            v
        }
        _ => {
            let tag = OpenListTag::from_name(name)?;
            tag.examples()
                .iter()
                .map(|e| (e.to_string(), "example value of the spec".to_string()))
                .collect()
        }
    };
    Some((values, false))
}

fn value_items(snap: &Snapshot, tag: &model::Tag, offset: usize) -> Option<Vec<CompletionItem>> {
    let (values, fields) = enumerated_values(&tag.name)?;
    let v = tag.value.as_ref()?;
    let text = &snap.source.text;
    // What to replace: the whole value, or (unterminated) up to the end of
    // the word at the cursor; for Scoring the current field.
    let mut replace = if v.terminated {
        v.range.clone()
    } else {
        let mut end = offset;
        while end < v.range.end && text.as_bytes()[end].is_ascii_alphanumeric() {
            end += 1;
        }
        v.range.start..end
    };
    if fields {
        let before = &text[replace.start..offset];
        let mut start = before
            .rfind(';')
            .map_or(replace.start, |i| replace.start + i + 1);
        while start < offset && matches!(text.as_bytes()[start], b' ' | b'\t') {
            start += 1;
        }
        let after = &text[offset..replace.end];
        let mut end = after.find(';').map_or(replace.end, |i| offset + i);
        while end > offset && matches!(text.as_bytes()[end - 1], b' ' | b'\t') {
            end -= 1;
        }
        replace = start..end;
    }
    let section = spec::tags::doc(&tag.name).map(|(s, _)| s).unwrap_or("");
    let items = values
        .into_iter()
        .enumerate()
        .map(|(i, (value, description))| CompletionItem {
            detail: Some(description),
            documentation: (!section.is_empty())
                .then(|| markdown(format!("{} value ({section})", tag.name))),
            ..item(
                snap,
                &value,
                CompletionItemKind::ENUM_MEMBER,
                &replace,
                value.clone(),
                i,
            )
        })
        .collect();
    Some(items)
}

fn note_items(
    snap: &Snapshot,
    g: &Game,
    section: Section,
    replace: Range<usize>,
    close: bool,
) -> Option<Vec<CompletionItem>> {
    let close = if close { "=" } else { "" };
    let (zone, annotations) = match section {
        Section::Auction => {
            let a = g.auction.as_ref()?;
            (
                zone(g, a.tag)?,
                a.stray
                    .iter()
                    .chain(a.entries.iter().flat_map(|e| e.post().iter()))
                    .collect::<Vec<_>>(),
            )
        }
        Section::Play => {
            let p = g.play.as_ref()?;
            (
                zone(g, p.tag)?,
                p.stray
                    .iter()
                    .chain(p.entries.iter().flat_map(|e| e.post().iter()))
                    .collect::<Vec<_>>(),
            )
        }
    };
    let mut notes: Vec<(u32, String)> = zone
        .notes
        .iter()
        .filter_map(|&i| {
            let n = values::parse_note(&g.tags[i].value.as_ref()?.raw).value?;
            Some((n.index as u32, n.text))
        })
        .collect();
    notes.sort_by_key(|(n, _)| *n);
    notes.dedup_by_key(|(n, _)| *n);
    let used = |k: u32| {
        notes.iter().any(|(n, _)| *n == k)
            || annotations
                .iter()
                .any(|a| a.kind == AnnotationKind::NoteRef(Some(k)))
    };
    let mut items: Vec<CompletionItem> = notes
        .iter()
        .enumerate()
        .map(|(i, (n, text))| CompletionItem {
            detail: Some(text.trim().to_string()),
            documentation: Some(markdown(format!("**Note {n}**: {}", text.trim()))),
            filter_text: Some(n.to_string()),
            ..item(
                snap,
                &n.to_string(),
                CompletionItemKind::REFERENCE,
                &replace,
                format!("{n}{close}"),
                i,
            )
        })
        .collect();
    if let Some(free) = (1..=32).find(|&k| !used(k)) {
        items.push(CompletionItem {
            detail: Some(
                "a new note: add [Note \"".to_string()
                    + &free.to_string()
                    + ":…\"] after the section (§3.5.5, §3.6.5)",
            ),
            filter_text: Some(free.to_string()),
            ..item(
                snap,
                &free.to_string(),
                CompletionItemKind::REFERENCE,
                &replace,
                format!("{free}{close}"),
                items.len(),
            )
        });
    }
    Some(items)
}

/// How many of a section's entries (their ranges, and whether each ends
/// the section: `+`, `*`) come before the word at `replace`; `None` when the
/// word is before the section (`zone`) or after its end.
fn entries_before(
    zone: &Zone,
    replace: &Range<usize>,
    entries: impl Iterator<Item = (Range<usize>, bool)>,
) -> Option<usize> {
    let ends: Vec<bool> = entries
        .take_while(|(r, _)| r.end <= replace.start)
        .map(|(_, end)| end)
        .collect();
    (replace.start >= zone.range.start && !ends.contains(&true)).then_some(ends.len())
}

/// The legal next calls after the calls before the cursor.
fn call_items(
    snap: &Snapshot,
    g: &Game,
    zone: &Zone,
    offset: usize,
) -> Option<Vec<CompletionItem>> {
    let replace = word_at(&snap.source.text, offset)?;
    let a = g.auction.as_ref()?;
    let entries = a.entries.iter().map(|e| {
        let end = matches!(
            e.token,
            model::CallToken::Continuation | model::CallToken::Terminator
        );
        (e.range.clone(), end)
    });
    let before = entries_before(zone, &replace, entries)?;
    let mut g2 = g.clone();
    if let Some(a2) = g2.auction.as_mut() {
        a2.entries.truncate(before);
    }
    let typed = model::typed::typed(&snap.source.text, &g2);
    let analysis = typed.auction?;
    if analysis.complete || analysis.ended_by_terminator || analysis.continued {
        return None;
    }
    let seat = analysis.next_seat?;
    let who = bridge::seat_name(seat);
    let mut items = Vec::new();
    let only_dashes = a.entries[..before]
        .iter()
        .all(|e| e.token == model::CallToken::Dash);
    let dealer = typed.dealer;
    if analysis.legal_next_calls.is_empty() {
        if only_dashes && dealer.is_some_and(|d| d != seat) {
            items.push(CompletionItem {
                detail: Some(format!("{who}: not yet on turn, before the dealer (§3.5)")),
                ..item(
                    snap,
                    "-",
                    CompletionItemKind::VALUE,
                    &replace,
                    "-".into(),
                    0,
                )
            });
        }
        return Some(items);
    }
    for (i, c) in analysis.legal_next_calls.iter().enumerate() {
        let label = bridge::call_word(*c).to_owned();
        items.push(CompletionItem {
            detail: Some(who.to_string()),
            ..item(
                snap,
                &label,
                CompletionItemKind::VALUE,
                &replace,
                label.clone(),
                i,
            )
        });
    }
    // `AP`, `*` and `+` end the section: only after the last call.
    if a.entries.iter().any(|e| e.range.start >= replace.end) {
        return Some(items);
    }
    let n = items.len();
    let extra = [
        ("AP", format!("{who}: all remaining players pass (§3.5.1)")),
        (
            "*",
            "no further calls will or can be given (§3.5)".to_string(),
        ),
        (
            "+",
            format!("{who} to call next: the auction is to be continued (§3.5)"),
        ),
    ];
    for (i, (label, detail)) in extra.into_iter().enumerate() {
        items.push(CompletionItem {
            detail: Some(detail),
            ..item(
                snap,
                label,
                CompletionItemKind::KEYWORD,
                &replace,
                label.to_string(),
                n + i,
            )
        });
    }
    Some(items)
}

/// The cards the seat of the cursor's column may play there, after the
/// cards before the cursor.
fn card_items(
    snap: &Snapshot,
    g: &Game,
    zone: &Zone,
    offset: usize,
) -> Option<Vec<CompletionItem>> {
    let replace = word_at(&snap.source.text, offset)?;
    let p = g.play.as_ref()?;
    let entries = p.entries.iter().map(|e| {
        let end = matches!(
            e.token,
            model::CardToken::Continuation | model::CardToken::Terminator
        );
        (e.range.clone(), end)
    });
    let before = entries_before(zone, &replace, entries)?;
    let mut g2 = g.clone();
    if let Some(p2) = g2.play.as_mut() {
        p2.entries.truncate(before);
    }
    let analysis = model::typed::typed(&snap.source.text, &g2).play?;
    if analysis.complete {
        return None;
    }
    // The column's seat (§3.6), whom the hover names too: not the player
    // on turn when an earlier trick was won by a later column.
    let who = bridge::seat_name(analysis.column_seat?);
    let mut cards = analysis.column_cards.clone();
    cards.sort_by(|a, b| b.suit.cmp(&a.suit).then(b.rank.cmp(&a.rank)));
    let items = cards
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let label = bridge::card_text(*c);
            CompletionItem {
                detail: Some(who.to_string()),
                ..item(
                    snap,
                    &label,
                    CompletionItemKind::VALUE,
                    &replace,
                    label.clone(),
                    i,
                )
            }
        })
        .collect();
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot as snap;
    use crate::lsp::snapshot::Snapshot;

    /// Completion at the `|` of `marked` (removed from the text).
    fn complete(marked: &str) -> (Snapshot, Option<CompletionResponse>) {
        let offset = marked.find('|').expect("a | marks the cursor");
        let text = marked.replacen('|', "", 1);
        let s = snap(&text);
        let position = s.converter().position(offset);
        let params = CompletionParams {
            text_document_position: TextDocumentPositionParams {
                text_document: TextDocumentIdentifier { uri: s.uri.clone() },
                position,
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
            context: None,
        };
        let r = completion(&s, params);
        (s, r)
    }

    fn items(r: &Option<CompletionResponse>) -> Vec<CompletionItem> {
        match r {
            Some(CompletionResponse::Array(v)) => v.clone(),
            Some(CompletionResponse::List(l)) => l.items.clone(),
            None => Vec::new(),
        }
    }

    fn labels(marked: &str) -> Vec<String> {
        items(&complete(marked).1)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    /// One line per item: label, detail and the text it replaces.
    fn summary(marked: &str) -> String {
        let (s, r) = complete(marked);
        items(&r)
            .into_iter()
            .map(|i| {
                let (range, new_text) = match i.text_edit {
                    Some(CompletionTextEdit::Edit(e)) => {
                        (s.converter().byte_range(e.range), e.new_text)
                    }
                    _ => (0..0, String::new()),
                };
                format!(
                    "{:<6} {:?} replaces {:?} with {:?}",
                    i.label,
                    i.detail.unwrap_or_default(),
                    &s.source.text[range],
                    new_text
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    const HEAD: &str = "[Event \"x\"]\n[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n\
[Deal \"N:AK32.KQ2.A32.K32 QJT9.AJ3.KQ4.J54 8765.T98.T98.AT9 4.7654.J765.Q876\"]\n";

    #[test]
    fn auction_after_1nt_pass_offers_bids_above_1nt_double_pass() {
        // North 1NT, East and South pass: West (an opponent) may double.
        let text = format!("{HEAD}[Auction \"N\"]\n1NT Pass Pass |\n");
        let l = labels(&text);
        assert_eq!(l[..2], ["Pass", "X"]);
        assert!(!l.contains(&"XX".to_string()));
        assert!(
            !l.iter()
                .any(|c| ["1C", "1D", "1H", "1S", "1NT"].contains(&c.as_str())),
            "{l:?}"
        );
        assert_eq!(l[2], "2C");
        assert!(l.contains(&"7NT".to_string()));
        assert_eq!(l[l.len() - 3..], ["AP", "*", "+"]);
        assert_eq!(l.len(), 2 + 30 + 3);
        insta::assert_snapshot!(summary(&text));
        // After `1NT Pass` South, the 1NT bidder's partner, is on turn: no
        // double of his own side's bid.
        let l = labels(&format!("{HEAD}[Auction \"N\"]\n1NT Pass |\n"));
        assert_eq!(l[..2], ["Pass", "2C"]);
        assert!(!l.contains(&"X".to_string()) && !l.contains(&"XX".to_string()));
    }

    #[test]
    fn auction_completion_replaces_the_word_being_typed() {
        // The calls before the word: only 1NT (North); East is on turn.
        insta::assert_snapshot!(summary(&format!("{HEAD}[Auction \"N\"]\n1NT 2|\n")).lines().take(4).collect::<Vec<_>>().join("\n"), @r#"
        Pass   "East" replaces "2" with "Pass"
        X      "East" replaces "2" with "X"
        2C     "East" replaces "2" with "2C"
        2D     "East" replaces "2" with "2D"
        "#);
        // Redouble only for the doubled side; after the end, nothing.
        let l = labels(&format!("{HEAD}[Auction \"N\"]\n1C X |\n"));
        assert_eq!(l[..3], ["Pass", "XX", "1D"]);
        assert!(labels(&format!("{HEAD}[Auction \"N\"]\n1C Pass Pass Pass |\n")).is_empty());
        assert!(labels(&format!("{HEAD}[Auction \"N\"]\n1C + |\n")).is_empty());
        // In the middle of the auction: the calls at that point, without the
        // tokens that end the section.
        let l = labels(&format!("{HEAD}[Auction \"N\"]\n1C | 1S AP\n"));
        assert_eq!(l[..3], ["Pass", "X", "1D"]);
        assert!(!l.contains(&"AP".to_string()) && !l.contains(&"*".to_string()));
        // Not glued to an annotation.
        assert!(labels(&format!("{HEAD}[Auction \"N\"]\n1C !|\n")).is_empty());
    }

    #[test]
    fn auction_before_the_dealer_offers_a_dash() {
        insta::assert_snapshot!(summary(&format!("{HEAD}[Auction \"W\"]\n|\n")), @r#"-      "West: not yet on turn, before the dealer (§3.5)" replaces "" with "-""#);
        assert_eq!(
            labels(&format!("{HEAD}[Auction \"W\"]\n- |\n"))[..3],
            ["Pass", "1C", "1D"]
        );
    }

    #[test]
    fn play_offers_only_cards_following_suit() {
        // 1NT by North, East leads the SQ: South must follow in spades.
        let text = format!("{HEAD}[Declarer \"N\"]\n[Contract \"1NT\"]\n[Auction \"N\"]\n1NT AP\n[Play \"E\"]\nSQ |\n");
        insta::assert_snapshot!(summary(&text), @r#"
        S8     "South" replaces "" with "S8"
        S7     "South" replaces "" with "S7"
        S6     "South" replaces "" with "S6"
        S5     "South" replaces "" with "S5"
        "#);
        // West holds a single spade: he must play it.
        assert_eq!(labels(&format!("{HEAD}[Declarer \"N\"]\n[Contract \"1NT\"]\n[Auction \"N\"]\n1NT AP\n[Play \"E\"]\nSQ S5 |\n")), ["S4"]);
        // Opening lead: any card of East.
        assert_eq!(labels(&format!("{HEAD}[Declarer \"N\"]\n[Contract \"1NT\"]\n[Auction \"N\"]\n1NT AP\n[Play \"E\"]\n|\n")).len(), 13);
    }

    #[test]
    fn play_offers_the_cards_of_the_columns_seat() {
        // North wins the first trick with the SA and leads the second, but
        // the second line's first column is still East's (§3.6).
        let play = format!("{HEAD}[Declarer \"N\"]\n[Contract \"1NT\"]\n[Auction \"N\"]\n1NT AP\n[Play \"E\"]\nSQ S5 S4 SA\n");
        let (_, r) = complete(&format!("{play}|\n"));
        let all = items(&r);
        assert_eq!(all.len(), 12);
        assert!(all.iter().all(|i| i.detail.as_deref() == Some("East")));
        let l: Vec<_> = all.iter().map(|i| i.label.as_str()).collect();
        assert!(l.contains(&"SJ") && !l.contains(&"SK"), "{l:?}");
        // South's column next: any card of his, the lead (North's, in the
        // last column) not known yet.
        let l = labels(&format!("{play}SJ |\n"));
        assert_eq!(l.len(), 12);
        assert!(
            l.iter().any(|c| c == "S8") && l.iter().any(|c| c == "HT"),
            "{l:?}"
        );
        // North's column: he leads; any card of his.
        assert!(labels(&format!("{play}SJ S8 H7 |\n")).contains(&"HK".to_string()));
    }

    #[test]
    fn tag_names_after_bracket() {
        let (_, r) = complete("[Event \"x\"]\n[|");
        let all = items(&r);
        assert_eq!(all.len(), spec::tags::DOCS.len());
        insta::assert_json_snapshot!(all[..2]);
        // On a partly typed name, the whole name is replaced.
        insta::assert_snapshot!(summary("[Event \"x\"]\n[ Dea|ler \"N\"]\n").lines().nth(8).unwrap(), @r#"Dealer "PBN tag (§3.4.9)" replaces "Dealer" with "Dealer""#);
        // Not in a comment, not in a value.
        assert!(labels("{ [|").is_empty());
        assert!(labels("[Event \"x\"] ; [|\n").is_empty());
        assert!(labels("[Event \"a [|\"]\n").is_empty());
    }

    #[test]
    fn enumerated_values() {
        insta::assert_snapshot!(summary("[Dealer \"|\"]\n"), @r#"
        W      "West" replaces "" with "W"
        N      "North" replaces "" with "N"
        E      "East" replaces "" with "E"
        S      "South" replaces "" with "S"
        "#);
        insta::assert_snapshot!(summary("[Vulnerable \"N|S\"]\n"), @r#"
        None   "no vulnerability (also Love, -)" replaces "NS" with "None"
        NS     "North-South vulnerable" replaces "NS" with "NS"
        EW     "East-West vulnerable" replaces "NS" with "EW"
        All    "both sides vulnerable (also Both)" replaces "NS" with "All"
        "#);
        // While typing, before the closing quote.
        assert_eq!(labels("[Room \"O|\n"), ["Open", "Closed"]);
        assert_eq!(labels("[FrenchMP \"|\"]"), ["Yes", "No"]);
        let contract = labels("[Contract \"|\"]\n");
        assert_eq!(contract.len(), 1 + 35 * 3);
        assert_eq!(contract[..4], ["Pass", "1C", "1CX", "1CXX"]);
        assert_eq!(contract.last().unwrap(), "7NTXX");
        // Scoring: the field at the cursor.
        let s = summary("[Scoring \"IMP; Cr|oss\"]\n");
        assert!(
            s.contains(r#"Butler "modifier" replaces "Cross" with "Butler""#),
            "{s}"
        );
        assert!(
            s.starts_with(r#"MP     "basic scoring system" replaces "Cross" with "MP""#),
            "{s}"
        );
        // Open lists and free text.
        assert_eq!(labels("[Mode \"|\"]"), ["EM", "IBS", "OKB", "TABLE", "TC"]);
        assert!(labels("[Event \"|\"]").is_empty());
        assert!(labels("[Event \"x\"]|").is_empty());
    }

    #[test]
    fn note_numbers_after_equals() {
        let text = format!("{HEAD}[Auction \"N\"]\n1NT =1= 2C =|\n[Note \"1:15-17\"]\n[Note \"3:Stayman\"]\n[Play \"E\"]\nS2 =1=\n[Note \"1:fourth best\"]\n");
        insta::assert_snapshot!(summary(&text), @r#"
        1      "15-17" replaces "" with "1="
        3      "Stayman" replaces "" with "3="
        2      "a new note: add [Note \"2:…\"] after the section (§3.5.5, §3.6.5)" replaces "" with "2="
        "#);
        // With the closing `=` already there, only the number is written.
        let text = format!("{HEAD}[Auction \"N\"]\n1NT =1= 2C =|=\n[Note \"1:15-17\"]\n");
        assert_eq!(
            summary(&text).lines().next().unwrap(),
            r#"1      "15-17" replaces "" with "1""#
        );
        // Right after a complete reference: nothing.
        assert!(labels(&format!(
            "{HEAD}[Auction \"N\"]\n1NT =1=|\n[Note \"1:15-17\"]\n"
        ))
        .is_empty());
        // In the play section: the play's notes.
        let text = format!("{HEAD}[Auction \"N\"]\n1NT AP\n[Note \"1:15-17\"]\n[Play \"E\"]\nS2 =|\n[Note \"1:fourth best\"]\n");
        assert_eq!(labels(&text), ["1", "2"]);
    }

    #[test]
    fn nothing_outside_sections_or_in_comments() {
        assert!(labels("[Event \"x\"]\n|").is_empty());
        assert!(labels(&format!("{HEAD}[Auction \"N\"]\n1NT {{ a |\n")).is_empty());
        // After a game break, the auction of the previous game is over.
        assert!(labels(&format!("{HEAD}[Auction \"N\"]\n1NT\n\n|")).is_empty());
    }

    #[test]
    fn capabilities() {
        let mut caps = ServerCapabilities::default();
        register(&mut caps);
        insta::assert_json_snapshot!(caps, @r#"
        {
          "completionProvider": {
            "triggerCharacters": [
              "[",
              "\"",
              "=",
              " "
            ]
          }
        }
        "#);
    }
}
