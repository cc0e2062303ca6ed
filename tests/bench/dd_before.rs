//! The double-dummy solver before pons-dds (dds-bridge 0.21: C++ DDS
//! through bindgen), for `pbn-bench dd`: `tests/bench/dd_before.sh` builds
//! this file as an example of `pbn-core` at commit f48a19f, whose
//! `pbn_core::dd` had the same functions over dds-bridge.
//!
//! Usage: `dd_before FILE all|one`. FILE holds one PBN deal a line. `all`:
//! `solve_tables` (DDS's `CalcAllTables` on DDS's threads, every core);
//! `one`: `solve_hands_one_thread` a deal at a time (DDS on the calling
//! thread). After an untimed warm-up on the first five deals, prints one
//! JSON line `{"wall": s, "cpu": s, "tables": [...]}` (CPU: utime + stime
//! of the process, every thread, from /proc/self/stat; each table as a
//! DoubleDummyTricks value, empty when not solved).

use pbn_core::dd::{solve_hands_one_thread, solve_tables, DdTable};
use pbn_core::model::values::{parse_deal, Deal};
use std::time::Instant;

/// CPU seconds of this process so far, every thread (clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(f64::NAN))
        .collect();
    // Fields 14 and 15 of proc(5); the state (field 3) is f[0].
    (f[11] + f[12]) / 100.0
}

fn text(t: Option<DdTable>) -> String {
    t.map(|t| t.double_dummy_tricks()).unwrap_or_default()
}

fn solve(deals: &[Deal], one: bool) -> Vec<String> {
    if one {
        deals
            .iter()
            .map(|d| text(solve_hands_one_thread(&d.hands, &d.spot_cards).ok()))
            .collect()
    } else {
        solve_tables(deals).into_iter().map(text).collect()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(file), Some(mode)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: dd_before FILE all|one");
        std::process::exit(1);
    };
    let one = mode == "one";
    let deals: Vec<Deal> = std::fs::read_to_string(file)
        .expect("the deals file")
        .lines()
        .filter_map(|l| parse_deal(l).value)
        .collect();
    solve(&deals[..deals.len().min(5)], one);
    let (t, c) = (Instant::now(), cpu_seconds());
    let tables = solve(&deals, one);
    let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
    println!(
        "{}",
        serde_json::json!({"wall": wall, "cpu": cpu, "tables": tables})
    );
}
