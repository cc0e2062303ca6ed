//! `textDocument/formatting` and `rangeFormatting`: the export formatter of
//! `pbn fmt`, safe fixes included (the file's own line endings are kept, as
//! in the editor).

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

/// The edits that format the document: what `pbn fmt` writes (every safe
/// fix applied, `P` → `Pass`, `3N` → `3NT`, then export layout), at any
/// size. None when it is formatted already, else one per run of changed
/// lines, from the pieces fixed and
/// formatted for earlier versions where they did not change
/// ([`Snapshot::format_edits`]): format-on-save never re-checks and
/// re-formats a large file whole.
pub fn document(snap: &Snapshot, _params: DocumentFormattingParams) -> Option<Vec<TextEdit>> {
    let edits = snap.format_edits(&options(snap))?;
    Some(text_edits(snap, edits))
}

/// LSP edits of the changed lines only: each formatted game compared with
/// the document's text line by line ([`crate::lsp::line_diff`]).
pub fn text_edits(snap: &Snapshot, edits: Vec<(std::ops::Range<usize>, String)>) -> Vec<TextEdit> {
    let conv = snap.converter();
    let text = &snap.source.text;
    edits
        .into_iter()
        .flat_map(|(r, new)| crate::lsp::line_diff::line_edits(&text[r.clone()], &new, r.start))
        .map(|(r, new_text)| TextEdit {
            range: conv.range(r),
            new_text,
        })
        .collect()
}

/// Formats the whole games that the range touches (edits of the changed
/// lines only).
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
    Some(text_edits(snap, vec![(span, out)]))
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
        // The export forms have safe fixes (`n`, `1c`, `pass`), applied
        // piece by piece: an edit per run of changed lines (the tags, the
        // auction's line: not the `[Auction]` line between them), together
        // what `pbn fmt` writes.
        insta::assert_debug_snapshot!(edits);
        assert_eq!(edits.len(), 3);
        assert_eq!(edits[1].new_text, "1C Pass Pass Pass");
        let formatted = format_fixed(&SourceText::from_text(TEXT.to_owned()), &options(&snap)).text;
        assert_eq!(apply(TEXT, &edits), formatted);
        // Formatting formatted text changes nothing.
        let again = snapshot(&formatted);
        assert!(document(&again, doc_params()).unwrap().is_empty());
    }

    /// A safe fix in one game of a formatted document: one edit, the
    /// fixed call only (not a whole-document or whole-game edit).
    #[test]
    fn a_safe_fix_in_one_game_is_one_minimal_edit() {
        let game = |board: usize, last: &str| {
            format!("[Board \"{board}\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass Pass {last}\n")
        };
        let doc = |middle: &str| [game(1, "Pass"), game(2, middle), game(3, "Pass")].join("\n");
        let formatted = format_fixed(
            &SourceText::from_text(doc("Pass")),
            &options(&snapshot(&doc("Pass"))),
        )
        .text;
        assert!(document(&snapshot(&formatted), doc_params())
            .unwrap()
            .is_empty());
        // The middle game's last call written `P` (PBN0520, a safe fix).
        let at = formatted.match_indices("Pass\n").nth(1).unwrap().0;
        let text = format!("{}P{}", &formatted[..at], &formatted[at + 4..]);
        let edits = document(&snapshot(&text), doc_params()).unwrap();
        assert_eq!(edits.len(), 1, "{edits:?}");
        assert_eq!(edits[0].new_text, "ass");
        assert_eq!(apply(&text, &edits), formatted);
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
    fn range_formatting_applies_safe_fixes() {
        // The formatter writes `P` as `Pass` by itself; the date is a fix.
        let text = "[Date \"2024-07-12\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C P P P\n";
        let snap = snapshot(text);
        let params = range_params(2, 0, 1);
        let edits = range(&snap, params).unwrap();
        // The changed lines only: the tags around the date, the missing
        // tags after the Dealer, the auction's line.
        assert_eq!(edits.len(), 3, "{edits:?}");
        assert!(edits[0].new_text.contains("2024.07.12"), "{edits:?}");
        assert_eq!(edits[2].new_text, "1C Pass Pass Pass", "{edits:?}");
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
