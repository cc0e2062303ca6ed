//! LIN's `key|value|` pairs, and where a board starts among them.

use crate::codes::Severity;
use crate::convert::ReadDiagnostic;
use std::ops::Range;

/// One `key|value|` pair of the input.
#[derive(Debug)]
pub(super) struct Pair<'a> {
    /// Lowercase key; `%` for a `%` comment line \[bridgedata].
    pub(super) key: String,
    pub(super) key_range: Range<usize>,
    pub(super) value: &'a str,
    pub(super) value_range: Range<usize>,
}

pub(super) fn diag(
    severity: Severity,
    range: Range<usize>,
    message: impl Into<String>,
) -> ReadDiagnostic {
    ReadDiagnostic::new(severity, range, message)
}

/// Splits the input into pairs. Whitespace between pairs is ignored (BBO
/// files break lines between boards \[forum-19814]).
pub(super) fn pairs<'a>(input: &'a str, diags: &mut Vec<ReadDiagnostic>) -> Vec<Pair<'a>> {
    let b = input.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // `%` at the start of a line: a comment line [bridgedata].
        if b[i] == b'%' && (i == 0 || b[i - 1] == b'\n') {
            let end = input[i..].find('\n').map_or(b.len(), |n| i + n);
            out.push(Pair {
                key: "%".into(),
                key_range: i..i + 1,
                value: input[i + 1..end].trim_end_matches('\r'),
                value_range: i + 1..end,
            });
            i = end;
            continue;
        }
        let Some(bar) = input[i..].find('|').map(|n| i + n) else {
            diags.push(diag(
                Severity::Error,
                i..b.len(),
                format!(
                    "expected a LIN pair `xx|value|`, found `{}` without `|`",
                    clip(&input[i..])
                ),
            ));
            break;
        };
        let key = &input[i..bar];
        if key.len() != 2 || !key.bytes().all(|c| c.is_ascii_alphabetic()) {
            // Odd pipes or a stray value: skip to the next pipe and resync.
            diags.push(diag(
                Severity::Error,
                i..bar,
                format!(
                    "expected a two-letter LIN key before `|`, found `{}`",
                    clip(key)
                ),
            ));
            i = bar + 1;
            continue;
        }
        let start = bar + 1;
        let end = match input[start..].find('|') {
            Some(n) => start + n,
            None => {
                diags.push(diag(
                    Severity::Error,
                    i..b.len(),
                    format!("the value of `{key}|` is not closed: expected `|`"),
                ));
                b.len()
            }
        };
        out.push(Pair {
            key: key.to_ascii_lowercase(),
            key_range: i..bar,
            value: &input[start..end],
            value_range: start..end,
        });
        i = end + 1;
    }
    out
}

/// At most 20 characters of `s`, for messages.
pub(super) fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(20).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t.replace('\n', "\\n")
}

/// The LIN keys that place a board: the header pairs `vg qx pn md sv ah`,
/// then the auction and the play `mb an pc mc`.
const BOARD_KEYS: [&str; 10] = ["vg", "qx", "pn", "md", "sv", "ah", "mb", "an", "pc", "mc"];

/// A set of [`BOARD_KEYS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Seen(u16);

impl Seen {
    fn bit(key: &str) -> u16 {
        BOARD_KEYS
            .iter()
            .position(|k| *k == key)
            .map_or(0, |i| 1 << i)
    }

    pub(super) fn insert(&mut self, key: &str) {
        self.0 |= Seen::bit(key);
    }

    fn any(self, keys: &[&str]) -> bool {
        keys.iter().any(|k| self.0 & Seen::bit(k) != 0)
    }

    /// Something of a board besides `vg` (which the boards after share).
    pub(super) fn has_board(self) -> bool {
        self.0 & !Seen::bit("vg") != 0
    }
}

/// Whether a `key` pair starts the next board after the pairs `seen` of
/// the current one; the reader and the writer's check both ask it. LIN has
/// no board separator: a board starts at `qx` \[bridgedata] or `vg`. BBO
/// writes each board's header pairs before its auction and play (`qx pn st
/// md rh ah sv` \[forum-19814], `qx md rh ah sv` \[forum-85366]), but other
/// writers and hand edits put `ah`, `sv` or `pn` before or after `md`, so
/// the header pairs may come in any order: only a header pair repeated
/// within the board, or one after the auction or play has started, starts
/// the next board; so does a call after the play.
pub(super) fn starts_board(key: &str, seen: Seen) -> bool {
    let content = seen.any(&["md", "sv", "ah", "mb", "pc", "mc"]);
    let play = seen.any(&["mb", "an", "pc", "mc"]);
    match key {
        "vg" => content,
        "qx" => content || seen.any(&["qx"]),
        "pn" | "md" | "sv" | "ah" => play || seen.any(&[key]),
        "mb" => seen.any(&["pc", "mc"]),
        _ => false,
    }
}
