//! Opening leads: for a game with a contract, the tricks the defence takes
//! after each card the opening leader may lead (`pons-dds`'s `solve_board`
//! at the first trick, every legal card with its score), grouped by tricks
//! as players read them: `♠K: 5, ♥2 ♥7: 4`.

use super::play::{scored_cards, NoAnalysis, Setup};
use super::DdError;
use crate::model::typed::TypedGame;
use contract_bridge::{Card, Seat, Strain};
use pons_dds::{Objective, Target};

/// The opening leads of a game, best for the defence first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leads {
    pub leader: Seat,
    pub strain: Strain,
    /// Tricks of the defence (the leader's side) over the whole hand, and
    /// the leads that give them, spades first, highest first; groups by
    /// tricks, most first.
    pub groups: Vec<(u8, Vec<Card>)>,
}

impl Leads {
    /// `♠K: 5, ♥7 ♥2: 4` with `card` drawing each card.
    pub fn text(&self, card: impl Fn(Card) -> String) -> String {
        self.groups
            .iter()
            .map(|(tricks, cards)| {
                let cards: Vec<String> = cards.iter().map(|&c| card(c)).collect();
                format!("{}: {tricks}", cards.join(" "))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The setup of a typed game for its opening leads ([`Setup::of`]).
pub fn setup_of(t: &TypedGame) -> Result<Setup, NoAnalysis> {
    Setup::of(t)
}

/// The tricks of the defence after each opening lead.
pub fn opening_leads(setup: &Setup) -> Result<Leads, DdError> {
    let objective = Objective {
        board: setup.board()?,
        target: Target::Legal,
    };
    let found = std::panic::catch_unwind(|| {
        super::engine::solve_boards(std::slice::from_ref(&objective))
            .pop()
            .unwrap_or_default()
    })
    .map_err(|_| DdError::Solver("the solver failed on this deal".into()))?;
    let mut scored = scored_cards(&found);
    scored.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.0.suit.cmp(&a.0.suit))
            .then(b.0.rank.cmp(&a.0.rank))
    });
    let mut groups: Vec<(u8, Vec<Card>)> = Vec::new();
    for (card, tricks) in scored {
        match groups.last_mut() {
            Some((t, cards)) if *t == tricks => cards.push(card),
            _ => groups.push((tricks, vec![card])),
        }
    }
    Ok(Leads {
        leader: setup.leader,
        strain: setup.strain,
        groups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::play::tests::{card, game, END};

    #[test]
    fn the_leads_of_an_end_position() {
        let (_, t) = game(END);
        let leads = opening_leads(&setup_of(&t).unwrap()).unwrap();
        assert_eq!(leads.leader, Seat::North);
        // North-South take 1 trick after the ♥A, none after the ♠2.
        assert_eq!(
            leads.groups,
            vec![(1, vec![card("HA")]), (0, vec![card("S2")])]
        );
        assert_eq!(
            leads.text(|c| crate::bridge::card_word(c).to_owned()),
            "HA: 1, S2: 0"
        );
    }

    #[test]
    fn the_leads_of_a_full_deal_group_equal_cards() {
        // West leads against 7♠ by South; North-South hold every trump and
        // top card: every lead gives the defence nothing, and every card of
        // West's one suit is listed.
        let text = "[Deal \"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n[Declarer \"S\"]\n[Contract \"7S\"]\n";
        let (_, t) = game(text);
        let leads = opening_leads(&setup_of(&t).unwrap()).unwrap();
        assert_eq!(leads.leader, Seat::West);
        assert_eq!(leads.groups.len(), 1, "{leads:?}");
        assert_eq!(leads.groups[0].0, 0);
        assert_eq!(leads.groups[0].1.len(), 13);
        assert_eq!(leads.groups[0].1[0], card("CA"));
    }
}
