//! The play section (§3.6) with its irregularities (§3.9) and end positions
//! (§3.10).
//!
//! # Layout: columns, not playing order
//!
//! Each line (each group of four items) is one trick, and its cards are
//! listed in a fixed seat order starting with the seat of the Play tag — not
//! in the order they were played (§3.6; the §1.2 example: in `C5 C2 C6 CK`
//! North, who won the first trick with a ruff, leads C2). Every item except
//! `*` occupies one column: cards, `-` (an unknown card, or one not played
//! yet) and `+` (the next card to be played).
//!
//! # Rules
//!
//! - The opening leader is declarer's left-hand opponent (§3.6); the Play tag
//!   must name him (PBN0601) unless the first card of its column is a lead
//!   out of turn (`^L`). `declarer` is the seat the Declarer tag names, also
//!   with a caret: with `^S` South plays the hand, so West leads. In an end
//!   position (every known hand has fewer than 13 cards, §3.10) the Play tag
//!   names the leader, and there are as many tricks as cards in a hand.
//! - Later tricks are led by the winner of the previous one: the highest
//!   trump, or the highest card of the suit led. `^L` marks a card led out of
//!   turn (§3.9 (D)); the other three follow clockwise. `^L` on the card of
//!   the player on lead is PBN0606, a second `^L` in a trick PBN0607.
//! - A card must be in its column's hand (PBN0602) and is played once
//!   (PBN0603). Not following suit while holding the suit led needs `^R`
//!   (PBN0604); `^R` on a card that follows suit, on a void player's card or
//!   on a lead is PBN0605. With unknown hands (`-` in the Deal tag) only what
//!   is certain is checked.
//! - Nothing after the last trick (PBN0608) or after `*`; no card played
//!   after the `+` card (PBN0609); `*` with `+` (PBN0610, warning); a play
//!   that stops early without `*`, `+` or a final `-` is incomplete (PBN0611,
//!   warning). `*` after a complete play is redundant and accepted. Marks
//!   before `+` or `*`, and repeated marks, are the caller's (PBN0712 in
//!   `rules/notes.rs`); they are ignored here.

use super::{card_text, rotate, seat_name, Issue};
use crate::codes::bridge as codes;
use contract_bridge::{Card, Hand, Seat, Suit};

/// One play token, as the model read it (annotations stripped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayToken {
    Card(Card),
    /// `-`: an unknown card, or one not played yet.
    Dash,
    /// `+`: the next card to be played.
    Continuation,
    /// `*`: no further cards will or can be given.
    Terminator,
    /// A card token the caller could not read (e.g. `S1`, which it reports
    /// itself): a card was played there, but which one is unknown. Unlike
    /// `-` it never means "not played yet".
    Unknown,
}

/// One item of the play section: a token and the irregularity marks before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayItem {
    pub token: PlayToken,
    /// `^R`: a revoke.
    pub revoke_marked: bool,
    /// `^L`: a lead out of turn.
    pub lead_out_of_turn_marked: bool,
}

impl PlayItem {
    pub fn new(token: PlayToken) -> Self {
        PlayItem {
            token,
            revoke_marked: false,
            lead_out_of_turn_marked: false,
        }
    }
}

impl From<PlayToken> for PlayItem {
    fn from(token: PlayToken) -> Self {
        PlayItem::new(token)
    }
}

/// One trick (one line of four columns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trick {
    /// Who led: the previous winner (the opening leader first), or the
    /// player whose card is marked `^L`. `None` when unknown (after a trick
    /// with an unknown card).
    pub leader: Option<Seat>,
    /// The item of each seat (card, `-` or `+`), indexed by `Seat as usize`.
    pub cards: [Option<usize>; 4],
    /// Known when the leader and all four cards are known.
    pub winner: Option<Seat>,
    /// All four items are known cards.
    pub complete: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayAnalysis {
    pub tricks: Vec<Trick>,
    /// Seat of each item (`None` for `*`). Same length as the items.
    pub seats: Vec<Option<Seat>>,
    /// Who should lead the first trick: declarer's left-hand opponent, or the
    /// Play tag in an end position or when declarer is unknown.
    pub opening_leader: Option<Seat>,
    /// Tricks won by declarer's side among the played tricks; `None` when
    /// declarer is unknown or some played trick has an unknown winner.
    pub declarer_tricks: Option<u8>,
    pub defender_tricks: Option<u8>,
    /// Played tricks won by each side, and played tricks whose winner is
    /// unknown (a `-` among their cards, or an unknown leader).
    pub ns_tricks: u8,
    pub ew_tricks: u8,
    pub unknown_tricks: u8,
    /// 13, or the number of cards per hand in an end position.
    pub total_tricks: u8,
    /// Every known hand has fewer than 13 cards (§3.10).
    pub end_position: bool,
    /// All tricks are given, or the play ends with `*`.
    pub complete: bool,
    /// A `*` ends the play.
    pub terminated: bool,
    /// A `+` marks the next card.
    pub continued: bool,
    /// The player on turn when the play is not complete (the seat of the `+`
    /// if there is one); `None` when unknown.
    pub next_seat: Option<Seat>,
    /// The cards `next_seat` may play (following suit when he can), when
    /// known; for an unknown hand, every card not played and not in a known
    /// hand.
    pub legal_next_cards: Vec<Card>,
    /// The cards each known hand still holds (cards shown as `-` may be
    /// among them).
    pub remaining: [Option<Hand>; 4],
    /// Tricks each side (0 = NS, 1 = EW) will surely still win: top trumps
    /// in one hand that no opponent can beat.
    pub sure_tricks: [u8; 2],
    pub issues: Vec<Issue>,
}

impl PlayAnalysis {
    /// Tricks played so far (known or unknown winner).
    pub fn played_tricks(&self) -> u8 {
        self.ns_tricks + self.ew_tricks + self.unknown_tricks
    }

    /// Tricks not played yet.
    pub fn remaining_tricks(&self) -> u8 {
        self.total_tricks.saturating_sub(self.played_tricks())
    }

    /// Tricks won so far by `seat`'s side.
    pub fn side_tricks(&self, seat: Seat) -> u8 {
        if side(seat) == 0 {
            self.ns_tricks
        } else {
            self.ew_tricks
        }
    }

    /// The least and the most tricks `seat`'s side can have at the end of
    /// the play: tricks won so far plus its sure tricks, and everything
    /// except the opponents' tricks and sure tricks.
    pub fn final_bounds(&self, seat: Seat) -> (u8, u8) {
        let s = side(seat);
        let won = self.side_tricks(seat);
        let lower = won + self.sure_tricks[s];
        let upper = (won + self.unknown_tricks + self.remaining_tricks())
            .saturating_sub(self.sure_tricks[1 - s]);
        (lower, upper.max(lower))
    }
}

fn side(seat: Seat) -> usize {
    seat as usize % 2
}

fn token_text(token: PlayToken) -> String {
    match token {
        PlayToken::Card(c) => card_text(c),
        PlayToken::Dash => "-".into(),
        PlayToken::Continuation => "+".into(),
        PlayToken::Terminator => "*".into(),
        PlayToken::Unknown => "an unreadable card".into(),
    }
}

fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
}

/// The winner of four known cards led by `leader`.
fn trick_winner(cards: [Card; 4], leader: Seat, trump: Option<Suit>) -> Seat {
    let led = cards[leader as usize].suit;
    let key = |c: Card| {
        let class = if Some(c.suit) == trump {
            2
        } else if c.suit == led {
            1
        } else {
            0
        };
        (class, c.rank)
    };
    Seat::ALL
        .into_iter()
        .max_by_key(|&s| key(cards[s as usize]))
        .expect("four seats")
}

/// Analyzes a play section. `hands` are the Deal tag's hands indexed by
/// `Seat as usize` (`None` = unknown), `trump` the Contract's denomination
/// (`None` = notrump), `declarer` the seat named by the Declarer tag (with or
/// without caret: the player who plays the hand), `first` the Play tag's seat.
///
/// When the Play tag does not name the opening leader (PBN0601) and no `^L`
/// says who led, the first trick is read both ways — led by the player of
/// the Play tag, and by declarer's left-hand opponent — and the reading with
/// fewer other issues is kept (the Play tag's on a tie), so that one wrong
/// tag does not cascade into revokes.
pub fn analyze_play(
    hands: &[Option<Hand>; 4],
    trump: Option<Suit>,
    declarer: Option<Seat>,
    first: Seat,
    items: &[PlayItem],
) -> PlayAnalysis {
    let by_tag = analyze(hands, trump, declarer, first, items, true);
    if by_tag.ambiguous_opening_lead {
        let by_rules = analyze(hands, trump, declarer, first, items, false);
        if by_rules.analysis.issues.len() < by_tag.analysis.issues.len() {
            return by_rules.analysis;
        }
    }
    by_tag.analysis
}

struct Run {
    analysis: PlayAnalysis,
    ambiguous_opening_lead: bool,
}

fn analyze(
    hands: &[Option<Hand>; 4],
    trump: Option<Suit>,
    declarer: Option<Seat>,
    first: Seat,
    items: &[PlayItem],
    trust_tag: bool,
) -> Run {
    use PlayToken as T;
    let mut issues = Vec::new();

    let max_len = hands.iter().flatten().map(|h| h.len()).max();
    let end_position = max_len.is_some_and(|n| n < 13);
    let total = if end_position {
        max_len.unwrap_or(13)
    } else {
        13
    };

    // Pass 1: columns and tricks.
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

    // Pass 2: leaders, ownership, following suit, winners.
    let located: Hand = hands.iter().flatten().fold(Hand::EMPTY, |a, h| a | *h);
    let mut remaining = *hands;
    let mut played = Hand::EMPTY;
    let mut played_at: Vec<(Card, usize)> = Vec::new();
    let mut dashes_played = [0u8; 4];
    let mut plus_seen = false;
    let (mut won, mut unknown) = ([0u8; 2], 0u8);

    let lho = declarer.map(|d| d.lho());
    let opening_leader = if end_position {
        Some(first)
    } else {
        lho.or(Some(first))
    };
    let last_t = tricks.len().saturating_sub(1);
    let mut ambiguous_opening_lead = false;

    for t in 0..tricks.len() {
        let cards = tricks[t].cards;
        let item_at = |s: Seat| cards[s as usize].map(|i| (i, &items[i]));
        let base = if t == 0 {
            opening_leader
        } else {
            tricks[t - 1].winner
        };

        // Leads out of turn, in column order.
        let marked: Vec<Seat> = (0..4)
            .map(|k| rotate(first, k))
            .filter(|&s| {
                item_at(s).is_some_and(|(_, it)| {
                    it.lead_out_of_turn_marked
                        && matches!(it.token, T::Card(_) | T::Dash | T::Unknown)
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
                        ambiguous_opening_lead = true;
                        if trust_tag {
                            // The Play tag says who played first.
                            leader = Some(first);
                        }
                    }
                }
            }
        }
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

        for seat in order {
            let Some((idx, item)) = item_at(seat) else {
                continue;
            };
            let s = seat as usize;
            let is_lead = leader == Some(seat);
            if item.revoke_marked
                && is_lead
                && matches!(item.token, T::Card(_) | T::Dash | T::Unknown)
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
                T::Continuation => plus_seen = true,
                T::Terminator => {}
                T::Dash => {
                    if played_trick && !plus_seen {
                        dashes_played[s] += 1;
                    }
                }
                T::Unknown => dashes_played[s] += 1,
                T::Card(c) => {
                    if plus_seen {
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
                    if let Some(&(_, first_idx)) = played_at.iter().find(|(pc, _)| *pc == c) {
                        issues.push(
                            Issue::new(
                                &codes::CARD_PLAYED_TWICE,
                                idx,
                                format!("{} has already been played (§3.6)", card_text(c)),
                            )
                            .related(Some(first_idx)),
                        );
                        continue;
                    }
                    played_at.push((c, idx));
                    played.insert(c);
                    let owner_problem = match hands[s] {
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
                    };
                    if let Some(message) = owner_problem {
                        issues.push(Issue::new(&codes::CARD_NOT_IN_HAND, idx, message));
                        continue;
                    }
                    if let (false, Some(lead)) = (is_lead, lead_card) {
                        let led = lead.suit;
                        let holds = remaining[s].map(|r| {
                            let n = r[led].len();
                            if n > dashes_played[s] as usize {
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
                    if let Some(r) = remaining[s].as_mut() {
                        r.remove(c);
                    }
                }
            }
        }

        // The winner.
        let known: Vec<Card> = cards
            .iter()
            .filter_map(|i| match i.map(|i| items[i].token) {
                Some(T::Card(c)) => Some(c),
                _ => None,
            })
            .collect();
        tricks[t].complete = known.len() == 4;
        if let (true, Some(l)) = (tricks[t].complete, leader) {
            let four = [0, 1, 2, 3].map(|k| known[k]);
            // `known` is in seat order (N, E, S, W) because `cards` is.
            let w = trick_winner(four, l, trump);
            tricks[t].winner = Some(w);
        }
        if let Some(w) = tricks[t].winner {
            won[side(w)] += 1;
        } else if played_trick {
            unknown += 1;
        }
    }

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

    // Sure tricks: top trumps in one certain hand that no opponent can beat.
    let unlocated = Hand::ALL - located - played;
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

    // Who is on turn.
    let (next_seat, legal_next_cards) = if complete {
        (None, Vec::new())
    } else {
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
        let legal = seat.map_or_else(Vec::new, |s| {
            let known = remaining[s as usize];
            let pool = known.unwrap_or(unlocated);
            let follow = known.is_some() && lead.is_some_and(|l| !pool[l.suit].is_empty());
            pool.iter()
                .filter(|c| !follow || Some(c.suit) == lead.map(|l| l.suit))
                .collect()
        });
        (seat, legal)
    };

    let declarer_tricks = declarer.filter(|_| unknown == 0).map(|d| won[side(d)]);
    let defender_tricks = declarer.filter(|_| unknown == 0).map(|d| won[1 - side(d)]);

    let analysis = PlayAnalysis {
        tricks,
        seats,
        opening_leader,
        declarer_tricks,
        defender_tricks,
        ns_tricks: won[0],
        ew_tricks: won[1],
        unknown_tricks: unknown,
        total_tricks: total as u8,
        end_position,
        complete,
        terminated,
        continued: plus.is_some(),
        next_seat,
        legal_next_cards,
        remaining,
        sure_tricks,
        issues,
    };
    Run {
        analysis,
        ambiguous_opening_lead,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::codes::bridge as c;
    use Seat::*;

    /// The §1.2 deal (also errors_10 games 49-61): West KQT2.AT.J6542.85,
    /// North .63.AKQ987.A9732, East A8654.KQ5.T.QJT6, South J973.J98742.3.K4.
    pub(crate) const SCHIPHOL: &str =
        "W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
    /// Every hand one suit (errors_10 games 45-48).
    pub(crate) const FLUSHES: &str =
        "W:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    /// errors_10 game 44: South holds S2.
    pub(crate) const REVOKE_DEAL: &str =
        "W:AKQJT9876543.2.. .AKQJT9876543.2. ..AKQJT9876543.2 2...AKQJT9876543";
    /// The §1.2 play (correct_10 game 1).
    pub(crate) const SCHIPHOL_PLAY: &str = "SK H3 S4 S3 C5 C2 C6 CK S2 H6 S5 S7 C8 CA CT C4 \
                                            D2 DA DT D3 D4 DK H5 H7 - - - H2 *";

    /// Parses a Deal tag value; `-` is an unknown hand.
    pub(crate) fn hands(deal: &str) -> [Option<Hand>; 4] {
        let (first, rest) = deal.split_once(':').expect("deal with a seat");
        let first: Seat = first.parse().expect("seat");
        let mut out = [None; 4];
        for (k, h) in rest.split_whitespace().enumerate() {
            if h != "-" {
                out[rotate(first, k) as usize] = Some(h.parse().expect("hand"));
            }
        }
        out
    }

    /// Parses a test play: cards, `-`, `+`, `*`, `?` (unreadable), with
    /// `^R`/`^L` before.
    pub(crate) fn items(text: &str) -> Vec<PlayItem> {
        let mut out = Vec::new();
        let (mut r, mut l) = (false, false);
        for tok in text.split_whitespace() {
            let token = match tok {
                "^R" => {
                    r = true;
                    continue;
                }
                "^L" => {
                    l = true;
                    continue;
                }
                "-" => PlayToken::Dash,
                "+" => PlayToken::Continuation,
                "*" => PlayToken::Terminator,
                "?" => PlayToken::Unknown,
                card => PlayToken::Card(card.parse().unwrap_or_else(|_| panic!("bad card {card}"))),
            };
            out.push(PlayItem {
                token,
                revoke_marked: r,
                lead_out_of_turn_marked: l,
            });
            (r, l) = (false, false);
        }
        out
    }

    pub(crate) fn run(
        deal: &str,
        trump: Option<Suit>,
        declarer: Seat,
        first: Seat,
        text: &str,
    ) -> PlayAnalysis {
        analyze_play(&hands(deal), trump, Some(declarer), first, &items(text))
    }

    /// (index, code) of every issue.
    pub(crate) fn found(a: &PlayAnalysis) -> Vec<(usize, &'static str)> {
        a.issues.iter().map(|i| (i.index, i.code.code)).collect()
    }

    #[track_caller]
    fn clean(a: &PlayAnalysis) {
        assert!(a.issues.is_empty(), "{:#?}", a.issues);
    }

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn columns_not_playing_order() {
        let a = run(SCHIPHOL, Some(Suit::Hearts), South, West, SCHIPHOL_PLAY);
        clean(&a);
        let leaders: Vec<_> = a.tricks.iter().map(|t| t.leader).collect();
        let winners: Vec<_> = a.tricks.iter().map(|t| t.winner).collect();
        assert_eq!(
            leaders,
            [West, North, South, North, North, North, South]
                .map(Some)
                .to_vec()
        );
        assert_eq!(
            winners[..6],
            [North, South, North, North, North, South].map(Some)
        );
        assert_eq!(winners[6], None);
        assert!(a.terminated && a.complete && !a.continued);
        assert_eq!((a.ns_tricks, a.ew_tricks, a.unknown_tricks), (6, 0, 0));
        assert_eq!((a.declarer_tricks, a.defender_tricks), (Some(6), Some(0)));
        assert_eq!(a.seats[1], Some(North));
        assert_eq!(a.seats[28], None);
        assert_eq!(a.next_seat, None);
        // West's HA beats all of South's trumps, East's HK and HQ are second
        // and third: EW surely win 2 more (in East's hand).
        assert_eq!(a.sure_tricks, [0, 2]);
        assert_eq!(a.final_bounds(South), (6, 11));
        assert_eq!(a.final_bounds(East), (2, 7));
        // The same play without trumps: the first trick goes to West's SK.
        let a = run(SCHIPHOL, None, South, West, "SK H3 S4 S3 *");
        assert_eq!(a.tricks[0].winner, Some(West));
        assert_eq!(a.sure_tricks, [0, 0]);
    }

    #[test]
    fn wrong_opening_leader() {
        // South declares: West leads. The columns may start elsewhere only
        // with a lead out of turn.
        let a = run(SCHIPHOL, Some(Suit::Hearts), South, North, "H3 S4 S3 SK *");
        assert_eq!(found(&a), vec![(0, c::WRONG_OPENING_LEADER.code)]);
        // West led (the reading without spurious revokes).
        assert_eq!(a.tricks[0].leader, Some(West));
        clean(&run(
            SCHIPHOL,
            Some(Suit::Hearts),
            South,
            West,
            "SK H3 S4 S3 *",
        ));
        // An unmarked lead out of turn by North is read the Play tag's way.
        let a = run(SCHIPHOL, Some(Suit::Hearts), South, North, "D7 DT D3 D2 *");
        assert_eq!(found(&a), vec![(0, c::WRONG_OPENING_LEADER.code)]);
        assert_eq!(a.tricks[0].leader, Some(North));
        // The Play tag may name a player who led out of turn.
        let a = run(
            SCHIPHOL,
            Some(Suit::Hearts),
            South,
            North,
            "^L D7 DT D3 D2 *",
        );
        clean(&a);
        assert_eq!(a.tricks[0].leader, Some(North));
        // …but not a third player.
        let a = run(
            SCHIPHOL,
            Some(Suit::Hearts),
            South,
            North,
            "D7 ^L DT D3 D2 *",
        );
        assert_eq!(found(&a), vec![(0, c::WRONG_OPENING_LEADER.code)]);
        assert_eq!(a.tricks[0].leader, Some(East));
        // Declarer and dummy swapped (^S with the auction's declarer North):
        // the caller passes South, West leads.
        clean(&run(
            SCHIPHOL,
            Some(Suit::Hearts),
            South,
            West,
            "SK H3 S4 S3 *",
        ));
        // End positions: the Play tag names the leader.
        let end = "N:.63.. .KQ.. ..A.T ..KQ.";
        let a = run(end, Some(Suit::Spades), South, North, "H6 HK DA DK *");
        clean(&a);
        assert!(a.end_position);
        assert_eq!(a.total_tricks, 2);
        assert_eq!(a.tricks[0].winner, Some(East));
        // Sure tricks: North's HQ is not sure, West's HK is already in the
        // current trick and North must follow to it.
        let end = "W:.K.2. .Q..2 32... ..3.3";
        let a = run(end, Some(Suit::Hearts), South, West, "HK - - -");
        clean(&a);
        assert_eq!(a.sure_tricks, [0, 0]);
        assert_eq!(a.next_seat, Some(North));
        assert_eq!(a.legal_next_cards, vec![card("HQ")]);
        // Declarer unknown: the Play tag names the leader.
        let a = analyze_play(
            &hands(SCHIPHOL),
            Some(Suit::Hearts),
            None,
            North,
            &items("D7 DT D3 D2 *"),
        );
        clean(&a);
        assert_eq!(a.opening_leader, Some(North));
    }

    #[test]
    fn card_not_in_hand() {
        let a = run(FLUSHES, None, South, West, "SA S2 D2 C2 *");
        assert_eq!(found(&a), vec![(1, c::CARD_NOT_IN_HAND.code)]);
        assert!(
            a.issues[0].message.contains("gives it to West"),
            "{}",
            a.issues[0].message
        );
        clean(&run(FLUSHES, None, South, West, "SA H2 D2 C2 *"));
        // North's hand unknown, but the card is known to be West's.
        let mut h = hands(FLUSHES);
        h[North as usize] = None;
        let a = analyze_play(&h, None, Some(South), West, &items("SA S2 D2 C2 *"));
        assert_eq!(found(&a), vec![(1, c::CARD_NOT_IN_HAND.code)]);
        let a = analyze_play(&h, None, Some(South), West, &items("SA H2 D2 C2 *"));
        clean(&a);
    }

    #[test]
    fn card_played_twice() {
        let a = run(FLUSHES, None, South, West, "SA H2 D2 C2 SA H3 D3 C3 *");
        assert_eq!(found(&a), vec![(4, c::CARD_PLAYED_TWICE.code)]);
        assert_eq!(a.issues[0].related, Some(0));
        clean(&run(
            FLUSHES,
            None,
            South,
            West,
            "SA H2 D2 C2 SK H3 D3 C3 *",
        ));
    }

    #[test]
    fn unmarked_revoke() {
        let a = run(REVOKE_DEAL, None, South, West, "SA HA DA CA *");
        assert_eq!(found(&a), vec![(3, c::UNMARKED_REVOKE.code)]);
        assert_eq!(a.issues[0].related, Some(0));
        clean(&run(REVOKE_DEAL, None, South, West, "SA HA DA ^R CA *"));
        // The revoker's unknown earlier card might have been the S2.
        // (The `-` hides the winner of trick 1, so trick 2 needs its leader
        // from a `^L`, accepted when nobody is known to be on lead.)
        let a = run(
            REVOKE_DEAL,
            None,
            South,
            West,
            "SA HA DA - ^L SK HK DK CA *",
        );
        assert!(a.issues.is_empty(), "{:#?}", a.issues);
        assert_eq!(a.tricks[1].leader, Some(West));
        let a = run(
            REVOKE_DEAL,
            None,
            South,
            West,
            "SA - DA CA ^L SK HK DK CQ *",
        );
        assert_eq!(
            found(&a),
            vec![(3, c::UNMARKED_REVOKE.code), (7, c::UNMARKED_REVOKE.code)]
        );
    }

    #[test]
    fn revoke_mark_without_revoke() {
        let t = Some(Suit::Hearts);
        // Follows suit (game 53), void (game 52), the lead (game 51).
        for (text, at) in [
            ("SK H3 ^R S4 S3 *", 2),
            ("SK ^R H3 S4 S3 *", 1),
            ("^R SK H3 S4 S3 *", 0),
            ("^R ^L SK H3 S4 S3 *", 0),
        ] {
            let a = run(SCHIPHOL, t, South, West, text);
            let want = if text.contains("^L") {
                vec![
                    (0, c::LEAD_MARK_ON_LEADER.code),
                    (0, c::REVOKE_MARK_WITHOUT_REVOKE.code),
                ]
            } else {
                vec![(at, c::REVOKE_MARK_WITHOUT_REVOKE.code)]
            };
            assert_eq!(found(&a), want, "{text}");
        }
        clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 *"));
        // A real revoke by East (holding spades) is fine when marked.
        clean(&run(SCHIPHOL, t, South, West, "SK H3 ^R DT S3 *"));
    }

    #[test]
    fn leads_out_of_turn() {
        let t = Some(Suit::Hearts);
        // Game 50: ^L on the opening leader.
        let a = run(SCHIPHOL, t, South, West, "^L SK H3 S4 S3 *");
        assert_eq!(found(&a), vec![(0, c::LEAD_MARK_ON_LEADER.code)]);
        // §3.9 (D): East leads instead of West; the others follow clockwise.
        let a = run(SCHIPHOL, t, South, West, "C5 C2 ^L C6 CK *");
        clean(&a);
        assert_eq!(a.tricks[0].leader, Some(East));
        assert_eq!(a.tricks[0].winner, Some(South));
        // Two leads out of turn in one trick.
        let a = run(SCHIPHOL, t, South, West, "C5 ^L C2 ^L C6 CK *");
        assert_eq!(found(&a), vec![(2, c::MULTIPLE_LEADS_OUT_OF_TURN.code)]);
        assert_eq!(a.issues[0].related, Some(1));
        assert_eq!(a.tricks[0].leader, Some(North));
        // ^L on the winner of the previous trick.
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 C5 ^L C2 C6 CK *");
        assert_eq!(found(&a), vec![(5, c::LEAD_MARK_ON_LEADER.code)]);
    }

    #[test]
    fn after_the_end() {
        // West leads 13 spades and wins every trick at notrump.
        let spades = [
            "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2",
        ];
        let ranks = spades;
        let mut text = String::new();
        for (k, s) in spades.iter().enumerate() {
            let r = ranks[k];
            text.push_str(&format!("S{s} H{r} D{r} C{r} "));
        }
        let a = run(FLUSHES, None, South, West, &text);
        clean(&a);
        assert!(a.complete && !a.terminated);
        assert_eq!(a.declarer_tricks, Some(0));
        assert_eq!(a.defender_tricks, Some(13));
        assert_eq!(a.final_bounds(South), (0, 0));
        // A redundant `*` after 13 tricks is accepted.
        clean(&run(FLUSHES, None, South, West, &format!("{text} *")));
        let a = run(FLUSHES, None, South, West, &format!("{text} -"));
        assert_eq!(found(&a), vec![(52, c::CARD_AFTER_END_OF_PLAY.code)]);
        // End position of one card each.
        let end = "N:A... .A.. ..A. ...A";
        let a = run(end, None, West, North, "SA HA DA CA SK");
        assert_eq!(found(&a), vec![(4, c::CARD_AFTER_END_OF_PLAY.code)]);
        assert!(a.issues[0].message.contains("end position"));
        let a = run(end, None, West, North, "SA HA DA CA");
        clean(&a);
        assert!(a.complete);
    }

    #[test]
    fn markers() {
        let t = Some(Suit::Hearts);
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 * C5");
        assert_eq!(found(&a), vec![(5, c::CARD_AFTER_PLAY_MARKER.code)]);
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 * *");
        assert_eq!(found(&a), vec![(5, c::CARD_AFTER_PLAY_MARKER.code)]);
        // North (who won the ruff) leads C2, East is to play: CK after `+`.
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - C2 + CK");
        assert_eq!(found(&a), vec![(7, c::CARD_AFTER_PLAY_MARKER.code)]);
        assert_eq!(a.issues[0].related, Some(6));
        // West's card comes after East's in playing order: fine as `-`…
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - C2 + -");
        clean(&a);
        assert!(a.continued && !a.complete);
        assert_eq!(a.next_seat, Some(East));
        assert_eq!(
            a.legal_next_cards,
            ["CQ", "CJ", "CT", "C6"].map(card).to_vec()
        );
        // …and a second `+` is wrong.
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - C2 + +");
        assert_eq!(found(&a), vec![(7, c::CARD_AFTER_PLAY_MARKER.code)]);
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 - + - - *");
        assert_eq!(found(&a), vec![(8, c::PLAY_PLUS_AND_STAR.code)]);
        assert_eq!(
            a.issues[0].code.severity,
            crate::diagnostic::Severity::Warning
        );
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 * +");
        assert_eq!(found(&a), vec![(5, c::PLAY_PLUS_AND_STAR.code)]);
        // Marks before `*`/`+` are the caller's (PBN0712) and ignored here.
        clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 ^L *"));
        clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 ^R +"));
    }

    #[test]
    fn spec_plus_example() {
        // §3.6: South has played the last card, West must continue.
        let a = analyze_play(
            &[None; 4],
            None,
            Some(South),
            West,
            &items("H2 H3 H4 HA + - - CQ"),
        );
        clean(&a);
        assert_eq!(a.tricks[1].leader, Some(South));
        assert_eq!(a.next_seat, Some(West));
        // An unknown hand may play any unseen card.
        assert_eq!(a.legal_next_cards.len(), 52 - 5);
    }

    #[test]
    fn extra_plus_signs_over_a_whole_trick() {
        // Found by fuzzing (tests/fixtures/fuzz/parse_check/play-second-plus):
        // every `+` after the first is reported and skipped but takes its
        // column, so trick 2 (columns 4–7) has no recorded card at all.
        let a = analyze_play(
            &[None; 4],
            None,
            Some(South),
            West,
            &items("? + + + + + + + ?"),
        );
        let extra: Vec<_> = (2..=7)
            .map(|i| (i, c::CARD_AFTER_PLAY_MARKER.code))
            .collect();
        assert_eq!(
            found(&a)
                .into_iter()
                .filter(|&(i, _)| (2..=7).contains(&i))
                .collect::<Vec<_>>(),
            extra
        );
        assert_eq!(a.tricks.len(), 3);
        assert!(a.tricks[1].cards.iter().all(Option::is_none));
        assert_eq!(a.tricks[2].cards.iter().flatten().collect::<Vec<_>>(), [&8]);
    }

    #[test]
    fn incomplete() {
        let t = Some(Suit::Hearts);
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3");
        assert_eq!(found(&a), vec![(3, c::INCOMPLETE_PLAY.code)]);
        assert_eq!(
            a.issues[0].code.severity,
            crate::diagnostic::Severity::Warning
        );
        assert_eq!(a.next_seat, Some(North));
        assert_eq!(a.legal_next_cards.len(), 12);
        let a = run(SCHIPHOL, t, South, West, "");
        assert_eq!(found(&a), vec![(0, c::INCOMPLETE_PLAY.code)]);
        assert_eq!(a.next_seat, Some(West));
        clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 -"));
        clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 +"));
        clean(&run(SCHIPHOL, t, South, West, "SK H3 S4 S3 *"));
        // Next card in playing order: North led C2 (column 2), East follows.
        let a = run(SCHIPHOL, t, South, West, "SK H3 S4 S3 C5 C2");
        assert_eq!(a.next_seat, Some(East));
        assert_eq!(
            a.legal_next_cards,
            ["CQ", "CJ", "CT", "C6"].map(card).to_vec()
        );
    }

    #[test]
    fn unknown_cards() {
        let t = Some(Suit::Hearts);
        // An unknown card in the first trick: its winner and the next leader
        // are unknown, so later tricks are not judged on following suit.
        let a = run(SCHIPHOL, t, South, West, "SK - S4 S3 C5 C2 C6 CK *");
        clean(&a);
        assert_eq!(a.tricks[0].winner, None);
        assert_eq!(a.tricks[1].leader, None);
        assert_eq!((a.ns_tricks, a.ew_tricks, a.unknown_tricks), (0, 0, 2));
        assert_eq!(a.declarer_tricks, None);
        // An unreadable card was played: unlike `-` the trick counts.
        let a = run(SCHIPHOL, t, South, West, "SK ? S4 S3");
        assert_eq!(found(&a), vec![(3, c::INCOMPLETE_PLAY.code)]);
        assert_eq!(a.unknown_tricks, 1);
        assert_eq!(a.next_seat, None);
        // Cards are still checked against the hands.
        let a = run(SCHIPHOL, t, South, West, "SK - S4 S3 C5 C2 C7 CK *");
        assert_eq!(found(&a), vec![(6, c::CARD_NOT_IN_HAND.code)]);
    }
}
