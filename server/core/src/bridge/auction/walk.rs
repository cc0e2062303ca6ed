//! The walk over the auction's items: each item's seat (§3.5: every item
//! but `*` takes a turn), what follows `*`, `+` or the end of the auction,
//! `-` before the dealer, the first call and the dealer, and each call's
//! legality and effect on the [`State`].

use super::legality::{LastBid, State};
use super::{token_text, AuctionItem, CallToken as T};
use crate::bridge::{bid_text, rotate, seat_name, Issue, Issues};
use crate::codes::bridge as codes;
use contract_bridge::{Bid, Penalty, Seat};

/// Everything the walk has found so far.
pub(super) struct Walk {
    /// The Dealer tag, and its distance from the Auction tag's seat.
    pub dealer: Option<Seat>,
    pub dealer_offset: Option<usize>,
    /// The Auction tag's seat.
    pub first: Seat,
    pub issues: Issues,
    /// Who made each item so far (`None` for `*`).
    pub seats: Vec<Option<Seat>>,
    /// Turns taken.
    pub slot: usize,
    /// A call (not a leading `-`) has been made.
    pub started: bool,
    /// The dealer, or the first caller when the dealer is unknown.
    pub effective_dealer: Option<Seat>,
    pub state: State,
    /// The item that ended the auction.
    pub end_index: Option<usize>,
    /// The first `*` and the `+`.
    pub terminator: Option<usize>,
    pub plus: Option<usize>,
    /// Every bid with its bidder, in order (for the declarer).
    pub bids: Vec<(Bid, Seat)>,
    /// An unreadable call was met: the state after it is unknown.
    pub uncertain: bool,
}

impl Walk {
    pub(super) fn new(dealer: Option<Seat>, first: Seat, items: usize) -> Walk {
        Walk {
            dealer,
            dealer_offset: dealer.map(|d| crate::bridge::distance(first, d)),
            first,
            issues: Issues::default(),
            seats: Vec::with_capacity(items),
            slot: 0,
            started: false,
            effective_dealer: dealer,
            state: State::default(),
            end_index: None,
            terminator: None,
            plus: None,
            bids: Vec::new(),
            uncertain: false,
        }
    }

    /// Item `i`.
    pub(super) fn step(&mut self, i: usize, item: &AuctionItem) {
        let seat = if item.token == T::Terminator {
            None
        } else {
            let s = rotate(self.first, self.slot);
            self.slot += 1;
            Some(s)
        };
        self.seats.push(seat);

        // Nothing follows `*` or `+`.
        if let Some(marker) = self.terminator.or(self.plus) {
            self.after_marker(i, item, marker);
            return;
        }

        let seat = match (item.token, seat) {
            (T::Terminator, _) => {
                self.terminator = Some(i);
                return;
            }
            (_, Some(seat)) => seat,
            (_, None) => unreachable!("only `*` has no seat"),
        };

        if let Some(end) = self.end_index {
            self.issues.push(
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
            return;
        }

        match item.token {
            T::Continuation => {
                self.plus = Some(i);
                return;
            }
            T::Dash => {
                self.dash(i, seat);
                return;
            }
            _ => {}
        }

        if !self.started {
            self.first_call(i, item, seat);
        }

        if item.token == T::Invalid {
            self.uncertain = true;
        }
        if self.uncertain {
            return;
        }

        self.call(i, item, seat);

        if self.state.ended() {
            self.end_index = Some(i);
        }
    }

    /// A `-` of `seat` (item `i`): it only stands for a player before the
    /// dealer (PBN0502).
    fn dash(&mut self, i: usize, seat: Seat) {
        let before_dealer =
            !self.started && self.dealer_offset.is_none_or(|off| self.slot - 1 < off);
        if !before_dealer {
            let why = match (self.dealer, self.started) {
                (_, true) => "the auction has started".to_string(),
                (Some(d), false) => {
                    format!(
                        "{} is the dealer and must make the first call",
                        seat_name(d)
                    )
                }
                (None, false) => "the auction has started".to_string(),
            };
            self.issues.push(Issue::new(
                &codes::MISPLACED_AUCTION_DASH,
                i,
                format!(
                    "`-` for {}: `-` only stands for players before the dealer (§3.5, \
                     §3.5.1), and {why}",
                    seat_name(seat)
                ),
            ));
        }
    }

    /// Item `i` after `marker` (the first `*` or the `+`): `*` with `+`
    /// (PBN0509), anything else after either (PBN0508).
    fn after_marker(&mut self, i: usize, item: &AuctionItem, marker: usize) {
        let other_marker = matches!(
            (item.token, self.terminator.is_some()),
            (T::Continuation, true) | (T::Terminator, false)
        );
        if other_marker && self.plus.is_some() != self.terminator.is_some() {
            self.issues.push(
                Issue::new(
                    &codes::AUCTION_PLUS_AND_STAR,
                    i,
                    "`*` and `+` in the same auction: when `+` is used, `*` is forbidden (§3.5)",
                )
                .related(Some(marker)),
            );
            if item.token == T::Terminator {
                self.terminator = Some(i);
            } else {
                self.plus = Some(i);
            }
        } else {
            let m = if Some(marker) == self.terminator {
                "*"
            } else {
                "+"
            };
            self.issues.push(
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
    }

    /// The first call (`seat`'s, item `i`): before the dealer's turn it is
    /// PBN0501; with no Dealer tag its seat is the dealer.
    fn first_call(&mut self, i: usize, item: &AuctionItem, seat: Seat) {
        self.started = true;
        match (self.dealer, self.dealer_offset) {
            (Some(d), Some(off)) if self.slot - 1 < off && item.token != T::Invalid => {
                let missing = off - (self.slot - 1);
                self.issues.push(Issue::new(
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
            (None, _) => self.effective_dealer = Some(seat),
            _ => {}
        }
    }

    /// A call of `seat` (item `i`, not `-`, `+`, `*` or unreadable): its
    /// legality (PBN0503 to PBN0506) and its effect on the state.
    fn call(&mut self, i: usize, item: &AuctionItem, seat: Seat) {
        match item.token {
            T::Skip => {}
            T::Pass => {
                self.state.passes += 1;
            }
            T::AllPass => {
                self.state.passes = if self.state.last.is_some() { 3 } else { 4 };
            }
            T::Double => {
                if let Some(problem) = self.state.double_problem(seat) {
                    self.issues.push(
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
                        .related(self.state.last.map(|l| l.index)),
                    );
                } else {
                    self.state.penalty = Some((Penalty::Doubled, seat, i));
                    self.state.passes = 0;
                }
            }
            T::Redouble => {
                if let Some(problem) = self.state.redouble_problem(seat) {
                    self.issues.push(
                        Issue::new(
                            &codes::INADMISSIBLE_REDOUBLE,
                            i,
                            format!(
                                "{} cannot redouble: {problem}; an irregular redouble must be \
                                 taken back (§3.9)",
                                seat_name(seat)
                            ),
                        )
                        .related(
                            self.state
                                .penalty
                                .map(|p| p.2)
                                .or(self.state.last.map(|l| l.index)),
                        ),
                    );
                } else {
                    self.state.penalty = Some((Penalty::Redoubled, seat, i));
                    self.state.passes = 0;
                }
            }
            T::Bid(bid) => {
                let insufficient = self.state.last.is_some_and(|l| bid <= l.bid);
                let related = self.state.last.map(|l| l.index);
                if insufficient && !item.insufficient_marked {
                    let last = self.state.last.map(|l| bid_text(l.bid)).unwrap_or_default();
                    self.issues.push(
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
                    let why = match self.state.last {
                        Some(l) => format!("it is higher than {}", bid_text(l.bid)),
                        None => "it is the first bid".into(),
                    };
                    self.issues.push(
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
                self.state.last = Some(LastBid {
                    bid,
                    seat,
                    index: i,
                });
                self.state.penalty = None;
                self.state.passes = 0;
                self.bids.push((bid, seat));
            }
            T::Dash | T::Continuation | T::Terminator | T::Invalid => unreachable!(),
        }
    }
}
