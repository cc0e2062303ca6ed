//! The language server ends cleanly while the double-dummy solver works:
//! `shutdown` then `exit` (status 0), `exit` alone or a closed input
//! (status 1), many times over, each in the middle of a long solve (a
//! document of many games with `check.dd` on, background solving on, and
//! hovers queued). A server killed by a signal (SIGABRT, a stack
//! overflow) has no status, and one that hangs is killed: both fail.

use pbn_tests::gen::{generate, GenOptions};
use pbn_tests::lsp_client::LspClient;
use serde_json::json;
use std::time::{Duration, Instant};

const ROUNDS: usize = 21;

#[derive(Clone, Copy, Debug)]
enum End {
    ShutdownExit,
    Exit,
    CloseInput,
}

#[test]
fn every_ending_in_the_middle_of_a_long_solve_is_clean() {
    let text = generate(150, 57, &GenOptions::clean());
    assert!(text.matches("[Deal ").count() >= 100);
    let uri = "file:///tmp/pbn-lsp-dd-exit/many.pbn";
    let ends = [End::ShutdownExit, End::Exit, End::CloseInput];
    for round in 0..ROUNDS {
        let end = ends[round % ends.len()];
        let mut c = LspClient::spawn();
        c.initialize(&["utf-16"]);
        c.notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"pbn": {"check": {"dd": true}}}}),
        );
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": 1, "text": text}}),
        );
        // Hovers on the first Deal lines queue solves ahead of the
        // diagnostics' (which wait for every game's deal).
        let deal_lines: Vec<usize> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.starts_with("[Deal "))
            .map(|(i, _)| i)
            .take(3)
            .collect();
        let mut solving = false;
        for line in deal_lines {
            let h = c.request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 10}}),
            );
            solving |= h["result"]["contents"]["value"]
                .as_str()
                .is_some_and(|md| md.contains("solving"));
        }
        assert!(solving, "round {round}: no solve was under way");
        // Vary the moment: at once, or some milliseconds into the solving.
        std::thread::sleep(Duration::from_millis((round as u64 * 37) % 300));
        let start = Instant::now();
        let (status, want) = match end {
            End::ShutdownExit => (c.shutdown(), 0),
            End::Exit => {
                c.notify("exit", json!(null));
                (c.wait_exit(), 1)
            }
            End::CloseInput => {
                c.close_stdin();
                (c.wait_exit(), 1)
            }
        };
        assert_eq!(
            status,
            Some(want),
            "round {round} ({end:?}): the server ended with {status:?} after {:?} (None: killed by a signal, or hung)",
            start.elapsed()
        );
    }
}
