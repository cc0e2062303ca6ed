//! `pbn-bench dd`: the 20-result double-dummy table of 1,000 random deals
//! (seeded), in one run: the solvers of [`ALL_CORES`] on every core and
//! those of [`ONE_THREAD`] on one thread, against endplay's
//! `calc_all_tables` (DDS 2.9) on the same deals, every core and then one
//! thread (`SetMaxThreads(1)`). The one-thread rows run in a child process
//! started with `RAYON_NUM_THREADS=1` (the solver pool's size), on the first
//! `--sample` deals (default 300). Every solver's tables are compared deal
//! by deal. With `PBN_BENCH_DD_BEFORE` naming the binary that
//! `tests/bench/dd_before.sh` builds, the solver before pons-dds
//! (dds-bridge, C++ DDS) runs on the same deals too, interleaved on every
//! core and then on one thread. `--quick` (the CI smoke run) solves 20
//! deals and never starts Python.

use super::check::{endplay_setup, Endplay};
use super::*;
use pbn_core::dd::{solve_hands_one_thread, solve_table, solve_tables, DdTable};
use pbn_core::model::values::Deal;
use pbn_tests::gen::Rng;
use std::process::Command;

/// A solver under test: each deal's DoubleDummyTricks (empty: not solved).
type SolveFn = fn(&[Deal]) -> Vec<String>;

fn dd_text(t: Option<DdTable>) -> String {
    t.map(|t| t.double_dummy_tricks()).unwrap_or_default()
}

fn batch(deals: &[Deal]) -> Vec<String> {
    solve_tables(deals).into_iter().map(dd_text).collect()
}

fn each(deals: &[Deal]) -> Vec<String> {
    deals.iter().map(|d| dd_text(solve_table(d).ok())).collect()
}

fn each_one_thread(deals: &[Deal]) -> Vec<String> {
    deals
        .iter()
        .map(|d| dd_text(solve_hands_one_thread(&d.hands, &d.spot_cards).ok()))
        .collect()
}

/// The rows timed on every core, interleaved with endplay's.
const ALL_CORES: &[(&str, SolveFn)] = &[
    (
        "`pbn_core::dd::solve_tables` (a deal per worker, pons-dds `Solver`)",
        batch,
    ),
    (
        "`pbn_core::dd::solve_table` a deal at a time (pons-dds `solve_deal`)",
        each,
    ),
];

/// The rows timed on one thread (a child process, `RAYON_NUM_THREADS=1`).
const ONE_THREAD: &[(&str, SolveFn)] = &[
    (
        "`pbn_core::dd::solve_tables` (a deal per worker, pons-dds `Solver`)",
        batch,
    ),
    (
        "`pbn_core::dd::solve_hands_one_thread` (pons-dds `Solver`, the calling thread)",
        each_one_thread,
    ),
];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// CPU seconds of this process so far, every thread (the solvers' workers
/// too).
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return f64::NAN;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// Wall and CPU seconds of `f`, and its tables.
fn timed(f: SolveFn, deals: &[Deal]) -> (f64, f64, Vec<String>) {
    let (t, c) = (Instant::now(), cpu_seconds());
    let tables = f(deals);
    (t.elapsed().as_secs_f64(), cpu_seconds() - c, tables)
}

/// The environment variable that makes `pbn-bench` the one-thread child
/// of [`run`]: its value is a file of deals, one a line.
pub const ONE_THREAD_CHILD: &str = "PBN_BENCH_DD_ONE_THREAD";

/// The child's work: each [`ONE_THREAD`] solver on the deals of `file`
/// (after an untimed warm-up on the first five), one JSON line each:
/// `{"wall": s, "cpu": s, "tables": [...]}`.
pub fn one_thread_child(file: &std::ffi::OsStr) -> std::process::ExitCode {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let deals: Vec<Deal> = text
        .lines()
        .filter_map(|l| pbn_core::model::values::parse_deal(l).value)
        .collect();
    for (_, f) in ONE_THREAD {
        f(&deals[..deals.len().min(5)]);
        let (wall, cpu, tables) = timed(*f, &deals);
        println!(
            "{}",
            serde_json::json!({"wall": wall, "cpu": cpu, "tables": tables})
        );
    }
    std::process::ExitCode::SUCCESS
}

/// The environment variable naming the old solver's binary
/// (`tests/bench/dd_before.rs`).
pub const BEFORE: &str = "PBN_BENCH_DD_BEFORE";

/// One timed run of the old solver (`dd_before FILE all|one`): wall and
/// CPU seconds, and each deal's DoubleDummyTricks.
fn before_once(
    bin: &std::path::Path,
    file: &std::path::Path,
    one: bool,
) -> Result<(f64, f64, Vec<String>), String> {
    let out = Command::new(bin)
        .arg(file)
        .arg(if one { "one" } else { "all" })
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            bin.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    Ok(timed_row(&v))
}

/// A child's JSON line: `{"wall", "cpu", "tables"}` as (wall, cpu, tables).
fn timed_row(v: &serde_json::Value) -> (f64, f64, Vec<String>) {
    let tables = v["tables"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| t.as_str().unwrap_or_default().to_string())
        .collect();
    (
        v["wall"].as_f64().unwrap_or(f64::NAN),
        v["cpu"].as_f64().unwrap_or(f64::NAN),
        tables,
    )
}

/// Runs [`one_thread_child`] on `file` in a new process of this binary.
fn one_thread_rows(file: &std::path::Path) -> Result<Vec<(f64, f64, Vec<String>)>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = Command::new(exe)
        .env(ONE_THREAD_CHILD, file)
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "the one-thread child failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
            Ok(timed_row(&v))
        })
        .collect()
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

/// The 1-, 5- and 15-minute load averages.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "?".into())
}

pub fn run(args: &Args) -> Result<String, String> {
    let load_start = load();
    let n = if args.quick {
        20
    } else {
        args.games.unwrap_or(1000)
    };
    let m = if args.quick {
        5
    } else {
        args.sample.unwrap_or(300).min(n)
    };
    let reps = args.reps.unwrap_or(1);
    let texts = random_deals(n, args.seed);
    let deals: Vec<Deal> = texts
        .iter()
        .map(|t| pbn_core::model::values::parse_deal(t).value.ok_or("a deal"))
        .collect::<Result<_, _>>()?;
    // The first run also starts the solvers (memory, threads): untimed.
    for (_, f) in ALL_CORES {
        f(&deals[..n.min(10)]);
    }
    let endplay = if args.quick {
        None
    } else {
        Some(endplay_setup(args))
    };
    let python = match &endplay {
        Some(Endplay::Ready { python, .. }) => Some(python.clone()),
        _ => None,
    };
    let tmp = std::env::temp_dir();
    let all_file = tmp.join(format!("pbn-bench-dd-{}.txt", std::process::id()));
    let one_file = tmp.join(format!("pbn-bench-dd-{}-one.txt", std::process::id()));
    std::fs::write(&all_file, texts.join("\n") + "\n").map_err(|e| e.to_string())?;
    std::fs::write(&one_file, texts[..m].join("\n") + "\n").map_err(|e| e.to_string())?;
    // Interleaved (each solver, then endplay, again) so that the load of a
    // shared machine falls on all alike.
    let mut times: Vec<Vec<(f64, f64)>> = vec![Vec::new(); ALL_CORES.len()];
    let mut tables: Vec<Vec<String>> = vec![Vec::new(); ALL_CORES.len()];
    let mut theirs: Vec<(f64, f64)> = Vec::new();
    let mut their_tables: Vec<String> = Vec::new();
    let mut endplay_error = None;
    let before = std::env::var_os(BEFORE)
        .filter(|_| !args.quick)
        .map(std::path::PathBuf::from);
    let mut old: Vec<(f64, f64)> = Vec::new();
    let mut old_tables: Vec<String> = Vec::new();
    for rep in 0..reps {
        for (i, (name, f)) in ALL_CORES.iter().enumerate() {
            eprintln!("  run {}: {name} on {n} deals", rep + 1);
            let (wall, cpu, t) = timed(*f, &deals);
            times[i].push((wall, cpu));
            tables[i] = t;
        }
        if let Some(python) = &python {
            eprintln!("  run {}: endplay on {n} deals", rep + 1);
            match endplay_once(python, &all_file, None) {
                Ok((secs, cpu, t)) => {
                    theirs.push((secs, cpu));
                    their_tables = t;
                }
                Err(e) => endplay_error = Some(e),
            }
        }
        if let Some(bin) = &before {
            eprintln!("  run {}: dds-bridge on {n} deals", rep + 1);
            let (wall, cpu, t) = before_once(bin, &all_file, false)?;
            old.push((wall, cpu));
            old_tables = t;
        }
    }
    eprintln!("  one thread: {m} deals");
    let one = one_thread_rows(&one_file);
    let their_one = match &python {
        Some(python) if endplay_error.is_none() => Some(endplay_once(python, &one_file, Some(1))),
        _ => None,
    };
    let old_one = match &before {
        Some(bin) => Some(before_once(bin, &one_file, true)?),
        None => None,
    };
    let _ = std::fs::remove_file(&all_file);
    let _ = std::fs::remove_file(&one_file);
    let one = one?;
    let reference = &tables[0];
    if reference.iter().any(String::is_empty) {
        return Err("a random deal did not solve".into());
    }
    let agree = |t: &[String]| t.iter().zip(reference).filter(|(a, b)| a == b).count();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let mut s = String::new();
    s += "## Double-dummy tables: pons-dds against dds-bridge and endplay\n\n";
    s += &format!("- Machine: {}\n", report::machine());
    let before_env = if before.is_some() {
        format!("{BEFORE}=$(tests/bench/dd_before.sh) ")
    } else {
        String::new()
    };
    s += &format!("- Command: `{before_env}{}`\n", report::command(&args.argv));
    s += &format!(
        "- Date: {}; commit {}; load average (1, 5, 15 min) {load_start} at the start, {} at the end\n",
        report::utc_now(),
        report::commit(),
        load()
    );
    s += &format!(
        "- Input: {n} random deals (`bench/dd.rs` `random_deals`, seed {}), all 20 results of each; on all {threads} cores: wall clock, median of {reps} run(s) interleaved with the others'; on one thread: the first {m} deals, in a child process with `RAYON_NUM_THREADS=1` (endplay: DDS `SetMaxThreads(1)`). CPU: every thread of the process. After an untimed warm-up each. `agree`: deals whose 20 results are those of the first row.\n\n",
        args.seed
    );
    s += "| solver | threads | deals | wall s | CPU s | CPU ms/deal | agree |\n|---|---|---:|---:|---:|---:|---:|\n";
    let row = |name: &str, threads: &str, k: usize, wall: f64, cpu: f64, agree: usize| {
        format!(
            "| {name} | {threads} | {k} | {wall:.2} | {cpu:.2} | {:.1} | {agree} |\n",
            cpu * 1000.0 / k as f64
        )
    };
    let med = |v: &[(f64, f64)]| {
        (
            median(v.iter().map(|t| t.0).collect()),
            median(v.iter().map(|t| t.1).collect()),
        )
    };
    let all = format!("all {threads}");
    for (i, (name, _)) in ALL_CORES.iter().enumerate() {
        let (wall, cpu) = med(&times[i]);
        s += &row(name, &all, n, wall, cpu, agree(&tables[i]));
    }
    let version = match &endplay {
        Some(Endplay::Ready { version, .. }) => version.clone(),
        _ => String::new(),
    };
    let endplay_name = format!("endplay {version} `calc_all_tables` (DDS 2.9)");
    if !old.is_empty() {
        let (wall, cpu) = med(&old);
        s += &row(
            "dds-bridge 0.21 `solve_tables` (C++ DDS, before pons-dds: f48a19f)",
            &all,
            n,
            wall,
            cpu,
            agree(&old_tables),
        );
    }
    let (their_wall, _) = med(&theirs);
    if !theirs.is_empty() {
        let (wall, cpu) = med(&theirs);
        s += &row(&endplay_name, &all, n, wall, cpu, agree(&their_tables));
    }
    for ((name, _), (wall, cpu, t)) in ONE_THREAD.iter().zip(&one) {
        s += &row(name, "1", m, *wall, *cpu, agree(t));
    }
    let mut their_one_cpu = None;
    let mut their_one_error = None;
    match &their_one {
        Some(Ok((wall, cpu, t))) => {
            s += &row(&endplay_name, "1", m, *wall, *cpu, agree(t));
            their_one_cpu = Some(*cpu);
        }
        Some(Err(e)) => their_one_error = Some(e.clone()),
        None => {}
    }
    if let Some((wall, cpu, t)) = &old_one {
        s += &row(
            "dds-bridge 0.21 `solve_hands_one_thread` (C++ DDS, the calling thread)",
            "1",
            m,
            *wall,
            *cpu,
            agree(t),
        );
    }
    s += "\n";
    if let Some(e) = their_one_error {
        s += &format!("- endplay on one thread: failed ({e})\n");
    }
    if args.quick {
        s += "- endplay: not run in a `--quick` smoke run.\n";
    } else if let Some(e) = endplay_error {
        s += &format!("- endplay: failed ({e})\n");
    } else if let Some(Endplay::Unavailable(why)) = &endplay {
        s += &format!("- endplay: not measured ({why})\n");
    }
    if let (Some(their_cpu), Some((_, our_cpu, _))) = (their_one_cpu, one.first()) {
        let ratio = our_cpu / their_cpu;
        s += &format!(
            "- Target: CPU per deal on one thread within 1.2× of endplay: **{}** ({ratio:.2}×).\n",
            if ratio <= 1.2 { "met" } else { "missed" }
        );
    }
    if let (Some((_, old_cpu, _)), Some((_, our_cpu, _))) = (&old_one, one.get(1)) {
        s += &format!(
            "- pons-dds against dds-bridge, CPU on one thread (`solve_hands_one_thread` both): {:.2}× (the issue's limit for the switch: 1.3×).\n",
            our_cpu / old_cpu
        );
    }
    if !old.is_empty() {
        let paired = median(old.iter().zip(&times[0]).map(|(t, o)| t.0 / o.0).collect());
        s += &format!(
            "- pons-dds against dds-bridge, {n} deals on all cores: {paired:.2}× dds-bridge's speed (median of each pair's ratio).\n"
        );
    }
    if !theirs.is_empty() {
        let (our_wall, _) = med(&times[0]);
        // Each pair of neighbouring runs shares the machine's load.
        let paired = median(
            theirs
                .iter()
                .zip(&times[0])
                .map(|(t, o)| t.0 / o.0)
                .collect(),
        );
        s += &format!(
            "- Target: a batch of {n} deals on all cores at least as fast as endplay: **{}** ({:.2}× endplay's speed; {paired:.2}× the median of each pair's ratio).\n",
            if paired >= 1.0 { "met" } else { "missed" },
            their_wall / our_wall
        );
    }
    let hovered = &texts[..texts.len().min(if args.quick { 2 } else { 20 })];
    let floor = hover_floor(&deals[..hovered.len()]);
    s += &hover_rows(args, hovered, false, 200.0)?;
    s += &hover_rows(args, hovered, true, 50.0)?;
    s += &floor;
    s += &play_rows(if args.quick { 2 } else { 20 }, args.seed);
    Ok(s)
}

/// The play analysis (`pbn_core::dd::play::analyse_play`: every card's
/// tricks, and the better cards before each costly one) of the first
/// `games` fully played games of `pbn_tests::gen`: CPU ms per game (every
/// thread of the process) against the 1 s.
fn play_rows(games: usize, seed: u64) -> String {
    use pbn_tests::gen::{generate, GenOptions};
    let text = generate(games * 2, seed, &GenOptions::endplay_compatible());
    let trees = pbn_core::syntax::parse_split(&text, usize::MAX);
    let doc = pbn_core::model::lower(&trees, &text);
    let mut ms = Vec::new();
    let mut costly = 0;
    for g in &doc.games {
        let t = pbn_core::model::typed::typed(&text, g);
        let Ok(line) = pbn_core::dd::play::line_of(&text, g, &t) else {
            continue;
        };
        if line.trace.cards.len() != 52 || ms.len() == games {
            continue;
        }
        let c = cpu_seconds();
        match pbn_core::dd::play::analyse_play(&line.trace) {
            Ok(r) => costly += r.costly().count(),
            Err(e) => return format!("- Play analysis: a game did not solve ({e}).\n"),
        }
        ms.push((cpu_seconds() - c) * 1000.0);
    }
    let max = ms.iter().cloned().fold(0.0, f64::max);
    format!(
        "- Play analysis of a fully played game (`analyse_play`, {} generated games, {costly} costly cards): {:.0} ms of CPU median, {max:.0} ms at most. Target < 1 s: **{}**.\n",
        ms.len(),
        median(ms.clone()),
        if max < 1000.0 { "met" } else { "missed" }
    )
}

/// One timed run of endplay's `calc_all_tables` on the deals of `file`
/// (one a line), on `threads` threads (default: DDS's, every core): wall and CPU seconds, and each deal's DoubleDummyTricks.
fn endplay_once(
    python: &std::path::Path,
    file: &std::path::Path,
    threads: Option<usize>,
) -> Result<(f64, f64, Vec<String>), String> {
    let mut cmd = Command::new(python);
    cmd.arg(repo_root().join("tests/bench/endplay_dd.py"))
        .arg("tables")
        .arg(file)
        .args(["--reps", "1"]);
    if let Some(t) = threads {
        cmd.args(["--threads", &t.to_string()]);
    }
    let out = cmd.output().map_err(|e| e.to_string())?;
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
/// that shows the table (polled every 5 ms), the first hover right after
/// the document's diagnostics (a fresh server: nothing solved before the
/// open), or with `prefetched` once the server has solved every deal in
/// the background; against `target_ms`.
fn hover_rows(
    args: &Args,
    deals: &[String],
    prefetched: bool,
    target_ms: f64,
) -> Result<String, String> {
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
    if prefetched {
        // The log line of the background solving of version 1 (one
        // thread at low priority: slow on a loaded machine).
        c.timeout = Duration::from_secs(600);
        c.wait_for(|m| {
            m["method"] == "window/logMessage"
                && m["params"]["message"]
                    .as_str()
                    .is_some_and(|s| s.contains("version 1: ") && s.contains("in the background"))
        });
        c.timeout = Duration::from_secs(30);
    }
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
    let within = ms.iter().filter(|&&t| t <= target_ms).count();
    Ok(format!(
        "- Hover (`pbn lsp`, {} deals hovered one after another, {}): the first answer (\"solving…\") in {:.1} ms median, {:.1} ms at most; the table {:.0} ms median, {:.0} ms at most after the first hover ({within} of {} within {target_ms:.0} ms). Target ≤ {target_ms:.0} ms: **{}**.\n",
        deals.len(),
        if prefetched {
            "every deal solved in the background first"
        } else {
            "from its diagnostics after the open"
        },
        median(first_answer.clone()),
        max(&first_answer),
        median(ms.clone()),
        table_max,
        ms.len(),
        if table_max <= target_ms { "met" } else { "missed" }
    ))
}

/// What the hover can reach at best: the solver's CPU time for each hovered
/// deal's 20 results on one thread. Split over the cores, a table shows no
/// sooner than that divided by the core count (DDS solves a strain's four
/// declarers on one thread, so five strains on two cores take three rounds,
/// and the wait is longer when one strain is the hard one).
fn hover_floor(deals: &[Deal]) -> String {
    let mut ms = Vec::new();
    for d in deals {
        let c = cpu_seconds();
        if solve_hands_one_thread(&d.hands, &d.spot_cards).is_err() {
            return "- Solver CPU per hovered deal: a deal did not solve.\n".into();
        }
        ms.push((cpu_seconds() - c) * 1000.0);
    }
    let max = ms.iter().cloned().fold(0.0, f64::max);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "- Solver CPU per hovered deal (its 20 results on one thread, `solve_hands_one_thread`): {:.0} ms median, {max:.0} ms at most; on {threads} cores the hardest cannot show sooner than {:.0} ms however its work is split.\n",
        median(ms.clone()),
        max / threads as f64,
    )
}
