//! The captures of tree-sitter-pbn's highlights query as byte ranges with
//! their capture names: the language server's semantic tokens and the web
//! page's highlighting both come from here.
//!
//! A node that holds a run of tokens is split into its tokens: a `cards`
//! run (a play section's line) into cards (`constant`) and dashes
//! (`punctuation.delimiter`), a `calls` run into bids (`number`), passes
//! (`constant.builtin`), doubles (`operator`) and dashes; a token that is
//! neither gets no range. A `section_token` (a table row, §5) gets one
//! range per §3.2 token, with the node's capture name.

use std::ops::Range;
use std::sync::OnceLock;
use tree_sitter::{Query, QueryCursor, StreamingIterator, Tree};

/// tree-sitter-pbn's highlights query, compiled once.
pub fn query() -> &'static Query {
    static QUERY: OnceLock<Query> = OnceLock::new();
    QUERY.get_or_init(|| {
        Query::new(&super::language(), tree_sitter_pbn::HIGHLIGHTS_QUERY)
            .expect("tree-sitter-pbn's highlights query compiles")
    })
}

/// One highlighted byte range: `value` is what the caller made of its
/// capture name; `pattern` the query pattern that matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight<T> {
    pub range: Range<usize>,
    pub pattern: usize,
    pub value: T,
}

/// Pushes onto `out` the captures of `tree` (over `text`) whose capture
/// name `value_of` turns into a value, runs of tokens split into their
/// tokens (see the module's documentation), in the query's match order.
pub fn captures<T: Clone>(
    tree: &Tree,
    text: &str,
    cursor: &mut QueryCursor,
    value_of: impl Fn(&'static str) -> Option<T>,
    out: &mut Vec<Highlight<T>>,
) {
    let q = query();
    let names = q.capture_names();
    let lang = super::language();
    let section_token = lang.id_for_node_kind("section_token", true);
    let cards = lang.id_for_node_kind("cards", true);
    let calls = lang.id_for_node_kind("calls", true);
    let mut matches = cursor.matches(q, tree.root_node(), text.as_bytes());
    while let Some(m) = matches.next() {
        for c in m.captures() {
            let name = names[c.index as usize];
            let Some(value) = value_of(name) else {
                continue;
            };
            let r = c.node.byte_range();
            if r.start >= r.end || r.end > text.len() {
                continue;
            }
            let mut push = |range: Range<usize>, value: T| {
                out.push(Highlight {
                    range,
                    pattern: m.pattern_index,
                    value,
                })
            };
            if c.node.kind_id() == cards {
                for r in super::section_cells(text, r) {
                    let cell = match super::card_cell(&text[r.clone()]) {
                        super::CardCell::Card => "constant",
                        super::CardCell::Dash => "punctuation.delimiter",
                        super::CardCell::Invalid => continue,
                    };
                    if let Some(v) = value_of(cell) {
                        push(r, v);
                    }
                }
            } else if c.node.kind_id() == calls {
                // A run of call tokens (§3.5.1): each token as its call
                // kind, a token that is not a call not at all.
                for r in super::section_cells(text, r) {
                    use super::CallCell as C;
                    let cell = match super::call_cell(&text[r.clone()]) {
                        C::Bid => "number",
                        C::Pass | C::AllPass => "constant.builtin",
                        C::Double | C::Redouble => "operator",
                        C::Dash => "punctuation.delimiter",
                        C::Invalid => continue,
                    };
                    if let Some(v) = value_of(cell) {
                        push(r, v);
                    }
                }
            } else if c.node.kind_id() == section_token {
                // One range per §3.2 token, not over the spaces between.
                for r in super::section_cells(text, r) {
                    push(r, value.clone());
                }
            } else {
                push(r, value);
            }
        }
    }
}

/// `all` in document order without overlaps: the last pattern wins on the
/// same range; of nested or overlapping ranges the earlier, outer one is
/// kept.
pub fn without_overlaps<T>(mut all: Vec<Highlight<T>>) -> Vec<Highlight<T>> {
    all.sort_by_key(|h| {
        (
            h.range.start,
            std::cmp::Reverse(h.range.end),
            std::cmp::Reverse(h.pattern),
        )
    });
    let mut out: Vec<Highlight<T>> = Vec::with_capacity(all.len());
    for h in all {
        if out.last().is_some_and(|p| h.range.start < p.range.end) {
            continue;
        }
        out.push(h);
    }
    out
}

/// The highlights of a whole text with their capture names, in order and
/// without overlaps (the web page's highlighting).
pub fn highlights(text: &str) -> Vec<Highlight<&'static str>> {
    let trees = super::parse_pieces(text);
    let mut cursor = QueryCursor::new();
    let mut all = Vec::new();
    for tree in super::Trees::trees(&trees) {
        captures(tree, text, &mut cursor, Some, &mut all);
    }
    without_overlaps(all)
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_are_split_into_tokens() {
        let text = "[Dealer \"N\"]\n[Auction \"N\"]\n1NT Pass X -\n";
        let names: Vec<(&str, &str)> = super::highlights(text)
            .into_iter()
            .map(|h| (&text[h.range], h.value))
            .collect();
        assert!(names.contains(&("1NT", "number")), "{names:?}");
        assert!(names.contains(&("Pass", "constant.builtin")), "{names:?}");
        assert!(names.contains(&("X", "operator")), "{names:?}");
    }
}
