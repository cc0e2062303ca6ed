//! The Deal tag (§3.4.11), end positions (§3.10), lowercase (§3.11).

use super::{is_unknown, issue, Parsed, ValueIssue};
use crate::bridge::seat_name;
use crate::codes::values as codes;
use crate::diagnostic::Related;
use contract_bridge::{Card, Hand, Rank, Seat, Suit};
use std::ops::Range;

/// A parsed Deal tag value. Arrays are indexed by `Seat as usize`
/// (`Seat::ALL` order: North, East, South, West).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// `<first>`: the direction of the first hand. In export format it must
    /// equal the dealer (§3.4.11); import format allows any.
    pub first: Seat,
    /// The known cards of each hand; `None` for a hand given as `-` (or
    /// `...`, see [`codes::DEAL_EMPTY_HAND`]).
    pub hands: [Option<Hand>; 4],
    /// Byte range of each hand's text in the raw value.
    pub hand_ranges: [Range<usize>; 4],
    /// Number of cards of each given hand, including `x` spot cards
    /// (0 for a hand not given).
    pub card_counts: [usize; 4],
    /// `x` spot cards (unknown small ranks) per hand; not in [`Deal::hands`].
    pub spot_cards: [usize; 4],
    /// All given hands have the same number of cards below 13 (§3.10).
    pub is_end_position: bool,
    /// The ranks of every suit are in descending order (required in
    /// export format, §3.4.11).
    pub ranks_sorted: bool,
    /// Some rank or the first seat was lowercase (§3.11).
    pub lowercase_used: bool,
}

impl Deal {
    /// The hand of `seat`.
    pub fn hand(&self, seat: Seat) -> Option<Hand> {
        self.hands[seat as usize]
    }

    /// Number of given hands.
    pub fn given_hands(&self) -> usize {
        self.hands.iter().filter(|h| h.is_some()).count()
    }

    /// Total number of cards given (including spot cards).
    pub fn card_count(&self) -> usize {
        self.card_counts.iter().sum()
    }

    /// The deal in export form starting with `first` (normally the dealer):
    /// uppercase, ranks descending, `-` for hands not given. `None` when a
    /// hand has `x` spot cards (they have no PBN form).
    pub fn export_form(&self, first: Seat) -> Option<String> {
        if self.spot_cards.iter().any(|&n| n > 0) {
            return None;
        }
        let mut out = format!("{}:", first.letter());
        for k in 0..4 {
            let seat = Seat::ALL[(first as usize + k) % 4];
            if k > 0 {
                out.push(' ');
            }
            match self.hands[seat as usize] {
                None => out.push('-'),
                Some(hand) => {
                    for (i, suit) in Suit::DESC.into_iter().enumerate() {
                        if i > 0 {
                            out.push('.');
                        }
                        for rank in hand[suit].iter() {
                            out.push(rank_char(rank));
                        }
                    }
                }
            }
        }
        Some(out)
    }
}

/// The PBN character of a rank (A K Q J T 9 … 2).
pub fn rank_char(rank: Rank) -> char {
    crate::spec::cards::RANKS[14usize.saturating_sub(rank.get() as usize).min(12)]
}

/// A rank character in either case (§3.11).
pub fn rank_of_char(c: char) -> Option<Rank> {
    crate::spec::cards::rank(c).map(|i| Rank::new(14 - i as u8))
}

fn card_index(card: Card) -> usize {
    card.suit as usize * 13 + (card.rank.get() as usize - 2)
}

/// One hand's text: its cards, count, whether sorted.
struct HandScan {
    hand: Hand,
    count: usize,
    spots: usize,
    sorted: bool,
    lowercase: bool,
}

const SECTION: &str = "§3.4.11";

/// Parses a Deal tag value (§3.4.11): `<first>:<h1> <h2> <h3> <h4>`, hands
/// clockwise from `<first>`, each `S.H.D.C` with ranks `AKQJT98765432`, `-`
/// for a hand not given. `""` and `?` give no value and no issue.
///
/// Clean in import format: lowercase (§3.11), ranks in any order, any first
/// seat; see [`Deal::ranks_sorted`], [`Deal::lowercase_used`],
/// [`Deal::export_form`]. Errors: missing/bad `<first>:`
/// ([`codes::DEAL_FIRST_SEAT`]), not 4 hands ([`codes::DEAL_HAND_COUNT`]),
/// other than one space between hands ([`codes::DEAL_SPACING`]), not 4
/// suits ([`codes::DEAL_SUIT_COUNT`]), a bad rank ([`codes::DEAL_RANK`]), a
/// card twice ([`codes::DEAL_DUPLICATE_CARD`], related: the first
/// occurrence), more than 13 cards ([`codes::DEAL_TOO_MANY_CARDS`]), hands of
/// different sizes ([`codes::DEAL_UNEQUAL_HANDS`]; equal sizes below 13 are
/// an end position, §3.10), no card at all ([`codes::DEAL_NO_CARDS`]).
/// Warnings: `x` spot cards ([`codes::DEAL_SPOT_CARDS`]) and `...` for a
/// hand not given ([`codes::DEAL_EMPTY_HAND`]). The value is returned when
/// the structure (first seat, 4 hands, 4 suits) is readable, even if the
/// cards have errors; callers that need a sound deal check
/// [`Parsed::has_errors`].
pub fn parse_deal(raw: &str) -> Parsed<Deal> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    if let Some(other) = other_form(raw) {
        return other;
    }
    let mut issues = Vec::new();
    let (first, body_start) = read_first(raw, &mut issues);
    // Without a readable `<first>:` the structure is not read.
    let mut structure_ok = first.is_some();
    let lowercase_first = first.is_some_and(|(_, lower)| lower);
    let first = first.map(|(s, _)| s);

    let hands = split_hands(raw, body_start, &mut issues);
    if hands.len() != 4 {
        let range = if hands.len() > 4 {
            hands[4].start..hands.last().unwrap().end
        } else if hands.is_empty() {
            body_start.min(raw.len().saturating_sub(1))..raw.len()
        } else {
            hands[0].start..hands.last().unwrap().end
        };
        issues.push(issue(
            &codes::DEAL_HAND_COUNT,
            range,
            format!(
                "the Deal has {} hands; it gives 4 hands, `-` for a hand not given ({SECTION})",
                hands.len()
            ),
        ));
        structure_ok = false;
    }

    // Scan each hand.
    let mut seen: [Option<Range<usize>>; 52] = std::array::from_fn(|_| None);
    let mut scans: Vec<Option<HandScan>> = Vec::new();
    let mut ranks_sorted = true;
    let mut lowercase_used = lowercase_first;
    for (k, range) in hands.iter().enumerate() {
        let text = &raw[range.clone()];
        let who = match first {
            Some(f) if k < 4 => seat_name(Seat::ALL[(f as usize + k) % 4]).to_string(),
            _ => format!("hand {}", k + 1),
        };
        if text == "-" {
            scans.push(None);
            continue;
        }
        let scan = scan_hand(raw, range, &who, &mut seen, &mut issues, &mut structure_ok);
        ranks_sorted &= scan.sorted;
        lowercase_used |= scan.lowercase;
        scans.push(Some(scan));
    }

    // `...`: an empty hand among non-empty ones is read as "not given".
    let any_cards = scans.iter().flatten().any(|s| s.count > 0);
    if any_cards {
        for (k, scan) in scans.iter_mut().enumerate() {
            if scan.as_ref().is_some_and(|s| s.count == 0) {
                *scan = None;
                issues.push(issue(
                    &codes::DEAL_EMPTY_HAND,
                    hands[k].clone(),
                    format!(
                        "a hand without cards is read as a hand not given, which is written `-` ({SECTION})"
                    ),
                ));
            }
        }
    } else if hands.len() == 4 && structure_ok {
        issues.push(issue(
            &codes::DEAL_NO_CARDS,
            hands[0].start..hands[3].end,
            format!(
                "the Deal gives no card; use \"?\" when the cards are unknown ({SECTION}, §3.4)"
            ),
        ));
    }

    // Equal hand sizes (§3.10).
    let (reference, equal) = hand_sizes(first, &hands, &scans, &mut issues);

    let (Some(first), true) = (first, structure_ok) else {
        return Parsed::new(None, issues);
    };
    let mut out_hands = [None; 4];
    let mut hand_ranges: [Range<usize>; 4] = std::array::from_fn(|_| 0..0);
    let mut card_counts = [0; 4];
    let mut spot_cards = [0; 4];
    for k in 0..4 {
        let seat = Seat::ALL[(first as usize + k) % 4] as usize;
        hand_ranges[seat] = hands[k].clone();
        if let Some(scan) = &scans[k] {
            out_hands[seat] = Some(scan.hand);
            card_counts[seat] = scan.count;
            spot_cards[seat] = scan.spots;
        }
    }
    let is_end_position = equal && any_cards && reference < 13;
    Parsed::new(
        Some(Deal {
            first,
            hands: out_hands,
            hand_ranges,
            card_counts,
            spot_cards,
            is_end_position,
            ranks_sorted,
            lowercase_used,
        }),
        issues,
    )
}

/// The hands' common size (the most frequent; ties to the larger) and
/// whether every hand has it ([`codes::DEAL_UNEQUAL_HANDS`] for each that
/// has not, §3.10).
fn hand_sizes(
    first: Option<Seat>,
    hands: &[Range<usize>],
    scans: &[Option<HandScan>],
    issues: &mut Vec<ValueIssue>,
) -> (usize, bool) {
    let counts: Vec<(usize, usize)> = scans
        .iter()
        .enumerate()
        .filter_map(|(k, s)| s.as_ref().map(|s| (k, s.count)))
        .collect();
    let reference = {
        // The most frequent count; ties go to the larger one.
        let mut best = (0, 0);
        for &(_, c) in &counts {
            let n = counts.iter().filter(|&&(_, d)| d == c).count();
            if (n, c) > best {
                best = (n, c);
            }
        }
        best.1
    };
    let mut equal = true;
    for &(k, c) in &counts {
        if c != reference && c <= 13 {
            equal = false;
            let who = match first {
                Some(f) => seat_name(Seat::ALL[(f as usize + k) % 4]).to_string(),
                None => format!("hand {}", k + 1),
            };
            issues.push(issue(
                &codes::DEAL_UNEQUAL_HANDS,
                hands[k].clone(),
                format!(
                    "{who} has {c} cards but the other hands have {reference}; all given hands have 13 cards, or the same number in an end position (§3.10)"
                ),
            ));
        }
    }
    if counts.iter().any(|&(_, c)| c > 13) {
        equal = false;
    }
    (reference, equal)
}

/// `<first>:` (§3.4.11): the first hand's seat (and whether its letter is
/// lower case; `None` when it cannot be read) and where the hands start.
fn read_first(raw: &str, issues: &mut Vec<ValueIssue>) -> (Option<(Seat, bool)>, usize) {
    match raw.find(':') {
        Some(colon) => {
            let lead = &raw[..colon];
            let t = lead.trim_matches(super::is_ws);
            let mut chars = t.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if super::seat::seat_letter(c).is_some() => {
                    if t.len() != lead.len() {
                        issues.push(issue(
                            &codes::DEAL_SPACING,
                            0..colon,
                            format!(
                                "no white space is allowed around <first> in \"<first>:<hands>\" ({SECTION})"
                            ),
                        ));
                    }
                    (super::seat::seat_letter(c), colon + 1)
                }
                _ => {
                    issues.push(issue(
                        &codes::DEAL_FIRST_SEAT,
                        0..colon.max(1).min(raw.len()),
                        format!("the Deal starts with the direction of the first hand, W, N, E or S, and a colon, e.g. \"N:\" ({SECTION})"),
                    ));
                    (None, colon + 1)
                }
            }
        }
        None => {
            let end = raw.find(super::is_ws).unwrap_or(raw.len());
            issues.push(issue(
                &codes::DEAL_FIRST_SEAT,
                0..end.max(1).min(raw.len()),
                format!("the Deal starts with <first>: the direction of the first hand and a colon, e.g. \"N:\" ({SECTION})"),
            ));
            (None, 0)
        }
    }
}

/// The hands' ranges in `raw`, from `body_start`: separated by exactly one
/// space ([`codes::DEAL_SPACING`] otherwise).
fn split_hands(raw: &str, body_start: usize, issues: &mut Vec<ValueIssue>) -> Vec<Range<usize>> {
    let body = &raw[body_start..];
    let mut hands: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    let bytes = body.as_bytes();
    while i < bytes.len() {
        if super::is_ws(bytes[i] as char) {
            let start = i;
            while i < bytes.len() && super::is_ws(bytes[i] as char) {
                i += 1;
            }
            let ws = &body[start..i];
            let what = if start == 0 {
                Some("no white space is allowed before the first hand")
            } else if i == bytes.len() {
                Some("no white space is allowed after the last hand")
            } else if ws != " " {
                Some("exactly one space separates two hands")
            } else {
                None
            };
            if let Some(what) = what {
                issues.push(issue(
                    &codes::DEAL_SPACING,
                    body_start + start..body_start + i,
                    format!("{what} ({SECTION})"),
                ));
            }
            continue;
        }
        let start = i;
        while i < bytes.len() && !super::is_ws(bytes[i] as char) {
            i += 1;
        }
        hands.push(body_start + start..body_start + i);
    }
    hands
}

/// One hand's cards (not `-`): its suits, ranks, spot cards and count;
/// a card already in `seen` is a duplicate ([`codes::DEAL_DUPLICATE_CARD`]).
fn scan_hand(
    raw: &str,
    range: &Range<usize>,
    who: &str,
    seen: &mut [Option<Range<usize>>; 52],
    issues: &mut Vec<ValueIssue>,
    structure_ok: &mut bool,
) -> HandScan {
    let text = &raw[range.clone()];
    let suits: Vec<(usize, &str)> = {
        let mut v = Vec::new();
        let mut s = 0;
        for (j, c) in text.char_indices() {
            if c == '.' {
                v.push((s, &text[s..j]));
                s = j + 1;
            }
        }
        v.push((s, &text[s..]));
        v
    };
    if suits.len() != 4 {
        issues.push(issue(
            &codes::DEAL_SUIT_COUNT,
            range.clone(),
            format!(
                "{who} has {} suits; a hand gives spades, hearts, diamonds and clubs separated by 3 dots ({SECTION})",
                suits.len()
            ),
        ));
        *structure_ok = false;
    }
    let mut scan = HandScan {
        hand: Hand::EMPTY,
        count: 0,
        spots: 0,
        sorted: true,
        lowercase: false,
    };
    for (si, &(soff, stext)) in suits.iter().enumerate() {
        let suit = Suit::DESC.get(si).copied();
        let mut prev: Option<Rank> = None;
        let mut chars = stext.char_indices().peekable();
        while let Some((j, c)) = chars.next() {
            let at = range.start + soff + j;
            let crange = at..at + c.len_utf8();
            if c == 'x' || c == 'X' {
                scan.spots += 1;
                scan.count += 1;
                continue;
            }
            let (rank, crange) = match rank_of_char(c) {
                Some(rank) => (rank, crange),
                // A ten written `10` is read as the ten, as `S10` in
                // the play is (PBN0620); its fix writes `T`.
                None if c == '1' && chars.peek().is_some_and(|&(_, n)| n == '0') => {
                    chars.next();
                    let r = at..at + 2;
                    issues.push(issue(
                        &codes::DEAL_RANK,
                        r.clone(),
                        format!(
                            "`10` is not a rank: ranks are A K Q J T 9 8 7 6 5 4 3 2; read as `T`, the ten ({SECTION})"
                        ),
                    ));
                    (Rank::new(10), r)
                }
                None => {
                    issues.push(issue(
                        &codes::DEAL_RANK,
                        crange,
                        format!(
                            "`{c}` is not a rank: ranks are A K Q J T 9 8 7 6 5 4 3 2 ({SECTION})"
                        ),
                    ));
                    continue;
                }
            };
            scan.count += 1;
            scan.lowercase |= c.is_ascii_lowercase();
            if prev.is_some_and(|p| p <= rank) {
                scan.sorted = false;
            }
            prev = Some(rank);
            let Some(suit) = suit else { continue };
            let card = Card { suit, rank };
            let idx = card_index(card);
            if let Some(first_at) = &seen[idx] {
                let mut i = issue(
                    &codes::DEAL_DUPLICATE_CARD,
                    crange.clone(),
                    format!(
                        "{}{} appears twice; every card is in one hand only ({SECTION})",
                        suit.letter(),
                        rank_char(rank)
                    ),
                );
                i.related = Some(Related {
                    range: first_at.clone(),
                    message: "first occurrence".into(),
                });
                issues.push(i);
            } else {
                seen[idx] = Some(crange);
                scan.hand.insert(card);
            }
        }
    }
    if scan.spots > 0 {
        issues.push(issue(
            &codes::DEAL_SPOT_CARDS,
            range.clone(),
            format!(
                "{who} has {} `x` spot card{}; `x` is not a PBN rank and does not say which small card is meant, so the hand cannot be played out and no fix is offered; write the ranks ({SECTION})",
                scan.spots,
                if scan.spots == 1 { "" } else { "s" }
            ),
        ));
    }
    if scan.count > 13 {
        issues.push(issue(
            &codes::DEAL_TOO_MANY_CARDS,
            range.clone(),
            format!(
                "{who} has {} cards; a hand has at most 13 ({SECTION})",
                scan.count
            ),
        ));
    }
    scan
}

/// A Deal in another program's form, as PBN writes it: `<first>:` missing
/// before four given hands (read from North, the order in which PBN lists
/// the seats), every hand prefixed with its own seat (`N:… E:… S:… W:…`, the
/// seats clockwise), `-` for a void suit inside a hand
/// (`QT54.-.9874.JT942`). With the descriptions of the forms found;
/// `None` when the value is in none of them.
pub fn deal_read_form(raw: &str) -> Option<(String, Vec<&'static str>)> {
    let words: Vec<&str> = raw.split(super::is_ws).filter(|w| !w.is_empty()).collect();
    let hand_like = |w: &str| w == "-" || w.matches('.').count() == 3;
    fn seat_prefix(w: &str) -> Option<(Seat, &str)> {
        let mut c = w.chars();
        match (c.next(), c.next()) {
            (Some(l), Some(':')) => super::seat::seat_letter(l).map(|(s, _)| (s, &w[2..])),
            _ => None,
        }
    }
    let mut how = Vec::new();
    let (first, hands): (Seat, Vec<&str>) = if words.len() == 4
        && words
            .iter()
            .all(|w| seat_prefix(w).is_some_and(|(_, h)| hand_like(h)))
    {
        let seats: Vec<(Seat, &str)> = words.iter().filter_map(|w| seat_prefix(w)).collect();
        let clockwise = (0..4).all(|k| seats[k].0 as usize == (seats[0].0 as usize + k) % 4);
        if !clockwise {
            return None;
        }
        how.push("prefixes every hand with its seat");
        (seats[0].0, seats.iter().map(|&(_, h)| h).collect())
    } else if words.len() == 4
        && !raw.contains(':')
        && words.iter().all(|w| w.matches('.').count() == 3)
    {
        how.push("has no `<first>:` (the hands are read from North)");
        (Seat::North, words)
    } else {
        let (f, body) = raw.split_once(':')?;
        let (seat, _) = super::seat::seat_letter(f.chars().next()?).filter(|_| f.len() == 1)?;
        (seat, body.split(' ').collect())
    };
    let hands: Vec<String> = hands
        .iter()
        .map(|h| {
            let suits: Vec<&str> = h.split('.').collect();
            if suits.len() == 4 && suits.contains(&"-") {
                if !how.contains(&"writes a void suit `-`") {
                    how.push("writes a void suit `-`");
                }
                suits
                    .iter()
                    .map(|&x| if x == "-" { "" } else { x })
                    .collect::<Vec<_>>()
                    .join(".")
            } else {
                h.to_string()
            }
        })
        .collect();
    if how.is_empty() {
        return None;
    }
    Some((format!("{}:{}", first.letter(), hands.join(" ")), how))
}

/// [`parse_deal`] of a Deal in one of [`deal_read_form`]'s forms: the deal
/// read as PBN writes it and one [`codes::DEAL_OTHER_FORM`] over the value,
/// in place of the errors of each character; `None` when the value is in
/// none of the forms or still has errors written as PBN.
fn other_form(raw: &str) -> Option<Parsed<Deal>> {
    let (read, how) = deal_read_form(raw)?;
    let p = parse_deal(&read);
    if p.has_errors() {
        return None;
    }
    let whole = 0..raw.len();
    let mut deal = p.value?;
    deal.hand_ranges = std::array::from_fn(|_| whole.clone());
    let mut issues = vec![issue(
        &codes::DEAL_OTHER_FORM,
        whole.clone(),
        format!(
            "the Deal {}; read as \"{read}\": <first>:<hands>, a void suit empty ({SECTION})",
            how.join(" and ")
        ),
    )];
    issues.extend(p.issues.into_iter().map(|mut i| {
        i.range = whole.clone();
        i
    }));
    Some(Parsed::new(Some(deal), issues))
}

/// The one smallest correction of a Deal whose only errors are cards given
/// twice ([`codes::DEAL_DUPLICATE_CARD`]), a hand of more than 13 cards
/// ([`codes::DEAL_TOO_MANY_CARDS`]) or hands of different sizes
/// ([`codes::DEAL_UNEQUAL_HANDS`]): taking one card out of a hand, giving one
/// card to a hand, or both (which moves a card, or replaces it by another),
/// so that every given hand has 13 cards and no card is given twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealCorrection {
    /// The corrected Deal value: `raw` with one rank taken out and/or one
    /// put in (in rank order when its suit is sorted).
    pub value: String,
    /// The card taken out, and the hand it was taken from.
    pub removed: Option<(Seat, Card)>,
    /// The card given, and the hand it was given to.
    pub added: Option<(Seat, Card)>,
}

/// A card of the Deal text: its hand, card and byte offset in the value.
struct Occurrence {
    seat: usize,
    card: usize,
    at: usize,
}

fn card_of_index(i: usize) -> Card {
    Card {
        suit: Suit::ASC[i / 13],
        rank: Rank::new((i % 13) as u8 + 2),
    }
}

/// The correction of a Deal with card errors when it is the only smallest
/// one ([`DealCorrection`]); `None` when the Deal has other errors (a bad
/// rank, `x` spot cards, …), when no correction of at most one card taken
/// out and one given makes every given hand 13 cards, or when more than one
/// gives different deals: a card in two hands of 13 (either may be wrong),
/// a hand of 14 next to one of 12 without a repeated card (any of the 14 may
/// be the misplaced one), a hand of 12 next to hands not given (the missing
/// card may be any of theirs). A card twice in one hand is taken out once,
/// the later one.
pub fn unique_correction(raw: &str) -> Option<DealCorrection> {
    let p = parse_deal(raw);
    let fixable = [
        codes::DEAL_DUPLICATE_CARD.code,
        codes::DEAL_TOO_MANY_CARDS.code,
        codes::DEAL_UNEQUAL_HANDS.code,
    ];
    if p.issues.is_empty() || p.issues.iter().any(|i| !fixable.contains(&i.code.code)) {
        return None;
    }
    let deal = p.value?;
    if deal.spot_cards.iter().any(|&n| n > 0) {
        return None;
    }
    let given: Vec<usize> = (0..4).filter(|&s| deal.hands[s].is_some()).collect();
    // One card out and one in change a hand's size by at most one each.
    if given
        .iter()
        .any(|&s| !(12..=14).contains(&deal.card_counts[s]))
        || given
            .iter()
            .map(|&s| deal.card_counts[s].abs_diff(13))
            .sum::<usize>()
            > 2
    {
        return None;
    }
    let (occs, suit_text) = card_occurrences(raw, &deal, &given)?;
    let mut counts = [0usize; 4];
    let mut times = [0u8; 52];
    for o in &occs {
        counts[o.seat] += 1;
        times[o.card] = times[o.card].saturating_add(1);
    }
    let all_13 = |c: &[usize; 4]| given.iter().all(|&s| c[s] == 13);
    // Cards given more often than once, beyond the first time.
    let excess: usize = times
        .iter()
        .map(|&t| usize::from(t.saturating_sub(1)))
        .sum();
    // The deal a correction gives, to tell two corrections apart.
    let result = |out: Option<usize>, add: Option<(usize, usize)>| {
        let mut hands = [0u64; 4];
        for (i, o) in occs.iter().enumerate() {
            if Some(i) != out {
                hands[o.seat] |= 1 << o.card;
            }
        }
        if let Some((card, s)) = add {
            hands[s] |= 1 << card;
        }
        hands
    };
    type Candidate = (Option<usize>, Option<(usize, usize)>);
    let mut found: Option<([u64; 4], Candidate)> = None;
    // Records a valid correction; false when it gives another deal than
    // the one found before (more than one correction: none is offered).
    let take = |found: &mut Option<([u64; 4], Candidate)>, out, add| {
        let deal = result(out, add);
        match found {
            Some((d, _)) => *d == deal,
            None => {
                *found = Some((deal, (out, add)));
                true
            }
        }
    };
    // One card out or one in. Later cards first, so that of a card twice
    // in a hand the later goes.
    for (i, o) in occs.iter().enumerate().rev() {
        let mut c = counts;
        c[o.seat] -= 1;
        if excess == 1 && times[o.card] == 2 && all_13(&c) && !take(&mut found, Some(i), None) {
            return None;
        }
    }
    if excess == 0 {
        for card in (0..52).filter(|&card| times[card] == 0) {
            for &s in &given {
                let mut c = counts;
                c[s] += 1;
                if all_13(&c) && !take(&mut found, None, Some((card, s))) {
                    return None;
                }
            }
        }
    }
    // Then one card out and one in: the card out leaves no card twice,
    // the card in goes to the one hand then short of 13.
    if found.is_none() {
        for (i, o) in occs.iter().enumerate().rev() {
            if excess != usize::from(times[o.card] >= 2) {
                continue;
            }
            let mut c = counts;
            c[o.seat] -= 1;
            let mut short = given.iter().filter(|&&s| c[s] != 13);
            let (Some(&s), None) = (short.next(), short.next()) else {
                continue;
            };
            if c[s] != 12 {
                continue;
            }
            for (card, &t) in times.iter().enumerate() {
                let left = t - u8::from(card == o.card);
                if left == 0
                    && (card, s) != (o.card, o.seat)
                    && !take(&mut found, Some(i), Some((card, s)))
                {
                    return None;
                }
            }
        }
    }

    let (_, (out, add)) = found?;
    let value = corrected_text(raw, &occs, &suit_text, out, add);
    Some(DealCorrection {
        value,
        removed: out.map(|i| (Seat::ALL[occs[i].seat], card_of_index(occs[i].card))),
        added: add.map(|(card, s)| (Seat::ALL[s], card_of_index(card))),
    })
}

/// Per seat, per suit (spades first): where the suit's ranks are written.
type SuitTexts = [[Range<usize>; 4]; 4];

/// The cards of the given hands of `raw` (their seats and offsets), and
/// the text of each suit of each given hand; `None` when a character is no
/// rank.
fn card_occurrences(
    raw: &str,
    deal: &Deal,
    given: &[usize],
) -> Option<(Vec<Occurrence>, SuitTexts)> {
    let mut occs: Vec<Occurrence> = Vec::new();
    let mut suit_text: SuitTexts = Default::default();
    for &s in given {
        let range = deal.hand_ranges[s].clone();
        let mut start = range.start;
        for (si, part) in raw[range.clone()].split('.').enumerate() {
            let suit = *Suit::DESC.get(si)?;
            suit_text[s][si] = start..start + part.len();
            for (j, c) in part.char_indices() {
                let card = Card {
                    suit,
                    rank: rank_of_char(c)?,
                };
                occs.push(Occurrence {
                    seat: s,
                    card: card_index(card),
                    at: start + j,
                });
            }
            start += part.len() + 1;
        }
    }
    Some((occs, suit_text))
}

/// `raw` with the occurrence `out` taken out and the card `add` (card
/// index, seat) put in its suit in rank order; the edits made from the end
/// of the text, out before in at one offset.
fn corrected_text(
    raw: &str,
    occs: &[Occurrence],
    suit_text: &SuitTexts,
    out: Option<usize>,
    add: Option<(usize, usize)>,
) -> String {
    let mut value = raw.to_string();
    let insert = add.map(|(card, s)| {
        let c = card_of_index(card);
        let r = suit_text[s][Suit::DESC.iter().position(|&x| x == c.suit).unwrap_or(0)].clone();
        let at = raw[r.clone()]
            .char_indices()
            .find(|&(_, ch)| rank_of_char(ch).is_some_and(|k| k < c.rank))
            .map_or(r.end, |(j, _)| r.start + j);
        (at, rank_char(c.rank))
    });
    let remove = out.map(|i| occs[i].at);
    match (remove, insert) {
        (Some(o), Some((at, ch))) if o >= at => {
            value.remove(o);
            value.insert(at, ch);
        }
        (o, i) => {
            if let Some((at, ch)) = i {
                value.insert(at, ch);
            }
            if let Some(o) = o {
                value.remove(o);
            }
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    const FULL: &str = "W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";

    #[test]
    fn full_deal() {
        let p = parse_deal(FULL);
        assert_clean(&p.issues, FULL);
        let d = p.value.unwrap();
        assert_eq!(d.first, Seat::West);
        assert_eq!(d.card_count(), 52);
        assert_eq!(d.given_hands(), 4);
        assert!(!d.is_end_position);
        assert!(d.ranks_sorted);
        assert!(!d.lowercase_used);
        let west = d.hand(Seat::West).unwrap();
        assert_eq!(west.len(), 13);
        assert!(west.contains(Card {
            suit: Suit::Spades,
            rank: Rank::K
        }));
        assert_eq!(
            &FULL[d.hand_ranges[Seat::West as usize].clone()],
            "KQT2.AT.J6542.85"
        );
        assert_eq!(
            &FULL[d.hand_ranges[Seat::North as usize].clone()],
            ".63.AKQ987.A9732"
        );
        assert_eq!(
            d.export_form(Seat::North).unwrap(),
            "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
        );
    }

    #[test]
    fn import_forms_are_clean() {
        let p = parse_deal("n:2TQK.ta.J6542.85 - - -");
        assert_clean(&p.issues, "lowercase unsorted");
        let d = p.value.unwrap();
        assert!(!d.ranks_sorted);
        assert!(d.lowercase_used);
        assert_eq!(d.first, Seat::North);
        assert_eq!(
            d.export_form(Seat::West).unwrap(),
            "W:- KQT2.AT.J6542.85 - -"
        );
        let p = parse_deal("W:- .63.AKQ987.A9732 - J973.J98742.3.K4");
        assert_clean(&p.issues, "partial");
        assert_eq!(p.value.unwrap().given_hands(), 2);
        assert!(parse_deal("").value.is_none() && parse_deal("").issues.is_empty());
        assert!(parse_deal("?").issues.is_empty());
    }

    #[test]
    fn end_position() {
        let p = parse_deal("N:AK.Q.. 2.3.4. - -");
        assert_clean(&p.issues, "end position");
        let d = p.value.unwrap();
        assert!(d.is_end_position);
        assert_eq!(d.card_counts[Seat::North as usize], 3);
    }

    #[test]
    fn errors_10_deals() {
        // game 11: bad rank
        let raw = "W:vKQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        let p = parse_deal(raw);
        assert_eq!(codes_of(&p.issues), vec!["PBN0405"]);
        assert_eq!(p.issues[0].range, 2..3);
        // game 12: double SK
        let raw = "W:KQT2.AT.J6542.85 K.63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        let p = parse_deal(raw);
        let i = expect(&p.issues, &codes::DEAL_DUPLICATE_CARD);
        assert_eq!(i.range, 19..20);
        assert_eq!(i.related.as_ref().unwrap().range, 2..3);
        // game 13: West has 14 cards
        let p = parse_deal("W:KQT2.AT.J6542.852 .63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4");
        assert_eq!(expect(&p.issues, &codes::DEAL_TOO_MANY_CARDS).range, 2..19);
        // game 14: West has 12 cards, others 13
        let p = parse_deal("W:QT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4");
        assert_eq!(codes_of(&p.issues), vec!["PBN0408"]);
        assert_eq!(p.issues[0].range, 2..17);
        assert!(!p.value.unwrap().is_end_position);
        // game 15: same with two hands
        let p = parse_deal("W:QT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0408"]);
        assert_eq!(p.issues[0].range, 2..17);
        // game 16: double space
        let p = parse_deal("W:KQT2.AT.J6542.85  - - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0403"]);
        assert_eq!(p.issues[0].range, 18..20);
        // game 17: 14 cards
        let p = parse_deal("W:KQT2.AT.J6542.852 - - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0407"]);
        // game 18: no cards
        let p = parse_deal("W:- - - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0409"]);
    }

    #[test]
    fn structure_errors() {
        let p = parse_deal("KQT2.AT.J6542.85 - - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0401"]);
        assert!(p.value.is_none());
        let p = parse_deal("X:KQT2.AT.J6542.85 - - -");
        assert_eq!(p.issues[0].range, 0..1);
        expect(&p.issues, &codes::DEAL_FIRST_SEAT);
        let p = parse_deal("W:KQT2.AT.J6542.85 - -");
        expect(&p.issues, &codes::DEAL_HAND_COUNT);
        assert!(p.value.is_none());
        let p = parse_deal("W:KQT2.AT.J6542.85 - - - -");
        assert_eq!(expect(&p.issues, &codes::DEAL_HAND_COUNT).range, 25..26);
        let p = parse_deal("N:AKQJ.T98.765 - - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0404"]);
        let p = parse_deal(" W:KQT2.AT.J6542.85 - - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0403"]);
        let p = parse_deal("W:KQT2.AT.J6542.85 - - - ");
        assert_eq!(codes_of(&p.issues), vec!["PBN0403"]);
        assert_eq!(p.issues[0].range, 24..25);
        let p = parse_deal("W:KQT2.AT.J6542.85\t- - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0403"]);
        let p = parse_deal("W:");
        expect(&p.issues, &codes::DEAL_HAND_COUNT);
    }

    #[test]
    fn card_errors() {
        // A card twice in one suit.
        let p = parse_deal("N:AKA.T98.765.432 - - -");
        let i = expect(&p.issues, &codes::DEAL_DUPLICATE_CARD);
        assert_eq!(i.range, 4..5);
        assert_eq!(i.related.as_ref().unwrap().range, 2..3);
        // "10" for the ten.
        let p = parse_deal("N:AK10.QJ.765.432 - - -");
        let i = expect(&p.issues, &codes::DEAL_RANK);
        assert_eq!(i.range, 4..6);
        assert!(i.message.contains('T'));
    }

    #[test]
    fn spot_cards_and_empty_hands() {
        let p = parse_deal("W:xxxxx.xx.xx.xxxx ... xxx.xxx.xx.xxxxx ...");
        assert_eq!(
            codes_of(&p.issues),
            vec!["PBN0410", "PBN0410", "PBN0411", "PBN0411"]
        );
        let d = p.value.unwrap();
        assert_eq!(d.card_counts[Seat::West as usize], 13);
        assert_eq!(d.spot_cards[Seat::West as usize], 13);
        assert_eq!(d.hand(Seat::North), None);
        assert!(d.export_form(Seat::West).is_none());
        let p = parse_deal("W:AKxx.Kxx.Qxx.xxx - - -");
        assert_eq!(codes_of(&p.issues), vec!["PBN0410"]);
        let p = parse_deal("W:... ... ... ...");
        assert_eq!(codes_of(&p.issues), vec!["PBN0409"]);
    }

    fn corrected(raw: &str) -> Option<String> {
        unique_correction(raw).map(|c| c.value)
    }

    #[test]
    fn unique_corrections() {
        let card = |suit, rank| Card { suit, rank };
        // West 14 with East's SA, North 12 without C2: the SA out of West's
        // hand, the C2 to North.
        let raw = "W:AKQT2.AT.J6542.85 .63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        let codes = codes_of(&parse_deal(raw).issues);
        assert!(codes.contains(&"PBN0406") && codes.contains(&"PBN0407"));
        assert!(codes.contains(&"PBN0408"));
        let c = unique_correction(raw).unwrap();
        assert_eq!(c.value, FULL);
        assert_eq!(c.removed, Some((Seat::West, card(Suit::Spades, Rank::A))));
        assert_eq!(
            c.added,
            Some((Seat::North, card(Suit::Clubs, Rank::new(2))))
        );
        // C3 twice in North's 13 cards, C2 nowhere: the later C3 becomes C2.
        let raw = "W:KQT2.AT.J6542.85 .63.AKQ987.A9733 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(codes_of(&parse_deal(raw).issues), vec!["PBN0406"]);
        let c = unique_correction(raw).unwrap();
        assert_eq!(c.value, FULL);
        assert_eq!(c.removed.unwrap().0, Seat::North);
        // West 12 and C5 nowhere: C5 to West, in rank order.
        let raw = "W:KQT2.AT.J6542.8 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(codes_of(&parse_deal(raw).issues), vec!["PBN0408"]);
        assert_eq!(corrected(raw).unwrap(), FULL);
        let raw = "W:KQT2.AT.J6542.5 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(corrected(raw).unwrap(), FULL);
        let raw = "W:KQT2.AT.J542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(corrected(raw).unwrap(), FULL);
        // West 14 with East's SA, the others 13: the SA out of West's hand.
        let raw = "W:AKQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(corrected(raw).unwrap(), FULL);
        // The same with hands not given.
        let raw = "W:AKQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -";
        assert_eq!(
            corrected(raw).unwrap(),
            "W:KQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -"
        );
    }

    #[test]
    fn no_correction_when_more_than_one_is_possible() {
        // SK in two hands of 13: either may be the wrong one.
        let raw = "W:KQT2.AT.J6542.85 K.63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert!(!parse_deal(raw).issues.is_empty());
        assert_eq!(unique_correction(raw), None);
        // West 14, North 12, no card twice: any of West's may be North's.
        let raw = "W:KQT2.AT.J6542.852 .63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert!(!parse_deal(raw).issues.is_empty());
        assert_eq!(unique_correction(raw), None);
        // West 12 next to hands not given: the missing card may be theirs.
        let raw = "W:QT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -";
        assert_eq!(codes_of(&parse_deal(raw).issues), vec!["PBN0408"]);
        assert_eq!(unique_correction(raw), None);
        // West 14, no card twice, hands not given: any of the 14 may go.
        assert_eq!(unique_correction("W:KQT2.AT.J6542.852 - - -"), None);
        // Two cards missing: more than one card to give.
        let raw = "W:KQT2.AT.J6542.8 .63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(unique_correction(raw), None);
        // Other errors, or none.
        assert_eq!(unique_correction(FULL), None);
        let raw = "W:KQT2.AT.J6542.8x .63.AKQ987.A973 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(unique_correction(raw), None);
        let raw = "W:KQT2.AT.J6542.8v .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        assert_eq!(unique_correction(raw), None);
        let long = format!("W:{}.AT.J6542.85 - - -", "AKQJ".repeat(10_000));
        assert_eq!(unique_correction(&long), None);
        assert_eq!(unique_correction(""), None);
        assert_eq!(unique_correction("W:"), None);
    }
}
