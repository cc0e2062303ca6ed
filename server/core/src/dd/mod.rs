//! Double-dummy analysis: the 20-result trick table of a deal and its par.
//!
//! # The boundary
//!
//! The solver is `pons-dds`, a line-by-line Rust port of Bo Haglund and
//! Soren Hein's DDS 2.9, the solver every serious bridge program uses. Only
//! this module and the play analyses beside it name `pons_dds`: the rest of
//! the project sees [`DdTable`], [`Par`], [`ParContract`] and the errors of
//! [`solve_table`], built from the core's own [`Deal`] and
//! `contract-bridge` seats and strains. Every call into the solver runs
//! after this module's own validation ([`solver_deal`]) and under
//! `catch_unwind`, so no input makes the checker panic.
//!
//! - [`solve_table`]: tricks for each strain and declarer. A full deal goes
//!   through `solve_deal` (its five strains on the solver's pool of
//!   threads, one per core or `RAYON_NUM_THREADS`); an end position
//!   (§3.10, four hands of the same size below 13) through 20 single-board
//!   solves with declarer's left-hand opponent on lead. [`solve_tables`]:
//!   many full deals, each whole on one worker with that worker's solver
//!   (`crate::par::threads` workers, taking the next deal when done).
//!   [`solve_hands_one_thread`]: the same on the calling thread only.
//! - [`par`]: DDS's `DealerPar` (par contracts and score following the
//!   vulnerability and the dealer, sacrifices included).
//! - [`verify`]: `pbn check --dd` — compares DoubleDummyTricks,
//!   OptimumResultTable, ParContract and OptimumScore with the solver.
//! - The PBN forms of the results: [`DdTable::double_dummy_tricks`],
//!   [`Par::optimum_score`], [`Par::par_contracts`].

pub mod fill;
pub mod leads;
pub mod play;
pub mod verify;

use crate::bridge::seat_name;
use crate::model::values::Deal;
use contract_bridge::deal::{Builder, FullDeal, PartialDeal};
use contract_bridge::{AbsoluteVulnerability, Seat, Strain};
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Strains in the order of DoubleDummyTricks and OptimumResultTable rows:
/// NT, S, H, D, C.
pub const STRAINS: [Strain; 5] = [
    Strain::Notrump,
    Strain::Spades,
    Strain::Hearts,
    Strain::Diamonds,
    Strain::Clubs,
];

/// Declarers in the order of DoubleDummyTricks (BridgeComposer's): N, S, E, W.
pub const DECLARERS: [Seat; 4] = [Seat::North, Seat::South, Seat::East, Seat::West];

/// The stack a thread needs to call [`solve_hands_one_thread`]: the
/// solver's search recurses deep with large frames (`pons-dds` gives its
/// own workers this much; a thread's default 2 MiB overflows, which
/// aborts the process).
pub const SOLVER_STACK_SIZE: usize = 16 << 20;

/// Tricks each declarer takes in each strain, double dummy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DdTable {
    /// Indexed by `Strain as usize` (C, D, H, S, NT), then `Seat as usize`
    /// (N, E, S, W).
    pub tricks: [[u8; 4]; 5],
}

impl DdTable {
    pub fn get(&self, strain: Strain, declarer: Seat) -> u8 {
        self.tricks[strain as usize][declarer as usize]
    }

    /// The DoubleDummyTricks value: 20 hexadecimal digits, declarers N, S, E,
    /// W, each with NT, S, H, D, C (BridgeComposer's form).
    pub fn double_dummy_tricks(&self) -> String {
        let mut s = String::with_capacity(20);
        for seat in DECLARERS {
            for strain in STRAINS {
                let t = self.get(strain, seat);
                s.push(char::from_digit(u32::from(t), 16).unwrap_or('?'));
            }
        }
        s
    }

    fn of(t: pons_dds::TrickCountTable) -> DdTable {
        let mut tricks = [[0u8; 4]; 5];
        for strain in STRAINS {
            for seat in Seat::ALL {
                tricks[strain as usize][seat as usize] = t[strain].get(seat).get();
            }
        }
        DdTable { tricks }
    }
}

/// Why a deal cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DdError {
    /// A hand is not given (`-`).
    MissingHand(Seat),
    /// A hand has `x` spot cards (unknown ranks).
    SpotCards(Seat),
    /// The hands do not all have the same number of cards.
    UnequalHands,
    /// No cards at all.
    Empty,
    /// A card is in two hands.
    DuplicateCard,
    /// The solver rejected the deal (its message).
    Solver(String),
}

impl std::fmt::Display for DdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DdError::MissingHand(s) => write!(f, "the hand of {} is not given", seat_name(*s)),
            DdError::SpotCards(s) => {
                write!(f, "the hand of {} has `x` spot cards", seat_name(*s))
            }
            DdError::UnequalHands => f.write_str("the hands have different numbers of cards"),
            DdError::Empty => f.write_str("the deal has no cards"),
            DdError::DuplicateCard => f.write_str("a card is in two hands"),
            DdError::Solver(m) => write!(f, "the solver failed: {m}"),
        }
    }
}

thread_local! {
    /// The calling thread's solver for [`solve_hands_one_thread`]: its
    /// transposition table is allocated once per thread.
    static SOLVER: RefCell<Option<pons_dds::Solver>> = const { RefCell::new(None) };
}

/// The solver's batch entry points. Natively they run on `pons-dds`'s
/// pool of threads; on wasm, which has no threads (the pool would panic),
/// each runs on the calling thread's own solver, one task after another.
pub(crate) mod engine {
    use pons_dds::{FoundPlays, FullDeal, Objective, PlayAnalysis, PlayTrace, TrickCountTable};

    /// `f` with this thread's solver (made on first use, kept with its
    /// transposition table for the thread's next deals).
    fn on_solver<R>(f: impl FnOnce(&mut pons_dds::Solver) -> R) -> R {
        super::SOLVER.with(|cell| {
            let mut slot = cell.borrow_mut();
            f(slot.get_or_insert_with(|| pons_dds::Solver::new(contract_bridge::Strain::Notrump)))
        })
    }

    pub fn solve_deal(deal: FullDeal) -> TrickCountTable {
        #[cfg(target_family = "wasm")]
        return on_solver(|s| pons_dds::solve_deal_on(s, deal));
        #[cfg(not(target_family = "wasm"))]
        pons_dds::solve_deal(deal)
    }

    /// A batch: each deal whole on one worker, with that worker's solver,
    /// every core taking the next deal when done (`par::map`). Cheaper in
    /// CPU than pons-dds's `solve_deals`, which splits each deal's strains
    /// over threads (BENCHMARKS.md, double-dummy tables), and never idle
    /// at a batch's end but for the last deal.
    pub fn solve_deals(deals: &[FullDeal]) -> Vec<TrickCountTable> {
        #[cfg(target_family = "wasm")]
        return deals.iter().map(|&d| solve_deal(d)).collect();
        #[cfg(not(target_family = "wasm"))]
        crate::par::map_on_stacks(deals, Some(super::SOLVER_STACK_SIZE), |&d| {
            on_solver(|s| pons_dds::solve_deal_on(s, d))
        })
    }

    pub fn solve_boards(objectives: &[Objective]) -> Vec<FoundPlays> {
        #[cfg(target_family = "wasm")]
        return on_solver(|s| objectives.iter().map(|o| s.solve_board(o)).collect());
        #[cfg(not(target_family = "wasm"))]
        pons_dds::solve_boards(objectives)
    }

    pub fn analyse_plays(traces: &[PlayTrace]) -> Vec<PlayAnalysis> {
        #[cfg(target_family = "wasm")]
        return on_solver(|s| traces.iter().map(|t| s.analyse_play(t)).collect());
        #[cfg(not(target_family = "wasm"))]
        pons_dds::analyse_plays(traces)
    }
}

/// Runs `f`, turning a panic into [`DdError::Solver`].
pub(crate) fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, DdError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown error".into());
        DdError::Solver(msg)
    })
}

/// The model's deal as the solver takes it (`contract_bridge`'s
/// [`PartialDeal`]: a full deal widens to one, and [`FullDeal::try_from`]
/// narrows it back), after this module's validation: every hand given,
/// no `x` spot cards, all of the same size, no card twice, some cards.
pub(crate) fn solver_deal(deal: &Deal) -> Result<PartialDeal, DdError> {
    solver_deal_of(&deal.hands, &deal.spot_cards)
}

/// [`solver_deal`] from the hands (indexed by `Seat as usize`) and their
/// `x` spot-card counts.
fn solver_deal_of(
    hands: &[Option<contract_bridge::Hand>; 4],
    spot_cards: &[usize; 4],
) -> Result<PartialDeal, DdError> {
    let mut b = Builder::default();
    let mut size = None;
    for seat in Seat::ALL {
        let Some(hand) = hands[seat as usize] else {
            return Err(DdError::MissingHand(seat));
        };
        if spot_cards[seat as usize] > 0 {
            return Err(DdError::SpotCards(seat));
        }
        let n = hand.len();
        if *size.get_or_insert(n) != n {
            return Err(DdError::UnequalHands);
        }
        b[seat] = hand;
    }
    if size.unwrap_or(0) == 0 {
        return Err(DdError::Empty);
    }
    b.build_partial().map_err(|_| DdError::DuplicateCard)
}

/// Solves a deal: the tricks of each declarer in each strain. A full deal
/// or an end position (§3.10: four hands of the same size).
pub fn solve_table(deal: &Deal) -> Result<DdTable, DdError> {
    solve_hands(&deal.hands, &deal.spot_cards)
}

/// [`solve_table`] from the hands (indexed by `Seat as usize`) and their
/// `x` spot-card counts.
pub fn solve_hands(
    hands: &[Option<contract_bridge::Hand>; 4],
    spot_cards: &[usize; 4],
) -> Result<DdTable, DdError> {
    let deal = solver_deal_of(hands, spot_cards)?;
    match FullDeal::try_from(deal) {
        Ok(full) => guarded(|| DdTable::of(engine::solve_deal(full))),
        Err(_) => {
            let objectives = end_position_objectives(deal)?;
            let found = guarded(|| engine::solve_boards(&objectives))?;
            Ok(end_position_table(deal, &found))
        }
    }
}

/// [`solve_hands`] on the calling thread only, for background work that
/// must leave the other cores to what a user waits for. The thread needs a
/// stack of [`SOLVER_STACK_SIZE`].
pub fn solve_hands_one_thread(
    hands: &[Option<contract_bridge::Hand>; 4],
    spot_cards: &[usize; 4],
) -> Result<DdTable, DdError> {
    let deal = solver_deal_of(hands, spot_cards)?;
    let full = FullDeal::try_from(deal).ok();
    let objectives = match full {
        Some(_) => Vec::new(),
        None => end_position_objectives(deal)?,
    };
    let solved = guarded(|| {
        SOLVER.with(|cell| {
            let mut slot = cell.borrow_mut();
            let solver = slot.get_or_insert_with(|| pons_dds::Solver::new(Strain::Notrump));
            match full {
                Some(full) => DdTable::of(pons_dds::solve_deal_on(solver, full)),
                None => {
                    let found: Vec<_> = objectives.iter().map(|o| solver.solve_board(o)).collect();
                    end_position_table(deal, &found)
                }
            }
        })
    });
    if solved.is_err() {
        // A solver interrupted by a panic starts afresh.
        SOLVER.with(|cell| cell.replace(None));
    }
    solved
}

/// The 20 boards of an end position: each strain, and each declarer's
/// left-hand opponent on lead, in the order of [`end_position_table`].
fn end_position_objectives(deal: PartialDeal) -> Result<Vec<pons_dds::Objective>, DdError> {
    let mut out = Vec::with_capacity(20);
    for strain in STRAINS {
        for declarer in Seat::ALL {
            let trick = pons_dds::CurrentTrick::new(strain, declarer.lho());
            let board = pons_dds::Board::try_new(deal, trick)
                .map_err(|e| DdError::Solver(e.to_string()))?;
            out.push(pons_dds::Objective {
                board,
                target: pons_dds::Target::Legal,
            });
        }
    }
    Ok(out)
}

/// The table of an end position from its boards' solutions: declarer takes
/// the tricks the opening lead's best card leaves.
fn end_position_table(deal: PartialDeal, found: &[pons_dds::FoundPlays]) -> DdTable {
    let n = (deal.len() / 4) as u8;
    let mut tricks = [[0u8; 4]; 5];
    let mut found = found.iter();
    for strain in STRAINS {
        for declarer in Seat::ALL {
            let defence = found
                .next()
                .and_then(|f| f.plays.iter().map(|p| p.score.get()).max())
                .unwrap_or(0);
            tricks[strain as usize][declarer as usize] = n.saturating_sub(defence);
        }
    }
    DdTable { tricks }
}

/// Solves many full deals at once on every core; `None` for a deal that is
/// not a full 52-card deal.
pub fn solve_tables(deals: &[Deal]) -> Vec<Option<DdTable>> {
    let mut idx = Vec::new();
    let mut full = Vec::new();
    for (i, d) in deals.iter().enumerate() {
        if let Some(f) = solver_deal(d).ok().and_then(|d| FullDeal::try_from(d).ok()) {
            idx.push(i);
            full.push(f);
        }
    }
    let mut out = vec![None; deals.len()];
    let Ok(tables) = guarded(|| engine::solve_deals(&full)) else {
        return out;
    };
    for (i, t) in idx.into_iter().zip(tables) {
        out[i] = Some(DdTable::of(t));
    }
    out
}

/// One par contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParContract {
    pub level: u8,
    pub strain: Strain,
    pub doubled: bool,
    pub declarer: Seat,
    /// Tricks over the contract (negative: down).
    pub overtricks: i8,
}

impl ParContract {
    /// The contract in ParContract form without the side: `4SX-3`, `3N+1`,
    /// `2H=`.
    pub fn contract_text(&self) -> String {
        let strain = match self.strain {
            Strain::Clubs => 'C',
            Strain::Diamonds => 'D',
            Strain::Hearts => 'H',
            Strain::Spades => 'S',
            Strain::Notrump => 'N',
        };
        let x = if self.doubled { "X" } else { "" };
        let result = match self.overtricks {
            0 => "=".to_string(),
            n if n > 0 => format!("+{n}"),
            n => n.to_string(),
        };
        format!("{}{strain}{x}{result}", self.level)
    }
}

/// Par score and contracts of a deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Par {
    /// The par score for North-South (negative when East-West score).
    pub score_ns: i32,
    /// Every contract scoring the par; empty when par is all pass.
    pub contracts: Vec<ParContract>,
}

impl Par {
    /// The OptimumScore value (§4.2.7): `NS 620`, `EW 300`, `NS 0`.
    pub fn optimum_score(&self) -> String {
        if self.score_ns < 0 {
            format!("EW {}", -self.score_ns)
        } else {
            format!("NS {}", self.score_ns)
        }
    }

    /// ParContract values: one per strain and side, `NS 4S=` when both
    /// partners make it, `N 3N=` when only one does; `Pass` for all pass.
    pub fn par_contracts(&self) -> Vec<String> {
        if self.contracts.is_empty() {
            return vec!["Pass".into()];
        }
        let mut out: Vec<String> = Vec::new();
        let mut done = vec![false; self.contracts.len()];
        for (i, c) in self.contracts.iter().enumerate() {
            if done[i] {
                continue;
            }
            done[i] = true;
            let partner = self
                .contracts
                .iter()
                .enumerate()
                .skip(i + 1)
                .find(|(_, o)| {
                    o.declarer == c.declarer.partner()
                        && o.level == c.level
                        && o.strain == c.strain
                        && o.doubled == c.doubled
                        && o.overtricks == c.overtricks
                });
            let who = match partner {
                Some((j, _)) => {
                    done[j] = true;
                    if crate::bridge::is_north_south(c.declarer) {
                        "NS".to_string()
                    } else {
                        "EW".to_string()
                    }
                }
                None => c.declarer.letter().to_string(),
            };
            out.push(format!("{who} {}", c.contract_text()));
        }
        out
    }
}

/// The par of a deal (DDS `DealerPar`): who bids first (the dealer) decides
/// when both sides have a par, and sacrifices are doubled and counted.
pub fn par(table: &DdTable, vulnerability: AbsoluteVulnerability, dealer: Seat) -> Par {
    let rows = STRAINS_CDHSN.map(|strain| {
        let t = table.tricks[strain as usize];
        pons_dds::TrickCountRow::try_new(t[0].min(13), t[1].min(13), t[2].min(13), t[3].min(13))
            .unwrap_or_default()
    });
    let mut vul = pons_dds::Vulnerability::NONE;
    if vulnerability.contains(AbsoluteVulnerability::NS) {
        vul |= pons_dds::Vulnerability::NS;
    }
    if vulnerability.contains(AbsoluteVulnerability::EW) {
        vul |= pons_dds::Vulnerability::EW;
    }
    let tricks = pons_dds::TrickCountTable(rows);
    let Ok(p) = guarded(|| pons_dds::calculate_par(tricks, vul, dealer)) else {
        return Par {
            score_ns: 0,
            contracts: Vec::new(),
        };
    };
    let contracts = p
        .contracts
        .iter()
        .map(|c| ParContract {
            level: c.contract.bid.level.get(),
            strain: c.contract.bid.strain,
            doubled: c.contract.penalty != contract_bridge::Penalty::Undoubled,
            declarer: c.declarer,
            overtricks: c.overtricks,
        })
        .collect();
    Par {
        score_ns: p.score,
        contracts,
    }
}

const STRAINS_CDHSN: [Strain; 5] = [
    Strain::Clubs,
    Strain::Diamonds,
    Strain::Hearts,
    Strain::Spades,
    Strain::Notrump,
];

#[cfg(test)]
mod tests;
