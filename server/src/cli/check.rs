//! `pbn check`: diagnostics for files, directories or stdin.

use super::files::{self, Input};
use super::render::Style;
use super::report::{color_on, print_human, print_json, print_statistics, FileReport};
use clap::{Args, ValueEnum};
use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::diagnostic::Severity;
use pbn_core::text::SourceText;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Each diagnostic with its source line, rustc-style (`human` is
    /// accepted too).
    #[value(alias = "human")]
    Text,
    /// One line a diagnostic: `file:line:col: severity[CODE]: message`.
    Concise,
    /// One JSON document.
    Json,
}

/// Check PBN files and report every problem with file:line:column, code and
/// spec section.
///
/// Exit status: 0 when no error (or, with --deny-warnings, no warning) was
/// found, 1 when one was, 2 for usage or I/O problems and when the paths
/// hold no PBN file.
///
/// A diagnostic marked `[*]` has a safe fix (`pbn check --fix` applies
/// it); the report ends with how many are fixable, how many more with
/// --unsafe-fixes, and how many export-layout ones `pbn fmt` clears.
///
/// Repeated diagnostics are limited: at most 50 of one code per game, 50
/// syntax errors and 50 of each character or line rule per file; the last
/// one shown says how many more there are (the summary counts those shown).
/// A pattern that runs through a file (the same readable form, unknown tag,
/// export layout fault or board rotation in at least 5 games, or in more
/// than half of them) is one diagnostic on its first occurrence, saying in
/// how many games; --no-group lists each (`pbn explain --policy`).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn check game.pbn\n  pbn check --output-format json tournaments/\n  pbn check --output-format concise --select auction,PBN0302 games/\n  pbn check --ignore export game.pbn\n  cat game.pbn | pbn check -\n  pbn check --export --deny-warnings out.pbn\n  pbn check --timings big.pbn\n  pbn check --statistics archive/\n  pbn check --dd analysed.pbn\n  pbn check --no-group export.pbn\n  pbn check --fix games.pbn\n  pbn check --diff --unsafe-fixes games.pbn\n\nOptions can also be set in a pbn.toml found upward from the file (see `pbn config show`)."
)]
pub struct CheckArgs {
    /// Files or directories (searched for *.pbn); `-` reads standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Also report what is legal in import format but not in export format
    /// (also on for files whose pbn.toml says `[check] export = true`).
    #[arg(long)]
    export: bool,
    /// Read options from this file instead of the pbn.toml found upward
    /// from each file (up to the repository root or the home directory).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Output format (`--format` is an alias).
    #[arg(long, visible_alias = "format", value_enum, default_value_t = Format::Text)]
    output_format: Format,
    /// Print the diagnostics only: no summary line, no fixable counts.
    #[arg(short, long)]
    quiet: bool,
    /// Report only these codes or categories (comma-separated: `PBN0302`,
    /// `nonstandard-date`, `auction`); with pbn.toml's `ignore` still
    /// applied.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    select: Vec<String>,
    /// Do not report these codes or categories (comma-separated), besides
    /// pbn.toml's `[check] ignore`.
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    ignore: Vec<String>,
    /// List each diagnostic of a pattern that runs through a file (the
    /// same readable form, unknown tag, export layout fault or board
    /// rotation in many games), instead of one on its first occurrence
    /// (also for files whose pbn.toml says `[check] group = false`).
    #[arg(long)]
    no_group: bool,
    /// Exit with status 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
    /// Also solve each deal double dummy and check the DoubleDummyTricks,
    /// OptimumResultTable, ParContract and OptimumScore it states
    /// (PBN11xx). `[check] dd = true` in pbn.toml turns it on too.
    #[arg(long)]
    dd: bool,
    /// Print to stderr, at the end, the bytes and games checked, the time
    /// taken and the peak memory of the process (Linux: VmHWM).
    #[arg(long)]
    timings: bool,
    /// Apply every safe fix and write the files back (standard input: the
    /// fixed text to standard output); report what was changed and what is
    /// left.
    #[arg(long)]
    fix: bool,
    /// With --fix or --diff, also apply the fixes that involve a guess
    /// (a quoted bare value, a Contract from the auction…).
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print the changes --fix would make as a unified diff; write nothing.
    #[arg(long)]
    diff: bool,
    /// With --fix, also write a file that is read-only (keeping its mode).
    #[arg(long, requires = "fix")]
    force: bool,
    /// Print how many diagnostics of each code were found (most frequent
    /// first, with the code's severity and title) instead of every
    /// diagnostic: a first look at a large archive.
    #[arg(long, conflicts_with = "output_format")]
    statistics: bool,
}

pub fn run(args: CheckArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let inputs = match files::expand(&args.paths) {
        Ok(v) => v,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let opts = match options_for(&args, &inputs) {
        Ok(o) => o,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.fix || args.diff || args.unsafe_fixes {
        let check: Vec<CheckOptions> = opts.iter().map(|o| o.check.clone()).collect();
        let policies: Vec<_> = opts.iter().map(|o| o.policy.clone()).collect();
        return super::fix::run(
            &inputs,
            &check,
            &policies,
            super::fix::Mode {
                write: !args.diff,
                force: args.force,
                unsafe_fixes: args.unsafe_fixes,
                style: Style {
                    color: color_on(&args.color),
                    concise: args.output_format == Format::Concise,
                },
                json: args.output_format == Format::Json,
                quiet: args.quiet,
                only: None,
            },
        );
    }
    let progress = opts
        .iter()
        .any(|o| o.dd)
        .then(|| super::progress::Progress::start("checking double dummy"));
    let reports = check_all(&inputs, &opts, progress.as_ref().map(|p| p.counts()));
    if let Some(p) = progress {
        p.finish();
    }

    let mut errors = 0usize;
    let mut warnings = 0usize;
    let mut infos = 0usize;
    let mut hints = 0usize;
    let mut io_failed = false;
    let mut games = 0usize;
    let mut bytes = 0usize;
    for r in &reports {
        match &r.outcome {
            Ok((source, res)) => {
                games += res.games;
                bytes += source.text.len();
                for d in &res.diagnostics {
                    match d.severity {
                        Severity::Error => errors += 1,
                        Severity::Warning => warnings += 1,
                        Severity::Info => infos += 1,
                        Severity::Hint => hints += 1,
                    }
                }
            }
            Err(_) => io_failed = true,
        }
    }

    let counts = [errors, warnings, infos, hints];
    match args.output_format {
        _ if args.statistics => print_statistics(&reports, counts, games),
        Format::Json => print_json(&reports, counts, games),
        Format::Text | Format::Concise => {
            print_human(
                &reports,
                &Style {
                    color: color_on(&args.color),
                    concise: args.output_format == Format::Concise,
                },
                counts,
                games,
                !args.quiet,
                false,
            );
        }
    }

    if args.timings {
        errln!(
            "{}",
            stats_line(
                reports.len(),
                bytes,
                games,
                started.elapsed(),
                peak_memory_kb()
            )
        );
    }
    // The process ends right after: freeing every text and diagnostic one
    // by one would only delay the exit.
    std::mem::forget(reports);
    if io_failed {
        ExitCode::from(2)
    } else if errors > 0 || (args.deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The checker options of each input: `--export`, or the `[check]` table of
/// the `--config` file or of the pbn.toml found for the input (standard
/// input: from the current directory). Each directory is searched once.
/// What applies to one input: the rules' options, and whether its stated
/// double-dummy values are solved (`--dd` or `[check] dd`).
struct FileOptions {
    check: CheckOptions,
    dd: bool,
    /// `[check] ignore` and `[check.severity]`.
    policy: pbn_core::config::Policy,
}

fn options_for(args: &CheckArgs, inputs: &[Input]) -> Result<Vec<FileOptions>, String> {
    use pbn_core::config;
    let selectors = |names: &[String]| -> Result<Vec<config::Selector>, String> {
        names
            .iter()
            .map(|n| config::Selector::try_from(n.trim().to_owned()))
            .collect()
    };
    let (select, ignore) = (selectors(&args.select)?, selectors(&args.ignore)?);
    let fixed = match &args.config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("{}: {}", p.display(), super::write::message(&e)))?;
            Some(config::parse(&text, p)?)
        }
        None => None,
    };
    let mut by_dir: std::collections::HashMap<PathBuf, config::Config> = Default::default();
    inputs
        .iter()
        .map(|input| {
            let c = match &fixed {
                Some(c) => c.clone(),
                None => {
                    let dir = match input {
                        Input::Stdin => std::env::current_dir().unwrap_or_default(),
                        Input::File(p) => p
                            .parent()
                            .filter(|d| !d.as_os_str().is_empty())
                            .unwrap_or(std::path::Path::new("."))
                            .to_path_buf(),
                    };
                    match by_dir.get(&dir) {
                        Some(c) => c.clone(),
                        None => {
                            let c = pbn::config_file::load_for(&dir)?.0;
                            by_dir.insert(dir, c.clone());
                            c
                        }
                    }
                }
            };
            Ok(FileOptions {
                check: CheckOptions {
                    export: args.export || c.check.export,
                    // Which diagnostics are fixable, and how, is reported.
                    fixes: true,
                    ungrouped: args.no_group || !c.check.group,
                },
                dd: args.dd || c.check.dd,
                policy: {
                    let mut p = c.check.policy();
                    p.ignore.extend(ignore.iter().copied());
                    p.select.clone_from(&select);
                    p
                },
            })
        })
        .collect()
}

/// The `--timings` line: `pbn check: 1 file, 2888895 bytes, 100000 games in
/// 0.842 s; peak memory 77104 kB` (bytes of decoded text).
fn stats_line(
    files: usize,
    bytes: usize,
    games: usize,
    time: std::time::Duration,
    peak_kb: Option<u64>,
) -> String {
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let peak = match peak_kb {
        Some(kb) => format!("peak memory {kb} kB"),
        None => "peak memory not measured on this system".to_string(),
    };
    format!(
        "pbn check: {}, {}, {} in {:.3} s; {peak}",
        plural(files, "file"),
        plural(bytes, "byte"),
        plural(games, "game"),
        time.as_secs_f64()
    )
}

/// The process's peak resident memory: `VmHWM` of `/proc/self/status`,
/// which counts this program only (unlike `getrusage`, whose maximum also
/// holds what the parent process had before it started this one).
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Solves the deal of every game that states a double-dummy value and adds
/// the PBN11xx diagnostics; the games are counted in `counts`.
fn add_dd_diagnostics(
    source: &SourceText,
    res: &mut pbn_core::checker::CheckResult,
    counts: &super::progress::Counts,
) {
    let trees = pbn_core::syntax::parse_split(&source.text, usize::MAX);
    let doc = pbn_core::model::lower(&trees, &source.text);
    counts.total.fetch_add(doc.games.len(), Ordering::Relaxed);
    res.diagnostics
        .extend(pbn_core::dd::verify::check_document_counted(
            &doc,
            &counts.done,
        ));
    pbn_core::diagnostic::sort(&mut res.diagnostics);
}

/// Checks inputs in parallel (one worker per core), keeping input order.
/// `dd`: the progress counts of `--dd`.
fn check_all(
    inputs: &[Input],
    opts: &[FileOptions],
    dd: Option<&super::progress::Counts>,
) -> Vec<FileReport> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(inputs.len().max(1));
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<FileReport>> = (0..inputs.len()).map(|_| None).collect();
    let results = std::sync::Mutex::new(&mut slots);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= inputs.len() {
                    break;
                }
                let input = inputs[i].clone();
                let outcome = files::read(&input)
                    .map_err(|e| format!("{}: {}", input.display(), super::write::message(&e)))
                    .and_then(|bytes| {
                        // A bug must not take the other files down with it.
                        std::panic::catch_unwind(|| {
                            let source = pbn_core::text::decode_owned(bytes);
                            let mut res = check_text(&source, &opts[i].check);
                            if let Some(counts) = dd.filter(|_| opts[i].dd) {
                                add_dd_diagnostics(&source, &mut res, counts);
                            }
                            opts[i].policy.apply(&mut res.diagnostics);
                            (source, res)
                        })
                        .map_err(|_| {
                            format!(
                                "{}: internal error while checking this file (please report it)",
                                input.display()
                            )
                        })
                    });
                results.lock().unwrap()[i] = Some(FileReport { input, outcome });
            });
        }
    });
    slots
        .into_iter()
        .map(|r| r.expect("every input was checked"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_line_names_files_bytes_games_time_and_memory() {
        let t = std::time::Duration::from_millis(842);
        assert_eq!(
            stats_line(1, 2_888_895, 100_000, t, Some(77_104)),
            "pbn check: 1 file, 2888895 bytes, 100000 games in 0.842 s; peak memory 77104 kB"
        );
        assert_eq!(
            stats_line(2, 1, 1, t, None),
            "pbn check: 2 files, 1 byte, 1 game in 0.842 s; peak memory not measured on this system"
        );
    }

    #[test]
    fn peak_memory_is_read_where_proc_exists() {
        if std::path::Path::new("/proc/self/status").exists() {
            assert!(peak_memory_kb().is_some_and(|kb| kb > 0));
        }
    }
}
