//! The language server's double-dummy analysis over stdio: the hover's
//! table and par (after "solving…"), the code action "Add double-dummy
//! analysis", and the PBN11xx diagnostics with `[check] dd`.

use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const DEAL: &str = "N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7";

fn text(extra: &str) -> String {
    format!("[Event \"dd\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"{DEAL}\"]\n{extra}")
}

fn open(c: &mut LspClient, uri: &str, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": 1, "text": text}}),
    );
}

/// Turns the background solving after open off, so that a first hover
/// finds its deal unsolved.
fn no_background(c: &mut LspClient) {
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pbn": {"ddBackground": 0}}}),
    );
}

/// The server's log line about the background solving of `version`.
fn background_log(c: &mut LspClient, version: i64) -> String {
    let needle = format!("version {version}: ");
    let m = c.wait_for(|m| {
        m["method"] == "window/logMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|s| s.contains(&needle) && s.contains("in the background"))
    });
    m["params"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn hover_deal(c: &mut LspClient, uri: &str) -> String {
    hover_line(c, uri, 3)
}

fn hover_line(c: &mut LspClient, uri: &str, line: usize) -> String {
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 10}}),
    );
    h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Hovers until the table is there; the first hover must not wait for it.
fn hover_until_solved(c: &mut LspClient, uri: &str) -> (String, String) {
    let start = Instant::now();
    let first = hover_deal(c, uri);
    loop {
        let md = hover_deal(c, uri);
        if !md.contains("solving") {
            return (first, md);
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "never solved: {md}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn hover_shows_solving_then_the_table_and_par() {
    let uri = "file:///tmp/pbn-lsp-dd/hover.pbn";
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    no_background(&mut c);
    open(&mut c, uri, &text(""));
    let _ = c.diagnostics(uri, 1);
    let (first, md) = hover_until_solved(&mut c, uri);
    // The first hover of a deal answers before the solver has finished.
    assert!(first.contains("solving…"), "{first}");
    assert!(first.contains("HCP"), "{first}");
    let table = &md[md.find("**Double dummy**").expect("a table")..];
    insta::assert_snapshot!("lsp_dd_hover", table);
    // A deal with a hand not given: the diagram only, nothing to solve.
    let partial = "file:///tmp/pbn-lsp-dd/partial.pbn";
    open(
        &mut c,
        partial,
        "[Event \"\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n",
    );
    let md = hover_deal(&mut c, partial);
    assert!(md.contains("HCP") && !md.contains("Double dummy"), "{md}");
    c.shutdown();
}

fn code_actions(c: &mut LspClient, uri: &str, automatic: bool) -> Vec<Value> {
    let mut context = json!({"diagnostics": []});
    if automatic {
        context["triggerKind"] = json!(2);
    }
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 3, "character": 10}, "end": {"line": 3, "character": 10}}, "context": context}),
    );
    r["result"].as_array().cloned().unwrap_or_default()
}

fn apply(text: &str, edits: &[Value]) -> String {
    // Single-line-safe application for the LF text of these tests.
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let ch = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + ch
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (a, b, t) in edits {
        out.replace_range(a..b, &t);
    }
    out
}

/// The edits of action `a` for `uri`: its own, or (for this client, which
/// does not resolve edits) those its command makes the server send as
/// `workspace/applyEdit`.
fn edits_of(c: &mut LspClient, uri: &str, a: &Value) -> Vec<Value> {
    if let Some(edits) = a["edit"]["changes"][uri].as_array() {
        return edits.clone();
    }
    let command = &a["command"];
    assert_eq!(command["command"], "pbn.applyAction", "{a}");
    let r = c.request(
        "workspace/executeCommand",
        json!({"command": command["command"], "arguments": command["arguments"]}),
    );
    assert!(r.get("error").is_none(), "{r}");
    let apply = c.wait_for_server_request("workspace/applyEdit");
    apply["params"]["edit"]["changes"][uri]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn dd_action(actions: &[Value]) -> Option<&Value> {
    actions
        .iter()
        .find(|a| a["title"].as_str().unwrap_or("").contains("double-dummy"))
}

#[test]
fn code_action_adds_the_analysis_and_the_result_checks_clean() {
    let uri = "file:///tmp/pbn-lsp-dd/action.pbn";
    let before = text("\n[Event \"next\"]\n");
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pbn": {"check": {"dd": true}}}}),
    );
    open(&mut c, uri, &before);
    let actions = code_actions(&mut c, uri, false);
    let a = dd_action(&actions).expect("the action").clone();
    assert_eq!(a["title"], "Add double-dummy analysis", "{a}");
    let edits = edits_of(&mut c, uri, &a);
    let after = apply(&before, &edits);
    insta::assert_snapshot!("lsp_dd_code_action", after);
    // The filled game: no PBN11xx diagnostic, and no action left to offer.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": after}]}),
    );
    let diags = c.diagnostics(uri, 2);
    assert!(
        !diags
            .iter()
            .any(|d| d["code"].as_str().unwrap_or("").starts_with("PBN11")),
        "{diags:?}"
    );
    assert!(dd_action(&code_actions(&mut c, uri, false)).is_none());
    c.shutdown();
}

#[test]
fn wrong_values_are_diagnostics_with_check_dd() {
    let wrong = text("[OptimumScore \"NS 420\"]\n[DoubleDummyTricks \"73b3c63b3c492a0492a0\"]\n");
    // Off: no PBN11xx diagnostics.
    let off = "file:///tmp/pbn-lsp-dd/off.pbn";
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    open(&mut c, off, &wrong);
    let diags = c.diagnostics(off, 1);
    assert!(
        !diags
            .iter()
            .any(|d| d["code"].as_str().unwrap_or("").starts_with("PBN11")),
        "{diags:?}"
    );
    // On (the client's setting): the wrong digit and score, in a later
    // publication once solved.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pbn": {"check": {"dd": true}}}}),
    );
    let uri = "file:///tmp/pbn-lsp-dd/on.pbn";
    open(&mut c, uri, &wrong);
    let codes = loop {
        let m = c.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        let codes: Vec<String> = m["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["code"].as_str())
            .filter(|c| c.starts_with("PBN11"))
            .map(str::to_owned)
            .collect();
        if !codes.is_empty() {
            break codes;
        }
    };
    assert_eq!(codes, ["PBN1101", "PBN1104"], "{codes:?}");
    // The code action replaces them and adds the missing two.
    let a = dd_action(&code_actions(&mut c, uri, false))
        .cloned()
        .expect("an action");
    assert!(a["title"].as_str().unwrap().starts_with("Add"), "{a}");
    c.shutdown();
}

#[test]
fn an_automatic_request_does_not_wait_for_the_solver() {
    let uri = "file:///tmp/pbn-lsp-dd/auto.pbn";
    // A deal no other test solves (the cache is per process anyway).
    let t = "[Event \"\"]\n[Dealer \"E\"]\n[Vulnerable \"All\"]\n[Deal \"N:AK2.QJ3.T98.7654 QJT.AK2.765.AKQ8 9876.T98.AKQ.JT9 543.7654.J432.32\"]\n";
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    no_background(&mut c);
    open(&mut c, uri, t);
    let _ = c.diagnostics(uri, 1);
    // The lightbulb's request lists the action without its edit (nothing
    // solved yet); picking it solves the deal and sends the tags.
    let found = dd_action(&code_actions(&mut c, uri, true))
        .cloned()
        .expect("the action");
    assert_eq!(found["title"], "Add double-dummy analysis");
    assert!(found.get("edit").is_none(), "{found}");
    let after = apply(t, &edits_of(&mut c, uri, &found));
    assert!(after.contains("[DoubleDummyTricks \""), "{after}");
    c.shutdown();
}

/// The lines of the `[Deal` tags of `text`.
fn deal_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("[Deal "))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn deals_are_solved_in_the_background_after_open() {
    let uri = "file:///tmp/pbn-lsp-dd/background.pbn";
    let t = [
        DEAL,
        "N:AK2.QJ3.T98.7654 QJT.AK2.765.AKQ8 9876.T98.AKQ.JT9 543.7654.J432.32",
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
    ]
    .map(|d| format!("[Board \"1\"]\n[Dealer \"S\"]\n[Vulnerable \"NS\"]\n[Deal \"{d}\"]\n"))
    .join("\n");
    let lines = deal_lines(&t);
    assert_eq!(lines.len(), 3);
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    open(&mut c, uri, &t);
    let log = background_log(&mut c, 1);
    assert!(
        log.contains("3 of 3 deals solved") && log.contains("done"),
        "{log}"
    );
    // No hover asked for them: each first hover answers with the table.
    for line in lines {
        let md = hover_line(&mut c, uri, line);
        assert!(
            md.contains("**Double dummy**") && !md.contains("solving"),
            "{md}"
        );
    }
    c.shutdown();
}

#[test]
fn an_edit_stops_the_background_work_of_the_old_version() {
    let uri = "file:///tmp/pbn-lsp-dd/background-edit.pbn";
    let t = pbn_tests::gen::generate(60, 11, &pbn_tests::gen::GenOptions::clean());
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    open(&mut c, uri, &t);
    let _ = c.diagnostics(uri, 1);
    // Solving 60 deals takes seconds: the edit comes while it runs.
    std::thread::sleep(Duration::from_millis(100));
    // A new text with one deal.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"text": text("")}]}),
    );
    let old = background_log(&mut c, 1);
    assert!(old.contains("stopped: the document changed"), "{old}");
    let solved: usize = old
        .split(": ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{old}"));
    assert!(solved < 60, "{old}");
    let new = background_log(&mut c, 2);
    assert!(
        new.contains("1 of 1 deals solved") && new.contains("done"),
        "{new}"
    );
    let md = hover_deal(&mut c, uri);
    assert!(
        md.contains("**Double dummy**") && !md.contains("solving"),
        "{md}"
    );
    c.shutdown();
}

/// An end position, spades trumps, North to lead: the ♠2 costs a trick.
const PLAYED: &str = "[Deal \"N:2.A.. .KQ.. ..A2. 3...2\"]\n[Declarer \"W\"]\n[Contract \"S\"]\n[Play \"N\"]\nS2 HQ D2 S3\nHA HK DA C2\n";

/// The labels of the `−N` hints of the whole of `uri`.
fn cost_hints(c: &mut LspClient, uri: &str) -> Vec<String> {
    let r = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}}),
    );
    r["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h["label"].as_str())
        .filter(|l| l.starts_with('−'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_client_is_asked_to_refresh_inlay_hints_once_the_play_is_solved() {
    const REFRESH: &str = "workspace/inlayHint/refresh";
    for support in [true, false] {
        let mut c = LspClient::spawn();
        c.request(
            "initialize",
            json!({"processId": null, "rootUri": null,
                   "capabilities": {"workspace": {"inlayHint": {"refreshSupport": support}}}}),
        );
        c.notify("initialized", json!({}));
        no_background(&mut c);
        let uri = "file:///tmp/dd/refresh.pbn";
        open(&mut c, uri, PLAYED);
        let _ = c.diagnostics(uri, 1);
        // The first request queues the play analysis and cannot have it.
        assert_eq!(cost_hints(&mut c, uri), Vec::<String>::new());
        if support {
            c.wait_for_server_request(REFRESH);
            assert_eq!(cost_hints(&mut c, uri), vec!["−1".to_owned()]);
        } else {
            let start = Instant::now();
            while cost_hints(&mut c, uri).is_empty() {
                assert!(start.elapsed() < Duration::from_secs(30), "never solved");
                std::thread::sleep(Duration::from_millis(20));
            }
            // Time for a refresh sent after the analysis was stored.
            std::thread::sleep(Duration::from_millis(300));
            let _ = cost_hints(&mut c, uri);
            assert!(
                !c.server_requests.iter().any(|m| m["method"] == REFRESH),
                "{:?}",
                c.server_requests
            );
        }
        c.shutdown();
    }
}
