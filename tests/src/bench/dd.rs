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
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// CPU seconds of this process so far, every thread (DDS's workers too).
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return f64::NAN;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
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
    let endplay = if args.quick {
        None
    } else {
        Some(endplay_setup(args))
    };
    let deals_file = std::env::temp_dir().join(format!("pbn-bench-dd-{}.txt", std::process::id()));
    std::fs::write(&deals_file, texts.join("\n") + "\n").map_err(|e| e.to_string())?;
    // Interleaved (ours, endplay, ours, endplay, ...) so that the load of a
    // shared machine falls on both alike.
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let mut theirs: Vec<(f64, f64)> = Vec::new();
    let mut their_tables: Vec<String> = Vec::new();
    let mut endplay_error = None;
    for _ in 0..reps {
        let (t, c) = (Instant::now(), cpu_seconds());
        ours = solve_tables(&deals);
        times.push(t.elapsed().as_secs_f64());
        cpu.push(cpu_seconds() - c);
        if let Some(Endplay::Ready { python, .. }) = &endplay {
            match endplay_once(python, &deals_file) {
                Ok((secs, cpu, tables)) => {
                    theirs.push((secs, cpu));
                    their_tables = tables;
                }
                Err(e) => {
                    endplay_error = Some(e);
                    break;
                }
            }
        }
    }
    let _ = std::fs::remove_file(&deals_file);
    if ours.iter().any(Option::is_none) {
        return Err("a random deal did not solve".into());
    }
    let ours_s = median(times.clone());
    let ours_cpu = median(cpu);
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
        "- Input: {n} random deals (`bench/dd.rs` `random_deals`, seed {}); all 20 results of each; wall clock, median of {reps} runs interleaved with endplay's, after an untimed warm-up each; {threads} threads\n\n",
        args.seed
    );
    s += "| solver | wall s | CPU s | deals/s |\n|---|---:|---:|---:|\n";
    s += &format!(
        "| `pbn_core::dd::solve_tables` (DDS batch, dds-bridge) | {ours_s:.2} | {ours_cpu:.2} | {:.0} |\n",
        n as f64 / ours_s
    );
    let hovered = &texts[..texts.len().min(if args.quick { 2 } else { 20 })];
    let hover = hover_rows(args, hovered, Duration::ZERO)?
        + &hover_rows(args, hovered, Duration::from_secs(1))?
        + &hover_floor(&deals[..hovered.len()]);
    if args.quick {
        s += "\nendplay: not run in a `--quick` smoke run.\n";
        s += &hover;
        return Ok(s);
    }
    match (endplay, endplay_error) {
        (_, Some(e)) => s += &format!("\nendplay: failed ({e})\n"),
        (Some(Endplay::Ready { version, .. }), None) => {
            let theirs_s = median(theirs.iter().map(|t| t.0).collect());
            let theirs_cpu = median(theirs.iter().map(|t| t.1).collect());
            // Each pair of neighbouring runs shares the machine's load.
            let paired = median(theirs.iter().zip(&times).map(|(t, o)| t.0 / o).collect());
            let agree = their_tables
                .iter()
                .zip(&ours_dd)
                .filter(|(a, b)| a == b)
                .count();
            s += &format!(
                "| endplay {version} `calc_all_tables` (`tests/bench/endplay_dd.py`) | {theirs_s:.2} | {theirs_cpu:.2} | {:.0} |\n\n",
                n as f64 / theirs_s
            );
            s += &format!(
                "The tables agree on {agree} of {n} deals. Target: at least as fast as endplay: **{}** ({:.2}×; {paired:.2}× the median of each pair's ratio).\n",
                if paired >= 1.0 { "met" } else { "missed" },
                theirs_s / ours_s
            );
        }
        (Some(Endplay::Unavailable(why)), None) => {
            s += &format!("\nendplay: not measured ({why})\n")
        }
        (None, None) => {}
    }
    s += &hover;
    Ok(s)
}

/// One timed run of endplay's `calc_all_tables` on the deals of `file`
/// (one a line): wall and CPU seconds, and each deal's DoubleDummyTricks.
fn endplay_once(
    python: &std::path::Path,
    file: &std::path::Path,
) -> Result<(f64, f64, Vec<String>), String> {
    let out = Command::new(python)
        .arg(repo_root().join("tests/bench/endplay_dd.py"))
        .arg("tables")
        .arg(file)
        .args(["--reps", "1"])
        .output()
        .map_err(|e| e.to_string())?;
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("endplay_dd.py: {e}"))?;
    let first = |key: &str| {
        v[key][0]
            .as_f64()
            .ok_or_else(|| format!("endplay_dd.py: {v}"))
    };
    let tables = v["tables"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect();
    Ok((first("seconds")?, first("cpu_seconds")?, tables))
}

/// The language server's hover on a Deal: for each deal (one game each, in
/// one document), milliseconds from the first hover on it to the hover
/// that shows the table (polled every 5 ms), the first hover `after` the
/// document's diagnostics (a fresh server: nothing solved before the
/// open). The target: ≤ 200 ms.
fn hover_rows(args: &Args, deals: &[String], after: Duration) -> Result<String, String> {
    use pbn_tests::lsp_client::LspClient;
    use serde_json::json;
    let bin = super::check::pbn_binary(args)?;
    let mut text = String::new();
    for (i, d) in deals.iter().enumerate() {
        text += &format!(
            "[Board \"{}\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"{d}\"]\n\n",
            i + 1
        );
    }
    let uri = "file:///tmp/pbn-bench-dd/hover.pbn";
    let mut c = LspClient::spawn_with(&bin);
    c.initialize(&["utf-16"]);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": 1, "text": text}}),
    );
    let _ = c.diagnostics(uri, 1);
    std::thread::sleep(after);
    let mut ms = Vec::new();
    let mut first_answer = Vec::new();
    for i in 0..deals.len() {
        let params = json!({"textDocument": {"uri": uri},
            "position": {"line": 5 * i + 3, "character": 10}});
        let start = Instant::now();
        let mut first = true;
        loop {
            let t = Instant::now();
            let h = c.request("textDocument/hover", params.clone());
            if first {
                first_answer.push(t.elapsed().as_secs_f64() * 1000.0);
                first = false;
            }
            let md = h["result"]["contents"]["value"]
                .as_str()
                .unwrap_or_default();
            let solving = md.contains("solving…");
            if md.contains("Double dummy") && !solving {
                break;
            }
            if !solving || start.elapsed().as_secs() > 30 {
                c.shutdown();
                return Err(format!(
                    "hover on deal {} never showed the table: {md}",
                    i + 1
                ));
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        ms.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    c.shutdown();
    let max = |v: &[f64]| v.iter().cloned().fold(0.0, f64::max);
    let table_max = max(&ms);
    let within = ms.iter().filter(|&&t| t <= 200.0).count();
    Ok(format!(
        "\nHover (`pbn lsp`, {} deals hovered one after another, {}): the first answer (\"solving…\") in {:.1} ms median, {:.1} ms at most; the table {:.0} ms median, {:.0} ms at most after the first hover ({within} of {} within 200 ms). Target ≤ 200 ms: **{}**.\n",
        deals.len(),
        if after.is_zero() {
            "from its diagnostics after the open".to_string()
        } else {
            format!("{} s after them", after.as_secs_f64())
        },
        median(first_answer.clone()),
        max(&first_answer),
        median(ms.clone()),
        table_max,
        ms.len(),
        if table_max <= 200.0 { "met" } else { "missed" }
    ))
}

/// What the hover can reach at best: the solver's CPU time for each hovered
/// deal's 20 results on one thread. Split over the cores, a table shows no
/// sooner than that divided by the core count (DDS solves a strain's four
/// declarers on one thread, so five strains on two cores take three rounds,
/// and the wait is longer when one strain is the hard one).
fn hover_floor(deals: &[pbn_core::model::values::Deal]) -> String {
    let mut ms = Vec::new();
    for d in deals {
        let c = cpu_seconds();
        if pbn_core::dd::solve_hands_one_thread(&d.hands, &d.spot_cards).is_err() {
            return "\nSolver CPU per hovered deal: a deal did not solve.\n".into();
        }
        ms.push((cpu_seconds() - c) * 1000.0);
    }
    let max = ms.iter().cloned().fold(0.0, f64::max);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "\nSolver CPU per hovered deal (its 20 results on one thread, `solve_hands_one_thread`): {:.0} ms median, {max:.0} ms at most; on {threads} cores the hardest cannot show sooner than {:.0} ms however its work is split.\n",
        median(ms.clone()),
        max / threads as f64,
    )
}
