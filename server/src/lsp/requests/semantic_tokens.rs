//! `textDocument/semanticTokens/full` and `/range`: the captures of tree-sitter-pbn's
//! highlights query (`queries/highlights.scm`, the one Neovim, Helix and Zed
//! use) turned into LSP semantic tokens, so that every LSP client colours PBN
//! the same way.
//!
//! Capture names map to the standard token types of the legend (the first
//! component decides unless a longer name is listed):
//!
//! | capture                 | PBN                               | token type               |
//! |-------------------------|-----------------------------------|--------------------------|
//! | `keyword`               | `Auction`, `Play`, `Note` names   | `keyword`                |
//! | `keyword.directive`     | `%` escape lines (§2.4)           | `macro`                  |
//! | `keyword.exception`     | `^I` `^S` `^R` `^L` (§3.9)        | `modifier`               |
//! | `property`              | other tag names                   | `property`               |
//! | `string`                | tag values, quoted section data   | `string`                 |
//! | `string.special`        | section tokens (§5)               | `string`                 |
//! | `comment`               | `{…}` and `;` comments (§3.8)     | `comment`                |
//! | `number`                | bids (`1NT`), NAGs (`$3`)         | `number`                 |
//! | `constant`              | cards (`SA`)                      | `enumMember`             |
//! | `constant.builtin`      | `Pass`, `AP`                      | `enumMember` + `defaultLibrary` |
//! | `operator`              | `X`, `XX`, suffixes (`!?`)        | `operator`               |
//! | `label`                 | note references (`=1=`)           | `decorator`              |
//! | `punctuation.*`         | `[` `]`, `-`, `*`, `+`            | `operator`               |
//! | `error`                 | invalid calls/cards, unterminated strings | (none: diagnostics show them) |
//!
//! When several patterns capture the same node (`Auction` is both a
//! `@property` and a `@keyword`), the last pattern of the query wins, as in
//! Neovim and Helix (the query lists the specific patterns last).
//! A `section_token` node covers a run of section tokens (a table row, §5);
//! it gives one semantic token per §3.2 token, as if each were a node. A
//! `cards` node covers a run of card tokens (§3.6.1): each card gives a
//! `constant` token, each `-` a `punctuation` one, and a token that is not a
//! card none (the checker's diagnostic marks it), as one leaf per card did.
//! Tokens are delta-encoded in the negotiated position encoding; a token that
//! spans lines (a brace comment) is split into one token per line, since LSP
//! tokens may not span lines unless the client says so.
//!
//! The server keeps no tree of the whole document: the full request parses
//! it piece by piece on every core (and stops when a newer version
//! arrives); the range request, which clients send for the visible part of
//! a large document, parses only the pieces the range touches.
//!
//! `full` answers carry a result id; `full/delta` (LSP 3.16) answers the
//! tokens that changed since the answer of that id ([`delta`]: one edit,
//! from the first token that differs to the last), or all of them when the
//! id is not the document's latest ([`Results`] keeps one per document).

use crate::lsp::snapshot::Snapshot;
use pbn_core::syntax::highlight;
use std::sync::Arc;
use tower_lsp_server::ls_types::*;
use tree_sitter::QueryCursor;

/// The token types of the legend, in legend order.
pub const TOKEN_TYPES: [SemanticTokenType; 10] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::MACRO,
    SemanticTokenType::MODIFIER,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::STRING,
    SemanticTokenType::COMMENT,
    SemanticTokenType::NUMBER,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::DECORATOR,
];

/// The token modifiers of the legend (bit 0: `defaultLibrary`).
pub const TOKEN_MODIFIERS: [SemanticTokenModifier; 1] = [SemanticTokenModifier::DEFAULT_LIBRARY];

const DEFAULT_LIBRARY: u32 = 1;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TOKEN_TYPES.to_vec(),
        token_modifiers: TOKEN_MODIFIERS.to_vec(),
    }
}

pub fn register(caps: &mut ServerCapabilities) {
    caps.semantic_tokens_provider = Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
        SemanticTokensOptions {
            work_done_progress_options: WorkDoneProgressOptions::default(),
            legend: legend(),
            range: Some(true),
            full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
        },
    ));
}

/// The legend index and modifier bits of a capture name; `None` for
/// captures that get no token.
fn token_of(capture: &str) -> Option<(u32, u32)> {
    let index = |t: &SemanticTokenType| TOKEN_TYPES.iter().position(|x| x == t).map(|i| i as u32);
    let (ty, mods) = match capture {
        "keyword.directive" => (SemanticTokenType::MACRO, 0),
        "keyword.exception" => (SemanticTokenType::MODIFIER, 0),
        "constant.builtin" => (SemanticTokenType::ENUM_MEMBER, DEFAULT_LIBRARY),
        "label" => (SemanticTokenType::DECORATOR, 0),
        "error" => return None,
        _ => match capture.split('.').next().unwrap_or("") {
            "keyword" => (SemanticTokenType::KEYWORD, 0),
            "property" => (SemanticTokenType::PROPERTY, 0),
            "string" => (SemanticTokenType::STRING, 0),
            "comment" => (SemanticTokenType::COMMENT, 0),
            "number" => (SemanticTokenType::NUMBER, 0),
            "constant" => (SemanticTokenType::ENUM_MEMBER, 0),
            "operator" | "punctuation" => (SemanticTokenType::OPERATOR, 0),
            _ => return None,
        },
    };
    Some((index(&ty)?, mods))
}

/// One highlighted byte range (before splitting into lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
    pattern: usize,
    ty: u32,
    mods: u32,
}

impl Span {
    /// `r` as the token type and modifiers `(ty, mods)`, from query pattern
    /// `pattern`.
    fn new(r: std::ops::Range<usize>, pattern: usize, (ty, mods): (u32, u32)) -> Span {
        Span {
            start: r.start,
            end: r.end,
            pattern,
            ty,
            mods,
        }
    }
}

/// The highlighted ranges of the document (of the pieces that `range`
/// touches, when given), piece by piece in order, each piece's in order and
/// without overlaps (no token crosses a piece's end: pieces are cut at game
/// breaks outside comments), given to `f` a few pieces at a time so that
/// the ranges of the whole document are never held at once; `false` when
/// the snapshot became stale.
fn for_each_span_batch(
    snap: &Snapshot,
    range: Option<std::ops::Range<usize>>,
    mut f: impl FnMut(Vec<Span>),
) -> bool {
    let text = snap.source.text.as_str();
    // Piece by piece on every core, each piece's trees dropped after it
    // (the server keeps no tree of the whole document).
    let pieces: Vec<usize> = match &range {
        None => (0..snap.forest.len()).collect(),
        Some(r) => (snap.forest.piece_at(r.start)..=snap.forest.piece_at(r.end)).collect(),
    };
    for batch in snap.forest.batches(&pieces) {
        let batch = &batch[..];
        if snap.is_stale() {
            return false;
        }
        let per_piece = pbn_core::par::map(batch, |&p| {
            let mut cursor = QueryCursor::new();
            let mut all = Vec::new();
            let trees = if range.is_some() {
                snap.forest.piece_trees(p, text)
            } else {
                snap.forest.piece_trees_uncached(p, text)
            };
            for tree in trees.iter() {
                highlight::captures(tree, text, &mut cursor, token_of, &mut all);
            }
            highlight::without_overlaps(all)
                .into_iter()
                .map(|h| Span::new(h.range, h.pattern, h.value))
                .collect::<Vec<Span>>()
        });
        per_piece.into_iter().for_each(&mut f);
    }
    true
}

/// The semantic tokens of the whole document.
pub fn tokens(snap: &Snapshot) -> Vec<SemanticToken> {
    tokens_in(snap, None).unwrap_or_default()
}

/// The semantic tokens of the whole document, or of the lines that the
/// byte range `range` touches (delta-encoded from the document's start
/// either way, as LSP wants); `None` when the snapshot became stale.
fn tokens_in(snap: &Snapshot, range: Option<std::ops::Range<usize>>) -> Option<Vec<SemanticToken>> {
    let conv = snap.converter();
    let mut data = Vec::new();
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    let lines = range
        .as_ref()
        .map(|r| snap.index.line_of(r.start)..=snap.index.line_of(r.end));
    let done = for_each_span_batch(snap, range.clone(), |spans| {
        for s in spans {
            let first = snap.index.line_of(s.start);
            let last = snap.index.line_of(s.end);
            for line in first..=last {
                let lr = snap.index.line_range(&snap.source.text, line);
                let start = s.start.max(lr.start);
                let end = s.end.min(lr.end);
                if start >= end {
                    continue;
                }
                let a = conv.position(start);
                let b = conv.position(end);
                if b.line != a.line
                    || b.character <= a.character
                    || lines.as_ref().is_some_and(|l| !l.contains(&line))
                {
                    continue;
                }
                let delta_line = a.line - prev_line;
                let delta_start = if delta_line == 0 {
                    a.character - prev_col
                } else {
                    a.character
                };
                data.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: b.character - a.character,
                    token_type: s.ty,
                    token_modifiers_bitset: s.mods,
                });
                prev_line = a.line;
                prev_col = a.character;
            }
        }
    });
    done.then_some(data)
}

/// An answer's result id and tokens.
type Answer = (String, Arc<Vec<SemanticToken>>);

/// The last full answer of each document, for the next delta request.
#[derive(Default)]
pub struct Results {
    docs: std::sync::Mutex<std::collections::HashMap<Uri, Answer>>,
    next: std::sync::atomic::AtomicU64,
}

impl Results {
    /// Keeps `data` as the latest answer for `uri`; returns its result id.
    fn keep(&self, uri: &Uri, data: Arc<Vec<SemanticToken>>) -> String {
        let id = self
            .next
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .to_string();
        self.docs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(uri.clone(), (id.clone(), data));
        id
    }

    /// The tokens of the answer `id` for `uri`, if it is the latest.
    fn get(&self, uri: &Uri, id: &str) -> Option<Arc<Vec<SemanticToken>>> {
        let docs = self.docs.lock().unwrap_or_else(|e| e.into_inner());
        docs.get(uri)
            .filter(|(kept, _)| kept == id)
            .map(|(_, d)| d.clone())
    }

    /// Forgets a closed document's tokens.
    pub fn forget(&self, uri: &Uri) {
        self.docs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(uri);
    }
}

pub fn full(
    snap: &Snapshot,
    results: &Results,
    _params: SemanticTokensParams,
) -> Option<SemanticTokensResult> {
    let data = Arc::new(tokens_in(snap, None)?);
    let id = results.keep(&snap.uri, data.clone());
    Some(SemanticTokensResult::Tokens(SemanticTokens {
        result_id: Some(id),
        data: Arc::unwrap_or_clone(data),
    }))
}

/// `full/delta`: the edits from the answer `previous_result_id` to the
/// current tokens, or the whole tokens when that answer is not kept.
pub fn full_delta(
    snap: &Snapshot,
    results: &Results,
    params: SemanticTokensDeltaParams,
) -> Option<SemanticTokensFullDeltaResult> {
    let old = results.get(&snap.uri, &params.previous_result_id);
    let data = Arc::new(tokens_in(snap, None)?);
    let id = results.keep(&snap.uri, data.clone());
    Some(match old {
        Some(old) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
            result_id: Some(id),
            edits: delta(&old, &data),
        }),
        None => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
            result_id: Some(id),
            data: Arc::unwrap_or_clone(data),
        }),
    })
}

/// The edit that turns `old` into `new`: the tokens between their common
/// prefix and common suffix (none when they are equal). `start` and
/// `deleteCount` count integers, five per token, as LSP has them.
pub fn delta(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let deleted = old.len() - prefix - suffix;
    let inserted = &new[prefix..new.len() - suffix];
    if deleted == 0 && inserted.is_empty() {
        return Vec::new();
    }
    vec![SemanticTokensEdit {
        start: 5 * prefix as u32,
        delete_count: 5 * deleted as u32,
        data: Some(inserted.to_vec()),
    }]
}

/// The tokens of the lines the range touches: a client asks for the
/// visible part of a large document so.
pub fn range(
    snap: &Snapshot,
    params: SemanticTokensRangeParams,
) -> Option<SemanticTokensRangeResult> {
    let r = snap.converter().byte_range(params.range);
    Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
        result_id: None,
        data: tokens_in(snap, Some(r))?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::snapshot::Snapshot;
    use crate::lsp::state::Settings;
    use pbn_core::text::PositionEncoding;

    fn snapshot(text: &str, encoding: PositionEncoding) -> Snapshot {
        let settings = Settings {
            encoding,
            ..Settings::default()
        };
        Snapshot::new(
            "file:///t.pbn".parse::<Uri>().unwrap(),
            1,
            text.to_string(),
            settings,
        )
    }

    /// Decodes the tokens into `line:col len type[+mods] "text"` lines.
    fn decode(snap: &Snapshot, data: &[SemanticToken]) -> String {
        let conv = snap.converter();
        let (mut line, mut col) = (0u32, 0u32);
        let mut out = String::new();
        for t in data {
            if t.delta_line > 0 {
                line += t.delta_line;
                col = t.delta_start;
            } else {
                col += t.delta_start;
            }
            let start = conv.offset(Position {
                line,
                character: col,
            });
            let end = conv.offset(Position {
                line,
                character: col + t.length,
            });
            let ty = TOKEN_TYPES[t.token_type as usize].as_str().to_owned();
            let mods = if t.token_modifiers_bitset & DEFAULT_LIBRARY != 0 {
                "+defaultLibrary"
            } else {
                ""
            };
            out.push_str(&format!(
                "{line}:{col} {} {ty}{mods} {:?}\n",
                t.length,
                &snap.source.text[start..end]
            ));
        }
        out
    }

    const DOC: &str = "% PBN 2.1\n[Event \"Café 𝄞\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1NT ! =1= X XX $3\nPass AP\n[Note \"1:15-17\"]\n{ a comment\n  over é two lines } ; tail\n[Play \"E\"]\nSA - ^R HK *\n[ScoreTable \"Rank\\2R;Names\"]\n1 \"Ann\"\n";

    fn run(encoding: PositionEncoding) -> String {
        let snap = snapshot(DOC, encoding);
        let Some(SemanticTokensResult::Tokens(t)) = full(
            &snap,
            &Results::default(),
            SemanticTokensParams {
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
                text_document: TextDocumentIdentifier {
                    uri: snap.uri.clone(),
                },
            },
        ) else {
            panic!("tokens")
        };
        decode(&snap, &t.data)
    }

    #[test]
    fn tokens_utf16() {
        insta::assert_snapshot!(run(PositionEncoding::Utf16));
    }

    #[test]
    fn utf8_lengths_differ_only_for_non_ascii() {
        let u16 = run(PositionEncoding::Utf16);
        let u8 = run(PositionEncoding::Utf8);
        // `"Café 𝄞"`: 9 UTF-16 units (é is 1, 𝄞 is 2), 12 UTF-8 bytes.
        assert!(u16.contains("1:7 9 string \"\\\"Café 𝄞\\\"\""), "{u16}");
        assert!(u8.contains("1:7 12 string \"\\\"Café 𝄞\\\"\""), "{u8}");
        // The second line of the comment: `  over é two lines }` from col 0.
        assert!(u16.contains("8:0 20 comment"), "{u16}");
        assert!(u8.contains("8:0 21 comment"), "{u8}");
    }

    #[test]
    fn no_token_spans_lines_and_legend_is_complete() {
        let snap = snapshot(DOC, PositionEncoding::Utf16);
        let data = tokens(&snap);
        assert!(!data.is_empty());
        for t in &data {
            assert!(t.length > 0);
            assert!((t.token_type as usize) < TOKEN_TYPES.len());
        }
        // Every capture name of the query has a decision.
        for name in highlight::query().capture_names() {
            if *name != "error" {
                assert!(token_of(name).is_some(), "unmapped capture {name}");
            }
        }
        let mut caps = ServerCapabilities::default();
        register(&mut caps);
        assert!(caps.semantic_tokens_provider.is_some());
    }

    /// The decoded tokens of `text` after its first line's tag pair (its
    /// four tokens).
    fn after_tag(text: &str) -> Vec<String> {
        let snap = snapshot(text, PositionEncoding::Utf16);
        decode(&snap, &tokens(&snap))
            .lines()
            .skip(4)
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn one_token_per_cell_of_a_table_row() {
        // A row of cells is one `section_token` node (§5); its semantic
        // tokens are the cells, not the spaces between them.
        let rows = after_tag("[ScoreTable \"Rank;Names;Score\"]\n 1  \"A B\" 12\t-3 ; c\n");
        assert_eq!(
            rows,
            [
                "1:1 1 string \"1\"",
                "1:4 5 string \"\\\"A B\\\"\"",
                "1:10 2 string \"12\"",
                "1:13 2 string \"-3\"",
                "1:16 3 comment \"; c\""
            ]
        );
    }

    #[test]
    fn one_token_per_card_of_a_run() {
        // The cards of a line are one `cards` node (§3.6.1): a card is an
        // enumMember, `-` an operator, a token that is not a card gets none
        // (its diagnostic marks it), as with one leaf per card.
        let rows = after_tag("[Play \"W\"]\nSA  s2\t- SKX =1= D3\n");
        assert_eq!(
            rows,
            [
                "1:0 2 enumMember \"SA\"",
                "1:4 2 enumMember \"s2\"",
                "1:7 1 operator \"-\"",
                "1:13 3 decorator \"=1=\"",
                "1:17 2 enumMember \"D3\""
            ]
        );
    }

    #[test]
    fn one_token_per_call_of_a_run() {
        // The calls of a line are one `calls` node (§3.5.1): each call gets
        // its kind's token, a token that is not a call none (its diagnostic
        // marks it), as with one leaf per call.
        let rows = after_tag("[Auction \"N\"]\n1C  pass\tX xx AP - 1NTX =1= 7nt\n");
        assert_eq!(
            rows,
            [
                "1:0 2 number \"1C\"",
                "1:4 4 enumMember+defaultLibrary \"pass\"",
                "1:9 1 operator \"X\"",
                "1:11 2 operator \"xx\"",
                "1:14 2 enumMember+defaultLibrary \"AP\"",
                "1:17 1 operator \"-\"",
                "1:24 3 decorator \"=1=\"",
                "1:28 3 number \"7nt\""
            ]
        );
    }

    fn range_tokens(snap: &Snapshot, lines: std::ops::Range<u32>) -> String {
        let Some(SemanticTokensRangeResult::Tokens(t)) = range(
            snap,
            SemanticTokensRangeParams {
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
                text_document: TextDocumentIdentifier {
                    uri: snap.uri.clone(),
                },
                range: Range {
                    start: Position {
                        line: lines.start,
                        character: 0,
                    },
                    end: Position {
                        line: lines.end,
                        character: 0,
                    },
                },
            },
        ) else {
            panic!("tokens")
        };
        decode(snap, &t.data)
    }

    /// The tokens of a range are the full request's tokens on the lines it
    /// touches, delta-encoded from the document's start; in a document of
    /// several pieces too, across a piece boundary.
    #[test]
    fn range_tokens_are_the_full_tokens_of_its_lines() {
        let many: String = (0..600)
            .map(|i| format!("[Board \"{i}\"]\n{}\n", &DOC[10..]))
            .collect();
        for text in [DOC, many.as_str()] {
            let snap = snapshot(text, PositionEncoding::Utf16);
            let all = decode(&snap, &tokens(&snap));
            let lines = snap.index.line_count() as u32;
            for r in [
                0..1,
                2..5,
                4..9,
                lines / 2 - 7..lines / 2 + 20,
                lines - 3..lines,
            ] {
                let want: String = all
                    .lines()
                    .filter(|l| {
                        l.split(':')
                            .next()
                            .unwrap()
                            .parse::<u32>()
                            .is_ok_and(|n| r.contains(&n) || n == r.end)
                    })
                    .map(|l| format!("{l}\n"))
                    .collect();
                assert_eq!(range_tokens(&snap, r.clone()), want, "lines {r:?}");
            }
            if text.len() > 100_000 {
                assert!(snap.forest.len() > 2, "several pieces");
            }
        }
    }

    /// The edit covers the tokens between the common prefix and suffix,
    /// counted in integers; applied to the old data it gives the new.
    #[test]
    fn delta_is_the_changed_tokens_only() {
        let t = |n: u32| SemanticToken {
            delta_line: n,
            delta_start: 0,
            length: 1,
            token_type: 0,
            token_modifiers_bitset: 0,
        };
        let old = [t(0), t(1), t(2), t(3)];
        assert!(delta(&old, &old).is_empty());
        let new = [t(0), t(1), t(9), t(8), t(3)];
        let edits = delta(&old, &new);
        assert_eq!(edits.len(), 1);
        assert_eq!((edits[0].start, edits[0].delete_count), (10, 5));
        assert_eq!(edits[0].data.as_deref(), Some(&[t(9), t(8)][..]));
        let removed = delta(&old, &[t(0), t(3)]);
        assert_eq!((removed[0].start, removed[0].delete_count), (5, 10));
        assert_eq!(removed[0].data.as_deref(), Some(&[][..]));
        let appended = delta(&old[..2], &old);
        assert_eq!((appended[0].start, appended[0].delete_count), (10, 0));
    }
}
