//! `textDocument/documentSymbol`: one symbol per game ("Board 7 · 4S by N
//! =", its sections as children).

use crate::lsp::snapshot::Snapshot;
use pbn_core::model::values;
use tower_lsp_server::ls_types::*;

pub fn register(caps: &mut ServerCapabilities) {
    caps.document_symbol_provider = Some(OneOf::Left(true));
}

/// "Board 7 · 4S by N =" (the result relative to the contract when known).
pub fn game_title(g: &pbn_core::model::Game) -> String {
    let mut title = match g.value("Board") {
        Some(b) if !b.is_empty() && b != "?" => format!("Board {b}"),
        _ => format!("Game {}", g.index + 1),
    };
    let contract = g
        .value("Contract")
        .and_then(|c| values::parse_contract(c).value);
    let declarer = g.value("Declarer").unwrap_or("");
    if let Some(c) = contract {
        let form = c.export_form();
        if !form.is_empty() {
            title.push_str(&format!(" · {form}"));
            if !declarer.is_empty() && declarer != "?" {
                title.push_str(&format!(" by {declarer}"));
            }
            if let (values::ContractValue::Contract(k), Some(r)) = (
                c.value,
                g.value("Result")
                    .and_then(|r| values::parse_result(r).value),
            ) {
                let ns = matches!(declarer.trim_start_matches('^'), "N" | "S");
                if let Some(t) = r.tricks.and_then(|t| t.for_declarer(ns)) {
                    let diff = t as i32 - (k.bid.level.get() as i32 + 6);
                    title.push_str(&match diff {
                        0 => " =".to_owned(),
                        d if d > 0 => format!(" +{d}"),
                        d => format!(" {d}"),
                    });
                }
            }
        }
    }
    title
}

#[allow(deprecated)]
fn symbol(
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    range: Range,
    selection: Range,
    children: Option<Vec<DocumentSymbol>>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children,
    }
}

pub fn document_symbol(
    snap: &Snapshot,
    _params: DocumentSymbolParams,
) -> Option<DocumentSymbolResponse> {
    let conv = snap.converter();
    let mut out = Vec::new();
    let done = snap.for_each_piece(|games, _| {
        for g in games {
            let range = conv.range(g.range.clone());
            let selection = g
                .tags
                .first()
                .map(|t| conv.range(t.range.clone()))
                .unwrap_or(range);
            let mut children = Vec::new();
            if let Some(a) = &g.auction {
                let r = conv.range(a.range.clone());
                children.push(symbol(
                    "Auction".into(),
                    g.tags
                        .get(a.tag)
                        .and_then(|t| t.effective())
                        .map(str::to_owned),
                    SymbolKind::NAMESPACE,
                    r,
                    r,
                    None,
                ));
            }
            if let Some(p) = &g.play {
                let r = conv.range(p.range.clone());
                children.push(symbol(
                    "Play".into(),
                    g.tags
                        .get(p.tag)
                        .and_then(|t| t.effective())
                        .map(str::to_owned),
                    SymbolKind::NAMESPACE,
                    r,
                    r,
                    None,
                ));
            }
            for s in &g.sections {
                if let Some(t) = g.tags.get(s.tag) {
                    let r = conv.range(s.range.clone());
                    children.push(symbol(
                        t.name.as_str().to_owned(),
                        None,
                        SymbolKind::STRUCT,
                        r,
                        r,
                        None,
                    ));
                }
            }
            let detail = g
                .value("Event")
                .filter(|e| !e.is_empty() && *e != "?")
                .map(str::to_owned);
            out.push(symbol(
                game_title(g),
                detail,
                SymbolKind::MODULE,
                range,
                selection,
                Some(children),
            ));
        }
    });
    done.then_some(DocumentSymbolResponse::Nested(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot;

    #[test]
    fn one_symbol_per_game_with_contract_and_result() {
        let text = "[Event \"Club\"]\n[Board \"7\"]\n[Declarer \"N\"]\n[Contract \"4S\"]\n[Result \"11\"]\n[Auction \"N\"]\n1S Pass 4S AP\n\n[Board \"8\"]\n[Declarer \"E\"]\n[Contract \"3NTX\"]\n[Result \"7\"]\n\n[Event \"no board\"]\n[OptimumResultTable \"Declarer;Denomination;Result\"]\nN NT 9\n";
        let snap = snapshot(text);
        let params = DocumentSymbolParams {
            text_document: TextDocumentIdentifier {
                uri: "file:///t.pbn".parse().unwrap(),
            },
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        };
        let Some(DocumentSymbolResponse::Nested(symbols)) = document_symbol(&snap, params) else {
            panic!()
        };
        let names: Vec<(String, Vec<String>)> = symbols
            .iter()
            .map(|s| {
                (
                    s.name.clone(),
                    s.children
                        .iter()
                        .flatten()
                        .map(|c| c.name.clone())
                        .collect(),
                )
            })
            .collect();
        insta::assert_debug_snapshot!(names);
    }
}
