//! One diagnostic as `pbn check --output-format json` writes it (and the
//! web page shows it): 1-based lines and columns in characters. Fields in
//! alphabetical order; written straight from borrowed data, without a
//! `serde_json::Value` tree per diagnostic (20,000 of them in a large file).

use crate::diagnostic::{Applicability, Diagnostic};
use crate::text::{LineIndex, Near, PositionEncoding};
use serde::Serialize;

#[derive(Serialize)]
pub struct DiagJson<'a> {
    pub category: &'static str,
    pub code: &'static str,
    pub column: u32,
    pub end_column: u32,
    pub end_line: u32,
    /// The diagnostic's fix (`null`: none).
    pub fix: Option<FixJson<'a>>,
    pub game: Option<usize>,
    pub line: u32,
    pub message: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<RelatedJson<'a>>,
    pub severity: &'static str,
}

/// `{"applicability": "safe", "message": "Write `1NT`"}`: `safe` fixes
/// are applied by `pbn check --fix`, `unsafe` ones with --unsafe-fixes.
#[derive(Serialize)]
pub struct FixJson<'a> {
    pub applicability: &'static str,
    pub message: &'a str,
}

#[derive(Serialize)]
pub struct RelatedJson<'a> {
    pub column: u32,
    pub line: u32,
    pub message: &'a str,
}

/// The last positions looked up for a diagnostic's start, end and related
/// places ([`LineIndex::line_col_near`]): consecutive diagnostics are close.
pub type NearJson = [Near; 3];

/// `d` over `text` as JSON; `near` carries the last lookups from one
/// diagnostic to the next.
pub fn diag_json<'a>(
    d: &'a Diagnostic,
    text: &str,
    index: &LineIndex,
    near: &mut NearJson,
) -> DiagJson<'a> {
    let [near_start, near_end, near_related] = near;
    let chars = PositionEncoding::Chars;
    let s = index.line_col_near(text, d.range.start, chars, near_start);
    let e = index.line_col_near(text, d.range.end, chars, near_end);
    DiagJson {
        category: d.code.category.name(),
        code: d.code.code,
        column: s.col + 1,
        end_column: e.col + 1,
        end_line: e.line + 1,
        fix: d.fix.as_deref().map(|f| FixJson {
            applicability: match f.applicability {
                Applicability::Safe => "safe",
                Applicability::Unsafe => "unsafe",
            },
            message: &f.title,
        }),
        game: d.game.map(|g| g + 1),
        line: s.line + 1,
        message: &d.message,
        related: d
            .related
            .iter()
            .map(|r| {
                let p = index.line_col_near(text, r.range.start, chars, near_related);
                RelatedJson {
                    column: p.col + 1,
                    line: p.line + 1,
                    message: &r.message,
                }
            })
            .collect(),
        severity: d.severity.name(),
    }
}
