//! `pbn dd`: write the double-dummy tags a game lacks. The work is in
//! `pbn_core::dd::fill`; this file reads, reports and writes.

use super::files::{self, Input};
use super::write;
use clap::Args;
use pbn_core::dd::fill::{check_stated, fill_counted, Filled, GameReport};
use pbn_core::dd::play::{annotate, Annotated, PlayEnd};
use pbn_core::text::{decode, encode};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// Add double-dummy analysis to PBN files (PBN 2.1 §4.2.7, §5.7).
///
/// Solves the Deal of every game and writes the tags the game lacks:
/// DoubleDummyTricks, OptimumScore, ParContract and the 20-row
/// OptimumResultTable in export format, after the game's last line. Par
/// follows the Vulnerable and Dealer tags. Nothing else in the file
/// changes: tags are inserted, never reformatted. Values the solver
/// contradicts are reported and kept unless --overwrite. Games without a
/// Deal are skipped silently; a Deal that cannot be solved (missing hands,
/// `x` spot cards) and a game with a syntax error are reported and left
/// alone. Files are written back like `pbn fmt` writes them (temporary file
/// and rename; symlinks, owner and mode kept; read-only files need --force).
#[derive(Args)]
///
/// With --play, writes the play analysis instead: after each played card
/// that gave tricks away double dummy, a comment `{DD -1: better \SK \SQ}`
/// (the tricks it cost and the cards that would have kept them; PBN 2.1
/// §3.6, §3.8). Comments it wrote before are updated or removed, so a
/// second run changes nothing. With --leads, prints each game's opening
/// leads and the tricks the defence takes after each; nothing is written.
#[command(
    after_help = "Examples:\n  pbn dd deals.pbn\n  pbn dd --check tournaments/\n  pbn dd --overwrite --stdout analysed.pbn\n  cat deals.pbn | pbn dd -\n  pbn dd --play played.pbn\n  pbn dd --play --check played.pbn\n  pbn dd --leads deals.pbn\n\nAfterwards `pbn check --dd FILE` verifies every value against the solver."
)]
pub struct DdArgs {
    /// Files or directories (searched for *.pbn); `-` reads stdin and writes stdout.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Replace values the solver contradicts (DoubleDummyTricks,
    /// OptimumScore, ParContract, OptimumResultTable rows).
    #[arg(long)]
    overwrite: bool,
    /// Do not write; check the double-dummy values the games state (tags a
    /// game lacks are not reported, games that state none are not solved):
    /// list each game with a wrong value and exit 1 if any.
    #[arg(long)]
    check: bool,
    /// Print the new text to stdout instead of writing the files.
    #[arg(long)]
    stdout: bool,
    /// Write read-only files too.
    #[arg(long)]
    force: bool,
    /// Write the double-dummy cost of each card played, as a comment after
    /// each costly card, instead of the double-dummy tags.
    #[arg(long, conflicts_with_all = ["overwrite", "leads"])]
    play: bool,
    /// Print the opening leads of each game with a contract (tricks of the
    /// defence after each lead); writes nothing.
    #[arg(long, conflicts_with_all = ["overwrite", "check", "stdout", "force"])]
    leads: bool,
    /// No summary line and no list of the tags added: only what is wrong
    /// and errors.
    #[arg(short, long)]
    quiet: bool,
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

fn report(name: &str, text: &str, g: &GameReport, check: bool, overwrite: bool) {
    let (l, c) = line_col(text, g.offset);
    let at = format!("{name}:{l}:{c}: game {}", g.game + 1);
    if let Some(why) = &g.skipped {
        errln!("{at}: skipped: {why}");
        return;
    }
    let mut parts = Vec::new();
    if !g.missing.is_empty() {
        let verb = if check { "missing" } else { "added" };
        parts.push(format!("{verb} {}", g.missing.join(", ")));
    }
    let replaced: Vec<&str> = g
        .wrong
        .iter()
        .filter(|w| !g.kept.contains(w))
        .copied()
        .collect();
    if !replaced.is_empty() {
        let verb = if check || !overwrite {
            "wrong"
        } else {
            "replaced"
        };
        parts.push(format!("{verb} {}", replaced.join(", ")));
    }
    if !g.kept.is_empty() {
        parts.push(format!(
            "wrong {} (a `##` value shared with later games; not replaced)",
            g.kept.join(", ")
        ));
    }
    let line = format!("{at}: {}", parts.join("; "));
    if check {
        outln!("{line}");
    } else {
        errln!("{line}");
    }
}

pub fn run(args: DdArgs) -> ExitCode {
    if args.leads {
        return leads(&args.paths);
    }
    let inputs = match files::expand(&args.paths) {
        Ok(v) => v,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let progress = super::progress::Progress::start("solving double dummy");
    let counts = progress.counts();
    let mut failed = false;
    let mut incomplete = 0;
    let (mut changed, mut unchanged) = (0, 0);
    for input in &inputs {
        let (bytes, original) = match write::read_input(input) {
            Ok(r) => r,
            Err(e) => {
                errln!("error: {}: {}", input.display(), write::message(&e));
                failed = true;
                continue;
            }
        };
        let name = input.display();
        let source = decode(&bytes);
        let overwrite = args.overwrite && !args.check;
        let result = std::panic::catch_unwind(|| {
            let trees = pbn_core::syntax::parse_split(&source.text, usize::MAX);
            let doc = pbn_core::model::lower(&trees, &source.text);
            counts.total.fetch_add(doc.games.len(), Ordering::Relaxed);
            if args.play {
                let a = annotate(&doc, &source.text);
                Filled {
                    games: play_reports(&name, &source.text, &a, args.check),
                    text: a.text,
                }
            } else if args.check {
                let games = check_stated(&doc, &source.text, &counts.done);
                Filled {
                    text: String::new(),
                    games,
                }
            } else {
                fill_counted(&doc, &source.text, overwrite, &counts.done)
            }
        });
        let filled = match result {
            Ok(f) => f,
            Err(_) => {
                errln!("error: {name}: internal error while solving (file left unchanged; please report it)");
                failed = true;
                continue;
            }
        };
        for g in &filled.games {
            // Without --check, a game only completed is no news for --quiet.
            let news = args.check || !g.wrong.is_empty() || g.skipped.is_some();
            if !args.play && (news || !args.quiet) {
                progress.say(|| report(&name, &source.text, g, args.check, overwrite));
            }
            if !g.is_complete() {
                incomplete += 1;
            }
        }
        if args.check {
            continue;
        }
        let (out, lost) = encode(&filled.text, source.encoding);
        if write::unencodable(&name, lost, source.encoding) {
            failed = true;
            continue;
        }
        if matches!(input, Input::Stdin) || args.stdout {
            super::out::stdout(&out);
            continue;
        }
        if out == bytes {
            unchanged += 1;
            continue;
        }
        let Some(original) = &original else { continue };
        match write::replace(original, &out, args.force) {
            Ok(()) => changed += 1,
            Err(e) => {
                errln!("error: {name}: {}", write::message(&e));
                failed = true;
            }
        }
    }
    progress.finish();
    if args.check {
        if incomplete > 0 {
            let what = if args.play {
                "play comments missing or out of date"
            } else {
                "double-dummy values wrong"
            };
            errln!("{incomplete} game(s) with {what}");
            return ExitCode::from(1);
        }
    } else if inputs.iter().any(|i| matches!(i, Input::File(_))) && !args.stdout && !args.quiet {
        errln!("wrote {changed} file(s), {unchanged} unchanged");
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `pbn dd --play`: one line per game with a play (`--check`: on stdout,
/// only the games whose comments would change); the games that would
/// change come back as incomplete reports, so `--check` counts them.
fn play_reports(name: &str, text: &str, a: &Annotated, check: bool) -> Vec<GameReport> {
    let mut out = Vec::new();
    for g in &a.games {
        let (l, c) = line_col(text, g.offset);
        let at = format!("{name}:{l}:{c}: game {}", g.game + 1);
        if let Some(why) = &g.skipped {
            errln!("{at}: play not analysed: {why}");
            continue;
        }
        let end = match g.end {
            Some(PlayEnd::Stopped { why, .. }) => format!("; analysed up to {why}"),
            Some(PlayEnd::Claimed) => "; the rest claimed".into(),
            _ => String::new(),
        };
        let verb = if check { "out of date" } else { "updated" };
        let changes = if g.edits.is_empty() {
            String::new()
        } else {
            format!(", comments {verb}")
        };
        let line = format!("{at}: {} costly card(s){end}{changes}", g.costly);
        if check {
            if !g.edits.is_empty() {
                outln!("{line}");
            }
        } else {
            errln!("{line}");
        }
        if !g.edits.is_empty() {
            out.push(GameReport {
                game: g.game,
                offset: g.offset,
                missing: vec!["play comments"],
                ..GameReport::default()
            });
        }
    }
    out
}

/// `pbn dd --leads`: the opening leads of every game with a contract.
fn leads(paths: &[PathBuf]) -> ExitCode {
    use pbn_core::dd::leads::{opening_leads, setup_of};
    let inputs = match files::expand(paths) {
        Ok(v) => v,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    for input in &inputs {
        let (bytes, _) = match write::read_input(input) {
            Ok(r) => r,
            Err(e) => {
                errln!("error: {}: {}", input.display(), write::message(&e));
                failed = true;
                continue;
            }
        };
        let name = input.display();
        let source = decode(&bytes);
        let text = source.text.as_str();
        let trees = pbn_core::syntax::parse_split(text, usize::MAX);
        let doc = pbn_core::model::lower(&trees, text);
        for g in &doc.games {
            let t = pbn_core::model::typed::typed(text, g);
            let Ok(setup) = setup_of(&t) else { continue };
            let (l, c) = line_col(text, g.range.start);
            let board = g
                .value("Board")
                .filter(|b| !b.trim().is_empty() && *b != "?")
                .map(|b| format!(" (Board {b})"))
                .unwrap_or_default();
            let at = format!("{name}:{l}:{c}: game {}{board}", g.index + 1);
            match opening_leads(&setup) {
                Ok(leads) => outln!("{at}: {}", pbn_core::render::leads_text(&leads)),
                Err(e) => {
                    errln!("{at}: leads not solved: {e}");
                    failed = true;
                }
            }
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
