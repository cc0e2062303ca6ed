//! `textDocument/foldingRange`: games, sections and multi-line comments
//! (the same nodes as the grammar's `folds.scm`).

use crate::lsp::snapshot::Snapshot;
use tower_lsp_server::ls_types::*;

pub fn register(caps: &mut ServerCapabilities) {
    caps.folding_range_provider = Some(FoldingRangeProviderCapability::Simple(true));
}

pub fn folding_range(snap: &Snapshot, _params: FoldingRangeParams) -> Option<Vec<FoldingRange>> {
    let conv = snap.converter();
    let mut out = Vec::new();
    let mut add = |range: std::ops::Range<usize>, kind: Option<FoldingRangeKind>| {
        let s = conv.position(range.start);
        let e = conv.position(range.end);
        if e.line > s.line {
            out.push(FoldingRange {
                start_line: s.line,
                start_character: None,
                end_line: e.line,
                end_character: None,
                kind,
                collapsed_text: None,
            });
        }
    };
    let done = snap.for_each_piece(|games, loose| {
        for g in games {
            add(g.range.clone(), Some(FoldingRangeKind::Region));
            if let Some(a) = &g.auction {
                add(a.range.clone(), None);
            }
            if let Some(p) = &g.play {
                add(p.range.clone(), None);
            }
            for s in &g.sections {
                add(s.range.clone(), None);
            }
            for c in &g.comments {
                add(c.range.clone(), Some(FoldingRangeKind::Comment));
            }
        }
        for c in loose {
            add(c.range.clone(), Some(FoldingRangeKind::Comment));
        }
    });
    done.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot;

    #[test]
    fn games_sections_and_comments_fold() {
        let text = "[Event \"a\"]\n{ a\n comment }\n[Auction \"N\"]\n1C Pass\nPass Pass\n[Play \"E\"]\nSA - - -\n- - - -\n\n[Event \"one line\"]\n";
        let snap = snapshot(text);
        let params = FoldingRangeParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let folds: Vec<(u32, u32, Option<FoldingRangeKind>)> = folding_range(&snap, params)
            .unwrap()
            .into_iter()
            .map(|f| (f.start_line, f.end_line, f.kind))
            .collect();
        insta::assert_debug_snapshot!(folds);
    }
}
