//! The reader's H, A, C and P labels: the hands, the auction with its
//! notes, the contract and the play, with the notations of calls and cards.

use super::read::{compact, notes_as_comments, Field, GameOut, Reader};
use super::NOTATIONS;
use crate::bridge::strain_text as strain_name;
use crate::bridge::{self, card_text, rotate, Card, Rank, Seat, Strain, Suit};
use crate::codes::Severity;
use crate::model::values::deal::{rank_char, rank_of_char};
use crate::model::values::seat::seat_letter;

/// The cards of one hand, by suit in `Suit::DESC` order.
pub(super) type HandCards = [Vec<Rank>; 4];

/// The number of cards in a hand.
fn count(h: &HandCards) -> usize {
    h.iter().map(Vec::len).sum()
}

/// H: `<seat>` then up to four hands, each after `:` (shown) or `;`
/// (hidden) ("Detailed Explanation of Labels", H). Returns the hands by
/// `Seat as usize` (`None`: not given).
pub(super) fn read_hands(
    r: &mut Reader<'_>,
    g: &mut GameOut,
    f: &Field,
    dealer: Option<Seat>,
) -> Option<[Option<HandCards>; 4]> {
    let data = compact(r, b'H', f);
    let mut chars = data.char_indices();
    let Some((first, _)) = chars.next().and_then(|(_, c)| seat_letter(c)) else {
        r.diag(
            Severity::Error,
            f.start..f.start + 1,
            "expected the seat of the first hand (N, E, S or W) (RBN: H)",
        );
        return None;
    };
    // (hidden, text, offset in data)
    let mut hands: Vec<(bool, String, usize)> = Vec::new();
    for (i, c) in chars {
        match c {
            ':' | ';' => hands.push((c == ';', String::new(), i + 1)),
            _ => match hands.last_mut() {
                Some(h) => h.1.push(c),
                None => {
                    r.diag(
                        Severity::Error,
                        f.start + i..f.start + i + 1,
                        "expected `:` or `;` before each hand (RBN: H)",
                    );
                    return None;
                }
            },
        }
    }
    if hands.len() > 4 {
        r.diag(
            Severity::Error,
            f.start..f.start + f.data.len(),
            "more than four hands (RBN: H)",
        );
        hands.truncate(4);
    }
    let mut out: [Option<HandCards>; 4] = Default::default();
    let mut hidden = [false; 4];
    let mut used = [[false; 15]; 4];
    for (k, (hide, text, off)) in hands.iter().enumerate() {
        let seat = rotate(first, k);
        hidden[seat as usize] = *hide;
        if text.is_empty() {
            continue;
        }
        let mut cards: HandCards = Default::default();
        let mut suit = 0usize;
        for (i, c) in text.char_indices() {
            let at = f.start + off + i;
            if c == '.' {
                suit += 1;
                if suit > 3 {
                    r.diag(
                        Severity::Error,
                        at..at + 1,
                        "more than four suits in a hand (RBN: H)",
                    );
                    break;
                }
                continue;
            }
            let Some(rank) = rank_of_char(c) else {
                r.diag(
                    Severity::Error,
                    at..at + c.len_utf8(),
                    format!("`{c}` is not a rank: expected A K Q J T 9 … 2 (RBN: H)"),
                );
                continue;
            };
            let s = Suit::DESC[suit];
            if used[s as usize][rank.get() as usize] {
                r.diag(
                    Severity::Error,
                    at..at + 1,
                    format!(
                        "{} is given twice (RBN: H, no card may be used twice)",
                        card_text(Card { suit: s, rank })
                    ),
                );
                continue;
            }
            used[s as usize][rank.get() as usize] = true;
            cards[suit].push(rank);
        }
        if count(&cards) > 13 {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + text.len(),
                "more than 13 cards in a hand (RBN: H)",
            );
        }
        for s in &mut cards {
            s.sort_by(|a, b| b.cmp(a));
        }
        out[seat as usize] = Some(cards);
    }
    // "Three full hands followed by a colon means fourth hand gets the
    // rest."
    if hands.len() == 4 && hands[3].1.is_empty() {
        let full = (0..3).all(|k| {
            out[rotate(first, k) as usize]
                .as_ref()
                .is_some_and(|h| count(h) == 13)
        });
        if full {
            let mut rest: HandCards = Default::default();
            for (k, s) in Suit::DESC.iter().enumerate() {
                for n in (2..=14u8).rev() {
                    if !used[*s as usize][n as usize] {
                        rest[k].push(Rank::new(n));
                    }
                }
            }
            out[rotate(first, 3) as usize] = Some(rest);
        }
    }
    if out.iter().all(Option::is_none) {
        return Some(out);
    }
    let start = dealer.unwrap_or(first);
    let mut deal = format!("{}:", start.letter());
    for k in 0..4 {
        if k > 0 {
            deal.push(' ');
        }
        match &out[rotate(start, k) as usize] {
            None => deal.push('-'),
            Some(h) => deal.push_str(&hand_text(h)),
        }
    }
    g.tag("Deal", deal);
    let hidden: String = Seat::ALL
        .iter()
        .filter(|s| hidden[**s as usize])
        .map(|s| s.letter())
        .collect();
    if !hidden.is_empty() {
        g.tag("Hidden", hidden);
    }
    Some(out)
}

/// A hand in PBN: `S.H.D.C`.
fn hand_text(h: &HandCards) -> String {
    h.iter()
        .map(|s| s.iter().map(|&r| rank_char(r)).collect::<String>())
        .collect::<Vec<_>>()
        .join(".")
}

/// A call or card with its RBN notations.
#[derive(Clone, Debug, Default)]
struct Marked {
    text: String,
    suffix: Option<&'static str>,
    notes: Vec<u8>,
    conventional: bool,
}

impl Marked {
    /// The PBN token with its suffix, note references (§3.5.3, §3.5.4) and
    /// `{conventional}` for RBN's `*`.
    fn pbn(&self) -> String {
        let mut s = self.text.clone();
        if let Some(x) = self.suffix {
            s.push_str(x);
        }
        for n in &self.notes {
            s.push_str(&format!(" ={n}="));
        }
        if self.conventional {
            s.push_str(" {conventional}");
        }
        s
    }
}

/// Reads notations after a call or card at `chars[*i..]` ("Detailed
/// Explanation of Labels", A and P).
fn read_notations(
    r: &mut Reader<'_>,
    chars: &[(usize, char)],
    i: &mut usize,
    base: usize,
    m: &mut Marked,
) {
    while let Some(&(off, c)) = chars.get(*i) {
        match c {
            '!' | '?' => {
                let mut s = String::from(c);
                if let Some(&(_, c2)) = chars.get(*i + 1) {
                    if matches!(c2, '!' | '?') {
                        s.push(c2);
                        *i += 1;
                    }
                }
                *i += 1;
                m.suffix = NOTATIONS.iter().copied().find(|n| *n == s);
                if m.suffix.is_none() {
                    r.diag(
                        Severity::Error,
                        base + off..base + off + 2,
                        "expected one of ! ? !! ?? !? ?!",
                    );
                }
            }
            '*' => {
                m.conventional = true;
                *i += 1;
            }
            '^' => match chars.get(*i + 1) {
                Some(&(_, d)) if ('1'..='9').contains(&d) => {
                    m.notes.push(d as u8 - b'0');
                    *i += 2;
                }
                _ => {
                    r.diag(
                        Severity::Error,
                        base + off..base + off + 1,
                        "expected a note number 1-9 after `^`",
                    );
                    *i += 1;
                }
            },
            _ => return,
        }
    }
}

pub(super) struct AuctionRead {
    pub(super) dealer: Option<Seat>,
    vulnerable: Option<&'static str>,
    calls: Vec<Marked>,
    /// Ends with `Y` (your call?).
    query: bool,
    complete: bool,
    pub(super) final_strain: Option<Strain>,
    start: usize,
}

/// A: `<dealer><vul>:<calls>` ("Detailed Explanation of Labels", A).
pub(super) fn read_auction(r: &mut Reader<'_>, f: &Field) -> AuctionRead {
    let data = compact(r, b'A', f);
    let chars: Vec<(usize, char)> = data.char_indices().collect();
    let mut a = AuctionRead {
        dealer: None,
        vulnerable: None,
        calls: Vec::new(),
        query: false,
        complete: false,
        final_strain: None,
        start: f.start,
    };
    // The header before the first `:`: dealer and vulnerability.
    let header = chars
        .iter()
        .position(|&(_, c)| c == ':')
        .unwrap_or(chars.len());
    match chars.first().and_then(|&(_, c)| seat_letter(c)) {
        Some((s, _)) => a.dealer = Some(s),
        None => r.diag(
            Severity::Error,
            f.start..f.start + 1,
            "expected the dealer (N, E, S or W) (RBN: A)",
        ),
    }
    if header > 1 {
        let (off, c) = chars[1];
        a.vulnerable = match c {
            'Z' => Some("None"),
            'N' => Some("NS"),
            'E' => Some("EW"),
            'B' => Some("All"),
            _ => {
                r.diag(
                    Severity::Error,
                    f.start + off..f.start + off + c.len_utf8(),
                    "expected the vulnerability (Z none, N, E, B both) after the dealer (RBN: A)",
                );
                None
            }
        };
    }
    if header > 2 {
        r.diag(
            Severity::Error,
            f.start + chars[2].0..f.start + chars[header - 1].0 + 1,
            "expected `:` before the calls (RBN: A)",
        );
    }
    let mut i = header;
    let (mut passes, mut bid) = (0, false);
    while let Some(&(off, c)) = chars.get(i) {
        i += 1;
        if c == ':' {
            continue;
        }
        if a.complete || a.query {
            r.diag(
                Severity::Error,
                f.start + off..f.start + data.len(),
                "calls after the end of the auction (RBN: A)",
            );
            break;
        }
        let text = match c {
            '1'..='7' => {
                let strain = chars.get(i).and_then(|&(_, s)| match s {
                    'C' => Some((Strain::Clubs, "C")),
                    'D' => Some((Strain::Diamonds, "D")),
                    'H' => Some((Strain::Hearts, "H")),
                    'S' => Some((Strain::Spades, "S")),
                    'N' => Some((Strain::Notrump, "NT")),
                    _ => None,
                });
                let Some((strain, name)) = strain else {
                    r.diag(
                        Severity::Error,
                        f.start + off..f.start + off + 2,
                        "expected a strain (C D H S N) after the level (RBN: A)",
                    );
                    continue;
                };
                i += 1;
                a.final_strain = Some(strain);
                bid = true;
                passes = 0;
                format!("{c}{name}")
            }
            'P' => {
                passes += 1;
                "Pass".to_string()
            }
            'X' => {
                passes = 0;
                "X".to_string()
            }
            'R' => {
                passes = 0;
                "XX".to_string()
            }
            'A' => {
                a.complete = true;
                "AP".to_string()
            }
            'Y' => {
                a.query = true;
                continue;
            }
            _ => {
                r.diag(
                    Severity::Error,
                    f.start + off..f.start + off + c.len_utf8(),
                    format!("`{c}` is not a call: expected P X R A Y or a bid such as 1C or 3N (RBN: A)"),
                );
                continue;
            }
        };
        let mut m = Marked {
            text,
            ..Marked::default()
        };
        read_notations(r, &chars, &mut i, f.start, &mut m);
        a.calls.push(m);
        if (bid && passes == 3) || passes == 4 {
            a.complete = true;
        }
    }
    a
}

/// Writes the Note tags of the auction or the play section.
fn write_notes(g: &mut GameOut, lines_out: bool, notes: &[(u8, Field)], play: bool) {
    for (n, f) in notes {
        let line = format!("[Note \"{n}:{}\"]", crate::model::escape(&f.data));
        if lines_out {
            if play {
                g.play.push(line);
            } else {
                g.auction.push(line);
            }
        }
    }
}

/// Writes Dealer, Vulnerable and the auction section from A and its notes.
pub(super) fn write_auction(
    r: &mut Reader<'_>,
    g: &mut GameOut,
    a: &AuctionRead,
    notes: &[(u8, Field)],
) {
    if let Some(d) = a.dealer {
        g.tag("Dealer", d.letter().to_string());
    }
    if let Some(v) = a.vulnerable {
        g.tag("Vulnerable", v);
    }
    let Some(dealer) = a.dealer else {
        notes_as_comments(g, notes);
        return;
    };
    if a.calls.is_empty() && !a.query {
        notes_as_comments(g, notes);
        return;
    }
    g.auction.push(format!("[Auction \"{}\"]", dealer.letter()));
    let mut tokens: Vec<String> = a.calls.iter().map(Marked::pbn).collect();
    if a.query {
        // "Y" (your call?) → `+`: the next call is to come (§3.5).
        tokens.push("+".into());
    } else if !a.complete {
        // An incomplete auction ("just stop writing") → `*` (§3.5).
        tokens.push("*".into());
    }
    for row in tokens.chunks(4) {
        g.auction.push(row.join(" "));
    }
    for (n, f) in notes {
        if !a.calls.iter().any(|c| c.notes.contains(n)) {
            r.diag(
                Severity::Warning,
                f.start.saturating_sub(2)..f.start,
                format!("note {n} is not referenced by any `^{n}` in the auction"),
            );
        }
    }
    write_notes(g, true, notes, false);
    let _ = a.start;
}

/// C: `<contract>:<declarer>[goal]` or `P` ("Detailed Explanation of
/// Labels", C). Returns the strain.
pub(super) fn read_contract(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) -> Option<Strain> {
    let data = compact(r, b'C', f);
    if data == "P" {
        g.tag("Contract", "Pass");
        g.tag("Declarer", "");
        return None;
    }
    let (c, d) = data.split_once(':').unwrap_or((&data, ""));
    let b = c.as_bytes();
    let (level, rest) = match b.first() {
        Some(l @ b'1'..=b'7') => (Some(l - b'0'), &c[1..]),
        _ => (None, c),
    };
    let rb = rest.as_bytes();
    let strain = match rb.first() {
        Some(b'C') => Strain::Clubs,
        Some(b'D') => Strain::Diamonds,
        Some(b'H') => Strain::Hearts,
        Some(b'S') => Strain::Spades,
        Some(b'N') => Strain::Notrump,
        _ => {
            r.diag(
                Severity::Error,
                f.start..f.start + c.len().max(1),
                "expected a contract such as 4S, 3NX, 6HR, a strain for an end position, or P (RBN: C)",
            );
            return None;
        }
    };
    let risk = match &rest[1..] {
        "" => "",
        "X" => "X",
        "R" | "XX" => "XX",
        other => {
            r.diag(
                Severity::Error,
                f.start + c.len() - other.len()..f.start + c.len(),
                "expected X (doubled) or R (redoubled) after the strain (RBN: C)",
            );
            ""
        }
    };
    let name = strain_name(strain);
    match level {
        Some(l) => g.tag("Contract", format!("{l}{name}{risk}")),
        // An end position: only the strain (§3.10).
        None => g.tag("Contract", name),
    }
    let mut dc = d.chars();
    match dc.next().and_then(seat_letter) {
        Some((s, _)) => g.tag("Declarer", s.letter().to_string()),
        None if d.is_empty() => {}
        None => r.diag(
            Severity::Error,
            f.start + c.len() + 1..f.start + data.len(),
            "expected the declarer (N, E, S or W) after `:` (RBN: C)",
        ),
    }
    if dc.next().is_some() {
        r.diag(
            Severity::Info,
            f.start..f.start + f.data.len(),
            "PBN has no tag for the goal after the declarer; kept as commentary `{RBN C …}`",
        );
        g.keep(b'C', &f.data);
    }
    Some(strain)
}

/// P: `<leader>:<trick>:<trick>…` ("Detailed Explanation of Labels", P),
/// written as PBN's column layout (§3.6): every row in the order of the
/// seats from the opening leader.
pub(super) fn read_play(
    r: &mut Reader<'_>,
    g: &mut GameOut,
    f: &Field,
    hands: Option<[Option<HandCards>; 4]>,
    trump: Option<Option<Suit>>,
    notes: &[(u8, Field)],
) {
    let data = compact(r, b'P', f);
    let chars: Vec<(usize, char)> = data.char_indices().collect();
    let Some((leader, _)) = chars.first().and_then(|&(_, c)| seat_letter(c)) else {
        r.diag(
            Severity::Error,
            f.start..f.start + 1,
            "expected the opening leader (N, E, S or W) (RBN: P)",
        );
        notes_as_comments(g, notes);
        return;
    };
    let play = read_tricks(r, f, &chars, data.len(), leader, hands, trump);
    write_play_section(g, leader, play, notes);
}

/// The tricks of P as read, and where the reading ended.
struct PlayRead {
    /// The cards left in each hand, when the hands are known.
    remaining: Option<[Option<HandCards>; 4]>,
    /// Each trick: the cards by seat.
    tricks: Vec<[Option<Marked>; 4]>,
    /// The leader of the last trick.
    trick_leader: Seat,
    /// The cards of the last trick, in play order.
    played: Vec<(Seat, Card)>,
    /// Ends with `Y` (your play?).
    query: bool,
    /// Reading stopped at an error.
    stopped: bool,
}

/// Reads P's tricks after the opening leader, checking cards against the hands.
///
/// `chars` are those of P's data, `len` the data's length.
fn read_tricks(
    r: &mut Reader<'_>,
    f: &Field,
    chars: &[(usize, char)],
    len: usize,
    leader: Seat,
    hands: Option<[Option<HandCards>; 4]>,
    trump: Option<Option<Suit>>,
) -> PlayRead {
    let mut remaining = hands;
    let mut tricks: Vec<[Option<Marked>; 4]> = Vec::new();
    let mut trick_leader = leader;
    let mut query = false;
    let mut stopped = false;
    let mut played: Vec<(Seat, Card)> = Vec::new();
    let mut i = 1;
    while i < chars.len() && !stopped {
        let (off, c) = chars[i];
        if c == ':' {
            if let Some(last) = tricks.last() {
                if last.iter().any(Option::is_none) {
                    r.diag(
                        Severity::Error,
                        f.start + off..f.start + off + 1,
                        "a trick has fewer than four cards (RBN: P)",
                    );
                    stopped = true;
                    continue;
                }
            }
            // The previous trick's winner leads.
            if !played.is_empty() {
                match trick_winner(&played, trump) {
                    Some(w) => trick_leader = w,
                    None => {
                        r.diag(
                            Severity::Error,
                            f.start + off..f.start + len,
                            "the leader of this trick is unknown: the trump (C or A label) is needed to find who won the previous trick (RBN: P)",
                        );
                        stopped = true;
                        continue;
                    }
                }
                played.clear();
            }
            tricks.push(Default::default());
            i += 1;
            continue;
        }
        if tricks.is_empty() {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + 1,
                "expected `:` after the opening leader (RBN: P)",
            );
            tricks.push(Default::default());
        }
        if c == 'Y' {
            query = true;
            if i + 1 < chars.len() {
                r.diag(
                    Severity::Error,
                    f.start + chars[i + 1].0..f.start + len,
                    "no plays may follow `Y` (RBN: P)",
                );
            }
            break;
        }
        let seat = rotate(trick_leader, played.len());
        if played.len() == 4 {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + 1,
                "a trick has more than four cards (RBN: P)",
            );
            stopped = true;
            continue;
        }
        let given_suit = match c {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        };
        if given_suit.is_some() {
            i += 1;
        }
        let Some(suit) = given_suit.or_else(|| played.first().map(|(_, c)| c.suit)) else {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + 1,
                "expected the suit of the card led (S H D C) (RBN: P)",
            );
            stopped = true;
            continue;
        };
        let Some(&(roff, rc)) = chars.get(i) else {
            r.diag(
                Severity::Error,
                f.start + off..f.start + len,
                "expected a rank after the suit (RBN: P)",
            );
            break;
        };
        i += 1;
        let hand = remaining.as_ref().and_then(|h| h[seat as usize].as_ref());
        let rank = play_rank(r, f, hand, seat, suit, roff, rc);
        let Some(rank) = rank else {
            stopped = true;
            continue;
        };
        let card = Card { suit, rank };
        if let Some(h) = remaining.as_mut().and_then(|h| h[seat as usize].as_mut()) {
            let v = &mut h[suit_index(suit)];
            match v.iter().position(|&x| x == rank) {
                Some(p) => {
                    v.remove(p);
                }
                None => r.diag(
                    Severity::Warning,
                    f.start + off..f.start + roff + 1,
                    format!(
                        "{} does not hold {}",
                        bridge::seat_name(seat),
                        card_text(card)
                    ),
                ),
            }
        }
        let mut m = Marked {
            text: card_text(card),
            ..Marked::default()
        };
        read_notations(r, chars, &mut i, f.start, &mut m);
        played.push((seat, card));
        if let Some(t) = tricks.last_mut() {
            t[seat as usize] = Some(m);
        }
    }
    PlayRead {
        remaining,
        tricks,
        trick_leader,
        played,
        query,
        stopped,
    }
}

/// The rank `rc` (at `roff`) of `seat`'s card: a rank, or `-`/`+` in `hand`.
///
/// `-` is the lowest card of `suit` in the hand, `+` the highest.
fn play_rank(
    r: &mut Reader<'_>,
    f: &Field,
    hand: Option<&HandCards>,
    seat: Seat,
    suit: Suit,
    roff: usize,
    rc: char,
) -> Option<Rank> {
    match rc {
        '-' | '+' => {
            // "-" lowest, "+" highest card of the suit in the hand.
            let ranks = hand.map(|h| &h[suit_index(suit)]);
            match ranks.and_then(|v| if rc == '-' { v.last() } else { v.first() }) {
                Some(&r) => Some(r),
                None => {
                    r.diag(
                        Severity::Error,
                        f.start + roff..f.start + roff + 1,
                        format!(
                            "`{rc}` needs {}'s hand to hold a {} (RBN: P)",
                            bridge::seat_name(seat),
                            suit_word(suit)
                        ),
                    );
                    None
                }
            }
        }
        _ => {
            let rank = rank_of_char(rc);
            if rank.is_none() {
                r.diag(
                    Severity::Error,
                    f.start + roff..f.start + roff + rc.len_utf8(),
                    format!("`{rc}` is not a rank: expected A K Q J T 9 … 2, `-` or `+` (RBN: P)"),
                );
            }
            rank
        }
    }
}

/// Writes the play section: `[Play]`, the tricks, `+`/`*` and the notes.
///
/// A row per trick in the order of the seats from the opening leader, `+`
/// where `Y` asks for the next card, `*` when the play is unfinished.
fn write_play_section(g: &mut GameOut, leader: Seat, p: PlayRead, notes: &[(u8, Field)]) {
    let PlayRead {
        remaining,
        mut tricks,
        trick_leader,
        played,
        query,
        stopped,
    } = p;
    g.play.push(format!("[Play \"{}\"]", leader.letter()));
    let all_played = remaining
        .as_ref()
        .is_some_and(|h| h.iter().flatten().all(|h| count(h) == 0));
    let complete = !stopped
        && tricks.last().is_some_and(|t| t.iter().all(Option::is_some))
        && (tricks.len() == 13 || all_played);
    let next = rotate(trick_leader, played.len() % 4);
    let new_trick = played.len() == 4 || tricks.is_empty();
    if query && new_trick {
        tricks.push(Default::default());
    }
    let n = tricks.len();
    for (k, t) in tricks.iter().enumerate() {
        let row: Vec<String> = (0..4)
            .map(|c| {
                let seat = rotate(leader, c);
                match &t[seat as usize] {
                    Some(m) => m.pbn(),
                    None if query
                        && k + 1 == n
                        && seat == next_or(new_trick, played.len(), trick_leader, next) =>
                    {
                        "+".into()
                    }
                    None => "-".into(),
                }
            })
            .collect();
        g.play.push(row.join(" "));
    }
    if !complete && !query {
        g.play.push("*".into());
    }
    write_notes(g, true, notes, true);
}

/// The seat the `+` of a `Y` goes to.
fn next_or(new_trick: bool, played: usize, leader: Seat, next: Seat) -> Seat {
    if new_trick && played == 4 {
        // A new trick after a full one: its leader is not known here, the
        // caller placed the `Y` at the last leader's winner; fall back.
        next
    } else {
        let _ = leader;
        next
    }
}

/// A suit's index in `Suit::DESC`.
fn suit_index(s: Suit) -> usize {
    Suit::DESC.iter().position(|&x| x == s).unwrap_or(0)
}

/// A suit's name, for messages.
fn suit_word(s: Suit) -> &'static str {
    match s {
        Suit::Spades => "spade",
        Suit::Hearts => "heart",
        Suit::Diamonds => "diamond",
        Suit::Clubs => "club",
    }
}

/// The winner of a full trick (cards in play order); `None` when the trump
/// is unknown.
fn trick_winner(cards: &[(Seat, Card)], trump: Option<Option<Suit>>) -> Option<Seat> {
    let trump = trump?;
    let led = cards.first()?.1.suit;
    let key = |c: &Card| {
        let t = Some(c.suit) == trump;
        (t, c.suit == led, c.rank)
    };
    cards
        .iter()
        .filter(|(_, c)| Some(c.suit) == trump || c.suit == led)
        .max_by_key(|(_, c)| key(c))
        .map(|(s, _)| *s)
}
