//! The language server over stdio against broken framing, unknown `$/`
//! requests, `exit` without `shutdown`, a dead parent, and configuration
//! read once (server/src/lsp/transport.rs, server.rs).

use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};
use std::time::Duration;

fn body(id: i64) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "shutdown"})).unwrap()
}

fn parse_errors(c: &LspClient) -> usize {
    c.notifications
        .iter()
        .filter(|m| m["error"]["code"] == -32700)
        .count()
}

/// After each unusable frame the server answers the next request: it has
/// resynchronised on the following header.
#[test]
fn bad_frames_cost_one_parse_error_each_and_the_session_goes_on() {
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    let b = body(900);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("abc", b"Content-Length: abc\r\n\r\n".to_vec()),
        ("negative", b"Content-Length: -5\r\n\r\n".to_vec()),
        (
            "missing",
            b"Content-Type: application/json\r\n\r\n".to_vec(),
        ),
        ("too short", b"Content-Length: 5\r\n\r\n".to_vec()),
        (
            "over the limit",
            b"Content-Length: 99999999999\r\n\r\n".to_vec(),
        ),
        ("not UTF-8", b"Content-Length: 1\xff\r\n\r\n".to_vec()),
        ("not a header", b"\xff\xfe garbage\r\n\r\n".to_vec()),
    ];
    for (name, mut raw) in cases {
        raw.extend_from_slice(&b);
        c.send_raw(&raw);
        let r = c.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": "file:///nope.pbn"}}),
        );
        assert!(
            r.get("result").is_some() || r.get("error").is_some(),
            "{name}: {r}"
        );
        let e = c.wait_for(|m| m["error"]["code"] == -32700);
        assert!(e["id"].is_null(), "{name}: {e}");
    }
    // A non-UTF-8 byte in an ignored header is harmless.
    let mut raw = b"Content-Type: \xff\r\n".to_vec();
    let hover = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 5000, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///nope.pbn"}, "position": {"line": 0, "character": 0}}})).unwrap();
    raw.extend_from_slice(format!("Content-Length: {}\r\n\r\n", hover.len()).as_bytes());
    raw.extend_from_slice(&hover);
    c.send_raw(&raw);
    let r = c.wait_for(|m| m["id"] == 5000);
    assert!(r.get("result").is_some(), "{r}");
    // One parse error per bad frame, and none of the bad frames' bodies (a
    // shutdown request) was run.
    assert_eq!(parse_errors(&c), 0, "{:?}", c.notifications);
    assert!(!c.notifications.iter().any(|m| m["id"] == 900));
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn unknown_dollar_requests_get_method_not_found() {
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify("$/somethingNew", json!({}));
    let r = c.request("$/somethingNew", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///nope.pbn"}}),
    );
    assert!(r.get("error").is_none(), "{r}");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn exit_without_shutdown_exits_1() {
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify("exit", json!(null));
    assert_eq!(c.wait_exit(), Some(1));
}

#[test]
fn a_dead_parent_ends_the_server() {
    // A process that has ended (and been reaped): its id names no process.
    let mut parent = std::process::Command::new("true").spawn().unwrap();
    let pid = parent.id();
    parent.wait().unwrap();
    let mut c = LspClient::spawn();
    c.request(
        "initialize",
        json!({"processId": pid, "rootUri": null, "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    assert_eq!(c.wait_exit_for(Duration::from_secs(10)), Some(1));
}

#[test]
fn a_live_parent_keeps_the_server() {
    let mut c = LspClient::spawn();
    c.request(
        "initialize",
        json!({"processId": std::process::id(), "rootUri": null, "capabilities": {}}),
    );
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(c.shutdown(), Some(0));
}

const GAME: &str = "[Event \"x\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"1\"]\n[West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n[Dealer \"n\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n[Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n";

fn count(diags: &[Value]) -> usize {
    diags.len()
}

/// pbn.toml is read when a document is opened, not on every change; a
/// watched-file change or didChangeConfiguration reads it again.
#[test]
fn pbn_toml_is_read_once_and_again_on_change_notifications() {
    let d = std::env::temp_dir().join(format!("pbn-lsp-config-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join(".git")).unwrap();
    let d = std::fs::canonicalize(&d).unwrap();
    let toml = d.join("pbn.toml");
    std::fs::write(&toml, "[check]\nexport = false\n").unwrap();
    let uri = format!("file://{}/game.pbn", d.display());
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": 1, "text": GAME}}),
    );
    let plain = count(&c.diagnostics(&uri, 1));
    std::fs::write(&toml, "[check]\nexport = true\n").unwrap();
    let edit = |v: i64| json!({"textDocument": {"uri": uri, "version": v}, "contentChanges": [{"range": {"start": {"line": 0, "character": 11}, "end": {"line": 0, "character": 11}}, "text": " "}]});
    c.notify("textDocument/didChange", edit(2));
    // Unchanged diagnostics are not published again: asked for instead.
    let pulled = c.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(
        count(pulled["result"]["items"].as_array().unwrap()),
        plain,
        "a keystroke does not read pbn.toml again"
    );
    c.clear_notifications();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": format!("file://{}", toml.display()), "type": 2}]}),
    );
    let export = count(&c.diagnostics(&uri, 2));
    assert!(
        export > plain,
        "{export} > {plain}: read again after the change"
    );
    std::fs::write(&toml, "[check]\nexport = false\n").unwrap();
    c.clear_notifications();
    c.notify("workspace/didChangeConfiguration", json!({"settings": {}}));
    assert_eq!(count(&c.diagnostics(&uri, 2)), plain);
    assert_eq!(c.shutdown(), Some(0));
    std::fs::remove_dir_all(&d).ok();
}
