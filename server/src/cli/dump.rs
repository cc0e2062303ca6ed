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
    after_help = "Examples:\n  pbn dump game.pbn\n  pbn dump a.pbn b.pbn\n  pbn dump - < game.pbn\n  diff <(pbn dump a.pbn) <(pbn dump b.pbn)\n\nWith several files, one JSON document each, one after the other (JSON Lines with --compact)."
)]
pub struct DumpArgs {
    /// The files to dump; `-` (the default) reads standard input.
    #[arg(default_value = "-")]
    paths: Vec<PathBuf>,
    /// Print compact JSON on one line.
    #[arg(long)]
    compact: bool,
}

pub fn run(args: DumpArgs) -> ExitCode {
    let mut failed = false;
    for path in &args.paths {
        let input = if path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::File(path.clone())
        };
        if !dump(&input, args.compact, args.paths.len() > 1) {
            failed = true;
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// Dumps one input (with its `path` when `named`: one of several); `false`
/// when it could not be read (said on stderr).
fn dump(input: &Input, compact: bool, named: bool) -> bool {
    let bytes = match files::read(input) {
        Ok(b) => b,
        Err(e) => {
            errln!("error: {}: {}", input.display(), super::write::message(&e));
            return false;
        }
    };
    let source = decode_owned(bytes);
    // Printed as the games are dumped, piece by piece: never the model or
    // JSON of the whole file at once.
    let mut head = vec![("encoding", serde_json::json!(source.encoding.name()))];
    if named {
        head.insert(0, ("path", serde_json::json!(input.display())));
    }
    let mut buf = String::new();
    pbn_core::model::dump::write_streamed(&source.text, &head, !compact, |s| {
        buf.push_str(s);
        if buf.len() >= 1 << 16 {
            super::out::stdout(buf.as_bytes());
            buf.clear();
        }
    });
    buf.push('\n');
    super::out::stdout(buf.as_bytes());
    true
}
