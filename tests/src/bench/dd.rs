//! `pbn-bench dd`: the 20-result double-dummy table of 1,000 random deals
//! (seeded) with the core's solver (`pbn_core::dd::solve_tables`: DDS's
//! batch solver through dds-bridge, on every core), against endplay's
//! `calc_all_tables` on the same deals, in one run (issue target: at least
//! as fast). Both solvers' tables are compared deal by deal. `--quick` (the
//! CI smoke run) solves 20 deals and never starts Python.

use super::check::{endplay_setup, Endplay};
use super::*;
use pbn_core::dd::{solve_tables, DdTable};
use pbn_tests::gen::Rng;
use std::process::Command;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// `n` random deals (a shuffled pack each) from `seed`, as PBN Deal values.
pub fn random_deals(n: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut cards: Vec<usize> = (0..52).collect();
            for i in (1..52).rev() {
                cards.swap(i, rng.below(i + 1));
            }
            let hands: Vec<String> = cards
                .chunks(13)
                .map(|h| {
                    let suit = |s: usize| -> String {
                        let mut ranks: Vec<usize> =
                            h.iter().filter(|&&c| c / 13 == s).map(|c| c % 13).collect();
                        ranks.sort_unstable();
                        ranks
                            .iter()
                            .map(|&r| "AKQJT98765432".as_bytes()[r] as char)
                            .collect()
                    };
                    (0..4).map(suit).collect::<Vec<_>>().join(".")
                })
                .collect();
            format!("N:{}", hands.join(" "))
        })
        .collect()
}

pub fn run(args: &Args) -> Result<String, String> {
    let n = if args.quick {
        20
    } else {
        args.games.unwrap_or(1000)
    };
    let reps = args.reps.unwrap_or(if args.quick { 1 } else { 3 });
    let texts = random_deals(n, args.seed);
    let deals: Vec<_> = texts
        .iter()
        .map(|t| pbn_core::model::values::parse_deal(t).value.ok_or("a deal"))
        .collect::<Result<_, _>>()?;
    // The first run also starts DDS (its memory and threads): untimed.
    let mut ours: Vec<Option<DdTable>> = solve_tables(&deals[..n.min(10)]);
    let mut times = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        ours = solve_tables(&deals);
        times.push(t.elapsed().as_secs_f64());
    }
    if ours.iter().any(Option::is_none) {
        return Err("a random deal did not solve".into());
    }
    let ours_s = median(times);
    let ours_dd: Vec<String> = ours
        .iter()
        .flatten()
        .map(|t| t.double_dummy_tricks())
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let mut s = String::new();
    s += "## Double-dummy tables against endplay\n\n";
    s += &format!("- Machine: {}\n", report::machine());
    s += &format!(
        "- Date: {}; commit {}\n",
        report::utc_now(),
        report::commit()
    );
    s += &format!(
        "- Input: {n} random deals (`bench/dd.rs` `random_deals`, seed {}); all 20 results of each; wall clock, median of {reps} after an untimed warm-up, {threads} threads\n\n",
        args.seed
    );
    s += "| solver | s | deals/s |\n|---|---:|---:|\n";
    s += &format!(
        "| `pbn_core::dd::solve_tables` (DDS batch, dds-bridge) | {ours_s:.2} | {:.0} |\n",
        n as f64 / ours_s
    );
    if args.quick {
        s += "\nendplay: not run in a `--quick` smoke run.\n";
        return Ok(s);
    }
    match endplay_setup(args) {
        Endplay::Ready {
            python, version, ..
        } => {
            let dir = std::env::temp_dir().join(format!("pbn-bench-dd-{}", std::process::id()));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            let file = dir.join("deals.txt");
            std::fs::write(&file, texts.join("\n") + "\n").map_err(|e| e.to_string())?;
            let out = Command::new(&python)
                .arg(repo_root().join("tests/bench/endplay_dd.py"))
                .arg("tables")
                .arg(&file)
                .args(["--reps", &reps.to_string()])
                .output()
                .map_err(|e| e.to_string())?;
            let _ = std::fs::remove_dir_all(&dir);
            let v: serde_json::Value =
                serde_json::from_slice(&out.stdout).map_err(|e| format!("endplay_dd.py: {e}"))?;
            let secs: Vec<f64> = v["seconds"]
                .as_array()
                .ok_or_else(|| format!("endplay_dd.py: {v}"))?
                .iter()
                .filter_map(|x| x.as_f64())
                .collect();
            let theirs = median(secs);
            let agree = v["tables"].as_array().map_or(0, |t| {
                t.iter()
                    .zip(&ours_dd)
                    .filter(|(a, b)| a.as_str() == Some(b.as_str()))
                    .count()
            });
            s += &format!(
                "| endplay {version} `calc_all_tables` (`tests/bench/endplay_dd.py`) | {theirs:.2} | {:.0} |\n\n",
                n as f64 / theirs
            );
            s += &format!(
                "The tables agree on {agree} of {n} deals. Target: at least as fast as endplay: **{}** ({:.2}×).\n",
                if ours_s <= theirs { "met" } else { "missed" },
                theirs / ours_s
            );
        }
        Endplay::Unavailable(why) => s += &format!("\nendplay: not measured ({why})\n"),
    }
    Ok(s)
}
