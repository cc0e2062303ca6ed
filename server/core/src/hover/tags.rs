//! Tags: names (with `#`/`##` inheritance, §4.8) and values: the Deal,
//! Contract and Result, Score, the Auction value, Note tags; the
//! double-dummy tags are in `dd.rs`.

use super::annotations::note_tag_hover;
use super::dd::{dd_section, dd_tricks_hover, leads_section, optimum_score_hover};
use super::words::strain_word;
use super::HoverInput;
use crate::bridge::side_score;
use crate::bridge::{self, seat_name, Seat, Strain};
use crate::model::typed::{typed, TypedGame};
use crate::model::values::{self, ContractValue};
use crate::model::{Game, Inherit, Tag, TagRole};
use crate::spec;

pub(super) fn tag_name_hover(
    h: &HoverInput<'_>,
    game: &Game,
    at: usize,
    name: &str,
) -> Option<String> {
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
        if let Some(inh) = inheritance(h, tag) {
            md.push_str("\n\n");
            md.push_str(&inh);
        }
    }
    Some(md)
}

/// The inherited value of a `#`/`##` tag and its source (§4.8).
pub(super) fn inheritance(h: &HoverInput<'_>, tag: &Tag) -> Option<String> {
    match &tag.inherit {
        Inherit::None => None,
        Inherit::Header => {
            let text = tag.header_text().unwrap_or("");
            Some(format!("`##`: the value {text:?} here and in all following games that do not have the tag (§4.8)"))
        }
        Inherit::Previous => Some(match tag.resolved.as_deref() {
            Some((value, Some(src))) => {
                let g = h.games.game(src.game)?;
                let t = g.tags.get(src.tag)?;
                let line = h.line(t.range.start);
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

pub(super) fn value_hover(h: &HoverInput<'_>, game: &Game, at: usize) -> Option<String> {
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
                let mut md = deal_diagram(h, game, &d);
                if let Some(dd) = dd_section(h, game) {
                    md.push_str("\n\n");
                    md.push_str(&dd);
                }
                if let Some(leads) = leads_section(h, game) {
                    md.push_str("\n\n");
                    md.push_str(&leads);
                }
                md
            }),
        "Contract" | "Result" if first => score_hover(&typed(h.text, game)),
        "Score" if first => score_tag_hover(&typed(h.text, game), tag),
        "OptimumScore" if first => optimum_score_hover(h, game, tag),
        "DoubleDummyTricks" if first => dd_tricks_hover(h, game, tag),
        "Auction" => auction_value_hover(&typed(h.text, game)),
        "Note" => note_tag_hover(h, game, tag),
        _ => None,
    };
    if let Some(inh) = inheritance(h, tag) {
        let s = md.get_or_insert_with(String::new);
        if !s.is_empty() {
            s.push_str("\n\n");
        }
        s.push_str(&inh);
    }
    md
}

// ---- the Deal -----------------------------------------------------------

/// The deal as the hand-record renderer draws it
/// ([`crate::render::markdown::deal`]): board, dealer and vulnerability in
/// the title, then North on top, West left, East right, South at the bottom
/// around a compass with each hand's HCP; hands not given are left out.
pub(super) fn deal_diagram(h: &HoverInput<'_>, game: &Game, deal: &values::Deal) -> String {
    let mut r = crate::render::record(h.text, game);
    // The hovered value (a later duplicate or a `#` value) is what is drawn.
    r.hands = crate::render::hand_views(deal);
    r.end_position = deal
        .is_end_position
        .then(|| deal.card_counts.iter().copied().max().unwrap_or(0));
    crate::render::markdown::deal(&r)
}

// ---- Contract and Result ------------------------------------------------

pub(super) fn score_hover(t: &TypedGame) -> Option<String> {
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
    let declarer = t.declarer_seat();
    let Some(declarer) = declarer else {
        return Some(format!("**{form}**: declarer unknown, so no score"));
    };
    let ns = bridge::is_north_south(declarer);
    let declared = t.declarer_tricks();
    let tricks = declared.map(|(n, _)| n);
    let tricks_from = match declared {
        Some((_, true)) => " (from the play)",
        _ => "",
    };
    let vul_from = match (t.vulnerable, t.board) {
        (None, Some(b)) => format!(" (from Board {b})"),
        _ => String::new(),
    };
    let head = format!("**{form} by {}**", declarer.letter());
    let Some(vul) = t.vulnerability() else {
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
pub(super) fn outcome(t: &TypedGame) -> Option<(contract_bridge::Contract, Seat, u8, i32)> {
    let ContractValue::Contract(c) = t.contract.as_ref()?.value else {
        return None;
    };
    let declarer = t.declarer_seat()?;
    let tricks = t
        .result?
        .tricks?
        .for_declarer(bridge::is_north_south(declarer))?;
    let vul = t.vulnerability()?;
    Some((
        c,
        declarer,
        tricks,
        bridge::duplicate_score(c, declarer, tricks, vul),
    ))
}

/// The Score tag (§4.2.1): the points for each side, and whether the
/// contract, declarer and result give them.
pub(super) fn score_tag_hover(t: &TypedGame, tag: &Tag) -> Option<String> {
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

/// The Auction tag's value (§3.5): who calls first, and where the auction
/// ends.
pub(super) fn auction_value_hover(t: &TypedGame) -> Option<String> {
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
