//! LIN ↔ PBN. LIN is the format of BBO hand records and movies: a flat
//! sequence of `xx|value|` pairs, a two-letter key then a value, each
//! closed by `|`.
//!
//! BBO never published a specification of LIN. The rules below come from
//! the public descriptions, each cited where it is used:
//! - \[forum-19814]: the BBO forums thread ".lin file format structure"
//!   (2007), with a three-board sample (`vg rs pw mp bn pg qx pn st md rh
//!   ah sv mb pc mc`);
//! - \[forum-85366]: the BBO forums thread "Lin file format" (2021): the
//!   "container" `qx|o1|md|3…|rh||ah|Board 1|sv|0|pg||`, hands in the order
//!   South, West, North, East after the dealer digit;
//! - \[bridgedata]: Søren Hein's BridgeData reader `fileLIN.cpp`: the label
//!   table (`vg` title, `rs` results, `pw` players, `mp` scores, `bn`
//!   boards, `qx` board number, `pn` players, `md` deal, `sv` vulnerable,
//!   `mb` auction, `pc` play, `mc` result; `pf pg st rh ah nt` ignored,
//!   `nt` being chat), `an` as the explanation of the previous call, `%`
//!   lines as comments, a new board at each `qx`.
//!
//! The reader is liberal: unknown pairs are kept as PBN comments (with a
//! warning), malformed ones get a [`ReadDiagnostic`] with their byte range.
//! The writer reports per game what LIN cannot hold as [`Loss`]es.

use super::{Converted, Loss, Part, ReadDiagnostic};
use crate::bridge::{
    self, analyze_auction, AuctionItem, AuctionToken, Bid, Card, FinalContract, Hand, Level, Rank,
    Seat, Strain, Suit,
};
use crate::codes::Severity;
use crate::model::values;
use crate::model::values::deal::{rank_char, rank_of_char};
use crate::model::{self, AnnotationKind, CallToken, CardToken, Inherit, TagRole};
use std::ops::Range;

/// LIN's seat order in `pn` and `md`: South, West, North, East; the `md`
/// dealer digit is 1-based in this order \[forum-85366].
const LIN_SEATS: [Seat; 4] = [Seat::South, Seat::West, Seat::North, Seat::East];

/// The tags a LIN board holds (through `vg pn md sv ah qx mb pc mc`).
/// Declarer, Contract and Result are derived from `mb`, `pc` and `mc`.
pub const HELD_TAGS: [&str; 16] = [
    "Event",
    "Board",
    "Room",
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
    "HomeTeam",
    "VisitTeam",
    "Note",
];

// ---------------------------------------------------------------- pairs

/// One `key|value|` pair of the input.
#[derive(Debug)]
struct Pair<'a> {
    /// Lowercase key; `%` for a `%` comment line \[bridgedata].
    key: String,
    key_range: Range<usize>,
    value: &'a str,
    value_range: Range<usize>,
}

fn diag(severity: Severity, range: Range<usize>, message: impl Into<String>) -> ReadDiagnostic {
    ReadDiagnostic::new(severity, range, message)
}

/// Splits the input into pairs. Whitespace between pairs is ignored (BBO
/// files break lines between boards \[forum-19814]).
fn pairs<'a>(input: &'a str, diags: &mut Vec<ReadDiagnostic>) -> Vec<Pair<'a>> {
    let b = input.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // `%` at the start of a line: a comment line [bridgedata].
        if b[i] == b'%' && (i == 0 || b[i - 1] == b'\n') {
            let end = input[i..].find('\n').map_or(b.len(), |n| i + n);
            out.push(Pair {
                key: "%".into(),
                key_range: i..i + 1,
                value: input[i + 1..end].trim_end_matches('\r'),
                value_range: i + 1..end,
            });
            i = end;
            continue;
        }
        let Some(bar) = input[i..].find('|').map(|n| i + n) else {
            diags.push(diag(
                Severity::Error,
                i..b.len(),
                format!(
                    "expected a LIN pair `xx|value|`, found `{}` without `|`",
                    clip(&input[i..])
                ),
            ));
            break;
        };
        let key = &input[i..bar];
        if key.len() != 2 || !key.bytes().all(|c| c.is_ascii_alphabetic()) {
            // Odd pipes or a stray value: skip to the next pipe and resync.
            diags.push(diag(
                Severity::Error,
                i..bar,
                format!(
                    "expected a two-letter LIN key before `|`, found `{}`",
                    clip(key)
                ),
            ));
            i = bar + 1;
            continue;
        }
        let start = bar + 1;
        let end = match input[start..].find('|') {
            Some(n) => start + n,
            None => {
                diags.push(diag(
                    Severity::Error,
                    i..b.len(),
                    format!("the value of `{key}|` is not closed: expected `|`"),
                ));
                b.len()
            }
        };
        out.push(Pair {
            key: key.to_ascii_lowercase(),
            key_range: i..bar,
            value: &input[start..end],
            value_range: start..end,
        });
        i = end + 1;
    }
    out
}

/// At most 20 characters of `s`, for messages.
fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(20).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t.replace('\n', "\\n")
}

// ---------------------------------------------------------------- reader

#[derive(Clone, Debug)]
struct LinCall {
    /// PBN text of the call (`Pass`, `X`, `XX`, `1NT`).
    text: String,
    token: AuctionToken,
    /// Index into [`Board::notes`].
    note: Option<usize>,
}

#[derive(Clone, Debug, Default)]
struct Board {
    number: Option<String>,
    room: Option<&'static str>,
    dealer: Option<Seat>,
    /// Hands by `Seat as usize`; `None` for a hand not given.
    hands: Option<[Option<Hand>; 4]>,
    vulnerable: Option<&'static str>,
    calls: Vec<LinCall>,
    notes: Vec<String>,
    cards: Vec<Card>,
    claim: Option<u8>,
    comments: Vec<String>,
    /// The keys of the board's pairs read so far ([`starts_board`]).
    seen: Seen,
}

/// The LIN keys that place a board: the header pairs `vg qx pn md sv ah`,
/// then the auction and the play `mb an pc mc`.
const BOARD_KEYS: [&str; 10] = ["vg", "qx", "pn", "md", "sv", "ah", "mb", "an", "pc", "mc"];

/// A set of [`BOARD_KEYS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Seen(u16);

impl Seen {
    fn bit(key: &str) -> u16 {
        BOARD_KEYS
            .iter()
            .position(|k| *k == key)
            .map_or(0, |i| 1 << i)
    }

    fn insert(&mut self, key: &str) {
        self.0 |= Seen::bit(key);
    }

    fn any(self, keys: &[&str]) -> bool {
        keys.iter().any(|k| self.0 & Seen::bit(k) != 0)
    }

    /// Something of a board besides `vg` (which the boards after share).
    fn has_board(self) -> bool {
        self.0 & !Seen::bit("vg") != 0
    }
}

/// Whether a `key` pair starts the next board after the pairs `seen` of
/// the current one; the reader and the writer's check both ask it. LIN has
/// no board separator: a board starts at `qx` \[bridgedata] or `vg`. BBO
/// writes each board's header pairs before its auction and play (`qx pn st
/// md rh ah sv` \[forum-19814], `qx md rh ah sv` \[forum-85366]), but other
/// writers and hand edits put `ah`, `sv` or `pn` before or after `md`, so
/// the header pairs may come in any order: only a header pair repeated
/// within the board, or one after the auction or play has started, starts
/// the next board; so does a call after the play.
fn starts_board(key: &str, seen: Seen) -> bool {
    let content = seen.any(&["md", "sv", "ah", "mb", "pc", "mc"]);
    let play = seen.any(&["mb", "an", "pc", "mc"]);
    match key {
        "vg" => content,
        "qx" => content || seen.any(&["qx"]),
        "pn" | "md" | "sv" | "ah" => play || seen.any(&[key]),
        "mb" => seen.any(&["pc", "mc"]),
        _ => false,
    }
}

/// What carries over from board to board: players (`pn`) and the `vg` line.
#[derive(Clone, Debug, Default)]
struct Carried {
    players: Option<[String; 4]>,
    event: Option<String>,
    teams: Option<(String, String)>,
}

/// Reads LIN and writes PBN (export format). One PBN game per board; where
/// a board starts is [`starts_board`].
pub fn to_pbn(input: &str) -> Converted {
    let mut diagnostics = Vec::new();
    let pairs = pairs(input, &mut diagnostics);
    let mut games = Vec::new();
    let mut carried = Carried::default();
    let mut board = Board::default();
    let mut pending_comments: Vec<String> = Vec::new();
    for p in &pairs {
        if starts_board(&p.key, board.seen) {
            let b = std::mem::take(&mut board);
            games.push(write_board(&b, &carried, &mut diagnostics));
        }
        if !pending_comments.is_empty() {
            board.comments.append(&mut pending_comments);
        }
        read_pair(p, &mut board, &mut carried, &mut diagnostics);
        board.seen.insert(&p.key);
    }
    if board.seen.has_board()
        || !board.comments.is_empty()
        || games.is_empty() && carried.event.is_some()
    {
        games.push(write_board(&board, &carried, &mut diagnostics));
    }
    let pbn = games.join("\n");
    let source = crate::text::SourceText::from_text(pbn);
    let formatted = crate::format::format_fixed(&source, &crate::format::FormatOptions::default());
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    Converted {
        text: formatted.text,
        diagnostics,
        losses: Vec::new(),
    }
}

fn read_pair(
    p: &Pair<'_>,
    board: &mut Board,
    carried: &mut Carried,
    diags: &mut Vec<ReadDiagnostic>,
) {
    let v = p.value;
    let keep = |board: &mut Board| board.comments.push(format!("LIN {}|{}|", p.key, v));
    match p.key.as_str() {
        "%" => board.comments.push(v.trim().to_string()),
        // `vg|title,subtitle,scoring,first,last,team1,score1,team2,score2|`
        // [forum-19814]: the event and the teams; the line is kept whole as
        // a comment too (the scores have no PBN tag per game).
        "vg" => {
            let f: Vec<&str> = v.split(',').collect();
            carried.event = f
                .first()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty());
            let team = |k: usize| f.get(k).map(|s| s.trim().to_string()).unwrap_or_default();
            carried.teams =
                (!team(5).is_empty() || !team(7).is_empty()).then(|| (team(5), team(7)));
            keep(board);
        }
        // Session headers [bridgedata]: results, players, scores, boards.
        "rs" | "pw" | "mp" | "bn" => keep(board),
        // `pn|S,W,N,E|` [forum-19814]; a header `pn` may list both rooms.
        "pn" => {
            let names: Vec<&str> = v.split(',').map(str::trim).collect();
            let mut players: [String; 4] = Default::default();
            for (k, name) in names.iter().take(4).enumerate() {
                players[k] = name.to_string();
            }
            if names.len() > 4 {
                keep(board);
            }
            carried.players = Some(players);
        }
        // `qx|o1|`: open (o) or closed (c) room and board number [bridgedata].
        "qx" => {
            let mut chars = v.chars();
            let room = match chars.next() {
                Some('o' | 'O') => Some("Open"),
                Some('c' | 'C') => Some("Closed"),
                _ => None,
            };
            let num = chars.as_str();
            if room.is_none() || !num.bytes().all(|c| c.is_ascii_digit()) {
                diags.push(diag(
                    Severity::Warning,
                    p.value_range.clone(),
                    format!(
                        "expected `o<board>` or `c<board>` in `qx|`, found `{}`",
                        clip(v)
                    ),
                ));
                keep(board);
            }
            board.room = room;
            if !num.is_empty() && num.bytes().all(|c| c.is_ascii_digit()) {
                board.number = Some(num.trim_start_matches('0').to_string());
            }
        }
        "md" => {
            read_deal(v, p.value_range.start, board, diags);
        }
        // `sv|o|`: none (`o`, also `0` or `-`), `n` NS, `e` EW, `b` both
        // [forum-19814] [forum-85366].
        "sv" => {
            board.vulnerable = match v.trim().to_ascii_lowercase().as_str() {
                "o" | "0" | "-" | "" => Some("None"),
                "n" | "ns" => Some("NS"),
                "e" | "ew" => Some("EW"),
                "b" | "both" | "all" => Some("All"),
                _ => {
                    diags.push(diag(
                        Severity::Error,
                        p.value_range.clone(),
                        format!(
                            "expected a vulnerability `o`, `n`, `e` or `b`, found `{}`",
                            clip(v)
                        ),
                    ));
                    None
                }
            };
        }
        // `ah|Board 1|` [forum-19814].
        "ah" => {
            let n = v.trim().rsplit(' ').next().unwrap_or("");
            if v.trim().to_ascii_lowercase().starts_with("board") && n.parse::<u32>().is_ok() {
                if board.number.is_none() {
                    board.number = Some(n.trim_start_matches('0').to_string());
                }
            } else if !v.trim().is_empty() {
                keep(board);
            }
        }
        "mb" => {
            read_call(v, p.value_range.clone(), board, diags);
        }
        // `an|text|` explains the call before it [bridgedata].
        "an" => match board.calls.last_mut() {
            Some(call) => {
                let k = *call.note.get_or_insert_with(|| {
                    board.notes.push(String::new());
                    board.notes.len() - 1
                });
                board.notes[k] = v.to_string();
            }
            None => {
                diags.push(diag(
                    Severity::Warning,
                    p.key_range.start..p.value_range.end,
                    "`an|` explains the call before it, but no call comes before; kept as a comment",
                ));
                keep(board);
            }
        },
        "pc" => match parse_lin_card(v) {
            Some(card) => board.cards.push(card),
            None => diags.push(diag(
                Severity::Error,
                p.value_range.clone(),
                format!(
                    "expected a card such as `SA` or `H10` in `pc|`, found `{}`",
                    clip(v)
                ),
            )),
        },
        // `mc|11|`: the claim, total tricks for declarer [forum-19814].
        "mc" => match v.trim().parse::<u8>() {
            Ok(n) if n <= 13 => board.claim = Some(n),
            _ => diags.push(diag(
                Severity::Error,
                p.value_range.clone(),
                format!(
                    "expected declarer's tricks 0 to 13 in `mc|`, found `{}`",
                    clip(v)
                ),
            )),
        },
        // Page breaks, and `st`/`rh` (empty in every published sample).
        "pg" | "pf" => {}
        "st" | "rh" => {
            if !v.trim().is_empty() {
                keep(board);
            }
        }
        // Commentary: `nt` chat [bridgedata], `at` movie annotation text.
        "nt" | "at" => board.comments.push(v.to_string()),
        _ => {
            diags.push(diag(
                Severity::Warning,
                p.key_range.clone(),
                format!("unknown LIN pair `{}|`: kept as a comment", p.key),
            ));
            keep(board);
        }
    }
}

fn parse_suit(c: u8) -> Option<Suit> {
    match c.to_ascii_uppercase() {
        b'S' => Some(Suit::Spades),
        b'H' => Some(Suit::Hearts),
        b'D' => Some(Suit::Diamonds),
        b'C' => Some(Suit::Clubs),
        _ => None,
    }
}

/// A LIN card: suit then rank, `T` or `10` for the ten, any case.
fn parse_lin_card(v: &str) -> Option<Card> {
    let v = v.trim();
    let suit = parse_suit(*v.as_bytes().first()?)?;
    let rest = v.get(1..)?;
    let rank = if rest == "10" {
        Rank::new(10)
    } else {
        let mut ch = rest.chars();
        let r = rank_of_char(ch.next()?)?;
        if ch.next().is_some() {
            return None;
        }
        r
    };
    Some(Card { suit, rank })
}

/// `md|3S…H…D…C…,S…,S…,|`: the dealer digit (1 South, 2 West, 3 North,
/// 4 East) then the hands South, West, North, East \[forum-85366]; a
/// missing fourth hand is the remaining cards \[forum-19814].
fn read_deal(v: &str, at: usize, board: &mut Board, diags: &mut Vec<ReadDiagnostic>) {
    let b = v.as_bytes();
    let mut i = 0;
    if let Some(&d) = b.first() {
        if d.is_ascii_digit() {
            match d {
                b'1'..=b'4' => board.dealer = Some(LIN_SEATS[(d - b'1') as usize]),
                _ => diags.push(diag(
                    Severity::Error,
                    at..at + 1,
                    format!(
                        "expected a dealer digit 1 (South) to 4 (East), found `{}`",
                        d as char
                    ),
                )),
            }
            i = 1;
        }
    }
    let mut hands: [Option<Hand>; 4] = [None; 4];
    let mut seen = Hand::EMPTY;
    for (k, part) in v[i..].split(',').enumerate() {
        let start = i;
        i += part.len() + 1;
        if k >= 4 {
            if !part.trim().is_empty() {
                diags.push(diag(
                    Severity::Error,
                    at + start..at + start + part.len(),
                    "expected at most four hands in `md|`",
                ));
            }
            continue;
        }
        if part.trim().is_empty() {
            continue;
        }
        let mut hand = Hand::EMPTY;
        let mut suit = None;
        let pb = part.as_bytes();
        let mut j = 0;
        while j < pb.len() {
            let c = pb[j];
            let pos = at + start + j;
            if let Some(s) = parse_suit(c) {
                suit = Some(s);
                j += 1;
                continue;
            }
            let (rank, len) = if c == b'1' && pb.get(j + 1) == Some(&b'0') {
                (Some(Rank::new(10)), 2)
            } else {
                (rank_of_char(c as char), 1)
            };
            match (suit, rank) {
                (Some(s), Some(r)) => {
                    let card = Card { suit: s, rank: r };
                    if seen.contains(card) {
                        diags.push(diag(
                            Severity::Error,
                            pos..pos + len,
                            format!(
                                "the card {} is given twice in `md|`",
                                bridge::card_text(card)
                            ),
                        ));
                    } else {
                        seen.insert(card);
                        hand.insert(card);
                    }
                }
                (None, Some(_)) => diags.push(diag(
                    Severity::Error,
                    pos..pos + len,
                    "expected a suit letter S, H, D or C before the ranks in `md|`",
                )),
                _ => {
                    let n = part[j..].chars().next().map_or(1, char::len_utf8);
                    diags.push(diag(
                        Severity::Error,
                        pos..pos + n,
                        format!(
                            "expected a suit letter or a rank in `md|`, found `{}`",
                            &part[j..j + n]
                        ),
                    ));
                    j += n;
                    continue;
                }
            }
            j += len;
        }
        if hand.len() > 13 {
            diags.push(diag(
                Severity::Error,
                at + start..at + start + part.len(),
                format!("a hand has {} cards in `md|`: at most 13", hand.len()),
            ));
        }
        hands[LIN_SEATS[k] as usize] = Some(hand);
    }
    // The fourth hand left out: the cards the others do not hold.
    let given: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|s| hands[*s as usize].is_some())
        .collect();
    if given.len() == 3
        && given
            .iter()
            .all(|s| hands[*s as usize].is_some_and(|h| h.len() == 13))
    {
        let missing = Seat::ALL.into_iter().find(|s| hands[*s as usize].is_none());
        if let Some(m) = missing {
            hands[m as usize] = Some(Hand::ALL - seen);
        }
    }
    board.hands = Some(hands);
}

/// `mb|1N|`, `mb|p|`, `mb|d|`, `mb|r|`; a `!` suffix alerts the call
/// \[bridgedata].
fn read_call(v: &str, range: Range<usize>, board: &mut Board, diags: &mut Vec<ReadDiagnostic>) {
    let t = v.trim();
    let (t, alerted) = match t.strip_suffix('!') {
        Some(t) => (t, true),
        None => (t, false),
    };
    let u = t.to_ascii_uppercase();
    let token = match u.as_str() {
        "P" | "PASS" => Some(AuctionToken::Pass),
        "D" | "X" | "DBL" => Some(AuctionToken::Double),
        "R" | "XX" | "RDBL" => Some(AuctionToken::Redouble),
        _ => {
            let b = u.as_bytes();
            let strain = match &u.get(1..) {
                Some("C") => Some(Strain::Clubs),
                Some("D") => Some(Strain::Diamonds),
                Some("H") => Some(Strain::Hearts),
                Some("S") => Some(Strain::Spades),
                Some("N" | "NT") => Some(Strain::Notrump),
                _ => None,
            };
            match (b.first(), strain) {
                (Some(l @ b'1'..=b'7'), Some(strain)) => Some(AuctionToken::Bid(Bid {
                    level: Level::new(l - b'0'),
                    strain,
                })),
                _ => None,
            }
        }
    };
    let Some(token) = token else {
        diags.push(diag(
            Severity::Error,
            range,
            format!(
                "expected a call `p`, `d`, `r` or a bid `1C`…`7N` in `mb|`, found `{}`",
                clip(v)
            ),
        ));
        return;
    };
    let text = match token {
        AuctionToken::Bid(b) => bridge::bid_text(b),
        AuctionToken::Double => "X".into(),
        AuctionToken::Redouble => "XX".into(),
        _ => "Pass".into(),
    };
    let note = alerted.then(|| {
        board.notes.push(String::new());
        board.notes.len() - 1
    });
    board.calls.push(LinCall { text, token, note });
}

fn seat_letter(s: Seat) -> char {
    s.letter()
}

/// PBN of a hand: `S.H.D.C`, ranks descending.
fn hand_pbn(hand: Hand) -> String {
    Suit::DESC
        .into_iter()
        .map(|s| hand[s].iter().map(rank_char).collect::<String>())
        .collect::<Vec<_>>()
        .join(".")
}

/// Escapes a comment's text for `{…}`: `}` cannot appear inside (§3.8).
fn comment_text(s: &str) -> String {
    s.replace('}', ")")
}

fn trick_winner(cards: &[Card], leader: Seat, trump: Option<Suit>) -> Seat {
    let led = cards[0].suit;
    let mut best = 0;
    for (k, c) in cards.iter().enumerate().skip(1) {
        let b = cards[best];
        let beats = if c.suit == b.suit {
            c.rank > b.rank
        } else {
            Some(c.suit) == trump || (c.suit == led && Some(b.suit) != trump && b.suit != led)
        };
        if beats {
            best = k;
        }
    }
    bridge::rotate(leader, best)
}

/// One board as a PBN game (import format).
fn write_board(b: &Board, carried: &Carried, diags: &mut Vec<ReadDiagnostic>) -> String {
    let _ = diags;
    let mut out = String::new();
    for c in &b.comments {
        out.push_str(&format!("{{{}}}\n", comment_text(c)));
    }
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", model::escape(value)));
    };
    tag("Event", carried.event.as_deref().unwrap_or("?"));
    if let Some(n) = &b.number {
        tag("Board", if n.is_empty() { "0" } else { n });
    }
    if let Some(p) = &carried.players {
        for seat in [Seat::West, Seat::North, Seat::East, Seat::South] {
            let k = LIN_SEATS.iter().position(|s| *s == seat).unwrap_or(0);
            if !p[k].is_empty() {
                tag(bridge::seat_name(seat), &p[k]);
            }
        }
    }
    if let Some(d) = b.dealer {
        tag("Dealer", &d.letter().to_string());
    }
    if let Some(v) = b.vulnerable {
        tag("Vulnerable", v);
    }
    if let Some(hands) = &b.hands {
        let first = b.dealer.unwrap_or(Seat::North);
        let text: Vec<String> = (0..4)
            .map(|k| {
                let s = bridge::rotate(first, k);
                hands[s as usize].map_or("-".into(), hand_pbn)
            })
            .collect();
        tag(
            "Deal",
            &format!("{}:{}", seat_letter(first), text.join(" ")),
        );
    }
    if let Some(r) = b.room {
        tag("Room", r);
    }
    if let Some((home, visit)) = &carried.teams {
        if !home.is_empty() {
            tag("HomeTeam", home);
        }
        if !visit.is_empty() {
            tag("VisitTeam", visit);
        }
    }
    // The contract from the auction.
    let first = b.dealer.unwrap_or(Seat::North);
    let items: Vec<AuctionItem> = b
        .calls
        .iter()
        .map(|c| AuctionItem {
            token: c.token,
            insufficient_marked: false,
        })
        .collect();
    let analysis = (!b.calls.is_empty()).then(|| analyze_auction(b.dealer, first, &items));
    let contract = analysis.as_ref().and_then(|a| a.contract);
    match contract {
        Some(FinalContract::PassedOut) => {
            tag("Contract", "Pass");
        }
        Some(FinalContract::Contract { contract, declarer }) => {
            tag("Declarer", &declarer.letter().to_string());
            tag("Contract", &bridge::contract_text(contract));
        }
        None => {}
    }
    // Tricks from the play (trick winners by the contract's trump).
    let declarer = match contract {
        Some(FinalContract::Contract { declarer, .. }) => Some(declarer),
        _ => None,
    };
    let trump = match contract {
        Some(FinalContract::Contract { contract, .. }) => match contract.bid.strain {
            Strain::Clubs => Some(Suit::Clubs),
            Strain::Diamonds => Some(Suit::Diamonds),
            Strain::Hearts => Some(Suit::Hearts),
            Strain::Spades => Some(Suit::Spades),
            Strain::Notrump => None,
        },
        _ => None,
    };
    let mut rows: Vec<[Option<Card>; 4]> = Vec::new();
    let mut declarer_tricks = 0u8;
    let opening = declarer.map(|d| d.lho());
    if let (Some(opening), Some(declarer)) = (opening, declarer) {
        let mut leader = opening;
        for trick in b.cards.chunks(4) {
            let mut row = [None; 4];
            for (k, c) in trick.iter().enumerate() {
                let seat = bridge::rotate(leader, k);
                row[bridge::distance(opening, seat)] = Some(*c);
            }
            rows.push(row);
            if trick.len() == 4 {
                leader = trick_winner(trick, leader, trump);
                if bridge::same_side(leader, declarer) {
                    declarer_tricks += 1;
                }
            }
        }
    }
    let result = b
        .claim
        .or((b.cards.len() == 52 && declarer.is_some()).then_some(declarer_tricks));
    if let Some(r) = result {
        tag("Result", &r.to_string());
    }
    if !b.calls.is_empty() {
        let mut numbers = vec![0usize; b.notes.len()];
        let mut next = 1;
        out.push_str(&format!("[Auction \"{}\"]\n", first.letter()));
        for (k, c) in b.calls.iter().enumerate() {
            out.push_str(&c.text);
            if let Some(n) = c.note {
                if numbers[n] == 0 {
                    numbers[n] = next;
                    next += 1;
                }
                out.push_str(&format!(" ={}=", numbers[n]));
            }
            out.push(if k % 4 == 3 { '\n' } else { ' ' });
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        for (n, text) in b.notes.iter().enumerate() {
            if numbers[n] > 0 {
                out.push_str(&format!(
                    "[Note \"{}:{}\"]\n",
                    numbers[n],
                    model::escape(text)
                ));
            }
        }
    }
    if let Some(opening) = opening.filter(|_| !b.cards.is_empty()) {
        out.push_str(&format!("[Play \"{}\"]\n", opening.letter()));
        for (k, row) in rows.iter().enumerate() {
            let mut cells: Vec<String> = row
                .iter()
                .map(|c| c.map_or("-".into(), bridge::card_text))
                .collect();
            // The cards of an unfinished last trick not played yet are not
            // written: the `*` after them says no more are given (§3.6).
            if k + 1 == rows.len() && b.cards.len() < 52 {
                while cells.last().is_some_and(|c| c == "-") {
                    cells.pop();
                }
            }
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        if b.cards.len() < 52 {
            out.push_str("*\n");
        }
    } else if !b.cards.is_empty() {
        // Cards but no contract to place them by: keep them in play order.
        let cards: Vec<String> = b.cards.iter().map(|c| bridge::card_text(*c)).collect();
        out.push_str(&format!(
            "{{LIN play without a contract: {}}}\n",
            cards.join(" ")
        ));
    }
    out
}

// ---------------------------------------------------------------- writer

/// The LIN form of a call: `p`, `d`, `r`, `1N`, `4S`.
fn lin_call(token: CallToken) -> Option<String> {
    Some(match token {
        CallToken::Pass => "p".into(),
        CallToken::Double => "d".into(),
        CallToken::Redouble => "r".into(),
        CallToken::Bid(b) => super::short_bid(b),
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
    let mut last_vg: Option<String> = None;
    // The `pn` written last: LIN's reader carries it to the boards after.
    let mut last_pn = false;
    // The keys of the board the reader is in after the games written so
    // far; `None` before the first.
    let mut reader_seen: Option<Seen> = None;
    for g in doc.games.iter().filter(|g| games.contains(&g.index)) {
        let mut lose = |part: Part, what: String| {
            losses.push(Loss {
                game: g.index,
                parts: vec![part],
                what,
            })
        };
        let typed = model::typed::typed(pbn, g);
        let mut line = String::new();
        let val = |name: &str| g.value(name).filter(|v| !v.is_empty() && *v != "?");
        // vg: the event and the teams, when they change [forum-19814].
        let vg = match (val("Event"), val("HomeTeam"), val("VisitTeam")) {
            (None, None, None) => None,
            (e, h, v) => Some(format!(
                "{},,,,,{},,{},",
                lin_field(e.unwrap_or("")),
                lin_field(h.unwrap_or("")),
                lin_field(v.unwrap_or(""))
            )),
        };
        // An empty `vg` ends the event and teams the reader carries on.
        if vg != last_vg {
            line.push_str(&format!("vg|{}|\n", vg.as_deref().unwrap_or(",,,,,,,,")));
        }
        last_vg = vg;
        if let Some(room) = val("Room") {
            let r = match room.to_ascii_lowercase().as_str() {
                "open" => Some('o'),
                "closed" => Some('c'),
                _ => None,
            };
            match r {
                Some(r) => line.push_str(&format!("qx|{r}{}|", val("Board").unwrap_or(""))),
                None => lose(
                    Part::tag("Room"),
                    format!("tag Room: LIN's qx holds Open or Closed, not {room:?}"),
                ),
            }
        }
        let names: Vec<&str> = LIN_SEATS
            .iter()
            .map(|s| val(bridge::seat_name(*s)).unwrap_or(""))
            .collect();
        // Written whenever a name is given, and empty (`pn|,,,|`) after
        // names: the reader carries the last `pn` on.
        let has_names = names.iter().any(|n| !n.is_empty());
        // Where the header pairs `pn md sv ah` start and end in `line`.
        let header_start = line.len();
        if has_names || last_pn {
            let names: Vec<String> = names.iter().map(|n| lin_field(n)).collect();
            line.push_str(&format!("pn|{}|", names.join(",")));
        }
        last_pn = has_names;
        // md: dealer digit and the hands S, W, N, E.
        let dealer = typed.dealer;
        let mut no_md = false;
        if let Some(deal) = &typed.deal {
            let digit = match dealer {
                Some(d) => (LIN_SEATS.iter().position(|s| *s == d).unwrap_or(0) + 1).to_string(),
                None => String::new(),
            };
            let hands: Vec<String> = LIN_SEATS
                .iter()
                .map(|s| deal.hand(*s).map_or(String::new(), hand_lin))
                .collect();
            if deal.spot_cards.iter().any(|&n| n > 0) {
                lose(
                    Part::tag("Deal"),
                    "tag Deal: spot cards `x` have no LIN form".into(),
                );
            }
            if deal.given_hands() == 3 && deal.hands.iter().flatten().all(|h| h.len() == 13) {
                lose(
                    Part::tag("Deal"),
                    "tag Deal: a hand not given is the remaining cards in LIN".into(),
                );
            }
            if deal.hands.iter().all(|h| h.is_none_or(|h| h.is_empty())) {
                lose(
                    Part::tag("Deal"),
                    "tag Deal: a deal of no cards is no LIN md".into(),
                );
                no_md = true;
            } else if deal.given_hands() < 4
                && !(deal.given_hands() == 3 && deal.hands.iter().flatten().all(|h| h.len() == 13))
            {
                lose(
                    Part::tag("Deal"),
                    "tag Deal: a hand not given has no LIN form (md writes it empty)".into(),
                );
            }
            line.push_str(&format!("md|{digit}{}|", hands.join(",")));
        } else {
            if g.value("Deal").is_some_and(|v| !v.is_empty() && v != "?") {
                lose(Part::tag("Deal"), "tag Deal: not readable".into());
            }
            no_md = true;
        }
        // The dealer is md's first digit, and the auction's seats follow
        // from it.
        if no_md && dealer.is_some() {
            lose(
                Part::tag("Dealer"),
                "tag Dealer: LIN gives it in md, and there is no md for this deal".into(),
            );
            if g.auction.is_some() {
                lose(
                    Part::Auction,
                    "auction: its seats follow from md's dealer, and there is none".into(),
                );
            }
        }
        if let Some(v) = typed.vulnerable.as_ref() {
            let s = crate::spec::seats::by_vulnerability(v.vulnerability, ["o", "n", "e", "b"]);
            line.push_str(&format!("sv|{s}|"));
        }
        if let Some(b) = val("Board") {
            if !b.bytes().all(|c| c.is_ascii_digit()) {
                lose(
                    Part::tag("Board"),
                    format!("tag Board: LIN's ah holds board numbers, not {b:?}"),
                );
            }
            line.push_str(&format!("ah|Board {}|", lin_text(b)));
        }
        let header_end = line.len();
        if let Some(seen) = reader_seen {
            line = lead_with_a_board_start(&line, header_start..header_end, seen);
        }
        // Tags without a LIN pair.
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
                    lose(
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
                lose(
                    Part::Inheritance(t.name.to_string()),
                    format!("tag {}: LIN has no `#`/`##` inheritance", t.name),
                );
            }
            if t.name == "Note" && t.role == TagRole::Plain {
                lose(
                    Part::tag("Note"),
                    "tag Note: a note outside the auction and play has no LIN form".into(),
                );
            }
            if !HELD_TAGS.contains(&t.name.as_str()) {
                lose(
                    Part::tag(&t.name),
                    format!("tag {}: LIN has no pair for it", t.name),
                );
            }
        }
        for i in &g.inherited {
            if !HELD_TAGS.contains(&i.name.as_str()) && i.value != "?" && g.tag(&i.name).is_none() {
                lose(
                    Part::tag(&i.name),
                    format!("tag {}: LIN has no pair for it", i.name),
                );
            }
        }
        for sec in &g.sections {
            if let Some(t) = g.tags.get(sec.tag) {
                lose(
                    Part::Section(t.name.to_string()),
                    format!("the section data of tag {}: LIN has no tables", t.name),
                );
            }
        }
        // The auction, and the calls written (the reader derives the
        // contract, and the play's seats, from them).
        let mut auction_held = false;
        let mut written_calls: Vec<AuctionItem> = Vec::new();
        if let Some(a) = &g.auction {
            let first = (a.tag != usize::MAX)
                .then(|| g.tags[a.tag].effective())
                .flatten()
                .and_then(|v| values::parse_auction_seat(v).value)
                .map(|s| s.seat);
            if first.is_some() && first != dealer {
                lose(
                    Part::Auction,
                    "auction: LIN auctions start with the dealer".into(),
                );
            }
            let notes = note_texts(g, &a.notes);
            auction_held = true;
            let mut push = |token: AuctionToken| {
                written_calls.push(AuctionItem {
                    token,
                    insufficient_marked: false,
                })
            };
            let entries = super::read_calls(pbn, &a.entries);
            for (k, e) in entries.iter().enumerate() {
                let token = e.token;
                if token == CallToken::AllPass {
                    for _ in 0..model::all_pass_count(&entries[..k]) {
                        line.push_str("mb|p|");
                        push(AuctionToken::Pass);
                    }
                    continue;
                }
                if matches!(token, CallToken::Terminator | CallToken::Dash) {
                    continue;
                }
                let Some(call) = lin_call(token) else {
                    lose(
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
                    CallToken::Double => AuctionToken::Double,
                    CallToken::Redouble => AuctionToken::Redouble,
                    CallToken::Bid(b) => AuctionToken::Bid(b),
                    _ => AuctionToken::Pass,
                });
                let mut note = None;
                for an in e.post().iter().chain(e.pre()) {
                    match an.kind {
                        AnnotationKind::NoteRef(Some(n)) if note.is_none() => {
                            let text = notes.iter().find(|(i, _)| *i == n).map(|(_, t)| &**t);
                            if text.is_none() {
                                lose(
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
                        _ => lose(
                            Part::AuctionAnnotations,
                            format!(
                                "auction: the annotation \"{}\" has no LIN form",
                                &pbn[an.range.clone()]
                            ),
                        ),
                    }
                }
                match note {
                    Some("") => line.push_str(&format!("mb|{call}!|")),
                    Some(t) => line.push_str(&format!("mb|{call}!|an|{}|", lin_text(t))),
                    None => line.push_str(&format!("mb|{call}|")),
                }
            }
        }
        if g.auction.is_some() && written_calls.is_empty() {
            lose(
                Part::Auction,
                "auction: an auction of no calls has no LIN form (mb holds calls)".into(),
            );
        }
        for (name, read) in [
            ("Dealer", typed.dealer.is_some()),
            ("Vulnerable", typed.vulnerable.is_some()),
            ("Contract", typed.contract.is_some()),
            ("Result", typed.result.is_some()),
            ("Declarer", typed.declarer.is_some()),
        ] {
            if !read && val(name).is_some() {
                lose(Part::tag(name), format!("tag {name}: not readable"));
            }
        }
        // The declarer LIN's reader derives from the calls written, with
        // md's dealer (it seats the play from it too).
        let reader_dealer = typed.deal.as_ref().and(dealer);
        let reader_declarer = (!written_calls.is_empty())
            .then(|| {
                analyze_auction(
                    reader_dealer,
                    reader_dealer.unwrap_or(Seat::North),
                    &written_calls,
                )
            })
            .and_then(|a| a.contract)
            .and_then(|c| match c {
                FinalContract::Contract { declarer, .. } => Some(declarer),
                FinalContract::PassedOut => None,
            });
        if let (Some(d), Some(declarer)) = (typed.declarer.and_then(|d| d.seat), reader_declarer) {
            if d != declarer && auction_held {
                lose(
                    Part::tag("Declarer"),
                    "tag Declarer: LIN derives it from the auction, which names another".into(),
                );
            }
        }
        for name in ["Declarer", "Contract"] {
            if !auction_held && val(name).is_some() {
                lose(
                    Part::tag(name),
                    format!("tag {name}: LIN derives it from the auction, and there is none"),
                );
            }
        }
        // The play, in play order from each trick's leader.
        let mut play_complete = false;
        let mut cards_written = 0;
        if let (Some(p), Some(analysis)) = (&g.play, &typed.play) {
            let entries = super::read_cards(pbn, &p.entries);
            let mut cards = 0;
            'tricks: for t in &analysis.tricks {
                let Some(leader) = t.leader else {
                    lose(Part::Play, "play: a trick with an unknown leader".into());
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
                                lose(
                                    Part::PlayAnnotations,
                                    format!(
                                        "play: the annotation \"{}\" has no LIN form",
                                        &pbn[an.range.clone()]
                                    ),
                                );
                            }
                            line.push_str(&format!("pc|{}|", bridge::card_text(c)));
                            cards += 1;
                        }
                        _ => {
                            lose(
                                Part::Play,
                                "play: from an unknown or unreadable card on (LIN's pc holds cards)"
                                    .into(),
                            );
                            break 'tricks;
                        }
                    }
                }
            }
            play_complete = cards == 52;
            cards_written = cards;
            // The reader seats the play from `reader_declarer`: the opening
            // lead is from its left-hand opponent.
            let leader = analysis.tricks.first().and_then(|t| t.leader);
            if cards > 0 && reader_declarer.map(Seat::lho) != leader {
                lose(
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
                lose(
                    Part::PlayEnd,
                    "play: an unfinished play without `*` (LIN's reader ends it with `*`)".into(),
                );
            }
            if !p.notes.is_empty() {
                lose(
                    Part::PlayAnnotations,
                    "play: notes on cards have no LIN form".into(),
                );
            }
        }
        if g.play.is_some() && cards_written == 0 {
            lose(
                Part::Play,
                "play: a play of no cards has no LIN form (pc holds cards)".into(),
            );
        }
        // mc: the result when the play does not show it.
        if !play_complete {
            if let Some(r) = typed.result.as_ref().and_then(|r| r.tricks) {
                let declarer = typed.declarer.and_then(|d| d.seat).or(
                    match typed.auction.as_ref().and_then(|a| a.contract) {
                        Some(FinalContract::Contract { declarer, .. }) => Some(declarer),
                        _ => None,
                    },
                );
                match declarer.and_then(|d| r.for_declarer(bridge::is_north_south(d))) {
                    Some(n) if auction_held => line.push_str(&format!("mc|{n}|")),
                    _ => lose(
                        Part::tag("Result"),
                        "tag Result: LIN's mc needs an auction with a declarer".into(),
                    ),
                }
            }
        }
        for c in g
            .commentary()
            .filter(|c| c.kind != model::CommentKind::Escape)
        {
            let text = c.body(pbn).trim();
            if !text.is_empty() {
                line.push_str(&format!("nt|{}|", lin_text(text)));
            }
        }
        // Where the reader starts this board ([`starts_board`]): before
        // any header pair of it, or the board before takes that pair.
        let mut split = reader_seen.is_none();
        let mut seen = reader_seen.unwrap_or_default();
        let mut late = false;
        for p in pairs(&line, &mut Vec::new()) {
            if starts_board(&p.key, seen) {
                seen = Seen::default();
                split = true;
            } else if !split && HEADER_KEYS.contains(&p.key.as_str()) {
                late = true;
            }
            seen.insert(&p.key);
        }
        reader_seen = Some(seen);
        if !split || late {
            lose(
                Part::Game,
                "game: LIN cannot keep it apart from the board before (no pair of it starts a \
                 board)"
                    .into(),
            );
        }
        if g.syntax_error {
            lose(
                Part::SyntaxErrors,
                "game: has syntax errors; written as far as it could be read".into(),
            );
        }
        out.push_str(&line);
        out.push_str("pg||\n");
    }
    Converted {
        text: out,
        diagnostics: Vec::new(),
        losses,
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
