//! `check`: `pbn check` against the bare parse, endplay's reader and `wc -l`.
//!
//! One run measures, on the same generated file and round-robin (so that a
//! burst of load from other processes hits every tool alike):
//!
//! - `wc -l FILE`, the I/O floor;
//! - the bare tree-sitter parse (one core) and parse + lower (no rules);
//! - `pbn check` in-process (`decode` + `check_text`, the per-game rules
//!   on every core) and the release CLI end to end
//!   (`pbn check --format json FILE > /dev/null`), also pinned to one core;
//! - endplay's `endplay.parsers.pbn.load(f)` (tests/bench/endplay_load.py in
//!   the venv `<repo>/.venv`) on a copy of the same file with NAGs and
//!   comments removed (endplay's reader cannot read them there), so the
//!   games and deals are the same;
//! - the checker's stages one by one (decode, parse, lower, syntax
//!   diagnostics, per-game rules on one core with and without the export
//!   rules, all rules on every core, dropping tree and model).
//!
//! Every measurement runs at each size, smallest first. A measurement whose
//! run at the next size is estimated (power law through the two previous
//! sizes) to take more than `--budget` seconds is not run there: the report
//! gives the estimate instead, marked as such.

use super::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use timing::{mb_per_s, Summary};

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::diagnostic::Severity;

/// `endplay load time / pbn check time` must be at least this.
const ENDPLAY_RATIO_TARGET: f64 = 10.0;
/// `pbn check time / bare parse time` must be at most this.
const PARSE_RATIO_TARGET: f64 = 1.5;
/// Issue 46: instructions per byte of input (callgrind).
const IPB_TARGET: f64 = 600.0;
/// Issue 46: all cores against one, on a quiet machine.
const THREADS_TARGET: f64 = 1.6;
/// Runs shorter than this get an untimed warm-up run first.
const WARMUP_BELOW_S: f64 = 2.0;

/// Which input a measurement reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    /// The generated file (all features).
    Full,
    /// The endplay-readable copy (NAGs and comments removed).
    Endplay,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    /// A row of the comparison table.
    Tool,
    /// A row of the stage table.
    Stage,
}

/// What one measurement does; the closure is built per size.
struct Spec {
    id: &'static str,
    label: String,
    group: Group,
    input: Input,
}

/// The outcome of one measurement at one size.
#[derive(Clone, Debug)]
enum Outcome {
    Measured(Summary),
    /// Not run: the estimated seconds for one run and the exponent used.
    Estimated {
        secs: f64,
        exponent: f64,
    },
    /// Could not run (e.g. endplay missing).
    Unavailable(String),
}

impl Outcome {
    /// Median seconds, measured or estimated.
    fn secs(&self) -> Option<f64> {
        match self {
            Outcome::Measured(s) => Some(s.median.as_secs_f64()),
            Outcome::Estimated { secs, .. } => Some(*secs),
            Outcome::Unavailable(_) => None,
        }
    }
    fn is_estimate(&self) -> bool {
        matches!(self, Outcome::Estimated { .. })
    }
}

type Run<'a> = Box<dyn FnMut() -> Result<Duration, String> + 'a>;

/// Everything about one size.
struct SizeResult {
    games: usize,
    bytes: usize,
    endplay_bytes: usize,
    lines: usize,
    /// Diagnostics of the in-process check, by severity (error, warning,
    /// other); `None` when the check was not run at this size.
    diagnostics: Option<(usize, usize, usize)>,
    endplay_boards: Option<(usize, usize)>,
    played: usize,
    /// Instructions of `pbn check --format json FILE` counted by
    /// `valgrind --tool=callgrind` (at 1,000 games only: it runs about 50
    /// times slower), or why not.
    instructions: Option<Result<u64, String>>,
}

/// Where the endplay side stands.
pub(super) enum Endplay {
    Ready {
        python: PathBuf,
        script: PathBuf,
        version: String,
    },
    Unavailable(String),
}

pub fn run(args: &Args) -> Result<String, String> {
    let sizes: Vec<usize> = match (args.quick, args.games) {
        (true, _) => vec![100, 200],
        (false, Some(g)) if g <= 2_000 => vec![g],
        (false, Some(g)) => vec![1_000, 2_000, g],
        (false, None) => vec![1_000, 2_000, 20_000],
    };
    let reps_for = |g: usize| {
        args.reps.unwrap_or(if args.quick {
            2
        } else {
            match g {
                0..=1_000 => 3,
                1_001..=2_000 => 2,
                _ => 5,
            }
        })
    };
    let budget = if args.budget > 0.0 {
        args.budget
    } else {
        f64::INFINITY
    };
    eprintln!("pbn-bench check: sizes {sizes:?} games, seed {}, budget {budget} s per measurement and size", args.seed);

    // Before anything runs: the load average it reports is the one at start.
    let machine = report::machine();
    let pbn_bin = pbn_binary(args)?;
    eprintln!("  pbn binary: {}", pbn_bin.display());
    let endplay = if args.quick {
        Endplay::Unavailable("not run in a --quick smoke run".into())
    } else {
        endplay_setup(args)
    };
    match &endplay {
        Endplay::Ready {
            python, version, ..
        } => eprintln!("  endplay {version} via {}", python.display()),
        Endplay::Unavailable(why) => eprintln!("  endplay: unavailable: {why}"),
    }
    let one_cpu = first_allowed_cpu();
    let have_taskset = Command::new("taskset")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();

    let (dir, keep_dir) = match &args.dump {
        Some(d) => (d.clone(), true),
        None => (
            std::env::temp_dir().join(format!("pbn-bench-check-{}", std::process::id())),
            false,
        ),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;

    // id -> [(games, outcome)], smallest size first.
    let mut history: BTreeMap<&'static str, Vec<(usize, Outcome)>> = BTreeMap::new();
    let mut specs_seen: Vec<Spec> = Vec::new();
    let mut sizes_out = Vec::new();
    let opts = CheckOptions {
        export: false,
        ..Default::default()
    };

    for &games in &sizes {
        let text = generate(games, args.seed, &GenOptions::default());
        let ep_text = endplay_copy(&text);
        let path = dir.join(format!("check-{games}.pbn"));
        let ep_path = dir.join(format!("check-{games}-endplay.pbn"));
        std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        std::fs::write(&ep_path, &ep_text).map_err(|e| format!("{}: {e}", ep_path.display()))?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;

        // Set-up shared by the stage measurements (untimed), and checks
        // that the numbers mean something.
        let source = pbn_core::text::decode(&bytes);
        let tree = pbn_core::syntax::parse(&source.text);
        if tree.root_node().has_error() {
            return Err(format!(
                "the {games}-game file parses with errors; the numbers would be meaningless"
            ));
        }
        let doc = pbn_core::model::lower(&tree, &source.text);
        if doc.games.len() != games {
            return Err(format!(
                "the model has {} games, expected {games}",
                doc.games.len()
            ));
        }
        // The generator writes `% EXPORT`, so every game is under export rules.
        let export_from = source
            .text
            .lines()
            .take(8)
            .any(|l| l.trim() == "% EXPORT")
            .then_some(0);
        let played = text.lines().filter(|l| l.starts_with("[Play ")).count();
        let mut result = SizeResult {
            games,
            bytes: bytes.len(),
            endplay_bytes: ep_text.len(),
            lines: text.lines().count(),
            diagnostics: None,
            endplay_boards: None,
            played,
            instructions: (games == 1_000 && !args.quick).then(|| callgrind(&pbn_bin, &path)),
        };
        let diag_count = std::cell::Cell::new(None::<(usize, usize, usize)>);
        let ep_boards = std::cell::Cell::new(None::<(usize, usize)>);

        let mut ms: Vec<(Spec, Run)> = Vec::new();
        let tool = |id, label: &str, input| Spec {
            id,
            label: label.to_string(),
            group: Group::Tool,
            input,
        };
        let stage = |id, label: &str| Spec {
            id,
            label: label.to_string(),
            group: Group::Stage,
            input: Input::Full,
        };

        ms.push((tool("wc", "`wc -l` (I/O floor)", Input::Full), {
            let path = path.clone();
            Box::new(move || spawn_timed(Command::new("wc").arg("-l").arg(&path), &[0]))
        }));
        ms.push((tool("parse", "tree-sitter parse (1 core)", Input::Full), {
            let mut p = pbn_core::syntax::new_parser();
            let text = source.text.as_str();
            Box::new(move || {
                let start = Instant::now();
                let tree = p.parse(text, None).ok_or("no tree")?;
                let d = start.elapsed();
                drop(tree);
                Ok(d)
            })
        }));
        ms.push((
            tool("lower", "parse + lower, no rules (1 core)", Input::Full),
            {
                let mut p = pbn_core::syntax::new_parser();
                let text = source.text.as_str();
                Box::new(move || {
                    let start = Instant::now();
                    let tree = p.parse(text, None).ok_or("no tree")?;
                    let doc = pbn_core::model::lower(&tree, text);
                    let d = start.elapsed();
                    drop((doc, tree));
                    Ok(d)
                })
            },
        ));
        ms.push((
            tool(
                "check",
                "`pbn check` in-process (decode + `check_text`)",
                Input::Full,
            ),
            {
                let (bytes, opts, diag_count) = (&bytes, &opts, &diag_count);
                Box::new(move || {
                    let start = Instant::now();
                    let source = pbn_core::text::decode(bytes);
                    let res = check_text(&source, opts);
                    let d = start.elapsed();
                    let mut n = (0, 0, 0);
                    for d in &res.diagnostics {
                        match d.severity {
                            Severity::Error => n.0 += 1,
                            Severity::Warning => n.1 += 1,
                            _ => n.2 += 1,
                        }
                    }
                    diag_count.set(Some(n));
                    Ok(d)
                })
            },
        ));
        ms.push((
            tool(
                "cli",
                "`pbn check --format json FILE > /dev/null`",
                Input::Full,
            ),
            {
                let (bin, path) = (pbn_bin.clone(), path.clone());
                Box::new(move || {
                    spawn_timed(
                        Command::new(&bin)
                            .args(["check", "--format", "json"])
                            .arg(&path),
                        &[0, 1],
                    )
                })
            },
        ));
        if let (Some(cpu), true) = (one_cpu, have_taskset) {
            ms.push((
                tool(
                    "cli1",
                    &format!("the same, one core (`taskset -c {cpu}`)"),
                    Input::Full,
                ),
                {
                    let (bin, path) = (pbn_bin.clone(), path.clone());
                    Box::new(move || {
                        spawn_timed(
                            Command::new("taskset")
                                .args(["-c", &cpu.to_string()])
                                .arg(&bin)
                                .args(["check", "--format", "json"])
                                .arg(&path),
                            &[0, 1],
                        )
                    })
                },
            ));
        }
        ms.push((
            tool(
                "endplay",
                "endplay `pbn.load(f)` (Python, 1 core)",
                Input::Endplay,
            ),
            match &endplay {
                Endplay::Ready { python, script, .. } => {
                    let (python, script, ep_path, ep_boards) =
                        (python.clone(), script.clone(), ep_path.clone(), &ep_boards);
                    Box::new(move || {
                        let (d, boards, played) = endplay_once(&python, &script, &ep_path)?;
                        ep_boards.set(Some((boards, played)));
                        Ok(d)
                    })
                }
                Endplay::Unavailable(why) => {
                    let why = why.clone();
                    Box::new(move || Err(why.clone()))
                }
            },
        ));

        // Stages, one core unless said otherwise.
        ms.push((stage("s.decode", "decode (bytes → text)"), {
            let bytes = &bytes;
            Box::new(move || {
                let start = Instant::now();
                let s = pbn_core::text::decode(bytes);
                let d = start.elapsed();
                drop(s);
                Ok(d)
            })
        }));
        ms.push((stage("s.parse", "parse (tree-sitter)"), {
            let text = source.text.as_str();
            Box::new(move || {
                let start = Instant::now();
                let t = pbn_core::syntax::parse(text);
                let d = start.elapsed();
                drop(t);
                Ok(d)
            })
        }));
        ms.push((stage("s.lower", "lower (tree → model)"), {
            let (text, tree) = (source.text.as_str(), &tree);
            Box::new(move || {
                let start = Instant::now();
                let doc = pbn_core::model::lower(tree, text);
                let d = start.elapsed();
                drop(doc);
                Ok(d)
            })
        }));
        ms.push((
            stage("s.syntax", "syntax diagnostics (`syntax_diagnostics_for`)"),
            {
                let (text, tree, doc) = (source.text.as_str(), &tree, &doc);
                Box::new(move || {
                    let start = Instant::now();
                    let v = pbn_core::checker::syntax_diagnostics_for(tree, text, doc);
                    let d = start.elapsed();
                    drop(v);
                    Ok(d)
                })
            },
        ));
        ms.push((
            stage(
                "s.rules-noexport",
                "per-game rules, export rules off (`check_games`, 1 core)",
            ),
            {
                let (text, doc, opts) = (source.text.as_str(), &doc, &opts);
                Box::new(move || {
                    let start = Instant::now();
                    let v = rules_one_core(text, doc, opts, None);
                    let d = start.elapsed();
                    drop(v);
                    Ok(d)
                })
            },
        ));
        ms.push((
            stage(
                "s.rules-export",
                "per-game rules, export rules on (`check_games`, 1 core)",
            ),
            {
                let (text, doc, opts) = (source.text.as_str(), &doc, &opts);
                Box::new(move || {
                    let start = Instant::now();
                    let v = rules_one_core(text, doc, opts, export_from);
                    let d = start.elapsed();
                    drop(v);
                    Ok(d)
                })
            },
        ));
        ms.push((
            stage(
                "s.document",
                "all rules (`check_document`: file rules, then per-game rules on every core)",
            ),
            {
                let (source, tree, doc, opts) = (&source, &tree, &doc, &opts);
                Box::new(move || {
                    let start = Instant::now();
                    let v = pbn_core::rules::check_document(source, tree, doc, opts);
                    let d = start.elapsed();
                    drop(v);
                    Ok(d)
                })
            },
        ));
        ms.push((stage("s.drop", "dropping tree and model"), {
            let text = source.text.as_str();
            Box::new(move || {
                let tree = pbn_core::syntax::parse(text);
                let doc = pbn_core::model::lower(&tree, text);
                let start = Instant::now();
                drop((doc, tree));
                Ok(start.elapsed())
            })
        }));

        eprintln!(
            "  {games} games: {} ({}), endplay copy {}; {} reps",
            report::size(bytes.len()),
            path.display(),
            report::size(ep_text.len()),
            reps_for(games)
        );
        let outcomes = measure_round_robin(&mut ms, games, reps_for(games), budget, &history);
        for ((spec, _), outcome) in ms.into_iter().zip(outcomes) {
            history.entry(spec.id).or_default().push((games, outcome));
            if !specs_seen.iter().any(|s| s.id == spec.id) {
                specs_seen.push(spec);
            }
        }
        result.diagnostics = diag_count.get();
        result.endplay_boards = ep_boards.get();
        if let Some((boards, played_ep)) = result.endplay_boards {
            if boards != games || played_ep != played {
                return Err(format!(
                    "endplay read {boards} boards ({played_ep} with play) from the {games}-game copy ({played} with play)"
                ));
            }
        }
        // A failure of one tool fails the benchmark: its numbers would be wrong.
        for (id, runs) in &history {
            if let Some((g, Outcome::Unavailable(e))) = runs.last() {
                if *g == games && *id != "endplay" {
                    return Err(format!("{id} at {games} games: {e}"));
                }
            }
        }
        sizes_out.push(result);
    }
    if !keep_dir {
        let _ = std::fs::remove_dir_all(&dir);
    }

    Ok(render(
        args,
        &machine,
        &sizes_out,
        &specs_seen,
        &history,
        &endplay,
        budget,
    ))
}

/// Per-game rules on one core: `check_games` runs games sequentially when
/// given fewer than 256 of them, so call it on slices of 255.
fn rules_one_core(
    text: &str,
    doc: &pbn_core::model::Document,
    opts: &CheckOptions,
    export_from: Option<usize>,
) -> Vec<pbn_core::diagnostic::Diagnostic> {
    let n = doc.games.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let j = (i + 255).min(n);
        out.extend(pbn_core::rules::check_games(
            text,
            doc,
            opts,
            export_from,
            i..j,
        ));
        i = j;
    }
    out
}

/// The instructions that `pbn check --format json FILE` executes, all
/// threads together (`valgrind --tool=callgrind`; wall time on a shared
/// machine is too noisy for a per-byte cost).
fn callgrind(bin: &Path, path: &Path) -> Result<u64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(bin)
        .args(["check", "--format", "json"])
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("valgrind: {e} (install valgrind)"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| format!("valgrind gave no instruction count: {}", err.trim()))
}

/// Runs `cmd` with stdout to /dev/null; wall-clock from spawn to exit.
/// An exit status outside `ok` is an error with its stderr.
pub(super) fn spawn_timed(cmd: &mut Command, ok: &[i32]) -> Result<Duration, String> {
    let start = Instant::now();
    let out = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let d = start.elapsed();
    let out = out.map_err(|e| format!("{cmd:?}: {e}"))?;
    match out.status.code() {
        Some(c) if ok.contains(&c) => Ok(d),
        _ => Err(format!(
            "{cmd:?}: {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}

/// One `endplay_load.py` run: (load time, boards, boards with play).
fn endplay_once(
    python: &Path,
    script: &Path,
    file: &Path,
) -> Result<(Duration, usize, usize), String> {
    let out = Command::new(python)
        .arg(script)
        .arg(file)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "endplay_load.py: {e}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
    })?;
    if let Some(e) = v.get("error").and_then(|e| e.as_str()) {
        return Err(e.to_string());
    }
    let secs = v["seconds"]
        .as_array()
        .and_then(|a| a.first())
        .and_then(|s| s.as_f64())
        .ok_or("no seconds")?;
    let count = |k: &str| v[k].as_u64().map(|n| n as usize).ok_or(format!("no {k}"));
    Ok((
        Duration::from_secs_f64(secs),
        count("boards")?,
        count("played")?,
    ))
}

/// Estimated seconds of one run at `games` from earlier sizes (power law
/// through the last two measured medians; linear from one): (secs, exponent).
fn estimate(history: Option<&Vec<(usize, Outcome)>>, games: usize) -> Option<(f64, f64)> {
    let pts: Vec<(f64, f64)> = history?
        .iter()
        .filter_map(|(g, o)| match o {
            Outcome::Measured(s) => Some((*g as f64, s.median.as_secs_f64())),
            _ => None,
        })
        .collect();
    let &(n2, t2) = pts.last()?;
    let k = if pts.len() >= 2 {
        let (n1, t1) = pts[pts.len() - 2];
        ((t2 / t1).ln() / (n2 / n1).ln()).clamp(1.0, 3.0)
    } else {
        1.0
    };
    Some((t2 * (games as f64 / n2).powf(k), k))
}

/// Times every measurement `reps` times, interleaved round-robin, within
/// the budget (see the module doc).
fn measure_round_robin(
    ms: &mut [(Spec, Run)],
    games: usize,
    reps: usize,
    budget: f64,
    history: &BTreeMap<&'static str, Vec<(usize, Outcome)>>,
) -> Vec<Outcome> {
    // (samples, planned count, error or estimate that stops it)
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); ms.len()];
    let mut planned = vec![0usize; ms.len()];
    let mut stopped: Vec<Option<Outcome>> = vec![None; ms.len()];
    let plan = |secs: f64| ((budget / secs.max(1e-9)).floor() as usize).clamp(1, reps.max(1));

    // Round 0: warm-up, or the first sample, or the decision to skip.
    for (i, (spec, run)) in ms.iter_mut().enumerate() {
        match estimate(history.get(spec.id), games) {
            Some((secs, exponent)) if secs > budget => {
                eprintln!(
                    "    {:<24} skipped: estimated {secs:.1} s per run (n^{exponent:.2})",
                    spec.id
                );
                stopped[i] = Some(Outcome::Estimated { secs, exponent });
            }
            Some((secs, _)) if secs >= WARMUP_BELOW_S => planned[i] = plan(secs),
            _ => match run() {
                Ok(d) => {
                    let s = d.as_secs_f64();
                    planned[i] = plan(s);
                    if s >= WARMUP_BELOW_S {
                        samples[i].push(d);
                    }
                }
                Err(e) => stopped[i] = Some(Outcome::Unavailable(e)),
            },
        }
    }
    loop {
        let mut ran = false;
        for (i, (spec, run)) in ms.iter_mut().enumerate() {
            if stopped[i].is_some() || samples[i].len() >= planned[i] {
                continue;
            }
            ran = true;
            match run() {
                Ok(d) => samples[i].push(d),
                Err(e) => {
                    eprintln!("    {:<24} failed: {e}", spec.id);
                    stopped[i] = Some(Outcome::Unavailable(e));
                }
            }
        }
        if !ran {
            break;
        }
    }
    ms.iter()
        .zip(samples)
        .zip(stopped)
        .map(|(((spec, _), ds), stop)| {
            let outcome = match stop {
                Some(o) => o,
                None => {
                    let mut it = ds.into_iter();
                    let n = it.len();
                    Outcome::Measured(timing::measure(n, || it.next().unwrap()))
                }
            };
            if let Outcome::Measured(s) = &outcome {
                eprintln!(
                    "    {:<24} best {:>10.1} ms  median {:>10.1} ms  ({} reps)",
                    spec.id,
                    s.best.as_secs_f64() * 1e3,
                    s.median.as_secs_f64() * 1e3,
                    s.reps
                );
            }
            outcome
        })
        .collect()
}

/// The same games without NAGs and comments: endplay's reader splits the
/// auction and play lines on white space and can read neither. (Generating
/// with `GenOptions::endplay_compatible()` and the same seed would give
/// other deals after the first board: the options change how many random
/// numbers each game draws.)
pub(super) fn endplay_copy(text: &str) -> String {
    strip::nags(&strip::semicolon_comments(&strip::brace_comments(text)))
}

/// The `pbn` binary: `--pbn PATH`, else `$PBN_BIN`, else `release/pbn` in
/// this binary's target directory, built (or brought up to date) with
/// `cargo build --release -p pbn` first.
pub(super) fn pbn_binary(args: &Args) -> Result<PathBuf, String> {
    if let Some(p) = args
        .pbn_bin
        .clone()
        .or_else(|| std::env::var_os("PBN_BIN").map(PathBuf::from))
    {
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("pbn binary {} does not exist", p.display()))
        };
    }
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    // <target>/<profile>/pbn-bench
    let target = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| repo_root().join("target"));
    let bin = target.join("release").join("pbn");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!(
        "  building the release CLI: cargo build --release -p pbn --target-dir {}",
        target.display()
    );
    let status = Command::new(&cargo)
        .args(["build", "--release", "-q", "-p", "pbn", "--target-dir"])
        .arg(&target)
        .current_dir(repo_root())
        .status();
    match status {
        Ok(s) if s.success() => Ok(bin),
        other if bin.is_file() => {
            eprintln!(
                "  warning: cargo build failed ({other:?}); using the existing {}",
                bin.display()
            );
            Ok(bin)
        }
        other => Err(format!(
            "cannot build the pbn CLI ({other:?}); pass --pbn PATH or set PBN_BIN"
        )),
    }
}

/// The venv interpreter with endplay, creating `<repo>/.venv` and
/// installing endplay when missing. Never fails: says why instead.
pub(super) fn endplay_setup(args: &Args) -> Endplay {
    let script = repo_root().join("tests/bench/endplay_load.py");
    if !script.is_file() {
        return Endplay::Unavailable(format!("{} is missing", script.display()));
    }
    let python = args
        .python
        .clone()
        .or_else(|| std::env::var_os("PBN_BENCH_PYTHON").map(PathBuf::from))
        .unwrap_or_else(|| repo_root().join(".venv/bin/python"));
    let import = |py: &Path| {
        Command::new(py)
            .args([
                "-c",
                "import endplay; print(getattr(endplay, '__version__', '?'))",
            ])
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    if let Some(version) = import(&python) {
        return Endplay::Ready {
            python,
            script,
            version,
        };
    }
    if args.python.is_some() || std::env::var_os("PBN_BENCH_PYTHON").is_some() {
        return Endplay::Unavailable(format!("{} cannot import endplay", python.display()));
    }
    let venv = repo_root().join(".venv");
    let sh = |cmd: &mut Command| -> Result<(), String> {
        eprintln!("  {cmd:?}");
        match cmd.stdout(Stdio::null()).output() {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(format!(
                "{cmd:?} failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => Err(format!("{cmd:?}: {e}")),
        }
    };
    let setup = (|| {
        if !python.is_file() {
            sh(Command::new("python3").args(["-m", "venv"]).arg(&venv))?;
        }
        sh(Command::new(venv.join("bin/pip")).args(["install", "-q", "endplay"]))
    })();
    match (setup, import(&python)) {
        (_, Some(version)) => Endplay::Ready {
            python,
            script,
            version,
        },
        (Err(e), None) => Endplay::Unavailable(e),
        (Ok(()), None) => Endplay::Unavailable(format!(
            "endplay installed in {} but cannot be imported",
            venv.display()
        )),
    }
}

/// The first CPU this process may run on (for `taskset`).
fn first_allowed_cpu() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))?
        .trim()
        .to_string();
    list.split([',', '-']).next()?.trim().parse().ok()
}

fn render(
    args: &Args,
    machine: &str,
    sizes: &[SizeResult],
    specs: &[Spec],
    history: &BTreeMap<&'static str, Vec<(usize, Outcome)>>,
    endplay: &Endplay,
    budget: f64,
) -> String {
    let big = sizes.last().expect("at least one size");
    let at = |id: &str, games: usize| -> Option<&Outcome> {
        history
            .get(id)?
            .iter()
            .find(|(g, _)| *g == games)
            .map(|(_, o)| o)
    };
    let secs = |id: &str| at(id, big.games).and_then(Outcome::secs);
    let est = |id: &str| at(id, big.games).is_some_and(Outcome::is_estimate);
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let fmt_s = |s: f64| {
        if s >= 100.0 {
            format!("{s:.0}")
        } else if s >= 1.0 {
            format!("{s:.2}")
        } else {
            format!("{s:.3}")
        }
    };
    let games_s = thousands;

    let mut md = String::new();
    md += "## `pbn check` against the bare parse, endplay and `wc -l`\n\n";
    md += &format!("- Machine: {machine}\n");
    md += &format!("- Command: `{}`\n", report::command(&args.argv));
    md += &format!(
        "- Date: {}; commit {}\n",
        report::utc_now(),
        report::commit()
    );
    md += &format!(
        "- Input: `pbn_tests::gen::generate({}, seed {}, default options)`: fully played export-format games \
         with notes, NAGs, comments and tables (LF), {} ({} bytes), {} lines, {} games with a play section. \
         endplay reads a copy with the NAGs and comments removed (its reader cannot read them in the auction \
         and play sections; same games and deals, notes and tables kept), {} ({} bytes)\n",
        games_s(big.games),
        args.seed,
        report::size(big.bytes),
        thousands(big.bytes),
        thousands(big.lines),
        thousands(big.played),
        report::size(big.endplay_bytes),
        thousands(big.endplay_bytes)
    );
    md += &match big.diagnostics {
        Some((e, w, o)) => format!(
            "- pbn check result on that file: {} error(s), {} warning(s), {} other (expected: the generator \
             writes LF line endings, which export format forbids, one error per file; the other is the \
             hint on the application-specific `DoubleDummyTricks` tag, one per game grouped into one)\n",
            thousands(e),
            thousands(w),
            thousands(o)
        ),
        None => "- pbn check result on that file: not known, the in-process check was not run at this size\n".into(),
    };
    md += &match endplay {
        Endplay::Ready { version, .. } => match big.endplay_boards {
            Some((b, p)) => {
                format!(
                    "- endplay {version} (PyPI); it read {} boards, {} with play\n",
                    thousands(b),
                    thousands(p)
                )
            }
            None => format!("- endplay {version} (PyPI)\n"),
        },
        Endplay::Unavailable(why) => format!("- endplay: **not measured**: {why}\n"),
    };
    md += &format!(
        "- Method: wall clock; measurements interleaved round-robin, one untimed warm-up for runs under \
         {WARMUP_BELOW_S} s; in-process times exclude reading the file, the CLI times include process \
         start, reading, JSON output to `/dev/null` and exit; the endplay time is `load(f)` alone \
         (`time.perf_counter` in `tests/bench/endplay_load.py`, interpreter start and import excluded). \
         `pbn check` cuts the file at game breaks into pieces of about 32 KB (`syntax::Forest`) and parses, \
         lowers and checks each piece's games on one worker, on every core ({cores} here; \
         `checker::check` from an empty state), dropping each piece's trees when done; the \
         \"tree-sitter parse\" and \"parse + lower\" rows are one thread on the whole file, and the \
         stages (`--detail`) run the whole-document path (`reference::check_whole`), for reference. \
         Sizes {} games; a measurement estimated (power law through the two smaller sizes) to exceed \
         {} per run is not run and its estimate is shown in *italics*\n\n",
        sizes.iter().map(|s| games_s(s.games)).collect::<Vec<_>>().join(", "),
        if budget.is_finite() { format!("{budget} s") } else { "∞".into() }
    );
    let load_end = std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| {
        l.split_whitespace()
            .next()
            .and_then(|v| v.parse::<f64>().ok())
    });
    if let Some(l) = load_end {
        md.insert_str(
            md.len() - 1,
            &format!(
                "- Load average at the end: {l:.2}{}\n",
                if l > cores as f64 {
                    " (above the core count: other processes competed for the cores, so wall-clock times are \
                     inflated and the checker's second core was not fully available)"
                } else {
                    ""
                }
            ),
        );
    }

    // Main table at the largest size.
    let parse_s = secs("parse");
    md += "| tool | input | reps | best s | median s | MB/s | µs/game | × bare parse |\n\
           |---|---|---:|---:|---:|---:|---:|---:|\n";
    for spec in specs.iter().filter(|s| s.group == Group::Tool) {
        let bytes = if spec.input == Input::Endplay {
            big.endplay_bytes
        } else {
            big.bytes
        };
        let input = if spec.input == Input::Endplay {
            "endplay copy"
        } else {
            "full file"
        };
        let row = match at(spec.id, big.games) {
            Some(Outcome::Measured(s)) => {
                let m = s.median.as_secs_f64();
                format!(
                    "| {} | {input} | {} | {} | {} | {:.1} | {:.1} | {} |\n",
                    spec.label,
                    s.reps,
                    fmt_s(s.best.as_secs_f64()),
                    fmt_s(m),
                    mb_per_s(bytes, s.median),
                    m * 1e6 / big.games as f64,
                    parse_s.map(|p| format!("{:.2}", m / p)).unwrap_or_default()
                )
            }
            Some(Outcome::Estimated { secs: m, exponent }) => format!(
                "| {} | {input} | 0 | — | *~{} (est., n^{exponent:.2})* | *{:.2}* | *{:.0}* | *{}* |\n",
                spec.label,
                fmt_s(*m),
                bytes as f64 / 1e6 / m,
                m * 1e6 / big.games as f64,
                parse_s.map(|p| format!("{:.1}", m / p)).unwrap_or_default()
            ),
            Some(Outcome::Unavailable(why)) => format!("| {} | {input} | — | — | — | — | — | — (not measured: {}) |\n", spec.label, why.replace('|', "/")),
            None => continue,
        };
        md += &row;
    }

    // Scaling: medians at every size.
    if sizes.len() > 1 {
        md += "\nMedian seconds by size (exponent k of time ∝ games^k between the last two sizes):\n\n| measurement |";
        for s in sizes {
            md += &format!(" {} games |", games_s(s.games));
        }
        md += " k |\n|---|";
        md += &"---:|".repeat(sizes.len() + 1);
        md += "\n";
        // The stage rows (a profile of the whole-document path) with
        // `--detail` only.
        for spec in specs
            .iter()
            .filter(|s| args.detail || s.group != Group::Stage)
        {
            md += &format!(
                "| {}{} |",
                if spec.group == Group::Stage {
                    "stage: "
                } else {
                    ""
                },
                spec.label
            );
            let mut pts = Vec::new();
            for s in sizes {
                match at(spec.id, s.games) {
                    Some(Outcome::Measured(m)) => {
                        let v = m.median.as_secs_f64();
                        pts.push((s.games as f64, v));
                        md += &format!(" {} |", fmt_s(v));
                    }
                    Some(Outcome::Estimated { secs, .. }) => {
                        md += &format!(" *~{}* |", fmt_s(*secs))
                    }
                    _ => md += " — |",
                }
            }
            let k = (pts.len() >= 2).then(|| {
                let ((n1, t1), (n2, t2)) = (pts[pts.len() - 2], pts[pts.len() - 1]);
                (t2 / t1).ln() / (n2 / n1).ln()
            });
            md += &format!(" {} |\n", k.map(|k| format!("{k:.2}")).unwrap_or_default());
        }
    }

    // Targets.
    let check_s = secs("check");
    let cli_s = secs("cli");
    let ep_s = secs("endplay");
    let mark = |e: bool| if e { " (estimated)" } else { "" };
    md += "\n";
    if args.quick {
        md += "Not judged in a `--quick` smoke run.\n";
        return md;
    }
    let mut limits = Vec::new();
    // Issue 46: instructions per byte, and what the second core gives.
    for s in sizes {
        match &s.instructions {
            Some(Ok(n)) => {
                let ipb = *n as f64 / s.bytes as f64;
                md += &format!(
                    "- pbn check ≤ {IPB_TARGET} instructions per byte (callgrind, all threads, process start and JSON \
                     output included, {} games): **{}**: {ipb:.0} ({} instructions / {} bytes)\n",
                    games_s(s.games),
                    if ipb <= IPB_TARGET { "met" } else { "missed" },
                    thousands(*n as usize),
                    thousands(s.bytes)
                );
            }
            Some(Err(e)) => {
                md += &format!(
                    "- pbn check ≤ {IPB_TARGET} instructions per byte: **not judged**: {e}\n"
                )
            }
            None => {}
        }
    }
    if let (Some(one), Some(all)) = (secs("cli1"), cli_s) {
        let x = one / all;
        md += &format!(
            "- pbn check on {cores} cores ≥ {THREADS_TARGET}× faster than on one (CLI, `taskset -c` one core / all, \
             medians, {} games): **{}**{}: {x:.2}× ({} s / {} s)\n",
            games_s(big.games),
            if x >= THREADS_TARGET { "met" } else { "missed" },
            mark(est("cli1") || est("cli")),
            fmt_s(one),
            fmt_s(all)
        );
    }
    match (ep_s, cli_s, check_s) {
        (Some(e), Some(c), Some(ci)) => {
            let ratio = e / c;
            let met = ratio >= ENDPLAY_RATIO_TARGET;
            md += &format!(
                "- endplay load / pbn check ≥ {ENDPLAY_RATIO_TARGET}× (CLI end to end, medians): **{}**{}: \
                 {:.2}× ({} s / {} s); in-process check {:.2}×\n",
                if met { "met" } else { "missed" },
                mark(est("cli")),
                ratio,
                fmt_s(e),
                fmt_s(c),
                e / ci
            );
            if !met {
                let need = e / ENDPLAY_RATIO_TARGET;
                let mut s = format!(
                    "10× endplay means checking {} games in {} s ({:.1} MB/s)",
                    games_s(big.games),
                    fmt_s(need),
                    big.bytes as f64 / 1e6 / need
                );
                if let Some(p) = parse_s {
                    if p > need {
                        s += &format!(
                            ", but the one-thread tree-sitter parse alone takes {} s ({:.1} MB/s), \
                             {:.1}× the whole budget{}",
                            fmt_s(p),
                            mb_per_s(big.bytes, Duration::from_secs_f64(p)),
                            p / need,
                            if p / need <= cores as f64 {
                                format!(
                                    " (`pbn check` already parses the pieces of the file on the {cores} cores, \
                                     which divides it by at most {cores}, and lowering and rules must share the \
                                     same cores; when another process holds a core, as the load average above \
                                     shows, nothing is gained)"
                                )
                            } else {
                                format!(" (more than the {cores}× that splitting it across the {cores} cores could give)")
                            }
                        );
                    } else {
                        s += &format!(
                            "; the parse takes {} s of it, so the rest of the check must fit in {} s",
                            fmt_s(p),
                            fmt_s(need - p)
                        );
                    }
                }
                limits.push(s + ".");
            }
        }
        _ => md += "- endplay load / pbn check ≥ 10×: **not judged**: endplay was not measured (see above)\n",
    }
    if let (Some(c), Some(p)) = (check_s, parse_s) {
        let ratio = c / p;
        let met = ratio <= PARSE_RATIO_TARGET;
        md += &format!(
            "- pbn check ≤ {PARSE_RATIO_TARGET} × bare parse (in-process check with decode, on {cores} cores, \
             against the one-core parse; medians): **{}**{}: {:.2}× ({} s / {} s); CLI end to end {}\n",
            if met { "met" } else { "missed" },
            mark(est("check")),
            ratio,
            fmt_s(c),
            fmt_s(p),
            cli_s.map(|c| format!("{:.2}×", c / p)).unwrap_or("—".into())
        );
        if !met {
            // The stages beyond the parse, largest first, with their growth.
            let mut st: Vec<(String, f64, Option<f64>, bool)> = specs
                .iter()
                .filter(|s| s.group == Group::Stage && s.id != "s.parse" && s.id != "s.document")
                .filter_map(|s| {
                    let o = at(s.id, big.games)?;
                    let v = o.secs()?;
                    let k = growth(history.get(s.id)?);
                    Some((s.label.clone(), v, k, o.is_estimate()))
                })
                .collect();
            st.sort_by(|a, b| b.1.total_cmp(&a.1));
            let parts: Vec<String> = st
                .iter()
                .take(4)
                .map(|(l, v, k, e)| {
                    format!(
                        "{l} {}{} s{}",
                        if *e { "~" } else { "" },
                        fmt_s(*v),
                        match k {
                            Some(k) if *k > 1.3 =>
                                format!(" (grows as games^{k:.1}: super-linear)"),
                            Some(k) => format!(" (games^{k:.1})"),
                            None => String::new(),
                        }
                    )
                })
                .collect();
            limits.push(format!(
                "The check costs {} s beyond the {} s parse (the budget is {} s); the largest one-core stages \
                 besides the parse: {}.",
                fmt_s(c - p),
                fmt_s(p),
                fmt_s(p * (PARSE_RATIO_TARGET - 1.0)),
                parts.join("; ")
            ));
        }
    }
    if !limits.is_empty() {
        md += "\nWhat limits the missed targets: ";
        md += &limits.join(" ");
        md += "\n";
    }
    md
}

/// `20930848` → `20,930,848`.
pub(super) fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Exponent of growth between the last two measured sizes, or the one
/// used for an estimate.
fn growth(runs: &[(usize, Outcome)]) -> Option<f64> {
    if let Some((_, Outcome::Estimated { exponent, .. })) = runs.last() {
        return Some(*exponent);
    }
    let pts: Vec<(f64, f64)> = runs
        .iter()
        .filter_map(|(g, o)| match o {
            Outcome::Measured(s) => Some((*g as f64, s.median.as_secs_f64())),
            _ => None,
        })
        .collect();
    (pts.len() >= 2).then(|| {
        let ((n1, t1), (n2, t2)) = (pts[pts.len() - 2], pts[pts.len() - 1]);
        (t2 / t1).ln() / (n2 / n1).ln()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(secs: f64) -> Outcome {
        let d = Duration::from_secs_f64(secs);
        Outcome::Measured(Summary {
            best: d,
            median: d,
            reps: 1,
        })
    }

    #[test]
    fn estimates_follow_the_measured_growth() {
        let quadratic = vec![(1_000, measured(1.0)), (2_000, measured(4.0))];
        let (secs, k) = estimate(Some(&quadratic), 20_000).unwrap();
        assert!(
            (k - 2.0).abs() < 1e-9 && (secs - 400.0).abs() < 1e-6,
            "{secs} {k}"
        );
        // One point: assume linear. Faster than linear (noise): still linear.
        let one = vec![(1_000, measured(0.5))];
        assert_eq!(
            estimate(Some(&one), 4_000).map(|(s, k)| (s.round(), k)),
            Some((2.0, 1.0))
        );
        let flat = vec![(1_000, measured(1.0)), (2_000, measured(1.0))];
        assert_eq!(
            estimate(Some(&flat), 4_000).map(|(s, k)| (s.round(), k)),
            Some((2.0, 1.0))
        );
        // Estimates and failures are not measurements.
        let none = vec![
            (1_000, Outcome::Unavailable("x".into())),
            (
                2_000,
                Outcome::Estimated {
                    secs: 9.0,
                    exponent: 1.0,
                },
            ),
        ];
        assert!(estimate(Some(&none), 4_000).is_none());
        assert!(estimate(None, 4_000).is_none());
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(20_930_848), "20,930,848");
    }

    #[test]
    fn endplay_copy_keeps_the_games_and_drops_nags_and_comments() {
        let text = generate(60, 3, &GenOptions::default());
        assert!(text.contains(" $") && text.contains('{') && text.contains(" ; "));
        let copy = endplay_copy(&text);
        assert!(!copy.contains('$') && !copy.contains('{') && !copy.contains(" ; "));
        let tags = |t: &str| {
            t.lines()
                .filter(|l| l.starts_with('['))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            tags(&copy),
            tags(&text),
            "every tag (deals, notes, tables) kept"
        );
        let tree = pbn_core::syntax::parse(&copy);
        assert!(!tree.root_node().has_error());
    }
}
