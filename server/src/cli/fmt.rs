//! `pbn fmt`: write PBN files in export format.

use super::files::{self, Input};
use super::write;
use clap::{Args, ValueEnum};
use pbn_core::config;
use pbn_core::format::{format, EolOption, FormatOptions};
use pbn_core::text::{decode, encode};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum Eol {
    Keep,
    Crlf,
    Lf,
}

/// Format PBN files in export format (PBN 2.1 §2.1, §3, §5).
///
/// Tags in the mandatory order, then supplemental tags alphabetically, the
/// auction and play 4 calls/cards a line starting with the dealer/opening
/// leader, suffixes as NAGs, values in their export form, tables padded.
/// Every comment is kept with what it follows. A game with syntax errors is
/// printed as written, and such a file is not written back unless --force.
/// A game that export format cannot hold without a change of meaning (a
/// Note tag with data before the auction) is also kept as written, with a
/// warning; the rest of the file is formatted.
/// Files are rewritten in place in their own encoding, through a temporary
/// file and a rename: a symlink is followed and its target rewritten (the
/// link stays); owner and mode are kept; a read-only file is not written
/// unless --force; a file changed on disk while it was being formatted is
/// left alone and reported. An error in one file (missing, unreadable,
/// read-only) is reported and the other files are still formatted; the
/// exit status is then 2.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn fmt games.pbn\n  pbn fmt --check tournaments/\n  pbn fmt --diff game.pbn\n  pbn fmt --eol crlf --export-header out.pbn\n  cat game.pbn | pbn fmt -\n\nOptions can also be set in a pbn.toml found upward from the file (see `pbn config schema`)."
)]
pub struct FmtArgs {
    /// Files or directories (searched for *.pbn); `-` reads stdin and writes stdout.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Do not write; list the files that would change and exit 1 if any.
    #[arg(long)]
    check: bool,
    /// Do not write; print a unified diff of the changes.
    #[arg(long)]
    diff: bool,
    /// Print the formatted text to stdout instead of writing the files.
    #[arg(long)]
    stdout: bool,
    /// Line endings: keep the file's own, or CRLF (strict export format), or LF.
    #[arg(long, value_enum)]
    eol: Option<Eol>,
    /// Start the file with `% PBN 2.1` and `% EXPORT`.
    #[arg(long)]
    export_header: bool,
    /// Do not add missing mandatory tags as "?".
    #[arg(long)]
    no_add_missing_tags: bool,
    /// Read options from this file instead of the pbn.toml found upward.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Write files even if some games have syntax errors (those games are
    /// kept exactly as written), and files that are read-only.
    #[arg(long)]
    force: bool,
}

fn options_for(args: &FmtArgs, start: &Path) -> Result<FormatOptions, String> {
    let mut opts = match &args.config {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            config::parse(&text, p)?.format
        }
        None => config::load_for(start)?.0.format,
    };
    if let Some(e) = args.eol {
        opts.eol = match e {
            Eol::Keep => EolOption::Keep,
            Eol::Crlf => EolOption::Crlf,
            Eol::Lf => EolOption::Lf,
        };
    }
    if args.export_header {
        opts.export_header = true;
    }
    if args.no_add_missing_tags {
        opts.add_missing_tags = false;
    }
    Ok(opts)
}

pub fn run(args: FmtArgs) -> ExitCode {
    let inputs = match files::expand(&args.paths) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    let mut would_change = Vec::new();
    let mut refused = 0;
    let mut not_written = 0;
    let (mut changed, mut unchanged) = (0, 0);
    for input in &inputs {
        let start = match input {
            Input::Stdin => std::env::current_dir().unwrap_or_default(),
            Input::File(p) => p.clone(),
        };
        let opts = match options_for(&args, &start) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let read = match input {
            Input::Stdin => files::read(input).map(|b| (b, None)),
            Input::File(p) => write::read(p).map(|(b, o)| (b, Some(o))),
        };
        let (bytes, original) = match read {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {}: {}", input.display(), write::message(&e));
                failed = true;
                continue;
            }
        };
        let source = decode(&bytes);
        let result = match std::panic::catch_unwind(|| format(&source, &opts)) {
            Ok(r) => r,
            Err(_) => {
                eprintln!("error: {}: internal error while formatting (file left unchanged; please report it)", input.display());
                failed = true;
                continue;
            }
        };
        let (out, lost) = encode(&result.text, source.encoding);
        let name = input.display();
        if lost > 0 {
            eprintln!(
                "error: {name}: {lost} character(s) cannot be written in {}; not written",
                source.encoding.name()
            );
            failed = true;
            continue;
        }
        let differs = out != bytes;
        let numbers = |games: &[usize]| {
            games
                .iter()
                .map(|g| (g + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let syntax_errors = result.syntax_error_games();
        if !syntax_errors.is_empty() {
            eprintln!(
                "warning: {name}: game(s) {} have syntax errors and are kept as written (run `pbn check {name}`)",
                numbers(&syntax_errors)
            );
        }
        if !result.unprintable_games.is_empty() {
            eprintln!(
                "warning: {name}: game(s) {} cannot be written in export format without changing their meaning and are kept as written (run `pbn check {name}`)",
                numbers(&result.unprintable_games)
            );
        }
        if matches!(input, Input::Stdin) || args.stdout {
            let _ = std::io::stdout().write_all(&out);
            continue;
        }
        if args.diff {
            if differs {
                let diff =
                    similar::TextDiff::from_lines(source.text.as_str(), result.text.as_str());
                print!(
                    "{}",
                    diff.unified_diff()
                        .context_radius(3)
                        .header(&name, &format!("{name} (formatted)"))
                );
            }
            if differs {
                would_change.push(name);
            }
            continue;
        }
        if args.check {
            if differs {
                println!("{name}");
                would_change.push(name);
            }
            continue;
        }
        if !differs {
            unchanged += 1;
            continue;
        }
        if !syntax_errors.is_empty() && !args.force {
            eprintln!("error: {name}: not written because of syntax errors (use --force to write it anyway)");
            refused += 1;
            continue;
        }
        let Some(original) = &original else { continue };
        match write::replace(original, &out, args.force) {
            Ok(()) => changed += 1,
            Err(e) => {
                eprintln!("error: {name}: {}", write::message(&e));
                not_written += 1;
                failed = true;
            }
        }
    }
    if args.check || args.diff {
        if !would_change.is_empty() {
            eprintln!("{} file(s) would be reformatted", would_change.len());
            return ExitCode::from(1);
        }
        return if failed {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    if inputs.iter().any(|i| matches!(i, Input::File(_))) && !args.stdout {
        eprintln!(
            "formatted {changed} file(s), {unchanged} unchanged{}{}",
            if refused > 0 {
                format!(", {refused} not written (syntax errors)")
            } else {
                String::new()
            },
            if not_written > 0 {
                format!(", {not_written} not written (errors above)")
            } else {
                String::new()
            }
        );
    }
    if failed {
        ExitCode::from(2)
    } else if refused > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
