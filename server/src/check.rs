//! The one code path that produces every diagnostic of a document, used by
//! `pbn check`; the language server gets the same diagnostics game by game
//! through [`crate::recheck`], which runs the same rule functions.

use crate::diagnostic::Diagnostic;
use crate::syntax::{self, Trees};
use crate::text::SourceText;

/// Options of a check run.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Also report what is legal in import format but not in export format.
    pub export: bool,
}

/// The result of checking one document.
#[derive(Debug)]
pub struct CheckResult {
    pub games: usize,
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks a decoded document (a large one on every core: parsed in pieces,
/// see [`syntax::parse_pieces`]).
pub fn check_text(source: &SourceText, opts: &CheckOptions) -> CheckResult {
    // Each piece lowered by the worker that parsed it, right away.
    let text = source.text.as_str();
    let (trees, parts) = syntax::parse_pieces_with(text, |trees| crate::model::lower::lower_piece(trees, text, 0));
    let doc = crate::model::lower::assemble(parts);
    let result = check_model(source, &trees, &doc, opts);
    crate::par::drop_later((trees, doc));
    result
}

/// Checks a document whose tree is already parsed (the language server
/// keeps it incrementally).
pub fn check_parsed<T: Trees + ?Sized>(source: &SourceText, trees: &T, opts: &CheckOptions) -> CheckResult {
    let doc = crate::model::lower(trees, &source.text);
    let result = check_model(source, trees, &doc, opts);
    crate::par::drop_later(doc);
    result
}

/// The order of every diagnostic list: by range, then code (stable).
pub(crate) fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| (a.range.start, a.range.end, a.code.code).cmp(&(b.range.start, b.range.end, b.code.code)));
}

/// Checks a parsed and lowered document.
pub fn check_model<T: Trees + ?Sized>(source: &SourceText, trees: &T, doc: &crate::model::Document, opts: &CheckOptions) -> CheckResult {
    let mut diagnostics = syntax::syntax_diagnostics_for(trees, &source.text, doc);
    diagnostics.extend(crate::rules::check_document(source, trees, doc, opts));
    sort(&mut diagnostics);
    CheckResult { games: doc.games.len(), diagnostics }
}
