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
//!
//! # The parts
//!
//! [`analyze_play`] reads the play in phases, each in its own file:
//! `columns.rs` lays the items out in columns and tricks (pass 1),
//! `tricks.rs` walks the tricks in order (leaders, cards, winners: pass 2),
//! `end.rs` decides whether the play is complete and counts sure tricks,
//! and `next.rs` finds the player on turn and his legal cards.

mod columns;
mod end;
mod next;
mod tricks;

use super::{card_text, Issues};
use contract_bridge::{Card, Hand, Seat, Suit};

/// A card token of the play section as read (§3.6.1; annotations
/// stripped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardToken {
    Card(Card),
    /// `-`: an unknown card, or one not played yet.
    Dash,
    /// `+`: the next card to be played.
    Continuation,
    /// `*`: no further cards will or can be given.
    Terminator,
    /// A card token that is not a card (`S1`, `--`, …; the model reads it
    /// so, and the analysis's caller may read it as the card it spells and
    /// report it itself): a card was played there, but which one is
    /// unknown. Unlike `-` it never means "not played yet".
    Invalid,
}

impl CardToken {
    /// The canonical text of a card (`SA`, `HT`) from [`crate::spec::cards`];
    /// for a token that is no card, the canonical form of what it spells
    /// (`S10` → `ST`, `--` → `-`), else `None`. `written` is the token's text.
    pub fn canonical(self, written: &str) -> Option<&'static str> {
        use crate::spec::cards;
        match self {
            CardToken::Card(c) => Some(crate::bridge::card_word(c)),
            CardToken::Invalid if cards::is_dash_run(written) => Some("-"),
            CardToken::Invalid => cards::canonical(written),
            _ => None,
        }
    }
}

/// One item of the play section: a token and the irregularity marks before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayItem {
    pub token: CardToken,
    /// `^R`: a revoke.
    pub revoke_marked: bool,
    /// `^L`: a lead out of turn.
    pub lead_out_of_turn_marked: bool,
}

impl PlayItem {
    pub fn new(token: CardToken) -> Self {
        PlayItem {
            token,
            revoke_marked: false,
            lead_out_of_turn_marked: false,
        }
    }
}

impl From<CardToken> for PlayItem {
    fn from(token: CardToken) -> Self {
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
    /// The seat whose column the next token takes (§3.6: the Play tag's
    /// seat, turned by the columns taken), which is not `next_seat` when
    /// an earlier trick was won by a later column; `None` when the play is
    /// complete.
    pub column_seat: Option<Seat>,
    /// The cards `column_seat` may play there: following the lead when the
    /// trick's leader stands in an earlier column, any card of his hand
    /// otherwise (of the unlocated cards for an unknown hand).
    pub column_cards: Vec<Card>,
    /// The cards each known hand still holds (cards shown as `-` may be
    /// among them).
    pub remaining: [Option<Hand>; 4],
    /// Tricks each side (0 = NS, 1 = EW) will surely still win: top trumps
    /// in one hand that no opponent can beat.
    pub sure_tricks: [u8; 2],
    pub issues: Issues,
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

fn token_text(token: CardToken) -> String {
    match token {
        CardToken::Card(c) => card_text(c),
        CardToken::Dash => "-".into(),
        CardToken::Continuation => "+".into(),
        CardToken::Terminator => "*".into(),
        CardToken::Invalid => "an unreadable card".into(),
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
        if by_rules.analysis.issues.total() < by_tag.analysis.issues.total() {
            return by_rules.analysis;
        }
    }
    by_tag.analysis
}

/// The seats by which the Deal's hands appear rotated: the `k` (1 to 3)
/// such that the play fits the hands when each seat holds the hand the
/// Deal gives the seat `k` places clockwise from it, where as given
/// (`as_given`, the play's analysis with `hands`) at least two cards come
/// from the wrong hand or revoke; with the play's analysis under those
/// hands. Needs all four hands and two tricks or more of known cards;
/// `None` otherwise or when no rotation, or more than one, fits.
pub fn rotation(
    as_given: &PlayAnalysis,
    hands: &[Option<Hand>; 4],
    trump: Option<Suit>,
    declarer: Option<Seat>,
    first: Seat,
    items: &[PlayItem],
) -> Option<(usize, PlayAnalysis)> {
    let misfits = |a: &PlayAnalysis| {
        a.issues.found(crate::codes::bridge::CARD_NOT_IN_HAND.code)
            + a.issues.found(crate::codes::bridge::UNMARKED_REVOKE.code)
    };
    if misfits(as_given) < 2
        || hands.iter().any(Option::is_none)
        || items
            .iter()
            .filter(|i| matches!(i.token, CardToken::Card(_)))
            .count()
            < 8
    {
        return None;
    }
    let mut fits = (1..4).filter_map(|k| {
        let rotated: [Option<Hand>; 4] = std::array::from_fn(|s| hands[(s + k) % 4]);
        let a = analyze_play(&rotated, trump, declarer, first, items);
        (misfits(&a) == 0).then_some((k, a))
    });
    let found = fits.next()?;
    fits.next().is_none().then_some(found)
}

struct Run {
    analysis: PlayAnalysis,
    ambiguous_opening_lead: bool,
}
/// What every phase reads: the arguments of [`analyze_play`] and the
/// number of tricks.
#[derive(Clone, Copy)]
struct Input<'a> {
    hands: &'a [Option<Hand>; 4],
    trump: Option<Suit>,
    declarer: Option<Seat>,
    first: Seat,
    items: &'a [PlayItem],
    /// 13, or the number of cards per hand in an end position.
    total: usize,
    /// Every known hand has fewer than 13 cards (§3.10).
    end_position: bool,
}

/// One reading of the play (see [`analyze_play`]); `trust_tag`: the first
/// trick is led by the Play tag's player when the tag does not name the
/// opening leader.
fn analyze(
    hands: &[Option<Hand>; 4],
    trump: Option<Suit>,
    declarer: Option<Seat>,
    first: Seat,
    items: &[PlayItem],
    trust_tag: bool,
) -> Run {
    let mut issues = Issues::default();

    let max_len = hands.iter().flatten().map(|h| h.len()).max();
    let end_position = max_len.is_some_and(|n| n < 13);
    let total = if end_position {
        max_len.unwrap_or(13)
    } else {
        13
    };
    let inp = Input {
        hands,
        trump,
        declarer,
        first,
        items,
        total,
        end_position,
    };

    let mut cols = columns::lay_out(&inp, &mut issues);
    let walk = tricks::walk(&inp, &mut cols.tricks, cols.plus, trust_tag, &mut issues);
    let complete = end::complete(&inp, &cols, &mut issues);

    let located: Hand = hands.iter().flatten().fold(Hand::EMPTY, |a, h| a | *h);
    let unlocated = Hand::ALL - located - walk.played;
    let sure_tricks = end::sure_tricks(&inp, &cols.tricks, &walk, unlocated);
    let (next_seat, legal_next_cards) = if complete {
        (None, Vec::new())
    } else {
        next::next_card(
            &inp,
            &cols.tricks,
            &cols.seats,
            cols.plus,
            walk.opening_leader,
            &walk.remaining,
            unlocated,
        )
    };

    let (column_seat, column_cards) = if complete {
        (None, Vec::new())
    } else {
        next::column_card(&inp, &cols.tricks, cols.slot, &walk.remaining, unlocated)
    };

    let (won, unknown) = (walk.won, walk.unknown);
    let declarer_tricks = declarer.filter(|_| unknown == 0).map(|d| won[side(d)]);
    let defender_tricks = declarer.filter(|_| unknown == 0).map(|d| won[1 - side(d)]);

    let analysis = PlayAnalysis {
        tricks: cols.tricks,
        seats: cols.seats,
        opening_leader: walk.opening_leader,
        declarer_tricks,
        defender_tricks,
        ns_tricks: won[0],
        ew_tricks: won[1],
        unknown_tricks: unknown,
        total_tricks: total as u8,
        end_position,
        complete,
        terminated: cols.terminator.is_some(),
        continued: cols.plus.is_some(),
        next_seat,
        legal_next_cards,
        column_seat,
        column_cards,
        remaining: walk.remaining,
        sure_tricks,
        issues,
    };
    Run {
        analysis,
        ambiguous_opening_lead: walk.ambiguous_opening_lead,
    }
}

#[cfg(test)]
pub(crate) mod tests;
