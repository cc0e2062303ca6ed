//! `textDocument/codeAction`: an adapter from the core's fixes to LSP
//! code actions.
//!
//! - Quick fixes: the [`pbn_core::diagnostic::Fix`]es of the snapshot's own
//!   diagnostics ([`Snapshot::check`]) that touch the requested range, or
//!   that equal one of the client's `context.diagnostics` (same code and
//!   range), with their alternatives ([`pbn_core::rules::fixes`], where the
//!   table of fixable codes is); each action names the diagnostics it
//!   resolves. The layout codes (PBN1002, PBN1003, PBN1009, PBN1010,
//!   PBN1011) are fixed by formatting the game.
//! - `source.fixAll.pbn`: every safe fix of the file, to the fixed point,
//!   in one action (what `pbn check --fix` applies), for the editors'
//!   fix-on-save.
//! - Fix-all, the file conversion and "Add double-dummy analysis" are
//!   listed without their edits and computed when picked: a listing never
//!   solves a deal nor builds a whole-file edit. A client that resolves
//!   edits (`codeAction/resolve`) gets them on resolve; any other client
//!   gets a command, [`APPLY_COMMAND`], whose `workspace/executeCommand`
//!   computes the edit and sends it as `workspace/applyEdit`. A request
//!   that names the kind in `only` (a save hook's `source.fixAll`) gets
//!   the edit itself from a client without resolve.
//! - A rewrite that fills Declarer/Contract/Result from the auction and
//!   play, and "Add double-dummy analysis" (the game's double-dummy tags
//!   from the solver, as `pbn dd --overwrite`).
//! - Two source actions that run the export formatter (`pbn fmt`) on the
//!   whole file or on one game: `source.convertToExport` replaces the whole
//!   file with the formatter's output; `source.convertGameToExport` replaces
//!   one game (the one at the start of the range). They are not computed
//!   for automatic requests that do not ask for source actions (the
//!   lightbulb of VS Code never shows them).
//! - Under the same condition, "Copy game as forum notation", "Open as
//!   RBN" and "Open as LIN" for the games in the range
//!   ([`super::convert_game`]).

use crate::lsp::snapshot::Snapshot;
use pbn_core::diagnostic::{Diagnostic as Diag, Fix as CoreFix};
use pbn_core::format::{format_fixed, EolOption, FormatOptions};
use pbn_core::model::{Game, Inherit};
use pbn_core::rules::fixes;
use pbn_core::text::{LineEnding, SourceText};
use std::collections::HashMap;
use std::ops::Range;
use tower_lsp_server::ls_types::*;

/// Replace the whole file with its export-format form.
pub const CONVERT_TO_EXPORT: CodeActionKind = CodeActionKind::new("source.convertToExport");
/// Every safe fix of the file (the editors' fix-on-save).
pub const FIX_ALL: CodeActionKind = CodeActionKind::new("source.fixAll.pbn");
/// Replace one game with its export-format form.
pub const CONVERT_GAME_TO_EXPORT: CodeActionKind =
    CodeActionKind::new("source.convertGameToExport");

pub fn register(caps: &mut ServerCapabilities) {
    caps.code_action_provider = Some(CodeActionProviderCapability::Options(CodeActionOptions {
        code_action_kinds: Some(vec![
            CodeActionKind::QUICKFIX,
            CodeActionKind::REFACTOR_REWRITE,
            CodeActionKind::SOURCE,
            FIX_ALL,
            CONVERT_TO_EXPORT,
            CONVERT_GAME_TO_EXPORT,
            super::convert_game::KIND,
        ]),
        work_done_progress_options: WorkDoneProgressOptions::default(),
        resolve_provider: Some(true),
    }));
    caps.execute_command_provider
        .get_or_insert_with(ExecuteCommandOptions::default)
        .commands
        .push(APPLY_COMMAND.into());
}

/// The title of the action that formats one game (a layout quick fix and
/// the `source.convertGameToExport` action).
const CONVERT_GAME_TITLE: &str = "Convert this game to PBN export format";

/// A fix in byte offsets of the snapshot's text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fix {
    title: String,
    edits: Vec<(Range<usize>, String)>,
    preferred: bool,
}

impl From<CoreFix> for Fix {
    fn from(f: CoreFix) -> Fix {
        Fix {
            title: f.title,
            edits: f.edits.into_iter().map(|e| (e.range, e.new_text)).collect(),
            preferred: f.preferred,
        }
    }
}

impl Fix {
    fn new(title: impl Into<String>, edits: Vec<(Range<usize>, String)>, preferred: bool) -> Fix {
        Fix {
            title: title.into(),
            edits,
            preferred,
        }
    }
}

pub fn code_action(snap: &Snapshot, params: CodeActionParams) -> Option<CodeActionResponse> {
    let range = snap.converter().byte_range(params.range);
    let only = params.context.only.as_deref();
    let wants = |kind: &CodeActionKind| {
        only.is_none_or(|list| {
            list.iter().any(|o| {
                let (k, o) = (kind.as_str(), o.as_str());
                o.is_empty()
                    || k == o
                    || (k.starts_with(o) && k.as_bytes().get(o.len()) == Some(&b'.'))
            })
        })
    };
    let mut out: Vec<CodeActionOrCommand> = Vec::new();
    if wants(&CodeActionKind::QUICKFIX) {
        out.extend(quick_fixes(
            snap,
            &params.context.diagnostics,
            range.clone(),
        ));
    }
    let game = snap
        .game_at(range.start)
        .or_else(|| snap.games_overlapping(range.clone()).next());
    let automatic = params.context.trigger_kind == Some(CodeActionTriggerKind::AUTOMATIC);
    // The costly edits are computed when the action is picked, unless a
    // client that cannot resolve asks for that kind by name.
    let named = |kind: &CodeActionKind| {
        only.is_some_and(|list| {
            list.iter().any(|o| {
                let (k, o) = (kind.as_str(), o.as_str());
                // `source.fixAll` names fix-all; `source` alone asks for a menu.
                o.contains('.')
                    && (k == o || (k.starts_with(o) && k.as_bytes().get(o.len()) == Some(&b'.')))
            })
        })
    };
    let lazy = |kind: &CodeActionKind| snap.settings.resolve_edits || !named(kind);
    if wants(&CodeActionKind::REFACTOR_REWRITE) {
        if let Some(fix) = game.and_then(|g| fixes::fill_from_auction(&snap.source.text, g)) {
            let fix = Fix::from(fix);
            out.push(action(snap, fix, CodeActionKind::REFACTOR_REWRITE, None));
        }
        if let Some(g) = game {
            let kind = CodeActionKind::REFACTOR_REWRITE;
            match dd_missing(g) {
                // Solved when picked: listing never waits for the solver.
                true => out.extend(pending(snap, DD_TITLE, kind, Lazy::AddDd(g.index))),
                // A correction only once the deal is solved already.
                false => {
                    out.extend(add_dd(snap, g, false).map(|fix| action(snap, fix, kind, None)))
                }
            }
        }
    }
    if !(automatic && only.is_none()) && wants(&FIX_ALL) {
        if lazy(&FIX_ALL) {
            let fixable = snap.check().diagnostics.iter().any(|d| {
                d.fix.as_deref().is_some_and(|f| {
                    f.applies(false) && (!f.edits.is_empty() || f.encoding.is_some())
                })
            });
            if fixable {
                out.extend(pending(snap, FIX_ALL_TITLE, FIX_ALL, Lazy::FixAll));
            }
        } else if let Some(fix) = fix_all(snap) {
            out.push(action(snap, fix, FIX_ALL, None));
        }
    }
    if !(automatic && only.is_none()) {
        // A layout quick fix already offers the same edit under the same
        // title: one entry in the menu is enough.
        let already = out.iter().any(
            |a| matches!(a, CodeActionOrCommand::CodeAction(a) if a.title == CONVERT_GAME_TITLE),
        );
        if wants(&CONVERT_GAME_TO_EXPORT) && !already {
            if let Some(fix) = game.and_then(|g| convert_game(snap, g, CONVERT_GAME_TITLE)) {
                out.push(action(snap, fix, CONVERT_GAME_TO_EXPORT, None));
            }
        }
        if wants(&CONVERT_TO_EXPORT) {
            if lazy(&CONVERT_TO_EXPORT) {
                out.extend(pending(
                    snap,
                    CONVERT_FILE_TITLE,
                    CONVERT_TO_EXPORT,
                    Lazy::ConvertFile,
                ));
            } else if let Some(fix) = convert_file(snap) {
                out.push(action(snap, fix, CONVERT_TO_EXPORT, None));
            }
        }
        // The games of the range (in order), or the one at its start.
        let mut games = snap.games_overlapping(range.clone()).map(|g| g.index);
        let games = match (games.next(), games.last()) {
            (Some(a), b) => a..b.unwrap_or(a) + 1,
            (None, _) => 0..0,
        };
        out.extend(super::convert_game::actions(snap, games, wants));
    }
    Some(out)
}

fn action(
    snap: &Snapshot,
    fix: Fix,
    kind: CodeActionKind,
    diagnostics: Option<Vec<Diagnostic>>,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title: fix.title,
        kind: Some(kind),
        diagnostics,
        edit: Some(workspace_edit(snap, fix.edits)),
        is_preferred: fix.preferred.then_some(true),
        ..Default::default()
    })
}

fn workspace_edit(snap: &Snapshot, edits: Vec<(Range<usize>, String)>) -> WorkspaceEdit {
    let conv = snap.converter();
    let edits = edits
        .into_iter()
        .map(|(r, new_text)| TextEdit {
            range: conv.range(r),
            new_text,
        })
        .collect();
    WorkspaceEdit {
        changes: Some(HashMap::from([(snap.uri.clone(), edits)])),
        ..Default::default()
    }
}

// ---------------------------------------------------------------------------
// Actions listed without their edits, computed on `codeAction/resolve`.

const FIX_ALL_TITLE: &str = "Fix all safe problems";
const CONVERT_FILE_TITLE: &str = "Convert file to PBN export format";
const DD_TITLE: &str = "Add double-dummy analysis";

/// What a lazily listed action computes when it is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lazy {
    FixAll,
    ConvertFile,
    /// The double-dummy tags of game `n`.
    AddDd(usize),
}

/// The command of an action listed without its edit, for a client that
/// does not resolve edits: one argument, the action's `data`.
pub const APPLY_COMMAND: &str = "pbn.applyAction";

/// An action without its edit: its `data` says what to compute on
/// resolve, for which document and version; for a client that does not
/// resolve, the same object is the argument of [`APPLY_COMMAND`].
fn pending(
    snap: &Snapshot,
    title: &str,
    kind: CodeActionKind,
    what: Lazy,
) -> Option<CodeActionOrCommand> {
    let (name, game) = match what {
        Lazy::FixAll => ("fixAll", None),
        Lazy::ConvertFile => ("convertFile", None),
        Lazy::AddDd(g) => ("addDd", Some(g)),
    };
    let data = serde_json::json!({
        "uri": snap.uri.as_str(),
        "version": snap.version,
        "action": name,
        "game": game,
    });
    let (data, command) = match snap.settings.resolve_edits {
        true => (Some(data), None),
        false => (
            None,
            Some(Command {
                title: title.to_owned(),
                command: APPLY_COMMAND.into(),
                arguments: Some(vec![data]),
            }),
        ),
    };
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: title.to_owned(),
        kind: Some(kind),
        data,
        command,
        ..Default::default()
    }))
}

/// The document a lazily listed action is for.
pub fn resolve_uri(action: &CodeAction) -> Option<Uri> {
    action.data.as_ref()?.get("uri")?.as_str()?.parse().ok()
}

/// `codeAction/resolve`: the edit of an action listed without it. An
/// error when the document changed since it was listed (the client lists
/// again); an action without `data` comes back as it is.
pub fn resolve(snap: &Snapshot, mut action: CodeAction) -> Result<CodeAction, String> {
    let Some(data) = action.data.as_ref() else {
        return Ok(action);
    };
    if let Some(edit) = deferred_edit(snap, data)? {
        action.edit = Some(edit);
    }
    Ok(action)
}

/// The document [`APPLY_COMMAND`]'s argument is for.
pub fn command_uri(params: &ExecuteCommandParams) -> Option<Uri> {
    let [data] = params.arguments.as_slice() else {
        return None;
    };
    data.get("uri")?.as_str()?.parse().ok()
}

/// [`APPLY_COMMAND`]: the edit to send as `workspace/applyEdit`.
pub fn apply_command(
    snap: &Snapshot,
    params: &ExecuteCommandParams,
) -> Result<WorkspaceEdit, String> {
    let usage = || format!("{APPLY_COMMAND} takes one object {{uri, version, action, game}}");
    let [data] = params.arguments.as_slice() else {
        return Err(usage());
    };
    deferred_edit(snap, data)?.ok_or_else(usage)
}

/// The edit of a deferred action (its `data`): an error when the document
/// changed since it was listed (the client lists again); `None` for data
/// that names no action.
fn deferred_edit(
    snap: &Snapshot,
    data: &serde_json::Value,
) -> Result<Option<WorkspaceEdit>, String> {
    if data.get("version").and_then(|v| v.as_i64()) != Some(i64::from(snap.version)) {
        return Err("the document changed since the action was listed".into());
    }
    let game = data
        .get("game")
        .and_then(|g| g.as_u64())
        .map(|g| g as usize);
    let fix = match (data.get("action").and_then(|a| a.as_str()), game) {
        (Some("fixAll"), _) => fix_all(snap),
        (Some("convertFile"), _) => convert_file(snap),
        (Some("addDd"), Some(i)) => snap.game(i).and_then(|g| add_dd(snap, g, true)),
        _ => return Ok(None),
    };
    Ok(Some(workspace_edit(
        snap,
        fix.map(|f| f.edits).unwrap_or_default(),
    )))
}

/// "Add double-dummy analysis": the game's DoubleDummyTricks, OptimumScore,
/// ParContract and OptimumResultTable from the solver, the missing ones
/// added and wrong ones replaced ([`pbn_core::dd::fill`], as `pbn dd
/// --overwrite`). The deal is solved by the server's solver, cached; an
/// automatic request (the lightbulb) never waits for it: it offers the
/// action once the deal is solved (a hover or an earlier request queued it).
fn add_dd(snap: &Snapshot, g: &Game, wait: bool) -> Option<Fix> {
    use crate::lsp::dd::{service, Lookup};
    let p = solvable(g)?;
    let asked = snap.staleness();
    let solved = if wait {
        service().solve(&p, &asked)?
    } else {
        match service().lookup(&p, &asked) {
            Lookup::Ready(r) => r,
            Lookup::Solving => return None,
        }
    };
    let r = pbn_core::dd::fill::game_edits_with(g, &snap.source.text, true, &mut |_| {
        Some(solved.as_ref().clone())
    });
    if r.edits.is_empty() {
        return None;
    }
    let title = if r.missing.is_empty() {
        "Correct the double-dummy analysis"
    } else {
        DD_TITLE
    };
    let edits = r.edits.into_iter().map(|e| (e.range, e.text)).collect();
    Some(Fix::new(title, edits, false))
}

/// The position of a game whose four hands are given.
fn solvable(g: &Game) -> Option<pbn_core::dd::verify::Position> {
    let p = pbn_core::dd::verify::Position::of(g)?;
    p.hands.iter().all(Option::is_some).then_some(p)
}

/// A game with a full deal that lacks one of the double-dummy tags.
fn dd_missing(g: &Game) -> bool {
    solvable(g).is_some()
        && pbn_core::dd::fill::WRITE_ORDER
            .iter()
            .any(|n| g.value(n).is_none())
}

fn code_of(d: &Diagnostic) -> Option<&str> {
    match &d.code {
        Some(NumberOrString::String(s)) => Some(s),
        _ => None,
    }
}

/// The quick fixes of the diagnostics in `range` (or named by the client).
fn quick_fixes(
    snap: &Snapshot,
    client: &[Diagnostic],
    range: Range<usize>,
) -> Vec<CodeActionOrCommand> {
    let conv = snap.converter();
    let diags = &snap.check().diagnostics;
    // (fix, the LSP diagnostics it resolves), in diagnostic order.
    let mut found: Vec<(Fix, Vec<Diagnostic>)> = Vec::new();
    // The formatted games (layout fixes), computed once per game; only for
    // a range inside one game (a whole-file request would format every game
    // for nothing: the source action does that once).
    let mut formatted: HashMap<usize, Option<Fix>> = HashMap::new();
    let single_game = snap
        .game_at(range.start)
        .is_some_and(|g| range.end <= g.range.end);
    for d in diags {
        let touches = d.range.start <= range.end && range.start <= d.range.end;
        let mut matching = None;
        if client.iter().any(|c| code_of(c) == Some(d.code.code)) {
            let r = conv.range(d.range.clone());
            matching = client
                .iter()
                .find(|c| code_of(c) == Some(d.code.code) && c.range == r)
                .cloned();
        }
        if !touches && matching.is_none() {
            continue;
        }
        let fixes = fixes_for(snap, d, &mut formatted, single_game);
        if fixes.is_empty() {
            continue;
        }
        let lsp = match matching {
            Some(c) => c,
            None => crate::lsp::notifications::diagnostics::to_lsp_one(snap, d),
        };
        for fix in fixes {
            // Two diagnostics with the same fix (PBN0202 and PBN1015, the
            // two PBN1012 of one Deal, PBN1007 and PBN1008 of one call): one
            // action that resolves both.
            match found.iter_mut().find(|(f, _)| f.edits == fix.edits) {
                Some((f, ds)) => {
                    f.preferred |= fix.preferred;
                    if !ds.contains(&lsp) {
                        ds.push(lsp.clone());
                    }
                }
                None => found.push((fix, vec![lsp.clone()])),
            }
        }
    }
    found
        .into_iter()
        .map(|(fix, ds)| action(snap, fix, CodeActionKind::QUICKFIX, Some(ds)))
        .collect()
}

/// The fixes of one diagnostic, the preferred one first: the core's
/// ([`pbn_core::rules::fixes`]), and for the layout codes the game in
/// export format.
fn fixes_for(
    snap: &Snapshot,
    d: &Diag,
    formatted: &mut HashMap<usize, Option<Fix>>,
    layout: bool,
) -> Vec<Fix> {
    let Some(g) = d
        .game
        .and_then(|i| snap.game(i))
        .or_else(|| snap.game_at(d.range.start))
    else {
        return d
            .fix
            .as_deref()
            .cloned()
            .map(Fix::from)
            .into_iter()
            .collect();
    };
    let text = snap.source.text.as_str();
    match d.code.code {
        "PBN1002" | "PBN1003" | "PBN1009" | "PBN1010" | "PBN1011" if layout => formatted
            .entry(g.index)
            .or_insert_with(|| convert_game(snap, g, CONVERT_GAME_TITLE))
            .clone()
            .into_iter()
            .collect(),
        _ => {
            let mut fixes: Vec<Fix> = fixes::fixes_for(text, g, d)
                .into_iter()
                .map(Fix::from)
                .collect();
            if fixes.is_empty() {
                fixes.extend(d.fix.as_deref().cloned().map(Fix::from));
            }
            fixes
        }
    }
}

// ---------------------------------------------------------------------------
// Source actions.

fn format_options(snap: &Snapshot, eol: EolOption) -> FormatOptions {
    FormatOptions {
        add_missing_tags: snap.settings.add_missing_tags,
        eol,
        ..FormatOptions::default()
    }
}

/// `source.fixAll.pbn`: what `pbn check --fix` applies, in one action:
/// the safe fixes, checked again and applied again until none is left
/// ([`pbn_core::checker::fix::fix_source`]), as edits of the changed lines.
fn fix_all(snap: &Snapshot) -> Option<Fix> {
    let opts = pbn_core::checker::CheckOptions {
        export: snap.settings.export,
        fixes: true,
        ungrouped: false,
    };
    let fixed = pbn_core::checker::fix::fix_source(&snap.source, &opts, false);
    let text = snap.source.text.as_str();
    if fixed.count() == 0 || fixed.source.text == text {
        return None;
    }
    let edits = crate::lsp::line_diff::line_edits(text, &fixed.source.text, 0);
    Some(Fix::new(FIX_ALL_TITLE, edits, false))
}

/// The file in export format: its safe fixes applied (`3N` → `3NT`, `s` →
/// `S`) and then formatted, as `pbn fmt` writes it, at any size: the
/// formatting request's edits ([`Snapshot::format_edits`], piece by piece,
/// from the pieces kept between versions).
fn convert_file(snap: &Snapshot) -> Option<Fix> {
    let edits = snap.format_edits(&format_options(snap, EolOption::Keep))?;
    (!edits.is_empty()).then(|| Fix::new(CONVERT_FILE_TITLE, edits, false))
}

/// The export form of one game. A game that uses `#`/`##` values of
/// earlier games is formatted with the games before it (whose output is a
/// prefix of the result), so that inherited values stay inherited.
fn convert_game(snap: &Snapshot, g: &Game, title: &str) -> Option<Fix> {
    let text = snap.source.text.as_str();
    let span = g.range.clone();
    let piece = &text[span.clone()];
    let eol = match snap.source.dominant_line_ending {
        LineEnding::Lf => EolOption::Lf,
        LineEnding::Cr => EolOption::Keep,
        _ => EolOption::Crlf,
    };
    let opts = format_options(snap, eol);
    let inherits = !g.inherited.is_empty() || g.tags.iter().any(|t| t.inherit != Inherit::None);
    let mut out = if inherits {
        let before =
            format_fixed(&SourceText::from_text(text[..span.start].to_owned()), &opts).text;
        let through = format_fixed(&SourceText::from_text(text[..span.end].to_owned()), &opts).text;
        through
            .strip_prefix(before.as_str())?
            .trim_start_matches(['\r', '\n'])
            .to_owned()
    } else {
        format_fixed(&SourceText::from_text(piece.to_owned()), &opts).text
    };
    // The piece ends without its line break in the document.
    while out.ends_with(['\n', '\r']) {
        out.pop();
    }
    (out != piece).then(|| Fix::new(title, vec![(span, out)], false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::state::Settings;
    use pbn_core::rules::tags::MANDATORY;
    use std::collections::HashSet;

    fn snapshot(text: &str, export: bool) -> Snapshot {
        let settings = Settings {
            export,
            ..Settings::default()
        };
        Snapshot::new(
            "file:///t.pbn".parse::<Uri>().unwrap(),
            1,
            text.to_string(),
            settings,
        )
    }

    fn request(
        snap: &Snapshot,
        range: Range<usize>,
        only: Option<Vec<CodeActionKind>>,
    ) -> Vec<CodeAction> {
        let conv = snap.converter();
        let lsp_range = conv.range(range.clone());
        let diagnostics = crate::lsp::notifications::diagnostics::to_lsp(snap)
            .into_iter()
            .filter(|d| d.range.start <= lsp_range.end && lsp_range.start <= d.range.end)
            .collect();
        let params = CodeActionParams {
            text_document: TextDocumentIdentifier {
                uri: snap.uri.clone(),
            },
            range: lsp_range,
            context: CodeActionContext {
                diagnostics,
                only,
                trigger_kind: None,
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        code_action(snap, params)
            .unwrap()
            .into_iter()
            .map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => a,
                CodeActionOrCommand::Command(c) => panic!("command {c:?}"),
            })
            .collect()
    }

    /// The text after applying the action's edits (which must not overlap),
    /// those of its [`APPLY_COMMAND`] for an action listed without them.
    /// What a client sends to run `c`.
    fn execute_params(c: &Command) -> ExecuteCommandParams {
        ExecuteCommandParams {
            command: c.command.clone(),
            arguments: c.arguments.clone().unwrap_or_default(),
            work_done_progress_params: Default::default(),
        }
    }

    fn apply(snap: &Snapshot, action: &CodeAction) -> String {
        let computed;
        let edit = match (&action.edit, &action.command) {
            (Some(edit), _) => edit,
            (None, Some(c)) => {
                assert_eq!(c.command, APPLY_COMMAND);
                let params = execute_params(c);
                assert_eq!(command_uri(&params).as_ref(), Some(&snap.uri));
                computed = apply_command(snap, &params).unwrap();
                &computed
            }
            (None, None) => panic!("no edit and no command: {action:?}"),
        };
        let edits = &edit.changes.as_ref().unwrap()[&snap.uri];
        let conv = snap.converter();
        let mut edits: Vec<(Range<usize>, &str)> = edits
            .iter()
            .map(|e| (conv.byte_range(e.range), e.new_text.as_str()))
            .collect();
        edits.sort_by_key(|(r, _)| std::cmp::Reverse((r.start, r.end)));
        for w in edits.windows(2) {
            assert!(w[1].0.end <= w[0].0.start, "overlapping edits {:?}", edits);
        }
        let mut text = snap.source.text.clone();
        for (r, t) in edits {
            text.replace_range(r, t);
        }
        text
    }

    fn codes_of(a: &CodeAction) -> Vec<String> {
        a.diagnostics
            .iter()
            .flatten()
            .filter_map(|d| code_of(d).map(str::to_owned))
            .collect()
    }

    fn listing(actions: &[CodeAction]) -> String {
        actions
            .iter()
            .map(|a| {
                format!(
                    "- {} [{}{}] {}\n",
                    a.title,
                    a.kind.as_ref().map(|k| k.as_str()).unwrap_or(""),
                    if a.is_preferred == Some(true) {
                        ", preferred"
                    } else {
                        ""
                    },
                    codes_of(a).join(" ")
                )
            })
            .collect()
    }

    fn count(snap: &Snapshot, code: &str) -> usize {
        snap.check()
            .diagnostics
            .iter()
            .filter(|d| d.code.code == code)
            .count()
    }

    fn shown(text: &str) -> String {
        if text.contains("\r\n") {
            format!("(CRLF)\n{}", text.replace("\r\n", "\n"))
        } else {
            text.to_owned()
        }
    }

    /// Requests the quick fixes at the first `code` diagnostic, applies the
    /// preferred one (else the first) and checks that the diagnostic is gone
    /// and that no new kind of error appeared. Returns the action list and
    /// the edited text.
    fn fix_with(text: &str, export: bool, code: &str, pick: usize) -> String {
        let snap = snapshot(text, export);
        let d = snap
            .check()
            .diagnostics
            .iter()
            .find(|d| d.code.code == code)
            .unwrap_or_else(|| {
                panic!(
                    "no {code} in {:#?}",
                    snap.check()
                        .diagnostics
                        .iter()
                        .map(|d| (d.code.code, &d.message))
                        .collect::<Vec<_>>()
                )
            });
        let actions = request(&snap, d.range.clone(), Some(vec![CodeActionKind::QUICKFIX]));
        let for_code: Vec<&CodeAction> = actions
            .iter()
            .filter(|a| codes_of(a).iter().any(|c| c == code))
            .collect();
        assert!(
            !for_code.is_empty(),
            "no fix for {code}:\n{}",
            listing(&actions)
        );
        let chosen = if pick > 0 {
            for_code[pick]
        } else {
            for_code
                .iter()
                .find(|a| a.is_preferred == Some(true))
                .copied()
                .unwrap_or(for_code[0])
        };
        let edited = apply(&snap, chosen);
        let after = snapshot(&edited, export);
        assert!(
            count(&after, code) < count(&snap, code),
            "{code} still reported after `{}`:\n{edited}\n{:#?}",
            chosen.title,
            after
                .check()
                .diagnostics
                .iter()
                .map(|d| (d.code.code, &d.message))
                .collect::<Vec<_>>()
        );
        let before: HashSet<&str> = snap
            .check()
            .diagnostics
            .iter()
            .map(|d| d.code.code)
            .collect();
        let new_errors: Vec<_> = after
            .check()
            .diagnostics
            .iter()
            .filter(|d| {
                d.severity == pbn_core::diagnostic::Severity::Error && !before.contains(d.code.code)
            })
            .map(|d| (d.code.code, d.message.clone()))
            .collect();
        assert!(
            new_errors.is_empty(),
            "`{}` introduced errors {new_errors:#?}:\n{edited}",
            chosen.title
        );
        format!(
            "{}--- after `{}` ---\n{}",
            listing(&actions),
            chosen.title,
            shown(&edited)
        )
    }

    fn fix(text: &str, export: bool, code: &str) -> String {
        fix_with(text, export, code, 0)
    }

    /// The 15 mandatory tags with `?` values, some replaced (`None` drops
    /// the tag), CRLF line ends (an export-format file).
    fn export_doc(overrides: &[(&str, Option<&str>)], rest: &str) -> String {
        let mut s = String::new();
        for name in MANDATORY {
            match overrides.iter().find(|(n, _)| *n == name) {
                Some((_, None)) => {}
                Some((_, Some(v))) => s.push_str(&format!("[{name} \"{v}\"]\n")),
                None => s.push_str(&format!("[{name} \"?\"]\n")),
            }
        }
        s.push_str(rest);
        s.replace('\n', "\r\n")
    }

    /// North holds the spades, East the hearts, South the diamonds, West
    /// the clubs; 7S by North wins all 13 tricks (East leads HA, North
    /// ruffs, then draws... everything).
    const DEAL: &str = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";

    fn full_play() -> String {
        const UP: &str = "23456789TJQKA";
        const DOWN: &str = "AKQJT98765432";
        let mut s = String::from("[Play \"E\"]\n");
        for k in 0..13 {
            let c = |suit: char, order: &str| format!("{suit}{}", &order[k..k + 1]);
            s.push_str(&format!(
                "{} {} {} {}\n",
                c('H', DOWN),
                c('D', UP),
                c('C', UP),
                c('S', UP)
            ));
        }
        s
    }

    fn seven_spades(tags: &str) -> String {
        format!(
            "[Dealer \"N\"]\n[Deal \"{DEAL}\"]\n{tags}[Auction \"N\"]\n7S Pass Pass Pass\n{}",
            full_play()
        )
    }

    #[test]
    fn registers_kinds() {
        let mut caps = ServerCapabilities::default();
        register(&mut caps);
        let Some(CodeActionProviderCapability::Options(o)) = caps.code_action_provider else {
            panic!()
        };
        let kinds = o.code_action_kinds.unwrap();
        assert!(kinds.contains(&CodeActionKind::QUICKFIX) && kinds.contains(&CONVERT_TO_EXPORT));
    }

    #[test]
    fn fix_0006_unquoted_value() {
        insta::assert_snapshot!(fix("[Event Club_night]\n", false, "PBN0006"));
    }

    #[test]
    fn fix_0201_tag_name_case() {
        insta::assert_snapshot!(fix("[event \"Club\"]\n", false, "PBN0201"));
    }

    #[test]
    fn fix_0202_duplicate_tag() {
        insta::assert_snapshot!(fix(
            "[Event \"x\"]\n[Room \"Open\"]\n[Room \"Open\"]\n[Board \"1\"]\n",
            false,
            "PBN0202"
        ));
    }

    #[test]
    fn fix_0202_duplicate_tag_with_other_value() {
        let text = "[Room \"Open\"] [Room \"Closed\"]\n";
        insta::assert_snapshot!("fix_0202_keep_first", fix_with(text, false, "PBN0202", 0));
        insta::assert_snapshot!("fix_0202_keep_second", fix_with(text, false, "PBN0202", 1));
    }

    #[test]
    fn fix_0205_tags_before_play() {
        insta::assert_snapshot!(fix(&seven_spades(""), false, "PBN0205"));
    }

    #[test]
    fn fix_0302_date() {
        insta::assert_snapshot!(fix("[Date \"2023-7-28\"]\n", false, "PBN0302"));
    }

    #[test]
    fn fix_0311_0313_0316_standard_values() {
        insta::assert_snapshot!("fix_0311", fix("[Dealer \"North\"]\n", false, "PBN0311"));
        insta::assert_snapshot!("fix_0313", fix("[Vulnerable \"N-S\"]\n", false, "PBN0313"));
        insta::assert_snapshot!("fix_0316", fix("[Contract \"3N\"]\n", false, "PBN0316"));
    }

    #[test]
    fn fix_0520_nonstandard_call() {
        let text = "[Dealer \"N\"]\n[Auction \"N\"]\n1N P Pass Pass\n";
        insta::assert_snapshot!("fix_0520_1n", fix(text, false, "PBN0520"));
        let text = "[Dealer \"N\"]\n[Auction \"N\"]\n1NT P Pass Pass\n";
        insta::assert_snapshot!("fix_0520_p", fix(text, false, "PBN0520"));
    }

    #[test]
    fn fix_0620_nonstandard_card() {
        let text = "[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n[Declarer \"W\"]\n[Contract \"1NT\"]\n[Play \"N\"]\n-- - - -\n";
        insta::assert_snapshot!(fix(text, false, "PBN0620"));
    }

    #[test]
    fn fix_0709_missing_note() {
        let text = "[Dealer \"N\"]\n[Auction \"N\"]\n1C =1= 1D =2= Pass Pass\nPass { end }\n[Note \"1:strong\"]\n[Play \"E\"]\n";
        insta::assert_snapshot!(fix(text, false, "PBN0709"));
    }

    #[test]
    fn fix_0901_declarer() {
        let text = seven_spades("[Declarer \"E\"]\n[Contract \"7S\"]\n");
        insta::assert_snapshot!(fix(&text, false, "PBN0901"));
    }

    #[test]
    fn fix_0901_not_preferred_when_the_play_agrees_with_the_tag() {
        // West declares according to the tag, and North (West's left-hand
        // opponent) led: the auction may be the mistake.
        let text = "[Dealer \"N\"]\n[Declarer \"W\"]\n[Contract \"7S\"]\n[Auction \"N\"]\n7S Pass Pass Pass\n[Play \"N\"]\n*\n";
        let snap = snapshot(text, false);
        let d = snap
            .check()
            .diagnostics
            .iter()
            .find(|d| d.code.code == "PBN0901")
            .expect("PBN0901");
        let actions = request(&snap, d.range.clone(), Some(vec![CodeActionKind::QUICKFIX]));
        assert_eq!(
            listing(&actions),
            "- Set Declarer to \"N\" (from the auction) [quickfix] PBN0901\n"
        );
    }

    #[test]
    fn fix_0902_not_preferred_when_the_play_and_result_use_the_tag() {
        let text = seven_spades("[Declarer \"N\"]\n[Contract \"7H\"]\n[Result \"0\"]\n");
        let snap = snapshot(&text, false);
        let d = snap
            .check()
            .diagnostics
            .iter()
            .find(|d| d.code.code == "PBN0902")
            .expect("PBN0902");
        let actions = request(&snap, d.range.clone(), Some(vec![CodeActionKind::QUICKFIX]));
        assert_eq!(
            listing(&actions),
            "- Set Contract to \"7S\" (from the auction) [quickfix] PBN0902\n"
        );
    }

    #[test]
    fn fix_0902_contract() {
        let text = seven_spades("[Declarer \"N\"]\n[Contract \"7H\"]\n");
        insta::assert_snapshot!(fix(&text, false, "PBN0902"));
    }

    #[test]
    fn fix_0902_contract_pass_sets_declarer_too() {
        let text = "[Dealer \"N\"]\n[Declarer \"\"]\n[Contract \"Pass\"]\n[Auction \"N\"]\n1C Pass Pass Pass\n";
        insta::assert_snapshot!(fix(text, false, "PBN0902"));
    }

    #[test]
    fn fix_0903_result_from_play() {
        let text = seven_spades("[Declarer \"N\"]\n[Contract \"7S\"]\n[Result \"12\"]\n");
        insta::assert_snapshot!(fix(&text, false, "PBN0903"));
    }

    #[test]
    fn fix_0904_and_0908_result() {
        let text = seven_spades("[Declarer \"N\"]\n[Contract \"7S\"]\n[Result \"^13\"]\n");
        insta::assert_snapshot!("fix_0904", fix(&text, false, "PBN0904"));
        let text = "[Declarer \"\"]\n[Contract \"Pass\"]\n[Result \"1\"]\n";
        insta::assert_snapshot!("fix_0908", fix(text, false, "PBN0908"));
    }

    #[test]
    fn fix_1001_missing_mandatory_tags_from_auction_and_play() {
        let text = seven_spades("").replace('\n', "\r\n");
        let text = format!("[Event \"Club\"]\r\n[Board \"1\"]\r\n{text}");
        insta::assert_snapshot!(fix(&text, true, "PBN1001"));
    }

    #[test]
    fn fix_1006_upper_case() {
        let value = export_doc(&[("Dealer", Some("n"))], "");
        insta::assert_snapshot!("fix_1006_value", fix(&value, true, "PBN1006"));
        let call = export_doc(
            &[("Dealer", Some("N"))],
            "[Auction \"N\"]\n1c Pass Pass Pass\n",
        );
        insta::assert_snapshot!("fix_1006_bid", fix(&call, true, "PBN1006"));
        let pass = export_doc(
            &[("Dealer", Some("N"))],
            "[Auction \"N\"]\n1C pass Pass Pass\n",
        );
        insta::assert_snapshot!("fix_1006_pass", fix(&pass, true, "PBN1006"));
    }

    #[test]
    fn fix_1007_suffix_to_nag() {
        let text = export_doc(
            &[("Dealer", Some("N"))],
            "[Auction \"N\"]\n1S !! =1= $25 Pass Pass Pass\n[Note \"1:x\"]\n",
        );
        insta::assert_snapshot!(fix(&text, true, "PBN1007"));
    }

    #[test]
    fn fix_1008_annotation_order() {
        let text = export_doc(
            &[("Dealer", Some("N"))],
            "[Auction \"N\"]\n1S $25 =1= $3 Pass Pass Pass\n[Note \"1:x\"]\n",
        );
        insta::assert_snapshot!(fix(&text, true, "PBN1008"));
    }

    #[test]
    fn fix_1012_deal_form() {
        let deal = "W:KQT2.AT.J6542.58 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4";
        let text = export_doc(&[("Dealer", Some("N")), ("Deal", Some(deal))], "");
        insta::assert_snapshot!(fix(&text, true, "PBN1012"));
    }

    #[test]
    fn fix_1013_value_forms() {
        let vul = export_doc(&[("Vulnerable", Some("Both"))], "");
        insta::assert_snapshot!("fix_1013_vulnerable", fix(&vul, true, "PBN1013"));
        let result = export_doc(
            &[("Declarer", Some("E")), ("Result", Some("NS 4 EW 9"))],
            "",
        );
        insta::assert_snapshot!("fix_1013_result", fix(&result, true, "PBN1013"));
    }

    #[test]
    fn fix_1015_duplicate_in_export() {
        let text = export_doc(&[], "[Room \"Open\"]\n[Room \"Open\"]\n");
        insta::assert_snapshot!(fix(&text, true, "PBN1015"));
    }

    #[test]
    fn fix_1001_inserts_next_to_comments_and_shared_lines() {
        let text = "[Event \"x\"] { about the event }\n[Board \"1\"] [Dealer \"N\"]\n[Deal \"?\"] {two\nlines}\n";
        insta::assert_snapshot!(fix(text, true, "PBN1001"));
    }

    #[test]
    fn fix_1003_by_formatting_the_game() {
        let text = export_doc(&[], "[Room  \"Open\"]\n");
        insta::assert_snapshot!(fix(&text, true, "PBN1003"));
    }

    #[test]
    fn convert_game_is_offered_once_where_a_layout_fix_offers_it() {
        let text = export_doc(&[], "[Room  \"Open\"]\n");
        let snap = snapshot(&text, true);
        let at = text.find("[Room").unwrap();
        let titles = |only: Option<Vec<CodeActionKind>>| -> Vec<String> {
            request(&snap, at..at + 1, only)
                .into_iter()
                .filter(|a| a.title == CONVERT_GAME_TITLE)
                .map(|a| a.kind.map(|k| k.as_str().to_string()).unwrap_or_default())
                .collect()
        };
        // Everything asked for: the quick fix only, not also the source action.
        assert_eq!(titles(None), ["quickfix"]);
        // Source actions only: the source action is still there.
        assert_eq!(
            titles(Some(vec![CodeActionKind::SOURCE])),
            ["source.convertGameToExport"]
        );
        // Where no layout rule fires (import format), the source action.
        let import = snapshot(IMPORT, false);
        let at = IMPORT.find("[Board").unwrap();
        let kinds: Vec<_> = request(&import, at..at, None)
            .into_iter()
            .filter(|a| a.title == CONVERT_GAME_TITLE)
            .map(|a| a.kind.unwrap())
            .collect();
        assert_eq!(kinds, [CONVERT_GAME_TO_EXPORT]);
    }

    #[test]
    fn fill_from_auction_refactoring() {
        let text = seven_spades("[Declarer \"?\"]\n[Contract \"?\"]\n");
        let snap = snapshot(&text, false);
        let all = request(&snap, 0..0, Some(vec![CodeActionKind::REFACTOR]));
        // The other rewrite, "Add double-dummy analysis", is tested in
        // `tests/tests/lsp_dd.rs`.
        let actions: Vec<_> = all
            .into_iter()
            .filter(|a| !a.title.contains("double-dummy"))
            .collect();
        assert_eq!(actions.len(), 1, "{}", listing(&actions));
        let edited = apply(&snap, &actions[0]);
        insta::assert_snapshot!(format!("{}---\n{edited}", listing(&actions)));
    }

    const IMPORT: &str = "% import format\n[Event \"Club\"]\n[Board \"1\"]\n[Dealer \"n\"]\n[Vulnerable \"both\"]\n\
        [Deal \"w:KQT2.AT.J6542.58 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4\"]\n\
        [Auction \"W\"]\n- 1d 1s 3h ! =1= 4s\n4nt x pass pass\n5c X 5h X\npass AP\n[Note \"1:weak\"]\n\
        [Room \"Open\"]\n\n[Event \"#\"]\n[Board \"2\"]\n";

    #[test]
    fn source_action_converts_file_to_export() {
        let snap = snapshot(IMPORT, false);
        let actions = request(&snap, 0..0, Some(vec![CodeActionKind::SOURCE]));
        let file = actions
            .iter()
            .find(|a| a.kind == Some(CONVERT_TO_EXPORT))
            .expect("file action");
        let edited = apply(&snap, file);
        // The result is what `pbn fmt` writes, and it passes the export checks
        // (but for its LF line ends).
        let after = snapshot(&edited, true);
        let left: Vec<_> = after
            .check()
            .diagnostics
            .iter()
            .map(|d| d.code.code)
            .filter(|c| *c != "PBN1004")
            .collect();
        assert!(
            !left.iter().any(|c| c.starts_with("PBN10")),
            "{left:?}\n{edited}"
        );
        insta::assert_snapshot!(format!("{}---\n{edited}", listing(&actions)));
    }

    /// fix-all applies what `pbn check --fix` applies (on the corpus, files
    /// that need several rounds: `tests/tests/lsp_actions.rs`).
    #[test]
    fn fix_all_applies_what_check_fix_applies() {
        let text = "[Event \"x\"]\n[Date \"2024-07-12\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1c p\n";
        let snap = snapshot(text, false);
        let actions = request(&snap, 0..0, Some(vec![FIX_ALL]));
        assert_eq!(actions.len(), 1, "{}", listing(&actions));
        let fixed = pbn_core::checker::fix::fix_source(
            &snap.source,
            &pbn_core::checker::CheckOptions {
                export: false,
                fixes: true,
                ungrouped: false,
            },
            false,
        );
        let edited = apply(&snap, &actions[0]);
        assert_eq!(edited, fixed.source.text);
        assert!(edited.contains("[Date \"2024.07.12\"]"), "{edited}");
    }

    /// For a client that resolves edits, the costly actions come without
    /// them, and `codeAction/resolve` computes them.
    #[test]
    fn costly_actions_are_listed_without_edits_and_resolved() {
        let deal = "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n";
        let text = format!("[Event \"x\"]\n[Date \"2024-07-12\"]\n{deal}[Auction \"N\"]\n1H 1S 5C Pass\nPass Pass\n");
        let settings = Settings {
            resolve_edits: true,
            ..Settings::default()
        };
        let snap = Snapshot::new(
            "file:///t.pbn".parse::<Uri>().unwrap(),
            3,
            text.clone(),
            settings,
        );
        let actions = request(&snap, 0..0, None);
        let lazy: Vec<_> = actions.iter().filter(|a| a.data.is_some()).collect();
        let titles: Vec<_> = lazy.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(
            titles,
            [DD_TITLE, FIX_ALL_TITLE, CONVERT_FILE_TITLE],
            "{}",
            listing(&actions)
        );
        let resolved: Vec<CodeAction> = lazy
            .iter()
            .map(|a| resolve(&snap, (*a).clone()).unwrap())
            .collect();
        // The double-dummy tags in export order: before the auction.
        let dd = apply(&snap, &resolved[0]);
        assert!(dd.contains(".7\"]\n[DoubleDummyTricks \"63b3c63b3c492a0492a0\"]\n[OptimumScore \"NS 300\"]\n[ParContract \"EW 6DX-2\"]\n[Auction"), "{dd}");
        assert!(dd.contains("Pass Pass\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT  6\n"), "{dd}");
        assert!(dd.ends_with("W  C  0\n"), "{dd}");
        assert!(apply(&snap, &resolved[1]).contains("2024.07.12"));
        assert!(apply(&snap, &resolved[2]).contains("[Date \"2024.07.12\"]"));
        // Another version: the client must list again.
        let newer = Snapshot::new("file:///t.pbn".parse::<Uri>().unwrap(), 4, text, settings);
        assert!(resolve(&newer, lazy[1].clone()).is_err());
    }

    /// For a client that does not resolve edits, the same actions carry a
    /// command that computes the edit when picked; a request naming the
    /// kind (a save hook) gets the edit itself.
    #[test]
    fn costly_actions_carry_a_command_without_resolve() {
        let text = "[Event \"x\"]\n[Date \"2024-07-12\"]\n[Dealer \"N\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n";
        let snap = snapshot(text, false);
        let actions = request(&snap, 0..0, None);
        let deferred: Vec<_> = actions
            .iter()
            .filter(|a| {
                a.command
                    .as_ref()
                    .is_some_and(|c| c.command == APPLY_COMMAND)
            })
            .collect();
        let titles: Vec<_> = deferred.iter().map(|a| a.title.as_str()).collect();
        assert_eq!(
            titles,
            [DD_TITLE, FIX_ALL_TITLE, CONVERT_FILE_TITLE],
            "{}",
            listing(&actions)
        );
        assert!(deferred
            .iter()
            .all(|a| a.edit.is_none() && a.data.is_none()));
        assert!(apply(&snap, deferred[1]).contains("2024.07.12"));
        for kind in [FIX_ALL, CodeActionKind::new("source.fixAll")] {
            let named = request(&snap, 0..0, Some(vec![kind]));
            assert_eq!(named.len(), 1, "{}", listing(&named));
            assert!(named[0].edit.is_some() && named[0].command.is_none());
        }
        // Another version: the client must list again.
        let newer = Snapshot::new(snap.uri.clone(), 2, text.into(), Settings::default());
        let params = execute_params(deferred[1].command.as_ref().unwrap());
        assert!(apply_command(&newer, &params).is_err());
    }

    #[test]
    fn source_action_converts_one_game_keeping_inheritance() {
        let text = "[Event \"##Club\"]\n[Board \"1\"]\n\n[Board  \"2\"]\n[Site \"x\"]\n";
        let snap = snapshot(text, false);
        let second = text.find("[Board  \"2\"]").unwrap();
        let actions = request(&snap, second..second, Some(vec![CONVERT_GAME_TO_EXPORT]));
        assert_eq!(actions.len(), 1, "{}", listing(&actions));
        let edited = apply(&snap, &actions[0]);
        // Event comes from the first game (`##`), so it is not added as "?".
        assert!(!edited[second..].contains("[Event"), "{edited}");
        insta::assert_snapshot!(format!("{}---\n{edited}", listing(&actions)));
    }

    #[test]
    fn only_and_automatic_trigger_filter_actions() {
        let snap = snapshot(IMPORT, true);
        let quick = request(&snap, 0..IMPORT.len(), Some(vec![CodeActionKind::QUICKFIX]));
        assert!(quick
            .iter()
            .all(|a| a.kind == Some(CodeActionKind::QUICKFIX)));
        assert!(!quick.is_empty());
        let mut params = CodeActionParams {
            text_document: TextDocumentIdentifier {
                uri: snap.uri.clone(),
            },
            range: tower_lsp_server::ls_types::Range::default(),
            context: CodeActionContext {
                diagnostics: Vec::new(),
                only: None,
                trigger_kind: Some(CodeActionTriggerKind::AUTOMATIC),
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let auto = code_action(&snap, params.clone()).unwrap();
        assert!(auto.iter().all(|a| !matches!(a, CodeActionOrCommand::CodeAction(a) if a.kind.as_ref().is_some_and(|k| k.as_str().starts_with("source")))));
        params.context.trigger_kind = Some(CodeActionTriggerKind::INVOKED);
        let invoked = code_action(&snap, params).unwrap();
        assert!(invoked.len() > auto.len());
    }
}
