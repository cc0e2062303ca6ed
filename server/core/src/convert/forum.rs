//! PBN → forum notation (write only).
//!
//! Forum notation ("Using special bridge notation", the forum article kept
//! in the project's shared material) expands bracketed items in a post:
//! - `[Hand S.H.D.C]`: one hand, suits in the order spades, hearts,
//!   diamonds, clubs, ranks `AKQJT98765432x`, dots compulsory ("Hand
//!   description");
//! - `[Deal <south> <west> <north> <east>]`: all four hands, "exactly in
//!   that order" ("Deal description");
//! - `[2HandDeal <hand> <hand>]`: two hands ("Deal description");
//! - `[Bidding <calls>]`: calls from South clockwise, `-` for each seat
//!   before the dealer, calls `P X XX 1S … 7N`, `=n=` after a call for an
//!   annotation ("Bidding description");
//! - `[S]` `[H]` `[D]` `[C]`: suit symbols in text ("Suit symbols in the
//!   text").
//!
//! Everything else of a game (headings, contract, play, commentary) is
//! written as plain text with suit symbols; what forum notation cannot show
//! is reported as a [`Loss`].

use super::{read_calls, read_cards, read_pbn, short_bid, Converted, Loss, Part};
use crate::bridge::strain_text as strain_name;
use crate::bridge::{self, rotate, Seat, Suit};
use crate::model::values::deal::rank_char;
use crate::model::values::{self, ContractValue};
use crate::model::{
    all_pass_count, typed, AnnotationKind, Auction, CallToken, CardToken, CommentKind, Game,
};

/// Tags whose content the forum text shows.
const SHOWN: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Declarer",
    "Contract",
    "Result",
    "Score",
    "Auction",
    "Play",
    "Note",
];

/// Reads PBN and writes forum notation.
pub fn from_pbn(pbn: &str) -> Converted {
    from_pbn_games(pbn, 0..usize::MAX)
}

/// [`from_pbn`] of the games (0-based indices) in `games` only: earlier
/// games are read for the values they pass on with `#`/`##` (§4.8).
pub fn from_pbn_games(pbn: &str, games: std::ops::Range<usize>) -> Converted {
    let doc = read_pbn(pbn);
    let mut out = String::new();
    let mut losses = Vec::new();
    for g in doc.games.iter().filter(|g| games.contains(&g.index)) {
        if !out.is_empty() {
            out.push('\n');
        }
        let mut w = GameWriter {
            pbn,
            g,
            out: &mut out,
            losses: &mut losses,
        };
        w.write();
    }
    Converted {
        text: out,
        diagnostics: Vec::new(),
        losses,
    }
}

/// One game written in forum notation, and what it loses.
struct GameWriter<'a> {
    pbn: &'a str,
    g: &'a Game,
    out: &'a mut String,
    losses: &'a mut Vec<Loss>,
}

impl GameWriter<'_> {
    fn lose(&mut self, part: Part, what: String) {
        self.losses.push(Loss {
            game: self.g.index,
            parts: vec![part],
            what,
        });
    }

    /// The game: heading, players, hands, bidding, contract, play and
    /// commentary.
    fn write(&mut self) {
        let (pbn, g) = (self.pbn, self.g);
        for t in &g.tags {
            if !SHOWN.contains(&t.name.as_str())
                && t.effective().is_some_and(|v| !v.is_empty() && v != "?")
            {
                self.lose(
                    Part::tag(&t.name),
                    format!("tag {} (forum notation has no place for it)", t.name),
                );
            }
        }
        let ty = typed::typed(pbn, g);
        self.heading(&ty);
        if let Some(deal) = &ty.deal {
            self.hands(deal);
        }
        if let Some(a) = &g.auction {
            self.bidding(a);
        }
        self.contract(&ty);
        self.play(&ty);
        for c in g.commentary().filter(|c| c.kind != CommentKind::Escape) {
            let body = c.body(pbn).trim();
            if !body.is_empty() {
                self.out.push_str(body);
                self.out.push('\n');
            }
        }
    }

    /// Heading (event, board, dealer, vulnerability) and players.
    fn heading(&mut self, ty: &typed::TypedGame) {
        let g = self.g;
        let mut head: Vec<String> = Vec::new();
        for name in ["Event", "Site", "Date"] {
            if let Some(v) = g.value(name).filter(|v| !v.is_empty() && *v != "?") {
                head.push(v.to_string());
            }
        }
        if let Some(b) = g.value("Board").filter(|v| !v.is_empty() && *v != "?") {
            head.push(format!("Board {b}"));
        }
        if let Some(d) = ty.dealer {
            head.push(format!("Dealer {}", bridge::seat_name(d)));
        }
        if let Some(v) = ty.vulnerable {
            head.push(format!(
                "{} vulnerable",
                crate::spec::seats::vulnerability_name(v.vulnerability)
            ));
        }
        if !head.is_empty() {
            self.out.push_str(&head.join(", "));
            self.out.push('\n');
        }
        let names: Vec<String> = Seat::ALL
            .iter()
            .filter_map(|s| {
                g.value(bridge::seat_name(*s))
                    .filter(|v| !v.is_empty() && *v != "?")
                    .map(|v| format!("{}: {v}", bridge::seat_name(*s)))
            })
            .collect();
        if !names.is_empty() {
            self.out.push_str(&names.join(", "));
            self.out.push('\n');
        }
    }

    /// The hands: `[Deal …]`, `[2HandDeal …]` or a `[Hand …]` each.
    fn hands(&mut self, deal: &values::Deal) {
        let hand = |s: Seat| -> Option<String> {
            let h = deal.hands[s as usize]?;
            let suits: Vec<String> = Suit::DESC
                .iter()
                // `x` spot cards have no suit in PBN's model (they
                // are not part of `hands`): reported below.
                .map(|&x| h[x].iter().map(rank_char).collect::<String>())
                .collect();
            Some(suits.join("."))
        };
        if deal.spot_cards.iter().any(|&n| n > 0) {
            self.lose(Part::tag("Deal"), "`x` spot cards of the Deal".into());
        }
        // "[Deal]": South, West, North, East.
        let order = [Seat::South, Seat::West, Seat::North, Seat::East];
        let given: Vec<Seat> = order
            .into_iter()
            .filter(|s| deal.hands[*s as usize].is_some())
            .collect();
        match given.len() {
            4 => {
                let hs: Vec<String> = order.iter().filter_map(|s| hand(*s)).collect();
                self.out.push_str(&format!("[Deal {}]\n", hs.join(" ")));
            }
            2 => {
                let hs: Vec<String> = given.iter().filter_map(|s| hand(*s)).collect();
                self.out.push_str(&format!(
                    "{} and {}:\n[2HandDeal {}]\n",
                    bridge::seat_name(given[0]),
                    bridge::seat_name(given[1]),
                    hs.join(" ")
                ));
            }
            _ => {
                for s in given {
                    if let Some(h) = hand(s) {
                        self.out
                            .push_str(&format!("{}: [Hand {h}]\n", bridge::seat_name(s)));
                    }
                }
            }
        }
    }

    /// `[Bidding …]` and the auction's notes.
    fn bidding(&mut self, a: &Auction) {
        let (pbn, g) = (self.pbn, self.g);
        let first = g
            .tags
            .get(a.tag)
            .and_then(|t| t.effective())
            .and_then(|v| values::parse_auction_seat(v).value)
            .map(|s| s.seat);
        match first {
            Some(first) => {
                let mut calls: Vec<String> =
                    vec!["-".to_string(); bridge::distance(Seat::South, first)];
                let mut marks_lost = false;
                let entries = read_calls(pbn, &a.entries);
                for (k, e) in entries.iter().enumerate() {
                    let call = match e.token {
                        CallToken::Bid(b) => short_bid(b),
                        CallToken::Pass => "P".into(),
                        CallToken::Double => "X".into(),
                        CallToken::Redouble => "XX".into(),
                        CallToken::AllPass => {
                            let n = all_pass_count(&entries[..k]);
                            calls.extend(std::iter::repeat_n("P".to_string(), n));
                            continue;
                        }
                        CallToken::Dash => "-".into(),
                        CallToken::Skip => {
                            self.lose(
                                Part::Auction,
                                "`^S` (a skipped player) in the auction".into(),
                            );
                            continue;
                        }
                        CallToken::Invalid => {
                            self.lose(
                                Part::Auction,
                                format!("the unreadable call \"{}\"", &pbn[e.range.clone()]),
                            );
                            continue;
                        }
                        CallToken::Continuation | CallToken::Terminator => continue,
                    };
                    let mut call = call;
                    for an in e.post() {
                        match an.kind {
                            AnnotationKind::NoteRef(Some(n)) => call.push_str(&format!("={n}=")),
                            _ => marks_lost = true,
                        }
                    }
                    marks_lost |= !e.pre().is_empty();
                    calls.push(call);
                }
                if marks_lost {
                    self.lose(
                        Part::AuctionAnnotations,
                        "suffixes, NAGs or irregularity marks in the auction".into(),
                    );
                }
                self.out
                    .push_str(&format!("[Bidding {}]\n", calls.join(" ")));
                notes(pbn, g, &a.notes, self.out);
            }
            None => self.lose(
                Part::Auction,
                "the auction (no readable Auction seat)".into(),
            ),
        }
    }

    /// The contract and result as text.
    fn contract(&mut self, ty: &typed::TypedGame) {
        let g = self.g;
        if let Some(c) = &ty.contract {
            let text = match c.value {
                ContractValue::Pass => Some("Passed out".to_string()),
                ContractValue::Contract(k) => Some(format!(
                    "{}{}",
                    suits_text(&bridge::bid_text(k.bid)),
                    match k.penalty {
                        bridge::Penalty::Undoubled => "",
                        bridge::Penalty::Doubled => "X",
                        bridge::Penalty::Redoubled => "XX",
                    }
                )),
                ContractValue::EndPosition(s) => Some(suits_text(strain_name(s))),
                ContractValue::Empty => None,
            };
            if let Some(mut text) = text {
                if let Some(d) = ty.declarer.and_then(|d| d.seat) {
                    text.push_str(&format!(" by {}", bridge::seat_name(d)));
                }
                if let Some(r) = g.value("Result").filter(|v| !v.is_empty() && *v != "?") {
                    text.push_str(&format!(", result {r}"));
                }
                if let Some(s) = g.value("Score").filter(|v| !v.is_empty() && *v != "?") {
                    text.push_str(&format!(", score {s}"));
                }
                self.out.push_str(&format!("Contract: {text}\n"));
            }
        }
    }

    /// The play as text, a trick per group, and its notes.
    fn play(&mut self, ty: &typed::TypedGame) {
        let (pbn, g) = (self.pbn, self.g);
        let leader = ty.play.as_ref().and_then(|a| a.opening_leader);
        if g.play.as_ref().is_some_and(|p| !p.entries.is_empty()) && leader.is_none() {
            self.lose(Part::Play, "the play (no readable Play seat)".into());
        }
        if let (Some(p), Some(first)) = (&g.play, leader) {
            let mut tricks: Vec<String> = Vec::new();
            let entries = read_cards(pbn, &p.entries);
            for row in entries
                .iter()
                .filter(|e| !matches!(e.token, CardToken::Terminator))
                .collect::<Vec<_>>()
                .chunks(4)
            {
                let cards: Vec<String> = row
                    .iter()
                    .map(|e| match e.token {
                        CardToken::Card(c) => suits_text(bridge::card_word(c)),
                        CardToken::Dash => "-".into(),
                        CardToken::Continuation => "+".into(),
                        CardToken::Terminator | CardToken::Invalid => {
                            self.lose(
                                Part::Play,
                                format!("the unreadable card \"{}\"", &pbn[e.range.clone()]),
                            );
                            "?".into()
                        }
                    })
                    .collect();
                tricks.push(cards.join(" "));
            }
            if !tricks.is_empty() {
                self.out.push_str(&format!(
                    "Play (columns from {}, {}): {}\n",
                    bridge::seat_name(first),
                    (0..4)
                        .map(|k| rotate(first, k).letter().to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    tricks.join(" | ")
                ));
                notes(pbn, g, &p.notes, self.out);
            }
        }
    }
}

/// `Note n: text` lines of a section's Note tags.
fn notes(pbn: &str, g: &crate::model::Game, idx: &[usize], out: &mut String) {
    let _ = pbn;
    for &i in idx {
        if let Some(v) = g.tags.get(i).and_then(|t| t.value.as_ref()) {
            match g.note(i) {
                Some(n) => out.push_str(&format!("Note {}: {}\n", n.index, suits_text(&n.text))),
                None => out.push_str(&format!("Note: {}\n", v.text)),
            }
        }
    }
}

/// A call or card text with its suit letter as a forum suit symbol
/// (`4H` → `4[H]`, `SK` → `[S]K`); `NT` stays.
fn suits_text(s: &str) -> String {
    let b = s.as_bytes();
    match b {
        [l @ b'1'..=b'7', x @ (b'S' | b'H' | b'D' | b'C')] => {
            format!("{}[{}]", *l as char, *x as char)
        }
        [x @ (b'S' | b'H' | b'D' | b'C'), r] => format!("[{}]{}", *x as char, *r as char),
        [x @ (b'S' | b'H' | b'D' | b'C')] => format!("[{}]", *x as char),
        _ => s.to_string(),
    }
}
