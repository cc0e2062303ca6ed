//! Diagnostics are not sent again when they did not change: pushed
//! (`publishDiagnostics`) only for a version whose diagnostics differ from
//! the last ones sent; pulled (`textDocument/diagnostic`, LSP 3.17, when the
//! client announces it) as `unchanged` when the client's previous result is
//! still right. Semantic tokens by delta: `lsp_semantic_delta.rs`.

use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};

const URI: &str = "file:///tmp/pbn-unchanged/t.pbn";

/// Two games; the second's dealer is not a seat (one error), and a brace
/// comment sits in the first.
const TEXT: &str = "[Event \"E\"]\n[Board \"1\"]\n[Dealer \"N\"]\n{ a comment }\n\n\
                    [Event \"E\"]\n[Board \"2\"]\n[Dealer \"Q\"]\n";

/// The 0-based line and character of the first `needle` (ASCII text).
fn position(text: &str, needle: &str) -> Value {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |n| n + 1);
    json!({"line": line, "character": character})
}

/// Replaces the first `old` of `text` by `new` (same line) as `version`.
fn change(c: &mut LspClient, text: &mut String, version: i64, old: &str, new: &str) {
    let start = position(text, old);
    let mut end = start.clone();
    end["character"] = json!(start["character"].as_u64().unwrap() + old.len() as u64);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [
            {"range": {"start": start, "end": end}, "text": new}
        ]}),
    );
    *text = text.replacen(old, new, 1);
}

fn open(c: &mut LspClient) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": TEXT}}),
    );
}

fn publications(c: &LspClient) -> Vec<i64> {
    c.notifications
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI)
        .map(|m| m["params"]["version"].as_i64().unwrap_or(-1))
        .collect()
}

/// Push: an edit inside a comment publishes nothing; the next edit that
/// changes the diagnostics publishes them (and only then).
#[test]
fn an_edit_in_a_comment_publishes_nothing() {
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    open(&mut c);
    let first = c.diagnostics(URI, 1);
    assert!(
        first.iter().any(|d| d["range"]["start"]["line"] == 7),
        "the dealer's error: {first:?}"
    );
    let mut text = TEXT.to_owned();
    change(&mut c, &mut text, 2, "a comment", "A COMMENT");
    change(&mut c, &mut text, 3, "[Dealer \"Q\"]", "[Dealer \"E\"]");
    let third = c.diagnostics(URI, 3);
    assert!(third.len() < first.len(), "the error fixed: {third:?}");
    assert_eq!(
        publications(&c),
        Vec::<i64>::new(),
        "nothing was published for version 2"
    );
    // Back to the first diagnostics: published again (they differ from the
    // last ones sent).
    change(&mut c, &mut text, 4, "[Dealer \"E\"]", "[Dealer \"Q\"]");
    assert_eq!(c.diagnostics(URI, 4), first);
    c.shutdown();
}

/// A client that announces `textDocument.diagnostic`: the server says it
/// pulls, pushes nothing, answers `unchanged` to a pull after an edit that
/// changed nothing, and the new full report after one that did.
#[test]
fn pull_answers_unchanged_then_the_new_report() {
    let mut c = LspClient::spawn();
    let init = c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {
            "textDocument": {"diagnostic": {"dynamicRegistration": false}},
            "workspace": {"diagnostics": {"refreshSupport": true}}
        }}),
    );
    let provider = &init["result"]["capabilities"]["diagnosticProvider"];
    assert_eq!(provider["identifier"], "pbn", "{init}");
    assert_eq!(provider["interFileDependencies"], false);
    c.notify("initialized", json!({}));
    open(&mut c);
    let pull = |c: &mut LspClient, previous: Option<&str>| {
        let mut params = json!({"textDocument": {"uri": URI}});
        if let Some(p) = previous {
            params["previousResultId"] = json!(p);
        }
        let r = c.request("textDocument/diagnostic", params);
        assert!(r.get("error").is_none(), "{r}");
        r["result"].clone()
    };
    let full = pull(&mut c, None);
    assert_eq!(full["kind"], "full", "{full}");
    let id = full["resultId"].as_str().expect("a result id").to_owned();
    let items = full["items"].as_array().unwrap().clone();
    assert!(items.iter().any(|d| d["range"]["start"]["line"] == 7));

    let mut text = TEXT.to_owned();
    change(&mut c, &mut text, 2, "a comment", "A COMMENT");
    let same = pull(&mut c, Some(&id));
    assert_eq!(same, json!({"kind": "unchanged", "resultId": id}));
    // An unknown previous id gets the full report.
    let again = pull(&mut c, Some("not an id"));
    assert_eq!(again["kind"], "full");
    assert_eq!(again["items"].as_array().unwrap(), &items);

    change(&mut c, &mut text, 3, "[Dealer \"Q\"]", "[Dealer \"E\"]");
    let new = pull(&mut c, Some(&id));
    assert_eq!(new["kind"], "full", "{new}");
    assert_ne!(new["resultId"], json!(id));
    assert!(new["items"].as_array().unwrap().len() < items.len());
    // A pull with the new id after no change: unchanged.
    let new_id = new["resultId"].as_str().unwrap().to_owned();
    assert_eq!(pull(&mut c, Some(&new_id))["kind"], "unchanged");
    // Let a background check (which pushes in the other mode) finish.
    std::thread::sleep(std::time::Duration::from_millis(400));
    let _ = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 1}}),
    );
    assert_eq!(publications(&c), Vec::<i64>::new(), "nothing pushed");
    c.shutdown();
}

/// Neovim 0.11 pulls without `previousResultId`: it holds the last full
/// report the server answered, so a pull after an edit that changed
/// nothing is `unchanged` too, one after a real change full, and a
/// document opened again starts from a full report. Any other client that
/// sends no id gets the full report every time.
#[test]
fn pull_without_previous_id_is_unchanged_when_nothing_changed() {
    for (client, keeps) in [("Neovim", true), ("Visual Studio Code", false)] {
        pull_without_previous_id(client, keeps);
    }
}

fn pull_without_previous_id(client: &str, keeps: bool) {
    let mut c = LspClient::spawn();
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "clientInfo": {"name": client}, "capabilities": {
            "textDocument": {"diagnostic": {"dynamicRegistration": false}}
        }}),
    );
    c.notify("initialized", json!({}));
    open(&mut c);
    let pull = |c: &mut LspClient| {
        let r = c.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": URI}}),
        );
        assert!(r.get("error").is_none(), "{r}");
        r["result"].clone()
    };
    let full = pull(&mut c);
    assert_eq!(full["kind"], "full", "{full}");
    let id = full["resultId"].clone();
    let mut text = TEXT.to_owned();
    change(&mut c, &mut text, 2, "a comment", "A COMMENT");
    let again = pull(&mut c);
    if keeps {
        assert_eq!(again, json!({"kind": "unchanged", "resultId": id}));
    } else {
        assert_eq!(again["kind"], "full", "{client}: {again}");
        c.shutdown();
        return;
    }
    change(&mut c, &mut text, 3, "[Dealer \"Q\"]", "[Dealer \"E\"]");
    let new = pull(&mut c);
    assert_eq!(new["kind"], "full", "{new}");
    assert_eq!(pull(&mut c)["kind"], "unchanged");
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": URI}}),
    );
    open(&mut c);
    assert_eq!(pull(&mut c)["kind"], "full");
    c.shutdown();
}
