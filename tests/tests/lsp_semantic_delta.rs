//! `textDocument/semanticTokens/full/delta` (LSP 3.16) over stdio: after
//! random edits of a corpus file, the edits a delta request returns,
//! applied to the tokens of the previous answer, are the tokens of a fresh
//! full request; an edit is no larger than the tokens that changed; an
//! unknown previous result id gets the whole tokens.

use pbn_tests::lsp_client::LspClient;
use serde_json::{json, Value};

const FILE: &str = "pbn-to-pdf/Precision 1C Auctions with Notes.pbn";
const URI: &str = "file:///tmp/pbn-delta/notes.pbn";

/// xorshift64*: reproducible edits without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The UTF-8 position of byte `at` (the client negotiates UTF-8).
fn position(text: &str, at: usize) -> Value {
    let line = text[..at].matches('\n').count();
    let character = at - text[..at].rfind('\n').map_or(0, |n| n + 1);
    json!({"line": line, "character": character})
}

fn ints(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("an array of integers")
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

fn full(c: &mut LspClient) -> (String, Vec<u64>) {
    let r = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": URI}}),
    );
    let result = &r["result"];
    (
        result["resultId"].as_str().expect("a result id").to_owned(),
        ints(&result["data"]),
    )
}

#[test]
fn delta_edits_rebuild_the_full_tokens_after_random_edits() {
    let Some(dir) = pbn_tests::corpus::corpus_dir() else {
        return;
    };
    let mut text = std::fs::read_to_string(dir.join(FILE)).expect("a UTF-8 corpus file");
    let mut c = LspClient::spawn();
    let init = c.initialize(&["utf-8"]);
    assert_eq!(
        init["result"]["capabilities"]["semanticTokensProvider"]["full"],
        json!({"delta": true})
    );
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "pbn", "version": 1, "text": text}}),
    );
    let (mut id, mut data) = full(&mut c);
    assert!(data.len() > 1000, "{} integers", data.len());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    const INSERTS: [&str; 9] = ["1", " ", "\n", "[", "\"", "x", "{", "}", "S"];
    for version in 2..=41 {
        // An insertion or a deletion of up to 6 bytes, on char boundaries.
        let mut at = rng.below(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let (end, new) = if rng.below(2) == 0 {
            (at, INSERTS[rng.below(INSERTS.len())])
        } else {
            let mut end = (at + 1 + rng.below(6)).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            (end, "")
        };
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [
                {"range": {"start": position(&text, at), "end": position(&text, end)}, "text": new}
            ]}),
        );
        text.replace_range(at..end, new);
        let r = c.request(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": {"uri": URI}, "previousResultId": id}),
        );
        let result = &r["result"];
        let edits = result["edits"].as_array().expect("a delta").clone();
        let mut applied = data.clone();
        // Edits apply to the old data; sorted, the last first.
        let mut edits: Vec<(usize, usize, Vec<u64>)> = edits
            .iter()
            .map(|e| {
                (
                    e["start"].as_u64().unwrap() as usize,
                    e["deleteCount"].as_u64().unwrap() as usize,
                    e.get("data").map(ints).unwrap_or_default(),
                )
            })
            .collect();
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (start, delete, new) in &edits {
            assert_eq!(start % 5, 0, "whole tokens");
            assert_eq!(delete % 5, 0, "whole tokens");
            applied.splice(start..&(start + delete), new.iter().copied());
        }
        let (fresh_id, fresh) = full(&mut c);
        assert_eq!(applied, fresh, "version {version}: {new:?} at {at}..{end}");
        // As small as the changed tokens: from the first token that
        // differs to the last.
        let first = data
            .chunks(5)
            .zip(fresh.chunks(5))
            .take_while(|(a, b)| a == b)
            .count();
        let last = data[5 * first..]
            .rchunks(5)
            .zip(fresh[5 * first..].rchunks(5))
            .take_while(|(a, b)| a == b)
            .count();
        match edits.as_slice() {
            [] => assert_eq!(data, fresh, "version {version}: no edit, no change"),
            [(start, delete, new)] => {
                assert_eq!(*start, 5 * first, "version {version}");
                assert_eq!(start + delete, data.len() - 5 * last, "version {version}");
                assert_eq!(new.len(), fresh.len() - 5 * first - 5 * last);
            }
            more => panic!("one edit: {more:?}"),
        }
        // A delta chain: every other step from the delta's own result.
        if version % 2 == 0 {
            id = fresh_id;
        } else {
            let r = c.request(
                "textDocument/semanticTokens/full/delta",
                json!({"textDocument": {"uri": URI}, "previousResultId": fresh_id}),
            );
            assert_eq!(r["result"]["edits"], json!([]), "no change since");
            id = r["result"]["resultId"].as_str().unwrap().to_owned();
        }
        data = fresh;
    }
    // An id that is not the latest: the whole tokens.
    let r = c.request(
        "textDocument/semanticTokens/full/delta",
        json!({"textDocument": {"uri": URI}, "previousResultId": "stale"}),
    );
    assert_eq!(ints(&r["result"]["data"]), data);
    assert!(r["result"]["resultId"].is_string());
    c.shutdown();
}
