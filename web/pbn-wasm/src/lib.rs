//! The web page's binding to `pbn-core`: each function is the core entry
//! point the `pbn` CLI calls for the same command, with JSON or text across
//! the boundary. Positions given to the page are 0-based lines and UTF-16
//! columns (CodeMirror's lines split at LF, CRLF and a lone CR, as the
//! core's `LineIndex` does).

use pbn_core::checker::json::{diag_json, DiagJson};
use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::config::Config;
use pbn_core::diagnostic::Diagnostic;
use pbn_core::text::{decode as decode_bytes, Encoding, LineIndex, PositionEncoding, SourceText};
use serde::Serialize;
use wasm_bindgen::prelude::*;

const ENCODINGS: [Encoding; 8] = [
    Encoding::Utf8,
    Encoding::Utf8Bom,
    Encoding::Latin1,
    Encoding::Windows1252,
    Encoding::Utf16Le,
    Encoding::Utf16Be,
    Encoding::Utf32Le,
    Encoding::Utf32Be,
];

fn encoding_named(name: &str) -> Encoding {
    ENCODINGS
        .into_iter()
        .find(|e| e.name() == name)
        .unwrap_or(Encoding::Utf8)
}

/// The page's text as the core reads it: `text` in `encoding` (what the
/// file was decoded from, or what a fix or the formatter chose).
fn source(text: &str, encoding: &str) -> SourceText {
    let mut s = SourceText::from_text(text.to_owned());
    s.encoding = encoding_named(encoding);
    s
}

fn json(v: &(impl Serialize + ?Sized)) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[derive(Serialize)]
struct Decoded {
    text: String,
    encoding: &'static str,
    line_ending: &'static str,
    /// The line break the page joins its lines with.
    eol: &'static str,
    notes: Vec<String>,
}

/// A file's bytes as text, with the encoding they were read in (the core's
/// decoder: BOM, `charset=`, UTF-8, Latin-1, Windows-1252, UTF-16/32).
#[wasm_bindgen]
pub fn decode(bytes: &[u8]) -> String {
    use pbn_core::text::LineEnding;
    let s = decode_bytes(bytes);
    json(&Decoded {
        eol: match s.dominant_line_ending {
            LineEnding::CrLf => "\r\n",
            LineEnding::Cr => "\r",
            _ => "\n",
        },
        encoding: s.encoding.name(),
        line_ending: s.line_ending.name(),
        notes: s.notes.iter().map(|n| format!("{n:?}")).collect(),
        text: s.text,
    })
}

/// `text` as the bytes of a file in `encoding` (characters it cannot hold
/// become `?`, as `pbn` writes them).
#[wasm_bindgen]
pub fn encode(text: &str, encoding: &str) -> Vec<u8> {
    pbn_core::text::encode(text, encoding_named(encoding)).0
}

fn check_options() -> CheckOptions {
    let c = Config::default();
    CheckOptions {
        export: c.check.export,
        fixes: true,
        ungrouped: !c.check.group,
    }
}

/// A position for the page: 0-based line, UTF-16 column.
#[derive(Serialize)]
struct Pos(u32, u32);

#[derive(Serialize)]
struct EditJson {
    from: Pos,
    to: Pos,
    insert: String,
}

/// One diagnostic: `pbn check --output-format json`'s fields, plus where
/// it is and its fix's edits for the editor.
#[derive(Serialize)]
struct PageDiag<'a> {
    #[serde(flatten)]
    cli: DiagJson<'a>,
    from: Pos,
    to: Pos,
    edits: Vec<EditJson>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    games: usize,
    diagnostics: Vec<PageDiag<'a>>,
}

fn pos(index: &LineIndex, text: &str, offset: usize) -> Pos {
    let p = index.line_col(text, offset, PositionEncoding::Utf16);
    Pos(p.line, p.col)
}

fn page_diagnostics<'a>(
    diagnostics: &'a [Diagnostic],
    text: &str,
    index: &LineIndex,
) -> Vec<PageDiag<'a>> {
    let mut near = Default::default();
    diagnostics
        .iter()
        .map(|d| PageDiag {
            cli: diag_json(d, text, index, &mut near),
            from: pos(index, text, d.range.start),
            to: pos(index, text, d.range.end),
            edits: d
                .fix
                .iter()
                .flat_map(|f| &f.edits)
                .map(|e| EditJson {
                    from: pos(index, text, e.range.start),
                    to: pos(index, text, e.range.end),
                    insert: e.new_text.clone(),
                })
                .collect(),
        })
        .collect()
}

/// `pbn check`: the diagnostics of `text` (read as `encoding`), with the
/// default configuration (no `pbn.toml` in a browser).
#[wasm_bindgen]
pub fn check(text: &str, encoding: &str) -> String {
    let s = source(text, encoding);
    let mut res = check_text(&s, &check_options());
    Config::default().check.policy().apply(&mut res.diagnostics);
    let index = LineIndex::new(text);
    json(&CheckJson {
        games: res.games,
        diagnostics: page_diagnostics(&res.diagnostics, text, &index),
    })
}

#[derive(Serialize)]
struct FixedJson {
    text: String,
    encoding: &'static str,
    fixes: usize,
    unstable: bool,
}

/// `pbn check --fix` (`--unsafe-fixes` with `unsafe_fixes`): the text with
/// every fix applied and the encoding to write it in.
#[wasm_bindgen]
pub fn fix_all(text: &str, encoding: &str, unsafe_fixes: bool) -> String {
    let s = source(text, encoding);
    let f = pbn_core::checker::fix::fix_source(&s, &check_options(), unsafe_fixes);
    json(&FixedJson {
        fixes: f.count(),
        unstable: f.unstable,
        encoding: f.source.encoding.name(),
        text: f.source.text,
    })
}

#[derive(Serialize)]
struct FormattedJson {
    text: String,
    encoding: &'static str,
    syntax_error_games: Vec<usize>,
}

/// `pbn fmt`: the export-format text and the encoding `pbn fmt` writes it
/// in (ISO 8859-1 for a UTF-8 file whose characters all fit, §2.2).
#[wasm_bindgen]
pub fn format(text: &str, encoding: &str) -> String {
    let s = source(text, encoding);
    let opts = Config::default().format;
    let write_as = pbn_core::rules::write_encoding(&s);
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let f = pbn_core::format::format_streamed(&s, &opts, |part| out.push_str(part));
    json(&FormattedJson {
        text: out,
        encoding: write_as.name(),
        syntax_error_games: f.syntax_error_games(),
    })
}

/// `pbn dump`: the typed model as JSON.
#[wasm_bindgen]
pub fn dump(text: &str, encoding: &str) -> String {
    let head = [(
        "encoding",
        serde_json::json!(encoding_named(encoding).name()),
    )];
    let mut out = String::new();
    pbn_core::model::dump::write_streamed(text, &head, true, |s| out.push_str(s));
    out.push('\n');
    out
}

/// `pbn score`: each board's figures recomputed, the pairs' totals.
#[wasm_bindgen]
pub fn score(text: &str) -> String {
    let doc = pbn_core::model::lower(&pbn_core::syntax::parse_pieces(text), text);
    pbn_core::render::score::report(&doc).text
}

/// `pbn html`: the hand records of `text` as one HTML page (without
/// double-dummy analysis: [`DdSession`] adds it game by game).
#[wasm_bindgen]
pub fn records_html(text: &str, encoding: &str, name: &str) -> String {
    use pbn_core::render::{self, html};
    let records = render::records(&source(text, encoding), name, |_| false);
    html::page(&html::title(&records, name), &records)
}

#[derive(Serialize)]
struct ConvertedJson {
    text: String,
    /// What the conversion could not carry, once per kind.
    losses: Vec<String>,
}

/// `pbn convert`: `text` (PBN) as `to` (`rbn`, `lin`, `forum` or `pbn`).
#[wasm_bindgen]
pub fn convert(text: &str, to: &str) -> String {
    use pbn_core::convert::{self, Format};
    let Some(to) = Format::from_name(to) else {
        return json(&serde_json::json!({"error": format!("unknown format {to}")}));
    };
    let c = convert::convert(text, Format::Pbn, to);
    let losses = convert::summarize(&c.losses)
        .iter()
        .map(|l| match l.games.len() {
            1 => format!("{} (game {})", l.what, l.games[0] + 1),
            n => format!("{} ({n} games)", l.what),
        })
        .collect();
    json(&ConvertedJson {
        text: c.text,
        losses,
    })
}

#[derive(Serialize)]
struct Explained {
    code: &'static str,
    name: &'static str,
    section: &'static str,
    summary: &'static str,
    explanation: &'static str,
    bad: &'static str,
    good: &'static str,
}

/// `pbn explain CODE`.
#[wasm_bindgen]
pub fn explain(code: &str) -> String {
    match pbn_core::codes::lookup(code) {
        Some(c) => json(&Explained {
            code: c.code,
            name: c.name,
            section: c.section,
            summary: c.summary,
            explanation: c.explanation,
            bad: c.bad,
            good: c.good,
        }),
        None => "null".into(),
    }
}

/// The highlighted ranges of a text (tree-sitter-pbn's highlights query,
/// as the language server's semantic tokens), kept so that the page asks
/// only for the lines it shows.
#[wasm_bindgen]
pub struct Highlights {
    /// `(line, from, to, name)` in document order, columns in UTF-16.
    spans: Vec<(u32, u32, u32, &'static str)>,
}

#[wasm_bindgen]
impl Highlights {
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Highlights {
        let index = LineIndex::new(text);
        let mut spans = Vec::new();
        for h in pbn_core::syntax::highlight::highlights(text) {
            let s = index.line_col(text, h.range.start, PositionEncoding::Utf16);
            let e = index.line_col(text, h.range.end, PositionEncoding::Utf16);
            // A capture never spans lines but a comment's may: its first
            // line only is highlighted by range; the rest by line.
            if s.line == e.line {
                spans.push((s.line, s.col, e.col, h.value));
            } else {
                spans.push((s.line, s.col, u32::MAX, h.value));
                for l in s.line + 1..e.line {
                    spans.push((l, 0, u32::MAX, h.value));
                }
                spans.push((e.line, 0, e.col, h.value));
            }
        }
        Highlights { spans }
    }

    /// The spans on lines `first..=last` as JSON `[[line, from, to, name]…]`
    /// (`to` may be past the line's end: to the end of the line).
    pub fn lines(&self, first: u32, last: u32) -> String {
        let a = self.spans.partition_point(|s| s.0 < first);
        let b = self.spans.partition_point(|s| s.0 <= last);
        json(&self.spans[a..b.max(a)])
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

/// The double-dummy analysis of a file's games one by one (the page's
/// worker solves them in turn and reports progress): the records of
/// `pbn html --dd`.
#[wasm_bindgen]
pub struct DdSession {
    text: String,
    games: Vec<pbn_core::model::Game>,
    records: Vec<pbn_core::render::Record>,
}

#[derive(Serialize)]
struct SolvedJson {
    game: usize,
    board: Option<String>,
    /// Tricks by declarer (N, S, E, W) and strain (NT, S, H, D, C), as
    /// `DoubleDummyTricks` orders them; `null` when the deal cannot be solved.
    tricks: Option<String>,
    par: Option<Vec<String>>,
    optimum_score: Option<String>,
    leads: Option<String>,
    /// The game's record with what the solver adds (`<article>`).
    html: String,
}

#[wasm_bindgen]
impl DdSession {
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str, encoding: &str, name: &str) -> DdSession {
        let text = text.to_owned();
        let trees = pbn_core::syntax::parse_pieces(&text);
        let games = pbn_core::model::lower(&trees, &text).games;
        let records = pbn_core::render::records(&source(&text, encoding), name, |_| false);
        DdSession {
            text,
            games,
            records,
        }
    }

    pub fn games(&self) -> usize {
        self.games.len().min(self.records.len())
    }

    /// Solves game `k` (0-based): its table, par, opening leads and play.
    pub fn solve(&mut self, k: usize) -> String {
        let (Some(g), Some(r)) = (self.games.get(k), self.records.get_mut(k)) else {
            return "null".into();
        };
        let solved = pbn_core::dd::verify::solve_game(g).and_then(Result::ok);
        pbn_core::render::add_dd(r, &self.text, g);
        let mut html = String::new();
        pbn_core::render::html::record(r, &mut html);
        json(&SolvedJson {
            game: k,
            board: r.board.clone(),
            tricks: solved.as_ref().map(|(t, _)| t.double_dummy_tricks()),
            par: solved.as_ref().map(|(_, p)| p.par_contracts()),
            optimum_score: solved.as_ref().map(|(_, p)| p.optimum_score()),
            leads: r.leads.clone(),
            html,
        })
    }
}

/// The language server's hover over a text parsed once (the page hovers
/// the text it last checked): Markdown, solving double dummy on the spot
/// (a Deal's table, par and leads; a card's play analysis).
#[wasm_bindgen]
pub struct Hover {
    text: String,
    parsed: pbn_core::hover::Parsed,
}

#[derive(Serialize)]
struct HoverJson {
    markdown: String,
    from: Pos,
    to: Pos,
}

#[wasm_bindgen]
impl Hover {
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Hover {
        Hover {
            parsed: pbn_core::hover::Parsed::new(text),
            text: text.to_owned(),
        }
    }

    /// The hover at 0-based `line` and UTF-16 column `col` as JSON
    /// `{markdown, from, to}`, or `null`.
    pub fn at(&self, line: u32, col: u32) -> String {
        let (text, lines) = (self.text.as_str(), &self.parsed.lines);
        let offset = lines.offset(
            text,
            pbn_core::text::LineCol { line, col },
            PositionEncoding::Utf16,
        );
        let input = self.parsed.input(text, &pbn_core::hover::SolveNow);
        match pbn_core::hover::hover(&input, offset) {
            Some(h) => json(&HoverJson {
                markdown: h.markdown,
                from: pos(lines, text, h.range.start),
                to: pos(lines, text, h.range.end),
            }),
            None => "null".into(),
        }
    }
}
