//! Bridge logic the checker needs: the PBN auction (with its irregularities),
//! the play (tricks, following suit, trick winners), the consistency of the
//! Declarer/Contract/Result tags with them, board rotation and scoring.
//!
//! Card, seat, contract and scoring types come from the `contract-bridge`
//! crate ([`Seat`], [`Suit`], [`Strain`], [`Card`], [`Hand`], [`Bid`],
//! [`Contract`], [`Penalty`], [`Call`], `Contract::score`); this module adds
//! what PBN needs on top. Everything here works on already-parsed values: the
//! model turns tokens into [`AuctionItem`]s / [`PlayItem`]s and tag values into
//! [`DeclarerTag`], [`ContractTag`] and [`ResultTag`], calls the `analyze_*` and
//! `compare_*` functions and maps each [`Issue`] (an item index) or
//! [`TagMismatch`] (a tag name) back to a source range. The codes are in
//! [`crate::codes::bridge`] (PBN05xx auction, PBN06xx play, PBN09xx
//! consistency).
//!
//! - [`auction`]: [`analyze_auction`] — seats of the calls (`-` padding, `^S`),
//!   legality (insufficient bids and `^I`, doubles, redoubles, calls after the
//!   end, `*`/`+`), the final contract and declarer, and the legal next calls.
//! - [`play`]: [`analyze_play`] — the column layout of the play section,
//!   trick leaders and winners, following suit (`^R`), leads out of turn
//!   (`^L`), cards not in hand or played twice, end positions (§3.10), and the
//!   legal next cards.
//! - [`tags`]: [`compare_contract`] and [`compare_result`].
//! - [`scoring`]: IMPs, matchpoints, percentages, the Butler datum and
//!   cross-IMPs of a board's scores (§3.4.12).
//! - here: [`board_dealer`], [`board_vulnerability`], [`duplicate_score`].
//!
//! # Wiring (for the model)
//!
//! `examples_tests.rs` is a runnable miniature of it. In short:
//! - Auction: `analyze_auction(Dealer tag, Auction tag seat, items)`; an
//!   unreadable call token (`1N`) becomes [`CallToken::Invalid`], and
//!   `^I` before a token sets `insufficient_marked` (misplaced or repeated
//!   marks stay PBN0712 of `rules/notes.rs`, which this module leaves alone).
//!   Then `compare_contract(&analysis, Declarer tag, Contract tag)`, with
//!   `None` for an absent or `"?"` tag.
//! - Play: `analyze_play(Deal hands, trump, DeclarerTag::playing_seat(),
//!   Play tag seat, items)`, where trump is the Contract's denomination
//!   (also the bare denomination of an end position, §3.10); an unreadable
//!   card becomes [`CardToken::Invalid`]. Then `compare_result(&play, Result tag,
//!   declarer)` when Declarer names a seat.
//! - PBN0905/PBN0906 (info) compare Dealer/Vulnerable with
//!   [`board_dealer`]/[`board_vulnerability`] of the Board tag; PBN0907
//!   (warning) compares Score with [`duplicate_score`] of Contract, the
//!   auction's declarer ([`DeclarerTag::auction_declarer`]), Result and
//!   Vulnerable.
//!
//! # The double-dummy solver
//!
//! Double-dummy analysis (DDS 2.9 through `pons-dds`) lives in [`crate::dd`],
//! not here: these rules run on every keystroke and check PBN conformance;
//! solving is opt-in (`pbn check --dd`). A Result after a claim (`*`) is not
//! a double-dummy question (players may misplay or concede):
//! [`compare_result`] uses sound bounds instead (tricks already won; the
//! opponents' top trumps always win).

pub mod auction;
pub mod play;
pub mod scoring;
pub mod tags;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod examples_tests;

pub use auction::{analyze_auction, AuctionAnalysis, AuctionItem, CallToken, FinalContract};
pub use contract_bridge::auction::Call;
pub use contract_bridge::{Bid, Card, Contract, Hand, Level, Penalty, Rank, Seat, Strain, Suit};
pub use play::{analyze_play, rotation, CardToken, PlayAnalysis, PlayItem, Trick};
pub use tags::{
    compare_contract, compare_result, left_out_passes, ContractTag, DeclarerTag, ResultForm,
    ResultTag, TagMismatch,
};

use crate::codes::CodeInfo;
use crate::spec;

pub use crate::spec::seats::{vulnerability_name, Vulnerability};

/// At most this many issues of one code are kept by an analysis; the rest
/// are only counted ([`Issues::more`]). The rules show 3 per section and
/// the count of the rest, so a 50 MB auction of passes holds 50 messages,
/// not one per call.
pub const ISSUE_CAP: usize = 50;

/// The issues of an auction or play analysis, in the order found: the
/// first [`ISSUE_CAP`] of each code, and how many more of each were found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Issues {
    kept: Vec<Issue>,
    /// Per code: issues found, kept or not.
    found: Vec<(&'static CodeInfo, usize)>,
}

impl Issues {
    pub fn push(&mut self, issue: Issue) {
        let n = match self
            .found
            .iter_mut()
            .find(|(c, _)| c.code == issue.code.code)
        {
            Some((_, n)) => n,
            None => {
                self.found.push((issue.code, 0));
                &mut self.found.last_mut().expect("just pushed").1
            }
        };
        *n += 1;
        if *n <= ISSUE_CAP {
            self.kept.push(issue);
        }
    }

    /// How many issues of `code` were found and not kept.
    pub fn more(&self, code: &str) -> usize {
        self.found
            .iter()
            .find(|(c, _)| c.code == code)
            .map_or(0, |(_, n)| n.saturating_sub(ISSUE_CAP))
    }

    /// How many issues of `code` were found, kept or not.
    pub fn found(&self, code: &str) -> usize {
        self.found
            .iter()
            .find(|(c, _)| c.code == code)
            .map_or(0, |(_, n)| *n)
    }

    /// Every issue found, kept or not.
    pub fn total(&self) -> usize {
        self.found.iter().map(|(_, n)| n).sum()
    }
}

impl std::ops::Deref for Issues {
    type Target = [Issue];
    fn deref(&self) -> &[Issue] {
        &self.kept
    }
}

/// One problem found in an auction or play section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    pub code: &'static CodeInfo,
    /// Index into the items given to [`analyze_auction`] / [`analyze_play`].
    /// Section-level issues (PBN0510 incomplete auction, PBN0611 incomplete
    /// play) point at the last item, or are `items.len()` (== 0) for an
    /// empty section: map that to the section's tag. PBN0601 (wrong opening
    /// leader) is about the Play tag and points at item 0 (or 0 == len when
    /// the section is empty); map it to the Play tag value.
    pub index: usize,
    /// Names the rule and its section.
    pub message: String,
    /// Another item, e.g. the bid this one is insufficient against, or the
    /// first play of a card played twice.
    pub related: Option<usize>,
}

impl Issue {
    pub(crate) fn new(code: &'static CodeInfo, index: usize, message: impl Into<String>) -> Self {
        Issue {
            code,
            index,
            message: message.into(),
            related: None,
        }
    }

    pub(crate) fn related(mut self, related: Option<usize>) -> Self {
        self.related = related;
        self
    }
}

/// The seat `steps` places clockwise after `seat`.
pub fn rotate(seat: Seat, steps: usize) -> Seat {
    Seat::ALL[(seat as usize + steps) % 4]
}

/// How many places clockwise `to` is after `from` (0..4).
pub fn distance(from: Seat, to: Seat) -> usize {
    (to as usize + 4 - from as usize) % 4
}

/// Whether the seat is North or South.
pub fn is_north_south(seat: Seat) -> bool {
    matches!(seat, Seat::North | Seat::South)
}

/// Whether two seats are partners (or the same seat).
pub fn same_side(a: Seat, b: Seat) -> bool {
    is_north_south(a) == is_north_south(b)
}

/// "North-South" or "East-West".
pub fn side_name(seat: Seat) -> &'static str {
    spec::seats::side_name(seat as usize)
}

/// Full name of a seat, for messages.
pub fn seat_name(seat: Seat) -> &'static str {
    spec::seats::NAMES[seat as usize]
}

/// The letter of a seat (`N`, `E`, `S`, `W`, §3.4.9).
pub fn seat_letter(seat: Seat) -> &'static str {
    spec::seats::LETTERS[seat as usize]
}

/// The seat of a seat number of [`spec::seats`].
pub fn seat_of(n: usize) -> Option<Seat> {
    Seat::ALL.get(n).copied()
}

/// The dealer of a board in the standard duplicate rotation: North deals
/// boards 1, 5, 9, …, East 2, 6, …, South 3, 7, …, West 4, 8, ….
/// (Board 0, not a valid board number, is treated like board 16.)
pub fn board_dealer(board: u32) -> Seat {
    Seat::ALL[((board % 4) + 3) as usize % 4]
}

/// The vulnerability of a board in the standard duplicate cycle of 16:
/// None NS EW All / NS EW All None / EW All None NS / All None NS EW.
pub fn board_vulnerability(board: u32) -> Vulnerability {
    const N: Vulnerability = Vulnerability::NONE;
    const NS: Vulnerability = Vulnerability::NS;
    const EW: Vulnerability = Vulnerability::EW;
    const A: Vulnerability = Vulnerability::ALL;
    const CYCLE: [Vulnerability; 16] = [N, NS, EW, A, NS, EW, A, N, EW, A, N, NS, A, N, NS, EW];
    CYCLE[((board % 16) + 15) as usize % 16]
}

/// Whether `seat`'s side is vulnerable.
pub fn is_vulnerable(vulnerability: Vulnerability, seat: Seat) -> bool {
    let side = if is_north_south(seat) {
        Vulnerability::NS
    } else {
        Vulnerability::EW
    };
    vulnerability.contains(side)
}

/// A score for NS as the side that scores it: "NS +420", "EW +200".
pub fn side_score(ns: i32) -> String {
    if ns >= 0 {
        format!("NS +{ns}")
    } else {
        format!("EW +{}", -ns)
    }
}

/// The duplicate score of `contract` played by `declarer` taking `tricks`
/// tricks (0..=13; larger values are clamped), from North-South's point of
/// view (positive when NS score). Wraps `contract_bridge::Contract::score`.
pub fn duplicate_score(
    contract: Contract,
    declarer: Seat,
    tricks: u8,
    vulnerability: Vulnerability,
) -> i32 {
    let score = contract.score(tricks.min(13), is_vulnerable(vulnerability, declarer));
    if is_north_south(declarer) {
        score
    } else {
        -score
    }
}

/// Letter of a strain as PBN writes it in a contract ("C", …, "NT").
pub fn strain_text(strain: Strain) -> &'static str {
    spec::calls::STRAINS[strain as usize]
}

/// The strain of a strain number of [`spec::calls::STRAINS`].
pub fn strain_of(n: u8) -> Option<Strain> {
    Some(match n {
        0 => Strain::Clubs,
        1 => Strain::Diamonds,
        2 => Strain::Hearts,
        3 => Strain::Spades,
        4 => Strain::Notrump,
        _ => return None,
    })
}

/// A bid as PBN writes it ("1C", "3NT").
pub fn bid_word(bid: Bid) -> &'static str {
    spec::calls::bid(bid.level.get(), bid.strain as u8).unwrap_or("?")
}

/// A bid as PBN writes it ("1C", "3NT"), owned.
pub fn bid_text(bid: Bid) -> String {
    bid_word(bid).to_owned()
}

/// The bid of a [`spec::calls::Call::Bid`]'s level and strain number.
pub fn bid_of(level: u8, strain: u8) -> Option<Bid> {
    Some(Bid {
        level: Level::try_new(level).ok()?,
        strain: strain_of(strain)?,
    })
}

/// A call as PBN writes it (`Pass`, `X`, `XX`, `3NT`).
pub fn call_word(call: Call) -> &'static str {
    match call {
        Call::Pass => spec::calls::PASS,
        Call::Double => spec::calls::DOUBLE,
        Call::Redouble => spec::calls::REDOUBLE,
        Call::Bid(b) => bid_word(b),
    }
}

/// The English name of a suit (`spades`; the text alternative of its
/// symbol).
pub fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

/// The symbol of a suit.
pub fn suit_symbol(s: Suit) -> char {
    match s {
        Suit::Spades => '♠',
        Suit::Hearts => '♥',
        Suit::Diamonds => '♦',
        Suit::Clubs => '♣',
    }
}

/// High card points (4-3-2-1) of the known cards.
pub fn hcp(hand: Hand) -> u32 {
    Suit::ASC
        .into_iter()
        .map(|s| contract_bridge::eval::hcp::<u32>(hand[s]))
        .sum()
}

/// A contract as PBN writes it ("4SX").
pub fn contract_text(contract: Contract) -> String {
    let risk = match contract.penalty {
        Penalty::Undoubled => "",
        Penalty::Doubled => spec::calls::DOUBLE,
        Penalty::Redoubled => spec::calls::REDOUBLE,
    };
    format!("{}{}", bid_word(contract.bid), risk)
}

/// A card as PBN writes it ("SK", "HT").
pub fn card_text(card: Card) -> String {
    card_word(card).to_owned()
}

/// A card as PBN writes it, borrowed from [`spec::cards::CARDS`].
pub fn card_word(card: Card) -> &'static str {
    let suit = 3 - card.suit as usize;
    let rank = 14usize.saturating_sub(card.rank.get() as usize);
    spec::cards::card(suit, rank).unwrap_or("?")
}

/// The card of [`spec::cards`] suit and rank numbers.
pub fn card_of(suit: usize, rank: usize) -> Option<Card> {
    let suit = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs].get(suit)?;
    let rank = u8::try_from(14usize.checked_sub(rank)?).ok()?;
    Some(Card {
        suit: *suit,
        rank: Rank::try_new(rank).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dealer_rotation() {
        use Seat::*;
        let got: Vec<Seat> = (1..=8).map(board_dealer).collect();
        assert_eq!(
            got,
            vec![North, East, South, West, North, East, South, West]
        );
        assert_eq!(board_dealer(16), West);
        assert_eq!(board_dealer(17), North);
        assert_eq!(board_dealer(0), West);
        assert_eq!(board_dealer(u32::MAX), South); // u32::MAX ≡ 3 (mod 4)
    }

    #[test]
    fn vulnerability_cycle() {
        let names: Vec<String> = (1..=16)
            .map(|b| board_vulnerability(b).to_string())
            .collect();
        assert_eq!(
            names.join(" "),
            "none ns ew both ns ew both none ew both none ns both none ns ew"
        );
        assert_eq!(board_vulnerability(17), Vulnerability::NONE);
        assert_eq!(board_vulnerability(32), Vulnerability::EW);
        assert_eq!(board_vulnerability(0), Vulnerability::EW);
        assert!(is_vulnerable(Vulnerability::NS, Seat::South));
        assert!(!is_vulnerable(Vulnerability::NS, Seat::West));
        assert!(is_vulnerable(Vulnerability::ALL, Seat::East));
    }

    #[test]
    fn scores_from_north_south() {
        let c = |s: &str| s.parse::<Contract>().unwrap();
        // 4S making exactly, not vulnerable.
        assert_eq!(
            duplicate_score(c("4S"), Seat::South, 10, Vulnerability::NONE),
            420
        );
        // Same contract by East: NS lose 420.
        assert_eq!(
            duplicate_score(c("4S"), Seat::East, 10, Vulnerability::NONE),
            -420
        );
        // §1.2: 5HX by South, 9 tricks, none vulnerable: down 2 doubled = -300.
        assert_eq!(
            duplicate_score(c("5HX"), Seat::South, 9, Vulnerability::NONE),
            -300
        );
        // Vulnerable: -500.
        assert_eq!(
            duplicate_score(c("5HX"), Seat::South, 9, Vulnerability::NS),
            -500
        );
        // EW vulnerable does not matter for NS's contract.
        assert_eq!(
            duplicate_score(c("5HX"), Seat::South, 9, Vulnerability::EW),
            -300
        );
        // 3NT+1 vulnerable by West: NS -630.
        assert_eq!(
            duplicate_score(c("3NT"), Seat::West, 10, Vulnerability::ALL),
            -630
        );
        // 1NTXX making 7, not vulnerable: 40*4=160 + 300 game + 100 insult = 560.
        assert_eq!(
            duplicate_score(c("1NTXX"), Seat::North, 7, Vulnerability::NONE),
            560
        );
        // Clamped trick count.
        assert_eq!(
            duplicate_score(c("7NT"), Seat::North, 20, Vulnerability::NONE),
            duplicate_score(c("7NT"), Seat::North, 13, Vulnerability::NONE)
        );
    }

    #[test]
    fn texts() {
        assert_eq!(contract_text("3NTX".parse().unwrap()), "3NTX");
        assert_eq!(bid_text("1C".parse().unwrap()), "1C");
        assert_eq!(card_text("HT".parse().unwrap()), "HT");
        assert_eq!(rotate(Seat::West, 1), Seat::North);
        assert_eq!(distance(Seat::West, Seat::North), 1);
        assert_eq!(distance(Seat::North, Seat::West), 3);
        assert!(same_side(Seat::North, Seat::South));
        assert!(!same_side(Seat::North, Seat::West));
    }

    /// The maps between `spec`'s plain values and the bridge types agree
    /// with the text each side writes.
    #[test]
    fn spec_maps_round_trip() {
        for (i, c) in spec::cards::CARDS.iter().enumerate() {
            let card = card_of(i / 13, i % 13).unwrap();
            assert_eq!(card_word(card), *c);
            assert_eq!(card, c.parse::<Card>().unwrap());
        }
        assert_eq!(card_of(4, 0), None);
        assert_eq!(card_of(0, 13), None);
        for b in spec::calls::BIDS {
            let spec::calls::Call::Bid { level, strain } = spec::calls::read(b).unwrap() else {
                panic!("{b}");
            };
            let bid = bid_of(level, strain).unwrap();
            assert_eq!(bid_word(bid), b);
            assert_eq!(call_word(Call::Bid(bid)), b);
        }
        assert_eq!(bid_of(8, 0), None);
        assert_eq!(call_word(Call::Pass), "Pass");
        for (i, s) in Seat::ALL.into_iter().enumerate() {
            assert_eq!(seat_of(i), Some(s));
            assert_eq!(seat_letter(s), s.letter().to_string());
        }
        assert_eq!(vulnerability_name(Vulnerability::ALL), "All");
    }
}
