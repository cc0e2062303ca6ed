//! `pbn score`: each board's ScoreTable with its matchpoints, percentages,
//! IMPs and datum recomputed by the game's Scoring, and each pair's totals
//! and rank ([`pbn_core::render::score`]); `--write` writes the computed
//! figures over the ones that differ: the fixes of the scoring codes
//! (PBN0808–PBN0810) through `pbn check --fix`'s loop and safe writes.

use super::files;
use super::render::Style;
use clap::Args;
use pbn_core::checker::CheckOptions;
use pbn_core::text::decode;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Recompute the scores of results files: matchpoints, percentages, IMPs.
///
/// For each board with a ScoreTable (§5.9): its rows with the figures the
/// game's Scoring tag asks for (§3.4.12: MP with MP1 or MP2, BAM, Butler
/// against a mean or median datum, Butler-2, Cross, Cross1, Cross2, plain
/// IMPs over two tables, the scales of 1962 and IMP_1948), a figure the
/// file states differently shown as `computed (file stated)`; then each
/// pair's totals and rank over the file's boards, and what a
/// TotalScoreTable (§5.10) states against them. Exits 1 when a figure
/// differs. With --write, the differing ScoreTable cells and ScoreMP,
/// ScoreIMP and ScorePercentage tags are rewritten in place (nothing else
/// is touched).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn score results.pbn\n  pbn score --write results.pbn\n  pbn score --diff results.pbn\n  pbn score - < results.pbn"
)]
pub struct ScoreArgs {
    /// PBN files or directories; `-` reads standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Write the computed figures over the ones that differ.
    #[arg(long, conflicts_with = "diff")]
    write: bool,
    /// Print what --write would change as a diff, and change nothing.
    #[arg(long)]
    diff: bool,
    /// With --write: also write read-only files.
    #[arg(long, requires = "write")]
    force: bool,
}

pub fn run(args: ScoreArgs) -> ExitCode {
    let inputs = match files::expand(&args.paths) {
        Ok(i) => i,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.write || args.diff {
        let n = inputs.len();
        return super::fix::run(
            &inputs,
            &vec![CheckOptions::default(); n],
            &vec![pbn_core::config::Policy::default(); n],
            super::fix::Mode {
                write: args.write,
                force: args.force,
                unsafe_fixes: true,
                style: Style {
                    color: std::io::stderr().is_terminal()
                        && std::env::var_os("NO_COLOR").is_none(),
                    concise: false,
                },
                json: false,
                quiet: false,
                only: Some(&pbn_core::codes::tables::FIGURE_CODES),
            },
        );
    }
    let (mut failed, mut differ) = (false, false);
    for input in &inputs {
        let name = input.display();
        let bytes = match files::read(input) {
            Ok(b) => b,
            Err(e) => {
                errln!("error: {name}: {e}");
                failed = true;
                continue;
            }
        };
        let source = decode(&bytes);
        let text = source.text.as_str();
        let doc = pbn_core::model::lower(&pbn_core::syntax::parse_pieces(text), text);
        let r = pbn_core::render::score::report(&doc);
        if inputs.len() > 1 {
            outln!("== {name}");
        }
        out!("{}", r.text);
        differ |= r.differences > 0;
    }
    if failed {
        ExitCode::from(2)
    } else if differ {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
