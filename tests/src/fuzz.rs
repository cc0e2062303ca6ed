//! The properties of the coverage-guided fuzz targets in `fuzz/` (cargo-fuzz,
//! libFuzzer), as plain functions that panic when a property fails.
//!
//! The fuzz targets (`fuzz/fuzz_targets/*.rs`) are one-line wrappers around
//! these functions, and `tests/tests/fuzz_regressions.rs` runs every input
//! kept in `tests/fixtures/fuzz/<target>/` through the same function, so a
//! crash found once stays fixed in plain `cargo test`. See ROBUSTNESS.md.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::diagnostic::Severity;
use pbn_core::format::{format, EolOption, FormatOptions};
use pbn_core::text::{decode, encode, Encoding, LineIndex, PositionEncoding};
use std::collections::BTreeMap;
use std::ops::Range;
use tree_sitter::{InputEdit, Node, Point, Tree};

/// The fuzz targets, by name (= the directory of their fixtures).
/// A fuzz target: its input is arbitrary bytes.
pub type Target = fn(&[u8]);

pub const TARGETS: &[(&str, Target)] = &[
    ("parse_check", parse_check),
    ("fmt", fmt),
    ("incremental_reparse", incremental_reparse),
    ("convert", convert),
];

/// Every tag whose value has a syntax the value parsers check, plus a table
/// tag and an open-list tag: the direct value-parser fuzzing of
/// [`parse_check`] picks one of these by the first input byte.
const VALUE_TAGS: &[&str] = &[
    "Date",
    "Time",
    "TimeControl",
    "TimeCall",
    "Board",
    "Table",
    "Round",
    "Dealer",
    "Auction",
    "Play",
    "Declarer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Contract",
    "Result",
    "Score",
    "ScoreIMP",
    "ScoreMP",
    "ScorePercentage",
    "ScoreRubber",
    "ScoreRubberHistory",
    "OptimumScore",
    "FrenchMP",
    "Room",
    "Hidden",
    "Note",
    "Termination",
    "Mode",
    "Competition",
    "WestType",
    "TotalScoreTable",
    "OptimumResultTable",
    "ScoreTable",
    "ActionTable",
];

/// First thing in every execution of a property: what an earlier input left
/// in the process must not change what this one covers. In fuzz builds the
/// piece ids start again from 1 (see `pbn_core::syntax::restart_ids_for_fuzzing`
/// and ROBUSTNESS.md, "Stable coverage"); in `cargo test`, where several
/// tests run at once, nothing is reset.
fn fresh_execution() {
    #[cfg(fuzzing)]
    pbn_core::syntax::restart_ids_for_fuzzing();
}

fn assert_range(text: &str, r: &Range<usize>, what: &dyn Fn() -> String) {
    assert!(
        r.start <= r.end && r.end <= text.len(),
        "{}: range {r:?} outside the text (len {})",
        what(),
        text.len()
    );
    assert!(
        text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
        "{}: range {r:?} splits a character",
        what()
    );
}

/// A message stays readable: at most `MESSAGE_MAX` characters, none of
/// them a control character (server/src/diagnostic.rs, `tidy`).
fn assert_message(message: &str, what: &dyn Fn() -> String) {
    let n = message.chars().count();
    assert!(
        n <= pbn_core::diagnostic::MESSAGE_MAX,
        "{}: message of {n} characters",
        what()
    );
    assert!(
        !message.chars().any(char::is_control),
        "{}: control character in the message",
        what()
    );
}

/// Decoding is lossless (`text/decode.rs`: "writing back gives the same
/// bytes") whenever the encoding can hold every character.
fn decode_roundtrip(data: &[u8]) -> pbn_core::text::SourceText {
    let source = decode(data);
    if matches!(source.encoding, Encoding::Latin1 | Encoding::Windows1252) {
        // A single-byte reading: one character a byte, never a UTF-16 one.
        assert_eq!(
            source.text.chars().count(),
            data.len(),
            "a {:?} reading is not one character a byte",
            source.encoding
        );
    }
    let (bytes, lost) = encode(&source.text, source.encoding);
    let lossless_input = match source.encoding {
        Encoding::Utf8Bom => std::str::from_utf8(&data[3..]).is_ok(),
        // UTF-16 and UTF-32 (which §2.2 does not allow) are written back as
        // UTF-8, never in their own encoding.
        e if e.is_wide() => {
            assert!(
                bytes == source.text.as_bytes(),
                "a {e:?} file is not written back as UTF-8"
            );
            false
        }
        _ => true,
    };
    if lost == 0 && lossless_input {
        assert!(
            bytes == data,
            "decode → encode ({:?}) does not give the input bytes back",
            source.encoding
        );
    }
    source
}

/// `parse_check`: any bytes → decode → check (import and export options),
/// lower, dump, the typed view of every game, the value parsers, line/column
/// conversion. Nothing panics, every diagnostic range lies inside the text
/// on character boundaries, one model game per syntax game.
pub fn parse_check(data: &[u8]) {
    fresh_execution();
    // 1. The value parsers directly: the first byte picks a tag, the rest is
    //    its raw value (short inputs only; longer ones are documents).
    if let Some((&first, rest)) = data.split_first() {
        if rest.len() <= 200 {
            let raw = String::from_utf8_lossy(rest);
            let name = VALUE_TAGS[first as usize % VALUE_TAGS.len()];
            for issue in pbn_core::model::values::parse_for_tag(name, &raw).unwrap_or_default() {
                assert_range(&raw, &issue.range, &|| {
                    format!("{name} value issue {}", issue.code.code)
                });
                assert_message(&issue.message, &|| {
                    format!("{name} value issue {}", issue.code.code)
                });
                if let Some(rel) = &issue.related {
                    assert_range(&raw, &rel.range, &|| {
                        format!("{name} value issue {} (related)", issue.code.code)
                    });
                }
            }
        }
    }

    // 2. The document.
    let source = decode_roundtrip(data);
    let text = source.text.as_str();
    let index = LineIndex::new(text);
    for export in [false, true] {
        let result = check_text(
            &source,
            &CheckOptions {
                export,
                ..Default::default()
            },
        );
        for d in &result.diagnostics {
            let what = || format!("{} {:?} (export {export})", d.code.code, d.message);
            assert_range(text, &d.range, &what);
            assert_message(&d.message, &what);
            for rel in &d.related {
                assert_range(text, &rel.range, &what);
                assert_message(&rel.message, &what);
            }
            if let Some(g) = d.game {
                assert!(g < result.games, "{}: game {g} of {}", what(), result.games);
            }
            // What the CLI renderer and the LSP edge do with a range.
            for enc in [
                PositionEncoding::Chars,
                PositionEncoding::Utf16,
                PositionEncoding::Utf8,
            ] {
                for off in [d.range.start, d.range.end] {
                    let lc = index.line_col(text, off, enc);
                    let back = index.offset(text, lc, enc);
                    // Between the CR and LF of a line end there is no position.
                    let inside_crlf = off > 0
                        && text.as_bytes()[off - 1] == b'\r'
                        && text.as_bytes().get(off) == Some(&b'\n');
                    if !inside_crlf {
                        assert_eq!(back, off, "{}: offset → {lc:?} ({enc:?}) → offset", what());
                    }
                }
            }
        }
    }

    // The canonical parse (in pieces, as `check` and `format` parse).
    let trees = pbn_core::syntax::parse_pieces(text);
    let (chunks, _loose) = pbn_core::syntax::games(&trees, text);
    let doc = pbn_core::model::lower(&trees, text);
    assert_eq!(
        doc.games.len(),
        chunks.len(),
        "one model game per game chunk (the formatter relies on it)"
    );
    for (i, g) in doc.games.iter().enumerate() {
        let what = || format!("game {i}");
        assert_range(text, &g.range, &what);
        assert_eq!(
            pbn_core::syntax::game_at(&chunks, g.range.start),
            Some(i),
            "game_at of game {i}'s start"
        );
        for t in &g.tags {
            assert_range(text, &t.range, &what);
            assert_range(text, &t.name_range, &what);
            if let Some(v) = &t.value {
                assert_range(text, &v.range, &what);
                if let Some(issues) = pbn_core::model::values::parse_for_tag(&t.name, &v.raw) {
                    for issue in issues {
                        assert_range(&v.raw, &issue.range, &|| {
                            format!("game {i} {} value issue {}", t.name, issue.code.code)
                        });
                    }
                }
            }
        }
        for c in &g.comments {
            assert_range(text, &c.range, &what);
        }
        let _ = pbn_core::model::typed::typed(text, g);
    }
    let dumped = pbn_core::model::dump::dump(&doc, text);
    let _ = serde_json::to_string(&dumped).expect("the dump serialises");
}

/// What formatting must keep: the dump's games (what `pbn dump` prints,
/// without positions) and the multiset of comments and escape lines (as in
/// `tests/tests/formatter.rs`, with line ends as `\n`: the `eol` option
/// rewrites those inside brace comments too), from one parse.
pub fn meaning(text: &str) -> (serde_json::Value, BTreeMap<String, usize>) {
    let trees = pbn_core::syntax::parse_pieces(text);
    let doc = pbn_core::model::lower(&trees, text);
    (
        pbn_core::model::dump::dump(&doc, text)["games"].clone(),
        comments_of(&trees, text),
    )
}

/// The multiset of comment and escape-line texts (trailing white space
/// trimmed) in the trees; in a `{…}` comment, whose lines longer than §2.3
/// allows `pbn fmt` breaks at spaces, a line end counts as a space.
pub fn comment_texts(trees: &[Tree], text: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<Node<'_>> = trees.iter().map(Tree::root_node).collect();
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "comment" | "unterminated_comment" | "escape_line") {
            let t = text[n.byte_range()].trim_end();
            let t = if t.starts_with('{') {
                t.replace("\r\n", " ").replace(['\n', '\r'], " ")
            } else {
                t.to_owned()
            };
            *out.entry(t).or_default() += 1;
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

/// [`comment_texts`] with line ends inside comments made LF.
fn comments_of(trees: &[Tree], text: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (k, n) in comment_texts(trees, text) {
        *out.entry(lf(&k)).or_default() += n;
    }
    out
}

/// The format options a fuzz input is formatted with: chosen by its length,
/// so that every combination is exercised and an input always gets the same.
pub fn fmt_options(data: &[u8]) -> FormatOptions {
    let k = data.len() % 12;
    FormatOptions {
        add_missing_tags: k.is_multiple_of(2),
        eol: [EolOption::Keep, EolOption::Crlf, EolOption::Lf][(k / 2) % 3],
        export_header: k >= 6,
    }
}

/// Whether `comment` is one `pbn fmt` writes for data export format cannot
/// hold: a repeated tag (`;[Room "IMP"]`) or a stray `*` (`;*`).
pub fn is_kept_data_comment(comment: &str) -> bool {
    comment.starts_with(";[") || comment == ";*"
}

fn lf(s: &str) -> String {
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// `fmt`: any bytes → decode → format never panics, formatting piece by
/// piece as the language server does gives the same output, and games with
/// syntax errors are printed verbatim. The output has as many games, and
/// every game without an error means the same, also after the safe fixes
/// `pbn fmt` applies first (which may recompute its scoring figures only).
/// If the check reports no error, formatting is idempotent, `pbn dump` of
/// input and output is equal and every comment and escape line survives
/// (plus the `% PBN 2.1` / `% EXPORT` header when asked for).
pub fn fmt(data: &[u8]) {
    fresh_execution();
    let source = decode(data);
    let text = source.text.as_str();
    let opts = fmt_options(data);
    let trees = pbn_core::syntax::parse_pieces(text);
    let doc = pbn_core::model::lower(&trees, text);
    let once = format(&source, &opts);
    // The language server formats piece by piece (`Snapshot::format`, pieces
    // of 64 B to 8 KiB here), each piece after its safe fixes: what `pbn
    // fmt` writes (`format_fixed`; the editor's buffer is text, so no fix of
    // the file's bytes).
    let editor = pbn_core::text::SourceText::from_text(text.to_owned());
    let fixed = pbn_core::format::format_fixed(&editor, &opts);
    let piece = 64 << (data.len() % 8);
    let snap = pbn::lsp::snapshot::Snapshot::with_index(
        "file:///f.pbn".parse().expect("a URI"),
        1,
        pbn_core::text::SourceText::from_text(text.to_owned()),
        pbn_core::syntax::Forest::cut(text, piece),
        pbn_core::text::LineIndex::new(text),
        pbn::lsp::state::Settings::default(),
    );
    let by_pieces = snap
        .format(&opts)
        .expect("a snapshot without newer versions is never stale");
    assert!(
        by_pieces.text == fixed.text
            && by_pieces.verbatim_games == fixed.verbatim_games
            && by_pieces.dropped_duplicates == fixed.dropped_duplicates,
        "formatting in pieces of {piece} bytes differs ({opts:?}):\n--- whole (verbatim {:?}, \
         dropped {:?})\n{}\n--- pieces (verbatim {:?}, dropped {:?})\n{}\n--- whole, pieces\n{:?}\n{:?}",
        fixed.verbatim_games,
        fixed.dropped_duplicates,
        fixed.text,
        by_pieces.verbatim_games,
        by_pieces.dropped_duplicates,
        by_pieces.text,
        fixed.text,
        by_pieces.text
    );
    drop((snap, editor, fixed));

    let out_lf = lf(&once.text);
    for &gi in &once.verbatim_games {
        // (Also games whose printed comments would not match the input's:
        // the formatter's own safety net, format/mod.rs.)
        let g = &doc.games[gi];
        // Blocks are printed without their leading and trailing line ends.
        let verbatim = lf(&text[g.range.clone()]);
        assert!(
            out_lf.contains(verbatim.trim_matches('\n')),
            "game {gi} (syntax error) is not printed verbatim"
        );
    }
    for g in &doc.games {
        if g.syntax_error {
            assert!(
                once.verbatim_games.contains(&g.index),
                "game {} has a syntax error but was reformatted",
                g.index
            );
        }
    }

    // Every file, errors or not: the output holds the same games, and each
    // game without a syntax error or an error diagnostic means what it
    // meant (`pbn dump` of that game): verbatim games joined by one blank
    // line, or with their lone CRs made LFs, or without the tabs before
    // them, could be read as other games.
    let diagnostics = check_text(
        &source,
        &CheckOptions {
            export: false,
            ..Default::default()
        },
    )
    .diagnostics;
    let before = pbn_core::model::dump::dump(&doc, text)["games"].clone();
    let (after, mut got) = meaning(&once.text);
    let b = before.as_array().expect("games");
    same_games(
        b,
        &after,
        &diagnostics,
        ("formatting", false),
        &opts,
        &once.text,
    );
    fixed_means_the_same(&source, &opts, b);
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return;
    }
    let twice = format(&decode(once.text.as_bytes()), &opts);
    if once.text != twice.text {
        let line = once
            .text
            .lines()
            .zip(twice.text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "not idempotent ({opts:?}), first difference at line {}:\n--- once\n{}\n--- twice\n{}",
            line + 1,
            once.text,
            twice.text
        );
    }
    assert!(
        before == after,
        "dump differs after formatting ({opts:?}):\n{before}\n{after}\n--- output\n{}",
        once.text
    );
    let expected = comments_of(&trees, text);
    if opts.export_header {
        // The header lines the formatter adds are the only new escape lines.
        for line in ["% PBN 2.1", "% EXPORT"] {
            let (e, g) = (
                expected.get(line).copied().unwrap_or(0),
                got.get(line).copied().unwrap_or(0),
            );
            if g == e + 1 {
                got.insert(line.to_owned(), e);
            }
        }
        got.retain(|_, n| *n > 0);
    }
    // What export format cannot hold (a repeated tag, a stray `*`) is kept
    // as a comment where it stood: the only other new comments.
    for (c, n) in got.iter_mut() {
        if is_kept_data_comment(c) {
            *n = (*n).min(expected.get(c).copied().unwrap_or(0));
        }
    }
    got.retain(|_, n| *n > 0);
    assert!(
        expected == got,
        "comments differ after formatting ({opts:?}):\n{expected:?}\n{got:?}\n--- output\n{}",
        once.text
    );
}

/// What `pbn fmt` writes (`format::format_fixed`: the safe fixes, then the
/// formatter) holds the same games, and a safe fix never changes what a
/// game means: each game of `before` (the input's dump) without a syntax
/// error and without an error once fixed means what it meant, but for the
/// scoring figures its Scoring tag computes ([`without_figures`]).
fn fixed_means_the_same(
    source: &pbn_core::text::SourceText,
    opts: &FormatOptions,
    before: &[serde_json::Value],
) {
    let fixed = pbn_core::checker::fix::fix_source(source, &CheckOptions::default(), false);
    if fixed.count() == 0 {
        return;
    }
    let out = format(&fixed.source, opts);
    let (after, _) = meaning(&out.text);
    let what = "its safe fixes and formatting";
    same_games(
        before,
        &after,
        &fixed.remaining.diagnostics,
        (what, true),
        opts,
        &out.text,
    );
}

/// A game of a dump without the figures the scoring fixes recompute (the
/// score tags and the figure columns of its ScoreTable): the one change a
/// safe fix may make to what a game without errors says, where its Scoring
/// tag names how they are computed.
pub fn without_figures(game: &serde_json::Value) -> serde_json::Value {
    use pbn_core::model::score_table::{FIGURES, FIGURE_TAGS};
    let mut g = game.clone();
    if let Some(tags) = g.get_mut("tags").and_then(|t| t.as_object_mut()) {
        for (tag, _) in FIGURE_TAGS {
            tags.remove(tag);
        }
    }
    let Some(sections) = g.get_mut("sections").and_then(|s| s.as_object_mut()) else {
        return g;
    };
    if let Some(section) = sections.get_mut("ScoreTable") {
        let columns = section["value"]
            .as_str()
            .and_then(|v| pbn_core::model::values::parse_columns(v).value)
            .unwrap_or_default();
        let elements = section.get_mut("elements").and_then(|e| e.as_array_mut());
        if let (false, Some(elements)) = (columns.is_empty(), elements) {
            for (i, e) in elements.iter_mut().enumerate() {
                let name = &columns[i % columns.len()].name;
                if FIGURES.iter().any(|f| f.0 == name) {
                    *e = serde_json::Value::Null;
                }
            }
        }
    }
    g
}

/// `after` (the games of `output`'s dump) has as many games as `before`,
/// and each game of `before` without a syntax error and without an error
/// in `diagnostics` is the same in `after` (but for its scoring figures
/// when `fixed`: after the safe fixes).
fn same_games(
    before: &[serde_json::Value],
    after: &serde_json::Value,
    diagnostics: &[pbn_core::diagnostic::Diagnostic],
    (what, fixed): (&str, bool),
    opts: &FormatOptions,
    output: &str,
) {
    let after = after.as_array().expect("games");
    assert!(
        before.len() == after.len(),
        "{} games before {what}, {} after ({opts:?}):\n--- output\n{output}",
        before.len(),
        after.len(),
    );
    for (i, (x, y)) in before.iter().zip(after).enumerate() {
        let clean = x.get("syntax_error").is_none()
            && !diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && d.game == Some(i));
        assert!(
            !clean || x == y || fixed && without_figures(x) == without_figures(y),
            "game {i} means something else after {what} ({opts:?}):\n{x}\n{y}\n--- output\n{output}",
        );
    }
}

/// Text pieces an `incremental_reparse` edit can insert by index (PBN-significant
/// tokens that random bytes rarely spell).
const PIECES: &[&str] = &[
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "\r\n\r\n",
    "{",
    "}",
    "\"",
    "[",
    "]",
    "%",
    ";",
    " ",
    "\t",
    "\\",
    "\\\"",
    "=1=",
    "$3",
    "!?",
    "^I",
    "^S",
    "*",
    "-",
    "+",
    "#",
    "##",
    "Pass ",
    "AP",
    "XX ",
    "7NT",
    "SA ",
    "D10 ",
    "[Auction \"N\"]\n",
    "[Play \"W\"]\n",
    "[Note \"1:x\"]\n",
    "[Event \"e\"]\n",
    "[Deal \"N:AKQJ.AKQ.AKQ.AKQ - - -\"]\n",
    "% PBN 2.1\n",
    "{ c }",
    "; c\n",
    "é",
    "𝄞",
    "\u{feff}",
    "[TotalScoreTable \"Rank;Score\\2R\"]\n1 10\n",
];

/// How the `incremental_reparse` target computes the rows and columns of an
/// `InputEdit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointMode {
    /// tree-sitter's own convention: rows end at `\n`, columns in bytes.
    TreeSitter,
    /// The language server's (`lsp/document.rs`, its `LineIndex`; here ropey
    /// with `cr_lines`, the same convention), so
    /// a lone `\r` also ends a row.
    Rope,
}

/// One edit of an `incremental_reparse` input: replace `start..end` (byte offsets
/// into the current text, before snapping to character boundaries) with
/// `insert`, then reparse or not.
#[derive(Clone, Debug)]
pub struct Edit {
    pub start: u16,
    pub delete: u8,
    pub insert: String,
    pub reparse: bool,
}

/// The byte layout of an `incremental_reparse` input:
/// `[mode] [text length: u16 LE] [text…] { [start: u16 LE] [delete: u8] [flags] [payload] }*`
/// where `mode` bit 0 selects the [`PointMode`], bits 5–6 the
/// [`forest_cache_budget`] and bits 2–4 the
/// [`forest_piece`] size, `delete` counts modulo 32, `flags` bit 7 = reparse after this edit, bit 6 = the payload is one
/// byte indexing [`PIECES`], else the payload is `flags & 63` bytes
/// (lossily UTF-8). Any bytes decode to something.
pub fn decode_incremental(data: &[u8]) -> (PointMode, String, Vec<Edit>) {
    let mode = if data.first().is_some_and(|b| b & 1 == 1) {
        PointMode::Rope
    } else {
        PointMode::TreeSitter
    };
    let len = match data.get(1..3) {
        Some(b) => u16::from_le_bytes([b[0], b[1]]) as usize,
        None => 0,
    };
    let rest = data.get(3..).unwrap_or(&[]);
    let len = len.min(rest.len());
    let text = decode(&rest[..len]).text;
    let mut edits = Vec::new();
    let mut r = &rest[len..];
    while r.len() >= 4 && edits.len() < 64 {
        let start = u16::from_le_bytes([r[0], r[1]]);
        let delete = r[2];
        let flags = r[3];
        r = &r[4..];
        let insert = if flags & 0x40 != 0 {
            let i = r.first().copied().unwrap_or(0) as usize;
            r = r.get(1..).unwrap_or(&[]);
            PIECES[i % PIECES.len()].to_owned()
        } else {
            let n = ((flags & 63) as usize).min(r.len());
            let s = String::from_utf8_lossy(&r[..n]).into_owned();
            r = &r[n..];
            s
        };
        edits.push(Edit {
            start,
            delete,
            insert,
            reparse: flags & 0x80 != 0,
        });
    }
    (mode, text, edits)
}

/// The inverse of [`decode_incremental`] (for seeding the corpus and for
/// tests); pieces are written as raw payload.
pub fn encode_incremental(mode: PointMode, text: &str, edits: &[Edit]) -> Vec<u8> {
    let mut out = vec![u8::from(mode == PointMode::Rope)];
    let text = &text.as_bytes()[..text.len().min(u16::MAX as usize)];
    out.extend_from_slice(&(text.len() as u16).to_le_bytes());
    out.extend_from_slice(text);
    for e in edits {
        out.extend_from_slice(&e.start.to_le_bytes());
        out.push(e.delete);
        let payload = &e.insert.as_bytes()[..e.insert.len().min(63)];
        out.push(payload.len() as u8 | if e.reparse { 0x80 } else { 0 });
        out.extend_from_slice(payload);
    }
    out
}

fn point(mode: PointMode, text: &str, offset: usize) -> Point {
    match mode {
        PointMode::TreeSitter => {
            let before = &text.as_bytes()[..offset];
            let row = before.iter().filter(|&&b| b == b'\n').count();
            let col = offset
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
            Point { row, column: col }
        }
        PointMode::Rope => {
            // Exactly `lsp/document.rs::point`.
            let rope = ropey::Rope::from_str(text);
            let line = rope.byte_to_line(offset);
            Point {
                row: line,
                column: offset - rope.line_to_byte(line),
            }
        }
    }
}

/// Every node of a tree, named or not, in document order: kind, byte range,
/// start and end point (only compared in [`PointMode::TreeSitter`]) and
/// error flags.
type NodeRow = (
    String,
    Range<usize>,
    Option<(Point, Point)>,
    bool,
    bool,
    bool,
);

fn nodes(tree: &Tree, with_points: bool) -> Vec<NodeRow> {
    nodes_under(&[tree.root_node()], with_points)
}

fn nodes_under(roots: &[Node<'_>], with_points: bool) -> Vec<NodeRow> {
    fn walk(n: Node<'_>, with_points: bool, out: &mut Vec<NodeRow>) {
        let points = with_points.then(|| (n.start_position(), n.end_position()));
        out.push((
            n.kind().to_owned(),
            n.byte_range(),
            points,
            n.is_error(),
            n.is_missing(),
            n.is_extra(),
        ));
        let mut c = n.walk();
        for child in n.children(&mut c) {
            walk(child, with_points, out);
        }
    }
    let mut out = Vec::new();
    for &root in roots {
        walk(root, with_points, &mut out);
    }
    out
}

/// The piece size of the [`pbn_core::syntax::Forest`] an `incremental_reparse`
/// input is also applied to: bits 2–4 of the mode byte, 64 bytes to 8 KiB.
pub fn forest_piece(data: &[u8]) -> usize {
    64 << ((data.first().copied().unwrap_or(0) >> 2) & 7)
}

/// The tree cache budget of that forest: bits 5–6 of the mode byte, from
/// none (every piece parsed again when asked for, the newest kept) through
/// one or four pieces' worth, which the re-check and the comparisons after
/// each edit overflow, to the server's 1 MB. Inputs are at most 4 KB, so
/// only the small budgets make the cache evict.
pub fn forest_cache_budget(data: &[u8]) -> usize {
    let piece = forest_piece(data);
    match (data.first().copied().unwrap_or(0) >> 5) & 3 {
        0 => pbn_core::syntax::CACHE_BUDGET,
        1 => 0,
        2 => piece,
        _ => 4 * piece,
    }
}

/// `incremental_reparse` (cargo forbids a binary named `incremental`): an initial text and a list of edits (see
/// [`decode_incremental`]); each edit is applied to the tree with
/// `Tree::edit` and, when flagged, reparsed incrementally (as the language
/// server does for each `didChange`). The final incremental tree equals a
/// fresh parse of the final text: the same S-expression, the same nodes with
/// the same byte ranges (and points, with tree-sitter's row convention).
/// The same edits go to a [`pbn_core::syntax::Forest`], the language server's
/// piecewise parse (see [`forest_piece`]), which must end up with the nodes
/// of a fresh `Forest` of the final text.
pub fn incremental_reparse(data: &[u8]) {
    fresh_execution();
    let (mode, text, edits) = decode_incremental(data);
    let mut parser = pbn_core::syntax::new_parser();
    let mut tree = parser.parse(&text, None).expect("parse");
    // The language server's piecewise parse (`syntax::Forest`, reparsed
    // once per `didChange`), with small pieces so that short inputs have
    // several.
    let piece = forest_piece(data);
    let mut forest =
        pbn_core::syntax::Forest::cut_with_cache(&text, piece, forest_cache_budget(data));
    // And the language server's re-check on that forest after each
    // reparse, reusing what the previous one learned (export rules on for
    // inputs of even length).
    let opts = CheckOptions {
        export: data.len().is_multiple_of(2),
        fixes: true,
        ungrouped: false,
    };
    let check_again = |source: &pbn_core::text::SourceText,
                       forest: &pbn_core::syntax::Forest,
                       state: &pbn_core::checker::State| {
        pbn_core::checker::check_segments(source, forest, &opts, state)
    };
    // The language server's text and line index, edited in place on each
    // `didChange` (`SourceText::replace`, `LineIndex::replace`): at the
    // end, equal to those of the final text read afresh.
    let mut source = pbn_core::text::SourceText::from_text(text.clone());
    let mut index = pbn_core::text::LineIndex::new(&text);
    let (_, mut state, _) = check_again(&source, &forest, &pbn_core::checker::State::default());
    let mut current = text;
    for e in &edits {
        let mut start = (e.start as usize) % (current.len() + 1);
        while !current.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + e.delete as usize % 32).min(current.len());
        while !current.is_char_boundary(end) {
            end -= 1;
        }
        if mode == PointMode::Rope {
            // An LSP position cannot fall between the CR and LF of a line end.
            let inside_crlf = |o: usize| {
                o > 0
                    && current.as_bytes()[o - 1] == b'\r'
                    && current.as_bytes().get(o) == Some(&b'\n')
            };
            if inside_crlf(start) {
                start -= 1;
            }
            if inside_crlf(end) {
                end -= 1;
            }
        }
        let end = end.max(start);
        let mut next = String::with_capacity(current.len() + e.insert.len());
        next.push_str(&current[..start]);
        next.push_str(&e.insert);
        next.push_str(&current[end..]);
        let new_end = start + e.insert.len();
        let edit = InputEdit {
            start_byte: start,
            old_end_byte: end,
            new_end_byte: new_end,
            start_position: point(mode, &current, start),
            old_end_position: point(mode, &current, end),
            new_end_position: point(mode, &next, new_end),
        };
        tree.edit(&edit);
        forest.edit(&edit);
        source.replace(start, end, &e.insert);
        index.replace(&next, start, end, new_end);
        current = next;
        if e.reparse {
            tree = parser.parse(&current, Some(&tree)).expect("parse");
            forest.recut(&current);
            state = check_again(&source, &forest, &state).1;
        }
    }
    let fresh_source = pbn_core::text::SourceText::from_text(current.clone());
    assert_eq!(source.text, current, "SourceText::replace");
    assert_eq!(
        (
            source.line_ending,
            source.dominant_line_ending,
            source.has_tab(),
            source.uses_hash_values()
        ),
        (
            fresh_source.line_ending,
            fresh_source.dominant_line_ending,
            fresh_source.has_tab(),
            fresh_source.uses_hash_values()
        ),
        "SourceText::replace: line endings or counts differ from the text read afresh {current:?}"
    );
    assert_eq!(
        index,
        pbn_core::text::LineIndex::new(&current),
        "LineIndex::replace differs from a fresh index of {current:?}"
    );
    let incremental = parser.parse(&current, Some(&tree)).expect("parse");
    let fresh = pbn_core::syntax::new_parser()
        .parse(&current, None)
        .expect("parse");
    // tree-sitter's error recovery depends on the parse's history: with
    // ERROR or MISSING nodes, an incremental reparse may recover
    // differently from a fresh parse (found by this target; a property of
    // the tree-sitter runtime, see ROBUSTNESS.md). The server never relies
    // on it: it parses edited pieces afresh, which the forest check below
    // holds to the fresh parse on every input.
    let exact = !fresh.root_node().has_error();
    let with_points = mode == PointMode::TreeSitter;
    if exact {
        assert_eq!(
            incremental.root_node().to_sexp(),
            fresh.root_node().to_sexp(),
            "incremental reparse differs from a fresh parse of {current:?}"
        );
    }
    let (a, b) = (nodes(&incremental, with_points), nodes(&fresh, with_points));
    if exact && a != b {
        let i = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        panic!(
            "incremental reparse: node {i} differs from a fresh parse of {current:?}:\n incremental {:?}\n fresh       {:?}",
            a.get(i),
            b.get(i)
        );
    }
    forest.recut(&current);
    // Every piece's trees as the server gets them (from the forest's cache,
    // or parsed again) against a fresh forest's.
    let edited_trees = forest.trees(&current);
    let fresh_trees = pbn_core::syntax::Forest::cut(&current, piece).trees(&current);
    let (a, b) = (
        nodes_under(&pbn_core::syntax::top_nodes(&edited_trees), with_points),
        nodes_under(&pbn_core::syntax::top_nodes(&fresh_trees), with_points),
    );
    if a != b {
        let i = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        panic!(
            "Forest (pieces of {piece} bytes) after edits: node {i} differs from a fresh Forest of {current:?}:\n edited {:?}\n fresh  {:?}",
            a.get(i),
            b.get(i)
        );
    }
    let (checked, _, _) = check_again(&source, &forest, &state);
    let key = |v: &[pbn_core::diagnostic::Diagnostic]| {
        v.iter()
            .map(|d| (d.code.code, d.range.clone(), d.message.clone(), d.game))
            .collect::<Vec<_>>()
    };
    let want = pbn_core::reference::check_whole(&fresh_source, &opts);
    assert_eq!(
        key(&checked.flatten().diagnostics),
        key(&want.diagnostics),
        "re-check after edits differs from a check of {current:?}"
    );
}

/// The `convert` target: the first byte picks the format read (RBN, LIN or
/// PBN), the rest is the input, decoded as `pbn convert` decodes a file.
/// Every reader and writer (RBN, LIN, forum notation, PBN) runs on it; no
/// panic, every read diagnostic's range inside the input (on character
/// boundaries) with a message of bounded length, and the PBN written read
/// by `pbn check` (the checker's ranges inside it).
pub fn convert(data: &[u8]) {
    use pbn_core::convert::{self, Format};
    fresh_execution();
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let from = [Format::Rbn, Format::Lin, Format::Pbn][first as usize % 3];
    let source = decode(rest);
    let input = source.text.as_str();
    for to in Format::ALL {
        let c = convert::convert(input, from, to);
        for d in &c.diagnostics {
            let what = || format!("{} → {}: {:?}", from.name(), to.name(), d.message);
            assert_range(input, &d.range, &what);
            assert_message(&d.message, &what);
        }
        if to == Format::Pbn {
            let out = decode(c.text.as_bytes());
            let result = check_text(&out, &CheckOptions::default());
            for d in &result.diagnostics {
                let what = || format!("check of {} → PBN: {}", from.name(), d.code.code);
                assert_range(&out.text, &d.range, &what);
            }
        }
    }
}
