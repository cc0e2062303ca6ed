//! `pbn-gen`: writes a deterministic, realistic PBN 2.1 file (see
//! `pbn_tests::gen`).

use std::io::Write;
use std::process::ExitCode;

use pbn_tests::gen::{generate, GenOptions, LineEnding};

const HELP: &str = "\
pbn-gen: generate a realistic PBN 2.1 export-format file of legal bridge games

USAGE:
    pbn-gen --games N [--seed S] [--no-nags] [--no-comments] [--endplay] [--crlf] [--clean] [--dd] [-o FILE]

OPTIONS:
    -n, --games N      number of games to generate (required)
    -s, --seed S       random seed (default 1); the output depends only on
                       N, S and the options
        --no-nags      no NAGs ($1..$12) after calls and cards
        --no-comments  no {...} or ; comments
        --endplay      what endplay's reader can load: --no-nags --no-comments
        --crlf         CRLF line endings (default LF)
        --clean        a file `pbn check --export` reports nothing on: --crlf,
                       and no application-specific DoubleDummyTricks tag
        --dd           solved double-dummy data: DoubleDummyTricks and
                       OptimumResultTable from the solver, with OptimumScore
                       and ParContract; `pbn check --dd` accepts it (slower:
                       one solve per deal)
    -o, --output FILE  write to FILE instead of standard output
    -h, --help         print this help
";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbn-gen: {e}\n(try --help)");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let mut games: Option<usize> = None;
    let mut seed: u64 = 1;
    let mut opts = GenOptions::default();
    let mut output: Option<String> = None;
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        // Accept both `--opt value` and `--opt=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => {
                print!("{HELP}");
                return Ok(());
            }
            "-n" | "--games" => {
                let v = value("--games")?;
                games = Some(
                    v.parse()
                        .map_err(|_| format!("--games: not a count: {v}"))?,
                );
            }
            "-s" | "--seed" => {
                let v = value("--seed")?;
                seed = v
                    .parse()
                    .map_err(|_| format!("--seed: not an unsigned integer: {v}"))?;
            }
            "--no-nags" => opts.nags = false,
            "--no-comments" => opts.comments = false,
            "--endplay" => {
                opts.nags = false;
                opts.comments = false;
            }
            "--crlf" => opts.line_ending = LineEnding::CrLf,
            "--clean" => {
                let clean = GenOptions::clean();
                opts.line_ending = clean.line_ending;
                opts.double_dummy_tag = clean.double_dummy_tag;
            }
            "--dd" => opts.solved_dd = true,
            "-o" | "--output" => output = Some(value("--output")?),
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    let games = games.ok_or("--games N is required")?;
    let text = generate(games, seed, &opts);
    match output {
        Some(path) if path != "-" => {
            std::fs::write(&path, text).map_err(|e| format!("cannot write {path}: {e}"))
        }
        _ => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|_| out.flush())
                .or_else(|e| {
                    // A closed pipe (`pbn-gen ... | head`) is not an error.
                    if e.kind() == std::io::ErrorKind::BrokenPipe {
                        Ok(())
                    } else {
                        Err(format!("cannot write to standard output: {e}"))
                    }
                })
        }
    }
}
