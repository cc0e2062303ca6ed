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
pub fn check_parsed(source: &SourceText, tree: &tree_sitter::Tree, _opts: &CheckOptions) -> CheckResult {
    let tree = tree.clone();
    let doc = crate::model::lower(&tree, &source.text);
    let mut diagnostics = syntax::syntax_diagnostics(&tree, &source.text);
    diagnostics.extend(crate::rules::check_document(source, &tree, &doc, _opts));
    diagnostics.sort_by(|a, b| (a.range.start, a.range.end, a.code.code).cmp(&(b.range.start, b.range.end, b.code.code)));
    CheckResult { games: doc.games.len(), diagnostics }
}
