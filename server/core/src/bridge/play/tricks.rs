//! Pass 2 of the play analysis: the tricks in order, each with its leader
//! (the previous winner, or a `^L` card; PBN0601, PBN0606, PBN0607), its
//! cards in playing order (in hand, played once, following suit: PBN0602
//! to PBN0605, and cards after the `+`, PBN0609) and its winner.

use super::{side, trick_winner, CardToken as T, Input, PlayItem, Trick};
use crate::bridge::suit_name;
use crate::bridge::{card_text, rotate, seat_name, Issue, Issues};
use crate::codes::bridge as codes;
use contract_bridge::{Card, Hand, Seat};

/// What the walk over the tricks keeps track of.
pub(super) struct Walk {
    /// The cards each known hand still holds.
    pub remaining: [Option<Hand>; 4],
    /// Every known card played.
    pub played: Hand,
    /// The known cards played, with their items (a card played twice).
    played_at: Vec<(Card, usize)>,
    /// The unknown cards (`-` of a played trick, unreadable cards) each seat
    /// played: its hand's remaining cards may include fewer than shown.
    pub dashes_played: [u8; 4],
    /// The walk has passed the `+` card.
    plus_seen: bool,
    /// Played tricks won by each side (0 = NS, 1 = EW).
    pub won: [u8; 2],
    /// Played tricks whose winner is unknown.
    pub unknown: u8,
    /// Who should lead the first trick.
    pub opening_leader: Option<Seat>,
    /// The Play tag does not name the opening leader and no `^L` says who
    /// led: the first trick can be read both ways.
    pub ambiguous_opening_lead: bool,
}

/// One trick as the walk sees it.
struct TrickView {
    cards: [Option<usize>; 4],
    leader: Option<Seat>,
    /// The leader's card, when known.
    lead_card: Option<Card>,
    /// The trick is played (its `-` are unknown played cards), not the
    /// current one (whose `-` are cards not played yet).
    played_trick: bool,
}

/// Walks the tricks laid out by pass 1, setting their leaders, winners and
/// completeness. `trust_tag`: when the Play tag does not name the opening
/// leader (and no `^L` does), the first trick is led by the Play tag's
/// player (else by declarer's left-hand opponent).
pub(super) fn walk(
    inp: &Input,
    tricks: &mut [Trick],
    plus: Option<usize>,
    trust_tag: bool,
    issues: &mut Issues,
) -> Walk {
    let Input {
        items,
        first,
        total,
        end_position,
        declarer,
        ..
    } = *inp;
    let lho = declarer.map(|d| d.lho());
    let opening_leader = if end_position {
        Some(first)
    } else {
        lho.or(Some(first))
    };
    let mut w = Walk {
        remaining: *inp.hands,
        played: Hand::EMPTY,
        played_at: Vec::new(),
        dashes_played: [0u8; 4],
        plus_seen: false,
        won: [0u8; 2],
        unknown: 0,
        opening_leader,
        ambiguous_opening_lead: false,
    };
    let last_t = tricks.len().saturating_sub(1);

    for t in 0..tricks.len() {
        let cards = tricks[t].cards;
        let item_at = |s: Seat| cards[s as usize].map(|i| (i, &items[i]));
        let base = if t == 0 {
            opening_leader
        } else {
            tricks[t - 1].winner
        };
        let leader = w.leader(inp, t, cards, base, trust_tag, issues);
        tricks[t].leader = leader;

        let order: [Seat; 4] = {
            let start = leader.unwrap_or(first);
            [0, 1, 2, 3].map(|k| rotate(start, k))
        };
        let lead_card = leader.and_then(|l| match item_at(l) {
            Some((
                _,
                PlayItem {
                    token: T::Card(c), ..
                },
            )) => Some(*c),
            _ => None,
        });
        let full = cards.iter().all(Option::is_some);
        let has_plus = cards
            .iter()
            .flatten()
            .any(|&i| items[i].token == T::Continuation);
        let has_dash = cards.iter().flatten().any(|&i| items[i].token == T::Dash);
        // Is this trick played (its `-` are unknown played cards), or the
        // current one (its `-` are cards not played yet)?
        let played_trick = full && !has_plus && (t < last_t || !has_dash || t + 1 == total);

        let view = TrickView {
            cards,
            leader,
            lead_card,
            played_trick,
        };
        for seat in order {
            w.play(inp, &view, seat, plus, issues);
        }
        w.settle(inp, &mut tricks[t], played_trick);
    }
    w
}

impl Walk {
    /// The leader of trick `t` (whose items are `cards`): `base` (the
    /// opening leader, or the previous trick's winner) unless a `^L` card
    /// says otherwise. Reports misplaced `^L` marks and, on the first trick,
    /// a Play tag that does not name the opening leader.
    fn leader(
        &mut self,
        inp: &Input,
        t: usize,
        cards: [Option<usize>; 4],
        base: Option<Seat>,
        trust_tag: bool,
        issues: &mut Issues,
    ) -> Option<Seat> {
        let Input {
            items,
            first,
            end_position,
            declarer,
            ..
        } = *inp;
        let lho = declarer.map(|d| d.lho());
        let item_at = |s: Seat| cards[s as usize].map(|i| (i, &items[i]));
        // Leads out of turn, in column order.
        let marked: Vec<Seat> = (0..4)
            .map(|k| rotate(first, k))
            .filter(|&s| {
                item_at(s).is_some_and(|(_, it)| {
                    it.lead_out_of_turn_marked
                        && matches!(it.token, T::Card(_) | T::Dash | T::Invalid)
                })
            })
            .collect();
        let mut leader = base;
        if let Some(&x) = marked.first() {
            let (xi, _) = item_at(x).expect("marked item");
            if base == Some(x) {
                let who = if t == 0 {
                    "the opening leader"
                } else {
                    "the winner of the previous trick"
                };
                issues.push(Issue::new(
                    &codes::LEAD_MARK_ON_LEADER,
                    xi,
                    format!(
                        "`^L` marks a lead out of turn (§3.9 (D)), but {} is on lead here as {who}",
                        seat_name(x)
                    ),
                ));
            } else {
                leader = Some(x);
            }
            for &y in &marked[1..] {
                let (yi, _) = item_at(y).expect("marked item");
                issues.push(
                    Issue::new(
                        &codes::MULTIPLE_LEADS_OUT_OF_TURN,
                        yi,
                        format!(
                            "a second `^L` in this trick: {} already led out of turn, and the \
                             other cards follow clockwise (§3.9 (D))",
                            seat_name(x)
                        ),
                    )
                    .related(Some(xi)),
                );
            }
        }
        if t == 0 && !end_position {
            if let Some(l) = lho {
                // The Play tag names the player of the first card: the
                // opening leader, or the player who led out of turn.
                let tag_ok =
                    first == l || (leader == Some(first) && marked.first() == Some(&first));
                if !tag_ok {
                    let d = declarer.expect("lho implies declarer");
                    issues.push(Issue::new(
                        &codes::WRONG_OPENING_LEADER,
                        0,
                        format!(
                            "the Play tag names {}, but the opening leader is {}, the left-hand \
                             opponent of declarer {} (§3.6); a lead out of turn is marked `^L` \
                             (§3.9 (D))",
                            seat_name(first),
                            seat_name(l),
                            seat_name(d)
                        ),
                    ));
                    if marked.is_empty() {
                        self.ambiguous_opening_lead = true;
                        if trust_tag {
                            // The Play tag says who played first.
                            leader = Some(first);
                        }
                    }
                }
            }
        }
        leader
    }

    /// The item of `seat` in the trick `view`, in playing order: a `^R` on
    /// a lead, a card after the `+`, played twice, not in the hand, or not
    /// following suit (with or without `^R`). Takes known cards out of the
    /// remaining hands.
    fn play(
        &mut self,
        inp: &Input,
        view: &TrickView,
        seat: Seat,
        plus: Option<usize>,
        issues: &mut Issues,
    ) {
        let Input { hands, items, .. } = *inp;
        let TrickView {
            cards,
            leader,
            played_trick,
            ..
        } = *view;
        let item_at = |s: Seat| cards[s as usize].map(|i| (i, &items[i]));
        let Some((idx, item)) = item_at(seat) else {
            return;
        };
        let s = seat as usize;
        let is_lead = leader == Some(seat);
        if item.revoke_marked && is_lead && matches!(item.token, T::Card(_) | T::Dash | T::Invalid)
        {
            let why = if item.lead_out_of_turn_marked {
                "a card led out of turn (`^L`) is the first card of its trick"
            } else {
                "it is the lead of this trick"
            };
            issues.push(Issue::new(
                &codes::REVOKE_MARK_WITHOUT_REVOKE,
                idx,
                format!("`^R` marks a revoke (§3.9 (C)), but {why} and cannot be a revoke"),
            ));
        }
        match item.token {
            T::Continuation => self.plus_seen = true,
            T::Terminator => {}
            T::Dash => {
                if played_trick && !self.plus_seen {
                    self.dashes_played[s] += 1;
                }
            }
            T::Invalid => self.dashes_played[s] += 1,
            T::Card(c) => {
                if self.plus_seen {
                    issues.push(
                        Issue::new(
                            &codes::CARD_AFTER_PLAY_MARKER,
                            idx,
                            format!(
                                "{} is played after the `+` card: `+` replaces the next card to \
                                     be played, and later cards are `-` (§3.6)",
                                card_text(c)
                            ),
                        )
                        .related(plus),
                    );
                }
                if let Some(&(_, first_idx)) = self.played_at.iter().find(|(pc, _)| *pc == c) {
                    issues.push(
                        Issue::new(
                            &codes::CARD_PLAYED_TWICE,
                            idx,
                            format!("{} has already been played (§3.6)", card_text(c)),
                        )
                        .related(Some(first_idx)),
                    );
                    return;
                }
                self.played_at.push((c, idx));
                self.played.insert(c);
                let owner_problem = not_in_hand(hands, seat, c);
                if let Some(message) = owner_problem {
                    issues.push(Issue::new(&codes::CARD_NOT_IN_HAND, idx, message));
                    return;
                }
                if !is_lead {
                    self.follow_suit(view, seat, idx, item, c, issues);
                }
                if let Some(r) = self.remaining[s].as_mut() {
                    r.remove(c);
                }
            }
        }
    }

    /// `seat`'s card `c` (item `idx`), not the lead, against the lead card
    /// (when known): not following suit while holding the suit led needs `^R`
    /// (PBN0604); `^R` on a card that follows suit or of a player void in
    /// the suit led is PBN0605.
    fn follow_suit(
        &self,
        view: &TrickView,
        seat: Seat,
        idx: usize,
        item: &PlayItem,
        c: Card,
        issues: &mut Issues,
    ) {
        let TrickView {
            cards,
            leader,
            lead_card,
            ..
        } = *view;
        let Some(lead) = lead_card else {
            return;
        };
        let s = seat as usize;
        let led = lead.suit;
        let holds = self.remaining[s].map(|r| {
            let n = r[led].len();
            if n > self.dashes_played[s] as usize {
                Some(true)
            } else if n == 0 {
                Some(false)
            } else {
                None
            }
        });
        if c.suit == led {
            if item.revoke_marked {
                issues.push(Issue::new(
                    &codes::REVOKE_MARK_WITHOUT_REVOKE,
                    idx,
                    format!(
                        "`^R` marks a revoke (§3.9 (C)), but {} follows suit to {}",
                        card_text(c),
                        card_text(lead)
                    ),
                ));
            }
        } else {
            match holds.flatten() {
                Some(true) if !item.revoke_marked => {
                    issues.push(
                        Issue::new(
                            &codes::UNMARKED_REVOKE,
                            idx,
                            format!(
                                "revoke: {} plays {} on the {} lead ({}) while \
                                     holding {}; a revoke is marked `^R` (§3.9 (C))",
                                seat_name(seat),
                                card_text(c),
                                suit_name(led),
                                card_text(lead),
                                suit_name(led)
                            ),
                        )
                        .related(cards[leader.expect("lead card") as usize]),
                    );
                }
                Some(false) if item.revoke_marked => {
                    issues.push(Issue::new(
                        &codes::REVOKE_MARK_WITHOUT_REVOKE,
                        idx,
                        format!(
                            "`^R` marks a revoke (§3.9 (C)), but {} has no {} left \
                                 and may discard or ruff",
                            seat_name(seat),
                            suit_name(led)
                        ),
                    ));
                }
                _ => {}
            }
        }
    }

    /// The trick's completeness and winner (when its four cards and its
    /// leader are known), counted for its side.
    fn settle(&mut self, inp: &Input, trick: &mut Trick, played_trick: bool) {
        let Input { items, trump, .. } = *inp;
        let cards = trick.cards;
        let leader = trick.leader;
        // The winner.
        let known: Vec<Card> = cards
            .iter()
            .filter_map(|i| match i.map(|i| items[i].token) {
                Some(T::Card(c)) => Some(c),
                _ => None,
            })
            .collect();
        trick.complete = known.len() == 4;
        if let (true, Some(l)) = (trick.complete, leader) {
            let four = [0, 1, 2, 3].map(|k| known[k]);
            // `known` is in seat order (N, E, S, W) because `cards` is.
            let w = trick_winner(four, l, trump);
            trick.winner = Some(w);
        }
        if let Some(w) = trick.winner {
            self.won[side(w)] += 1;
        } else if played_trick {
            self.unknown += 1;
        }
    }
}

/// Why `seat` cannot play `c` according to the Deal tag (PBN0602), if he
/// cannot: his known hand does not hold it, or his hand is unknown and a
/// known hand holds it.
fn not_in_hand(hands: &[Option<Hand>; 4], seat: Seat, c: Card) -> Option<String> {
    match hands[seat as usize] {
        Some(h) if !h.contains(c) => {
            let owner = Seat::ALL
                .into_iter()
                .find(|&o| hands[o as usize].is_some_and(|oh| oh.contains(c)));
            Some(match owner {
                Some(o) => format!(
                    "{} plays {} in his column, but the Deal tag gives it to {} (§3.6)",
                    seat_name(seat),
                    card_text(c),
                    seat_name(o)
                ),
                None => format!(
                    "{} plays {} in his column, but his hand in the Deal tag does \
                         not hold it (§3.6)",
                    seat_name(seat),
                    card_text(c)
                ),
            })
        }
        None => Seat::ALL
            .into_iter()
            .find(|&o| hands[o as usize].is_some_and(|oh| oh.contains(c)))
            .map(|o| {
                format!(
                    "{} plays {} in his column, but the Deal tag gives it to {} (§3.6)",
                    seat_name(seat),
                    card_text(c),
                    seat_name(o)
                )
            }),
        _ => None,
    }
}
