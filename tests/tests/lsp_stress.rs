//! Stress: a burst of random incremental edits to `pbn lsp` over stdio.
//!
//! A generated 1,000-game document is opened, then 10,000 random edits
//! (insertions, deletions and replacements, with non-ASCII and non-BMP
//! characters, CRLF and structural characters) are written in one burst,
//! without waiting for anything, with UTF-16 positions (the client offers
//! no encoding, so the server uses the LSP default). The client keeps its
//! own copy of the text. Then the server must still be alive, publish the
//! diagnostics of the last version, and answer exactly like a fresh server
//! that opens the client's final text: the same diagnostics (code, range,
//! severity, message), document symbols, folding ranges, semantic tokens
//! (every token's position and length: a stringent check that both hold
//! the same text) and formatting edit.
//!
//! Cost: the server applies every `didChange` synchronously; it reparses
//! only the 32 KB pieces of the document an edit touched (see
//! `server/src/lsp/document.rs`), so 10,000 single-edit notifications take
//! about 20 s on this shared 2-core machine. Two tests: one edit per
//! notification (as an editor sends keystrokes), and the same number of
//! edits packed about 50 to a notification (the changes of one notification
//! apply in order, each to the result of the one before).
//!
//! `PBN_STRESS_GAMES`, `PBN_STRESS_EDITS`, `PBN_STRESS_NOTIFICATIONS` and
//! `PBN_STRESS_SEED` override the sizes and the seed.

use pbn_tests::gen::{generate, GenOptions, Rng};
use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const URI: &str = "file:///tmp/pbn-stress/storm.pbn";

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The client's copy of the document, with its line starts (a line ends
/// at `\n`; the edits never split a CRLF nor leave a lone CR).
struct Text {
    text: String,
    lines: Vec<usize>,
}

impl Text {
    fn new(text: String) -> Text {
        let mut lines = vec![0];
        lines.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Text { text, lines }
    }

    /// The LSP position of a byte offset, in UTF-16 code units.
    fn position(&self, offset: usize) -> Value {
        let line = self.lines.partition_point(|&s| s <= offset) - 1;
        let col: usize = self.text[self.lines[line]..offset].encode_utf16().count();
        json!({"line": line, "character": col})
    }

    /// Replaces `a..b` with `new`, keeping the line starts up to date.
    fn replace(&mut self, a: usize, b: usize, new: &str) {
        self.text.replace_range(a..b, new);
        let delta = new.len() as isize - (b - a) as isize;
        // Line starts after a line break inside `a..b` are gone; later ones move.
        let first = self.lines.partition_point(|&s| s <= a);
        let gone = self.lines[first..].partition_point(|&s| s <= b);
        let added = new.match_indices('\n').map(|(i, _)| a + i + 1);
        let tail: Vec<usize> = self.lines[first + gone..]
            .iter()
            .map(|&s| (s as isize + delta) as usize)
            .collect();
        self.lines.truncate(first);
        self.lines.extend(added);
        self.lines.extend(tail);
    }

    /// A random offset on a character boundary, never between the CR and
    /// LF of a line break (no LSP position addresses it).
    fn offset(&self, rng: &mut Rng, near: Option<usize>) -> usize {
        let b = self.text.as_bytes();
        let mut o = match near {
            Some(a) => {
                let span = if rng.chance(0.05) { 300 } else { 13 };
                (a + rng.below(span)).min(b.len())
            }
            None => rng.below(b.len() + 1),
        };
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        if o > 0 && b[o - 1] == b'\r' && b.get(o) == Some(&b'\n') {
            o -= 1;
        }
        o
    }
}

/// What is inserted: ASCII, PBN syntax, line breaks, and characters of 2,
/// 3 and 4 UTF-8 bytes (one and two UTF-16 units). None ends with a CR.
const PIECES: &[&str] = &[
    "a",
    "Z",
    "7",
    "0",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\n\n",
    "[",
    "]",
    "\"",
    "{",
    "}",
    ";",
    "%",
    "$",
    "$12",
    "=1=",
    "^I",
    "*",
    "-",
    "+",
    "Pass ",
    "1NT ",
    "X ",
    "XX ",
    "AP",
    "SA ",
    "HK ",
    "[Note \"1:x\"]\n",
    "[Board \"",
    "\"]\n",
    "é",
    "ü",
    "ß",
    "♠",
    "♥",
    "♦",
    "♣",
    "中文",
    "𝄞",
    "😀",
    "a𝄞b",
    "é\r\n♠",
    "𝄞\n",
    "\\\"",
    "\u{feff}",
    "\u{200b}",
];

/// One random change, applied to the client's copy; its JSON.
fn random_change(t: &mut Text, rng: &mut Rng) -> Value {
    let a = t.offset(rng, None);
    let kind = rng.below(10);
    let b = if kind < 4 { a } else { t.offset(rng, Some(a)) };
    let new = if (4..7).contains(&kind) {
        ""
    } else {
        *rng.pick(PIECES)
    };
    let range = json!({"start": t.position(a), "end": t.position(b)});
    t.replace(a, b, new);
    json!({"range": range, "text": new})
}

fn spawn() -> LspClient {
    let mut c = LspClient::spawn();
    c.timeout = Duration::from_secs(900);
    // No `positionEncodings`: a default client, UTF-16.
    let init = c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    assert_eq!(
        init["result"]["capabilities"]["positionEncoding"], "utf-16",
        "{init}"
    );
    c.notify("initialized", json!({}));
    c
}

/// The diagnostics as comparable tuples.
fn diag_keys(diags: &[Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            format!(
                "{} {} {} {}",
                d["code"], d["range"], d["severity"], d["message"]
            )
        })
        .collect()
}

/// Everything compared between the stormed and the fresh server.
fn answers(c: &mut LspClient) -> Vec<(&'static str, Value)> {
    let doc = json!({"uri": URI});
    let mut out = Vec::new();
    for (name, method, params) in [
        (
            "documentSymbol",
            "textDocument/documentSymbol",
            json!({"textDocument": doc}),
        ),
        (
            "foldingRange",
            "textDocument/foldingRange",
            json!({"textDocument": doc}),
        ),
        (
            "semanticTokens",
            "textDocument/semanticTokens/full",
            json!({"textDocument": doc}),
        ),
        (
            "formatting",
            "textDocument/formatting",
            json!({"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": true}}),
        ),
    ] {
        let r = c.request(method, params);
        assert!(r.get("error").is_none(), "{name}: {r}");
        out.push((name, r["result"].clone()));
    }
    out
}

fn storm(games: usize, edits: usize, notifications: usize, seed: u64) {
    let started = Instant::now();
    let mut rng = Rng::new(seed);
    let mut t = Text::new(generate(games, seed, &GenOptions::default()));
    let mut c = spawn();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": t.text}}),
    );
    let opened = c.diagnostics(URI, 1);
    eprintln!(
        "opened {} games, {} bytes, {} diagnostics in {:.1?}",
        games,
        t.text.len(),
        opened.len(),
        started.elapsed()
    );

    // Split `edits` changes into `notifications` didChange messages: each
    // gets at least one, the rest are spread at random.
    let notifications = notifications.clamp(1, edits.max(1));
    let mut per = vec![1usize; notifications];
    for _ in notifications..edits {
        per[rng.below(notifications)] += 1;
    }
    let burst = Instant::now();
    let mut version = 1;
    let (mut non_ascii, mut astral) = (0, 0);
    for n in per {
        version += 1;
        let changes: Vec<Value> = (0..n).map(|_| random_change(&mut t, &mut rng)).collect();
        for ch in &changes {
            let s = ch["text"].as_str().unwrap_or_default();
            non_ascii += usize::from(!s.is_ascii());
            astral += usize::from(s.chars().any(|c| c as u32 > 0xFFFF));
        }
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": changes}),
        );
    }
    eprintln!(
        "sent {edits} edits ({non_ascii} with non-ASCII text, {astral} with non-BMP characters) in {notifications} didChange \
         notifications in {:.1?}; final text {} bytes",
        burst.elapsed(),
        t.text.len()
    );

    // The diagnostics of the last version (none is published for a version
    // that a newer one replaced before the debounce ran out).
    let stormed_diags = c.diagnostics(URI, version);
    eprintln!(
        "diagnostics of version {version} after {:.1?} ({} diagnostics)",
        burst.elapsed(),
        stormed_diags.len()
    );
    let stormed = answers(&mut c);

    // A fresh server opening the client's final text.
    let fresh_start = Instant::now();
    let mut f = spawn();
    f.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": t.text}}),
    );
    let fresh_diags = f.diagnostics(URI, 1);
    let fresh = answers(&mut f);
    eprintln!("fresh server: {:.1?}", fresh_start.elapsed());

    assert_eq!(
        diag_keys(&stormed_diags),
        diag_keys(&fresh_diags),
        "diagnostics differ from a fresh open of the final text"
    );
    for ((name, a), (_, b)) in stormed.iter().zip(&fresh) {
        assert!(a == b, "{name} differs from a fresh open of the final text");
    }
    // The formatting edits (one per game that changes) lie inside the
    // client's text: the server's document is not longer than it.
    let end = t.position(t.text.len());
    if let Some(edits) = stormed
        .iter()
        .find(|(n, _)| *n == "formatting")
        .and_then(|(_, v)| v.as_array().cloned())
    {
        for edit in edits {
            let e = &edit["range"]["end"];
            let key = |p: &Value| (p["line"].as_u64(), p["character"].as_u64());
            assert!(
                key(e) <= key(&end),
                "a formatting edit ends at {e} after the client's text ({end})"
            );
        }
    }
    let exiting = Instant::now();
    assert_eq!(
        c.shutdown(),
        Some(0),
        "the stormed server shuts down cleanly"
    );
    eprintln!("stormed server exited in {:.1?}", exiting.elapsed());
    let exiting = Instant::now();
    assert_eq!(f.shutdown(), Some(0));
    eprintln!("fresh server exited in {:.1?}", exiting.elapsed());
    eprintln!("total {:.1?}", started.elapsed());
}

#[test]
fn a_burst_of_10000_random_edits_leaves_the_server_equal_to_a_fresh_open() {
    let games = env_or("PBN_STRESS_GAMES", 1_000) as usize;
    let edits = env_or("PBN_STRESS_EDITS", 10_000) as usize;
    let notifications = env_or("PBN_STRESS_NOTIFICATIONS", 200) as usize;
    storm(games, edits, notifications, env_or("PBN_STRESS_SEED", 7));
}

/// One edit per `didChange`, as an editor sends keystrokes: 10,000
/// notifications in one burst.
#[test]
fn a_burst_of_10000_single_edit_notifications() {
    let games = env_or("PBN_STRESS_GAMES", 1_000) as usize;
    let edits = env_or("PBN_STRESS_EDITS", 10_000) as usize;
    storm(games, edits, edits, env_or("PBN_STRESS_SEED", 7));
}

#[test]
fn the_client_copy_tracks_lines_and_utf16_columns() {
    let mut t = Text::new("ab\r\ncd\n𝄞x\n".into());
    assert_eq!(
        t.position(t.text.find('x').unwrap()),
        json!({"line": 2, "character": 2})
    );
    t.replace(1, 5, "é\n\n");
    assert_eq!(t.text, "aé\n\nd\n𝄞x\n");
    assert_eq!(t.lines, vec![0, 4, 5, 7, 13]);
    assert_eq!(
        t.position(t.text.find('d').unwrap()),
        json!({"line": 2, "character": 0})
    );
    let mut rng = Rng::new(1);
    for _ in 0..2_000 {
        let _ = random_change(&mut t, &mut rng);
        let fresh = Text::new(t.text.clone());
        assert_eq!(t.lines, fresh.lines, "{:?}", t.text);
        assert!(
            !t.text
                .as_bytes()
                .windows(2)
                .any(|w| w[0] == b'\r' && w[1] != b'\n'),
            "no lone CR"
        );
    }
}
