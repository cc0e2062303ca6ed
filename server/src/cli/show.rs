use super::files::{self, Input};
use clap::Args;
use pbn_core::render::{self, text::Style, Record};
use pbn_core::text::decode;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Draw the games of a file as hand records in the terminal.
///
/// Each game: board, dealer and vulnerability, the four hands with their
/// high card points, the auction from West with its notes, contract and
/// result, the play trick by trick (leader, winner), the double-dummy table
/// and par when the file has them, the commentary, and the game's errors
/// (a game with errors is drawn as far as it can be read). With --dd, the
/// double-dummy solver adds the table and par (when the file has none), the
/// opening leads, and marks each card that gave tricks away (`−1`).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn show examples/schiphol.pbn\n  pbn show played.pbn --dd\n  pbn show games.pbn --board 7\n  pbn show games.pbn --color always | less -R\n  pbn show - < games.pbn"
)]
pub struct ShowArgs {
    /// The PBN file; `-` reads standard input.
    path: PathBuf,
    /// Only the games whose Board tag is N.
    #[arg(long, value_name = "N")]
    board: Option<String>,
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(long, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
    /// Solve: the double-dummy table and par when the file has none, the
    /// opening leads, and the tricks each card played gave away.
    #[arg(long)]
    dd: bool,
}

/// Why there are no records to draw: the message, and the exit status (1
/// when no game has the board asked for, 2 when the file cannot be read).
pub type NoRecords = (String, u8);

/// The records of the file at `path` (games with Board `board` only, when
/// given), each with the errors that change what it draws as
/// `file:line:column: error[CODE]: message`; with `dd`, what the solver
/// adds ([`render::add_dd`]).
pub fn records(
    path: &Path,
    board: Option<&str>,
    dd: bool,
) -> Result<(String, Vec<Record>), NoRecords> {
    let input = if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_path_buf())
    };
    let name = input.display();
    let bytes = files::read(&input).map_err(|e| (format!("{name}: {e}"), 2))?;
    let source = decode(&bytes);
    let mut records = render::records(&source, &name, |r| {
        dd && board.is_none_or(|b| r.board.as_deref() == Some(b.trim()))
    });
    if let Some(b) = board {
        records.retain(|r| r.board.as_deref() == Some(b.trim()));
        if records.is_empty() {
            return Err((
                format!("{name}: no game has Board \"{b}\" (no such board)"),
                1,
            ));
        }
    }
    Ok((name, records))
}

pub fn run(args: ShowArgs) -> ExitCode {
    let (_, records) = match records(&args.path, args.board.as_deref(), args.dd) {
        Ok(r) => r,
        Err((e, status)) => {
            errln!("error: {e}");
            return ExitCode::from(status);
        }
    };
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let style = Style { color };
    let out: Vec<String> = records
        .iter()
        .map(|r| render::text::render(r, style))
        .collect();
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`pbn show … | head`) ends the output quietly.
    let _ = stdout.write_all(out.join("\n").as_bytes());
    ExitCode::SUCCESS
}
