//! Checking a whole document: `pbn check`'s [`check_text`] (the language
//! server's game-by-game re-check, [`crate::recheck`], from an empty state)
//! and the reference it is tested against, [`check_whole`] (every rule on
//! the whole parsed and lowered document at once). Both run the rule
//! functions of [`crate::rules`].

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

/// Checks a decoded document: `pbn check`'s path. The text is cut at game
/// breaks into pieces of about [`syntax::EDIT_PIECE`] bytes and run
/// through the language server's re-check ([`crate::recheck`]) from an
/// empty state: the pieces are parsed on every core, and each piece's games
/// are lowered and checked by the worker that parsed it while its trees
/// are at hand (in its caches), so that the trees of the whole document
/// never exist at once (a tenth of the memory, and no time spent faulting
/// it in). A document with `#` values (§4.8) needs every game's tags before
/// any game can be checked; its piece trees are kept until the end so that
/// each piece is still parsed once. The diagnostics are those of
/// [`check_whole`] (tested in `tests/tests/recheck.rs`).
pub fn check_text(source: &SourceText, opts: &CheckOptions) -> CheckResult {
    let text = source.text.as_str();
    let budget = if source.uses_hash_values() {
        usize::MAX
    } else {
        0
    };
    let forest = syntax::Forest::cut_with_cache(text, syntax::EDIT_PIECE, budget);
    let (result, state, _) =
        crate::recheck::recheck(source, &forest, opts, &crate::recheck::State::default());
    crate::par::drop_later((forest, state));
    result
}

/// Checks a decoded document the straightforward way: parsed as one piece
/// (its broken games one at a time, as every parse is), lowered whole, all
/// rules run on the whole model. What [`check_text`] must give, piece by
/// piece; the tests' reference.
pub fn check_whole(source: &SourceText, opts: &CheckOptions) -> CheckResult {
    let trees = syntax::parse_split(&source.text, usize::MAX);
    check_parsed(source, &trees, opts)
}

/// Checks a document whose tree is already parsed (the language server
/// keeps it incrementally).
pub fn check_parsed<T: Trees + ?Sized>(
    source: &SourceText,
    trees: &T,
    opts: &CheckOptions,
) -> CheckResult {
    let doc = crate::model::lower(trees, &source.text);
    let result = check_model(source, trees, &doc, opts);
    crate::par::drop_later(doc);
    result
}

/// The order of every diagnostic list: by range, then code (stable).
pub(crate) fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.range.start, a.range.end, a.code.code).cmp(&(b.range.start, b.range.end, b.code.code))
    });
}

/// Checks a parsed and lowered document.
pub fn check_model<T: Trees + ?Sized>(
    source: &SourceText,
    trees: &T,
    doc: &crate::model::Document,
    opts: &CheckOptions,
) -> CheckResult {
    let mut diagnostics = syntax::syntax_diagnostics_for(trees, &source.text, doc);
    diagnostics.extend(crate::rules::check_document(source, trees, doc, opts));
    crate::rules::text::cap(&mut diagnostics);
    sort(&mut diagnostics);
    CheckResult {
        games: doc.games.len(),
        diagnostics,
    }
}
