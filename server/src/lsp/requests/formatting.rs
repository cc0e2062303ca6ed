//! `textDocument/formatting` and `rangeFormatting`: the export formatter of
//! `pbn fmt`, safe fixes included up to [`FIX_WHOLE_LIMIT`] bytes (the
//! file's own line endings are kept, as in the editor).

use crate::lsp::snapshot::Snapshot;
use pbn_core::format::{format_fixed, FormatOptions};
use pbn_core::text::SourceText;
use tower_lsp_server::ls_types::*;

pub fn register(caps: &mut ServerCapabilities) {
    caps.document_formatting_provider = Some(OneOf::Left(true));
    caps.document_range_formatting_provider = Some(OneOf::Left(true));
}

/// The options of a formatting request on `snap`.
pub fn options(snap: &Snapshot) -> FormatOptions {
    FormatOptions {
        add_missing_tags: snap.settings.add_missing_tags,
        ..FormatOptions::default()
    }
}

/// The edits that format the document: none when it is formatted already,
/// else one per run of changed text (a game and the blank lines around it),
/// from the pieces formatted for earlier versions where they did not change
/// ([`Snapshot::format_edits`]). While the check finds a safe fix, a
/// document of at most [`FIX_WHOLE_LIMIT`] bytes is fixed and formatted
/// whole instead ([`fixed_edits`]): what `pbn fmt` writes. A larger one is
/// formatted as written, piece by piece (its fixes are left to the
/// `source.fixAll.pbn` code action and `pbn fmt`), so that format-on-save
/// never re-checks and re-formats a large file whole.
pub fn document(snap: &Snapshot, _params: DocumentFormattingParams) -> Option<Vec<TextEdit>> {
    let opts = options(snap);
    let edits = match fixed_edits(snap, &opts, FIX_WHOLE_LIMIT) {
        Some(e) => e,
        None => snap.format_edits(&opts)?,
    };
    let conv = snap.converter();
    Some(
        edits
            .into_iter()
            .map(|(r, new_text)| TextEdit {
                range: conv.range(r),
                new_text,
            })
            .collect(),
    )
}

/// The largest document whose safe fixes the formatting request applies
/// (about 2,000 games: a whole-document fix and format of it takes a
/// few tenths of a second).
pub const FIX_WHOLE_LIMIT: usize = 2 << 20;

/// When the document may have a safe fix (the snapshot's check has one;
/// or it ran without the export rules, whose fixes `pbn fmt` applies to
/// every game: `3N` → `3NT`, `s` → `S`, a Deal from the dealer), the
/// document with every safe fix applied and then formatted
/// ([`format_fixed`]), as one edit of the span that changes; `None` when
/// no safe fix applies or the document is larger than `limit` bytes. Fixes do not span pieces, but fixing one piece can
/// uncover a fix in another (a `##` value), so the fixes are found on the
/// whole document, as `pbn check --fix` finds them; once they are applied,
/// the next request takes the per-piece path again.
fn fixed_edits(
    snap: &Snapshot,
    opts: &FormatOptions,
    limit: usize,
) -> Option<Vec<(std::ops::Range<usize>, String)>> {
    if snap.source.text.len() > limit {
        return None;
    }
    let pending = !snap.settings.export
        || snap
            .check()
            .diagnostics
            .iter()
            .any(|d| d.fix.as_deref().is_some_and(|f| f.applies(false)));
    if !pending {
        return None;
    }
    let out = format_fixed(&snap.source, opts);
    if out.fixes == 0 {
        return None;
    }
    let text = snap.source.text.as_str();
    if out.text == text {
        return Some(Vec::new());
    }
    let (pre, suf) = pbn_core::format::common_ends(text, &out.text);
    Some(vec![(
        pre..text.len() - suf,
        out.text[pre..out.text.len() - suf].to_owned(),
    )])
}

/// Formats the whole games that the range touches.
pub fn range(snap: &Snapshot, params: DocumentRangeFormattingParams) -> Option<Vec<TextEdit>> {
    let conv = snap.converter();
    let r = conv.byte_range(params.range);
    let games: Vec<_> = snap.games_overlapping(r.clone()).collect();
    let (first, last) = (games.first()?, games.last()?);
    let span = first.range.start..last.range.end;
    let piece = &snap.source.text[span.clone()];
    let mut opts = options(snap);
    // Formatted on their own, games that inherit `##` values from earlier
    // games (§4.8) would get those tags added as "?": leave them out.
    if games.iter().any(|g| !g.inherited.is_empty()) {
        opts.add_missing_tags = false;
    }
    // The piece may have no line end of its own: use the document's.
    let crlf = snap.source.text.matches("\r\n").count();
    let lf = snap.source.text.matches('\n').count() - crlf;
    opts.eol = if crlf >= lf && crlf > 0 {
        pbn_core::format::EolOption::Crlf
    } else {
        pbn_core::format::EolOption::Lf
    };
    let mut out = format_fixed(&SourceText::from_text(piece.to_owned()), &opts).text;
    // The piece ends without its line break in the document.
    while out.ends_with(['\n', '\r']) {
        out.pop();
    }
    if out == piece {
        return Some(Vec::new());
    }
    Some(vec![TextEdit {
        range: conv.range(span),
        new_text: out,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot;

    const TEXT: &str = "[Event \"a\"]\n[Dealer \"n\"]\n[Auction \"N\"]\n1c pass ap\n\n[Board \"2\"] [Event \"b\"]\n";

    fn doc_params() -> DocumentFormattingParams {
        DocumentFormattingParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            options: FormattingOptions {
                tab_size: 4,
                insert_spaces: true,
                ..Default::default()
            },
            work_done_progress_params: Default::default(),
        }
    }

    #[test]
    fn document_formatting_edits_the_changed_games_only() {
        let snap = snapshot(TEXT);
        let edits = document(&snap, doc_params()).unwrap();
        // A small document whose export forms have safe fixes (`n`, `1c`,
        // `pass`) is fixed and formatted whole: one edit, trimmed to the
        // text that changes (from the first game's tags to the second's).
        insta::assert_debug_snapshot!(edits);
        assert_eq!(edits.len(), 1);
        // Formatting formatted text changes nothing.
        let formatted = format_fixed(&SourceText::from_text(TEXT.to_owned()), &options(&snap)).text;
        let again = snapshot(&formatted);
        assert!(document(&again, doc_params()).unwrap().is_empty());
    }

    /// A range formatting request for characters `from..to` of `line`.
    fn range_params(line: u32, from: u32, to: u32) -> DocumentRangeFormattingParams {
        let at = |character| Position { line, character };
        DocumentRangeFormattingParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            range: Range {
                start: at(from),
                end: at(to),
            },
            options: doc_params().options,
            work_done_progress_params: Default::default(),
        }
    }

    /// Applies `edits` (in order, apart) to `text`.
    fn apply(text: &str, edits: &[TextEdit]) -> String {
        let snap = snapshot(text);
        let conv = snap.converter();
        let mut out = text.to_owned();
        for e in edits.iter().rev() {
            out.replace_range(conv.byte_range(e.range), &e.new_text);
        }
        out
    }

    #[test]
    fn document_formatting_applies_safe_fixes() {
        // `P` and `Dbl` are read as `Pass` and `X` (PBN0520, a safe fix);
        // the date as 2024.07.12 (PBN0302).
        let text = "[Date \"2024-07-12\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C Dbl P P\nP\n";
        let snap = snapshot(text);
        let edits = document(&snap, doc_params()).unwrap();
        let out = apply(text, &edits);
        assert_eq!(
            out,
            format_fixed(&SourceText::from_text(text.to_owned()), &options(&snap)).text
        );
        assert!(out.contains("1C X Pass Pass\nPass"), "{out}");
        assert!(out.contains("[Date \"2024.07.12\"]"), "{out}");
        // Formatted and fixed: nothing more to do.
        assert!(document(&snapshot(&out), doc_params()).unwrap().is_empty());
    }

    #[test]
    fn a_document_over_the_limit_is_formatted_as_written_piece_by_piece() {
        let text = "[Date \"2024-07-12\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C Dbl P P\nP\n";
        let snap = snapshot(text);
        let opts = options(&snap);
        assert!(fixed_edits(&snap, &opts, text.len()).is_some());
        assert!(fixed_edits(&snap, &opts, text.len() - 1).is_none());
    }

    #[test]
    fn range_formatting_applies_safe_fixes() {
        // The formatter writes `P` as `Pass` by itself; the date is a fix.
        let text = "[Date \"2024-07-12\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C P P P\n";
        let snap = snapshot(text);
        let params = range_params(2, 0, 1);
        let edits = range(&snap, params).unwrap();
        assert!(edits[0].new_text.contains("1C Pass Pass Pass"), "{edits:?}");
        assert!(edits[0].new_text.contains("2024.07.12"), "{edits:?}");
    }

    #[test]
    fn range_formatting_keeps_inherited_header_tags() {
        let text = "[Event \"##Club\"]\n[Board \"1\"]\n\n[Board \"2\"] [Dealer \"n\"]\n";
        let snap = snapshot(text);
        let params = range_params(3, 0, 1);
        let edits = range(&snap, params).unwrap();
        assert_eq!(edits[0].new_text, "[Board \"2\"]\n[Dealer \"N\"]");
    }

    #[test]
    fn range_formatting_formats_whole_touched_games_only() {
        let snap = snapshot(TEXT);
        let params = range_params(5, 2, 3);
        let edits = range(&snap, params).unwrap();
        assert_eq!(edits.len(), 1);
        assert_eq!(
            edits[0].range.start,
            Position {
                line: 5,
                character: 0
            }
        );
        insta::assert_snapshot!(edits[0].new_text);
    }
}
