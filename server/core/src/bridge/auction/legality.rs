//! The state of the auction under the Laws: the last bid, its double or
//! redouble, the passes since; whether the auction has ended, who may
//! double or redouble, and the legal calls.

use crate::bridge::{bid_text, same_side, seat_name};
use contract_bridge::auction::Call;
use contract_bridge::{Bid, Level, Penalty, Seat, Strain};

#[derive(Clone, Copy)]
pub(super) struct LastBid {
    pub bid: Bid,
    pub seat: Seat,
    pub index: usize,
}

#[derive(Clone, Copy, Default)]
pub(super) struct State {
    pub last: Option<LastBid>,
    pub penalty: Option<(Penalty, Seat, usize)>,
    /// Consecutive passes since the last bid or (re)double; all passes when
    /// nothing was bid.
    pub passes: u8,
}

impl State {
    pub fn risk(&self) -> Penalty {
        self.penalty.map_or(Penalty::Undoubled, |p| p.0)
    }

    pub fn ended(&self) -> bool {
        if self.last.is_some() {
            self.passes >= 3
        } else {
            self.passes >= 4
        }
    }

    /// Why `seat` may not double now, if it may not.
    pub fn double_problem(&self, seat: Seat) -> Option<String> {
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
    pub fn redouble_problem(&self, seat: Seat) -> Option<String> {
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

    pub fn legal_calls(&self, seat: Seat) -> Vec<Call> {
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
