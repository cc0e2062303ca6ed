//! Who plays next in an unfinished play, and which cards he may play
//! (following suit when he can).

use super::{CardToken as T, Input, Trick};
use crate::bridge::rotate;
use contract_bridge::{Card, Hand, Seat};

/// The player on turn (the seat of the `+` if there is one; `None` when
/// unknown) and his legal cards. `remaining`: the known hands' cards;
/// `unlocated`: the cards neither played nor in a known hand (an unknown
/// hand's pool).
pub(super) fn next_card(
    inp: &Input,
    tricks: &[Trick],
    seats: &[Option<Seat>],
    plus: Option<usize>,
    opening_leader: Option<Seat>,
    remaining: &[Option<Hand>; 4],
    unlocated: Hand,
) -> (Option<Seat>, Vec<Card>) {
    let items = inp.items;
    let on_turn = |t: usize| -> (Option<Seat>, Option<Card>) {
        let tr = &tricks[t];
        let Some(l) = tr.leader else {
            return (None, None);
        };
        let lead = match tr.cards[l as usize].map(|i| items[i].token) {
            Some(T::Card(c)) => Some(c),
            _ => None,
        };
        for k in 0..4 {
            let s = rotate(l, k);
            match tr.cards[s as usize].map(|i| items[i].token) {
                None | Some(T::Dash) | Some(T::Continuation) => {
                    return (Some(s), if k == 0 { None } else { lead })
                }
                _ => {}
            }
        }
        (None, None)
    };
    let (seat, lead) = if let Some(p) = plus {
        let t = tricks
            .iter()
            .position(|tr| tr.cards.contains(&Some(p)))
            .expect("plus in a trick");
        let tr = &tricks[t];
        let s = seats[p];
        let lead = tr.leader.filter(|&l| Some(l) != s).and_then(|l| {
            match tr.cards[l as usize].map(|i| items[i].token) {
                Some(T::Card(c)) => Some(c),
                _ => None,
            }
        });
        (s, lead)
    } else if tricks.is_empty() {
        (opening_leader, None)
    } else {
        match on_turn(tricks.len() - 1) {
            (Some(s), lead) => (Some(s), lead),
            (None, _) => (tricks.last().and_then(|tr| tr.winner), None),
        }
    };
    let legal = seat.map_or_else(Vec::new, |s| legal_cards(s, lead, remaining, unlocated));
    (seat, legal)
}

/// The cards `seat` may play after `lead` (following suit when his known
/// hand can), from his remaining hand or, unknown, the unlocated cards.
fn legal_cards(
    seat: Seat,
    lead: Option<Card>,
    remaining: &[Option<Hand>; 4],
    unlocated: Hand,
) -> Vec<Card> {
    let known = remaining[seat as usize];
    let pool = known.unwrap_or(unlocated);
    let follow = known.is_some() && lead.is_some_and(|l| !pool[l.suit].is_empty());
    pool.iter()
        .filter(|c| !follow || Some(c.suit) == lead.map(|l| l.suit))
        .collect()
}

/// The seat of the next column (`slot` columns taken, §3.6) and the cards
/// it may hold: the lead is followed when the trick's leader has a card
/// in an earlier column of the same trick.
pub(super) fn column_card(
    inp: &Input,
    tricks: &[Trick],
    slot: usize,
    remaining: &[Option<Hand>; 4],
    unlocated: Hand,
) -> (Option<Seat>, Vec<Card>) {
    if slot / 4 >= inp.total {
        return (None, Vec::new());
    }
    let seat = rotate(inp.first, slot);
    let lead = tricks
        .get(slot / 4)
        .and_then(|tr| Some((tr, tr.leader.filter(|&l| l != seat)?)))
        .and_then(
            |(tr, l)| match tr.cards[l as usize].map(|i| inp.items[i].token) {
                Some(T::Card(c)) => Some(c),
                _ => None,
            },
        );
    (Some(seat), legal_cards(seat, lead, remaining, unlocated))
}
