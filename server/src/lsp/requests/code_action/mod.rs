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
mod tests;
