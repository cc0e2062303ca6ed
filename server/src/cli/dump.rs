use super::files::{self, Input};
use clap::Args;
use pbn_core::text::decode_owned;
use std::path::PathBuf;
use std::process::ExitCode;

/// Print the typed model of every game as JSON (stable field order).
///
/// The dump is the meaning of the file, independent of layout and comments:
/// two files that mean the same dump equal, which is how the formatter's
/// tests prove it preserves meaning.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn dump game.pbn\n  pbn dump - < game.pbn\n  diff <(pbn dump a.pbn) <(pbn dump b.pbn)"
)]
pub struct DumpArgs {
    /// The file to dump; `-` (the default) reads standard input.
    #[arg(default_value = "-")]
    path: PathBuf,
    /// Print compact JSON on one line.
    #[arg(long)]
    compact: bool,
}

pub fn run(args: DumpArgs) -> ExitCode {
    let input = if args.path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(args.path.clone())
    };
    let bytes = match files::read(&input) {
        Ok(b) => b,
        Err(e) => {
            errln!("error: {}: {e}", input.display());
            return ExitCode::from(2);
        }
    };
    let source = decode_owned(bytes);
    // Printed as the games are dumped, piece by piece: never the model or
    // JSON of the whole file at once.
    let encoding = [("encoding", serde_json::json!(source.encoding.name()))];
    let mut buf = String::new();
    pbn_core::model::dump::write_streamed(&source.text, &encoding, !args.compact, |s| {
        buf.push_str(s);
        if buf.len() >= 1 << 16 {
            super::out::stdout(buf.as_bytes());
            buf.clear();
        }
    });
    buf.push('\n');
    super::out::stdout(buf.as_bytes());
    ExitCode::SUCCESS
}
