//! The language server's code actions on real files: one `source.fixAll.pbn`
//! leaves what `pbn check --fix` leaves (`checker::fix::fix_source`, to the
//! fixed point), and a client that resolves edits gets a listing without
//! them on a 10,000-game file: small, and never a whole-file edit. (The
//! protocol types stay in `pbn::lsp`: params and answers go through JSON.)

use pbn::lsp::requests::code_action::{code_action, resolve};
use pbn::lsp::snapshot::Snapshot;
use pbn_core::checker::fix::fix_source;
use pbn_core::checker::CheckOptions;
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use pbn_tests::lsp_doc::settings;
use serde_json::{json, Value};

fn snapshot(text: &str, resolve_edits: bool) -> Snapshot {
    let settings = pbn::lsp::settings::Settings {
        resolve_edits,
        ..settings()
    };
    Snapshot::new(
        "file:///t.pbn".parse().unwrap(),
        1,
        text.to_owned(),
        settings,
    )
}

/// The code actions at the start of the document, as JSON.
fn request(snap: &Snapshot, only: Option<&str>) -> Vec<Value> {
    let params = json!({
        "textDocument": {"uri": "file:///t.pbn"},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "context": {"diagnostics": [], "only": only.map(|o| vec![o]), "triggerKind": 1},
    });
    let actions = code_action(snap, serde_json::from_value(params).unwrap());
    match serde_json::to_value(actions).unwrap() {
        Value::Array(v) => v,
        _ => Vec::new(),
    }
}

/// The document's text with the action's edits applied (UTF-8 positions).
fn apply(snap: &Snapshot, action: &Value) -> String {
    let edits = action["edit"]["changes"]["file:///t.pbn"]
        .as_array()
        .expect("an edit");
    let index = &snap.index;
    let at = |p: &Value| {
        index.line_start(p["line"].as_u64().unwrap() as usize)
            + p["character"].as_u64().unwrap() as usize
    };
    let mut edits: Vec<_> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            (
                at(&r["start"])..at(&r["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut text = snap.source.text.clone();
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
            ungrouped: false,
        };
        // The editor's text (decoded: a fix of the file's encoding or its
        // `charset=` line is the CLI's, which reads the bytes).
        let source = pbn_core::text::SourceText::from_text(source.text);
        let fixed = fix_source(&source, &opts, false);
        for resolve_edits in [false, true] {
            let snap = snapshot(&source.text, resolve_edits);
            let actions = request(&snap, Some("source.fixAll.pbn"));
            let Some(action) = actions.first() else {
                assert_eq!(fixed.source.text, source.text, "{name}: no fix-all");
                continue;
            };
            let action = match resolve_edits {
                true => {
                    assert!(action.get("edit").is_none(), "{name}: an edit listed");
                    let a = resolve(&snap, serde_json::from_value(action.clone()).unwrap());
                    serde_json::to_value(a.unwrap()).unwrap()
                }
                false => action.clone(),
            };
            let got = apply(&snap, &action);
            if got != fixed.source.text {
                let at = got
                    .bytes()
                    .zip(fixed.source.text.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                let around = |t: &str| t[at.saturating_sub(80)..(at + 80).min(t.len())].to_owned();
                panic!(
                    "{name} (resolve: {resolve_edits}): one fix-all is not `check --fix`: at byte {at}\n{:?}\n---\n{:?}",
                    around(&got),
                    around(&fixed.source.text)
                );
            }
        }
        several_rounds += usize::from(fixed.passes > 1);
    }
    // Files whose fixes take more than one round: one action ends them too.
    assert!(several_rounds > 0);
}

#[test]
fn a_listing_on_10000_games_is_small_and_computes_no_edit() {
    // Every game with a safe fix (`P` for `Pass`), so that fix-all is offered.
    let text = pbn_tests::gen::generate(10_000, 7, &Default::default()).replace(" Pass", " P");
    // With `codeAction/resolve` the action carries `data`; without, the
    // command that computes and applies its edit when picked.
    for (resolve_edits, carries) in [(true, "data"), (false, "command")] {
        let snap = snapshot(&text, resolve_edits);
        snap.checked();
        snap.check();
        let start = std::time::Instant::now();
        let actions = request(&snap, None);
        let took = start.elapsed();
        let bytes = serde_json::to_vec(&actions).unwrap().len();
        eprintln!(
            "code-action list on {} bytes (resolve: {resolve_edits}): {} actions, {bytes} bytes, {took:?}",
            text.len(),
            actions.len()
        );
        assert!(bytes < 50_000, "{bytes} bytes");
        assert!(
            actions.iter().all(|a| a
                .get("edit")
                .is_none_or(|e| { serde_json::to_vec(e).unwrap().len() < 10_000 })),
            "a whole-file edit in the listing"
        );
        assert!(actions.iter().any(|a| a["kind"] == "source.fixAll.pbn"
            && a.get("edit").is_none()
            && a.get(carries).is_some()));
    }
}

/// Over stdio, for a client without `codeAction/resolve`: picking fix-all
/// runs its command, and the server sends the edit as `workspace/applyEdit`.
#[test]
fn a_command_applies_the_fix_all_edit() {
    let uri = "file:///fix.pbn";
    let text = "[Event \"x\"]\n[Date \"2024-07-12\"]\n[Board \"1\"]\n";
    let mut c = pbn_tests::lsp_client::LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": 1, "text": text}}),
    );
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}},
               "context": {"diagnostics": []}}),
    );
    let actions = r["result"].as_array().cloned().unwrap_or_default();
    let fix_all = actions
        .iter()
        .find(|a| a["kind"] == "source.fixAll.pbn")
        .unwrap_or_else(|| panic!("no fix-all in {r}"));
    assert!(fix_all.get("edit").is_none(), "{fix_all}");
    let command = &fix_all["command"];
    assert_eq!(command["command"], "pbn.applyAction", "{fix_all}");
    let done = c.request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    );
    assert_eq!(done["result"], json!({"applied": true}), "{done}");
    let apply = c.wait_for_server_request("workspace/applyEdit");
    let edits = &apply["params"]["edit"]["changes"][uri];
    assert!(edits.to_string().contains("2024.07.12"), "{apply}");
    c.shutdown();
}
