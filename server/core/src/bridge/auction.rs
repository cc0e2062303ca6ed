//! The auction section (§3.5) with its irregularities (§3.9).
//!
//! `contract_bridge::auction::Auction` enforces the Laws on every call: it
//! rejects an insufficient bid (`IllegalCall::InsufficientBid`) and has no
//! notion of whose turn it is, so it can hold neither an insufficient bid
//! accepted by the opponents (`^I`, §3.9 (A)) nor a call out of rotation
//! (`^S`, §3.9 (B)), both of which PBN records. This module therefore runs
//! its own small state machine over `contract-bridge`'s [`Bid`], [`Call`],
//! [`Contract`] and [`Seat`] types.
//!
//! # How items get their seats
//!
//! Every item except `*` occupies one turn, clockwise from the seat of the
//! Auction tag: calls, `AP` (the turn of the first of the final passers), `-`
//! (a player before the dealer, §3.5), `^S` (the turn of a player skipped by a
//! call out of rotation: "the ^S replaces the skipped player's call", §3.9)
//! and `+` (it replaces the next call, §3.5). So in `1D ^S ^S 2D` with West
//! dealing, South bids 2D — exactly the §3.9 (B) examples. A `^S` is no call:
//! it neither counts as a pass nor resets the passes that end the auction.
//!
//! # Rules
//!
//! - The dealer makes the first call; in import format each seat before the
//!   dealer has a `-` (PBN0501 call in such a seat, PBN0502 `-` at or after
//!   the dealer's turn). When the dealer is unknown the leading `-`s define it.
//! - A bid must be higher than the previous bid (an accepted insufficient bid
//!   is the previous bid for the next one, Law 27A); an insufficient bid needs
//!   `^I` (PBN0503), a sufficient one must not have it (PBN0504). (`^I`
//!   before anything but a bid, or twice, is PBN0712 of `rules/notes.rs`.)
//! - X only of an opponent's undoubled last bid (PBN0505), XX only of an
//!   opponent's double of one's own side's bid (PBN0506). An inadmissible
//!   (re)double is ignored by the state machine (§3.9: it must be taken back).
//! - The auction ends after three passes following a bid or (re)double, four
//!   passes without a bid, or `AP`; a call, `^S`, `-` or `+` after that is
//!   PBN0507. A `*` after the end is redundant and accepted.
//! - `*` and `+` are last (PBN0508) and exclusive (PBN0509); an auction that
//!   stops without ending, `*` or `+` is incomplete (PBN0510, warning).

use super::{bid_text, rotate, same_side, seat_name, Issue};
use crate::codes::bridge as codes;
use contract_bridge::auction::Call;
use contract_bridge::{Bid, Contract, Level, Penalty, Seat, Strain};

/// One auction token, as the model read it (annotations stripped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuctionToken {
    Bid(Bid),
    Pass,
    /// `X`
    Double,
    /// `XX`
    Redouble,
    /// `AP`: all remaining players pass.
    AllPass,
    /// `-`: a player before the dealer.
    Dash,
    /// `^S`: a player skipped by a call out of rotation.
    Skip,
    /// `+`: replaces the next call of an auction to be continued.
    Continuation,
    /// `*`: the auction ends here, incomplete.
    Terminator,
    /// A call token the caller could not read (e.g. `1N`, which it reports
    /// itself). It occupies its turn; since its effect is unknown, later
    /// calls are not judged, no contract is derived and the auction is not
    /// called incomplete.
    Unknown,
}

/// One item of the auction section: a token and whether `^I` preceded it.
/// (A misplaced or repeated `^I` is the caller's PBN0712.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuctionItem {
    pub token: AuctionToken,
    pub insufficient_marked: bool,
}

impl AuctionItem {
    pub fn new(token: AuctionToken) -> Self {
        AuctionItem {
            token,
            insufficient_marked: false,
        }
    }

    /// `^I <bid>`.
    pub fn insufficient(bid: Bid) -> Self {
        AuctionItem {
            token: AuctionToken::Bid(bid),
            insufficient_marked: true,
        }
    }
}

impl From<AuctionToken> for AuctionItem {
    fn from(token: AuctionToken) -> Self {
        AuctionItem::new(token)
    }
}

/// The outcome of a complete auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalContract {
    /// All four players passed.
    PassedOut,
    Contract {
        contract: Contract,
        declarer: Seat,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuctionAnalysis {
    /// Who made each item (`None` for `*`). Same length as the items.
    pub seats: Vec<Option<Seat>>,
    /// The dealer: the given one, or the seat of the first item that is not
    /// a leading `-` when the dealer was unknown.
    pub dealer: Option<Seat>,
    /// The outcome, when the auction is complete (`complete`).
    pub contract: Option<FinalContract>,
    /// The auction ended with its final passes (or `AP`).
    pub complete: bool,
    /// A `*` ends the auction (also when redundant after a complete auction).
    pub ended_by_terminator: bool,
    /// A `+` marks the auction as to be continued.
    pub continued: bool,
    /// Index of the item that ended the auction (last pass or `AP`).
    pub end_index: Option<usize>,
    /// The player on turn when the auction is neither complete nor ended by
    /// `*` (the seat of the `+` if there is one).
    pub next_seat: Option<Seat>,
    /// The legal calls of `next_seat`, for completion: Pass, X/XX when
    /// admissible, then every sufficient bid in increasing order. Empty when
    /// there is no next seat, or when the next item must still be a `-`
    /// before the dealer.
    pub legal_next_calls: Vec<Call>,
    pub issues: Vec<Issue>,
}

/// The last bid, who made it and where.
#[derive(Clone, Copy)]
struct LastBid {
    bid: Bid,
    seat: Seat,
    index: usize,
}

#[derive(Clone, Copy, Default)]
struct State {
    last: Option<LastBid>,
    penalty: Option<(Penalty, Seat, usize)>,
    /// Consecutive passes since the last bid or (re)double; all passes when
    /// nothing was bid.
    passes: u8,
}

impl State {
    fn risk(&self) -> Penalty {
        self.penalty.map_or(Penalty::Undoubled, |p| p.0)
    }

    fn ended(&self) -> bool {
        if self.last.is_some() {
            self.passes >= 3
        } else {
            self.passes >= 4
        }
    }

    /// Why `seat` may not double now, if it may not.
    fn double_problem(&self, seat: Seat) -> Option<String> {
        match self.last {
            None => Some("nothing has been bid yet".into()),
            Some(last) if same_side(last.seat, seat) => Some(format!(
                "the last bid {} was made by {} side ({})",
                bid_text(last.bid),
                if last.seat == seat {
                    "the doubler's own"
                } else {
                    "the doubler's partner's"
                },
                seat_name(last.seat)
            )),
            Some(last) => match self.risk() {
                Penalty::Undoubled => None,
                Penalty::Doubled => Some(format!("{} is already doubled", bid_text(last.bid))),
                Penalty::Redoubled => Some(format!("{} is already redoubled", bid_text(last.bid))),
            },
        }
    }

    /// Why `seat` may not redouble now, if it may not.
    fn redouble_problem(&self, seat: Seat) -> Option<String> {
        match (self.last, self.risk()) {
            (None, _) => Some("nothing has been bid yet".into()),
            (Some(last), Penalty::Undoubled) => {
                Some(format!("{} has not been doubled", bid_text(last.bid)))
            }
            (Some(last), Penalty::Redoubled) => {
                Some(format!("{} is already redoubled", bid_text(last.bid)))
            }
            (Some(last), Penalty::Doubled) if !same_side(last.seat, seat) => Some(format!(
                "the doubled bid {} is the opponents' ({}); only the side whose bid was doubled may redouble",
                bid_text(last.bid),
                seat_name(last.seat)
            )),
            _ => None,
        }
    }

    fn legal_calls(&self, seat: Seat) -> Vec<Call> {
        let mut calls = vec![Call::Pass];
        if self.double_problem(seat).is_none() {
            calls.push(Call::Double);
        }
        if self.redouble_problem(seat).is_none() {
            calls.push(Call::Redouble);
        }
        for level in 1..=7u8 {
            for strain in Strain::ASC {
                let bid = Bid {
                    level: Level::new(level),
                    strain,
                };
                if self.last.is_none_or(|l| bid > l.bid) {
                    calls.push(Call::Bid(bid));
                }
            }
        }
        calls
    }
}

fn token_text(token: AuctionToken) -> String {
    match token {
        AuctionToken::Bid(b) => bid_text(b),
        AuctionToken::Pass => "Pass".into(),
        AuctionToken::Double => "X".into(),
        AuctionToken::Redouble => "XX".into(),
        AuctionToken::AllPass => "AP".into(),
        AuctionToken::Dash => "-".into(),
        AuctionToken::Skip => "^S".into(),
        AuctionToken::Continuation => "+".into(),
        AuctionToken::Terminator => "*".into(),
        AuctionToken::Unknown => "an unreadable call".into(),
    }
}

/// Analyzes an auction section. `dealer` is the Dealer tag (if known),
/// `first` the seat of the Auction tag, `items` the section's tokens in order.
pub fn analyze_auction(
    dealer: Option<Seat>,
    first: Seat,
    items: &[AuctionItem],
) -> AuctionAnalysis {
    use AuctionToken as T;
    let dealer_offset = dealer.map(|d| super::distance(first, d));
    let mut issues = Vec::new();
    let mut seats = Vec::with_capacity(items.len());
    let mut slot = 0usize;
    let mut started = false;
    let mut effective_dealer = dealer;
    let mut state = State::default();
    let mut end_index: Option<usize> = None;
    let mut terminator: Option<usize> = None;
    let mut plus: Option<usize> = None;
    let mut bids: Vec<(Bid, Seat)> = Vec::new();
    let mut uncertain = false;

    for (i, item) in items.iter().enumerate() {
        let seat = if item.token == T::Terminator {
            None
        } else {
            let s = rotate(first, slot);
            slot += 1;
            Some(s)
        };
        seats.push(seat);

        // Nothing follows `*` or `+`.
        if let Some(marker) = terminator.or(plus) {
            let other_marker = matches!(
                (item.token, terminator.is_some()),
                (T::Continuation, true) | (T::Terminator, false)
            );
            if other_marker && plus.is_some() != terminator.is_some() {
                issues.push(
                    Issue::new(
                        &codes::AUCTION_PLUS_AND_STAR,
                        i,
                        "`*` and `+` in the same auction: when `+` is used, `*` is forbidden (§3.5)",
                    )
                    .related(Some(marker)),
                );
                if item.token == T::Terminator {
                    terminator = Some(i);
                } else {
                    plus = Some(i);
                }
            } else {
                let m = if Some(marker) == terminator { "*" } else { "+" };
                issues.push(
                    Issue::new(
                        &codes::CALL_AFTER_AUCTION_MARKER,
                        i,
                        format!(
                            "`{}` after `{m}`: `{m}` is the last token of the auction (§3.5)",
                            token_text(item.token)
                        ),
                    )
                    .related(Some(marker)),
                );
            }
            continue;
        }

        let seat = match (item.token, seat) {
            (T::Terminator, _) => {
                terminator = Some(i);
                continue;
            }
            (_, Some(seat)) => seat,
            (_, None) => unreachable!("only `*` has no seat"),
        };

        if let Some(end) = end_index {
            issues.push(
                Issue::new(
                    &codes::CALL_AFTER_AUCTION_END,
                    i,
                    format!(
                        "`{}` after the end of the auction (three passes after a bid, four passes, \
                         or `AP`, §3.5)",
                        token_text(item.token)
                    ),
                )
                .related(Some(end)),
            );
            continue;
        }

        match item.token {
            T::Continuation => {
                plus = Some(i);
                continue;
            }
            T::Dash => {
                let before_dealer = !started && dealer_offset.is_none_or(|off| slot - 1 < off);
                if !before_dealer {
                    let why = match (dealer, started) {
                        (_, true) => "the auction has started".to_string(),
                        (Some(d), false) => {
                            format!(
                                "{} is the dealer and must make the first call",
                                seat_name(d)
                            )
                        }
                        (None, false) => "the auction has started".to_string(),
                    };
                    issues.push(Issue::new(
                        &codes::MISPLACED_AUCTION_DASH,
                        i,
                        format!(
                            "`-` for {}: `-` only stands for players before the dealer (§3.5, \
                             §3.5.1), and {why}",
                            seat_name(seat)
                        ),
                    ));
                }
                continue;
            }
            _ => {}
        }

        if !started {
            started = true;
            match (dealer, dealer_offset) {
                (Some(d), Some(off)) if slot - 1 < off && item.token != T::Unknown => {
                    let missing = off - (slot - 1);
                    issues.push(Issue::new(
                        &codes::CALL_BEFORE_DEALER,
                        i,
                        format!(
                            "the first call is {}'s, but {} is the dealer and calls first (§3.5); \
                             write `-` for each player before the dealer ({missing} more here), \
                             or start the Auction tag at the dealer",
                            seat_name(seat),
                            seat_name(d)
                        ),
                    ));
                }
                (None, _) => effective_dealer = Some(seat),
                _ => {}
            }
        }

        if item.token == T::Unknown {
            uncertain = true;
        }
        if uncertain {
            continue;
        }

        match item.token {
            T::Skip => {}
            T::Pass => {
                state.passes += 1;
            }
            T::AllPass => {
                state.passes = if state.last.is_some() { 3 } else { 4 };
            }
            T::Double => {
                if let Some(problem) = state.double_problem(seat) {
                    issues.push(
                        Issue::new(
                            &codes::INADMISSIBLE_DOUBLE,
                            i,
                            format!(
                                "{} cannot double: {problem}; a double is only of an opponent's \
                                 undoubled last bid, and an irregular double must be taken back \
                                 (§3.9)",
                                seat_name(seat)
                            ),
                        )
                        .related(state.last.map(|l| l.index)),
                    );
                } else {
                    state.penalty = Some((Penalty::Doubled, seat, i));
                    state.passes = 0;
                }
            }
            T::Redouble => {
                if let Some(problem) = state.redouble_problem(seat) {
                    issues.push(
                        Issue::new(
                            &codes::INADMISSIBLE_REDOUBLE,
                            i,
                            format!(
                                "{} cannot redouble: {problem}; an irregular redouble must be \
                                 taken back (§3.9)",
                                seat_name(seat)
                            ),
                        )
                        .related(state.penalty.map(|p| p.2).or(state.last.map(|l| l.index))),
                    );
                } else {
                    state.penalty = Some((Penalty::Redoubled, seat, i));
                    state.passes = 0;
                }
            }
            T::Bid(bid) => {
                let insufficient = state.last.is_some_and(|l| bid <= l.bid);
                let related = state.last.map(|l| l.index);
                if insufficient && !item.insufficient_marked {
                    let last = state.last.map(|l| bid_text(l.bid)).unwrap_or_default();
                    issues.push(
                        Issue::new(
                            &codes::UNMARKED_INSUFFICIENT_BID,
                            i,
                            format!(
                                "{} is not higher than {last}: an insufficient bid accepted by \
                                 the opponents is written `^I {}` (§3.9 (A))",
                                bid_text(bid),
                                bid_text(bid)
                            ),
                        )
                        .related(related),
                    );
                } else if !insufficient && item.insufficient_marked {
                    let why = match state.last {
                        Some(l) => format!("it is higher than {}", bid_text(l.bid)),
                        None => "it is the first bid".into(),
                    };
                    issues.push(
                        Issue::new(
                            &codes::SUFFICIENT_BID_MARKED,
                            i,
                            format!(
                                "`^I` marks an insufficient bid (§3.9 (A)), but {} is sufficient: {why}",
                                bid_text(bid)
                            ),
                        )
                        .related(related),
                    );
                }
                state.last = Some(LastBid {
                    bid,
                    seat,
                    index: i,
                });
                state.penalty = None;
                state.passes = 0;
                bids.push((bid, seat));
            }
            T::Dash | T::Continuation | T::Terminator | T::Unknown => unreachable!(),
        }

        if state.ended() {
            end_index = Some(i);
        }
    }

    let complete = end_index.is_some();
    let contract = complete.then(|| match state.last {
        None => FinalContract::PassedOut,
        Some(last) => {
            let declarer = bids
                .iter()
                .find(|(b, s)| b.strain == last.bid.strain && same_side(*s, last.seat))
                .map_or(last.seat, |(_, s)| *s);
            FinalContract::Contract {
                contract: Contract {
                    bid: last.bid,
                    penalty: state.risk(),
                },
                declarer,
            }
        }
    });

    if !complete && !uncertain && terminator.is_none() && plus.is_none() {
        let index = items.len().saturating_sub(1);
        let message = if items.is_empty() {
            "the auction section has no calls; end an unfinished auction with `*` or `+` (§3.5)"
                .to_string()
        } else {
            "the auction stops before its final passes without `*` (no further calls) or `+` \
             (to be continued) (§3.5)"
                .to_string()
        };
        issues.push(Issue::new(&codes::INCOMPLETE_AUCTION, index, message));
    }

    let (next_seat, legal_next_calls) = if complete || terminator.is_some() {
        (None, Vec::new())
    } else if let Some(p) = plus {
        let seat = seats[p];
        let calls = seat.filter(|_| !uncertain).map(|s| state.legal_calls(s));
        (seat, calls.unwrap_or_default())
    } else {
        let seat = rotate(first, slot);
        let before_dealer = !started && dealer_offset.is_some_and(|off| slot < off);
        if before_dealer || uncertain {
            (Some(seat), Vec::new())
        } else {
            (Some(seat), state.legal_calls(seat))
        }
    };

    AuctionAnalysis {
        seats,
        dealer: effective_dealer,
        contract,
        complete,
        ended_by_terminator: terminator.is_some(),
        continued: plus.is_some(),
        end_index,
        next_seat,
        legal_next_calls,
        issues,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::codes::bridge as c;
    use Seat::*;

    /// Parses a test auction: calls, `^I`, `^S`, `-`, `AP`, `+`, `*`.
    pub(crate) fn items(text: &str) -> Vec<AuctionItem> {
        let mut out = Vec::new();
        let mut marked = false;
        for tok in text.split_whitespace() {
            let token = match tok.to_ascii_uppercase().as_str() {
                "^I" => {
                    marked = true;
                    continue;
                }
                "^S" => AuctionToken::Skip,
                "-" => AuctionToken::Dash,
                "PASS" => AuctionToken::Pass,
                "X" => AuctionToken::Double,
                "XX" => AuctionToken::Redouble,
                "AP" => AuctionToken::AllPass,
                "+" => AuctionToken::Continuation,
                "*" => AuctionToken::Terminator,
                "?" => AuctionToken::Unknown,
                bid => AuctionToken::Bid(bid.parse().unwrap_or_else(|_| panic!("bad bid {bid}"))),
            };
            out.push(AuctionItem {
                token,
                insufficient_marked: marked,
            });
            marked = false;
        }
        out
    }

    pub(crate) fn run(dealer: Seat, first: Seat, text: &str) -> AuctionAnalysis {
        analyze_auction(Some(dealer), first, &items(text))
    }

    pub(crate) fn codes_of(a: &AuctionAnalysis) -> Vec<&'static str> {
        a.issues.iter().map(|i| i.code.code).collect()
    }

    fn contract(a: &AuctionAnalysis) -> Option<(String, Seat)> {
        match a.contract? {
            FinalContract::PassedOut => Some(("Pass".into(), North)),
            FinalContract::Contract { contract, declarer } => {
                Some((super::super::contract_text(contract), declarer))
            }
        }
    }

    #[track_caller]
    fn only(a: &AuctionAnalysis, code: &str) -> usize {
        assert_eq!(codes_of(a), vec![code], "{:#?}", a.issues);
        a.issues[0].index
    }

    #[track_caller]
    fn clean(a: &AuctionAnalysis) {
        assert!(a.issues.is_empty(), "{:#?}", a.issues);
    }

    #[test]
    fn spec_example_1_2() {
        let a = run(
            North,
            North,
            "1D 1S 3H 4S 4NT X Pass Pass 5C X 5H X Pass Pass Pass",
        );
        clean(&a);
        assert!(a.complete);
        assert_eq!(contract(&a), Some(("5HX".into(), South)));
        assert_eq!(a.seats[2], Some(South));
        assert_eq!(a.next_seat, None);
        assert!(a.legal_next_calls.is_empty());
    }

    #[test]
    fn dealer_padding() {
        // PBN0501: a call in the column of a player before the dealer.
        let a = run(North, West, "1D Pass Pass Pass");
        assert_eq!(only(&a, c::CALL_BEFORE_DEALER.code), 0);
        assert!(a.issues[0].message.contains("North is the dealer"));
        let a = run(North, West, "- 1D Pass Pass Pass");
        clean(&a);
        assert_eq!(a.seats[1], Some(North));
        assert_eq!(contract(&a), Some(("1D".into(), North)));
        // Three dashes before South... here West deals, Auction N: N E S before W.
        clean(&run(West, North, "- - - 1C AP"));
        let a = run(West, North, "- - 1C AP");
        assert_eq!(only(&a, c::CALL_BEFORE_DEALER.code), 2);
        // ^S in a seat before the dealer is a call there too.
        let a = run(North, West, "^S 1D AP");
        assert_eq!(only(&a, c::CALL_BEFORE_DEALER.code), 0);
    }

    #[test]
    fn misplaced_dash() {
        let a = run(North, West, "- - 1D Pass Pass Pass");
        assert_eq!(only(&a, c::MISPLACED_AUCTION_DASH.code), 1);
        let a = run(North, North, "1D - Pass Pass Pass");
        assert_eq!(only(&a, c::MISPLACED_AUCTION_DASH.code), 1);
        clean(&run(North, North, "1D Pass Pass Pass"));
        // Unknown dealer: leading dashes define it.
        let a = analyze_auction(None, West, &items("- - 1D AP"));
        clean(&a);
        assert_eq!(a.dealer, Some(East));
        let a = analyze_auction(None, West, &items("1D - AP"));
        assert_eq!(only(&a, c::MISPLACED_AUCTION_DASH.code), 1);
    }

    #[test]
    fn insufficient_bids() {
        let a = run(North, North, "1D 1C Pass Pass Pass");
        assert_eq!(only(&a, c::UNMARKED_INSUFFICIENT_BID.code), 1);
        assert_eq!(a.issues[0].related, Some(0));
        // The same bid again is insufficient too.
        let a = run(North, North, "1D 1D AP");
        assert_eq!(only(&a, c::UNMARKED_INSUFFICIENT_BID.code), 1);
        let a = run(North, North, "1D ^I 1C Pass Pass Pass");
        clean(&a);
        // The accepted 1C is the last bid: declarer East in clubs.
        assert_eq!(contract(&a), Some(("1C".into(), East)));
        // After an accepted insufficient bid, the next bid is measured against it.
        clean(&run(North, North, "1D ^I 1C 1D AP"));
        let a = run(North, North, "1D ^I 1C ^I 1D AP");
        assert_eq!(only(&a, c::SUFFICIENT_BID_MARKED.code), 2);
    }

    #[test]
    fn sufficient_bid_marked() {
        let a = run(North, North, "1D ^I 1S Pass Pass Pass");
        assert_eq!(only(&a, c::SUFFICIENT_BID_MARKED.code), 1);
        assert_eq!(a.issues[0].related, Some(0));
        let a = run(North, North, "^I 1C AP");
        assert_eq!(only(&a, c::SUFFICIENT_BID_MARKED.code), 0);
        assert!(a.issues[0].message.contains("first bid"));
        clean(&run(North, North, "1D 1S AP"));
    }

    #[test]
    fn insufficient_mark_on_a_non_bid_is_the_callers() {
        // `^I` before Pass/X/XX/AP is PBN0712 (rules/notes.rs); the state
        // machine ignores the mark there.
        clean(&run(North, North, "1D ^I Pass Pass Pass"));
        clean(&run(North, North, "1D ^I X AP"));
    }

    #[test]
    fn doubles() {
        // Partner's bid.
        let a = run(North, North, "1D Pass X Pass *");
        assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 2);
        assert!(a.issues[0].message.contains("partner"));
        // Own bid, already doubled, nothing bid.
        let a = run(North, North, "Pass X *");
        assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 1);
        let a = run(North, North, "1D X Pass X *");
        assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 3);
        let a = run(North, North, "1D X XX X *");
        assert_eq!(only(&a, c::INADMISSIBLE_DOUBLE.code), 3);
        // Admissible: an opponent's bid, also after passes.
        clean(&run(North, North, "1D Pass Pass X *"));
        let a = run(North, North, "1D X AP");
        clean(&a);
        assert_eq!(contract(&a), Some(("1DX".into(), North)));
    }

    #[test]
    fn redoubles() {
        let a = run(North, West, "- 1D X Pass XX *");
        assert_eq!(only(&a, c::INADMISSIBLE_REDOUBLE.code), 4);
        assert_eq!(a.issues[0].related, Some(2));
        let a = run(North, North, "1D XX *");
        assert_eq!(only(&a, c::INADMISSIBLE_REDOUBLE.code), 1);
        let a = run(North, North, "1D X XX XX *");
        assert_eq!(only(&a, c::INADMISSIBLE_REDOUBLE.code), 3);
        let a = run(North, West, "- 1D X Pass Pass XX AP");
        clean(&a);
        assert_eq!(contract(&a), Some(("1DXX".into(), North)));
        clean(&run(North, West, "- 1D X XX *"));
    }

    #[test]
    fn end_of_auction() {
        let a = run(North, North, "1C Pass Pass Pass Pass");
        assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 4);
        assert_eq!(a.issues[0].related, Some(3));
        let a = run(North, North, "Pass Pass Pass Pass 1C");
        assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 4);
        let a = run(North, North, "1C AP Pass");
        assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 2);
        let a = run(North, North, "1C AP +");
        assert_eq!(only(&a, c::CALL_AFTER_AUCTION_END.code), 2);
        // Passed out.
        let a = run(South, South, "AP");
        clean(&a);
        assert_eq!(a.contract, Some(FinalContract::PassedOut));
        let a = run(South, South, "Pass Pass Pass Pass");
        assert_eq!(a.contract, Some(FinalContract::PassedOut));
        // Three passes after the opening pass do not end it.
        let a = run(South, South, "Pass Pass Pass 1C AP");
        clean(&a);
        assert_eq!(contract(&a), Some(("1C".into(), East)));
        // A redundant `*` after the end is accepted.
        clean(&run(North, North, "1C AP *"));
    }

    #[test]
    fn markers() {
        let a = run(North, North, "1C * Pass");
        assert_eq!(only(&a, c::CALL_AFTER_AUCTION_MARKER.code), 2);
        assert_eq!(a.issues[0].related, Some(1));
        let a = run(North, North, "1C + Pass");
        assert_eq!(only(&a, c::CALL_AFTER_AUCTION_MARKER.code), 2);
        let a = run(North, North, "1C Pass + *");
        assert_eq!(only(&a, c::AUCTION_PLUS_AND_STAR.code), 3);
        let a = run(North, North, "1C Pass * +");
        assert_eq!(only(&a, c::AUCTION_PLUS_AND_STAR.code), 3);
        let a = run(North, North, "1C Pass +");
        clean(&a);
        assert!(a.continued && !a.complete && a.contract.is_none());
        assert_eq!(a.next_seat, Some(South));
        assert_eq!(a.seats[2], Some(South));
        let a = run(North, North, "1C Pass *");
        clean(&a);
        assert!(a.ended_by_terminator && !a.complete && a.next_seat.is_none());
    }

    #[test]
    fn incomplete() {
        let a = run(North, North, "1C Pass Pass");
        assert_eq!(only(&a, c::INCOMPLETE_AUCTION.code), 2);
        assert_eq!(
            a.issues[0].code.severity,
            crate::diagnostic::Severity::Warning
        );
        let a = run(North, North, "");
        assert_eq!(only(&a, c::INCOMPLETE_AUCTION.code), 0);
        let a = run(North, West, "-");
        assert_eq!(only(&a, c::INCOMPLETE_AUCTION.code), 0);
        clean(&run(North, North, "1C AP"));
    }

    #[test]
    fn skips_follow_section_3_9_b() {
        // West is dealer in all §3.9 (B) examples.
        let a = run(West, West, "^S 1D AP");
        clean(&a);
        assert_eq!(contract(&a), Some(("1D".into(), North)));
        let a = run(West, West, "1D ^S 2D AP");
        clean(&a);
        assert_eq!(contract(&a), Some(("2D".into(), West)));
        let a = run(West, West, "1D ^S ^I 1C AP");
        clean(&a);
        assert_eq!(contract(&a), Some(("1C".into(), East)));
        let a = run(West, West, "1D ^S ^S 2D AP");
        clean(&a);
        // West opened 1D, but South's side bid diamonds first for NS.
        assert_eq!(contract(&a), Some(("2D".into(), South)));
        assert_eq!(a.seats[3], Some(South));
        let a = run(West, West, "1D ^S ^S ^I 1C AP");
        clean(&a);
        assert_eq!(contract(&a), Some(("1C".into(), South)));
        // ^S does not count as a pass.
        let a = run(West, West, "1D Pass ^S Pass");
        assert!(!a.complete);
        let a = run(West, West, "1D Pass ^S Pass Pass");
        clean(&a);
        assert!(a.complete);
    }

    #[test]
    fn unknown_calls() {
        let mut it = items("1C ^I Pass 1S X Pass");
        it[1].token = AuctionToken::Unknown;
        let a = analyze_auction(Some(North), North, &it);
        clean(&a);
        assert!(!a.complete && a.contract.is_none());
        assert_eq!(a.seats[4], Some(North));
        assert_eq!(a.next_seat, Some(East));
        assert!(a.legal_next_calls.is_empty());
        // Markers are still checked, and the calls before it.
        let mut it = items("1C 1C Pass * Pass");
        it[2].token = AuctionToken::Unknown;
        let a = analyze_auction(Some(North), North, &it);
        assert_eq!(
            codes_of(&a),
            [
                c::UNMARKED_INSUFFICIENT_BID.code,
                c::CALL_AFTER_AUCTION_MARKER.code
            ]
        );
    }

    #[test]
    fn legal_next_calls() {
        let a = run(North, North, "1NT Pass");
        assert_eq!(a.next_seat, Some(South));
        let calls = &a.legal_next_calls;
        assert_eq!(calls[0], Call::Pass);
        assert!(!calls.contains(&Call::Double), "partner's bid");
        assert_eq!(calls[1], Call::Bid("2C".parse().unwrap()));
        assert_eq!(calls.len(), 1 + 6 * 5);
        let a = run(North, North, "1NT");
        assert_eq!(a.legal_next_calls[1], Call::Double);
        let a = run(North, North, "1NT X");
        assert_eq!(a.legal_next_calls[1], Call::Redouble);
        let a = run(North, North, "7NT X XX");
        assert_eq!(a.legal_next_calls, vec![Call::Pass]);
        let a = run(North, North, "");
        assert_eq!(a.next_seat, Some(North));
        assert_eq!(a.legal_next_calls.len(), 1 + 35);
        // The next item must be a `-`.
        let a = run(North, West, "");
        assert_eq!(a.next_seat, Some(West));
        assert!(a.legal_next_calls.is_empty());
    }
}
