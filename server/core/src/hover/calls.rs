//! Calls and cards: who, where in the auction or play, notes, and what a
//! card cost double dummy.

use super::annotations::call_notes;
use super::dd::card_dd;
use super::words::strain_word;
use super::HoverInput;
use crate::bridge::suit_symbol;
use crate::bridge::{self, seat_name, Seat, Strain};
use crate::model::typed::{typed, TokenReading};
use crate::model::values;
use crate::model::{CallToken, CardToken, Game};
use contract_bridge::Rank;

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

pub(super) fn call_hover(h: &HoverInput<'_>, game: &Game, at: usize) -> Option<String> {
    let a = game.auction.as_ref()?;
    let k = a.entries.iter().position(|e| e.range.start == at)?;
    let e = &a.entries[k];
    let t = typed(h.text, game);
    let an = t.auction.as_ref();
    let seat = an.and_then(|x| x.seats.get(k).copied().flatten());
    let who = seat_or_unknown(seat);
    let text = &h.text[e.range.clone()];
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
            let n = crate::model::all_pass_count(&a.entries[..k]);
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

pub(super) fn card_hover(h: &HoverInput<'_>, game: &Game, at: usize) -> Option<String> {
    let p = game.play.as_ref()?;
    let k = p.entries.iter().position(|e| e.range.start == at)?;
    let e = &p.entries[k];
    let t = typed(h.text, game);
    let an = t.play.as_ref();
    let seat = an.and_then(|x| x.seats.get(k).copied().flatten());
    let who = seat_or_unknown(seat);
    let text = &h.text[e.range.clone()];
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
    if let Some(dd) = card_dd(h, game, &t, k) {
        md.push_str("\n\n");
        md.push_str(&dd);
    }
    Some(md)
}
