//! Double-dummy analysis: the 20-result trick table of a deal and its par.
//!
//! # The boundary
//!
//! The solver is Bo Haglund's DDS (C++), through the `dds-bridge` crate. It
//! is the solver every serious bridge program uses, and writing another
//! would be a project of its own. Only this module names `dds_bridge`
//! (and `dds_bridge_sys`): the
//! rest of the project sees [`DdTable`], [`Par`], [`ParContract`] and the
//! errors of [`solve_table`], built from the core's own [`Deal`] and
//! `contract-bridge` seats and strains. Every call into the solver runs under
//! `catch_unwind` (the crate panics on inputs DDS rejects) and after this
//! module's own validation, so no input makes the checker panic.
//!
//! - [`solve_table`]: tricks for each strain and declarer. A full deal goes
//!   through DDS's `CalcAllTablesN` (`dds-bridge-sys`: its strains solved on
//!   every core), else DDS's table solver on one thread; an end position
//!   (§3.10, four hands of the same size below 13) through 20 single-board
//!   solves with declarer's left-hand opponent on lead. [`solve_tables`]:
//!   many full deals, a deal per worker (dds-bridge's batch solver:
//!   `CalcAllTablesN` was no faster at this in `pbn-bench dd`).
//! - [`par`]: DDS's `DealerPar` (par contracts and score following the
//!   vulnerability and the dealer, sacrifices included).
//! - [`verify`]: `pbn check --dd` — compares DoubleDummyTricks,
//!   OptimumResultTable, ParContract and OptimumScore with the solver.
//! - The PBN forms of the results: [`DdTable::double_dummy_tricks`],
//!   [`Par::optimum_score`], [`ParContract::pbn`].

pub mod fill;
pub mod leads;
pub mod play;
pub mod verify;

use crate::bridge::seat_name;
use crate::model::values::Deal;
use contract_bridge::deal::Builder;
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
    static SOLVER: RefCell<Option<dds_bridge::Solver>> = const { RefCell::new(None) };
}

fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, DdError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown error".into());
        DdError::Solver(msg)
    })
}

/// The four hands of a deal that the solver can take.
fn builder(deal: &Deal) -> Result<(Builder, usize), DdError> {
    builder_of(&deal.hands, &deal.spot_cards)
}

/// [`builder`] from the hands (indexed by `Seat as usize`) and their `x`
/// spot-card counts.
fn builder_of(
    hands: &[Option<contract_bridge::Hand>; 4],
    spot_cards: &[usize; 4],
) -> Result<(Builder, usize), DdError> {
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
    let n = size.unwrap_or(0);
    if n == 0 {
        return Err(DdError::Empty);
    }
    let all = Seat::ALL
        .iter()
        .fold(contract_bridge::Hand::EMPTY, |a, &s| a | b[s]);
    if all.len() != 4 * n {
        return Err(DdError::DuplicateCard);
    }
    Ok((b, n))
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
    solve_hands_with(hands, spot_cards, true)
}

/// [`solve_hands`] on the calling thread only: for background work that
/// must leave the other cores to what a user waits for.
pub fn solve_hands_one_thread(
    hands: &[Option<contract_bridge::Hand>; 4],
    spot_cards: &[usize; 4],
) -> Result<DdTable, DdError> {
    solve_hands_with(hands, spot_cards, false)
}

fn solve_hands_with(
    hands: &[Option<contract_bridge::Hand>; 4],
    spot_cards: &[usize; 4],
    parallel: bool,
) -> Result<DdTable, DdError> {
    let (b, n) = builder_of(hands, spot_cards)?;
    if n == 13 {
        let full = b.build_full().map_err(|_| DdError::DuplicateCard)?;
        let in_parallel = if parallel {
            guarded(|| solve_strains_in_parallel(full))?
        } else {
            None
        };
        let t = match in_parallel {
            Some(t) => t,
            None => guarded(|| {
                SOLVER.with(|cell| {
                    let mut slot = cell.borrow_mut();
                    let solver = slot.get_or_insert_with(dds_bridge::Solver::default);
                    solver.solve_deal(full)
                })
            })?,
        };
        let mut tricks = [[0u8; 4]; 5];
        for strain in STRAINS {
            for seat in Seat::ALL {
                tricks[strain as usize][seat as usize] = u8::from(t[strain].get(seat));
            }
        }
        return Ok(DdTable { tricks });
    }
    let partial = b.build_partial().map_err(|_| DdError::DuplicateCard)?;
    let mut tricks = [[0u8; 4]; 5];
    for strain in STRAINS {
        for declarer in Seat::ALL {
            let leader = declarer.lho();
            let board =
                dds_bridge::Board::try_new(partial, dds_bridge::CurrentTrick::new(strain, leader))
                    .map_err(|e| DdError::Solver(e.to_string()))?;
            let objective = dds_bridge::Objective {
                board,
                target: dds_bridge::Target::Legal,
            };
            let found = guarded(|| {
                SOLVER.with(|cell| {
                    let mut slot = cell.borrow_mut();
                    let solver = slot.get_or_insert_with(dds_bridge::Solver::default);
                    solver.solve_board(&objective)
                })
            })?;
            let defence = found
                .plays
                .iter()
                .map(|p| u8::from(p.score))
                .max()
                .unwrap_or(0);
            tricks[strain as usize][declarer as usize] = (n as u8).saturating_sub(defence);
        }
    }
    Ok(DdTable { tricks })
}

/// Solves many full deals at once on every core (DDS's batch solver);
/// `None` for a deal that is not a full 52-card deal.
pub fn solve_tables(deals: &[Deal]) -> Vec<Option<DdTable>> {
    let mut idx = Vec::new();
    let mut full = Vec::new();
    for (i, d) in deals.iter().enumerate() {
        if let Ok((b, 13)) = builder(d) {
            if let Ok(f) = b.build_full() {
                idx.push(i);
                full.push(f);
            }
        }
    }
    let mut out = vec![None; deals.len()];
    let Ok(tables) = guarded(|| dds_bridge::solve_deals(&full)) else {
        return out;
    };
    for (i, t) in idx.into_iter().zip(tables) {
        let mut tricks = [[0u8; 4]; 5];
        for strain in STRAINS {
            for seat in Seat::ALL {
                tricks[strain as usize][seat as usize] = u8::from(t[strain].get(seat));
            }
        }
        out[i] = Some(DdTable { tricks });
    }
    out
}

/// One full deal's table through DDS's `CalcAllTablesN`, which solves its
/// five strains as five boards on every core: about half the wall time of
/// dds-bridge's `Solver::solve_deal` (one thread) on two cores, which is
/// what a hover waits for. `None` when DDS reports an error (the caller
/// then falls back to `solve_deal`). Calls are serialised: the legacy API
/// keeps process-wide state.
///
/// Finer splits were measured and lose: the 20 (strain, leader) boards
/// through dds-bridge-sys's batched `solve_board` take about 1.5× the CPU
/// (each board is a full search; a strain's three later leaders here reuse
/// its transposition table and a null window around the first leader's
/// result), so more wall time on two cores. Ordering the five strains
/// hardest first would save at most about 14% (an oracle's order, on 20
/// random deals) and the order is not known before solving. Either way a
/// table shows no sooner than its one-thread CPU time divided by the cores
/// (`pbn-bench dd` prints that floor for the hovered deals).
fn solve_strains_in_parallel(
    full: contract_bridge::deal::FullDeal,
) -> Option<dds_bridge::TrickCountTable> {
    use dds_bridge_sys as sys;
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: plain C structs of integers; all-zero is a valid value.
    let mut deals: Box<sys::DdTableDeals> = Box::new(unsafe { std::mem::zeroed() });
    deals.no_of_tables = 1;
    deals.deals[0] = dds_bridge::dd_table_deal_from(full);
    let filter = [0; 5];
    // SAFETY: as above.
    let mut res: Box<sys::DdTablesRes> = Box::new(unsafe { std::mem::zeroed() });
    let mut par: Box<sys::AllParResults> = Box::new(unsafe { std::mem::zeroed() });
    // SAFETY: every pointer is to a live value of the type DDS expects;
    // mode -1 computes no par, so `par` is not written.
    let status =
        unsafe { sys::CalcAllTablesN(&*deals, -1, filter.as_ptr(), &mut *res, &mut *par, 0) };
    (status == 1).then(|| res.results[0].into())
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
        dds_bridge::TrickCountRow::try_new(t[0].min(13), t[1].min(13), t[2].min(13), t[3].min(13))
            .unwrap_or(dds_bridge::TrickCountRow::new(0, 0, 0, 0))
    });
    let tricks = dds_bridge::TrickCountTable(rows);
    // dds-bridge 0.21.0's `calculate_par` passes DDS's `DealerParBin` its
    // vulnerability and dealer arguments in swapped order (the C function is
    // `(table, result, dealer, vulnerable)`). Both are small integers, so we
    // hand it the values that land in the right C parameters: a "seat" whose
    // number is DDS's vulnerability code (0 none, 1 both, 2 NS, 3 EW) and a
    // "vulnerability" whose code is the dealer's number (N 0, E 1, S 2, W 3).
    // `par_follows_vulnerability_and_dealer` fails if the crate changes.
    let ns = vulnerability.contains(AbsoluteVulnerability::NS);
    let ew = vulnerability.contains(AbsoluteVulnerability::EW);
    let vul_code = match (ns, ew) {
        (false, false) => 0,
        (true, true) => 1,
        (true, false) => 2,
        (false, true) => 3,
    };
    let as_dealer_arg = Seat::ALL[vul_code];
    let as_vul_arg = match dealer {
        Seat::North => dds_bridge::Vulnerability::NONE,
        Seat::East => dds_bridge::Vulnerability::ALL,
        Seat::South => dds_bridge::Vulnerability::NS,
        Seat::West => dds_bridge::Vulnerability::EW,
    };
    let Ok(p) = guarded(|| dds_bridge::calculate_par(tricks, as_vul_arg, as_dealer_arg)) else {
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
