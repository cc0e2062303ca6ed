//! `pbn dd`: write the double-dummy tags a game lacks. The work is in
//! `pbn_core::dd::fill`; this file reads, reports and writes.

use super::files::{self, Input};
use super::write;
use clap::Args;
use pbn_core::dd::fill::{check_stated, fill_counted, GameReport};
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
#[command(
    after_help = "Examples:\n  pbn dd deals.pbn\n  pbn dd --check tournaments/\n  pbn dd --overwrite --stdout analysed.pbn\n  cat deals.pbn | pbn dd -\n\nAfterwards `pbn check --dd FILE` verifies every value against the solver."
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
            if args.check {
                let games = check_stated(&doc, &source.text, &counts.done);
                pbn_core::dd::fill::Filled {
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
            if news || !args.quiet {
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
            errln!("{incomplete} game(s) with double-dummy values wrong");
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
