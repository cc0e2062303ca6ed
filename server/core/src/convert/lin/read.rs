//! The LIN reader (LIN → PBN): one PBN game per board.

use super::pairs::{clip, diag, pairs, starts_board, Pair, Seen};
use super::LIN_SEATS;
use crate::bridge::{
    self, analyze_auction, AuctionItem, Bid, CallToken, Card, FinalContract, Hand, Level, Rank,
    Seat, Strain, Suit,
};
use crate::codes::Severity;
use crate::convert::{Converted, ReadDiagnostic};
use crate::model;
use crate::model::values::deal::{rank_char, rank_of_char};
use std::ops::Range;

#[derive(Clone, Debug)]
struct LinCall {
    /// PBN text of the call (`Pass`, `X`, `XX`, `1NT`).
    text: String,
    token: CallToken,
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

/// Reads one pair into the board or into what carries over to the next.
fn read_pair(
    p: &Pair<'_>,
    board: &mut Board,
    carried: &mut Carried,
    diags: &mut Vec<ReadDiagnostic>,
) {
    let v = p.value;
    match p.key.as_str() {
        "%" => board.comments.push(v.trim().to_string()),
        "vg" => read_vg(p, board, carried),
        // Session headers [bridgedata]: results, players, scores, boards.
        "rs" | "pw" | "mp" | "bn" => keep(p, board),
        "pn" => read_players(p, board, carried),
        "qx" => read_qx(p, board, diags),
        "md" => {
            read_deal(v, p.value_range.start, board, diags);
        }
        "sv" => read_vulnerable(p, board, diags),
        "ah" => read_ah(p, board),
        "mb" => {
            read_call(v, p.value_range.clone(), board, diags);
        }
        "an" => read_explanation(p, board, diags),
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
                keep(p, board);
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
            keep(p, board);
        }
    }
}

/// Keeps a pair as the comment `{LIN key|value|}`.
fn keep(p: &Pair<'_>, board: &mut Board) {
    board.comments.push(format!("LIN {}|{}|", p.key, p.value));
}

/// Reads `vg`: the event and the teams, carried to the boards after.
///
/// `vg|title,subtitle,scoring,first,last,team1,score1,team2,score2|`
/// \[forum-19814]; the line is kept whole as a comment too (the scores
/// have no PBN tag per game).
fn read_vg(p: &Pair<'_>, board: &mut Board, carried: &mut Carried) {
    let f: Vec<&str> = p.value.split(',').collect();
    carried.event = f
        .first()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let team = |k: usize| f.get(k).map(|s| s.trim().to_string()).unwrap_or_default();
    carried.teams = (!team(5).is_empty() || !team(7).is_empty()).then(|| (team(5), team(7)));
    keep(p, board);
}

/// Reads `pn|S,W,N,E|`: the players, carried to the boards after.
///
/// \[forum-19814]; a header `pn` may list both rooms.
fn read_players(p: &Pair<'_>, board: &mut Board, carried: &mut Carried) {
    let names: Vec<&str> = p.value.split(',').map(str::trim).collect();
    let mut players: [String; 4] = Default::default();
    for (k, name) in names.iter().take(4).enumerate() {
        players[k] = name.to_string();
    }
    if names.len() > 4 {
        keep(p, board);
    }
    carried.players = Some(players);
}

/// Reads `qx|o1|`: open (o) or closed (c) room and board number \[bridgedata].
fn read_qx(p: &Pair<'_>, board: &mut Board, diags: &mut Vec<ReadDiagnostic>) {
    let v = p.value;
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
        keep(p, board);
    }
    board.room = room;
    if !num.is_empty() && num.bytes().all(|c| c.is_ascii_digit()) {
        board.number = Some(num.trim_start_matches('0').to_string());
    }
}

/// Reads `sv`: the vulnerability.
///
/// `sv|o|`: none (`o`, also `0` or `-`), `n` NS, `e` EW, `b` both
/// \[forum-19814] \[forum-85366].
fn read_vulnerable(p: &Pair<'_>, board: &mut Board, diags: &mut Vec<ReadDiagnostic>) {
    let v = p.value;
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

/// Reads `ah|Board 1|` \[forum-19814]: the board number, unless `qx` gave it.
fn read_ah(p: &Pair<'_>, board: &mut Board) {
    let v = p.value;
    let n = v.trim().rsplit(' ').next().unwrap_or("");
    if v.trim().to_ascii_lowercase().starts_with("board") && n.parse::<u32>().is_ok() {
        if board.number.is_none() {
            board.number = Some(n.trim_start_matches('0').to_string());
        }
    } else if !v.trim().is_empty() {
        keep(p, board);
    }
}

/// Reads `an|text|`, the explanation of the call before it \[bridgedata].
fn read_explanation(p: &Pair<'_>, board: &mut Board, diags: &mut Vec<ReadDiagnostic>) {
    match board.calls.last_mut() {
        Some(call) => {
            let k = *call.note.get_or_insert_with(|| {
                board.notes.push(String::new());
                board.notes.len() - 1
            });
            board.notes[k] = p.value.to_string();
        }
        None => {
            diags.push(diag(
                Severity::Warning,
                p.key_range.start..p.value_range.end,
                "`an|` explains the call before it, but no call comes before; kept as a comment",
            ));
            keep(p, board);
        }
    }
}

/// A suit letter, any case.
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
        "P" | "PASS" => Some(CallToken::Pass),
        "D" | "X" | "DBL" => Some(CallToken::Double),
        "R" | "XX" | "RDBL" => Some(CallToken::Redouble),
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
                (Some(l @ b'1'..=b'7'), Some(strain)) => Some(CallToken::Bid(Bid {
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
        CallToken::Bid(b) => bridge::bid_text(b),
        CallToken::Double => "X".into(),
        CallToken::Redouble => "XX".into(),
        _ => "Pass".into(),
    };
    let note = alerted.then(|| {
        board.notes.push(String::new());
        board.notes.len() - 1
    });
    board.calls.push(LinCall { text, token, note });
}

/// A seat's letter.
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

/// The winner of a trick led by `leader`, cards in play order.
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
    write_header_tags(&mut out, b, carried);
    // The contract from the auction.
    let first = b.dealer.unwrap_or(Seat::North);
    let contract = auction_contract(b, first);
    match contract {
        Some(FinalContract::PassedOut) => {
            tag(&mut out, "Contract", "Pass");
        }
        Some(FinalContract::Contract { contract, declarer }) => {
            tag(&mut out, "Declarer", &declarer.letter().to_string());
            tag(&mut out, "Contract", &bridge::contract_text(contract));
        }
        None => {}
    }
    let declarer = match contract {
        Some(FinalContract::Contract { declarer, .. }) => Some(declarer),
        _ => None,
    };
    let play = play_rows(b, contract, declarer);
    let result = b
        .claim
        .or((b.cards.len() == 52 && declarer.is_some()).then_some(play.declarer_tricks));
    if let Some(r) = result {
        tag(&mut out, "Result", &r.to_string());
    }
    write_auction_section(&mut out, b, first);
    write_play_section(&mut out, b, &play);
    out
}

/// Appends the tag `[name "value"]`.
fn tag(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!("[{name} \"{}\"]\n", model::escape(value)));
}

/// Writes the tags from the header pairs and what carries over, Event to the teams.
fn write_header_tags(out: &mut String, b: &Board, carried: &Carried) {
    tag(out, "Event", carried.event.as_deref().unwrap_or("?"));
    if let Some(n) = &b.number {
        tag(out, "Board", if n.is_empty() { "0" } else { n });
    }
    if let Some(p) = &carried.players {
        for seat in [Seat::West, Seat::North, Seat::East, Seat::South] {
            let k = LIN_SEATS.iter().position(|s| *s == seat).unwrap_or(0);
            if !p[k].is_empty() {
                tag(out, bridge::seat_name(seat), &p[k]);
            }
        }
    }
    if let Some(d) = b.dealer {
        tag(out, "Dealer", &d.letter().to_string());
    }
    if let Some(v) = b.vulnerable {
        tag(out, "Vulnerable", v);
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
            out,
            "Deal",
            &format!("{}:{}", seat_letter(first), text.join(" ")),
        );
    }
    if let Some(r) = b.room {
        tag(out, "Room", r);
    }
    if let Some((home, visit)) = &carried.teams {
        if !home.is_empty() {
            tag(out, "HomeTeam", home);
        }
        if !visit.is_empty() {
            tag(out, "VisitTeam", visit);
        }
    }
}

/// The final contract of the board's calls, the first call by `first`.
fn auction_contract(b: &Board, first: Seat) -> Option<FinalContract> {
    let items: Vec<AuctionItem> = b
        .calls
        .iter()
        .map(|c| AuctionItem {
            token: c.token,
            insufficient_marked: false,
        })
        .collect();
    let analysis = (!b.calls.is_empty()).then(|| analyze_auction(b.dealer, first, &items));
    analysis.as_ref().and_then(|a| a.contract)
}

/// The board's cards placed by the contract.
struct PlayRows {
    /// The opening leader: declarer's left-hand opponent.
    opening: Option<Seat>,
    /// Each trick's cards by seat from the opening leader.
    rows: Vec<[Option<Card>; 4]>,
    /// The tricks declarer's side won (trick winners by the contract's
    /// trump).
    declarer_tricks: u8,
}

/// The board's cards as tricks from the opening leader, and declarer's tricks.
fn play_rows(b: &Board, contract: Option<FinalContract>, declarer: Option<Seat>) -> PlayRows {
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
    PlayRows {
        opening,
        rows,
        declarer_tricks,
    }
}

/// Writes the auction section, with the notes of alerted and explained calls.
fn write_auction_section(out: &mut String, b: &Board, first: Seat) {
    if b.calls.is_empty() {
        return;
    }
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

/// Writes the play section, or the cards as a comment without a contract.
fn write_play_section(out: &mut String, b: &Board, play: &PlayRows) {
    if let Some(opening) = play.opening.filter(|_| !b.cards.is_empty()) {
        out.push_str(&format!("[Play \"{}\"]\n", opening.letter()));
        for (k, row) in play.rows.iter().enumerate() {
            let mut cells: Vec<String> = row
                .iter()
                .map(|c| c.map_or("-".into(), bridge::card_text))
                .collect();
            // The cards of an unfinished last trick not played yet are not
            // written: the `*` after them says no more are given (§3.6).
            if k + 1 == play.rows.len() && b.cards.len() < 52 {
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
}
