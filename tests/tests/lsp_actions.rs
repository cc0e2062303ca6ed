//! The language server's code actions on real files: one `source.fixAll.pbn`
//! leaves what `pbn check --fix` leaves (`checker::fix::fix_source`, to the
//! fixed point), and a client that resolves edits gets a listing without
//! them on a 10,000-game file: small, and never a whole-file edit.

use pbn::lsp::requests::code_action::{code_action, resolve, FIX_ALL};
use pbn::lsp::snapshot::Snapshot;
use pbn_core::checker::fix::fix_source;
use pbn_core::checker::CheckOptions;
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use pbn_tests::lsp_doc::settings;
use tower_lsp_server::ls_types::*;

fn snapshot(text: &str, resolve_edits: bool) -> Snapshot {
    let settings = pbn::lsp::settings::Settings {
        resolve_edits,
        ..settings()
    };
    Snapshot::new("file:///t.pbn".parse().unwrap(), 1, text.to_owned(), settings)
}

fn request(snap: &Snapshot, only: Option<Vec<CodeActionKind>>) -> Vec<CodeAction> {
    let params = CodeActionParams {
        text_document: TextDocumentIdentifier {
            uri: snap.uri.clone(),
        },
        range: Range::default(),
        context: CodeActionContext {
            diagnostics: Vec::new(),
            only,
            trigger_kind: Some(CodeActionTriggerKind::INVOKED),
        },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    };
    code_action(snap, params)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|a| match a {
            CodeActionOrCommand::CodeAction(a) => Some(a),
            CodeActionOrCommand::Command(_) => None,
        })
        .collect()
}

/// `text` with the action's edits applied (UTF-8 positions).
fn apply(snap: &Snapshot, action: &CodeAction) -> String {
    let edits = &action.edit.as_ref().expect("an edit").changes.as_ref().unwrap()[&snap.uri];
    let conv = snap.converter();
    let mut text = snap.source.text.clone();
    let mut edits: Vec<_> = edits
        .iter()
        .map(|e| (conv.byte_range(e.range), e.new_text.as_str()))
        .collect();
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    for (r, t) in edits {
        text.replace_range(r, t);
    }
    text
}

#[test]
fn one_fix_all_leaves_what_check_fix_leaves_on_every_corpus_file() {
    let Some(dir) = corpus_dir() else { return };
    let mut several_rounds = 0;
    for (name, source) in corpus_sources(&dir) {
        let opts = CheckOptions {
            export: false,
            fixes: true,
        };
        let fixed = fix_source(&source, &opts, false);
        for resolve_edits in [false, true] {
            let snap = snapshot(&source.text, resolve_edits);
            let actions = request(&snap, Some(vec![FIX_ALL]));
            let Some(action) = actions.first() else {
                assert_eq!(fixed.source.text, source.text, "{name}: no fix-all");
                continue;
            };
            let action = match resolve_edits {
                true => resolve(&snap, action.clone()).unwrap(),
                false => action.clone(),
            };
            assert!(
                apply(&snap, &action) == fixed.source.text,
                "{name}: one fix-all is not `check --fix`"
            );
        }
        several_rounds += usize::from(fixed.passes > 1);
    }
    // Files whose fixes take more than one round: one action ends them too.
    assert!(several_rounds > 0);
}

#[test]
fn a_listing_on_10000_games_is_small_and_computes_no_edit() {
    let text = pbn_tests::gen::generate(10_000, 7, &Default::default());
    // Every game with a fix (`P` for `Pass`), so that fix-all is offered.
    let text = text.replace(" Pass", " P");
    let snap = snapshot(&text, true);
    snap.checked();
    let start = std::time::Instant::now();
    let actions = request(&snap, None);
    let took = start.elapsed();
    let bytes = serde_json::to_vec(&actions).unwrap().len();
    eprintln!("code-action list: {} actions, {bytes} bytes, {took:?}", actions.len());
    assert!(bytes < 50_000, "{bytes} bytes");
    assert!(actions.iter().any(|a| a.kind == Some(FIX_ALL) && a.edit.is_none()));
}
