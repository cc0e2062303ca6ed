//! `textDocument/formatting` and `rangeFormatting`: the export formatter of
//! `pbn fmt` (the file's own line endings are kept, as in the editor).

use crate::lsp::snapshot::Snapshot;
use pbn_core::format::{format, FormatOptions};
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
/// ([`Snapshot::format_edits`]).
pub fn document(snap: &Snapshot, _params: DocumentFormattingParams) -> Option<Vec<TextEdit>> {
    let edits = snap.format_edits(&options(snap))?;
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
    let mut out = format(&SourceText::from_text(piece.to_owned()), &opts).text;
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
        // One edit per game: the first game's tags and auction, the second's.
        insta::assert_debug_snapshot!(edits);
        assert_eq!(edits.len(), 2);
        // Formatting formatted text changes nothing.
        let formatted = format(&SourceText::from_text(TEXT.to_owned()), &options(&snap)).text;
        let again = snapshot(&formatted);
        assert!(document(&again, doc_params()).unwrap().is_empty());
    }

    #[test]
    fn range_formatting_keeps_inherited_header_tags() {
        let text = "[Event \"##Club\"]\n[Board \"1\"]\n\n[Board \"2\"] [Dealer \"n\"]\n";
        let snap = snapshot(text);
        let params = DocumentRangeFormattingParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            range: Range {
                start: Position {
                    line: 3,
                    character: 0,
                },
                end: Position {
                    line: 3,
                    character: 1,
                },
            },
            options: FormattingOptions {
                tab_size: 4,
                insert_spaces: true,
                ..Default::default()
            },
            work_done_progress_params: Default::default(),
        };
        let edits = range(&snap, params).unwrap();
        assert_eq!(edits[0].new_text, "[Board \"2\"]\n[Dealer \"N\"]");
    }

    #[test]
    fn range_formatting_formats_whole_touched_games_only() {
        let snap = snapshot(TEXT);
        let params = DocumentRangeFormattingParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            range: Range {
                start: Position {
                    line: 5,
                    character: 2,
                },
                end: Position {
                    line: 5,
                    character: 3,
                },
            },
            options: FormattingOptions {
                tab_size: 4,
                insert_spaces: true,
                ..Default::default()
            },
            work_done_progress_params: Default::default(),
        };
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
