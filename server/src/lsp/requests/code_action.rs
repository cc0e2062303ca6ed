//! `textDocument/codeAction`: quick fixes for the diagnostics whose fix is
//! unambiguous, a rewrite that fills Declarer/Contract/Result from the
//! auction and play, and two source actions that run the export formatter
//! (`pbn fmt`) on the whole file or on one game.
//!
//! Quick fixes are computed from the snapshot's own diagnostics
//! ([`Snapshot::check`]) that touch the requested range, or that equal one
//! of the client's `context.diagnostics` (same code and range); each action
//! names the diagnostics it resolves. Every fix edits the smallest piece of
//! text it can (a token, a tag value, one tag line) and leaves valid PBN:
//!
//! | code              | fix                                                            |
//! |-------------------|----------------------------------------------------------------|
//! | PBN0201           | the known tag name in its case (`event` → `Event`)             |
//! | PBN0202, PBN1015  | remove the repeated tag pair (or keep its value: remove the first) |
//! | PBN0205           | add Deal/Declarer/Contract before the play (from the auction, else `?`) |
//! | PBN0302           | the date as `YYYY.MM.DD`                                       |
//! | PBN0311, PBN0313, PBN0316 | the value as the spec writes it (`North` → `N`, `N-S` → `NS`, `3N` → `3NT`) |
//! | PBN0006           | quote the bare tag value                                       |
//! | PBN0520, PBN0620  | the call or card as read (`1N` → `1NT`, `P` → `Pass`, `--` → `-`) |
//! | PBN0709           | add `[Note "n:"]` at the end of the section                    |
//! | PBN0901, PBN0902  | Declarer / Contract from the auction                            |
//! | PBN0903           | Result = declarer's tricks in the play; or mark it `^`         |
//! | PBN0904           | remove the `^` of the Result                                   |
//! | PBN0908           | empty Result when all passed                                   |
//! | PBN1001           | add the missing mandatory tags in export order, `?` unless the auction/play give the value |
//! | PBN1006           | upper case (`Pass`, `X`, `XX`, `AP` for calls)                 |
//! | PBN1007, PBN1008  | the annotations of the call/card in export order: note reference, then NAGs ascending, suffixes as NAGs |
//! | PBN1012           | the Deal from the dealer, ranks descending                     |
//! | PBN1013           | Vulnerable `None`/`NS`/`EW`/`All`; Result as declarer's tricks |
//! | PBN1002, PBN1003, PBN1009, PBN1010, PBN1011 | format the game (the export formatter) |
//!
//! Rewrites: Declarer/Contract/Result from the auction and play; "Add
//! double-dummy analysis" (the game's double-dummy tags from the solver,
//! as `pbn dd --overwrite`).
//!
//! Source actions: `source.convertToExport` replaces the whole file with the
//! formatter's output; `source.convertGameToExport` replaces one game (the
//! one at the start of the range). They are not computed for automatic
//! requests that do not ask for source actions (the lightbulb of VS Code
//! never shows them).

use crate::lsp::snapshot::Snapshot;
use pbn_core::bridge::{self, FinalContract, Seat, Strain};
use pbn_core::diagnostic::Diagnostic as Diag;
use pbn_core::format::{format, EolOption, FormatOptions};
use pbn_core::model::values::{self, ContractValue};
use pbn_core::model::{
    typed, Annotation, AnnotationKind, CallToken, CardToken, Game, Inherit, Tag, TagRole,
};
use pbn_core::rules::tags::{MANDATORY, MISC_AND_TABLES, SECTION_TAGS, SUPPLEMENTAL};
use pbn_core::spec::sections::Section;
use pbn_core::text::{LineEnding, SourceText};
use std::collections::HashMap;
use std::ops::Range;
use tower_lsp_server::ls_types::*;

/// Replace the whole file with its export-format form.
pub const CONVERT_TO_EXPORT: CodeActionKind = CodeActionKind::new("source.convertToExport");
/// Replace one game with its export-format form.
pub const CONVERT_GAME_TO_EXPORT: CodeActionKind =
    CodeActionKind::new("source.convertGameToExport");

pub fn register(caps: &mut ServerCapabilities) {
    caps.code_action_provider = Some(CodeActionProviderCapability::Options(CodeActionOptions {
        code_action_kinds: Some(vec![
            CodeActionKind::QUICKFIX,
            CodeActionKind::REFACTOR_REWRITE,
            CodeActionKind::SOURCE,
            CONVERT_TO_EXPORT,
            CONVERT_GAME_TO_EXPORT,
        ]),
        work_done_progress_options: WorkDoneProgressOptions::default(),
        resolve_provider: None,
    }));
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
    if wants(&CodeActionKind::REFACTOR_REWRITE) {
        if let Some(fix) = game.and_then(|g| fill_from_auction(snap, g)) {
            out.push(action(snap, fix, CodeActionKind::REFACTOR_REWRITE, None));
        }
        if let Some(fix) = game.and_then(|g| add_dd(snap, g, !automatic)) {
            out.push(action(snap, fix, CodeActionKind::REFACTOR_REWRITE, None));
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
            if let Some(fix) = convert_file(snap) {
                out.push(action(snap, fix, CONVERT_TO_EXPORT, None));
            }
        }
    }
    Some(out)
}

fn action(
    snap: &Snapshot,
    fix: Fix,
    kind: CodeActionKind,
    diagnostics: Option<Vec<Diagnostic>>,
) -> CodeActionOrCommand {
    let conv = snap.converter();
    let edits = fix
        .edits
        .into_iter()
        .map(|(r, new_text)| TextEdit {
            range: conv.range(r),
            new_text,
        })
        .collect();
    CodeActionOrCommand::CodeAction(CodeAction {
        title: fix.title,
        kind: Some(kind),
        diagnostics,
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(snap.uri.clone(), edits)])),
            ..Default::default()
        }),
        is_preferred: fix.preferred.then_some(true),
        ..Default::default()
    })
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
    let mut published: Option<Vec<Diagnostic>> = None;
    // (fix, the LSP diagnostics it resolves), in diagnostic order.
    let mut found: Vec<(Fix, Vec<Diagnostic>)> = Vec::new();
    // The formatted games (layout fixes), computed once per game; only for
    // a range inside one game (a whole-file request would format every game
    // for nothing: the source action does that once).
    let mut formatted: HashMap<usize, Option<Fix>> = HashMap::new();
    let single_game = snap
        .game_at(range.start)
        .is_some_and(|g| range.end <= g.range.end);
    for (i, d) in diags.iter().enumerate() {
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
            None => published
                .get_or_insert_with(|| crate::lsp::notifications::diagnostics::to_lsp(snap))[i]
                .clone(),
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

/// The fixes of one diagnostic, the preferred one first.
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
        return Vec::new();
    };
    let text = snap.source.text.as_str();
    let r = d.range.clone();
    let one = |f: Option<Fix>| f.into_iter().collect::<Vec<_>>();
    match d.code.code {
        "PBN0006" => one(quote_value(g, &r)),
        "PBN0201" => one(tag_name_case(g, &r)),
        "PBN0202" | "PBN1015" => remove_duplicate(text, g, &r),
        "PBN0205" => one(add_play_tags(snap, g)),
        "PBN0302" => one(values::parse_date(&text[r.clone()]).value.map(|date| {
            Fix::new(
                format!("Write the date as `{}`", date.canonical),
                vec![(r.clone(), date.canonical)],
                true,
            )
        })),
        "PBN0311" | "PBN0313" | "PBN0316" => one(standard_value(g, &r)),
        "PBN0520" => one(nonstandard_call(text, g, &r)),
        "PBN0620" => one(nonstandard_card(text, g, &r)),
        "PBN0709" => one(add_note(text, g, &r)),
        "PBN0901" => one(fix_declarer(snap, g)),
        "PBN0902" => one(fix_contract(snap, g)),
        "PBN0903" => fix_result(snap, g),
        "PBN0904" => one(remove_result_caret(g)),
        "PBN0908" => one(tag_of(g, "Result")
            .and_then(|t| set_value(t, ""))
            .map(|e| Fix::new("Empty the Result: all players passed", vec![e], true))),
        "PBN1001" => one(add_mandatory(snap, g)),
        "PBN1006" => one(upper_case(text, g, &r)),
        "PBN1007" | "PBN1008" => one(annotation_order(text, g, &r, d.code.code == "PBN1007")),
        "PBN1012" => one(deal_export_form(g, &r)),
        "PBN1013" => one(value_export_form(g, &r)),
        "PBN1002" | "PBN1003" | "PBN1009" | "PBN1010" | "PBN1011" if layout => one(formatted
            .entry(g.index)
            .or_insert_with(|| convert_game(snap, g, CONVERT_GAME_TITLE))
            .clone()),
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------------------
// Text helpers.

/// The line ending to use in inserted lines: the document's first.
fn eol(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(i) if text[i..].starts_with("\r\n") => "\r\n",
        Some(i) if text.as_bytes()[i] == b'\r' => "\r",
        _ => "\n",
    }
}

/// Offset of the line break ending the line of `offset` (or the text end).
fn line_end(text: &str, offset: usize) -> usize {
    text[offset..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| offset + i)
}

fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1)
}

/// The start of the next line after the line of `offset`.
fn next_line_start(text: &str, offset: usize) -> usize {
    let e = line_end(text, offset);
    if text[e..].starts_with("\r\n") {
        e + 2
    } else if e < text.len() {
        e + 1
    } else {
        e
    }
}

fn is_blank(s: &str) -> bool {
    s.chars().all(|c| c == ' ' || c == '\t')
}

/// Where to insert new lines after the item ending at `end`: the end of its
/// line when only white space or comments that end on the line follow it,
/// else right after the item (what followed moves to the new line).
fn after_point(text: &str, g: &Game, end: usize) -> usize {
    let le = line_end(text, end);
    let mut p = end;
    loop {
        let rest = &text[p..le];
        let skip = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        p += skip;
        if p >= le {
            return le;
        }
        match g
            .comments
            .iter()
            .find(|c| c.range.start == p && c.range.end <= le)
        {
            Some(c) => p = c.range.end,
            None => return end,
        }
    }
}

fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]", pbn_core::model::escape(value))
}

// ---------------------------------------------------------------------------
// Tags.

/// The first tag named `name` (the one that counts, §3.4).
fn tag_of<'g>(g: &'g Game, name: &str) -> Option<&'g Tag> {
    g.tag(name)
}

/// The tag whose value contains `r`.
fn tag_at_value<'g>(g: &'g Game, r: &Range<usize>) -> Option<&'g Tag> {
    g.tags.iter().find(|t| {
        t.value
            .as_ref()
            .is_some_and(|v| v.range.start <= r.start && r.end <= v.range.end)
    })
}

/// The edit that makes `new` the value of `tag`.
fn set_value(tag: &Tag, new: &str) -> Option<(Range<usize>, String)> {
    match &tag.value {
        Some(v) if v.quoted && v.terminated => {
            Some((v.range.clone(), pbn_core::model::escape(new)))
        }
        Some(v) if !v.quoted => Some((
            v.range.clone(),
            format!("\"{}\"", pbn_core::model::escape(new)),
        )),
        Some(_) => None,
        None => Some((
            tag.name_range.end..tag.name_range.end,
            format!(" \"{}\"", pbn_core::model::escape(new)),
        )),
    }
}

fn set_value_fix(tag: &Tag, new: &str, title: String, preferred: bool) -> Option<Fix> {
    let raw = tag.value.as_ref().map(|v| v.raw.as_str());
    if raw == Some(new) {
        return None;
    }
    Some(Fix::new(title, vec![set_value(tag, new)?], preferred))
}

fn quote_value(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r)?;
    let v = tag.value.as_ref().filter(|v| !v.quoted)?;
    Some(Fix::new(
        format!("Quote the value: \"{}\"", v.raw),
        vec![set_value(tag, &v.raw)?],
        true,
    ))
}

fn tag_name_case(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = g.tags.iter().find(|t| t.name_range == *r)?;
    let known = MANDATORY
        .iter()
        .chain(&SECTION_TAGS)
        .chain(&SUPPLEMENTAL)
        .chain(&MISC_AND_TABLES)
        .find(|k| k.eq_ignore_ascii_case(&tag.name))?;
    Some(Fix::new(
        format!("Rename the tag to `{known}`"),
        vec![(r.clone(), (*known).to_owned())],
        true,
    ))
}

/// The edit that deletes a tag pair: its whole line when it is alone on
/// it, else the tag and the blanks before it.
fn delete_tag(text: &str, tag: &Tag) -> (Range<usize>, String) {
    let ls = line_start(text, tag.range.start);
    let le = line_end(text, tag.range.end);
    let before_blank = is_blank(&text[ls..tag.range.start]);
    let after_blank = is_blank(&text[tag.range.end..le]);
    if before_blank && after_blank {
        return (ls..next_line_start(text, tag.range.end), String::new());
    }
    let start = tag.range.start
        - (text[ls..tag.range.start].len()
            - text[ls..tag.range.start]
                .trim_end_matches([' ', '\t'])
                .len());
    if after_blank {
        (start..le, String::new())
    } else {
        let rest = &text[tag.range.end..le];
        let trailing = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        (tag.range.start..tag.range.end + trailing, String::new())
    }
}

fn remove_duplicate(text: &str, g: &Game, r: &Range<usize>) -> Vec<Fix> {
    let Some(i) = g.tags.iter().position(|t| t.range == *r) else {
        return Vec::new();
    };
    let tag = &g.tags[i];
    if tag.role != TagRole::Plain {
        return Vec::new(); // a second section: which one to keep is not clear
    }
    let Some(first) = g.tags[..i].iter().find(|t| t.name == tag.name) else {
        return Vec::new();
    };
    let value = |t: &Tag| t.value.as_ref().map(|v| v.text.clone()).unwrap_or_default();
    if value(first) == value(tag) {
        return vec![Fix::new(
            format!("Remove the repeated `{}` tag", tag.name),
            vec![delete_tag(text, tag)],
            true,
        )];
    }
    let mut out = vec![Fix::new(
        format!(
            "Remove the repeated `{}` tag (keep {:?})",
            tag.name,
            value(first)
        ),
        vec![delete_tag(text, tag)],
        false,
    )];
    if first.role == TagRole::Plain {
        out.push(Fix::new(
            format!(
                "Keep {:?} (remove the first `{}` tag)",
                value(tag),
                tag.name
            ),
            vec![delete_tag(text, first)],
            false,
        ));
    }
    out
}

/// PBN0311, PBN0313, PBN0316: the value as the spec writes it.
fn standard_value(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r)?;
    let v = tag.value.as_ref()?;
    if tag.inherit != Inherit::None {
        return None;
    }
    let new = match tag.name.as_str() {
        "Dealer" => values::parse_dealer(&v.raw)
            .value
            .map(|s| s.seat.letter().to_string()),
        "Auction" => values::parse_auction_seat(&v.raw)
            .value
            .map(|s| s.seat.letter().to_string()),
        "Play" => values::parse_play_seat(&v.raw)
            .value
            .map(|s| s.seat.letter().to_string()),
        "Declarer" => values::parse_declarer(&v.raw).value.and_then(|d| {
            d.seat
                .map(|s| format!("{}{}", if d.swapped { "^" } else { "" }, s.letter()))
        }),
        "Vulnerable" => values::parse_vulnerable(&v.raw)
            .value
            .map(|x| x.canonical_export().to_owned()),
        "Contract" => values::parse_contract(&v.raw)
            .value
            .map(|c| c.export_form()),
        _ => None,
    }?;
    set_value_fix(tag, &new, format!("Write `{}` as \"{new}\"", v.raw), true)
}

// ---------------------------------------------------------------------------
// Calls, cards and annotations.

fn nonstandard_call(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let e = g.auction.as_ref()?.entries.iter().find(|e| e.range == *r)?;
    let t = &text[e.range.clone()];
    let (_, as_text) = typed::interpret_call(t)?;
    Some(Fix::new(
        format!("Replace `{t}` with `{as_text}`"),
        vec![(r.clone(), as_text)],
        true,
    ))
}

fn nonstandard_card(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let e = g.play.as_ref()?.entries.iter().find(|e| e.range == *r)?;
    let t = &text[e.range.clone()];
    let (_, as_text) = typed::interpret_card(t)?;
    Some(Fix::new(
        format!("Replace `{t}` with `{as_text}`"),
        vec![(r.clone(), as_text)],
        true,
    ))
}

/// PBN1006: a tag value, call or card in upper case.
fn upper_case(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let (old, new) = if let Some(tag) = tag_at_value(g, r) {
        let raw = &tag.value.as_ref()?.raw;
        let new = if tag.name == "Contract" && raw.trim().eq_ignore_ascii_case("pass") {
            raw.replace(raw.trim(), "Pass")
        } else {
            raw.to_ascii_uppercase()
        };
        return set_value_fix(tag, &new, format!("Write \"{new}\" in upper case"), true);
    } else if let Some(e) = g
        .auction
        .as_ref()
        .and_then(|a| a.entries.iter().find(|e| e.range == *r))
    {
        let t = &text[r.clone()];
        if e.token == CallToken::Invalid {
            return None;
        }
        (t, e.token.canonical(t)?.to_owned())
    } else if let Some(e) = g
        .play
        .as_ref()
        .and_then(|p| p.entries.iter().find(|e| e.range == *r))
    {
        if !matches!(e.token, CardToken::Card(_)) {
            return None;
        }
        let t = &text[r.clone()];
        (t, t.to_ascii_uppercase())
    } else {
        return None;
    };
    (old != new).then(|| {
        Fix::new(
            format!("Replace `{old}` with `{new}`"),
            vec![(r.clone(), new)],
            true,
        )
    })
}

/// The annotations after a call or card that holds the annotation `r`:
/// whether it is in the play section, and the annotations.
fn annotations_at<'g>(g: &'g Game, r: &Range<usize>) -> Option<(bool, &'g [Annotation])> {
    let has = |post: &[Annotation]| post.iter().any(|a| a.range == *r);
    if let Some(e) = g
        .auction
        .as_ref()
        .and_then(|a| a.entries.iter().find(|e| has(e.post())))
    {
        return Some((false, e.post()));
    }
    g.play
        .as_ref()
        .and_then(|p| p.entries.iter().find(|e| has(e.post())))
        .map(|e| (true, e.post()))
}

/// PBN1007/PBN1008: the note reference, then the NAGs in increasing order,
/// suffixes written as their NAG (§3.5.2, §3.7).
fn annotation_order(text: &str, g: &Game, r: &Range<usize>, suffix: bool) -> Option<Fix> {
    let (play, post) = annotations_at(g, r)?;
    let sec = if play {
        Section::Play
    } else {
        Section::Auction
    };
    let nag_of = |s: u8| sec.suffix_nag(s);
    let title = if suffix {
        let a = post.iter().find(|a| a.range == *r)?;
        let AnnotationKind::Suffix(s) = a.kind else {
            return None;
        };
        format!("Replace `{}` with `${}`", &text[r.clone()], nag_of(s))
    } else {
        "Put the note reference first and the NAGs in increasing order".to_owned()
    };
    let contiguous = post
        .windows(2)
        .all(|w| is_blank(&text[w[0].range.end..w[1].range.start]));
    if !contiguous {
        // Comments between the annotations: only the suffix can be replaced.
        let a = post.iter().find(|a| a.range == *r)?;
        let AnnotationKind::Suffix(s) = a.kind else {
            return None;
        };
        return Some(Fix::new(
            title,
            vec![(r.clone(), format!("${}", nag_of(s)))],
            true,
        ));
    }
    let (mut refs, mut nags, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for a in post {
        match a.kind {
            AnnotationKind::NoteRef(_) => refs.push(text[a.range.clone()].to_owned()),
            AnnotationKind::Suffix(s) => nags.push(nag_of(s)),
            AnnotationKind::Nag(Some(n)) => nags.push(n),
            _ => rest.push(text[a.range.clone()].to_owned()),
        }
    }
    nags.sort_unstable();
    nags.dedup();
    let parts: Vec<String> = refs
        .into_iter()
        .chain(nags.iter().map(|n| format!("${n}")))
        .chain(rest)
        .collect();
    let span = post.first()?.range.start..post.last()?.range.end;
    Some(Fix::new(title, vec![(span, parts.join(" "))], true))
}

/// PBN0709: `[Note "n:"]` at the end of the section of the reference.
fn add_note(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let (play, post) = annotations_at(g, r)?;
    let a = post.iter().find(|a| a.range == *r)?;
    let AnnotationKind::NoteRef(Some(n)) = a.kind else {
        return None;
    };
    let (notes, end) = if play {
        let p = g.play.as_ref()?;
        (&p.notes, p.range.end)
    } else {
        let a = g.auction.as_ref()?;
        (&a.notes, a.range.end)
    };
    let end = notes
        .last()
        .map(|&i| g.tags[i].range.end)
        .unwrap_or(end)
        .max(end);
    let at = after_point(text, g, end);
    let line = format!("{}[Note \"{n}:\"]", eol(text));
    Some(Fix::new(
        format!(
            "Add `[Note \"{n}:\"]` at the end of the {} section",
            if play { "play" } else { "auction" }
        ),
        vec![(at..at, line)],
        false,
    ))
}

// ---------------------------------------------------------------------------
// Declarer, Contract and Result from the auction and the play.

/// What the auction and the play say about Contract, Declarer and Result.
#[derive(Debug, Default)]
struct Facts {
    outcome: Option<FinalContract>,
    /// The Result as declarer's tricks, when the play decides it.
    result: Option<String>,
}

fn seat_of(v: Option<&str>, parse: fn(&str) -> values::Parsed<values::SeatTag>) -> Option<Seat> {
    v.and_then(|v| parse(v).value).map(|s| s.seat)
}

fn auction_outcome(text: &str, g: &Game) -> Option<FinalContract> {
    let a = g.auction.as_ref()?;
    let tag = g.tags.get(a.tag).filter(|t| t.inherit == Inherit::None)?;
    let first = seat_of(tag.effective(), values::parse_auction_seat)?;
    let dealer = seat_of(g.value("Dealer"), values::parse_dealer);
    let (items, _) = typed::auction_items(text, a);
    bridge::analyze_auction(dealer, first, &items).contract
}

/// Declarer's tricks when the play decides them: all tricks played (or a
/// claim whose outcome is forced), `declarer` playing in `strain`.
fn play_tricks(text: &str, g: &Game, strain: Option<Strain>, declarer: Seat) -> Option<u8> {
    let p = g.play.as_ref()?;
    let tag = g.tags.get(p.tag).filter(|t| t.inherit == Inherit::None)?;
    let first = seat_of(tag.effective(), values::parse_play_seat)?;
    let hands = g
        .value("Deal")
        .and_then(|v| values::parse_deal(v).value)
        .map(|d| d.hands)
        .unwrap_or([None; 4]);
    let (items, _) = typed::play_items(text, p);
    let a = bridge::analyze_play(
        &hands,
        strain.and_then(Strain::suit),
        Some(declarer),
        first,
        &items,
    );
    if !a.complete || a.end_position {
        return None;
    }
    let (lo, hi) = a.final_bounds(declarer);
    (lo == hi).then_some(lo)
}

fn facts(text: &str, g: &Game) -> Facts {
    let outcome = auction_outcome(text, g);
    let tag_contract = g
        .value("Contract")
        .and_then(|v| values::parse_contract(v).value)
        .map(|c| c.value);
    let tag_declarer = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value);
    let passed = matches!(outcome, Some(FinalContract::PassedOut))
        || (outcome.is_none() && matches!(tag_contract, Some(ContractValue::Pass)));
    let result = if passed {
        Some(String::new())
    } else {
        let (strain, declarer) = match outcome {
            Some(FinalContract::Contract { contract, declarer }) => {
                // The Declarer tag may name the irregular declarer (`^`).
                let playing = tag_declarer
                    .and_then(|d| d.seat)
                    .filter(|s| bridge::same_side(*s, declarer));
                (Some(contract.bid.strain), Some(playing.unwrap_or(declarer)))
            }
            _ => {
                let strain = match tag_contract {
                    Some(ContractValue::Contract(c)) => Some(c.bid.strain),
                    Some(ContractValue::EndPosition(s)) => Some(s),
                    _ => None,
                };
                (strain, tag_declarer.and_then(|d| d.seat))
            }
        };
        match (strain, declarer) {
            (Some(s), Some(d)) => play_tricks(text, g, Some(s), d).map(|n| n.to_string()),
            _ => None,
        }
    };
    Facts { outcome, result }
}

fn contract_value(outcome: FinalContract) -> String {
    match outcome {
        FinalContract::PassedOut => "Pass".into(),
        FinalContract::Contract { contract, .. } => bridge::contract_text(contract),
    }
}

/// The Declarer value of the auction's outcome, keeping the `^` form when
/// the tag uses it.
fn declarer_value(outcome: FinalContract, g: &Game) -> String {
    match outcome {
        FinalContract::PassedOut => String::new(),
        FinalContract::Contract { declarer, .. } => {
            let swapped = g
                .value("Declarer")
                .and_then(|v| values::parse_declarer(v).value)
                .is_some_and(|d| d.swapped);
            if swapped {
                format!("^{}", declarer.partner().letter())
            } else {
                declarer.letter().to_string()
            }
        }
    }
}

/// The play section was led by the left-hand opponent of the Declarer tag's
/// seat but not of `new` (a seat that plays the hand): the Declarer tag
/// agrees with the play, and the auction may be what is wrong.
fn play_supports_tag(g: &Game, new: Option<Seat>) -> bool {
    let Some(p) = &g.play else { return false };
    let leader = g
        .tags
        .get(p.tag)
        .and_then(|t| seat_of(t.effective(), values::parse_play_seat));
    let current = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value)
        .and_then(|d| d.seat);
    match (leader, current) {
        (Some(l), Some(c)) => l == c.lho() && new.is_none_or(|n| l != n.lho()),
        _ => false,
    }
}

fn fix_declarer(snap: &Snapshot, g: &Game) -> Option<Fix> {
    let outcome = auction_outcome(&snap.source.text, g)?;
    let tag = tag_of(g, "Declarer")?;
    let new = declarer_value(outcome, g);
    let new_seat = values::parse_declarer(&new).value.and_then(|d| d.seat);
    let preferred = !play_supports_tag(g, new_seat);
    set_value_fix(
        tag,
        &new,
        format!("Set Declarer to \"{new}\" (from the auction)"),
        preferred,
    )
}

fn fix_contract(snap: &Snapshot, g: &Game) -> Option<Fix> {
    let outcome = auction_outcome(&snap.source.text, g)?;
    let tag = tag_of(g, "Contract")?;
    let new = contract_value(outcome);
    // With a play section and a Result, another denomination changes who
    // won the tricks: the Contract tag may be right and the auction wrong.
    let strain = |v: Option<&str>| match v
        .and_then(|v| values::parse_contract(v).value)
        .map(|c| c.value)
    {
        Some(ContractValue::Contract(c)) => Some(c.bid.strain),
        _ => None,
    };
    let has_result = g
        .value("Result")
        .and_then(|v| values::parse_result(v).value)
        .is_some_and(|r| r.tricks.is_some());
    let preferred =
        g.play.is_none() || !has_result || strain(g.value("Contract")) == strain(Some(&new));
    let mut fix = set_value_fix(
        tag,
        &new,
        format!("Set Contract to \"{new}\" (from the auction)"),
        preferred,
    )?;
    // The Declarer goes with the contract (a Contract "Pass" hides its
    // mismatch).
    if let Some(d) = tag_of(g, "Declarer").filter(|t| t.inherit == Inherit::None) {
        let dv = declarer_value(outcome, g);
        if d.value.as_ref().map(|v| v.raw.as_str()) != Some(dv.as_str())
            && d.effective().map(str::trim) != Some("?")
        {
            fix.edits.push(set_value(d, &dv)?);
            let dv_seat = values::parse_declarer(&dv).value.and_then(|x| x.seat);
            fix.preferred &= !play_supports_tag(g, dv_seat);
            fix.title =
                format!("Set Contract to \"{new}\" and Declarer to \"{dv}\" (from the auction)");
        }
    }
    Some(fix)
}

fn fix_result(snap: &Snapshot, g: &Game) -> Vec<Fix> {
    let Some(tag) = tag_of(g, "Result") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(n) = facts(&snap.source.text, g).result.filter(|n| !n.is_empty()) {
        out.extend(set_value_fix(
            tag,
            &n,
            format!("Set Result to \"{n}\" (tricks won by declarer in the play)"),
            true,
        ));
    }
    if let Some(v) = tag.value.as_ref().filter(|v| v.quoted && v.terminated) {
        let lead = v.raw.len() - v.raw.trim_start().len();
        if !v.raw.trim_start().starts_with('^') {
            let at = v.range.start + lead;
            out.push(Fix::new(
                "Mark the Result with `^` (the players agreed on a different number)",
                vec![(at..at, "^".into())],
                false,
            ));
        }
    }
    out
}

fn remove_result_caret(g: &Game) -> Option<Fix> {
    let v = tag_of(g, "Result")?.value.as_ref()?;
    let i = v.raw.find('^')?;
    let at = v.range.start + i;
    Some(Fix::new(
        "Remove the `^`: the Result equals the tricks won",
        vec![(at..at + 1, String::new())],
        true,
    ))
}

/// Insertions of new tag lines at their export-order place (§3.4): after
/// the nearest mandatory tag before them in that order that precedes the
/// sections, else before the first tag of the game.
fn insert_tags(text: &str, g: &Game, new: &[(&str, String)]) -> Vec<(Range<usize>, String)> {
    let nl = eol(text);
    let limit = g
        .tags
        .iter()
        .filter(|t| t.role != TagRole::Plain)
        .map(|t| t.range.start)
        .min()
        .unwrap_or(usize::MAX);
    let order = |name: &str| {
        MANDATORY
            .iter()
            .position(|m| *m == name)
            .unwrap_or(MANDATORY.len())
    };
    // (offset, after an existing tag) → (export position, line)
    type Lines = Vec<(usize, String)>;
    let mut at: Vec<((usize, bool), Lines)> = Vec::new();
    for (name, value) in new {
        let i = order(name);
        let anchor = g
            .tags
            .iter()
            .filter(|t| t.role == TagRole::Plain && t.range.end <= limit && order(&t.name) < i)
            .max_by_key(|t| (order(&t.name), std::cmp::Reverse(t.range.start)));
        let key = match anchor {
            Some(t) => (after_point(text, g, t.range.end), true),
            None => match g.tags.first() {
                Some(t) => (t.range.start, false),
                None => continue,
            },
        };
        let line = tag_line(name, value);
        match at.iter_mut().find(|(k, _)| *k == key) {
            Some((_, lines)) => lines.push((i, line)),
            None => at.push((key, vec![(i, line)])),
        }
    }
    at.into_iter()
        .map(|((p, after), mut lines)| {
            lines.sort_by_key(|(i, _)| *i);
            let mut s = String::new();
            for (_, l) in lines {
                if after {
                    s.push_str(nl);
                    s.push_str(&l);
                } else {
                    s.push_str(&l);
                    s.push_str(nl);
                }
            }
            (p..p, s)
        })
        .collect()
}

/// The value to write for a mandatory tag that is missing.
fn missing_value(name: &str, f: &Facts, g: &Game) -> (String, bool) {
    let passed =
        matches!(f.outcome, Some(FinalContract::PassedOut)) || pbn_core::model::contract_is_pass(g);
    let known = match (name, f.outcome) {
        ("Contract", Some(o)) => Some(contract_value(o)),
        ("Declarer", Some(o)) => Some(declarer_value(o, g)),
        ("Declarer", None) if passed => Some(String::new()),
        ("Result", _) => f.result.clone(),
        _ => None,
    };
    match known {
        Some(v) => (v, true),
        None => ("?".into(), false),
    }
}

fn add_mandatory(snap: &Snapshot, g: &Game) -> Option<Fix> {
    let missing: Vec<&str> = MANDATORY
        .iter()
        .copied()
        .filter(|n| g.tag(n).is_none() && g.value(n).is_none())
        .collect();
    if missing.is_empty() {
        return None;
    }
    let f = facts(&snap.source.text, g);
    let new: Vec<(&str, String)> = missing
        .iter()
        .map(|n| (*n, missing_value(n, &f, g).0))
        .collect();
    let edits = insert_tags(&snap.source.text, g, &new);
    (!edits.is_empty()).then(|| {
        Fix::new(
            format!("Add the missing mandatory tags ({})", missing.join(", ")),
            edits,
            true,
        )
    })
}

/// PBN0205: Deal, Declarer and Contract before the play section.
fn add_play_tags(snap: &Snapshot, g: &Game) -> Option<Fix> {
    let f = facts(&snap.source.text, g);
    let mut inserts = Vec::new();
    let mut edits = Vec::new();
    let mut all_known = true;
    let mut names = Vec::new();
    for name in ["Deal", "Declarer", "Contract"] {
        let filled = g.value(name).is_some_and(|v| !v.trim().is_empty());
        if filled {
            continue;
        }
        let (value, known) = missing_value(name, &f, g);
        if value.is_empty() {
            continue; // all passed: nothing to play
        }
        all_known &= known;
        names.push(format!("{name} \"{value}\""));
        match g.tag(name) {
            Some(t) => edits.push(set_value(t, &value)?),
            None => inserts.push((name, value)),
        }
    }
    edits.extend(insert_tags(&snap.source.text, g, &inserts));
    (!edits.is_empty()).then(|| {
        Fix::new(
            format!("Add {} before the play section", names.join(", ")),
            edits,
            all_known,
        )
    })
}

/// The refactoring: Declarer, Contract and Result that are missing or `?`
/// filled from the auction and the play.
fn fill_from_auction(snap: &Snapshot, g: &Game) -> Option<Fix> {
    let f = facts(&snap.source.text, g);
    let mut edits = Vec::new();
    let mut inserts = Vec::new();
    let mut names = Vec::new();
    for name in ["Declarer", "Contract", "Result"] {
        let value = match (name, f.outcome) {
            ("Contract", Some(o)) => Some(contract_value(o)),
            ("Declarer", Some(o)) => Some(declarer_value(o, g)),
            ("Result", _) => f.result.clone(),
            _ => None,
        };
        let Some(value) = value else { continue };
        match g.tag(name) {
            Some(t)
                if t.inherit == Inherit::None
                    && t.value.as_ref().is_some_and(|v| v.raw.trim() == "?") =>
            {
                edits.push(set_value(t, &value)?);
            }
            None if g.value(name).is_none() => inserts.push((name, value.clone())),
            _ => continue,
        }
        names.push(name);
    }
    edits.extend(insert_tags(&snap.source.text, g, &inserts));
    (!edits.is_empty()).then(|| {
        Fix::new(
            format!("Fill {} from the auction and play", names.join(", ")),
            edits,
            false,
        )
    })
}

/// "Add double-dummy analysis": the game's DoubleDummyTricks, OptimumScore,
/// ParContract and OptimumResultTable from the solver, the missing ones
/// added and wrong ones replaced ([`pbn_core::dd::fill`], as `pbn dd
/// --overwrite`). The deal is solved by the server's solver, cached; an
/// automatic request (the lightbulb) never waits for it: it offers the
/// action once the deal is solved (a hover or an earlier request queued it).
fn add_dd(snap: &Snapshot, g: &Game, wait: bool) -> Option<Fix> {
    use crate::lsp::dd::{service, Lookup};
    let p = pbn_core::dd::verify::Position::of(g)?;
    if p.hands.iter().any(Option::is_none) {
        return None;
    }
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
        "Add double-dummy analysis"
    };
    let edits = r.edits.into_iter().map(|e| (e.range, e.text)).collect();
    Some(Fix::new(title, edits, false))
}

// ---------------------------------------------------------------------------
// Export forms of values.

fn deal_export_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    let raw = &tag.value.as_ref()?.raw;
    let p = values::parse_deal(raw);
    if !p.issues.is_empty() {
        return None;
    }
    let deal = p.value?;
    let dealer = seat_of(g.value("Dealer"), values::parse_dealer).unwrap_or(deal.first);
    let new = deal.export_form(dealer)?;
    set_value_fix(
        tag,
        &new,
        "Write the Deal from the dealer with the ranks in descending order".into(),
        true,
    )
}

fn value_export_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r)?;
    let raw = &tag.value.as_ref()?.raw;
    match tag.name.as_str() {
        "Vulnerable" => {
            let new = match raw.to_ascii_lowercase().as_str() {
                "none" | "love" | "-" => "None",
                "ns" => "NS",
                "ew" => "EW",
                "all" | "both" => "All",
                _ => return None,
            };
            set_value_fix(tag, new, format!("Write Vulnerable as \"{new}\""), true)
        }
        "Result" => {
            let result = values::parse_result(raw).value?;
            let declarer = g
                .value("Declarer")
                .and_then(|v| values::parse_declarer(v).value)?
                .seat?;
            let n = result
                .tricks?
                .for_declarer(bridge::is_north_south(declarer))?;
            let new = format!("{}{n}", if result.differs_from_actual { "^" } else { "" });
            set_value_fix(
                tag,
                &new,
                format!("Write the Result as declarer's tricks: \"{new}\""),
                true,
            )
        }
        _ => None,
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

fn convert_file(snap: &Snapshot) -> Option<Fix> {
    let out = snap.format(&format_options(snap, EolOption::Keep))?.text;
    (out != snap.source.text).then(|| {
        Fix::new(
            "Convert file to PBN export format",
            vec![(0..snap.source.text.len(), out)],
            false,
        )
    })
}

/// The export form of one game. A game that uses `#`/`##` values of
/// earlier games is formatted with the games before it (whose output is a
/// prefix of the result), so that inherited values stay inherited.
fn convert_game(snap: &Snapshot, g: &Game, title: &str) -> Option<Fix> {
    let text = snap.source.text.as_str();
    let span = g.range.clone();
    let piece = &text[span.clone()];
    let eol = match SourceText::from_text(text.to_owned()).dominant_line_ending {
        LineEnding::Lf => EolOption::Lf,
        LineEnding::Cr => EolOption::Keep,
        _ => EolOption::Crlf,
    };
    let opts = format_options(snap, eol);
    let inherits = !g.inherited.is_empty() || g.tags.iter().any(|t| t.inherit != Inherit::None);
    let mut out = if inherits {
        let before = format(&SourceText::from_text(text[..span.start].to_owned()), &opts).text;
        let through = format(&SourceText::from_text(text[..span.end].to_owned()), &opts).text;
        through
            .strip_prefix(before.as_str())?
            .trim_start_matches(['\r', '\n'])
            .to_owned()
    } else {
        format(&SourceText::from_text(piece.to_owned()), &opts).text
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

    /// The text after applying the action's edits (which must not overlap).
    fn apply(snap: &Snapshot, action: &CodeAction) -> String {
        let edits = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[&snap.uri];
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
        let actions = request(&snap, 0..0, Some(vec![CodeActionKind::REFACTOR]));
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
