//! Conversions of the games under the cursor for the editor: the code
//! actions "Copy game as forum notation", "Open as RBN" and "Open as LIN",
//! and the command `pbn.convertGame` they carry (`workspace/executeCommand`).
//!
//! LSP has no portable way for a server to open an untitled document with
//! given content (`window/showDocument` takes a URI, `CreateFile` writes a
//! file), so the command *returns* the converted text and the client does
//! the rest (editors/README.md): the VS Code extension copies forum
//! notation to the clipboard and opens RBN/LIN in a new untitled document;
//! Neovim opens a scratch buffer. The conversion is `pbn convert`'s:
//! [`pbn_core::convert::convert_games`]. What the target format cannot hold
//! comes back as `losses`, one line per loss, never dropped silently.
//!
//! Arguments (one JSON object): `uri`, `version` (the document version the
//! action was computed for: a command for an older version is refused, the
//! game indices may have moved), `games` (`{"start", "end"}`, 0-based,
//! end excluded) and `format` (`forum`, `rbn` or `lin`). Result: `format`,
//! `action` (`copy` for forum notation, `open` otherwise), `language`
//! (`plaintext`), `title`, `text` and `losses`.

use crate::lsp::snapshot::Snapshot;
use pbn_core::convert::{convert_games, Format};
use serde_json::{json, Value};
use std::ops::Range;
use tower_lsp_server::ls_types::*;

/// The command the actions carry.
pub const COMMAND: &str = "pbn.convertGame";

/// The code action kinds: `source.convertGame.forum`, `.rbn`, `.lin`.
pub const KIND: CodeActionKind = CodeActionKind::new("source.convertGame");

/// The formats offered, in menu order.
const TARGETS: [Format; 3] = [Format::Forum, Format::Rbn, Format::Lin];

pub fn register(caps: &mut ServerCapabilities) {
    caps.execute_command_provider
        .get_or_insert_with(ExecuteCommandOptions::default)
        .commands
        .push(COMMAND.into());
}

/// The kind of the action converting to `f`.
pub fn kind(f: Format) -> CodeActionKind {
    CodeActionKind::from(format!("{}.{}", KIND.as_str(), f.name()))
}

/// The three actions for the games `games` (0-based, end excluded) that
/// `wants` accepts. Cheap: the conversion runs when the command does.
pub fn actions(
    snap: &Snapshot,
    games: Range<usize>,
    wants: impl Fn(&CodeActionKind) -> bool,
) -> Vec<CodeActionOrCommand> {
    if games.is_empty() {
        return Vec::new();
    }
    TARGETS
        .into_iter()
        .filter(|f| wants(&kind(*f)))
        .map(|f| {
            let title = title(f, &games);
            CodeActionOrCommand::CodeAction(CodeAction {
                title: title.clone(),
                kind: Some(kind(f)),
                command: Some(Command {
                    title,
                    command: COMMAND.into(),
                    arguments: Some(vec![json!({
                        "uri": snap.uri.as_str(),
                        "version": snap.version,
                        "games": {"start": games.start, "end": games.end},
                        "format": f.name(),
                    })]),
                }),
                ..Default::default()
            })
        })
        .collect()
}

fn title(f: Format, games: &Range<usize>) -> String {
    let what = if games.len() == 1 {
        "game".to_string()
    } else {
        format!("games {}–{}", games.start + 1, games.end)
    };
    match f {
        Format::Forum => format!("Copy {what} as forum notation"),
        Format::Rbn if games.len() == 1 => "Open as RBN".into(),
        Format::Lin if games.len() == 1 => "Open as LIN".into(),
        f => format!("Open {what} as {}", f.name().to_uppercase()),
    }
}

/// The parsed arguments of [`COMMAND`].
#[derive(Debug)]
pub struct Args {
    pub uri: Uri,
    version: i32,
    games: Range<usize>,
    format: Format,
}

/// Reads the command's arguments; an error says what is wrong.
pub fn parse(params: &ExecuteCommandParams) -> Result<Args, String> {
    if params.command != COMMAND {
        return Err(format!("unknown command `{}`", params.command));
    }
    let usage = format!(
        "{COMMAND} takes one object {{uri, version, games: {{start, end}}, format: forum|rbn|lin}}"
    );
    let [a] = params.arguments.as_slice() else {
        return Err(usage);
    };
    let num = |v: &Value| v.as_u64().and_then(|n| usize::try_from(n).ok());
    let uri = a["uri"].as_str().and_then(|s| s.parse::<Uri>().ok());
    let version = a["version"].as_i64().and_then(|n| i32::try_from(n).ok());
    let (start, end) = (num(&a["games"]["start"]), num(&a["games"]["end"]));
    let format = match a["format"].as_str() {
        Some(name) => match Format::from_name(name).filter(|f| TARGETS.contains(f)) {
            Some(f) => Some(f),
            None => return Err(format!("`{name}` is not forum, rbn or lin")),
        },
        None => None,
    };
    match (uri, version, start, end, format) {
        (Some(uri), Some(version), Some(start), Some(end), Some(format)) if start < end => {
            Ok(Args {
                uri,
                version,
                games: start..end,
                format,
            })
        }
        _ => Err(usage),
    }
}

/// Runs the conversion on the current snapshot of the document.
pub fn run(snap: &Snapshot, args: Args) -> Result<Value, String> {
    if snap.version != args.version {
        return Err(format!(
            "the document changed (version {} is now {}): choose the action again",
            args.version, snap.version
        ));
    }
    let count = snap.game_spans().len();
    if args.games.end > count {
        return Err(format!(
            "the document has {count} games, not {}",
            args.games.end
        ));
    }
    let Some(last) = args
        .games
        .end
        .checked_sub(1)
        .and_then(|i| snap.game_spans().get(i))
    else {
        return Err("no game chosen".into());
    };
    let end = last.end;
    let text = &snap.source.text[..end];
    let converted = convert_games(text, args.games.clone(), args.format);
    let losses: Vec<String> = converted
        .losses
        .iter()
        .map(|l| format!("game {}: {}", l.game + 1, l.what))
        .chain(converted.diagnostics.iter().map(|d| d.message.clone()))
        .collect();
    Ok(json!({
        "format": args.format.name(),
        "action": if args.format == Format::Forum { "copy" } else { "open" },
        "language": "plaintext",
        "title": title(args.format, &args.games),
        "text": converted.text,
        "losses": losses,
    }))
}
