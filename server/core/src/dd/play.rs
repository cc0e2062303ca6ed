//! Play analysis card by card: the double-dummy tricks after each card of a
//! game's play section (§3.6) and what each card cost the side that played
//! it.
//!
//! [`line_of`] reads the cards of a game in playing order (the section lists
//! them in columns from the Play tag's seat, §3.6) up to where they can be
//! followed: a `-` or unreadable card with cards after it, a revoke (`^R`,
//! or a card that does not follow suit), a lead out of turn (`^L`) or a card
//! the player does not hold ends the analysable part ([`Stop`]); a `*`
//! before the last trick (a claim), a `+` or trailing `-` (not played yet)
//! end the play. [`analyse_play`] solves the line with `pons-dds`'s
//! `analyse_play` (one search, its transposition table kept along the
//! line), and for each card that gave tricks away solves the position
//! before it (`solve_board`, every legal card with its score) to name the
//! cards that would have kept them. A game that cannot be analysed at all
//! (no full deal or end position, no contract, no declarer) gets a
//! [`NoAnalysis`] reason.

use super::DdError;
use crate::bridge::{self, CardToken, PlayItem, Seat, Strain};
use crate::model::typed::{play_items, TypedGame};
use crate::model::values::ContractValue;
use crate::model::Game;
use contract_bridge::{Card, Hand};
use pons_dds::{Board, CurrentTrick, Objective, Target};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a game's play (or its opening leads) cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoAnalysis {
    /// No readable Deal tag.
    NoDeal,
    /// The Deal cannot be solved (a hand not given, `x` spot cards…).
    Deal(DdError),
    /// No Contract tag with a strain (or an end position's trumps, §3.10).
    NoContract,
    /// The Contract is Pass: nothing was played.
    PassedOut,
    /// Neither a Declarer tag nor an auction names declarer (nor, in an end
    /// position, a Play tag the leader).
    NoLeader,
    /// The game has no play section.
    NoPlay,
}

impl std::fmt::Display for NoAnalysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoAnalysis::NoDeal => f.write_str("the game has no readable Deal"),
            NoAnalysis::Deal(e) => write!(f, "the Deal cannot be solved: {e}"),
            NoAnalysis::NoContract => f.write_str("the game has no contract"),
            NoAnalysis::PassedOut => f.write_str("the board was passed out"),
            NoAnalysis::NoLeader => {
                f.write_str("the opening leader is not known (no declarer, no Play tag)")
            }
            NoAnalysis::NoPlay => f.write_str("the game has no play section"),
        }
    }
}

/// What the solver needs of a game before the first card: the hands, the
/// trumps and the opening leader. Declarer's side is the other side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// By `Seat as usize`: 13 cards each, or the same number below 13 in an
    /// end position (§3.10).
    pub hands: [Hand; 4],
    pub strain: Strain,
    pub leader: Seat,
}

impl Setup {
    /// The setup of a typed game: its Deal, the Contract's strain (or an end
    /// position's trumps) and the opening leader (declarer's left-hand
    /// opponent by the Declarer tag, else the auction; in an end position
    /// the Play tag's seat).
    pub fn of(t: &TypedGame) -> Result<Setup, NoAnalysis> {
        let deal = t.deal.as_ref().ok_or(NoAnalysis::NoDeal)?;
        let d = super::solver_deal(deal).map_err(NoAnalysis::Deal)?;
        let hands = Seat::ALL.map(|s| d[s]);
        let strain = match t.contract.as_ref().map(|c| c.value) {
            Some(ContractValue::Contract(c)) => c.bid.strain,
            Some(ContractValue::EndPosition(s)) => s,
            Some(ContractValue::Pass) => return Err(NoAnalysis::PassedOut),
            Some(ContractValue::Empty) | None => return Err(NoAnalysis::NoContract),
        };
        let declarer = t.declarer_seat();
        let from_play = t.play.as_ref().and_then(|p| p.opening_leader);
        let leader = if deal.is_end_position {
            from_play.or(declarer.map(Seat::lho))
        } else {
            declarer.map(Seat::lho).or(from_play)
        };
        let leader = leader.ok_or(NoAnalysis::NoLeader)?;
        Ok(Setup {
            hands,
            strain,
            leader,
        })
    }

    /// Cards per hand (13, or fewer in an end position).
    pub fn tricks(&self) -> u8 {
        self.hands[0].len() as u8
    }

    /// The board at the first trick, for the solver.
    pub(crate) fn board(&self) -> Result<Board, DdError> {
        let mut b = contract_bridge::deal::Builder::default();
        for s in Seat::ALL {
            b[s] = self.hands[s as usize];
        }
        let partial = b.build_partial().map_err(|_| DdError::DuplicateCard)?;
        Board::try_new(partial, CurrentTrick::new(self.strain, self.leader))
            .map_err(|e| DdError::Solver(e.to_string()))
    }
}

/// The cards of a play in playing order: what [`analyse_play`] solves (the
/// key the language server caches play analyses under).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayTrace {
    pub setup: Setup,
    pub cards: Vec<Card>,
}

/// Why the analysable cards end before the play section does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A card is not known (`-` or unreadable) and cards follow it.
    UnknownCard,
    /// A revoke: marked `^R`, or a card that does not follow suit (§3.9 C).
    Revoke,
    /// A lead out of turn (`^L`, §3.9 D), or a trick whose leader is not
    /// the winner of the previous one.
    LeadOutOfTurn,
    /// The player does not hold the card (or played it before).
    NotHeld,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::UnknownCard => "an unknown card",
            Stop::Revoke => "a revoke (§3.9 C)",
            Stop::LeadOutOfTurn => "a lead out of turn (§3.9 D)",
            Stop::NotHeld => "a card the player does not hold",
        })
    }
}

/// How the analysed cards end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayEnd {
    /// Every trick is played.
    Complete,
    /// `*` before the last trick: the rest was claimed or conceded.
    Claimed,
    /// The play stops (`+`, a trailing `-`, or simply no more cards).
    NotPlayed,
    /// The analysis stops at play item `item` (an index into the section's
    /// entries) for this reason; the cards before it are analysed.
    Stopped { item: usize, why: Stop },
}

/// A game's play, read for the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayLine {
    pub trace: PlayTrace,
    /// The play entry (index into `Play::entries`) of each card of the trace.
    pub items: Vec<usize>,
    pub end: PlayEnd,
}

/// The analysable cards of `g`'s play section in playing order.
pub fn line_of(src: &str, g: &Game, t: &TypedGame) -> Result<PlayLine, NoAnalysis> {
    let setup = Setup::of(t)?;
    let p = g.play.as_ref().ok_or(NoAnalysis::NoPlay)?;
    let an = t.play.as_ref().ok_or(NoAnalysis::NoPlay)?;
    let (items, _) = play_items(src, p);
    let mut replay = Replay::new(&setup);
    let mut cards = Vec::new();
    let mut entries = Vec::new();
    let has_card_after = |k: usize| {
        items[k + 1..]
            .iter()
            .any(|i| matches!(i.token, CardToken::Card(_) | CardToken::Invalid))
    };
    let mut end = PlayEnd::NotPlayed;
    'tricks: for trick in &an.tricks {
        let leader = replay.leader;
        for j in 0..4 {
            let seat = bridge::rotate(leader, j);
            let Some(k) = trick.cards[seat as usize] else {
                break 'tricks;
            };
            let item: PlayItem = items[k];
            let stop = |why| PlayEnd::Stopped { item: k, why };
            let card = match item.token {
                CardToken::Card(c) => c,
                CardToken::Dash | CardToken::Invalid if has_card_after(k) => {
                    end = stop(Stop::UnknownCard);
                    break 'tricks;
                }
                _ => break 'tricks,
            };
            if item.lead_out_of_turn_marked || (j == 0 && trick.leader != Some(leader)) {
                end = stop(Stop::LeadOutOfTurn);
                break 'tricks;
            }
            match replay.check(card) {
                Some(why) => {
                    end = stop(why);
                    break 'tricks;
                }
                None if item.revoke_marked => {
                    end = stop(Stop::Revoke);
                    break 'tricks;
                }
                None => {}
            }
            replay.play(card);
            cards.push(card);
            entries.push(k);
        }
    }
    if end == PlayEnd::NotPlayed {
        if cards.len() == 4 * setup.tricks() as usize {
            end = PlayEnd::Complete;
        } else if an.terminated {
            end = PlayEnd::Claimed;
        }
    }
    Ok(PlayLine {
        trace: PlayTrace { setup, cards },
        items: entries,
        end,
    })
}

/// The replay of a trace: the cards left, the trick on the table.
struct Replay {
    hands: [Hand; 4],
    strain: Strain,
    leader: Seat,
    table: Vec<Card>,
}

impl Replay {
    fn new(s: &Setup) -> Replay {
        Replay {
            hands: s.hands,
            strain: s.strain,
            leader: s.leader,
            table: Vec::with_capacity(4),
        }
    }

    fn seat(&self) -> Seat {
        bridge::rotate(self.leader, self.table.len())
    }

    /// Why the player on turn cannot play `card`, if he cannot.
    fn check(&self, card: Card) -> Option<Stop> {
        let hand = self.hands[self.seat() as usize];
        if !hand.contains(card) {
            return Some(Stop::NotHeld);
        }
        let led = self.table.first().map(|c| c.suit);
        match led {
            Some(s) if card.suit != s && !hand[s].is_empty() => Some(Stop::Revoke),
            _ => None,
        }
    }

    fn play(&mut self, card: Card) {
        let seat = self.seat();
        self.hands[seat as usize].remove(card);
        self.table.push(card);
        if self.table.len() == 4 {
            let led = self.table[0].suit;
            let trump = self.strain.suit();
            let key = |c: &Card| {
                let class = if Some(c.suit) == trump {
                    2
                } else if c.suit == led {
                    1
                } else {
                    0
                };
                (class, c.rank)
            };
            let best = (0..4).max_by_key(|&i| key(&self.table[i])).unwrap_or(0);
            self.leader = bridge::rotate(self.leader, best);
            self.table.clear();
        }
    }

    /// The position before the next card, for the solver.
    fn board(&self) -> Result<Board, DdError> {
        let mut b = contract_bridge::deal::Builder::default();
        for s in Seat::ALL {
            b[s] = self.hands[s as usize];
        }
        let partial = b.build_partial().map_err(|_| DdError::DuplicateCard)?;
        let trick = CurrentTrick::from_slice(self.strain, self.leader, &self.table)
            .map_err(|e| DdError::Solver(e.to_string()))?;
        Board::try_new(partial, trick).map_err(|e| DdError::Solver(e.to_string()))
    }
}

/// One card of an analysed play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardCost {
    pub card: Card,
    pub seat: Seat,
    /// Tricks the card gave away to the other side, double dummy (0 for
    /// most cards).
    pub cost: u8,
    /// When `cost > 0`: the cards that would have kept the tricks, in suit
    /// and rank order.
    pub better: Vec<Card>,
}

/// The double-dummy analysis of a play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayReport {
    /// Tricks of declarer's side (the side not on lead at the first trick)
    /// over the whole hand, with best play from there on: before the first
    /// card, then after each card.
    pub tricks: Vec<u8>,
    /// Each card of the trace with what it cost.
    pub cards: Vec<CardCost>,
}

impl PlayReport {
    /// The cards that cost tricks.
    pub fn costly(&self) -> impl Iterator<Item = (usize, &CardCost)> {
        self.cards.iter().enumerate().filter(|(_, c)| c.cost > 0)
    }
}

/// Runs `f` catching the solver's panics.
fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, DdError> {
    catch_unwind(AssertUnwindSafe(f))
        .map_err(|_| DdError::Solver("the solver failed on this position".into()))
}

/// The cards of a solver's answer with their scores, each card of a
/// sequence (`equals`) listed.
pub(crate) fn scored_cards(found: &pons_dds::FoundPlays) -> Vec<(Card, u8)> {
    let mut out = Vec::new();
    for p in &found.plays {
        out.push((p.card, p.score.get()));
        for rank in p.equals.iter() {
            if rank != p.card.rank {
                out.push((
                    Card {
                        suit: p.card.suit,
                        rank,
                    },
                    p.score.get(),
                ));
            }
        }
    }
    out
}

/// Every legal card of the player on turn with the tricks his side takes
/// from this position on; solved on the solver's own threads.
fn solve_positions(boards: Vec<Board>) -> Result<Vec<Vec<(Card, u8)>>, DdError> {
    let objectives: Vec<Objective> = boards
        .into_iter()
        .map(|board| Objective {
            board,
            target: Target::Legal,
        })
        .collect();
    let found = guarded(|| super::engine::solve_boards(&objectives))?;
    Ok(found.iter().map(scored_cards).collect())
}

/// The double-dummy analysis of a trace: tricks after each card, each
/// card's cost, and for each costly card the cards that would have kept
/// the tricks.
pub fn analyse_play(trace: &PlayTrace) -> Result<PlayReport, DdError> {
    let board = trace.setup.board()?;
    // Replayed first: the solver panics on an illegal card.
    let mut replay = Replay::new(&trace.setup);
    let mut seats = Vec::with_capacity(trace.cards.len());
    for &c in &trace.cards {
        if replay.check(c).is_some() || trace.cards.len() > 52 {
            return Err(DdError::Solver(format!(
                "{} cannot be played here",
                bridge::card_word(c)
            )));
        }
        seats.push(replay.seat());
        replay.play(c);
    }
    let pons_trace = pons_dds::PlayTrace {
        board,
        cards: trace.cards.iter().copied().collect(),
    };
    let analysis = guarded(|| super::engine::analyse_plays(std::slice::from_ref(&pons_trace)))?;
    let tricks: Vec<u8> = analysis
        .first()
        .map(|a| a.tricks.iter().map(|t| t.get()).collect())
        .unwrap_or_default();
    if tricks.len() != trace.cards.len() + 1 {
        return Err(DdError::Solver("the play analysis is incomplete".into()));
    }
    let declarer_side = trace.setup.leader.lho();
    let mut cards: Vec<CardCost> = trace
        .cards
        .iter()
        .zip(&seats)
        .enumerate()
        .map(|(i, (&card, &seat))| {
            let (before, after) = (tricks[i], tricks[i + 1]);
            let cost = if bridge::same_side(seat, declarer_side) {
                before.saturating_sub(after)
            } else {
                after.saturating_sub(before)
            };
            CardCost {
                card,
                seat,
                cost,
                better: Vec::new(),
            }
        })
        .collect();
    // The positions before the costly cards, solved together.
    let mut replay = Replay::new(&trace.setup);
    let mut boards = Vec::new();
    let mut costly = Vec::new();
    for (i, c) in cards.iter().enumerate() {
        if c.cost > 0 {
            boards.push(replay.board()?);
            costly.push(i);
        }
        replay.play(c.card);
    }
    for (i, scored) in costly.into_iter().zip(solve_positions(boards)?) {
        let best = scored.iter().map(|&(_, s)| s).max().unwrap_or(0);
        let mut better: Vec<Card> = scored
            .iter()
            .filter(|&&(_, s)| s == best)
            .map(|&(c, _)| c)
            .collect();
        better.sort_by(|a, b| b.suit.cmp(&a.suit).then(b.rank.cmp(&a.rank)));
        cards[i].better = better;
    }
    Ok(PlayReport { tricks, cards })
}

/// The play line of a game and its analysis, or why there is none: the
/// one entry point of the views (hover, inlay hints, `pbn show`, `pbn html`,
/// `pbn dd --play`).
pub fn analyse_game(
    src: &str,
    g: &Game,
    t: &TypedGame,
) -> Result<(PlayLine, Result<PlayReport, DdError>), NoAnalysis> {
    let line = line_of(src, g, t)?;
    let report = analyse_play(&line.trace);
    Ok((line, report))
}

// ---- `pbn dd --play`: the analysis as commentary -------------------------

/// The comment written after a costly card (§3.8, suits as `\S` `\H` `\D`
/// `\C`): `{DD -1: better \SK \SQ}`.
pub fn cost_comment(c: &CardCost) -> String {
    let mut s = format!("{{DD -{}: better", c.cost);
    for &b in &c.better {
        s.push_str(" \\");
        s.push_str(bridge::card_word(b));
    }
    s.push('}');
    s
}

/// Whether `text` is a comment [`cost_comment`] writes.
pub fn is_cost_comment(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("{DD -").and_then(|r| r.strip_suffix('}')) else {
        return false;
    };
    let Some((n, cards)) = rest.split_once(": better") else {
        return false;
    };
    !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && !cards.is_empty()
        && cards.split(' ').skip(1).all(|c| {
            c.strip_prefix('\\')
                .and_then(crate::spec::cards::canonical)
                .is_some_and(|k| c[1..] == *k)
        })
        && cards.starts_with(' ')
}

/// What [`annotate`] did to one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotatedGame {
    /// 0-based game index.
    pub game: usize,
    /// Byte offset of the game (for file:line:column).
    pub offset: usize,
    /// Why the play was not analysed (the game is left as it is).
    pub skipped: Option<String>,
    /// Cards that cost tricks.
    pub costly: usize,
    /// How the analysed cards end.
    pub end: Option<PlayEnd>,
    /// Replacements: the comments added, changed or removed.
    pub edits: Vec<super::fill::Edit>,
}

/// The whole file after [`annotate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotated {
    pub text: String,
    /// Every game with a play section, in order.
    pub games: Vec<AnnotatedGame>,
}

/// The edits that put a [`cost_comment`] after each costly card of `g` and
/// take away the ones this function wrote before and no longer holds
/// (so a second run changes nothing). Nothing else is touched.
pub fn annotate_game(src: &str, g: &Game) -> Option<AnnotatedGame> {
    let p = g.play.as_ref()?;
    let mut out = AnnotatedGame {
        game: g.index,
        offset: g.range.start,
        skipped: None,
        costly: 0,
        end: None,
        edits: Vec::new(),
    };
    if g.syntax_error {
        out.skipped = Some("the game has a syntax error".into());
        return Some(out);
    }
    let t = crate::model::typed::typed(src, g);
    let (line, report) = match analyse_game(src, g, &t) {
        Ok((line, Ok(r))) => (line, r),
        Ok((_, Err(e))) => {
            out.skipped = Some(e.to_string());
            return Some(out);
        }
        Err(e) => {
            out.skipped = Some(e.to_string());
            return Some(out);
        }
    };
    out.end = Some(line.end);
    let mut wanted: Vec<Option<String>> = vec![None; p.entries.len()];
    for (i, c) in report.costly() {
        out.costly += 1;
        if let Some(w) = line.items.get(i).and_then(|&k| wanted.get_mut(k)) {
            *w = Some(cost_comment(c));
        }
    }
    for (k, e) in p.entries.iter().enumerate() {
        let end = e
            .post()
            .iter()
            .map(|a| a.range.end)
            .fold(e.range.end, usize::max);
        // Ours: a brace comment after one space.
        let ours = g.comments.iter().find(|c| {
            c.range.start == end + 1
                && src.as_bytes().get(end) == Some(&b' ')
                && src.get(c.range.clone()).is_some_and(is_cost_comment)
        });
        let have = ours.and_then(|c| src.get(c.range.clone()));
        match (&wanted[k], ours) {
            (Some(w), _) if have == Some(w.as_str()) => {}
            (Some(w), Some(c)) => out.edits.push(super::fill::Edit {
                range: c.range.clone(),
                text: w.clone(),
            }),
            (Some(w), None) => out.edits.push(super::fill::Edit {
                range: end..end,
                text: format!(" {w}"),
            }),
            (None, Some(c)) => out.edits.push(super::fill::Edit {
                range: end..c.range.end,
                text: String::new(),
            }),
            (None, None) => {}
        }
    }
    Some(out)
}

/// `pbn dd --play`: [`annotate_game`] on every game, on every core.
pub fn annotate(doc: &crate::model::Document, src: &str) -> Annotated {
    let games: Vec<AnnotatedGame> = crate::par::map(&doc.games, |g| annotate_game(src, g))
        .into_iter()
        .flatten()
        .collect();
    let text = super::fill::apply_edits(src, games.iter().flat_map(|g| &g.edits));
    Annotated { text, games }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::typed::typed;
    use contract_bridge::{Rank, Suit};

    /// The typed first game of `text` and the game.
    pub(crate) fn game(text: &str) -> (Game, TypedGame) {
        let tree = crate::syntax::parse_pieces(text);
        let doc = crate::model::lower(&tree, text);
        let g = doc.games.into_iter().next().expect("a game");
        let t = typed(text, &g);
        (g, t)
    }

    pub(crate) fn card(s: &str) -> Card {
        let suit = match &s[..1] {
            "S" => Suit::Spades,
            "H" => Suit::Hearts,
            "D" => Suit::Diamonds,
            _ => Suit::Clubs,
        };
        let rank = "23456789TJQKA".find(&s[1..2]).expect("rank") as u8 + 2;
        Card {
            suit,
            rank: Rank::new(rank),
        }
    }

    fn analysed(text: &str) -> (PlayLine, PlayReport) {
        let (g, t) = game(text);
        let (line, report) = analyse_game(text, &g, &t).expect("analysable");
        (line, report.expect("solved"))
    }

    /// Spades trumps, North to lead, two cards each. N ♠2 ♥A, E ♥KQ,
    /// S ♦A2, W ♠3 ♣2. Leading the ♥A keeps a trick for North-South (West
    /// ruffs, North ruffs the club back); leading the ♠2 loses both (West
    /// overtrumps, and the ♥A cannot win the club return).
    pub(crate) const END: &str = "[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2 HQ D2 S3\nHA HK DA C2\n";

    #[test]
    fn a_trump_lead_in_an_end_position_costs_a_trick() {
        let (line, r) = analysed(END);
        assert_eq!(line.end, PlayEnd::Complete);
        assert_eq!(line.trace.setup.leader, Seat::North);
        // East-West (not on lead) take 1 trick, then 2 after the ♠2.
        assert_eq!(r.tricks, vec![1, 2, 2, 2, 2, 2, 2, 2, 2]);
        let costly: Vec<_> = r.costly().collect();
        assert_eq!(costly.len(), 1, "{r:?}");
        let (i, c) = costly[0];
        assert_eq!((i, c.card, c.seat, c.cost), (0, card("S2"), Seat::North, 1));
        assert_eq!(c.better, vec![card("HA")]);
        // The play entry of each card, in playing order: the second trick
        // is led by West (the fourth column).
        assert_eq!(line.items, vec![0, 1, 2, 3, 7, 4, 5, 6]);
    }

    #[test]
    fn best_play_costs_nothing() {
        let text = END.replace("S2 HQ D2 S3\nHA HK DA C2", "HA HQ D2 S3\nS2 HK DA C2");
        let (line, r) = analysed(&text);
        assert_eq!(line.end, PlayEnd::Complete);
        assert_eq!(r.tricks[0], 1);
        assert_eq!(r.costly().count(), 0, "{r:?}");
    }

    #[test]
    fn a_full_deal_along_a_complete_first_trick() {
        // North holds every spade: 13 tricks in spades whatever is played.
        let text = "[Deal \"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n[Declarer \"N\"]\n[Contract \"7S\"]\n[Play \"E\"]\nHA D2 C2 S2\n*\n";
        let (line, r) = analysed(text);
        assert_eq!(line.end, PlayEnd::Claimed);
        assert_eq!(r.tricks, vec![13; 5]);
        assert_eq!(r.costly().count(), 0);
    }

    #[test]
    fn the_play_stops_where_it_cannot_be_followed() {
        let cases = [
            // A `-` with a card after it: unknown.
            (
                "- HQ D2 S3\nHA HK DA C2",
                PlayEnd::Stopped {
                    item: 0,
                    why: Stop::UnknownCard,
                },
                0,
            ),
            // East's ♥Q marked as a revoke.
            (
                "S2 ^R HQ D2 S3\nHA HK DA C2",
                PlayEnd::Stopped {
                    item: 1,
                    why: Stop::Revoke,
                },
                1,
            ),
            // West leads the second trick out of turn... marked.
            (
                "S2 HQ D2 S3\nHA HK DA ^L C2",
                PlayEnd::Stopped {
                    item: 7,
                    why: Stop::LeadOutOfTurn,
                },
                4,
            ),
            // North does not hold the ♠A.
            (
                "SA HQ D2 S3",
                PlayEnd::Stopped {
                    item: 0,
                    why: Stop::NotHeld,
                },
                0,
            ),
            // A `+`: the rest is not played yet.
            ("S2 HQ D2 S3\n+", PlayEnd::NotPlayed, 4),
            // Trailing `-`: not played yet.
            ("S2 HQ - -", PlayEnd::NotPlayed, 2),
            // A claim.
            ("S2 HQ D2 S3\n*", PlayEnd::Claimed, 4),
        ];
        for (play, end, n) in cases {
            let text = END.replace("S2 HQ D2 S3\nHA HK DA C2", play);
            let (g, t) = game(&text);
            let (line, report) = analyse_game(&text, &g, &t).expect("analysable");
            assert_eq!((line.end, line.trace.cards.len()), (end, n), "{play}");
            let report = report.expect("the cards before the stop are solved");
            assert_eq!(report.cards.len(), n, "{play}");
        }
    }

    #[test]
    fn games_that_cannot_be_analysed_say_why() {
        let cases = [
            ("[Contract \"4S\"]\n[Declarer \"N\"]\n[Play \"E\"]\nSA\n", NoAnalysis::NoDeal),
            ("[Deal \"N:AKQ... - - -\"]\n[Contract \"S\"]\n[Play \"N\"]\nSA\n", NoAnalysis::Deal(DdError::MissingHand(Seat::East))),
            ("[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Play \"N\"]\nS2\n", NoAnalysis::NoContract),
            ("[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Contract \"Pass\"]\n", NoAnalysis::PassedOut),
            ("[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Declarer \"W\"]\n[Contract \"S\"]\n", NoAnalysis::NoPlay),
            ("[Deal \"N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432\"]\n[Contract \"7S\"]\n", NoAnalysis::NoLeader),
            ("[Deal \"N:Axx.A.. .KQ.. ..A2. 3...2\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2\n", NoAnalysis::Deal(DdError::SpotCards(Seat::North))),
        ];
        for (text, why) in cases {
            let (g, t) = game(text);
            let got = analyse_game(text, &g, &t).err();
            assert_eq!(got.as_ref(), Some(&why), "{text}");
            assert!(!why.to_string().is_empty());
        }
    }

    fn annotated(text: &str) -> Annotated {
        let tree = crate::syntax::parse_pieces(text);
        let doc = crate::model::lower(&tree, text);
        annotate(&doc, text)
    }

    #[test]
    fn the_costly_card_gets_a_comment_and_a_second_run_changes_nothing() {
        let once = annotated(END);
        assert_eq!(
            once.text,
            END.replace("S2 HQ", "S2 {DD -1: better \\HA} HQ")
        );
        assert_eq!(once.games[0].costly, 1);
        let twice = annotated(&once.text);
        assert_eq!(twice.text, once.text);
        assert!(twice.games[0].edits.is_empty());
    }

    #[test]
    fn a_stale_comment_of_ours_goes_and_other_comments_stay() {
        // The best lead now: our old comment goes, the user's stays.
        let text = END.replace(
            "S2 HQ D2 S3\nHA HK DA C2",
            "HA {DD -1: better \\S2} {mine} HQ D2 S3\nS2 {DD -2} HK DA C2",
        );
        let out = annotated(&text);
        assert_eq!(
            out.text,
            END.replace(
                "S2 HQ D2 S3\nHA HK DA C2",
                "HA {mine} HQ D2 S3\nS2 {DD -2} HK DA C2"
            )
        );
    }

    #[test]
    fn our_comments_are_recognised_strictly() {
        assert!(is_cost_comment("{DD -1: better \\HA}"));
        assert!(is_cost_comment("{DD -12: better \\HA \\ST}"));
        for other in [
            "{DD -1}",
            "{DD -1: better}",
            "{DD -x: better \\HA}",
            "{DD -1: better \\H1}",
            "{DD -1: better HA}",
            "{dd -1: better \\HA}",
        ] {
            assert!(!is_cost_comment(other), "{other}");
        }
    }
}
