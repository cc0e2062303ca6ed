//! End-to-end: the `pbn lsp` binary over stdio.

use pbn_tests::lsp_client::LspClient;
use serde_json::json;

const URI: &str = "file:///tmp/pbn-e2e/broken.pbn";

fn broken() -> String {
    std::fs::read_to_string(format!(
        "{}/../examples/broken.pbn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The byte offset of a line and character (the example is ASCII, so
/// UTF-16 code units are bytes).
fn offset(text: &str, line: usize, character: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    start + character
}

#[test]
fn session_diagnostics_formatting_symbols_shutdown() {
    let mut c = LspClient::spawn();
    let init = c.initialize(&["utf-16"]);
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");

    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": broken()}}),
    );
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
    assert!(
        !diags.iter().any(|d| d["code"] == "PBN0003"),
        "fixed: {diags:?}"
    );

    let fmt = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    // Edits of the games that change (the document as it stands after the
    // quote typed above), applied from the last: export format.
    let edits = fmt["result"].as_array().unwrap();
    assert!(!edits.is_empty());
    let mut text = broken();
    text.insert(offset(&text, 16, 16), '"');
    let mut edits: Vec<_> = edits.iter().collect();
    edits.sort_by_key(|e| {
        let s = &e["range"]["start"];
        (s["line"].as_u64(), s["character"].as_u64())
    });
    for e in edits.iter().rev() {
        let r = &e["range"];
        let at = |p: &serde_json::Value| {
            offset(
                &text,
                p["line"].as_u64().unwrap() as usize,
                p["character"].as_u64().unwrap() as usize,
            )
        };
        let (a, b) = (at(&r["start"]), at(&r["end"]));
        text.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    assert!(
        text.contains("[Site \"Amsterdam\"]\n[Date \"2024.03.14\"]"),
        "{text}"
    );

    let sym = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names: Vec<&str> = sym["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[0], "Board 7 · 3NT by N =");

    let folds = c.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": URI}}),
    );
    assert!(!folds["result"].as_array().unwrap().is_empty());

    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn utf8_is_negotiated_when_offered_and_ranges_follow_it() {
    let mut c = LspClient::spawn();
    let init = c.initialize(&["utf-8", "utf-16"]);
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-8");
    let text = "[Event \"Café 𝄞\"] [Date \"1995-06-10\"]\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(URI, 1);
    let d = diags
        .iter()
        .find(|d| d["code"] == "PBN0302")
        .expect("nonstandard date");
    let byte = text.find("1995").unwrap();
    assert_eq!(
        d["range"]["start"]["character"], byte,
        "UTF-8 column = byte offset"
    );
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
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///nope.pbn"}}),
    );
    assert!(r.get("error").is_none() || r["error"].is_object(), "{r}");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn a_client_that_disappears_ends_the_server() {
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": broken()}}),
    );
    c.close_stdin();
    assert!(
        c.wait_exit().is_some(),
        "server exits when its input closes"
    );
}

#[test]
fn hover_definition_rename_completion_over_stdio() {
    let uri = "file:///tmp/pbn-e2e/schiphol.pbn";
    let text = std::fs::read_to_string(format!(
        "{}/../examples/schiphol.pbn",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let pos = |needle: &str, nth: usize| {
        let off = text.match_indices(needle).nth(nth).expect("needle").0;
        let line = text[..off].matches('\n').count();
        let col = off - text[..off].rfind('\n').map(|i| i + 1).unwrap_or(0);
        json!({"line": line, "character": col})
    };
    let mut c = LspClient::spawn();
    let init = c.initialize(&["utf-16"]);
    let caps = &init["result"]["capabilities"];
    for cap in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "renameProvider",
        "completionProvider",
        "documentFormattingProvider",
    ] {
        assert!(
            caps.get(cap).is_some_and(|v| !v.is_null()),
            "missing capability {cap}: {caps}"
        );
    }
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": 1, "text": text}}),
    );
    let _ = c.diagnostics(uri, 1);

    // Hover on the deal value: a diagram.
    let h = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": pos("N:.63", 0)}),
    );
    let md = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(md.contains("HCP") && md.contains('♠'), "{h}");

    // Definition from the first =1= (auction) lands on its Note.
    let d = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": uri}, "position": pos("=1=", 0)}),
    );
    let target = if d["result"].is_array() {
        d["result"][0].clone()
    } else {
        d["result"].clone()
    };
    let note_line = text[..text.find("[Note \"1:non-forcing").unwrap()]
        .matches('\n')
        .count();
    assert_eq!(target["range"]["start"]["line"], note_line, "{d}");

    // Rename note 1 of the auction to 7: the note and its reference.
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": pos("=1=", 0), "newName": "7"}),
    );
    let edits = r["result"]["changes"][uri].as_array().expect("edits");
    assert_eq!(edits.len(), 2, "{r}");

    // A name that is not a note number is refused with a message.
    let bad = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": pos("=1=", 0), "newName": "forty"}),
    );
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("1 to 32"),
        "{bad}"
    );

    // Completion after `[` offers tag names.
    let comp = c.request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": pos("[Site", 0).as_object().map(|p| json!({"line": p["line"], "character": 1})).unwrap()}));
    let items = comp["result"]
        .as_array()
        .cloned()
        .or_else(|| comp["result"]["items"].as_array().cloned())
        .unwrap_or_default();
    assert!(items.iter().any(|i| i["label"] == "Vulnerable"), "{comp}");

    assert_eq!(c.shutdown(), Some(0));
}
