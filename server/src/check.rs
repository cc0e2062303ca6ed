//! The one code path that produces every diagnostic of a document, used by
//! `pbn check` and (later) the language server.

use crate::diagnostic::Diagnostic;
use crate::syntax;
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

/// Checks a decoded document.
pub fn check_text(source: &SourceText, opts: &CheckOptions) -> CheckResult {
    let tree = syntax::parse(&source.text);
    check_parsed(source, &tree, opts)
}

/// Checks a document whose tree is already parsed (the language server
/// keeps it incrementally).
pub fn check_parsed(source: &SourceText, tree: &tree_sitter::Tree, opts: &CheckOptions) -> CheckResult {
    let doc = crate::model::lower(tree, &source.text);
    check_model(source, tree, &doc, opts, &crate::rules::GameCache::default()).0
}

/// Checks a parsed and lowered document, reusing the per-game diagnostics
/// of `cache` for games that did not change (the language server's
/// incremental re-check); returns the cache for the next check.
pub fn check_model(
    source: &SourceText,
    tree: &tree_sitter::Tree,
    doc: &crate::model::Document,
    opts: &CheckOptions,
    cache: &crate::rules::GameCache,
) -> (CheckResult, crate::rules::GameCache) {
    let mut diagnostics = syntax::syntax_diagnostics_for(tree, &source.text, doc);
    let (rules, next) = crate::rules::check_document_cached(source, tree, doc, opts, cache);
    diagnostics.extend(rules);
    diagnostics.sort_by(|a, b| (a.range.start, a.range.end, a.code.code).cmp(&(b.range.start, b.range.end, b.code.code)));
    (CheckResult { games: doc.games.len(), diagnostics }, next)
}
