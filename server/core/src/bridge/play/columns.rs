//! Pass 1 of the play analysis: the column layout (§3.6). Each item but
//! `*` takes the next column, in seat order from the Play tag's seat; four
//! columns make a trick. Finds what follows `*`, the end of the play or a
//! `+`, and `*` with `+`.

use super::{token_text, CardToken as T, Input, Trick};
use crate::bridge::{rotate, seat_name, Issue, Issues};
use crate::codes::bridge as codes;
use contract_bridge::Seat;

/// Where the items stand.
pub(super) struct Columns {
    /// Seat of each item (`None` for `*`).
    pub seats: Vec<Option<Seat>>,
    /// The tricks with their items; leaders and winners not known yet.
    pub tricks: Vec<Trick>,
    /// Columns taken (including items after the end of the play).
    pub slot: usize,
    /// The first `*`.
    pub terminator: Option<usize>,
    /// The `+`.
    pub plus: Option<usize>,
    /// The last item recorded in a trick.
    pub last_slot_item: Option<usize>,
}

/// Lays the items out in columns and tricks, reporting items that have no
/// place (after `*`, after the last trick, a second `+`).
pub(super) fn lay_out(inp: &Input, issues: &mut Issues) -> Columns {
    let Input {
        items,
        first,
        total,
        end_position,
        ..
    } = *inp;
    let mut seats = vec![None; items.len()];
    let mut tricks: Vec<Trick> = Vec::new();
    let mut slot = 0usize;
    let mut terminator: Option<usize> = None;
    let mut plus: Option<usize> = None;
    let mut last_slot_item: Option<usize> = None;
    for (i, item) in items.iter().enumerate() {
        if item.token == T::Terminator {
            if let Some(t) = terminator {
                issues.push(
                    Issue::new(
                        &codes::CARD_AFTER_PLAY_MARKER,
                        i,
                        "`*` after `*`: nothing follows the end of the play (§3.6)",
                    )
                    .related(Some(t)),
                );
                continue;
            }
            if let Some(p) = plus {
                issues.push(
                    Issue::new(
                        &codes::PLAY_PLUS_AND_STAR,
                        i,
                        "`*` (no further cards) and `+` (to be continued) in the same play (§3.6)",
                    )
                    .related(Some(p)),
                );
            }
            terminator = Some(i);
            continue;
        }
        let seat = rotate(first, slot);
        seats[i] = Some(seat);
        let t = slot / 4;
        slot += 1;
        if let Some(term) = terminator {
            let message = if item.token == T::Continuation {
                "`+` (to be continued) after `*` (no further cards) (§3.6)".to_string()
            } else {
                format!(
                    "`{}` after `*`: `*` means no further cards will or can be given (§3.6)",
                    token_text(item.token)
                )
            };
            let code = if item.token == T::Continuation {
                &codes::PLAY_PLUS_AND_STAR
            } else {
                &codes::CARD_AFTER_PLAY_MARKER
            };
            issues.push(Issue::new(code, i, message).related(Some(term)));
            continue;
        }
        if t >= total {
            let limit = if end_position {
                format!("the hands of this end position have {total} cards (§3.10)")
            } else {
                "the play ends after 13 tricks (§3.6)".to_string()
            };
            issues.push(Issue::new(
                &codes::CARD_AFTER_END_OF_PLAY,
                i,
                format!(
                    "`{}` for {} after the last trick: {limit}",
                    token_text(item.token),
                    seat_name(seat)
                ),
            ));
            continue;
        }
        if item.token == T::Continuation {
            if let Some(p) = plus {
                issues.push(
                    Issue::new(
                        &codes::CARD_AFTER_PLAY_MARKER,
                        i,
                        "a second `+`: `+` marks the one next card to be played (§3.6)",
                    )
                    .related(Some(p)),
                );
                continue;
            }
            plus = Some(i);
        }
        // `while`, not `if`: a skipped item (a second `+`) still takes its
        // column, so a whole trick can pass without a recorded card.
        while tricks.len() <= t {
            tricks.push(Trick {
                leader: None,
                cards: [None; 4],
                winner: None,
                complete: false,
            });
        }
        tricks[t].cards[seat as usize] = Some(i);
        last_slot_item = Some(i);
    }
    Columns {
        seats,
        tricks,
        slot,
        terminator,
        plus,
        last_slot_item,
    }
}
