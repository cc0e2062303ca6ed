//! The end of the walk: the final contract and its declarer (the first of
//! the declaring side to bid the strain), an auction that stops without
//! `*` or `+` (PBN0510), and the player on turn with his legal calls.

use super::walk::Walk;
use super::{AuctionAnalysis, AuctionItem, FinalContract};
use crate::bridge::{rotate, same_side, Issue};
use crate::codes::bridge as codes;
use contract_bridge::Contract;

/// The analysis of `items` once `w` has walked them all.
pub(super) fn finish(mut w: Walk, items: &[AuctionItem]) -> AuctionAnalysis {
    let complete = w.end_index.is_some();
    let contract = complete.then(|| match w.state.last {
        None => FinalContract::PassedOut,
        Some(last) => {
            let declarer = w
                .bids
                .iter()
                .find(|(b, s)| b.strain == last.bid.strain && same_side(*s, last.seat))
                .map_or(last.seat, |(_, s)| *s);
            FinalContract::Contract {
                contract: Contract {
                    bid: last.bid,
                    penalty: w.state.risk(),
                },
                declarer,
            }
        }
    });

    if !complete && !w.uncertain && w.terminator.is_none() && w.plus.is_none() {
        let index = items.len().saturating_sub(1);
        let message = if items.is_empty() {
            "the auction section has no calls; end an unfinished auction with `*` or `+` (§3.5)"
                .to_string()
        } else {
            "the auction stops before its final passes without `*` (no further calls) or `+` \
             (to be continued) (§3.5)"
                .to_string()
        };
        w.issues
            .push(Issue::new(&codes::INCOMPLETE_AUCTION, index, message));
    }

    let (next_seat, legal_next_calls) = if complete || w.terminator.is_some() {
        (None, Vec::new())
    } else if let Some(p) = w.plus {
        let seat = w.seats[p];
        let calls = seat
            .filter(|_| !w.uncertain)
            .map(|s| w.state.legal_calls(s));
        (seat, calls.unwrap_or_default())
    } else {
        let seat = rotate(w.first, w.slot);
        let before_dealer = !w.started && w.dealer_offset.is_some_and(|off| w.slot < off);
        if before_dealer || w.uncertain {
            (Some(seat), Vec::new())
        } else {
            (Some(seat), w.state.legal_calls(seat))
        }
    };

    AuctionAnalysis {
        seats: w.seats,
        dealer: w.effective_dealer,
        contract,
        complete,
        ended_by_terminator: w.terminator.is_some(),
        continued: w.plus.is_some(),
        end_index: w.end_index,
        next_seat,
        legal_next_calls,
        issues: w.issues,
    }
}
