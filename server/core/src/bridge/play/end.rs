//! The end of the play: whether it is complete (PBN0611 when it stops
//! early without `*`, `+` or a final `-`), and the tricks each side will
//! surely still win (top trumps no opponent can beat).

use super::columns::Columns;
use super::tricks::Walk;
use super::{side, CardToken as T, Input, Trick};
use crate::bridge::{Issue, Issues};
use crate::codes::bridge as codes;
use contract_bridge::{Hand, Seat};

/// Whether the play is complete (every trick given, or `*`); reports an
/// incomplete play that does not say so.
pub(super) fn complete(inp: &Input, cols: &Columns, issues: &mut Issues) -> bool {
    let Input { items, total, .. } = *inp;
    let Columns {
        slot,
        terminator,
        plus,
        last_slot_item,
        ..
    } = *cols;
    let filled = slot.min(total * 4);
    let terminated = terminator.is_some();
    let complete = terminated || filled >= total * 4;
    if !complete && plus.is_none() {
        let ends_with_dash = last_slot_item.is_some_and(|i| items[i].token == T::Dash);
        if !ends_with_dash {
            let index = items.len().saturating_sub(1);
            let message = if items.is_empty() {
                "the play section has no cards; end an unfinished play with `*`, or mark the next \
                 card with `+` (§3.6)"
                    .to_string()
            } else {
                format!(
                    "the play stops after {} of {total} tricks without `*` (no further cards) or \
                     `+`/`-` (the next card to be played) (§3.6)",
                    filled / 4
                )
            };
            issues.push(Issue::new(&codes::INCOMPLETE_PLAY, index, message));
        }
    }
    complete
}

/// Sure tricks of each side (0 = NS, 1 = EW): top trumps in one certain
/// hand that no opponent can beat. `unlocated`: the cards neither played
/// nor in a known hand.
pub(super) fn sure_tricks(inp: &Input, tricks: &[Trick], walk: &Walk, unlocated: Hand) -> [u8; 2] {
    let Input { items, trump, .. } = *inp;
    let Walk {
        remaining,
        dashes_played,
        ..
    } = *walk;
    let current_trick_cards: [Hand; 2] = {
        let mut h = [Hand::EMPTY; 2];
        if let Some(tr) = tricks.last() {
            let is_played = tr.cards.iter().all(Option::is_some)
                && tr
                    .cards
                    .iter()
                    .flatten()
                    .all(|&i| matches!(items[i].token, T::Card(_)));
            if !is_played {
                for s in Seat::ALL {
                    if let Some(T::Card(c)) = tr.cards[s as usize].map(|i| items[i].token) {
                        h[side(s)].insert(c);
                    }
                }
            }
        }
        h
    };
    let mut sure_tricks = [0u8; 2];
    if let Some(trump) = trump {
        for (sd, sure) in sure_tricks.iter_mut().enumerate() {
            let mut opponents = current_trick_cards[1 - sd];
            for o in Seat::ALL.into_iter().filter(|&o| side(o) != sd) {
                opponents |= remaining[o as usize].unwrap_or(unlocated);
            }
            let top_opp = opponents[trump].iter().map(|r| r.get()).max().unwrap_or(0);
            for s in Seat::ALL.into_iter().filter(|&s| side(s) == sd) {
                if let (Some(r), 0) = (remaining[s as usize], dashes_played[s as usize]) {
                    let n = r[trump].iter().filter(|rank| rank.get() > top_opp).count() as u8;
                    *sure = (*sure).max(n);
                }
            }
        }
    }
    sure_tricks
}
