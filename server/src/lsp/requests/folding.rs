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
    let model = snap.model();
    for g in &model.games {
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
    for c in &model.loose {
        add(c.range.clone(), Some(FoldingRangeKind::Comment));
    }
    Some(out)
}
