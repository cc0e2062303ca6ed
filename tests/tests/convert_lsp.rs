//! The language server's conversion actions ("Copy game as forum
//! notation", "Open as RBN", "Open as LIN") and the command they carry,
//! `pbn.convertGame`, driven over stdio by the LSP test client: the action
//! lists and the command's results are insta snapshots; a stale version,
//! bad arguments and a closed document are refused with an error.

use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};

const URI: &str = "file:///fixtures/two_games.pbn";

fn fixture() -> String {
    let path = format!(
        "{}/fixtures/convert/lsp/two_games.pbn",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).expect("fixture")
}

/// A server with the fixture open (version 1).
fn open() -> LspClient {
    let mut c = LspClient::spawn();
    let init = c.initialize(&["utf-16"]);
    assert_eq!(
        init["result"]["capabilities"]["executeCommandProvider"]["commands"],
        json!(["pbn.applyAction", "pbn.convertGame"]),
        "{init}"
    );
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": fixture()}}),
    );
    c
}

fn code_actions(c: &mut LspClient, from: (u32, u32), to: (u32, u32), context: Value) -> Value {
    let r = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": URI},
            "range": {"start": {"line": from.0, "character": from.1},
                      "end": {"line": to.0, "character": to.1}},
            "context": context,
        }),
    );
    assert!(r.get("error").is_none(), "{r}");
    r["result"].clone()
}

fn convert_actions(c: &mut LspClient, from: (u32, u32), to: (u32, u32)) -> Vec<Value> {
    code_actions(
        c,
        from,
        to,
        json!({"diagnostics": [], "only": ["source.convertGame"]}),
    )
    .as_array()
    .cloned()
    .unwrap_or_default()
}

fn execute(c: &mut LspClient, arguments: Value) -> Value {
    c.request(
        "workspace/executeCommand",
        json!({"command": "pbn.convertGame", "arguments": arguments}),
    )
}

#[test]
fn actions_of_one_game_and_their_results() {
    let mut c = open();
    // The cursor in the second game (line 30: its Deal).
    let actions = convert_actions(&mut c, (30, 3), (30, 3));
    insta::assert_json_snapshot!("lsp_actions_one_game", actions);
    for a in &actions {
        let cmd = &a["command"];
        let r = execute(&mut c, cmd["arguments"].clone());
        assert!(r.get("error").is_none(), "{r}");
        let format = r["result"]["format"].as_str().unwrap().to_string();
        // The text apart, so that the snapshot shows it as lines.
        let text = r["result"]["text"].as_str().unwrap().to_string();
        let mut rest = r["result"].clone();
        rest["text"] = json!("<below>");
        insta::assert_snapshot!(
            format!("lsp_result_{format}"),
            format!(
                "{}\n--- text\n{text}",
                serde_json::to_string_pretty(&rest).unwrap()
            )
        );
    }
    c.shutdown();
}

#[test]
fn a_range_over_two_games_converts_both() {
    let mut c = open();
    let actions = convert_actions(&mut c, (5, 0), (30, 0));
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Copy games 1–2 as forum notation",
            "Open games 1–2 as RBN",
            "Open games 1–2 as LIN"
        ]
    );
    let r = execute(&mut c, actions[1]["command"]["arguments"].clone());
    let text = r["result"]["text"].as_str().unwrap();
    assert_eq!(text.matches("\nB ").count(), 2, "{text}");
    c.shutdown();
}

#[test]
fn other_requests_do_not_list_the_conversions() {
    let mut c = open();
    // Quick fixes only, and the automatic lightbulb: no conversion.
    for context in [
        json!({"diagnostics": [], "only": ["quickfix"]}),
        json!({"diagnostics": [], "triggerKind": 2}),
    ] {
        let all = code_actions(&mut c, (30, 3), (30, 3), context.clone());
        let kinds: Vec<&Value> = all.as_array().unwrap().iter().map(|a| &a["kind"]).collect();
        assert!(
            !kinds
                .iter()
                .any(|k| k.as_str().unwrap_or("").starts_with("source.convertGame.")),
            "{context}: {all}"
        );
    }
    // Asked for source actions in general: listed with the others.
    let all = code_actions(
        &mut c,
        (30, 3),
        (30, 3),
        json!({"diagnostics": [], "only": ["source"]}),
    );
    let titles: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert!(titles.contains(&"Open as LIN"), "{titles:?}");
    c.shutdown();
}

#[test]
fn bad_or_stale_commands_are_refused() {
    let mut c = open();
    let good = json!({"uri": URI, "version": 1, "games": {"start": 1, "end": 2}, "format": "lin"});
    // Each case: the good arguments with some fields replaced.
    let with = |over: Value| {
        let mut a = good.clone();
        for (k, v) in over.as_object().unwrap() {
            a[k] = v.clone();
        }
        json!([a])
    };
    let mut errors = Vec::new();
    for (what, args) in [
        ("no arguments", json!([])),
        ("unknown format", with(json!({"format": "pdf"}))),
        ("pbn is not a target", with(json!({"format": "pbn"}))),
        (
            "empty range",
            with(json!({"games": {"start": 1, "end": 1}})),
        ),
        (
            "past the last game",
            with(json!({"games": {"start": 1, "end": 3}})),
        ),
        ("older version", with(json!({"version": 0}))),
        ("closed document", with(json!({"uri": "file:///other.pbn"}))),
    ] {
        let r = execute(&mut c, args);
        let e = &r["error"];
        assert!(e.is_object(), "{what}: {r}");
        errors.push(format!(
            "{what}: {} {}",
            e["code"],
            e["message"].as_str().unwrap()
        ));
    }
    insta::assert_snapshot!("lsp_errors", errors.join("\n"));
    // The good arguments work, and an unknown command is refused.
    let r = execute(&mut c, json!([good]));
    assert_eq!(r["result"]["format"], "lin", "{r}");
    let r = c.request(
        "workspace/executeCommand",
        json!({"command": "pbn.other", "arguments": [good]}),
    );
    assert!(r["error"].is_object(), "{r}");
    c.shutdown();
}
