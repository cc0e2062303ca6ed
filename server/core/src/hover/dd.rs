//! Double dummy: the Deal's table, par and opening leads, a card's cost,
//! OptimumScore and DoubleDummyTricks against the solver. The results come
//! from the caller's [`DdAnswers`]: the language server answers from its
//! cache and queues what is missing ("solving…" until it is done, never
//! waiting); [`SolveNow`] solves on the spot; [`NoDd`] leaves double dummy
//! out.

use super::HoverInput;
use crate::bridge::side_score;
use crate::bridge::suit_symbol;
use crate::bridge::{self, Strain};
use crate::dd::leads::Leads;
use crate::dd::play::{PlayReport, PlayTrace, Setup};
use crate::dd::verify::{Position, Solved};
use crate::dd::DdError;
use crate::model::typed::{typed, TypedGame};
use crate::model::values;
use crate::model::{Game, Tag};
use std::sync::Arc;

/// A game's play analysis card by card.
pub type PlaySolved = Result<PlayReport, DdError>;
/// A game's opening leads.
pub type LeadsSolved = Result<Leads, DdError>;

/// What a [`DdAnswers`] has for a question.
#[derive(Clone, Debug)]
pub enum DdLookup<T> {
    /// The result (or why it cannot be had).
    Ready(Arc<T>),
    /// Queued or being solved: the hover says "solving…".
    Solving,
    /// No double dummy here: the hover leaves it out.
    Unavailable,
}

/// Where the hover gets double-dummy results: a deal's table and par, a
/// game's play analysis, its opening leads.
pub trait DdAnswers {
    fn table(&self, position: &Position) -> DdLookup<Solved>;
    fn play(&self, trace: &PlayTrace) -> DdLookup<PlaySolved>;
    fn leads(&self, setup: &Setup) -> DdLookup<LeadsSolved>;
}

/// Solves each question on the spot, on the solver's threads (one on
/// wasm): a hover on a Deal solves its 20 results and the opening leads, one
/// on a card the game's play.
pub struct SolveNow;

impl DdAnswers for SolveNow {
    fn table(&self, position: &Position) -> DdLookup<Solved> {
        DdLookup::Ready(Arc::new(position.solve()))
    }

    fn play(&self, trace: &PlayTrace) -> DdLookup<PlaySolved> {
        DdLookup::Ready(Arc::new(crate::dd::play::analyse_play(trace)))
    }

    fn leads(&self, setup: &Setup) -> DdLookup<LeadsSolved> {
        DdLookup::Ready(Arc::new(crate::dd::leads::opening_leads(setup)))
    }
}

/// No double dummy: the hover shows what the file says only.
pub struct NoDd;

impl DdAnswers for NoDd {
    fn table(&self, _: &Position) -> DdLookup<Solved> {
        DdLookup::Unavailable
    }

    fn play(&self, _: &PlayTrace) -> DdLookup<PlaySolved> {
        DdLookup::Unavailable
    }

    fn leads(&self, _: &Setup) -> DdLookup<LeadsSolved> {
        DdLookup::Unavailable
    }
}

/// The double-dummy table and par under the diagram, from [`DdAnswers`]:
/// "solving…" until the deal is solved (the next hover shows it). Nothing
/// for a deal with hands not given; par only for a full deal (not an end
/// position, §3.10).
pub(super) fn dd_section(h: &HoverInput<'_>, game: &Game) -> Option<String> {
    use crate::dd::{DdError, DECLARERS, STRAINS};
    let p = crate::dd::verify::Position::of(game)?;
    if p.hands.iter().any(Option::is_none) {
        return None;
    }
    let solved = match h.dd.table(&p) {
        DdLookup::Solving => return Some("*Double dummy: solving…*".into()),
        DdLookup::Unavailable => return None,
        DdLookup::Ready(r) => r,
    };
    let (table, par) = match solved.as_ref() {
        Err(DdError::MissingHand(_)) => return None,
        Err(e) => return Some(format!("*Double dummy: not solved ({e}).*")),
        Ok(r) => r,
    };
    let mut md = String::from("**Double dummy** (tricks by declarer)\n\n| |");
    for strain in STRAINS {
        match strain {
            Strain::Notrump => md.push_str(" NT |"),
            s => md.push_str(&format!(" {} |", s.suit().map_or('?', suit_symbol))),
        }
    }
    md.push_str("\n|---|---:|---:|---:|---:|---:|");
    for seat in DECLARERS {
        md.push_str(&format!("\n| {} |", seat.letter()));
        for strain in STRAINS {
            md.push_str(&format!(" {} |", table.get(strain, seat)));
        }
    }
    let full = p.hands.iter().flatten().all(|h| h.len() == 13);
    if full {
        md.push_str("\n\n**Par:** ");
        if par.contracts.is_empty() {
            md.push_str("all pass, 0");
        } else {
            md.push_str(&format!(
                "{} ({})",
                par.par_contracts().join(", "),
                side_score(par.score_ns)
            ));
        }
    }
    Some(md)
}

/// The solved table and par of a game's deal when [`DdAnswers`] has them
/// (the Deal hover or the server's background solving asks).
pub(super) fn solved(
    h: &HoverInput<'_>,
    game: &Game,
) -> Option<(crate::dd::DdTable, crate::dd::Par)> {
    let p = crate::dd::verify::Position::of(game)?;
    if p.hands.iter().any(Option::is_none) {
        return None;
    }
    match h.dd.table(&p) {
        DdLookup::Ready(r) => r.as_ref().as_ref().ok().cloned(),
        DdLookup::Solving | DdLookup::Unavailable => None,
    }
}

/// OptimumScore (§4.2.7): the double-dummy score, and the solver's when
/// the deal is solved.
pub(super) fn optimum_score_hover(h: &HoverInput<'_>, game: &Game, tag: &Tag) -> Option<String> {
    let v = values::parse_optimum_score(&tag.value.as_ref()?.raw).value?;
    let ns = match v {
        values::SideScores::Sides { ns, ew, .. } => ns.or(ew.map(|x| -x)),
        values::SideScores::Declarer(_) => None,
    };
    let mut md = match ns {
        Some(ns) => format!(
            "**OptimumScore**: {} with double-dummy play by both sides (§4.2.7)",
            side_score(ns.clamp(-99_999, 99_999) as i32)
        ),
        None => "**OptimumScore**: the double-dummy score, side not given (§4.2.7)".to_owned(),
    };
    if let Some((_, par)) = solved(h, game) {
        let verdict = if ns == Some(i64::from(par.score_ns)) {
            "agrees"
        } else {
            "differs"
        };
        md.push_str(&format!(
            "\n\nSolver: par {} ({}): the value {verdict}",
            par.par_contracts().join(", "),
            side_score(par.score_ns)
        ));
    }
    Some(md)
}

/// DoubleDummyTricks (Bridge Composer): its 20 digits as a table, the
/// solver's verdict when the deal is solved.
pub(super) fn dd_tricks_hover(h: &HoverInput<'_>, game: &Game, tag: &Tag) -> Option<String> {
    use crate::dd::{DECLARERS, STRAINS};
    let raw = tag.value.as_ref()?.raw.as_str();
    let digits: Vec<u32> = raw.chars().filter_map(|c| c.to_digit(16)).collect();
    if digits.len() != 20 || raw.chars().count() != 20 {
        return Some(format!(
            "**DoubleDummyTricks**: 20 hexadecimal digits (tricks for declarer N, S, E, W, each in NT, S, H, D, C), not {raw:?}"
        ));
    }
    let table = solved(h, game).map(|(t, _)| t);
    let mut md = String::from("**DoubleDummyTricks** (Bridge Composer): tricks by declarer\n\n| |");
    for strain in STRAINS {
        md.push_str(&format!(" {} |", bridge::strain_text(strain)));
    }
    md.push_str("\n|---|---:|---:|---:|---:|---:|");
    let mut wrong = Vec::new();
    for (i, seat) in DECLARERS.into_iter().enumerate() {
        md.push_str(&format!("\n| {} |", seat.letter()));
        for (j, strain) in STRAINS.into_iter().enumerate() {
            let stated = digits[i * 5 + j];
            md.push_str(&format!(" {stated} |"));
            if let Some(t) = &table {
                let real = u32::from(t.get(strain, seat));
                if real != stated {
                    wrong.push(format!(
                        "{} {}: {real}",
                        seat.letter(),
                        bridge::strain_text(strain)
                    ));
                }
            }
        }
    }
    match (&table, wrong.is_empty()) {
        (None, _) => {}
        (Some(_), true) => md.push_str("\n\nSolver: every count agrees."),
        (Some(_), false) => md.push_str(&format!("\n\nSolver differs: {}", wrong.join(", "))),
    }
    Some(md)
}

/// What play entry `k` cost double dummy ("solving…" until the game's
/// play is analysed): the tricks of the player's side before and after, and the
/// cards that would have kept them.
pub(super) fn card_dd(h: &HoverInput<'_>, game: &Game, t: &TypedGame, k: usize) -> Option<String> {
    use crate::dd::play::{line_of, PlayEnd};
    let line = line_of(h.text, game, t).ok()?;
    let Some(i) = line.items.iter().position(|&x| x == k) else {
        return match line.end {
            PlayEnd::Stopped { item, why } if item == k => Some(format!(
                "*Double dummy: the analysis stops at this card ({why}).*"
            )),
            _ => None,
        };
    };
    let report = match h.dd.play(&line.trace) {
        DdLookup::Solving => return Some("*Double dummy: solving…*".into()),
        DdLookup::Unavailable => return None,
        DdLookup::Ready(r) => r,
    };
    let r = match report.as_ref() {
        Err(e) => return Some(format!("*Double dummy: not solved ({e}).*")),
        Ok(r) => r,
    };
    let (c, before, after) = (r.cards.get(i)?, *r.tricks.get(i)?, *r.tricks.get(i + 1)?);
    // The tricks are declarer's side's: the side not on lead at trick one.
    let total = line.trace.setup.tricks();
    let declarer_side = line.trace.setup.leader.lho();
    let mine = |n: u8| {
        if bridge::same_side(c.seat, declarer_side) {
            n
        } else {
            total.saturating_sub(n)
        }
    };
    let side = bridge::side_name(c.seat);
    if c.cost == 0 {
        return Some(format!(
            "**Double dummy:** costs nothing ({side} take {} trick(s))",
            mine(after)
        ));
    }
    let better: Vec<String> = c
        .better
        .iter()
        .map(|&b| crate::render::card_text(b))
        .collect();
    Some(format!(
        "**Double dummy:** costs {} trick(s): {side} {} → {}. Would have kept them: {}",
        c.cost,
        mine(before),
        mine(after),
        better.join(" ")
    ))
}

/// The opening leads under the Deal's double-dummy table: the tricks of
/// the leader's side after each lead, from [`DdAnswers`]. Nothing for a game without a contract and opening leader, or
/// whose deal cannot be solved (the table says why).
pub(super) fn leads_section(h: &HoverInput<'_>, game: &Game) -> Option<String> {
    let t = typed(h.text, game);
    let setup = crate::dd::leads::setup_of(&t).ok()?;
    match h.dd.leads(&setup) {
        DdLookup::Solving => Some("*Opening leads: solving…*".into()),
        DdLookup::Unavailable => None,
        DdLookup::Ready(r) => match r.as_ref() {
            Ok(l) => Some(format!(
                "**Opening leads:** {}",
                crate::render::leads_text(l)
            )),
            Err(e) => Some(format!("*Opening leads: not solved ({e}).*")),
        },
    }
}
