//! The tests' references: each job done the straightforward way, on the
//! whole document at once (parsed as one piece, lowered whole, every rule
//! run on the whole model, every fix applied to the whole text). The
//! pipeline that the CLI, the language server and the web page call
//! ([`crate::checker::check_text`], [`crate::checker::check_segments`],
//! [`crate::format::format_streamed`], [`crate::format::format_piece_fixed`])
//! works piece by piece, and the tests prove it gives what these give
//! (`tests/tests/checker.rs`, `streaming.rs`, `split_parse.rs`, `hostile.rs`,
//! the fuzz targets). No caller outside the tests uses them.

use crate::checker::{group, syntax_diagnostics_for, CheckOptions, CheckResult};
use crate::diagnostic::sort;
use crate::format::{format_part, keep_from_marks, mandatory_marks, Assembler};
use crate::format::{FormatOptions, Formatted};
use crate::model::Document;
use crate::syntax::{self, Trees};
use crate::text::SourceText;

/// Checks a decoded document: parsed as one piece (its broken games one at
/// a time, as every parse is), then [`check_parsed`]. What
/// [`crate::checker::check_text`] must give.
pub fn check_whole(source: &SourceText, opts: &CheckOptions) -> CheckResult {
    let trees = syntax::parse_split(&source.text, usize::MAX);
    check_parsed(source, &trees, opts)
}

/// Checks a parsed document (whole, or cut in pieces: the same
/// diagnostics): lowered whole, every rule run on the whole model.
pub fn check_parsed<T: Trees + ?Sized>(
    source: &SourceText,
    trees: &T,
    opts: &CheckOptions,
) -> CheckResult {
    let doc = crate::model::lower(trees, &source.text);
    let mut diagnostics = syntax_diagnostics_for(trees, &source.text, &doc);
    diagnostics.extend(crate::rules::check_document(source, trees, &doc, opts));
    crate::rules::text::cap(&mut diagnostics, &Default::default());
    sort(&mut diagnostics);
    if !opts.ungrouped {
        group::group(&mut diagnostics, doc.games.len());
    }
    let games = doc.games.len();
    crate::par::drop_later(doc);
    CheckResult { games, diagnostics }
}

/// Formats a parsed and lowered document as written, whole: what
/// [`crate::format::format`] must give.
pub fn format_whole<T: Trees + ?Sized>(
    source: &SourceText,
    trees: &T,
    doc: &Document,
    opts: &FormatOptions,
) -> Formatted {
    let keep_absent = if opts.add_missing_tags {
        let marks: Vec<(u16, u16)> = doc.games.iter().map(mandatory_marks).collect();
        keep_from_marks(&marks)
    } else {
        vec![0; doc.games.len()]
    };
    let mut out = Assembler::new(source);
    out.push(format_part(
        &source.text,
        trees.trees(),
        &doc.games,
        &keep_absent,
        opts,
    ));
    out.finish(opts)
}

/// The text with every safe fix of its diagnostics, export rules on, as
/// `pbn fmt` applies them, applied to the whole text at once
/// ([`crate::checker::fix::fix_source`]), and how many were applied; `None`
/// when there was none. [`format_whole`] of it is what
/// [`crate::format::format_fixed`] must give. A safe fix never changes
/// what a game means beyond its score figures (`tests/tests/fix_meaning.rs`),
/// so a game whose syntax error a safe fix removes is formatted like any
/// other.
pub fn fix_whole(source: &SourceText) -> (Option<SourceText>, usize) {
    let fixed = crate::checker::fix::fix_source(source, &crate::format::fix_options(), false);
    let fixes = fixed.count();
    let crate::checker::fix::Fixed {
        source: text,
        remaining,
        ..
    } = fixed;
    crate::par::drop_later(remaining);
    ((fixes > 0).then_some(text), fixes)
}
