//! `pbn fmt`: write PBN files in export format.

use super::files::{self, Input};
use super::write;
use clap::{Args, ValueEnum};
use pbn_core::config;
use pbn_core::format::{EolOption, FormatOptions};
use pbn_core::text::{decode, encode, Encoding};
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
/// Every safe fix of `pbn check --fix` is applied first (`P` → `Pass`,
/// `2024-07-12` → `2024.07.12`, `--` → `-` …): what the checker reads as
/// something else is written as what it reads, and the file means what it
/// meant (`pbn dump` is unchanged, but for matchpoints, IMPs and
/// percentages recomputed as the Scoring tag says, `pbn score`). Fixes that
/// guess (`--unsafe-fixes`) are left to `pbn check --fix --unsafe-fixes`.
/// Tags in the mandatory order, then supplemental tags alphabetically, the
/// auction and play 4 calls/cards a line starting with the dealer/opening
/// leader, suffixes as NAGs, values in their export form, tables padded.
/// Every comment is kept with what it follows. A game with syntax errors is
/// printed as written, and such a file is not written back unless --force.
/// A game that export format cannot hold without a change of meaning (a
/// Note tag with data before the auction, a `*` with calls or cards after
/// it such as BEN's alert `4C*`, PBN0511) is also kept as written, with a
/// warning; the rest of the file is formatted.
/// Nothing is dropped: a repeated tag's ignored value and a second `*` at
/// the end of the auction or play are kept as `;` comments where they
/// stood, and a note on stderr names the games touched that way.
/// A UTF-8 file is written in ISO 8859-1 when every character fits (PBN
/// data is ISO 8859-1, §2.2; a `charset=` declaration is rewritten to
/// match, a byte order mark dropped); one with characters ISO 8859-1 has
/// not (♠) stays UTF-8, with a warning. Other files keep their encoding
/// (ISO 8859-1 input is written byte for byte where nothing changes).
/// Files are rewritten in place, through a temporary
/// file and a rename: a symlink is followed and its target rewritten (the
/// link stays); owner and mode are kept; a read-only file is not written
/// unless --force; a UTF-16 or UTF-32 file (not a PBN encoding, §2.2) is
/// written as UTF-8 only with --force; a file changed on disk while it was being formatted is
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
    /// No notes and no summary on stderr: only warnings and errors.
    #[arg(short, long)]
    quiet: bool,
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
    /// kept exactly as written), files that are read-only, and UTF-16 or
    /// UTF-32 files (written as UTF-8).
    #[arg(long)]
    force: bool,
}

fn options_for(args: &FmtArgs, start: &Path) -> Result<FormatOptions, String> {
    let mut opts = match &args.config {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            config::parse(&text, p)?.format
        }
        None => pbn::config_file::load_for(start)?.0.format,
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

/// What `pbn fmt` did to its inputs, for its summary and exit code.
#[derive(Default)]
struct Tally {
    failed: bool,
    would_change: Vec<String>,
    refused: usize,
    wide: usize,
    not_written: usize,
    changed: usize,
    unchanged: usize,
}

pub fn run(args: FmtArgs) -> ExitCode {
    let inputs = match files::expand(&args.paths) {
        Ok(v) => v,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut t = Tally::default();
    for input in &inputs {
        if let Err(code) = format_input(&args, input, &mut t) {
            return code;
        }
    }
    finish(&args, &inputs, t)
}

/// Formats one input: written in place, or checked, diffed or printed as
/// asked. `Err` stops `pbn fmt` (a `pbn.toml` it cannot read).
fn format_input(args: &FmtArgs, input: &Input, t: &mut Tally) -> Result<(), ExitCode> {
    let start = match input {
        Input::Stdin => std::env::current_dir().unwrap_or_default(),
        Input::File(p) => p.clone(),
    };
    let opts = match options_for(args, &start) {
        Ok(o) => o,
        Err(e) => {
            errln!("error: {e}");
            return Err(ExitCode::from(2));
        }
    };
    let (bytes, original) = match write::read_input(input) {
        Ok(r) => r,
        Err(e) => {
            errln!("error: {}: {}", input.display(), write::message(&e));
            t.failed = true;
            return Ok(());
        }
    };
    let source = decode(&bytes);
    // A UTF-8 file's text is its bytes: one copy of them is enough.
    let bytes =
        (source.encoding != Encoding::Utf8 || source.text.as_bytes() != bytes).then_some(bytes);
    let bytes: &[u8] = bytes.as_deref().unwrap_or(source.text.as_bytes());
    // Formatted and encoded piece by piece (`format_streamed`): the tree
    // and model of the whole file never exist at once.
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 16);
    let mut text = String::new();
    let mut lost = 0;
    // ISO 8859-1 for a UTF-8 file whose characters all fit (§2.2; the
    // formatter's fixes rewrite a `charset=` declaration to match).
    let write_as = pbn_core::rules::write_encoding(&source);
    let streamed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pbn_core::format::format_streamed(&source, &opts, |part| {
            // A byte order mark only in front of the first part.
            let enc = match write_as {
                Encoding::Utf8Bom if !out.is_empty() => Encoding::Utf8,
                e => e,
            };
            let (b, l) = encode(part, enc);
            out.extend_from_slice(&b);
            lost += l;
            if args.diff {
                text.push_str(part);
            }
        })
    }));
    let result = match streamed {
        Ok(r) => r,
        Err(_) => {
            errln!("error: {}: internal error while formatting (file left unchanged; please report it)", input.display());
            t.failed = true;
            return Ok(());
        }
    };
    let name = input.display();
    if write::unencodable(&name, lost, write_as) {
        t.failed = true;
        return Ok(());
    }
    let differs = out != bytes;
    let writing = !(matches!(input, Input::Stdin) || args.stdout || args.diff || args.check);
    if source.encoding.is_wide() && writing && !args.force {
        errln!(
            "error: {name}: the file is {}, which PBN does not allow (§2.2); not written: use --force to write it as UTF-8",
            source.encoding.name().to_uppercase()
        );
        t.wide += 1;
        return Ok(());
    }
    let syntax_errors = result.syntax_error_games();
    if !syntax_errors.is_empty() && writing && !args.force {
        // One line per file, whatever the number of games.
        errln!(
            "error: {name}: skipped: {} (run `pbn check {name}`); use --force to format the other games and keep these as written",
            games_phrase(&syntax_errors, "with syntax errors")
        );
        t.refused += 1;
        return Ok(());
    }
    if !syntax_errors.is_empty() {
        errln!(
            "warning: {name}: {} kept as written (run `pbn check {name}`)",
            games_phrase(&syntax_errors, "with syntax errors")
        );
    }
    notes(args, &name, &source, &result, write_as);
    if matches!(input, Input::Stdin) || args.stdout {
        super::out::stdout(&out);
        return Ok(());
    }
    if args.diff {
        if differs {
            out!(
                "{}",
                write::unified_diff(
                    &name,
                    "formatted",
                    (&source.text, source.encoding),
                    (&text, write_as)
                )
            );
        }
        if differs {
            t.would_change.push(name);
        }
        return Ok(());
    }
    if args.check {
        if differs {
            outln!("{name}");
            t.would_change.push(name);
        }
        return Ok(());
    }
    if !differs {
        t.unchanged += 1;
        return Ok(());
    }
    let Some(original) = &original else {
        return Ok(());
    };
    match write::replace(original, &out, args.force) {
        Ok(()) => t.changed += 1,
        Err(e) => {
            errln!("error: {name}: {}", write::message(&e));
            t.not_written += 1;
            t.failed = true;
        }
    }
    Ok(())
}

/// The warnings and notes about one formatted file, on stderr: games export
/// format cannot hold, the encoding written, fixes applied, data kept as
/// comments.
fn notes(
    args: &FmtArgs,
    name: &str,
    source: &pbn_core::text::SourceText,
    result: &pbn_core::format::Formatted,
    write_as: Encoding,
) {
    if !result.unprintable_games.is_empty() {
        errln!(
            "warning: {name}: {} kept as written (run `pbn check {name}`)",
            games_phrase(
                &result.unprintable_games,
                "that export format cannot hold without a change of meaning"
            )
        );
    }
    if write_as != source.encoding && !args.check && !args.quiet {
        errln!(
            "note: {name}: {} in {}, not {} (PBN data is ISO 8859-1, §2.2)",
            if args.diff {
                "would be written"
            } else {
                "written"
            },
            write_as.name(),
            source.encoding.name()
        );
    }
    let outside = source.non_latin1_chars();
    if outside > 0 && matches!(write_as, Encoding::Utf8 | Encoding::Utf8Bom) && !args.check {
        errln!(
            "warning: {name}: kept in UTF-8: {outside} character(s) have no ISO 8859-1 code (PBN0106, §2.2; `pbn check {name}` shows them)"
        );
    }
    if result.fixes > 0 && !args.quiet {
        errln!(
            "note: {name}: {} safe fix{} {} (`pbn check --diff {name}` lists them)",
            result.fixes,
            if result.fixes == 1 { "" } else { "es" },
            if args.check || args.diff {
                "would be applied"
            } else {
                "applied"
            }
        );
    }
    if !result.commented_games.is_empty() && !args.quiet {
        errln!(
            "note: {name}: {}: kept as `;` comments",
            games_phrase(
                &result.commented_games,
                "with data export format cannot hold (a repeated tag, a second `*`)"
            )
        );
    }
}

/// The summary line and the exit code.
fn finish(args: &FmtArgs, inputs: &[Input], t: Tally) -> ExitCode {
    if args.check || args.diff {
        if !t.would_change.is_empty() {
            errln!("{} file(s) would be reformatted", t.would_change.len());
            return ExitCode::from(1);
        }
        return if t.failed {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    if inputs.iter().any(|i| matches!(i, Input::File(_))) && !args.stdout && !args.quiet {
        errln!(
            "formatted {} file(s), {} unchanged{}{}{}",
            t.changed,
            t.unchanged,
            if t.refused > 0 {
                format!(", {} skipped (syntax errors)", t.refused)
            } else {
                String::new()
            },
            if t.wide > 0 {
                format!(", {} skipped (UTF-16 or UTF-32)", t.wide)
            } else {
                String::new()
            },
            if t.not_written > 0 {
                format!(", {} not written (errors above)", t.not_written)
            } else {
                String::new()
            }
        );
    }
    if t.failed {
        ExitCode::from(2)
    } else if t.refused + t.wide > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `3 games with syntax errors (1–2, 7)`: the count, then the 1-based game
/// numbers as ranges, at most [`MAX_RANGES`] of them and `…` for the rest,
/// so that a file of 379 broken games takes one short line.
fn games_phrase(games: &[usize], what: &str) -> String {
    let n = games.len();
    let noun = if n == 1 { "game" } else { "games" };
    format!("{n} {noun} {what} ({})", ranges(games))
}

const MAX_RANGES: usize = 8;

/// `1–2, 7` for the 0-based indices `[0, 1, 6]`.
fn ranges(games: &[usize]) -> String {
    let mut sorted = games.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for g in sorted {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == g => *end = g,
            _ => runs.push((g, g)),
        }
    }
    let mut parts: Vec<String> = runs
        .iter()
        .take(MAX_RANGES)
        .map(|&(a, b)| {
            if a == b {
                (a + 1).to_string()
            } else {
                format!("{}–{}", a + 1, b + 1)
            }
        })
        .collect();
    if runs.len() > MAX_RANGES {
        parts.push("…".to_string());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_numbers_are_ranges_and_capped() {
        assert_eq!(ranges(&[0]), "1");
        assert_eq!(ranges(&[0, 1, 2, 6]), "1–3, 7");
        assert_eq!(ranges(&(0..379).collect::<Vec<_>>()), "1–379");
        let every_other: Vec<usize> = (0..40).step_by(2).collect();
        assert_eq!(ranges(&every_other), "1, 3, 5, 7, 9, 11, 13, 15, …");
        assert_eq!(
            games_phrase(&[4], "with syntax errors"),
            "1 game with syntax errors (5)"
        );
        assert_eq!(
            games_phrase(&[0, 1], "with syntax errors"),
            "2 games with syntax errors (1–2)"
        );
    }
}
