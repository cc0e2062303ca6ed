//! The query files compile against the grammar and capture what editors
//! expect at known positions.

use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

fn language() -> tree_sitter::Language {
    tree_sitter_pbn::LANGUAGE.into()
}

#[test]
fn every_query_compiles() {
    for (name, src) in [
        ("highlights", tree_sitter_pbn::HIGHLIGHTS_QUERY),
        ("folds", tree_sitter_pbn::FOLDS_QUERY),
        ("injections", tree_sitter_pbn::INJECTIONS_QUERY),
        ("textobjects", tree_sitter_pbn::TEXTOBJECTS_QUERY),
    ] {
        Query::new(&language(), src).unwrap_or_else(|e| panic!("{name}.scm: {e}"));
    }
}

/// The highlight capture of the innermost node starting at `needle`.
fn captures_at(src: &str, needle: &str) -> Vec<String> {
    let mut parser = Parser::new();
    parser.set_language(&language()).unwrap();
    let tree = parser.parse(src, None).unwrap();
    let query = Query::new(&language(), tree_sitter_pbn::HIGHLIGHTS_QUERY).unwrap();
    let offset = src.find(needle).expect("needle in source");
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&query, tree.root_node(), src.as_bytes());
    let mut out = Vec::new();
    while let Some(m) = matches.next() {
        for c in m.captures() {
            if c.node.start_byte() == offset && c.node.end_byte() == offset + needle.len() {
                out.push((
                    m.pattern_index,
                    query.capture_names()[c.index as usize].to_string(),
                ));
            }
        }
    }
    // In pattern order: editors let the last matching pattern win.
    out.sort();
    out.into_iter().map(|(_, n)| n).collect()
}

#[test]
fn highlight_captures_at_known_positions() {
    let src = "% PBN 2.1\n[Event \"x\"] ; c\n[Dealer \"N\"]\n[Auction \"N\"]\n1C =1= Pass $3 X XX\nAP\n[Note \"1:y\"]\n[Play \"E\"]\nSA ! ^R H2 - *\n[ScoreTable \"Rank\"]\n1\n";
    // Editors let the last matching pattern win.
    let first = |needle: &str| captures_at(src, needle).last().cloned().unwrap_or_default();
    assert_eq!(first("% PBN 2.1"), "keyword.directive");
    assert_eq!(first("; c"), "comment");
    assert_eq!(first("Event"), "property");
    assert_eq!(first("\"x\""), "string");
    assert_eq!(first("Auction"), "keyword");
    // A run of calls on a line is one node (§3.5.1): `X XX` one capture.
    assert_eq!(first("1C"), "constant.builtin");
    assert_eq!(first("=1="), "label");
    assert_eq!(first("Pass"), "constant.builtin");
    assert_eq!(first("$3"), "number");
    assert_eq!(first("X XX"), "constant.builtin");
    assert_eq!(first("XX"), "");
    assert_eq!(first("SA"), "constant");
    assert_eq!(first("!"), "operator");
    assert_eq!(first("^R"), "keyword.exception");
    assert_eq!(first("*"), "punctuation.special");
    assert_eq!(first("["), "punctuation.bracket");
}
