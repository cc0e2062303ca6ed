//! `textDocument/hover`: Markdown for the token under the cursor.
//!
//! - NAGs (`$n`) and suffixes (`!` … `?!`): the NAG and its meaning (§3.7);
//!   a suffix is $1-$6 after a call, $7-$12 after a card (§3.5.3, §3.6.3).
//! - Note references (`=n=`): the text of the `[Note "n:…"]` of the same
//!   section of the same game (§3.5.5, §3.6.5).
//! - Irregularity marks (`^I` `^S` `^R` `^L`, §3.9).
//! - Tag names: the tag's description and section; for `#`/`##` values the
//!   inherited value and where it comes from (§4.8).
//! - The Deal value: a diagram of the hands around a compass, with HCP and
//!   shape per hand (§3.4.11; only the known hands of a partial deal).
//! - The Contract and Result values: contract, declarer, tricks and the
//!   duplicate score at the game's vulnerability.
//! - Calls: who made it and where in the auction, and the text of its
//!   `=n=` notes; cards: who played it, in which trick, who led and who won
//!   that trick, and double dummy what the card cost and which cards would
//!   have kept the tricks (from the server's solver, "solving…" until it
//!   is done).
//! - Under the Deal's double-dummy table: the opening leads, with the
//!   tricks of the leader's side after each.
//! - Score, OptimumScore and DoubleDummyTricks (as a table) with what the
//!   contract and result, or the solver once the deal is solved, say; the
//!   Auction value: the first call's seat and the final contract.
//! - Table cells (any section whose tag value is a column spec, §5.2): row,
//!   column, what the column holds, and what the row's contract, declarer
//!   and tricks score ("3S by N, 9 tricks → NS +140").
//! - Application tags (Bridge Composer's DoubleDummyTricks…): the program
//!   and what the tag holds.

use crate::lsp::snapshot::Snapshot;
use contract_bridge::{Hand, Rank};
use pbn_core::bridge::{self, seat_name, Seat, Strain, Suit};
use pbn_core::model::typed::{typed, TokenReading, TypedGame};
use pbn_core::model::values::{self, ContractValue};
use pbn_core::model::{CallToken, CardToken, Game, Inherit, Tag, TagRole};
use pbn_core::spec::{self, sections, sections::Section};
use std::ops::Range as ByteRange;
use tower_lsp_server::ls_types::*;
use tree_sitter::Node;

pub fn register(caps: &mut ServerCapabilities) {
    caps.hover_provider = Some(HoverProviderCapability::Simple(true));
}

pub fn hover(snap: &Snapshot, params: HoverParams) -> Option<Hover> {
    let conv = snap.converter();
    let offset = conv.offset(params.text_document_position_params.position);
    let trees = snap.piece_trees_at(offset);
    let root = pbn_core::syntax::root_at(&trees, offset);
    // The token at the cursor, else the one just before it (cursor at the
    // end of a token).
    let mut tried = None;
    for at in [Some(offset), offset.checked_sub(1)].into_iter().flatten() {
        let Some(node) = root.descendant_for_byte_range(at, at) else {
            continue;
        };
        if tried == Some(node.id()) {
            continue;
        }
        tried = Some(node.id());
        if let Some((value, range)) = hover_node(snap, node, offset) {
            return Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                }),
                range: Some(conv.range(range)),
            });
        }
    }
    None
}

/// Which section a node is in (`None`: outside the auction and play).
fn section_of(node: Node<'_>) -> Option<Section> {
    let mut n = node.parent();
    while let Some(p) = n {
        match p.kind() {
            "auction_section" => return Some(Section::Auction),
            "play_section" => return Some(Section::Play),
            "game" | "document" => return None,
            _ => n = p.parent(),
        }
    }
    None
}

/// The hover of `node`, the token at or just before the cursor `offset`.
fn hover_node(
    snap: &Snapshot,
    node: Node<'_>,
    offset: usize,
) -> Option<(String, ByteRange<usize>)> {
    let mut range = node.byte_range();
    if node.is_missing() || range.is_empty() {
        return None;
    }
    if matches!(node.kind(), "cards" | "calls") {
        // A run of card (call) tokens (§3.6.1, §3.5.1): the one under the
        // cursor, else the one that ends at it.
        let cells: Vec<_> =
            pbn_core::syntax::section_cells(&snap.source.text, range.clone()).collect();
        range = cells
            .iter()
            .find(|c| c.contains(&offset))
            .or_else(|| cells.iter().find(|c| c.end == offset))
            .cloned()?;
    }
    let text = &snap.source.text[range.clone()];
    let game = snap.game_at(range.start);
    let md = match node.kind() {
        "nag" => nag_hover(text, section_of(node)),
        "suffix" => suffix_hover(text, section_of(node)),
        "note_ref" => note_hover(snap, game?, text, section_of(node)),
        "irregularity" => match section_of(node) {
            Some(Section::Auction) if text[1..].eq_ignore_ascii_case("S") => {
                call_hover(snap, game?, range.start)
            }
            _ => irregularity_hover(text),
        },
        "tag_name" => tag_name_hover(snap, game?, range.start, text),
        "section_token" | "string"
            if node
                .parent()
                .is_some_and(|p| p.kind() == "supplemental_section") =>
        {
            let (md, cell) = table_cell_hover(snap, game?, offset)?;
            range = cell;
            Some(md)
        }
        "string" | "unquoted_value" | "unterminated_string"
            if node.parent().is_some_and(|p| p.kind() == "tag_pair") =>
        {
            value_hover(snap, game?, range.start)
        }
        "calls" | "cards" | "continuation" | "terminator" => match section_of(node) {
            Some(Section::Auction) => call_hover(snap, game?, range.start),
            Some(Section::Play) => card_hover(snap, game?, range.start),
            None => None,
        },
        _ => None,
    }?;
    Some((md, range))
}

// ---- annotations --------------------------------------------------------

fn nag_hover(text: &str, section: Option<Section>) -> Option<String> {
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

fn suffix_hover(text: &str, section: Option<Section>) -> Option<String> {
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

fn note_hover(
    snap: &Snapshot,
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
            let line = snap.converter().position(at).line + 1;
            format!("**Note {n}** ({what}, line {line}):\n\n{}", note.text)
        }
        None => format!("**Note {n}**: no note {n} in this {what} section (a `[Note \"{n}:…\"]` after the {}, {sec})", if section == Section::Play { "cards" } else { "calls" }),
    })
}

/// Note `n` among the Note tags `notes` (indexes into the game's tags) and
/// where its tag starts.
fn find_note(notes: &[usize], game: &Game, n: u32) -> Option<(values::note::Note, usize)> {
    notes
        .iter()
        .filter_map(|&i| game.tags.get(i))
        .find_map(|t| {
            let note = values::parse_note(&t.value.as_ref()?.raw).value?;
            (note.index as u32 == n).then_some((note, t.range.start))
        })
}

/// The text of each note a call refers to with `=n=` (§3.5.4-5).
fn call_notes(game: &Game, post: &[pbn_core::model::Annotation]) -> String {
    let notes = game.auction.as_ref().map_or(&[][..], |a| &a.notes[..]);
    let mut md = String::new();
    for a in post {
        if let pbn_core::model::AnnotationKind::NoteRef(Some(n)) = a.kind {
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
fn note_tag_hover(snap: &Snapshot, game: &Game, tag: &Tag) -> Option<String> {
    let note = values::parse_note(&tag.value.as_ref()?.raw).value?;
    let n = note.index as u32;
    let text = &snap.source.text;
    let conv = snap.converter();
    let refers = |post: &[pbn_core::model::Annotation]| {
        post.iter()
            .any(|a| a.kind == pbn_core::model::AnnotationKind::NoteRef(Some(n)))
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
        .map(|(tok, at)| format!("`{tok}` (line {})", conv.position(*at).line + 1))
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

fn irregularity_hover(text: &str) -> Option<String> {
    let letter = text[1..].chars().next()?;
    Some(match sections::irregularity_meaning(letter) {
        Some(doc) => format!("**`^{}`**: {doc} (§3.9)", letter.to_ascii_uppercase()),
        None => {
            format!("**`{text}`**: not an irregularity — PBN has `^I`, `^S`, `^R` and `^L` (§3.9)")
        }
    })
}

// ---- tags ---------------------------------------------------------------

fn tag_name_hover(snap: &Snapshot, game: &Game, at: usize, name: &str) -> Option<String> {
    let tag = game.tags.iter().find(|t| t.name_range.start == at);
    let mut md = match (spec::tags::doc(name), spec::tags::vendor(name)) {
        (Some((sec, desc)), _) => format!("**{name}** ({sec})\n\n{desc}"),
        (None, Some((app, desc))) => {
            format!("**{name}**: an application tag ({app}), not part of PBN 2.1 (§4.9)\n\n{desc}")
        }
        (None, None) => format!(
            "**{name}**: not a tag of PBN 2.1 (unknown tags are skipped by PBN parsers, §4.9)"
        ),
    };
    if let Some(tag) = tag {
        match tag.role {
            TagRole::AuctionNote => md.push_str("\n\nA note of the auction section (§3.5.5)."),
            TagRole::PlayNote => md.push_str("\n\nA note of the play section (§3.6.5)."),
            _ => {}
        }
        if let Some(inh) = inheritance(snap, tag) {
            md.push_str("\n\n");
            md.push_str(&inh);
        }
    }
    Some(md)
}

/// The inherited value of a `#`/`##` tag and its source (§4.8).
fn inheritance(snap: &Snapshot, tag: &Tag) -> Option<String> {
    match &tag.inherit {
        Inherit::None => None,
        Inherit::Header => {
            let text = tag.header_text().unwrap_or("");
            Some(format!("`##`: the value {text:?} here and in all following games that do not have the tag (§4.8)"))
        }
        Inherit::Previous => Some(match tag.resolved.as_deref() {
            Some((value, Some(src))) => {
                let g = snap.game(src.game)?;
                let t = g.tags.get(src.tag)?;
                let line = snap.converter().position(t.range.start).line + 1;
                let board = g
                    .value("Board")
                    .filter(|b| !b.is_empty() && *b != "?")
                    .map(|b| format!(", Board {b}"))
                    .unwrap_or_default();
                let how = if matches!(t.inherit, Inherit::Header) {
                    " (a `##` value)"
                } else {
                    ""
                };
                format!(
                    "`#`: inherits {value:?} from game {}{board}, line {line}{how} (§4.8)",
                    src.game + 1
                )
            }
            _ => "`#`: no previous game has this tag, so the value is \"\" (§4.8)".to_owned(),
        }),
    }
}

fn value_hover(snap: &Snapshot, game: &Game, at: usize) -> Option<String> {
    let tag = game.tags.iter().find(|t| {
        t.value
            .as_ref()
            .is_some_and(|v| v.range.start <= at + 1 && at <= v.range.end)
    })?;
    // Only the first tag of a name counts (§3.4); Notes are all distinct.
    let first = game.tag(&tag.name).is_some_and(|f| std::ptr::eq(f, tag));
    let mut md = match tag.name.as_str() {
        "Deal" => tag
            .effective()
            .and_then(|v| values::parse_deal(v).value)
            .map(|d| {
                let mut md = deal_diagram(snap, game, &d);
                if let Some(dd) = dd_section(snap, game) {
                    md.push_str("\n\n");
                    md.push_str(&dd);
                }
                if let Some(leads) = leads_section(snap, game) {
                    md.push_str("\n\n");
                    md.push_str(&leads);
                }
                md
            }),
        "Contract" | "Result" if first => score_hover(&typed(&snap.source.text, game)),
        "Score" if first => score_tag_hover(&typed(&snap.source.text, game), tag),
        "OptimumScore" if first => optimum_score_hover(snap, game, tag),
        "DoubleDummyTricks" if first => dd_tricks_hover(snap, game, tag),
        "Auction" => auction_value_hover(&typed(&snap.source.text, game)),
        "Note" => note_tag_hover(snap, game, tag),
        _ => None,
    };
    if let Some(inh) = inheritance(snap, tag) {
        let s = md.get_or_insert_with(String::new);
        if !s.is_empty() {
            s.push_str("\n\n");
        }
        s.push_str(&inh);
    }
    md
}

// ---- the Deal -----------------------------------------------------------

fn suit_symbol(s: Suit) -> char {
    match s {
        Suit::Spades => '♠',
        Suit::Hearts => '♥',
        Suit::Diamonds => '♦',
        Suit::Clubs => '♣',
    }
}

/// High card points (4-3-2-1).
pub(crate) fn hcp(hand: Hand) -> u32 {
    Suit::ASC
        .into_iter()
        .map(|s| contract_bridge::eval::hcp::<u32>(hand[s]))
        .sum()
}

/// The deal as the hand-record renderer draws it
/// ([`pbn_core::render::markdown::deal`]): board, dealer and vulnerability in
/// the title, then North on top, West left, East right, South at the bottom
/// around a compass with each hand's HCP; hands not given are left out.
fn deal_diagram(snap: &Snapshot, game: &Game, deal: &values::Deal) -> String {
    let mut r = pbn_core::render::record(&snap.source.text, game);
    // The hovered value (a later duplicate or a `#` value) is what is drawn.
    r.hands = pbn_core::render::hand_views(deal);
    r.end_position = deal
        .is_end_position
        .then(|| deal.card_counts.iter().copied().max().unwrap_or(0));
    pbn_core::render::markdown::deal(&r)
}

/// The double-dummy table and par under the diagram, from the server's
/// solver ([`crate::lsp::dd`]): never waits; "solving…" until the deal is
/// solved (the next hover shows it). Nothing for a deal with hands not
/// given; par only for a full deal (not an end position, §3.10).
fn dd_section(snap: &Snapshot, game: &Game) -> Option<String> {
    use crate::lsp::dd::{service, Lookup};
    use pbn_core::dd::{DdError, DECLARERS, STRAINS};
    let p = pbn_core::dd::verify::Position::of(game)?;
    if p.hands.iter().any(Option::is_none) {
        return None;
    }
    let solved = match service().lookup(&p, &snap.staleness()) {
        Lookup::Solving => return Some("*Double dummy: solving…*".into()),
        Lookup::Ready(r) => r,
    };
    let (table, par) = match solved.as_ref() {
        Err(DdError::MissingHand(_)) => return None,
        Err(e) => return Some(format!("*Double dummy: not solved ({e}).*")),
        Ok(r) => r,
    };
    let mut md = String::from("**Double dummy** (tricks by declarer)\n\n| |");
    for strain in STRAINS {
        match strain {
            Strain::Notrump => md.push_str(" NT |"),
            s => md.push_str(&format!(" {} |", s.suit().map_or('?', suit_symbol))),
        }
    }
    md.push_str("\n|---|---:|---:|---:|---:|---:|");
    for seat in DECLARERS {
        md.push_str(&format!("\n| {} |", seat.letter()));
        for strain in STRAINS {
            md.push_str(&format!(" {} |", table.get(strain, seat)));
        }
    }
    let full = p.hands.iter().flatten().all(|h| h.len() == 13);
    if full {
        md.push_str("\n\n**Par:** ");
        if par.contracts.is_empty() {
            md.push_str("all pass, 0");
        } else {
            md.push_str(&format!(
                "{} ({})",
                par.par_contracts().join(", "),
                side_score(par.score_ns)
            ));
        }
    }
    Some(md)
}

// ---- Contract and Result ------------------------------------------------

fn strain_word(s: Strain) -> &'static str {
    match s {
        Strain::Clubs => "clubs",
        Strain::Diamonds => "diamonds",
        Strain::Hearts => "hearts",
        Strain::Spades => "spades",
        Strain::Notrump => "notrump",
    }
}

/// "NS +420" / "EW +200" (the side that scores).
fn side_score(ns: i32) -> String {
    if ns >= 0 {
        format!("NS +{ns}")
    } else {
        format!("EW +{}", -ns)
    }
}

fn score_hover(t: &TypedGame) -> Option<String> {
    let contract = t.contract.as_ref()?;
    let c = match contract.value {
        ContractValue::Pass => {
            return Some("**Pass**: all four players passed; no score (§3.4.14)".into())
        }
        ContractValue::Empty => return None,
        ContractValue::EndPosition(s) => {
            return Some(format!(
                "**End position** (§3.10): {} {}",
                strain_word(s),
                if s == Strain::Notrump {
                    "(no trump)"
                } else {
                    "are trumps"
                }
            ))
        }
        ContractValue::Contract(c) => c,
    };
    let form = contract.export_form();
    let declarer =
        t.declarer
            .and_then(|d| d.seat)
            .or_else(|| match t.auction.as_ref()?.contract? {
                bridge::FinalContract::Contract { declarer, .. } => Some(declarer),
                bridge::FinalContract::PassedOut => None,
            });
    let Some(declarer) = declarer else {
        return Some(format!("**{form}**: declarer unknown, so no score"));
    };
    let ns = bridge::is_north_south(declarer);
    let mut tricks_from = "";
    let tricks = t
        .result
        .and_then(|r| r.tricks)
        .and_then(|r| r.for_declarer(ns))
        .or_else(|| {
            let p = t.play.as_ref()?;
            tricks_from = " (from the play)";
            p.complete.then_some(p.declarer_tricks).flatten()
        });
    let (vul, vul_from) = match (t.vulnerable, t.board) {
        (Some(v), _) => (Some(v.vulnerability), String::new()),
        (None, Some(b)) => (
            Some(bridge::board_vulnerability(b)),
            format!(" (from Board {b})"),
        ),
        (None, None) => (None, String::new()),
    };
    let head = format!("**{form} by {}**", declarer.letter());
    let Some(vul) = vul else {
        return Some(format!("{head}: vulnerability unknown, so no score"));
    };
    let vul_text = format!(
        "{}vulnerable{vul_from}",
        if bridge::is_vulnerable(vul, declarer) {
            ""
        } else {
            "not "
        },
    );
    let needed = c.bid.level.get() + 6;
    let mut md = match tricks {
        Some(n) => {
            let diff = n as i32 - needed as i32;
            let how = match diff {
                0 => "=".to_owned(),
                d if d > 0 => format!("+{d}"),
                d => format!("down {}", -d),
            };
            let score = bridge::duplicate_score(c, declarer, n, vul);
            format!(
                "{head} making {n} tricks{tricks_from} ({how}), {vul_text}: **{}**",
                side_score(score)
            )
        }
        None => {
            let score = bridge::duplicate_score(c, declarer, needed, vul);
            format!(
                "{head}, {vul_text}; tricks unknown (made exactly: {})",
                side_score(score)
            )
        }
    };
    md.push_str(&format!(
        "\n\nVulnerable: {}",
        bridge::vulnerability_name(vul)
    ));
    if t.result.is_some_and(|r| r.differs_from_actual) {
        md.push_str(" · the Result differs from the tricks actually won (`^`, §3.4.15)");
    }
    let score_tag = t.score.and_then(|s| match s {
        values::SideScores::Declarer(v) => Some(if ns { v } else { -v }),
        values::SideScores::Sides { ns, ew, .. } => ns.or(ew.map(|v| -v)),
    });
    if let Some(s) = score_tag {
        md.push_str(&format!(
            " · Score tag: {}",
            side_score(s.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
        ));
    }
    Some(md)
}

// ---- scores, double-dummy values, the auction, table cells ---------------

/// What the game's Contract, Declarer, Result and vulnerability make: the
/// contract, its declarer, the tricks and the score for NS.
fn outcome(t: &TypedGame) -> Option<(contract_bridge::Contract, Seat, u8, i32)> {
    let ContractValue::Contract(c) = t.contract.as_ref()?.value else {
        return None;
    };
    let declarer =
        t.declarer
            .and_then(|d| d.seat)
            .or_else(|| match t.auction.as_ref()?.contract? {
                bridge::FinalContract::Contract { declarer, .. } => Some(declarer),
                bridge::FinalContract::PassedOut => None,
            })?;
    let tricks = t
        .result?
        .tricks?
        .for_declarer(bridge::is_north_south(declarer))?;
    let vul = t
        .vulnerable
        .map(|v| v.vulnerability)
        .or_else(|| t.board.map(bridge::board_vulnerability))?;
    Some((
        c,
        declarer,
        tricks,
        bridge::duplicate_score(c, declarer, tricks, vul),
    ))
}

/// The Score tag (§4.2.1): the points for each side, and whether the
/// contract, declarer and result give them.
fn score_tag_hover(t: &TypedGame, tag: &Tag) -> Option<String> {
    let v = values::parse_score(&tag.value.as_ref()?.raw).value?;
    let played = outcome(t);
    let ns = match v {
        values::SideScores::Declarer(x) => {
            played.map(|(_, d, _, _)| if bridge::is_north_south(d) { x } else { -x })
        }
        values::SideScores::Sides { ns, ew, .. } => ns.or(ew.map(|x| -x)),
    };
    let mut md = match ns {
        Some(ns) => format!(
            "**Score**: {} (§4.2.1)",
            side_score(ns.clamp(-99_999, 99_999) as i32)
        ),
        None => "**Score**: for declarer, who is unknown (§4.2.1)".to_owned(),
    };
    if let Some((c, d, n, score)) = played {
        let agrees = if ns == Some(i64::from(score)) {
            "agrees"
        } else {
            "differs"
        };
        md.push_str(&format!(
            "\n\n{} by {}, {n} tricks → {}: the Score {agrees}",
            bridge::contract_text(c),
            d.letter(),
            side_score(score)
        ));
    }
    Some(md)
}

/// The solved table and par of a game's deal when the solver has them
/// already (never waits: the Deal hover or the background solving asks).
fn solved(snap: &Snapshot, game: &Game) -> Option<(pbn_core::dd::DdTable, pbn_core::dd::Par)> {
    use crate::lsp::dd::{service, Lookup};
    let p = pbn_core::dd::verify::Position::of(game)?;
    if p.hands.iter().any(Option::is_none) {
        return None;
    }
    match service().lookup(&p, &snap.staleness()) {
        Lookup::Ready(r) => r.as_ref().as_ref().ok().cloned(),
        Lookup::Solving => None,
    }
}

/// OptimumScore (§4.2.7): the double-dummy score, and the solver's when
/// the deal is solved.
fn optimum_score_hover(snap: &Snapshot, game: &Game, tag: &Tag) -> Option<String> {
    let v = values::parse_optimum_score(&tag.value.as_ref()?.raw).value?;
    let ns = match v {
        values::SideScores::Sides { ns, ew, .. } => ns.or(ew.map(|x| -x)),
        values::SideScores::Declarer(_) => None,
    };
    let mut md = match ns {
        Some(ns) => format!(
            "**OptimumScore**: {} with double-dummy play by both sides (§4.2.7)",
            side_score(ns.clamp(-99_999, 99_999) as i32)
        ),
        None => "**OptimumScore**: the double-dummy score, side not given (§4.2.7)".to_owned(),
    };
    if let Some((_, par)) = solved(snap, game) {
        let verdict = if ns == Some(i64::from(par.score_ns)) {
            "agrees"
        } else {
            "differs"
        };
        md.push_str(&format!(
            "\n\nSolver: par {} ({}): the value {verdict}",
            par.par_contracts().join(", "),
            side_score(par.score_ns)
        ));
    }
    Some(md)
}

/// DoubleDummyTricks (Bridge Composer): its 20 digits as a table, the
/// solver's verdict when the deal is solved.
fn dd_tricks_hover(snap: &Snapshot, game: &Game, tag: &Tag) -> Option<String> {
    use pbn_core::dd::{DECLARERS, STRAINS};
    let raw = tag.value.as_ref()?.raw.as_str();
    let digits: Vec<u32> = raw.chars().filter_map(|c| c.to_digit(16)).collect();
    if digits.len() != 20 || raw.chars().count() != 20 {
        return Some(format!(
            "**DoubleDummyTricks**: 20 hexadecimal digits (tricks for declarer N, S, E, W, each in NT, S, H, D, C), not {raw:?}"
        ));
    }
    let table = solved(snap, game).map(|(t, _)| t);
    let mut md = String::from("**DoubleDummyTricks** (Bridge Composer): tricks by declarer\n\n| |");
    for strain in STRAINS {
        md.push_str(&format!(" {} |", bridge::strain_text(strain)));
    }
    md.push_str("\n|---|---:|---:|---:|---:|---:|");
    let mut wrong = Vec::new();
    for (i, seat) in DECLARERS.into_iter().enumerate() {
        md.push_str(&format!("\n| {} |", seat.letter()));
        for (j, strain) in STRAINS.into_iter().enumerate() {
            let stated = digits[i * 5 + j];
            md.push_str(&format!(" {stated} |"));
            if let Some(t) = &table {
                let real = u32::from(t.get(strain, seat));
                if real != stated {
                    wrong.push(format!(
                        "{} {}: {real}",
                        seat.letter(),
                        bridge::strain_text(strain)
                    ));
                }
            }
        }
    }
    match (&table, wrong.is_empty()) {
        (None, _) => {}
        (Some(_), true) => md.push_str("\n\nSolver: every count agrees."),
        (Some(_), false) => md.push_str(&format!("\n\nSolver differs: {}", wrong.join(", "))),
    }
    Some(md)
}

/// The Auction tag's value (§3.5): who calls first, and where the auction
/// ends.
fn auction_value_hover(t: &TypedGame) -> Option<String> {
    let a = t.auction.as_ref()?;
    let first = a.seats.iter().flatten().next().copied().or(t.dealer)?;
    let mut md = format!(
        "**Auction**: the first call is {}'s (§3.5)",
        seat_name(first)
    );
    if let Some(d) = a.dealer {
        md.push_str(&format!("; the dealer is {}", seat_name(d)));
    }
    match a.contract {
        Some(bridge::FinalContract::Contract { contract, declarer }) => md.push_str(&format!(
            "\n\nFinal contract: **{} by {}**",
            bridge::contract_text(contract),
            declarer.letter()
        )),
        Some(bridge::FinalContract::PassedOut) => md.push_str("\n\nPassed out"),
        None => md.push_str("\n\nThe auction is not complete"),
    }
    Some(md)
}

/// What a column of a table holds (§5.3-§5.10), by its name.
fn column_meaning(name: &str) -> Option<&'static str> {
    Some(match name {
        "Rank" => "rank order of the score (best rank on a tie)",
        "PairId" | "PairId_NS" | "PairId_EW" => "pair identification",
        "Names" | "Names_NS" | "Names_EW" => "the names of the players",
        "Contract" => "the contract, as in the Contract tag",
        "Declarer" => "the declarer",
        "Denomination" => "the denomination",
        "Result" => "tricks won by declarer",
        "Score_NS" => "trick score of NS",
        "Score_EW" => "trick score of EW",
        "IMP_NS" => "IMP score of NS",
        "IMP_EW" => "IMP score of EW",
        "MP_NS" => "MatchPoints of NS",
        "MP_EW" => "MatchPoints of EW",
        "Percentage_NS" => "percentage score of NS",
        "Percentage_EW" => "percentage score of EW",
        "Multiplicity" => "the multiplicity of the score",
        "TotalScore" => "cumulative scores",
        "TotalIMP" => "cumulative IMPs",
        "TotalMP" => "cumulative MatchPoints",
        "TotalPercentage" => "cumulative percentage",
        "MeanScore" => "mean score",
        "MeanIMP" => "mean IMPs",
        "MeanMP" => "mean MatchPoints",
        "MeanPercentage" => "mean percentage",
        "NrBoards" => "the number of games played",
        _ => return None,
    })
}

/// A cell of a table (any section whose tag value is a column spec,
/// §5.2): its row and column, what the column holds, and what the row's
/// contract, declarer and tricks score at the game's vulnerability ("2S by
/// N, 8 tricks → NS +110").
fn table_cell_hover(
    snap: &Snapshot,
    game: &Game,
    offset: usize,
) -> Option<(String, ByteRange<usize>)> {
    let (s, k) = game.sections.iter().find_map(|s| {
        let k = s
            .elements
            .iter()
            .position(|e| e.range.contains(&offset))
            .or_else(|| s.elements.iter().position(|e| e.range.end == offset))?;
        Some((s, k))
    })?;
    let tag = game.tags.get(s.tag)?;
    let cols = values::layout_columns(&tag.name, &tag.value.as_ref()?.raw)?;
    let (row, c) = (k / cols.len(), k % cols.len());
    let cells = s.elements.get(row * cols.len()..(row + 1) * cols.len());
    let col = &cols[c];
    let e = &s.elements[k];
    let mut md = format!(
        "**{}** row {}, column `{}`: **{}**",
        tag.name,
        row + 1,
        col.name,
        e.text
    );
    if let Some(m) = column_meaning(&col.name) {
        md.push_str(&format!(" — {m}"));
    }
    if let Some(meaning) = cells.and_then(|cells| row_meaning(snap, game, &cols, cells)) {
        md.push_str("\n\n");
        md.push_str(&meaning);
    }
    Some((md, e.range.clone()))
}

/// What a table row's Contract (or Denomination), Declarer and Result
/// score: "4S by N, 10 tricks → NS +420"; a Denomination row (the
/// OptimumResultTable, §5.7) at the highest level the tricks make.
fn row_meaning(
    snap: &Snapshot,
    game: &Game,
    cols: &[values::Column],
    cells: &[pbn_core::model::Element],
) -> Option<String> {
    let cell = |name: &str| {
        cols.iter()
            .position(|c| c.name == name)
            .map(|i| cells[i].text.as_str())
    };
    let declarer = values::parse_declarer(cell("Declarer")?).value?.seat?;
    let tricks: u8 = cell("Result")?.parse().ok().filter(|n| *n <= 13)?;
    let contract = match (cell("Contract"), cell("Denomination")) {
        (Some(c), _) => match values::parse_contract(c).value?.value {
            ContractValue::Contract(c) => c,
            _ => return None,
        },
        (None, Some(d)) => contract_bridge::Contract {
            bid: contract_bridge::Bid {
                level: contract_bridge::Level::try_new(tricks.saturating_sub(6).max(1)).ok()?,
                strain: values::parse_denomination(d).value?,
            },
            penalty: contract_bridge::Penalty::Undoubled,
        },
        (None, None) => return None,
    };
    let t = typed(&snap.source.text, game);
    let vul = t
        .vulnerable
        .map(|v| v.vulnerability)
        .or_else(|| t.board.map(bridge::board_vulnerability))?;
    let score = bridge::duplicate_score(contract, declarer, tricks, vul);
    Some(format!(
        "{} by {}, {tricks} tricks → {} (vulnerable: {})",
        bridge::contract_text(contract),
        declarer.letter(),
        side_score(score),
        bridge::vulnerability_name(vul)
    ))
}

// ---- calls and cards ----------------------------------------------------

fn level_word(l: u8) -> &'static str {
    ["", "one", "two", "three", "four", "five", "six", "seven"]
        .get(l as usize)
        .copied()
        .unwrap_or("?")
}

fn rank_word(r: Rank) -> &'static str {
    match r.get() {
        14 => "ace",
        13 => "king",
        12 => "queen",
        11 => "jack",
        10 => "ten",
        9 => "nine",
        8 => "eight",
        7 => "seven",
        6 => "six",
        5 => "five",
        4 => "four",
        3 => "three",
        _ => "two",
    }
}

fn seat_or_unknown(s: Option<Seat>) -> &'static str {
    s.map_or("an unknown player", seat_name)
}

fn reading(readings: &[(usize, TokenReading)], k: usize) -> Option<&TokenReading> {
    readings.iter().find(|(i, _)| *i == k).map(|(_, r)| r)
}

fn call_hover(snap: &Snapshot, game: &Game, at: usize) -> Option<String> {
    let a = game.auction.as_ref()?;
    let k = a.entries.iter().position(|e| e.range.start == at)?;
    let e = &a.entries[k];
    let t = typed(&snap.source.text, game);
    let an = t.auction.as_ref();
    let seat = an.and_then(|x| x.seats.get(k).copied().flatten());
    let who = seat_or_unknown(seat);
    let text = &snap.source.text[e.range.clone()];
    let is_call = |tok: &CallToken| {
        matches!(
            tok,
            CallToken::Bid(_)
                | CallToken::Pass
                | CallToken::Double
                | CallToken::Redouble
                | CallToken::AllPass
                | CallToken::Invalid
        )
    };
    let number = a.entries[..k]
        .iter()
        .filter(|e| is_call(&e.token) && e.token != CallToken::AllPass)
        .count()
        + 1;
    let place = format!(
        "call {number} of the auction (round {})",
        (number - 1) / 4 + 1
    );
    let mut md = match e.token {
        CallToken::Bid(b) => {
            let level = b.level.get();
            let strain = match (level, b.strain) {
                (_, Strain::Notrump) => "notrump",
                (1, s) => strain_word(s).trim_end_matches('s'),
                (_, s) => strain_word(s),
            };
            format!("**{text}**: {who} bids {} {strain}, {place}", level_word(level))
        }
        CallToken::Pass => format!("**{text}**: {who} passes, {place}"),
        CallToken::Double => format!("**{text}**: {who} doubles, {place}"),
        CallToken::Redouble => format!("**{text}**: {who} redoubles, {place}"),
        CallToken::AllPass => {
            let n = pbn_core::model::all_pass_count(&a.entries[..k]);
            let seats: Vec<String> = match seat {
                Some(s) => (0..n).map(|i| bridge::rotate(s, i).letter().to_string()).collect(),
                None => Vec::new(),
            };
            let list = if seats.is_empty() { String::new() } else { format!(" ({})", seats.join(", ")) };
            format!("**{text}**: all remaining players pass — {n} pass{}{list}, from {place}", if n == 1 { "" } else { "es" })
        }
        CallToken::Dash => format!("**`-`**: not yet {who}'s turn — a player before the dealer (§3.5.1)"),
        CallToken::Skip => format!("**`^S`**: {who} was skipped by a call out of rotation (§3.9 B)"),
        CallToken::Continuation => format!("**`+`**: the next call, still to be made by {who} (§3.5)"),
        CallToken::Terminator => "**`*`**: no further calls will or can be given (§3.5)".to_owned(),
        CallToken::Invalid => match reading(&t.call_readings, k) {
            Some(TokenReading::Nonstandard { as_text }) => format!("**{text}**: read as `{as_text}`, by {who}, {place} — not a PBN call token (§3.5.1)"),
            _ => format!("**{text}**: not a call (§3.5.1); {who}'s turn"),
        },
    };
    if let Some(x) = an {
        if x.dealer.is_some() && x.dealer == seat && is_call(&e.token) && number == 1 {
            md.push_str(" · the dealer's opening call");
        }
        if x.end_index == Some(k) {
            match x.contract {
                Some(bridge::FinalContract::Contract { contract, declarer }) => {
                    md.push_str(&format!(
                        "\n\nEnds the auction: **{} by {}**",
                        bridge::contract_text(contract),
                        declarer.letter()
                    ))
                }
                Some(bridge::FinalContract::PassedOut) => {
                    md.push_str("\n\nEnds the auction: passed out")
                }
                None => {}
            }
        }
    }
    md.push_str(&call_notes(game, e.post()));
    Some(md)
}

fn card_hover(snap: &Snapshot, game: &Game, at: usize) -> Option<String> {
    let p = game.play.as_ref()?;
    let k = p.entries.iter().position(|e| e.range.start == at)?;
    let e = &p.entries[k];
    let t = typed(&snap.source.text, game);
    let an = t.play.as_ref();
    let seat = an.and_then(|x| x.seats.get(k).copied().flatten());
    let who = seat_or_unknown(seat);
    let text = &snap.source.text[e.range.clone()];
    let trick = an.and_then(|x| {
        x.tricks
            .iter()
            .enumerate()
            .find(|(_, tr)| tr.cards.contains(&Some(k)))
    });
    let mut md = match e.token {
        CardToken::Card(c) => format!(
            "**{}{}** ({} of {}), played by {who}",
            suit_symbol(c.suit),
            values::deal::rank_char(c.rank),
            rank_word(c.rank),
            strain_word(c.suit.into())
        ),
        CardToken::Dash => format!("**`-`**: {who}'s card, unknown or not played yet (§3.6)"),
        CardToken::Continuation => {
            format!("**`+`**: the next card, still to be played by {who} (§3.6)")
        }
        CardToken::Terminator => "**`*`**: no further cards will or can be given (§3.6)".to_owned(),
        CardToken::Invalid => match reading(&t.card_readings, k) {
            Some(TokenReading::Nonstandard { as_text }) => format!(
                "**{text}**: read as `{as_text}`, played by {who} — not a PBN card token (§3.6.1)"
            ),
            _ => format!("**{text}**: not a card (§3.6.1); {who}'s card"),
        },
    };
    if let Some((i, tr)) = trick {
        md.push_str(&format!("\n\nTrick {}", i + 1));
        match tr.leader {
            Some(l) if Some(l) == seat => md.push_str(&format!(": {} led", seat_name(l))),
            Some(l) => md.push_str(&format!(": led by {}", seat_name(l))),
            None => md.push_str(": leader unknown"),
        }
        match tr.winner {
            Some(w) => md.push_str(&format!(", won by **{}**", seat_name(w))),
            None if tr.complete => md.push_str(", winner unknown"),
            None => md.push_str(", not complete"),
        }
    }
    if let Some(dd) = card_dd(snap, game, &t, k) {
        md.push_str("\n\n");
        md.push_str(&dd);
    }
    Some(md)
}

// ---- double dummy: a card's cost, the opening leads ----------------------

/// What play entry `k` cost double dummy, from the server's solver (never
/// waits: "solving…" until the game's play is analysed; a hover puts its
/// game first): the tricks of the player's side before and after, and the
/// cards that would have kept them.
fn card_dd(snap: &Snapshot, game: &Game, t: &TypedGame, k: usize) -> Option<String> {
    use crate::lsp::dd::{service, Lookup};
    use pbn_core::dd::play::{line_of, PlayEnd};
    let line = line_of(&snap.source.text, game, t).ok()?;
    let Some(i) = line.items.iter().position(|&x| x == k) else {
        return match line.end {
            PlayEnd::Stopped { item, why } if item == k => Some(format!(
                "*Double dummy: the analysis stops at this card ({why}).*"
            )),
            _ => None,
        };
    };
    let report = match service().lookup_play(&line.trace, &snap.staleness(), true) {
        Lookup::Solving => return Some("*Double dummy: solving…*".into()),
        Lookup::Ready(r) => r,
    };
    let r = match report.as_ref() {
        Err(e) => return Some(format!("*Double dummy: not solved ({e}).*")),
        Ok(r) => r,
    };
    let (c, before, after) = (r.cards.get(i)?, *r.tricks.get(i)?, *r.tricks.get(i + 1)?);
    // The tricks are declarer's side's: the side not on lead at trick one.
    let total = line.trace.setup.tricks();
    let declarer_side = line.trace.setup.leader.lho();
    let mine = |n: u8| {
        if bridge::same_side(c.seat, declarer_side) {
            n
        } else {
            total.saturating_sub(n)
        }
    };
    let side = bridge::side_name(c.seat);
    if c.cost == 0 {
        return Some(format!(
            "**Double dummy:** costs nothing ({side} take {} trick(s))",
            mine(after)
        ));
    }
    let better: Vec<String> = c
        .better
        .iter()
        .map(|&b| pbn_core::render::card_text(b))
        .collect();
    Some(format!(
        "**Double dummy:** costs {} trick(s): {side} {} → {}. Would have kept them: {}",
        c.cost,
        mine(before),
        mine(after),
        better.join(" ")
    ))
}

/// The opening leads under the Deal's double-dummy table: the tricks of
/// the leader's side after each lead, from the server's solver (never
/// waits). Nothing for a game without a contract and opening leader, or
/// whose deal cannot be solved (the table says why).
fn leads_section(snap: &Snapshot, game: &Game) -> Option<String> {
    use crate::lsp::dd::{service, Lookup};
    let t = typed(&snap.source.text, game);
    let setup = pbn_core::dd::leads::setup_of(&t).ok()?;
    match service().lookup_leads(&setup, &snap.staleness()) {
        Lookup::Solving => Some("*Opening leads: solving…*".into()),
        Lookup::Ready(r) => match r.as_ref() {
            Ok(l) => Some(format!(
                "**Opening leads:** {}",
                pbn_core::render::leads_text(l)
            )),
            Err(e) => Some(format!("*Opening leads: not solved ({e}).*")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot as snap;
    use crate::lsp::snapshot::Snapshot;

    const DOC: &str = r###"[Event "Club"]
[Site "##Amsterdam"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQ2.K32.Q32.K32 JT98.AQJ.KJ4.J54 7654.T98.A98.AT9 3.7654.T765.Q876"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Foo "bar"]
[Auction "N"]
1S ! =1= 2H $2 2S 3H
4S AP
[Note "1:five+ spades"]
[Play "E"]
DK =2= DA D5 D2 $2
S8 S4 S3 SA
[Note "2:from KJ"]

[Event "#"]
[Site "Paris"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "N:AKQ2.K32.Q32.K32 - - 3.7654.T765.Q876"]
[Declarer "S"]
[Contract "1NTX"]
[Result "NS 5"]
[Auction "E"]
{🂡 é} Pass 1NT ?! =3= $255 X AP
"###;

    fn params(line: u32, character: u32) -> HoverParams {
        HoverParams {
            text_document_position_params: TextDocumentPositionParams {
                text_document: TextDocumentIdentifier {
                    uri: "file:///t.pbn".parse().unwrap(),
                },
                position: Position { line, character },
            },
            work_done_progress_params: Default::default(),
        }
    }

    /// Hovers the first occurrence of `needle` on line `line` (byte column,
    /// ASCII lines only), at its `k`-th character.
    fn at(s: &Snapshot, line: u32, needle: &str, k: u32) -> String {
        let l = s.source.text.lines().nth(line as usize).unwrap();
        let col = l
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} not on line {line}")) as u32;
        render(s, hover(s, params(line, col + k)))
    }

    fn render(s: &Snapshot, h: Option<Hover>) -> String {
        let Some(h) = h else { return "(none)".into() };
        let HoverContents::Markup(m) = h.contents else {
            panic!("not markup")
        };
        assert_eq!(m.kind, MarkupKind::Markdown);
        let r = h.range.unwrap();
        // The range covers exactly the hovered token.
        let conv = s.converter();
        let b = conv.byte_range(r);
        format!(
            "[{}:{}-{}:{}] `{}`\n{}",
            r.start.line,
            r.start.character,
            r.end.line,
            r.end.character,
            &s.source.text[b],
            m.value
        )
    }

    #[test]
    fn annotations() {
        let s = snap(DOC);
        insta::assert_snapshot!("nag_auction", at(&s, 11, "$2", 0));
        insta::assert_snapshot!("nag_play_misplaced", at(&s, 15, "$2", 1));
        insta::assert_snapshot!("suffix_auction", at(&s, 11, "!", 0));
        insta::assert_snapshot!("note_ref_auction", at(&s, 11, "=1=", 1));
        insta::assert_snapshot!("note_ref_play", at(&s, 15, "=2=", 0));
    }

    #[test]
    fn note_tag_lists_its_referrers() {
        let s = snap(DOC);
        insta::assert_snapshot!("note_tag_auction", at(&s, 13, "five", 0));
        insta::assert_snapshot!("note_tag_play", at(&s, 17, "2:from", 0));
        // A note nothing refers to, and one referred to twice.
        let s = snap("[Auction \"N\"]\n1C =1= 1D =1=\n2C =3= AP\n[Note \"1:both minors\"]\n[Note \"2:unused\"]\n");
        let used = at(&s, 3, "both", 0);
        assert!(
            used.contains("both minors") && used.contains("`1C` (line 2), `1D` (line 2)"),
            "{used}"
        );
        let unused = at(&s, 4, "unused", 0);
        assert!(
            unused.contains("No call refers to it: no `=2=`"),
            "{unused}"
        );
        // A Note tag that is not in an auction or play section: no hover.
        let s = snap("[Event \"x\"]\n[Note \"1:loose\"]\n");
        assert_eq!(at(&s, 1, "loose", 0), "(none)");
    }

    #[test]
    fn tags() {
        let s = snap(DOC);
        insta::assert_snapshot!("tag_name_event", at(&s, 0, "Event", 2));
        insta::assert_snapshot!("tag_name_unknown", at(&s, 9, "Foo", 0));
        insta::assert_snapshot!("tag_name_note", at(&s, 13, "Note", 0));
        insta::assert_snapshot!("tag_name_inherited", at(&s, 19, "Event", 0));
        insta::assert_snapshot!("tag_value_header", at(&s, 1, "##", 0));
        // The double-dummy part depends on whether the server's solver
        // has finished (`tests/tests/lsp_dd.rs` tests it): the diagram only.
        let deal = at(&s, 5, "AKQ2", 0);
        let deal = deal.split("\n\n*Double dummy").next().unwrap_or("");
        let deal = deal.split("\n\n**Double dummy**").next().unwrap_or("");
        insta::assert_snapshot!("deal", deal);
        insta::assert_snapshot!("deal_partial", at(&s, 24, "AKQ2", 0));
        insta::assert_snapshot!("contract", at(&s, 7, "4S", 0));
        insta::assert_snapshot!("result", at(&s, 8, "10", 0));
        insta::assert_snapshot!("result_doubled_down", at(&s, 27, "NS 5", 0));
        insta::assert_snapshot!("plain_value", at(&s, 2, "1", 0));
    }

    #[test]
    fn calls_and_cards() {
        let s = snap(DOC);
        insta::assert_snapshot!("call_bid", at(&s, 11, "1S", 0));
        insta::assert_snapshot!("call_bid_end_of_token", at(&s, 11, "2H", 2));
        insta::assert_snapshot!("call_last_bid", at(&s, 12, "4S", 1));
        insta::assert_snapshot!("call_all_pass", at(&s, 12, "AP", 0));
        // The double-dummy line depends on whether the server's solver has
        // finished (`a_card_says_what_it_cost_double_dummy…` tests it).
        let card = |line, needle, k| {
            let h = at(&s, line, needle, k);
            let h = h.split("\n\n*Double dummy").next().unwrap_or("").to_owned();
            h.split("\n\n**Double dummy:**")
                .next()
                .unwrap_or("")
                .to_owned()
        };
        insta::assert_snapshot!("card_lead", card(15, "DK", 0));
        insta::assert_snapshot!("card_winner", card(15, "DA", 0));
        insta::assert_snapshot!("card_second_trick", card(16, "S3", 1));
        insta::assert_snapshot!("not_a_token", at(&s, 3, "[", 0));
    }

    #[test]
    fn tokens_of_a_run_of_cards() {
        // One `cards` node holds the tokens of a line (§3.6.1): the hover is
        // the token under the cursor, or the one ending at it, never the run.
        let s = snap("[Declarer \"S\"]\n[Contract \"1NT\"]\n[Play \"W\"]\nSA  s2 - SKX\n");
        insta::assert_snapshot!("run_second_card_lower_case", at(&s, 3, "s2", 1));
        insta::assert_snapshot!("run_dash", at(&s, 3, "-", 0));
        insta::assert_snapshot!("run_invalid_end_of_line", at(&s, 3, "SKX", 3));
        // Between two tokens, after the space that follows one: nothing.
        insta::assert_snapshot!("run_between_tokens", at(&s, 3, "SA", 3));
    }

    #[test]
    fn utf16_positions() {
        let s = snap(DOC);
        // Line 29: `{🂡 é} Pass 1NT ?! =3= $255 X AP`: 🂡 is 2 UTF-16
        // units (4 bytes), é one (2 bytes).
        let line = 29;
        let l = s.source.text.lines().nth(line).unwrap();
        let utf16_col = |needle: &str| l[..l.find(needle).unwrap()].encode_utf16().count() as u32;
        let one_nt = utf16_col("1NT");
        assert_eq!(one_nt, 12);
        let h = hover(&s, params(line as u32, one_nt + 1)).unwrap();
        assert_eq!(
            h.range.unwrap(),
            tower_lsp_server::ls_types::Range {
                start: Position {
                    line: 29,
                    character: 12
                },
                end: Position {
                    line: 29,
                    character: 15
                }
            }
        );
        insta::assert_snapshot!("utf16_call", render(&s, Some(h)));
        insta::assert_snapshot!(
            "utf16_suffix",
            render(&s, hover(&s, params(line as u32, utf16_col("?!"))))
        );
        insta::assert_snapshot!(
            "utf16_nag",
            render(&s, hover(&s, params(line as u32, utf16_col("$255") + 2)))
        );
        insta::assert_snapshot!(
            "utf16_missing_note",
            render(&s, hover(&s, params(line as u32, utf16_col("=3="))))
        );
        insta::assert_snapshot!(
            "utf16_double",
            render(&s, hover(&s, params(line as u32, utf16_col(" X ") + 1)))
        );
    }

    #[test]
    fn every_position_of_broken_text() {
        let broken = "[Deal \"N:AKQ.x.-\"]\n[Auction \"N\"]\n1N $ $x =a= =40= ^Q ^S [Note \"x\"]\n[Play \"Q\"]\nS10 -- + *\n[Contract \"\"]\n[Result \"^\"]\n[Event \"#\"\n";
        for text in [DOC, broken] {
            let s = snap(text);
            for (line, l) in text.lines().enumerate() {
                for col in 0..=l.encode_utf16().count() as u32 + 1 {
                    let _ = hover(&s, params(line as u32, col));
                }
            }
        }
    }

    /// Hovers until the server's solver has answered ("solving…" first).
    fn solved(s: &Snapshot, line: u32, needle: &str) -> String {
        for _ in 0..600 {
            let h = at(s, line, needle, 0);
            if !h.contains("solving…") {
                return h;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("not solved in 30 s")
    }

    #[test]
    fn a_card_says_what_it_cost_double_dummy_and_the_deal_its_leads() {
        // Spades trumps, North to lead: the ♠2 lets West overtrump, the ♥A
        // keeps a trick (`pbn_core::dd::play`'s tests).
        let s = snap("[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Declarer \"W\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2 HQ D2 S3\nHA HK DA C2\n");
        insta::assert_snapshot!("card_dd_costly", solved(&s, 4, "S2"));
        insta::assert_snapshot!("card_dd_best", solved(&s, 5, "HA"));
        let deal = solved(&s, 0, "2.A");
        let leads = deal.split("\n\n").last().unwrap_or("");
        assert_eq!(
            leads,
            "**Opening leads:** North leads, ♠ trumps; tricks for North-South: ♥A: 1, ♠2: 0"
        );
    }

    #[test]
    fn capability() {
        let mut caps = ServerCapabilities::default();
        register(&mut caps);
        assert_eq!(
            caps.hover_provider,
            Some(HoverProviderCapability::Simple(true))
        );
    }

    /// The values a player reads: scores, double-dummy values, the Auction
    /// value, a call's note, table cells. (A deal with hands not given: no
    /// solver verdict, which would depend on what other tests solved.)
    #[test]
    fn values_a_player_reads() {
        let text = r#"[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQ2.K32.Q32.K32 - - -"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Score "NS 450"]
[OptimumScore "NS 420"]
[DoubleDummyTricks "a9a9a9a9a9a9a9a9a9a9"]
[BCFlags "1f"]
[Auction "N"]
1S =1= Pass 4S AP
[Note "1:five+ spades"]
[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
N  S  9
E NT  4
[ScoreTable "Contract;Declarer;Result\2R;Score_NS\4R"]
4S N 10  420
"#;
        let s = snap(text);
        let all = [
            at(&s, 7, "NS", 0),
            at(&s, 8, "NS", 0),
            at(&s, 9, "a9", 0),
            at(&s, 10, "BCFlags", 0),
            at(&s, 11, "\"N\"", 1),
            at(&s, 12, "1S", 0),
            at(&s, 15, "9", 0),
            at(&s, 16, "4", 0),
            at(&s, 16, "NT", 0),
            at(&s, 18, "420", 0),
            at(&s, 18, "4S", 0),
        ];
        insta::assert_snapshot!("values_a_player_reads", all.join("\n\n----\n\n"));
    }
}
