//! `pbn dd`: write the double-dummy tags a game lacks. The work is in
//! `pbn_core::dd::fill`; this file reads, reports and writes.

use super::files::{self, Input};
use super::write;
use clap::Args;
use pbn_core::dd::fill::{check_stated, fill_counted, Filled, GameReport};
use pbn_core::dd::play::{annotate, Annotated, PlayEnd};
use pbn_core::model::Document;
use pbn_core::text::{decode, encode};
use std::panic::AssertUnwindSafe;
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

/// One input of `pbn dd`, read and decoded.
struct Loaded<'a> {
    input: &'a Input,
    bytes: Vec<u8>,
    original: Option<write::Original>,
    source: pbn_core::text::SourceText,
}

/// The loop of `pbn dd` over its inputs: each is read, decoded, parsed and
/// lowered, and `solve` runs on its document under `catch_unwind` (a panic
/// reports the file, leaves it unchanged and goes on with the next); `then`
/// gets the input and what `solve` returned. Returns whether an input
/// failed (`then` says so for its part).
fn each_input<T>(
    inputs: &[Input],
    solve: impl Fn(&str, &str, &Document) -> T,
    mut then: impl FnMut(&Loaded, T) -> bool,
) -> bool {
    let mut failed = false;
    for input in inputs {
        let (bytes, original) = match write::read_input(input) {
            Ok(r) => r,
            Err(e) => {
                errln!("error: {}: {}", input.display(), write::message(&e));
                failed = true;
                continue;
            }
        };
        let name = input.display().to_string();
        let source = decode(&bytes);
        let text = source.text.as_str();
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let trees = pbn_core::syntax::parse_split(text, usize::MAX);
            let doc = pbn_core::model::lower(&trees, text);
            solve(&name, text, &doc)
        }));
        let Ok(solved) = result else {
            errln!("error: {name}: internal error while solving (file left unchanged; please report it)");
            failed = true;
            continue;
        };
        let loaded = Loaded {
            input,
            bytes,
            original,
            source,
        };
        failed |= then(&loaded, solved);
    }
    failed
}

pub fn run(args: DdArgs) -> ExitCode {
    let inputs = match files::expand(&args.paths) {
        Ok(v) => v,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.leads {
        return leads(&inputs);
    }
    let progress = super::progress::Progress::start("solving double dummy");
    let counts = progress.counts();
    let mut incomplete = 0;
    let (mut changed, mut unchanged) = (0, 0);
    let overwrite = args.overwrite && !args.check;
    let solve = |name: &str, text: &str, doc: &Document| {
        counts.total.fetch_add(doc.games.len(), Ordering::Relaxed);
        if args.play {
            let a = annotate(doc, text);
            Filled {
                games: play_reports(name, text, &a, args.check),
                text: a.text,
            }
        } else if args.check {
            let games = check_stated(doc, text, &counts.done);
            Filled {
                text: String::new(),
                games,
            }
        } else {
            fill_counted(doc, text, overwrite, &counts.done)
        }
    };
    let failed = each_input(&inputs, solve, |loaded, filled: Filled| {
        let Loaded {
            input,
            bytes,
            original,
            source,
        } = loaded;
        let name = input.display();
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
            return false;
        }
        let (out, lost) = encode(&filled.text, source.encoding);
        if write::unencodable(&name, lost, source.encoding) {
            return true;
        }
        if matches!(input, Input::Stdin) || args.stdout {
            super::out::stdout(&out);
            return false;
        }
        if out == *bytes {
            unchanged += 1;
            return false;
        }
        let Some(original) = original else {
            return false;
        };
        match write::replace(original, &out, args.force) {
            Ok(()) => {
                changed += 1;
                false
            }
            Err(e) => {
                errln!("error: {name}: {}", write::message(&e));
                true
            }
        }
    });
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

/// `pbn dd --leads`: the opening leads of every game with a contract, a
/// line each (`Err`: the leads could not be solved).
fn leads(inputs: &[Input]) -> ExitCode {
    use pbn_core::dd::leads::{opening_leads, setup_of};
    let solve = |name: &str, text: &str, doc: &Document| {
        let mut lines = Vec::new();
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
            lines.push(match opening_leads(&setup) {
                Ok(leads) => Ok(format!("{at}: {}", pbn_core::render::leads_text(&leads))),
                Err(e) => Err(format!("{at}: leads not solved: {e}")),
            });
        }
        lines
    };
    let failed = each_input(inputs, solve, |_, lines: Vec<Result<String, String>>| {
        let mut failed = false;
        for line in lines {
            match line {
                Ok(l) => outln!("{l}"),
                Err(l) => {
                    errln!("{l}");
                    failed = true;
                }
            }
        }
        failed
    });
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
