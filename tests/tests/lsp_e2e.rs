//! End-to-end: the `pbn lsp` binary over stdio.

use pbn_tests::lsp_client::LspClient;
use serde_json::json;

const URI: &str = "file:///tmp/pbn-e2e/broken.pbn";

fn broken() -> String {
    std::fs::read_to_string(format!("{}/../examples/broken.pbn", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn session_diagnostics_formatting_symbols_shutdown() {
    let mut c = LspClient::spawn();
    let init = c.initialize(&["utf-16"]);
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");

    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": broken()}}));
    let diags = c.diagnostics(URI, 1);
    let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"PBN0003"), "{codes:?}");
    let d3 = diags.iter().find(|d| d["code"] == "PBN0003").unwrap();
    assert_eq!(d3["range"]["start"], json!({"line": 16, "character": 6}));
    assert_eq!(d3["source"], "pbn");

    // Fix the unterminated string with an incremental edit.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 16, "character": 16}, "end": {"line": 16, "character": 16}}, "text": "\""}
        ]}),
    );
    let diags = c.diagnostics(URI, 2);
    assert!(!diags.iter().any(|d| d["code"] == "PBN0003"), "fixed: {diags:?}");

    let fmt = c.request("textDocument/formatting", json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}));
    let edits = fmt["result"].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert!(edits[0]["newText"].as_str().unwrap().contains("[Site \"Amsterdam\"]\n[Date \"2024.03.14\"]"));

    let sym = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    let names: Vec<&str> = sym["result"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names[0], "Board 7 · 3NT by N =");

    let folds = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": URI}}));
    assert!(!folds["result"].as_array().unwrap().is_empty());

    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn utf8_is_negotiated_when_offered_and_ranges_follow_it() {
    let mut c = LspClient::spawn();
    let init = c.initialize(&["utf-8", "utf-16"]);
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-8");
    let text = "[Event \"Café 𝄞\"] [Date \"1995-06-10\"]\n";
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": text}}));
    let diags = c.diagnostics(URI, 1);
    let d = diags.iter().find(|d| d["code"] == "PBN0302").expect("nonstandard date");
    let byte = text.find("1995").unwrap();
    assert_eq!(d["range"]["start"]["character"], byte, "UTF-8 column = byte offset");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn malformed_frames_and_unknown_methods_do_not_kill_the_server() {
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    let r = c.request("pbn/noSuchMethod", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // A frame that is not JSON, then one with a wrong shape.
    c.send_raw(b"Content-Length: 9\r\n\r\nnot json!");
    c.send(&json!({"jsonrpc": "2.0", "id": 77, "method": "textDocument/hover", "params": {"oops": true}}));
    // The server still answers.
    let r = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///nope.pbn"}}));
    assert!(r.get("error").is_none() || r["error"].is_object(), "{r}");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn a_client_that_disappears_ends_the_server() {
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": broken()}}));
    c.close_stdin();
    assert!(c.wait_exit().is_some(), "server exits when its input closes");
}
