//! The code actions on small documents: each fixable code's quick fix,
//! the source actions, fix-all and the deferred edits.

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

const IMPORT: &str =
    "% import format\n[Event \"Club\"]\n[Board \"1\"]\n[Dealer \"n\"]\n[Vulnerable \"both\"]\n\
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
    let text = format!(
        "[Event \"x\"]\n[Date \"2024-07-12\"]\n{deal}[Auction \"N\"]\n1H 1S 5C Pass\nPass Pass\n"
    );
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
    assert!(
        dd.contains(
            "Pass Pass\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT  6\n"
        ),
        "{dd}"
    );
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
