//! `pbn-bench lsp-quiet`: what the language server sends when little
//! changed, on a generated file of about 2.5 MB (`generate(2300, seed 1)`,
//! one diagnostic per game), and the diagnostics shown on open over the
//! shared corpus (as `pbn-bench shown`).
//!
//! - bytes the server sends per keystroke inside a comment (diagnostics
//!   unchanged), pushed and pulled, against one that changes a diagnostic
//!   and against the whole publication every keystroke used to send
//!   (each diagnostic listed: `check.group` off);
//! - semantic tokens of a screenful (`semanticTokens/range`, 60 lines of a
//!   middle game) and a delta after a keystroke (`full/delta`);
//! - a code-action list at a middle game's diagnostic (with and without
//!   `codeAction/resolve` support).
//!
//! Bytes are those of each message's JSON body as the client read it
//! (re-serialised by serde_json: the same fields, no extra whitespace);
//! times are wall clock to the response's arrival, medians.

use super::check::pbn_binary;
use super::Args;
use pbn_tests::gen::{generate, GenOptions};
use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const URI: &str = "file:///tmp/pbn-bench-quiet/big.pbn";

fn bytes(v: &Value) -> usize {
    serde_json::to_vec(v).map_or(0, |b| b.len())
}

/// The UTF-16 position of byte `at` (the generated file is ASCII).
fn position(text: &str, at: usize) -> Value {
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |n| n + 1);
    json!({"line": line, "character": character})
}

fn median_ms(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

/// A server on `text`; `each`: every diagnostic listed (`check.group`
/// off), as every keystroke used to send them.
fn start(args: &Args, capabilities: Value, text: &str, each: bool) -> Result<LspClient, String> {
    let mut c = LspClient::spawn_with(&pbn_binary(args)?);
    c.timeout = Duration::from_secs(120);
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": capabilities,
            "initializationOptions": {"pbn": {"check": {"group": !each}}}}),
    );
    c.notify("initialized", json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": text}}),
    );
    Ok(c)
}

/// Inserts `new` at byte `at` as `version`.
fn insert(c: &mut LspClient, text: &mut String, version: i64, at: usize, new: &str) {
    let p = position(text, at);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [
            {"range": {"start": p, "end": p}, "text": new}
        ]}),
    );
    text.insert_str(at, new);
}

/// The bytes of the notifications that arrive within `wait` after now
/// (the debounce and the check of a 2.5 MB file are far shorter), then
/// forgets them. A request ends the wait so that every earlier message
/// has been read.
fn sent_within(c: &mut LspClient, wait: Duration) -> usize {
    std::thread::sleep(wait);
    let _ = c.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": "file:///not-open.pbn"}}),
    );
    let n = c.notifications.iter().map(bytes).sum();
    c.clear_notifications();
    n
}

pub fn run(args: &Args) -> Result<String, String> {
    let games = args.games.unwrap_or(if args.quick { 200 } else { 2300 });
    let mut text = generate(games, 1, &GenOptions::default());
    let size = text.len();
    let mid = text.len() / 2;
    let comment = mid + text[mid..].find('{').ok_or("no brace comment")? + 1;
    let board = mid + text[mid..].find("[Board \"").ok_or("no Board tag")? + 8;
    let keys = if args.quick { 4 } else { 20 };
    let wait = Duration::from_millis(600);
    let mut out =
        String::from("### Nothing re-sent for nothing; a screenful; a code-action list\n\n");
    out += &format!(
        "- Machine: {}; {}, commit {}\n",
        super::report::machine(),
        super::report::utc_now(),
        super::report::commit()
    );
    out += "- Bytes: each message's JSON body as read by the client; times: wall clock to \
            the answer, medians\n\n";

    // Push (a client without pull diagnostics).
    let mut c = start(args, json!({}), &text, true)?;
    let open = c.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
    let open_bytes = bytes(&open);
    let open_diags = open["params"]["diagnostics"].as_array().map_or(0, Vec::len);
    c.clear_notifications();
    let mut version = 1;
    let mut quiet = Vec::new();
    for _ in 0..keys {
        version += 1;
        insert(&mut c, &mut text, version, comment, "x");
        quiet.push(sent_within(&mut c, wait));
    }
    // A keystroke that changes a diagnostic (a Board number), then back.
    version += 1;
    insert(&mut c, &mut text, version, board, "9");
    let changed = sent_within(&mut c, wait);

    // Semantic tokens: a screenful, and a delta after a keystroke.
    let first_line = position(&text, mid)["line"].as_u64().unwrap_or(0);
    let screen = json!({"textDocument": {"uri": URI}, "range": {
        "start": {"line": first_line, "character": 0},
        "end": {"line": first_line + 60, "character": 0}}});
    let mut range_times = Vec::new();
    let mut range_bytes = 0;
    for _ in 0..20 {
        let t = Instant::now();
        let r = c.request("textDocument/semanticTokens/range", screen.clone());
        range_times.push(c.last_arrival.unwrap_or_else(Instant::now) - t);
        range_bytes = bytes(&r);
    }
    let full = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": URI}}),
    );
    let full_bytes = bytes(&full);
    let id = full["result"]["resultId"].clone();
    version += 1;
    insert(&mut c, &mut text, version, comment, "y");
    let t = Instant::now();
    let delta = c.request(
        "textDocument/semanticTokens/full/delta",
        json!({"textDocument": {"uri": URI}, "previousResultId": id}),
    );
    let delta_ms = (c.last_arrival.unwrap_or_else(Instant::now) - t).as_secs_f64() * 1e3;
    let delta_bytes = bytes(&delta);
    c.shutdown();

    // Code actions at a middle game's diagnostic.
    let mut actions = Vec::new();
    for resolve in [true, false] {
        let caps = if resolve {
            json!({"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}})
        } else {
            json!({})
        };
        let mut c = start(args, caps, &text, false)?;
        let open = c.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
        let diags = open["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let d = diags
            .iter()
            .find(|d| d["range"]["start"]["line"].as_u64() >= Some(first_line))
            .or(diags.first())
            .cloned()
            .ok_or("no diagnostic")?;
        let params = json!({"textDocument": {"uri": URI}, "range": d["range"],
            "context": {"diagnostics": [d]}});
        let mut times = Vec::new();
        let mut size = 0;
        let mut count = 0;
        for _ in 0..10 {
            let t = Instant::now();
            let r = c.request("textDocument/codeAction", params.clone());
            times.push(c.last_arrival.unwrap_or_else(Instant::now) - t);
            size = bytes(&r);
            count = r["result"].as_array().map_or(0, Vec::len);
        }
        c.shutdown();
        actions.push((median_ms(times), size, count));
    }

    // Pull (a client with `textDocument.diagnostic`): a pull after a
    // keystroke in a comment, with the previous result id.
    let caps = json!({"textDocument": {"diagnostic": {}}});
    let mut c = start(args, caps, &text, true)?;
    let pull = |c: &mut LspClient, previous: &Value| {
        let mut p = json!({"textDocument": {"uri": URI}});
        if !previous.is_null() {
            p["previousResultId"] = previous.clone();
        }
        c.request("textDocument/diagnostic", p)
    };
    let first = pull(&mut c, &Value::Null);
    let mut id = first["result"]["resultId"].clone();
    let mut pulled = Vec::new();
    let mut version = 1;
    for _ in 0..keys {
        version += 1;
        insert(&mut c, &mut text, version, comment, "x");
        let r = pull(&mut c, &id);
        let pushed = sent_within(&mut c, Duration::ZERO);
        pulled.push(bytes(&r) + pushed);
        id = r["result"]["resultId"].clone();
    }
    c.shutdown();

    let max = |v: &[usize]| v.iter().copied().max().unwrap_or(0);
    out += &format!(
        "Generated file: {games} games, {:.2} MB, {open_diags} diagnostics on open \
         each listed ({open_bytes} bytes of `publishDiagnostics`, what every keystroke sent \
         before; the code actions run with them grouped). \
         Command: `cargo run --release -p pbn-tests --bin pbn-bench -- lsp-quiet`.\n\n\
         | measurement | value | target |\n|---|---:|---:|\n",
        size as f64 / 1e6
    );
    out += &format!(
        "| bytes sent per keystroke in a comment, pushed (max of {keys}) | {} | < 100 KB |\n",
        max(&quiet)
    );
    out += &format!(
        "| bytes of a pull after a keystroke in a comment (max of {keys}; `unchanged`) | {} | < 100 KB |\n",
        max(&pulled)
    );
    out += &format!("| bytes sent for a keystroke that changes a diagnostic | {changed} | |\n");
    out += &format!(
        "| semantic tokens of a screenful (`range`, 60 lines), median ms / bytes | {:.2} / {range_bytes} | < 20 ms |\n",
        median_ms(range_times)
    );
    out += &format!(
        "| semantic tokens after a keystroke (`full/delta`), ms / bytes (whole: {full_bytes}) | {delta_ms:.1} / {delta_bytes} | |\n"
    );
    for ((ms, b, n), what) in actions.iter().zip(["with", "without"]) {
        out += &format!(
            "| code actions at a diagnostic, {what} `codeAction/resolve` ({n} actions), median ms / bytes | {ms:.2} / {b} | < 20 ms, < 50 KB |\n"
        );
    }
    let (before, after) = super::shown::corpus_totals()?;
    out += &format!(
        "| diagnostics shown on open over the shared corpus, each listed → grouped | {before} → {after} ({:.3}) | |\n",
        after as f64 / before.max(1) as f64
    );
    Ok(out)
}
