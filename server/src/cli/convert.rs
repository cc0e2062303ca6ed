//! `pbn convert`: PBN ↔ RBN 2.2, PBN ↔ LIN, PBN → forum notation, through
//! [`pbn_core::convert`].

use super::files::{self, Input};
use super::write;
use clap::Args;
use pbn_core::codes::Severity;
use pbn_core::convert::{self, Converted, Format};
use pbn_core::format::{format_fixed, EolOption, FormatOptions};
use pbn_core::text::{decode, LineIndex, PositionEncoding};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Convert between PBN and RBN, LIN or forum notation.
///
/// RBN 2.2 (Pavlicek's Rec.Bridge Notation) and LIN (BBO's hand records
/// and movies) are read and written; forum notation (`[Deal …]`,
/// `[Bidding …]`, `[S]`) is written only. Formats come
/// from the file extensions (.pbn, .rbn, .lin, .forum or .txt) or from
/// --from/--to; `-` reads standard input or writes standard output.
///
/// Every call, card and value the reader understands is written in the
/// target's own spelling. What the reader cannot read (syntax errors of a
/// PBN input too) is reported with file:line:column; what the target format
/// cannot hold is said once per kind on standard error, with the number of
/// games and the first of them, never dropped silently. PBN output is
/// written in export format and checked like `pbn check`: its errors are
/// reported. The output file is written through a temporary file and a
/// rename. Exit status: 0 when clean or when only tags without game meaning
/// are lost; 1 when the input has errors (syntax errors of PBN, what the
/// RBN or LIN reader cannot read), the output loses a call, a card,
/// the deal, the contract or its result (unless --allow-loss), or the PBN
/// output does not pass `pbn check`; 2 on usage or IO errors.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn convert deals.rbn -o deals.pbn        RBN 2.2 → PBN (export format, checked)\n  pbn convert game.pbn -o game.rbn          PBN → RBN 2.2\n  pbn convert board.lin -o board.pbn         LIN → PBN (alerts become notes)\n  pbn convert game.pbn -o game.lin          PBN → LIN\n  pbn convert game.pbn -o post.txt          PBN → forum notation\n  pbn convert game.pbn --to forum           forum notation on standard output\n  cat deals.rbn | pbn convert - --from rbn --to pbn -o -"
)]
pub struct ConvertArgs {
    /// The input file; `-` reads standard input (then give --from).
    input: PathBuf,
    /// The output file; `-` (the default) writes standard output (then
    /// give --to unless the extension of -o says it).
    #[arg(short = 'o', long = "output", default_value = "-")]
    output: PathBuf,
    /// The input format: pbn, rbn, lin (default: from the input's extension).
    #[arg(long)]
    from: Option<String>,
    /// The output format: pbn, rbn, lin, forum (default: from the output's
    /// extension).
    #[arg(long)]
    to: Option<String>,
    /// Write the output even when it replaces a read-only file.
    #[arg(long)]
    force: bool,
    /// Exit 0 even when the target format cannot hold a call, a card, the
    /// deal, the contract or its result (the losses are still reported),
    /// e.g. `pbn convert big.pbn -o big.rbn --allow-loss`.
    #[arg(long)]
    allow_loss: bool,
}

fn pick(flag: &Option<String>, path: &Path, what: &str) -> Result<Format, String> {
    match flag {
        Some(name) => Format::from_name(name).ok_or_else(|| {
            format!("unknown {what} format `{name}`: expected pbn, rbn, lin or forum")
        }),
        None => {
            let p = path.to_string_lossy();
            if p == "-" {
                return Err(format!(
                    "give --{} for standard {}",
                    if what == "input" { "from" } else { "to" },
                    if what == "input" { "input" } else { "output" }
                ));
            }
            Format::from_path(&p).ok_or_else(|| {
                format!(
                    "cannot tell the {what} format of {p} from its extension: use --{}",
                    if what == "input" { "from" } else { "to" }
                )
            })
        }
    }
}

/// `path:line:col: severity: message` and the source line with a caret.
fn print_read_diagnostics(path: &str, text: &str, c: &Converted) -> bool {
    let index = LineIndex::new(text);
    let mut errors = false;
    for d in &c.diagnostics {
        errors |= d.severity == Severity::Error;
        let start = d.range.start.min(text.len());
        let p = index.line_col(text, start, PositionEncoding::Chars);
        let line = index.line_range(text, p.line as usize);
        let line_text = text[line].trim_end_matches(['\r', '\n']);
        errln!(
            "{}: {}\n  --> {path}:{}:{}\n   | {line_text}\n   | {}^",
            d.severity.name(),
            d.message,
            p.line + 1,
            p.col + 1,
            " ".repeat(p.col as usize)
        );
    }
    errors
}

/// Game numbers listed in a loss summary before `…`.
const GAMES_LISTED: usize = 5;

/// One line per kind of loss ([`convert::summarize`]): `path: not in rbn:
/// <what> (3 games: 1, 4, 9)`, and when game meaning is lost and not
/// allowed, an error line; returns whether that makes the conversion fail.
fn print_losses(path: &str, to: Format, c: &Converted, allow_loss: bool) -> bool {
    let summary = convert::summarize(&c.losses);
    for s in &summary {
        let mut games: Vec<String> = s
            .games
            .iter()
            .take(GAMES_LISTED)
            .map(|g| (g + 1).to_string())
            .collect();
        if s.games.len() > GAMES_LISTED {
            games.push("…".into());
        }
        let others = match s.other_values {
            0 => String::new(),
            n => format!(", and {n} like it"),
        };
        errln!(
            "{}{path}: not in {}: {}{others} ({} game{}: {})",
            match (s.meaning, allow_loss) {
                (false, _) => "",
                (true, false) => "error: ",
                (true, true) => "warning: ",
            },
            to.name(),
            s.what,
            s.games.len(),
            if s.games.len() == 1 { "" } else { "s" },
            games.join(", ")
        );
    }
    let mut meaning: Vec<usize> = summary
        .iter()
        .filter(|s| s.meaning)
        .flat_map(|s| s.games.iter().copied())
        .collect();
    meaning.sort_unstable();
    meaning.dedup();
    if meaning.is_empty() {
        return false;
    }
    let n = meaning.len();
    let games = if n == 1 { "game" } else { "games" };
    if allow_loss {
        errln!(
            "{path}: the {} output loses calls, cards or results of {n} {games} (allowed by --allow-loss)",
            to.name()
        );
        false
    } else {
        errln!(
            "error: {path}: the {} output loses calls, cards or results of {n} {games}; \
             --allow-loss accepts that",
            to.name()
        );
        true
    }
}

pub fn run(args: ConvertArgs) -> ExitCode {
    let from = match pick(&args.from, &args.input, "input") {
        Ok(f) => f,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let to = match pick(&args.to, &args.output, "output") {
        Ok(f) => f,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !from.can_read() {
        errln!("error: {} is written, not read", from.name());
        return ExitCode::from(2);
    }
    let input = if args.input.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(args.input.clone())
    };
    let name = input.display();
    let bytes = match files::read(&input) {
        Ok(b) => b,
        Err(e) => {
            errln!("error: {name}: {}", write::message(&e));
            return ExitCode::from(2);
        }
    };
    let source = decode(&bytes);
    // `convert` panics nowhere by design; a bug must still not lose the
    // user's input silently, hence the message.
    let converted = match std::panic::catch_unwind(|| convert::convert(&source.text, from, to)) {
        Ok(c) => c,
        Err(_) => {
            errln!(
                "error: {name}: the {} → {} conversion failed (a bug; please report it)",
                from.name(),
                to.name()
            );
            return ExitCode::from(2);
        }
    };
    let mut failed = print_read_diagnostics(&name, &source.text, &converted);
    failed |= print_losses(&name, to, &converted, args.allow_loss);
    let mut text = converted.text;
    let out_name = if args.output.as_os_str() == "-" {
        "<stdout>".to_string()
    } else {
        args.output.display().to_string()
    };
    if to == Format::Pbn {
        // Export format (§2.3: CRLF line ends; §2.4: the `% PBN 2.1` and
        // `% EXPORT` header), checked with the export rules.
        let options = FormatOptions {
            add_missing_tags: true,
            eol: EolOption::Crlf,
            export_header: true,
        };
        text = format_fixed(&decode(text.as_bytes()), &options).text;
        let res = pbn_core::checker::check_text(
            &decode(text.as_bytes()),
            &pbn_core::checker::CheckOptions {
                export: true,
                ..Default::default()
            },
        );
        let index = LineIndex::new(&text);
        let mut shown = 0;
        for d in res
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
        {
            let p = index.line_col(&text, d.range.start, PositionEncoding::Chars);
            errln!(
                "{out_name}:{}:{}: error[{}]: {} (in the converted PBN)",
                p.line + 1,
                p.col + 1,
                d.code.code,
                d.message
            );
            shown += 1;
        }
        failed |= shown > 0;
    }
    if args.output.as_os_str() == "-" {
        out!("{text}");
    } else if let Err(e) = write::create_or_replace(&args.output, text.as_bytes(), args.force) {
        errln!("error: {out_name}: {}", write::message(&e));
        return ExitCode::from(2);
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
