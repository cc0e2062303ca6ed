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
//!
//! # The parts
//!
//! [`analyze_auction`] walks the items once (`walk.rs`: seats, markers,
//! dealer, each call's legality) over the state the Laws define
//! (`legality.rs`), then sums up (`end.rs`: contract, declarer, completeness,
//! the next call).

mod end;
mod legality;
mod walk;

use super::{bid_text, Issues};
use crate::spec::calls;
use contract_bridge::auction::Call;
use contract_bridge::{Bid, Contract, Seat};

/// A call token of the auction section as read (§3.5.1; annotations
/// stripped, case kept in the source text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallToken {
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
    /// A call token that is not a legal call (`1N`, `P`, …; the model
    /// reads it so, and the analysis's caller may read it as the call it
    /// spells and report it itself). It occupies its turn; since its effect
    /// is unknown, later calls are not judged, no contract is derived and
    /// the auction is not called incomplete.
    Invalid,
}

impl CallToken {
    /// The canonical text of a call (`Pass`, `X`, `XX`, `AP`, `3NT`) from
    /// [`crate::spec::calls`]; for a token that is no call, the canonical
    /// form of what it spells (`P` → `Pass`, `3N` → `3NT`), else `None`.
    /// `written` is the token's text.
    pub fn canonical(self, written: &str) -> Option<&'static str> {
        use crate::spec::calls;
        match self {
            CallToken::Bid(b) => Some(crate::bridge::bid_word(b)),
            CallToken::Pass => Some(calls::PASS),
            CallToken::Double => Some(calls::DOUBLE),
            CallToken::Redouble => Some(calls::REDOUBLE),
            CallToken::AllPass => Some(calls::ALL_PASS),
            CallToken::Invalid => calls::canonical(written),
            _ => None,
        }
    }
}

/// One item of the auction section: a token and whether `^I` preceded it.
/// (A misplaced or repeated `^I` is the caller's PBN0712.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuctionItem {
    pub token: CallToken,
    pub insufficient_marked: bool,
}

impl AuctionItem {
    pub fn new(token: CallToken) -> Self {
        AuctionItem {
            token,
            insufficient_marked: false,
        }
    }

    /// `^I <bid>`.
    pub fn insufficient(bid: Bid) -> Self {
        AuctionItem {
            token: CallToken::Bid(bid),
            insufficient_marked: true,
        }
    }
}

impl From<CallToken> for AuctionItem {
    fn from(token: CallToken) -> Self {
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
    pub issues: Issues,
}

fn token_text(token: CallToken) -> String {
    match token {
        CallToken::Bid(b) => bid_text(b),
        CallToken::Pass => calls::PASS.into(),
        CallToken::Double => calls::DOUBLE.into(),
        CallToken::Redouble => calls::REDOUBLE.into(),
        CallToken::AllPass => calls::ALL_PASS.into(),
        CallToken::Dash => "-".into(),
        CallToken::Skip => "^S".into(),
        CallToken::Continuation => "+".into(),
        CallToken::Terminator => "*".into(),
        CallToken::Invalid => "an unreadable call".into(),
    }
}

/// Analyzes an auction section. `dealer` is the Dealer tag (if known),
/// `first` the seat of the Auction tag, `items` the section's tokens in order.
pub fn analyze_auction(
    dealer: Option<Seat>,
    first: Seat,
    items: &[AuctionItem],
) -> AuctionAnalysis {
    let mut w = walk::Walk::new(dealer, first, items.len());
    for (i, item) in items.iter().enumerate() {
        w.step(i, item);
    }
    end::finish(w, items)
}

#[cfg(test)]
pub(crate) mod tests;
