//! The scoring arithmetic (`pbn_core::bridge::scoring`) against an
//! independent implementation, the npm package `bridge-scorer` 2.4.0, on
//! 300 boards of NS scores (2 to 14 tables: ties, flat boards, passed-out
//! tables, both signs, scores on each side of every IMP step; hand-picked
//! edges first, then random ones from a fixed seed), and on its IMP scale
//! for every difference from -4600 to 4600 by 5. Compared, board by board
//! and row by row:
//!
//! - `imps` with `toImps`;
//! - `matchpoints` (MP1, MP2) and `top` with `matchpoints` and
//!   `matchpointsACBL` (NS's value; EW's, which is the top minus NS's);
//! - `percentage` with their NS and EW percentages;
//! - `cross_imps` with `crossImps`;
//! - `butler_datum` (Mean) with `butler`'s datum, and `imps` of each score
//!   against that datum with its IMPs.
//!
//! Where the two differ by a convention, the test converts explicitly (see
//! each test); any other difference fails it, with the board, its scores,
//! ours and theirs.
//!
//! The fixture `tests/fixtures/scoring/bridge_scorer.json` is written by
//! `tests/scoring/bridge-scorer/generate.mjs`; to regenerate it:
//!
//! ```sh
//! cd tests/scoring/bridge-scorer && npm ci && node generate.mjs
//! ```
//!
//! The test reads only the committed JSON: CI needs no Node.

use pbn_core::bridge::scoring::{
    butler_datum, cross_imps, imps, matchpoints, percentage, top, Datum, MpScale,
};
use serde_json::Value;
use std::sync::OnceLock;

/// bridge-scorer's results on one board.
struct Board {
    /// The board's place in the fixture, from 1.
    number: usize,
    scores: Vec<i32>,
    mp: Vec<f64>,
    mp_ew: Vec<f64>,
    acbl: Vec<f64>,
    acbl_ew: Vec<f64>,
    pct: Vec<f64>,
    pct_ew: Vec<f64>,
    cross: Vec<f64>,
    datum: i32,
    butler: Vec<i32>,
}

impl Board {
    fn at(&self, i: usize) -> String {
        format!(
            "board {} {:?}, row {} ({})",
            self.number,
            self.scores,
            i + 1,
            self.scores[i]
        )
    }
}

struct Fixture {
    /// `toImps(difference)` for each difference.
    imps: Vec<(i32, i32)>,
    boards: Vec<Board>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(read_fixture)
}

fn read_fixture() -> Fixture {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/scoring/bridge_scorer.json"
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let int = |v: &Value| i32::try_from(v.as_i64().expect("an integer")).unwrap();
    let ints = |v: &Value| -> Vec<i32> { v.as_array().unwrap().iter().map(int).collect() };
    let floats = |v: &Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().expect("a number"))
            .collect()
    };
    let imps = json["imps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (int(&p[0]), int(&p[1])))
        .collect();
    let boards = json["boards"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let board = Board {
                number: k + 1,
                scores: ints(&b["scores"]),
                mp: floats(&b["mp"]),
                mp_ew: floats(&b["mpEW"]),
                acbl: floats(&b["acbl"]),
                acbl_ew: floats(&b["acblEW"]),
                pct: floats(&b["pct"]),
                pct_ew: floats(&b["pctEW"]),
                cross: floats(&b["cross"]),
                datum: int(&b["datum"]),
                butler: ints(&b["butler"]),
            };
            let n = board.scores.len();
            for (name, len) in [
                ("mp", board.mp.len()),
                ("mpEW", board.mp_ew.len()),
                ("acbl", board.acbl.len()),
                ("acblEW", board.acbl_ew.len()),
                ("pct", board.pct.len()),
                ("pctEW", board.pct_ew.len()),
                ("cross", board.cross.len()),
                ("butler", board.butler.len()),
            ] {
                assert_eq!(len, n, "board {}: {name} has {len} rows, not {n}", k + 1);
            }
            board
        })
        .collect();
    Fixture { imps, boards }
}

/// Fails with every disagreement, after counting what was compared.
fn verdict(what: &str, compared: usize, wrong: &[String]) {
    assert!(compared > 0, "{what}: nothing compared");
    assert!(
        wrong.is_empty(),
        "{what}: {} of {compared} differ from bridge-scorer:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    eprintln!("{what}: {compared} compared, all agree");
}

/// bridge-scorer's percentages are `mp / top * 100`, ours `100 * mp / top`:
/// the same number, rounded in a different order (`1 / 3 * 100` is
/// 33.33333333333333, `100 / 3` 33.333333333333336), and serde_json's
/// default float parsing may be an ulp off too.
const FLOAT_SLACK: f64 = 1e-9;

#[test]
fn the_fixture_covers_the_cases() {
    let f = fixture();
    assert_eq!(f.boards.len(), 300);
    let sizes: Vec<usize> = f.boards.iter().map(|b| b.scores.len()).collect();
    assert_eq!(sizes.iter().min(), Some(&2));
    assert_eq!(sizes.iter().max(), Some(&14));
    // bridge-scorer leaves out no score of three, and two at each end from 11.
    assert!(sizes.contains(&3) && sizes.iter().any(|&n| n >= 11));
    let has = |p: &dyn Fn(&Board) -> bool| f.boards.iter().any(p);
    assert!(
        has(&|b| b.scores.iter().all(|&s| s == b.scores[0])),
        "a flat board"
    );
    assert!(has(&|b| b.scores.contains(&0)), "a passed-out table");
    assert!(has(&|b| b.scores.iter().any(|&s| s < 0)));
    // A difference of 4000 or more between two scores of a board.
    assert!(has(&|b| {
        let (lo, hi) = (b.scores.iter().min(), b.scores.iter().max());
        hi.unwrap() - lo.unwrap() >= 4000
    }));
    assert_eq!(f.imps.len(), 1841);
}

/// `toImps` agrees with `imps` on every multiple of 10, every difference
/// real scores (all multiples of 10) can have. Between them (15, 45, …)
/// the two implementations read the scale's gaps differently: ours counts a
/// difference above an upper end (10, 40, 80, …) in the next step, theirs
/// one below a lower end (20, 50, 90, …) in the step before. So ours of an
/// odd 5 is theirs of the next multiple of 10 away from zero (ours 15 is
/// their 20: 1 IMP; their 15 is 0).
#[test]
fn imps_agree_with_to_imps() {
    let f = fixture();
    let theirs = |d: i32| f.imps.iter().find(|&&(x, _)| x == d).map(|&(_, n)| n);
    let (mut wrong, mut gaps) = (Vec::new(), 0);
    for &(d, n) in &f.imps {
        let expected = if d % 10 == 0 {
            n
        } else {
            // The edge of the table is past 4000: every step there is 24.
            let beyond = d + 5 * d.signum();
            gaps += usize::from(imps(d) != n);
            theirs(beyond).unwrap_or(n)
        };
        if imps(d) != expected {
            wrong.push(format!(
                "difference {d}: ours {}, bridge-scorer {n} (expected {expected})",
                imps(d)
            ));
        }
    }
    verdict("IMPs of a difference", f.imps.len(), &wrong);
    // The convention differs at each of the 24 upper ends plus 5, both signs.
    assert_eq!(gaps, 48, "differences of an odd 5 where the two differ");
}

/// MP1 is bridge-scorer's `matchpoints` (2 per lower score, 1 per equal),
/// MP2 its `matchpointsACBL` (1 and ½), with the same conventions: EW's
/// matchpoints are the top less NS's.
#[test]
fn matchpoints_agree_with_matchpoints_and_matchpoints_acbl() {
    let f = fixture();
    let (mut compared, mut wrong) = (0, Vec::new());
    for b in &f.boards {
        let n = b.scores.len();
        for i in 0..n {
            for (scale, ns, ew) in [
                (MpScale::Mp1, b.mp[i], b.mp_ew[i]),
                (MpScale::Mp2, b.acbl[i], b.acbl_ew[i]),
            ] {
                let ours = matchpoints(&b.scores, i, scale);
                let ours_ew = top(n, scale) - ours;
                compared += 1;
                if ours != ns || ours_ew != ew {
                    wrong.push(format!(
                        "{} {scale:?}: ours NS {ours} EW {ours_ew} (top {}), \
                         bridge-scorer NS {ns} EW {ew}",
                        b.at(i),
                        top(n, scale)
                    ));
                }
            }
        }
    }
    verdict("matchpoints (MP1 and MP2) and tops", compared, &wrong);
}

/// The same percentages, up to the order of the float operations
/// ([`FLOAT_SLACK`]). (Of a board played once, ours is 50 and theirs 0/0,
/// NaN; the fixture's boards have 2 tables or more.)
#[test]
fn percentages_agree() {
    let f = fixture();
    let (mut compared, mut wrong) = (0, Vec::new());
    for b in &f.boards {
        for i in 0..b.scores.len() {
            let ours = percentage(&b.scores, i);
            compared += 1;
            if (ours - b.pct[i]).abs() > FLOAT_SLACK
                || ((100.0 - ours) - b.pct_ew[i]).abs() > FLOAT_SLACK
            {
                wrong.push(format!(
                    "{}: ours NS {ours} EW {}, bridge-scorer NS {} EW {}",
                    b.at(i),
                    100.0 - ours,
                    b.pct[i],
                    b.pct_ew[i]
                ));
            }
        }
    }
    verdict("percentages", compared, &wrong);
}

/// bridge-scorer's cross-IMPs are the mean of the IMPs against each other
/// score, ours (§3.4.12 `Cross`) their sum: ours is divided by the number
/// of other scores before comparing.
#[test]
fn cross_imps_agree_with_cross_imps_averaged() {
    let f = fixture();
    let (mut compared, mut wrong) = (0, Vec::new());
    for b in &f.boards {
        let others = (b.scores.len() - 1) as f64;
        for i in 0..b.scores.len() {
            let ours = cross_imps(&b.scores, i);
            let mean = f64::from(ours) / others;
            compared += 1;
            if (mean - b.cross[i]).abs() > FLOAT_SLACK {
                wrong.push(format!(
                    "{}: ours {ours} (/{others} = {mean}), bridge-scorer {}",
                    b.at(i),
                    b.cross[i]
                ));
            }
        }
    }
    verdict("cross-IMPs", compared, &wrong);
}

/// How many scores bridge-scorer's `butler` leaves out at each end of a
/// board of `n`: none of 3 or fewer, else `ceil((n - 10) / 15) + 1` (1 up
/// to 10 scores, 2 from 11 to 25, …).
fn their_drops(n: usize) -> usize {
    match n {
        0..=3 => 0,
        4..=10 => 1,
        _ => (n - 10).div_ceil(15) + 1,
    }
}

/// bridge-scorer's Butler datum, from our `butler_datum` with `Mean`, and
/// whether its rounding changed it. Two conventions differ:
///
/// - what is left out: ours leaves out one score at each end (`Butler-2`)
///   of more than two, theirs [`their_drops`] of more than three. Of 3 or
///   fewer we keep all (`without_extremes` false); from 4 we leave out the
///   extra scores at each end ourselves and let `butler_datum` leave out
///   the last one.
/// - the rounding to 10: ours rounds a half away from zero, theirs
///   (`Math.round(mean / 10) * 10`) up. Only a mean of exactly -5 modulo 10
///   (-85: ours -90, theirs -80) differs: theirs is then ours plus 10.
fn their_datum(scores: &[i32]) -> (i32, bool) {
    let mut s = scores.to_vec();
    s.sort_unstable();
    let (n, k) = (s.len(), their_drops(s.len()));
    let ours = if k == 0 {
        butler_datum(&s, false, Datum::Mean)
    } else {
        butler_datum(&s[k - 1..n + 1 - k], true, Datum::Mean)
    }
    .expect("a datum");
    let kept = &s[k..n - k];
    let sum: i64 = kept.iter().map(|&x| i64::from(x)).sum();
    let len = kept.len() as i64;
    let negative_half = sum % len == 0 && (sum / len) % 10 == -5;
    if negative_half {
        (ours + 10, true)
    } else {
        (ours, false)
    }
}

#[test]
fn butler_datums_agree_with_butler() {
    let f = fixture();
    let (mut wrong, mut rounded) = (Vec::new(), 0);
    for b in &f.boards {
        let (expected, converted) = their_datum(&b.scores);
        rounded += usize::from(converted);
        if expected != b.datum {
            wrong.push(format!(
                "board {} {:?}: ours (converted) {expected}, bridge-scorer {}",
                b.number, b.scores, b.datum
            ));
        }
    }
    verdict("Butler datums", f.boards.len(), &wrong);
    // The rounding conversion is exercised (ruter71.pbn's board 1 is one).
    assert!(rounded > 0, "no datum of a negative half ten");
}

/// Each score's Butler IMPs: `imps` of the score less bridge-scorer's own
/// datum (the datum is compared above).
#[test]
fn butler_imps_agree_with_butler() {
    let f = fixture();
    let (mut compared, mut wrong) = (0, Vec::new());
    for b in &f.boards {
        for (i, &s) in b.scores.iter().enumerate() {
            let ours = imps(s - b.datum);
            compared += 1;
            if ours != b.butler[i] {
                wrong.push(format!(
                    "{}, datum {}: ours {ours}, bridge-scorer {}",
                    b.at(i),
                    b.datum,
                    b.butler[i]
                ));
            }
        }
    }
    verdict("Butler IMPs", compared, &wrong);
}
