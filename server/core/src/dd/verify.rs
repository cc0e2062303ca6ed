//! `pbn check --dd`: every double-dummy value a game states, against the
//! solver. DoubleDummyTricks digits (PBN1101), OptimumResultTable rows
//! (PBN1102, §5.7), ParContract (PBN1103) and OptimumScore (PBN1104,
//! §4.2.7); PBN1105 when the Deal cannot be solved. Values that do not
//! parse are left to the value rules (PBN03xx).

use super::{par, DdTable, Par, STRAINS};
use crate::codes::dd as c;
use crate::diagnostic::Diagnostic;
use crate::model::values::{
    parse_columns, parse_deal, parse_dealer, parse_denomination, parse_optimum_score,
    parse_vulnerable, SideScores,
};
use crate::model::{Document, Game};
use contract_bridge::{AbsoluteVulnerability, Seat, Strain};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The tags this module checks (and `pbn dd` writes).
pub const DD_TAGS: [&str; 4] = [
    "DoubleDummyTricks",
    "OptimumResultTable",
    "ParContract",
    "OptimumScore",
];

/// Checks every game of a lowered document, on every core. Only the games
/// that state a double-dummy value are solved.
pub fn check_document(doc: &Document) -> Vec<Diagnostic> {
    check_document_counted(doc, &AtomicUsize::new(0))
}

/// [`check_document`], adding 1 to `done` as each game is checked (what a
/// progress counter shows).
pub fn check_document_counted(doc: &Document, done: &AtomicUsize) -> Vec<Diagnostic> {
    crate::par::map(&doc.games, |g| {
        let d = check_game(g);
        done.fetch_add(1, Ordering::Relaxed);
        d
    })
    .into_iter()
    .flatten()
    .collect()
}

/// What the solver needs of a game: its deal, dealer and vulnerability
/// (the key the language server caches results under).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The known cards of each hand (`None`: not given).
    pub hands: [Option<contract_bridge::Hand>; 4],
    /// `x` spot cards per hand (such a deal cannot be solved).
    pub spot_cards: [usize; 4],
    pub dealer: Seat,
    pub vulnerability: AbsoluteVulnerability,
}

impl Position {
    /// The position of a game; `None` when it has no readable Deal. The
    /// dealer defaults to the Deal's first seat, the vulnerability to none.
    pub fn of(g: &Game) -> Option<Position> {
        let deal = parse_deal(g.value("Deal")?).value?;
        let vulnerability = g
            .value("Vulnerable")
            .and_then(|v| parse_vulnerable(v).value)
            .map_or(AbsoluteVulnerability::NONE, |v| v.vulnerability);
        let dealer = g
            .value("Dealer")
            .and_then(|v| parse_dealer(v).value)
            .map_or(deal.first, |d| d.seat);
        Some(Position {
            hands: deal.hands,
            spot_cards: deal.spot_cards,
            dealer,
            vulnerability,
        })
    }

    /// Solves the position: its table and par.
    pub fn solve(&self) -> Solved {
        self.with_par(super::solve_hands(&self.hands, &self.spot_cards))
    }

    /// [`Position::solve`] on the calling thread only
    /// ([`super::solve_hands_one_thread`]).
    pub fn solve_one_thread(&self) -> Solved {
        self.with_par(super::solve_hands_one_thread(&self.hands, &self.spot_cards))
    }

    fn with_par(&self, table: Result<DdTable, super::DdError>) -> Solved {
        table.map(|t| {
            let p = par(&t, self.vulnerability, self.dealer);
            (t, p)
        })
    }
}

/// A solved position, or why it cannot be solved.
pub type Solved = Result<(DdTable, Par), super::DdError>;

/// The solved table and par of a game, or why it has none. `None` when the
/// game has no Deal.
pub fn solve_game(g: &Game) -> Option<Solved> {
    Position::of(g).map(|p| p.solve())
}

/// "1 trick", "4 tricks".
fn tricks(n: u8) -> String {
    if n == 1 {
        "1 trick".into()
    } else {
        format!("{n} tricks")
    }
}

fn strain_name(s: Strain) -> &'static str {
    s.suit().map_or("NT", crate::bridge::suit_name)
}

/// The range of a tag's value (or of the whole tag when inherited).
fn value_range(g: &Game, name: &str) -> Range<usize> {
    match g.tag(name) {
        Some(t) => match &t.value {
            Some(v) if t.resolved.is_none() => v.range.clone(),
            _ => t.range.clone(),
        },
        None => g.range.start..g.range.start,
    }
}

/// Whether a game states any double-dummy value (only those are solved
/// when checking).
pub fn states_dd(g: &Game) -> bool {
    DD_TAGS.iter().any(|n| g.value(n).is_some())
}

/// Checks one game's double-dummy values.
pub fn check_game(g: &Game) -> Vec<Diagnostic> {
    check_game_with(g, solve_game)
}

/// [`check_game`] with the game solved by `solve` (the language server
/// passes its cache); `solve` is called only when the game states a
/// double-dummy value.
pub fn check_game_with(g: &Game, solve: impl FnOnce(&Game) -> Option<Solved>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !states_dd(g) {
        return out;
    }
    let (table, par) = match solve(g) {
        None => return out,
        Some(Err(e)) => {
            out.push(
                Diagnostic::new(
                    &c::DD_UNSOLVABLE,
                    value_range(g, "Deal"),
                    format!("double-dummy values are not checked: {e}"),
                )
                .with_game(Some(g.index)),
            );
            return out;
        }
        Some(Ok(r)) => r,
    };
    let mut push = |d: Diagnostic| out.push(d.with_game(Some(g.index)));

    if let Some(v) = g.value("DoubleDummyTricks") {
        let raw_range = value_range(g, "DoubleDummyTricks");
        let inline = g
            .tag("DoubleDummyTricks")
            .is_some_and(|t| t.resolved.is_none());
        if v.len() == 20 && v.chars().all(|ch| ch.is_ascii_hexdigit()) {
            let want = table.double_dummy_tricks();
            for (i, (got, exp)) in v.chars().zip(want.chars()).enumerate() {
                if got.eq_ignore_ascii_case(&exp) {
                    continue;
                }
                let seat = super::DECLARERS[i / 5];
                let strain = STRAINS[i % 5];
                let range = if inline {
                    raw_range.start + i..raw_range.start + i + 1
                } else {
                    raw_range.clone()
                };
                push(Diagnostic::new(
                    &c::DD_TRICKS_WRONG,
                    range,
                    format!(
                        "DoubleDummyTricks digit {} ({} declaring in {}) says {}; the solver says {}",
                        i + 1,
                        super::seat_name(seat),
                        strain_name(strain),
                        tricks(got.to_digit(16).unwrap_or(0) as u8),
                        table.get(strain, seat)
                    ),
                ));
            }
        }
    }

    if let Some(ti) = g.tags.iter().position(|t| t.name == "OptimumResultTable") {
        check_result_table(g, ti, &table, &mut push);
    }

    if let Some(v) = g.value("ParContract") {
        let stated: Vec<&str> = v
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let solver = par.par_contracts();
        for s in &stated {
            if let Some(ok) = par_contract_matches(s, &par) {
                if !ok {
                    push(Diagnostic::new(
                        &c::PAR_CONTRACT_WRONG,
                        value_range(g, "ParContract"),
                        format!(
                            "ParContract says \"{s}\"; the solver's par is {} ({})",
                            solver.join(", "),
                            par.optimum_score()
                        ),
                    ));
                }
            }
        }
    }

    if let Some(v) = g.value("OptimumScore") {
        if let Some(SideScores::Sides { ns, ew, .. }) = parse_optimum_score(v).value {
            let want = i64::from(par.score_ns);
            let wrong = ns.is_some_and(|n| n != want) || ew.is_some_and(|e| e != -want);
            if wrong {
                push(Diagnostic::new(
                    &c::OPTIMUM_SCORE_WRONG,
                    value_range(g, "OptimumScore"),
                    format!(
                        "OptimumScore says \"{v}\"; the solver's par score is {}",
                        par.optimum_score()
                    ),
                ));
            }
        }
    }
    out
}

fn check_result_table(g: &Game, ti: usize, table: &DdTable, push: &mut impl FnMut(Diagnostic)) {
    let Some(section) = g.sections.iter().find(|s| s.tag == ti) else {
        return;
    };
    let Some(value) = &g.tags[ti].value else {
        return;
    };
    let Some(cols) = parse_columns(&value.raw).value else {
        return;
    };
    let find = |n: &str| cols.iter().position(|col| col.name.eq_ignore_ascii_case(n));
    let (Some(di), Some(ni), Some(ri)) = (find("Declarer"), find("Denomination"), find("Result"))
    else {
        return;
    };
    for row in section.elements.chunks_exact(cols.len()) {
        let seat = row[di].text.as_str();
        let seat = match seat.to_ascii_uppercase().as_str() {
            "N" => Seat::North,
            "E" => Seat::East,
            "S" => Seat::South,
            "W" => Seat::West,
            _ => continue,
        };
        let Some(strain) = parse_denomination(row[ni].text.as_str()).value else {
            continue;
        };
        let Ok(got) = row[ri].text.as_str().parse::<u8>() else {
            continue;
        };
        let want = table.get(strain, seat);
        if got != want {
            push(Diagnostic::new(
                &c::OPTIMUM_RESULT_WRONG,
                row[ri].range.clone(),
                format!(
                    "OptimumResultTable row \"{} {}\" says {}; the solver says {want}",
                    row[di].text.as_str(),
                    row[ni].text.as_str(),
                    tricks(got)
                ),
            ));
        }
    }
}

/// Whether a stated par contract (`NS 4SX-3`, `S 1N=`, `EW 3NT+1`) is one
/// of the solver's; `None` when it cannot be read (or is `Pass` and par is
/// not all pass… handled as a mismatch).
fn par_contract_matches(s: &str, par: &Par) -> Option<bool> {
    if s.eq_ignore_ascii_case("pass") {
        return Some(par.contracts.is_empty());
    }
    let (who, contract) = s.split_once(char::is_whitespace)?;
    let seats: Vec<Seat> = match who.to_ascii_uppercase().as_str() {
        "NS" => vec![Seat::North, Seat::South],
        "EW" => vec![Seat::East, Seat::West],
        "N" => vec![Seat::North],
        "E" => vec![Seat::East],
        "S" => vec![Seat::South],
        "W" => vec![Seat::West],
        _ => return None,
    };
    let contract = contract.trim().to_ascii_uppercase();
    let b = contract.as_bytes();
    let level = (*b.first()? as char).to_digit(10)? as u8;
    if !(1..=7).contains(&level) {
        return None;
    }
    let rest = &contract[1..];
    let (strain, rest) = if let Some(r) = rest.strip_prefix("NT") {
        (Strain::Notrump, r)
    } else {
        let st = match rest.chars().next()? {
            'N' => Strain::Notrump,
            'S' => Strain::Spades,
            'H' => Strain::Hearts,
            'D' => Strain::Diamonds,
            'C' => Strain::Clubs,
            _ => return None,
        };
        (st, &rest[1..])
    };
    let (doubled, rest) = match rest.strip_prefix('X') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let overtricks: Option<i8> = match rest {
        "" => None,
        "=" => Some(0),
        r => Some(r.parse::<i8>().ok()?),
    };
    let matches = seats.iter().all(|&seat| {
        par.contracts.iter().any(|p| {
            p.declarer == seat
                && p.level == level
                && p.strain == strain
                && p.doubled == doubled
                && overtricks.is_none_or(|o| o == p.overtricks)
        })
    });
    Some(matches)
}
