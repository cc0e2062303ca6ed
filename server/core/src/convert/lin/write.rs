//! The LIN writer (PBN → LIN): one board per game, with the losses of what
//! LIN cannot hold.

use super::pairs::{pairs, starts_board, Seen};
use super::{HELD_TAGS, LIN_SEATS};
use crate::bridge::{
    self, analyze_auction, AuctionItem, CallToken, FinalContract, Hand, PlayAnalysis, Seat, Suit,
};
use crate::convert::{Converted, Loss, Part};
use crate::model::typed::TypedGame;
use crate::model::values;
use crate::model::values::deal::rank_char;
use crate::model::{self, AnnotationKind, CardToken, Entry, Inherit, TagRole};
use std::ops::Range;

/// The LIN form of a call: `p`, `d`, `r`, `1N`, `4S`.
fn lin_call(token: CallToken) -> Option<String> {
    Some(match token {
        CallToken::Pass => "p".into(),
        CallToken::Double => "d".into(),
        CallToken::Redouble => "r".into(),
        CallToken::Bid(b) => crate::convert::short_bid(b),
        _ => return None,
    })
}

/// A hand in LIN: `S…H…D…C…`, ranks ascending as BBO writes them
/// \[forum-19814].
fn hand_lin(hand: Hand) -> String {
    let mut out = String::new();
    for s in Suit::DESC {
        out.push(s.letter());
        let mut ranks: Vec<char> = hand[s].iter().map(rank_char).collect();
        ranks.reverse();
        out.extend(ranks);
    }
    out
}

/// Reads PBN and writes LIN: one board per game, `qx pn md sv ah mb an pc
/// mc` (and `vg` when the event changes), each board on its own line.
pub fn from_pbn(pbn: &str) -> Converted {
    from_pbn_games(pbn, 0..usize::MAX)
}

/// [`from_pbn`] of the games (0-based indices) in `games` only: earlier
/// games are read for the values they pass on with `#`/`##` (§4.8).
pub fn from_pbn_games(pbn: &str, games: std::ops::Range<usize>) -> Converted {
    let tree = crate::syntax::parse_pieces(pbn);
    let doc = model::lower(&tree, pbn);
    let mut out = String::new();
    let mut losses = Vec::new();
    let mut carry = ReaderCarry::default();
    for g in doc.games.iter().filter(|g| games.contains(&g.index)) {
        let typed = model::typed::typed(pbn, g);
        let mut board = BoardWriter {
            pbn,
            game: g,
            typed: &typed,
            line: String::new(),
            losses: Vec::new(),
        };
        board.write(&mut carry);
        out.push_str(&board.line);
        out.push_str("pg||\n");
        losses.extend(board.losses);
    }
    Converted {
        text: out,
        diagnostics: Vec::new(),
        losses,
    }
}

/// What LIN's reader carries from the boards written so far to the next.
#[derive(Default)]
struct ReaderCarry {
    /// The `vg` written last.
    last_vg: Option<String>,
    /// Whether the `pn` written last gave names: LIN's reader carries it to
    /// the boards after.
    last_pn: bool,
    /// The keys of the board the reader is in after the games written so
    /// far; `None` before the first.
    reader_seen: Option<Seen>,
}

/// One game being written as a LIN board: its pairs and its losses.
struct BoardWriter<'a> {
    pbn: &'a str,
    game: &'a model::Game,
    typed: &'a TypedGame,
    /// The board's pairs written so far.
    line: String,
    losses: Vec<Loss>,
}

impl<'a> BoardWriter<'a> {
    /// Reports a loss of `part` of the game.
    fn lose(&mut self, part: Part, what: String) {
        self.losses.push(Loss {
            game: self.game.index,
            parts: vec![part],
            what,
        })
    }

    /// The value of tag `name`, unless empty or `?`.
    fn val(&self, name: &str) -> Option<&'a str> {
        self.game.value(name).filter(|v| !v.is_empty() && *v != "?")
    }

    /// Writes the board's pairs in the order LIN's reader needs, with losses.
    fn write(&mut self, carry: &mut ReaderCarry) {
        self.write_vg(&mut carry.last_vg);
        self.write_room();
        // Where the header pairs `pn md sv ah` start and end in `line`.
        let header_start = self.line.len();
        self.write_players(&mut carry.last_pn);
        let no_md = self.write_deal();
        self.lose_dealer_without_md(no_md);
        self.write_vulnerable_and_board();
        let header_end = self.line.len();
        if let Some(seen) = carry.reader_seen {
            self.line = lead_with_a_board_start(&self.line, header_start..header_end, seen);
        }
        self.lose_tags_without_pairs();
        let (auction_held, written_calls) = self.write_auction();
        self.lose_unreadable_tags();
        let reader_declarer = self.reader_declarer(auction_held, &written_calls);
        let play_complete = self.write_play(reader_declarer);
        self.write_claim(play_complete, auction_held);
        self.write_commentary();
        self.check_board_start(&mut carry.reader_seen);
        if self.game.syntax_error {
            self.lose(
                Part::SyntaxErrors,
                "game: has syntax errors; written as far as it could be read".into(),
            );
        }
    }

    /// Writes `vg`, the event and the teams, when they change \[forum-19814].
    fn write_vg(&mut self, last_vg: &mut Option<String>) {
        let vg = match (
            self.val("Event"),
            self.val("HomeTeam"),
            self.val("VisitTeam"),
        ) {
            (None, None, None) => None,
            (e, h, v) => Some(format!(
                "{},,,,,{},,{},",
                lin_field(e.unwrap_or("")),
                lin_field(h.unwrap_or("")),
                lin_field(v.unwrap_or(""))
            )),
        };
        // An empty `vg` ends the event and teams the reader carries on.
        if vg != *last_vg {
            self.line
                .push_str(&format!("vg|{}|\n", vg.as_deref().unwrap_or(",,,,,,,,")));
        }
        *last_vg = vg;
    }

    /// Writes `qx`: the room (`o` open, `c` closed) and the board number.
    fn write_room(&mut self) {
        if let Some(room) = self.val("Room") {
            let r = match room.to_ascii_lowercase().as_str() {
                "open" => Some('o'),
                "closed" => Some('c'),
                _ => None,
            };
            match r {
                Some(r) => {
                    let board = self.val("Board").unwrap_or("");
                    self.line.push_str(&format!("qx|{r}{board}|"))
                }
                None => self.lose(
                    Part::tag("Room"),
                    format!("tag Room: LIN's qx holds Open or Closed, not {room:?}"),
                ),
            }
        }
    }

    /// Writes `pn`: the players South, West, North, East.
    fn write_players(&mut self, last_pn: &mut bool) {
        let names: Vec<&str> = LIN_SEATS
            .iter()
            .map(|s| self.val(bridge::seat_name(*s)).unwrap_or(""))
            .collect();
        // Written whenever a name is given, and empty (`pn|,,,|`) after
        // names: the reader carries the last `pn` on.
        let has_names = names.iter().any(|n| !n.is_empty());
        if has_names || *last_pn {
            let names: Vec<String> = names.iter().map(|n| lin_field(n)).collect();
            self.line.push_str(&format!("pn|{}|", names.join(",")));
        }
        *last_pn = has_names;
    }

    /// Writes `md` (dealer digit, hands S, W, N, E); true when no md gives the dealer.
    ///
    /// No md gives it without a readable Deal, or with one of no cards.
    fn write_deal(&mut self) -> bool {
        let dealer = self.typed.dealer;
        let Some(deal) = &self.typed.deal else {
            if self
                .game
                .value("Deal")
                .is_some_and(|v| !v.is_empty() && v != "?")
            {
                self.lose(Part::tag("Deal"), "tag Deal: not readable".into());
            }
            return true;
        };
        let digit = match dealer {
            Some(d) => (LIN_SEATS.iter().position(|s| *s == d).unwrap_or(0) + 1).to_string(),
            None => String::new(),
        };
        let hands: Vec<String> = LIN_SEATS
            .iter()
            .map(|s| deal.hand(*s).map_or(String::new(), hand_lin))
            .collect();
        if deal.spot_cards.iter().any(|&n| n > 0) {
            self.lose(
                Part::tag("Deal"),
                "tag Deal: spot cards `x` have no LIN form".into(),
            );
        }
        if deal.given_hands() == 3 && deal.hands.iter().flatten().all(|h| h.len() == 13) {
            self.lose(
                Part::tag("Deal"),
                "tag Deal: a hand not given is the remaining cards in LIN".into(),
            );
        }
        let mut no_md = false;
        if deal.hands.iter().all(|h| h.is_none_or(|h| h.is_empty())) {
            self.lose(
                Part::tag("Deal"),
                "tag Deal: a deal of no cards is no LIN md".into(),
            );
            no_md = true;
        } else if deal.given_hands() < 4
            && !(deal.given_hands() == 3 && deal.hands.iter().flatten().all(|h| h.len() == 13))
        {
            self.lose(
                Part::tag("Deal"),
                "tag Deal: a hand not given has no LIN form (md writes it empty)".into(),
            );
        }
        self.line
            .push_str(&format!("md|{digit}{}|", hands.join(",")));
        no_md
    }

    /// Reports the Dealer and the auction lost when no `md` gives the dealer.
    ///
    /// The dealer is md's first digit, and the auction's seats follow from it.
    fn lose_dealer_without_md(&mut self, no_md: bool) {
        if no_md && self.typed.dealer.is_some() {
            self.lose(
                Part::tag("Dealer"),
                "tag Dealer: LIN gives it in md, and there is no md for this deal".into(),
            );
            if self.game.auction.is_some() {
                self.lose(
                    Part::Auction,
                    "auction: its seats follow from md's dealer, and there is none".into(),
                );
            }
        }
    }

    /// Writes `sv` (the vulnerability) and `ah` (the board number).
    fn write_vulnerable_and_board(&mut self) {
        if let Some(v) = self.typed.vulnerable.as_ref() {
            let s = crate::spec::seats::by_vulnerability(v.vulnerability, ["o", "n", "e", "b"]);
            self.line.push_str(&format!("sv|{s}|"));
        }
        if let Some(b) = self.val("Board") {
            if !b.bytes().all(|c| c.is_ascii_digit()) {
                self.lose(
                    Part::tag("Board"),
                    format!("tag Board: LIN's ah holds board numbers, not {b:?}"),
                );
            }
            self.line.push_str(&format!("ah|Board {}|", lin_text(b)));
        }
    }

    /// Reports tags without a LIN pair, inheritance, empty values and tables.
    fn lose_tags_without_pairs(&mut self) {
        let g = self.game;
        let mut seen: Vec<&str> = Vec::new();
        for t in &g.tags {
            if t.role != TagRole::Plain && t.role != TagRole::Section
                || seen.contains(&t.name.as_str())
            {
                continue;
            }
            seen.push(&t.name);
            let Some(v) = t.effective() else { continue };
            if v.is_empty() {
                // With a Pass contract, an empty Declarer or Result says
                // nothing (§3.4.13, §3.4.15).
                if !(matches!(t.name.as_str(), "Declarer" | "Result") && model::contract_is_pass(g))
                {
                    self.lose(
                        Part::tag(&t.name),
                        format!(
                            "tag {}: an empty value (LIN writes no field for it)",
                            t.name
                        ),
                    );
                }
                continue;
            }
            if v == "?" && t.inherit == Inherit::None {
                continue;
            }
            if t.inherit != Inherit::None {
                self.lose(
                    Part::Inheritance(t.name.to_string()),
                    format!("tag {}: LIN has no `#`/`##` inheritance", t.name),
                );
            }
            if t.name == "Note" && t.role == TagRole::Plain {
                self.lose(
                    Part::tag("Note"),
                    "tag Note: a note outside the auction and play has no LIN form".into(),
                );
            }
            if !HELD_TAGS.contains(&t.name.as_str()) {
                self.lose(
                    Part::tag(&t.name),
                    format!("tag {}: LIN has no pair for it", t.name),
                );
            }
        }
        for i in &g.inherited {
            if !HELD_TAGS.contains(&i.name.as_str()) && i.value != "?" && g.tag(&i.name).is_none() {
                self.lose(
                    Part::tag(&i.name),
                    format!("tag {}: LIN has no pair for it", i.name),
                );
            }
        }
        for sec in &g.sections {
            if let Some(t) = g.tags.get(sec.tag) {
                self.lose(
                    Part::Section(t.name.to_string()),
                    format!("the section data of tag {}: LIN has no tables", t.name),
                );
            }
        }
    }

    /// Writes the auction as `mb` and `an`; returns whether it is held and its calls.
    ///
    /// The reader derives the contract, and the play's seats, from the calls.
    fn write_auction(&mut self) -> (bool, Vec<AuctionItem>) {
        let g = self.game;
        let pbn = self.pbn;
        let mut auction_held = false;
        let mut written_calls: Vec<AuctionItem> = Vec::new();
        if let Some(a) = &g.auction {
            let first = (a.tag != usize::MAX)
                .then(|| g.tags[a.tag].effective())
                .flatten()
                .and_then(|v| values::parse_auction_seat(v).value)
                .map(|s| s.seat);
            if first.is_some() && first != self.typed.dealer {
                self.lose(
                    Part::Auction,
                    "auction: LIN auctions start with the dealer".into(),
                );
            }
            let notes = note_texts(g, &a.notes);
            auction_held = true;
            let mut push = |token: CallToken| {
                written_calls.push(AuctionItem {
                    token,
                    insufficient_marked: false,
                })
            };
            let entries = crate::convert::read_calls(pbn, &a.entries);
            for (k, e) in entries.iter().enumerate() {
                let token = e.token;
                if token == CallToken::AllPass {
                    for _ in 0..model::all_pass_count(&entries[..k]) {
                        self.line.push_str("mb|p|");
                        push(CallToken::Pass);
                    }
                    continue;
                }
                if matches!(token, CallToken::Terminator | CallToken::Dash) {
                    continue;
                }
                let Some(call) = lin_call(token) else {
                    self.lose(
                        Part::Auction,
                        format!(
                            "auction: the {} \"{}\" has no LIN form",
                            if token == CallToken::Invalid {
                                "unreadable call"
                            } else {
                                "call"
                            },
                            &pbn[e.range.clone()]
                        ),
                    );
                    auction_held = false;
                    break;
                };
                push(match token {
                    CallToken::Double | CallToken::Redouble | CallToken::Bid(_) => token,
                    _ => CallToken::Pass,
                });
                match self.call_note(e, &notes) {
                    Some("") => self.line.push_str(&format!("mb|{call}!|")),
                    Some(t) => self
                        .line
                        .push_str(&format!("mb|{call}!|an|{}|", lin_text(t))),
                    None => self.line.push_str(&format!("mb|{call}|")),
                }
            }
        }
        if g.auction.is_some() && written_calls.is_empty() {
            self.lose(
                Part::Auction,
                "auction: an auction of no calls has no LIN form (mb holds calls)".into(),
            );
        }
        (auction_held, written_calls)
    }

    /// The text of a call's note (`""` without a Note); reports other annotations.
    fn call_note<'n>(
        &mut self,
        e: &Entry<CallToken>,
        notes: &'n [(u32, String)],
    ) -> Option<&'n str> {
        let pbn = self.pbn;
        let mut note = None;
        for an in e.post().iter().chain(e.pre()) {
            match an.kind {
                AnnotationKind::NoteRef(Some(n)) if note.is_none() => {
                    let text = notes.iter().find(|(i, _)| *i == n).map(|(_, t)| &**t);
                    if text.is_none() {
                        self.lose(
                            Part::AuctionAnnotations,
                            format!(
                                "auction: the note \"{}\" has no Note in the auction \
                                 section (LIN's `!` reads back as a note without text)",
                                &pbn[an.range.clone()]
                            ),
                        );
                    }
                    note = Some(text.unwrap_or(""));
                }
                _ => self.lose(
                    Part::AuctionAnnotations,
                    format!(
                        "auction: the annotation \"{}\" has no LIN form",
                        &pbn[an.range.clone()]
                    ),
                ),
            }
        }
        note
    }

    /// Reports the tags whose value cannot be read.
    fn lose_unreadable_tags(&mut self) {
        let typed = self.typed;
        for (name, read) in [
            ("Dealer", typed.dealer.is_some()),
            ("Vulnerable", typed.vulnerable.is_some()),
            ("Contract", typed.contract.is_some()),
            ("Result", typed.result.is_some()),
            ("Declarer", typed.declarer.is_some()),
        ] {
            if !read && self.val(name).is_some() {
                self.lose(Part::tag(name), format!("tag {name}: not readable"));
            }
        }
    }

    /// The declarer LIN's reader derives from the calls; reports one it cannot.
    ///
    /// The reader takes md's dealer, and seats the play from this declarer.
    fn reader_declarer(
        &mut self,
        auction_held: bool,
        written_calls: &[AuctionItem],
    ) -> Option<Seat> {
        let typed = self.typed;
        let reader_dealer = typed.deal.as_ref().and(typed.dealer);
        let reader_declarer = (!written_calls.is_empty())
            .then(|| {
                analyze_auction(
                    reader_dealer,
                    reader_dealer.unwrap_or(Seat::North),
                    written_calls,
                )
            })
            .and_then(|a| a.contract)
            .and_then(|c| match c {
                FinalContract::Contract { declarer, .. } => Some(declarer),
                FinalContract::PassedOut => None,
            });
        if let (Some(d), Some(declarer)) = (typed.declarer.and_then(|d| d.seat), reader_declarer) {
            if d != declarer && auction_held {
                self.lose(
                    Part::tag("Declarer"),
                    "tag Declarer: LIN derives it from the auction, which names another".into(),
                );
            }
        }
        for name in ["Declarer", "Contract"] {
            if !auction_held && self.val(name).is_some() {
                self.lose(
                    Part::tag(name),
                    format!("tag {name}: LIN derives it from the auction, and there is none"),
                );
            }
        }
        reader_declarer
    }

    /// Writes the play as `pc` pairs; returns whether all 52 cards were written.
    fn write_play(&mut self, reader_declarer: Option<Seat>) -> bool {
        let g = self.game;
        let mut play_complete = false;
        let mut cards_written = 0;
        if let (Some(p), Some(analysis)) = (&g.play, &self.typed.play) {
            let cards = self.write_cards(analysis, &p.entries);
            play_complete = cards == 52;
            cards_written = cards;
            // The reader seats the play from `reader_declarer`: the opening
            // lead is from its left-hand opponent.
            let leader = analysis.tricks.first().and_then(|t| t.leader);
            if cards > 0 && reader_declarer.map(Seat::lho) != leader {
                self.lose(
                    Part::Play,
                    "play: LIN's pc starts with the lead from the left of the declarer its \
                     auction names, and this play does not"
                        .into(),
                );
            }
            if !play_complete
                && !matches!(
                    p.entries.last().map(|e| e.token),
                    Some(CardToken::Terminator)
                )
                && !analysis.continued
            {
                self.lose(
                    Part::PlayEnd,
                    "play: an unfinished play without `*` (LIN's reader ends it with `*`)".into(),
                );
            }
            if !p.notes.is_empty() {
                self.lose(
                    Part::PlayAnnotations,
                    "play: notes on cards have no LIN form".into(),
                );
            }
        }
        if g.play.is_some() && cards_written == 0 {
            self.lose(
                Part::Play,
                "play: a play of no cards has no LIN form (pc holds cards)".into(),
            );
        }
        play_complete
    }

    /// Writes `pc` per card, in play order, up to an unknown one; returns the count.
    fn write_cards(&mut self, analysis: &PlayAnalysis, entries: &[Entry<CardToken>]) -> usize {
        let pbn = self.pbn;
        let entries = crate::convert::read_cards(pbn, entries);
        let mut cards = 0;
        'tricks: for t in &analysis.tricks {
            let Some(leader) = t.leader else {
                self.lose(Part::Play, "play: a trick with an unknown leader".into());
                break;
            };
            for k in 0..4 {
                let seat = bridge::rotate(leader, k);
                let Some(i) = t.cards[seat as usize] else {
                    break 'tricks;
                };
                match entries.get(i).map(|e| (e, e.token)) {
                    Some((e, CardToken::Card(c))) => {
                        for an in e.post().iter().chain(e.pre()) {
                            self.lose(
                                Part::PlayAnnotations,
                                format!(
                                    "play: the annotation \"{}\" has no LIN form",
                                    &pbn[an.range.clone()]
                                ),
                            );
                        }
                        self.line.push_str(&format!("pc|{}|", bridge::card_text(c)));
                        cards += 1;
                    }
                    _ => {
                        self.lose(
                            Part::Play,
                            "play: from an unknown or unreadable card on (LIN's pc holds cards)"
                                .into(),
                        );
                        break 'tricks;
                    }
                }
            }
        }
        cards
    }

    /// Writes `mc`, the result, when the play does not show it.
    fn write_claim(&mut self, play_complete: bool, auction_held: bool) {
        if play_complete {
            return;
        }
        let typed = self.typed;
        if let Some(r) = typed.result.as_ref().and_then(|r| r.tricks) {
            let declarer = typed.declarer.and_then(|d| d.seat).or(
                match typed.auction.as_ref().and_then(|a| a.contract) {
                    Some(FinalContract::Contract { declarer, .. }) => Some(declarer),
                    _ => None,
                },
            );
            match declarer.and_then(|d| r.for_declarer(bridge::is_north_south(d))) {
                Some(n) if auction_held => self.line.push_str(&format!("mc|{n}|")),
                _ => self.lose(
                    Part::tag("Result"),
                    "tag Result: LIN's mc needs an auction with a declarer".into(),
                ),
            }
        }
    }

    /// Writes the game's commentary as `nt`, escape lines aside.
    fn write_commentary(&mut self) {
        let (g, pbn) = (self.game, self.pbn);
        for c in g
            .commentary()
            .filter(|c| c.kind != model::CommentKind::Escape)
        {
            let text = c.body(pbn).trim();
            if !text.is_empty() {
                self.line.push_str(&format!("nt|{}|", lin_text(text)));
            }
        }
    }

    /// Reports a board the reader would join to the one before; tracks its keys.
    fn check_board_start(&mut self, reader_seen: &mut Option<Seen>) {
        // Where the reader starts this board ([`starts_board`]): before
        // any header pair of it, or the board before takes that pair.
        let mut split = reader_seen.is_none();
        let mut seen = reader_seen.unwrap_or_default();
        let mut late = false;
        for p in pairs(&self.line, &mut Vec::new()) {
            if starts_board(&p.key, seen) {
                seen = Seen::default();
                split = true;
            } else if !split && HEADER_KEYS.contains(&p.key.as_str()) {
                late = true;
            }
            seen.insert(&p.key);
        }
        *reader_seen = Some(seen);
        if !split || late {
            self.lose(
                Part::Game,
                "game: LIN cannot keep it apart from the board before (no pair of it starts a \
                 board)"
                    .into(),
            );
        }
    }
}

/// The header pairs a board may give in any order ([`starts_board`]).
const HEADER_KEYS: [&str; 4] = ["pn", "md", "sv", "ah"];

/// `line` with its header pairs (`header`, a range of `pn md sv ah`
/// pairs) led by one that starts a board after the reader's `seen`, when
/// nothing before them does: the reader takes the header pairs in any
/// order, but those before the board start would join the board before.
fn lead_with_a_board_start(line: &str, header: Range<usize>, seen: Seen) -> String {
    let mut before = seen;
    for p in pairs(&line[..header.start], &mut Vec::new()) {
        if starts_board(&p.key, before) {
            return line.to_string();
        }
        before.insert(&p.key);
    }
    let segment = &line[header.clone()];
    let parts = pairs(segment, &mut Vec::new());
    if parts.first().is_none_or(|p| starts_board(&p.key, before)) {
        return line.to_string();
    }
    let Some(lead) = parts.iter().find(|p| starts_board(&p.key, before)) else {
        return line.to_string();
    };
    // The pair with its closing `|`.
    let range = lead.key_range.start..(lead.value_range.end + 1).min(segment.len());
    let lead_text = &segment[range.clone()];
    let rest = format!("{}{}", &segment[..range.start], &segment[range.end..]);
    format!(
        "{}{lead_text}{rest}{}",
        &line[..header.start],
        &line[header.end..]
    )
}

/// The texts of a section's notes, by index.
fn note_texts(g: &model::Game, idx: &[usize]) -> Vec<(u32, String)> {
    idx.iter()
        .filter_map(|&i| g.note(i))
        .map(|n| (u32::from(n.index), n.text))
        .collect()
}

/// A value for LIN: `|` cannot appear inside one; `,` separates fields of
/// `pn` and `vg`.
fn lin_text(s: &str) -> String {
    s.replace('|', "/")
}

/// A field of a comma-separated LIN list (`pn`, `vg`).
fn lin_field(s: &str) -> String {
    s.replace(['|', ','], " ")
}
