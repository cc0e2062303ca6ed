//! The syntax layer: tree-sitter-pbn is the only definition of PBN syntax.
//!
//! [`parse`] runs the grammar; [`games`] splits the document into games at
//! the `game_break` nodes (semi-empty lines, §3); [`syntax_diagnostics`]
//! turns ERROR/MISSING nodes and the grammar's lenient error leaves
//! (`unterminated_string`, `unterminated_comment`, `unquoted_value`, a tag
//! pair without value) into diagnostics.

mod diagnostics;
pub mod highlight;
pub(crate) mod split;

pub use diagnostics::{nodes_diagnostics, root_error, syntax_diagnostics, syntax_diagnostics_in};
#[cfg(fuzzing)]
pub use split::restart_ids_for_fuzzing;
pub use split::{
    continues_game, cut_points, parse_pieces, parse_split, Forest, PieceTrees, TreeCache,
    CACHE_BUDGET, EDIT_PIECE, GAME_WINDOW,
};

use std::cell::RefCell;
use std::ops::Range;
use tree_sitter::{Node, Parser, Tree};

thread_local! {
    static PARSER: RefCell<Parser> = RefCell::new(new_parser());
}

/// A parser for the PBN language.
pub fn new_parser() -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_pbn::LANGUAGE.into())
        .expect("tree-sitter-pbn is built for a compatible tree-sitter ABI");
    parser
}

/// The tree-sitter language of PBN.
pub fn language() -> tree_sitter::Language {
    tree_sitter_pbn::LANGUAGE.into()
}

/// Parses a whole document (with a per-thread parser) into one tree; batch
/// tools use [`parse_pieces`], which parses large files on every core, and
/// the language server parses one [`Forest`] piece at a time.
pub fn parse(text: &str) -> Tree {
    with_parser(|p| parse_with_nul(p, text, 0..text.len()))
}

/// Parses `text[range]` (the parser's included ranges say which part)
/// with each NUL read as U+0001. Tree-sitter's lexer takes a NUL for the
/// end of the text, so no token could hold one and how the text around it
/// parsed would depend on error recovery (a quoted value holding a NUL
/// would not read as a string, so quoting it would change what the game
/// around it means). Read as another control character, it stands inside
/// a token as any other; PBN0101 still reports it, from the text. Offsets
/// and line ends are unchanged.
pub(crate) fn parse_with_nul(p: &mut Parser, text: &str, range: Range<usize>) -> Tree {
    let b = text.as_bytes();
    let tree = if memchr::memchr(0, &b[range]).is_none() {
        p.parse(text, None)
    } else {
        let mut read = |i: usize, _: tree_sitter::Point| -> &[u8] {
            match b.get(i..) {
                Some([0, ..]) => &[1],
                Some(rest) => &rest[..memchr::memchr(0, rest).unwrap_or(rest.len())],
                None => &[],
            }
        };
        p.parse_with_options(&mut read, None, None)
    };
    tree.expect("parsing without a timeout or cancellation flag always yields a tree")
}

fn with_parser<R>(f: impl FnOnce(&mut Parser) -> R) -> R {
    PARSER.with(|p| f(&mut p.borrow_mut()))
}

/// The §3.2 section tokens of a `section_token` node, as byte ranges into
/// `text`. The grammar makes one node of a run of section tokens on one line
/// with the white space between them (a table row, §5: one leaf instead of
/// one per cell, which makes parsing cheaper); every layer that needs the
/// tokens themselves (the model's elements, the token rules, semantic
/// tokens) splits the node here. The separators are those of the grammar's
/// extras (`\s` in tree-sitter: space, tab, vertical tab, form feed and the
/// line ends, which cannot occur inside the node).
pub fn section_cells(text: &str, range: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let b = &text.as_bytes()[..range.end];
    let blank = |c: u8| c == b' ' || (b'\t'..=b'\r').contains(&c);
    let mut i = range.start;
    std::iter::from_fn(move || {
        while i < b.len() && blank(b[i]) {
            i += 1;
        }
        if i == b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && !blank(b[i]) {
            i += 1;
        }
        Some(start..i)
    })
}

/// What a §3.2 token of a `cards` node is. The grammar makes one node of
/// a run of card tokens on one line (§3.6.1; as for [`section_cells`], a
/// leaf per card made the play sections a third of the parse), split by
/// [`section_cells`]; each token is a card (`[SHDC][AKQJT2-9]`, either case,
/// §3.6.1, §3.11), the `-` of a card not played (§3.6.1), or any other
/// token (`S10`, `SKX`, `--`: not a card, which the checker reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardCell {
    Card,
    Dash,
    Invalid,
}

/// The kind of one §3.2 token of a `cards` node (see [`CardCell`]).
pub fn card_cell(token: &str) -> CardCell {
    if token == "-" {
        CardCell::Dash
    } else if crate::spec::cards::read_standard(token).is_some() {
        CardCell::Card
    } else {
        CardCell::Invalid
    }
}

/// What a §3.2 token of a `calls` node is. The grammar makes one node of a
/// run of call tokens on one line (§3.5.1; as for `cards`, a leaf per call
/// made a long auction line a node per call), split by [`section_cells`];
/// each token is a bid (`1C` … `7NT`), `Pass`, `X`, `XX`, `AP`, the `-` of
/// an unknown call (§3.5.1), in either case (§3.11), or any other token
/// (`1N`, `P`, `1NTX`, `--`: not a call, which the checker reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallCell {
    Bid,
    Pass,
    Double,
    Redouble,
    AllPass,
    Dash,
    Invalid,
}

/// The kind of one §3.2 token of a `calls` node (see [`CallCell`]).
pub fn call_cell(token: &str) -> CallCell {
    use crate::spec::calls::Call;
    if token == "-" {
        return CallCell::Dash;
    }
    match crate::spec::calls::read_standard(token) {
        Some(Call::Bid { .. }) => CallCell::Bid,
        Some(Call::Pass) => CallCell::Pass,
        Some(Call::Double) => CallCell::Double,
        Some(Call::Redouble) => CallCell::Redouble,
        Some(Call::AllPass) => CallCell::AllPass,
        None => CallCell::Invalid,
    }
}

/// The name and the value of a well-formed tag pair (§3.3), as byte ranges
/// into the text: `name` is the name token, `value` the inside of the
/// string token (without its quotes, escapes not undone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagParts {
    pub name: Range<usize>,
    pub value: Range<usize>,
}

/// The parts of the tag pair at `range` of `text` when it is written the
/// usual way: `[`, the name (§3.2: letters, digits, `_`), a complete string
/// token (`\"` and `\\` escapes, no line end) and `]`, with only spaces and
/// tabs around them, and nothing else in `range`. These are exactly the
/// grammar's `[`, `tag_name`, `string` and `]` tokens of such a pair, read
/// from the text rather than from four tree nodes (lowering reads every tag
/// pair, most of a game's nodes). `None` for any other text (a comment, a
/// line end, an unquoted or unterminated value, a missing name or bracket):
/// the caller then reads the tree's nodes.
pub fn tag_parts(text: &str, range: Range<usize>) -> Option<TagParts> {
    let b = text.as_bytes().get(range.clone())?;
    let base = range.start;
    let blank = |i: &mut usize| {
        while b.get(*i).is_some_and(|&c| c == b' ' || c == b'\t') {
            *i += 1;
        }
    };
    if b.first() != Some(&b'[') || b.last() != Some(&b']') {
        return None;
    }
    let mut i = 1;
    blank(&mut i);
    let name_start = i;
    while b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        i += 1;
    }
    let name = base + name_start..base + i;
    if name.is_empty() {
        return None;
    }
    blank(&mut i);
    if b.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    let value_start = i;
    loop {
        match b.get(i)? {
            b'"' => break,
            b'\r' | b'\n' => return None,
            b'\\' => {
                if matches!(b.get(i + 1)?, b'\r' | b'\n') {
                    return None;
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    let value = base + value_start..base + i;
    i += 1;
    blank(&mut i);
    (i + 1 == b.len()).then_some(TagParts { name, value })
}

/// A parsed document: one tree ([`parse`]), or the trees of consecutive
/// pieces cut at game breaks ([`parse_pieces`], a [`Forest`] piece's
/// [`PieceTrees`]). Every
/// layer that walks the syntax takes `&impl Trees` and visits the pieces in
/// order; their top-level nodes, concatenated, are the document's.
pub trait Trees {
    fn trees(&self) -> &[Tree];
}

impl Trees for Tree {
    fn trees(&self) -> &[Tree] {
        std::slice::from_ref(self)
    }
}

impl Trees for [Tree] {
    fn trees(&self) -> &[Tree] {
        self
    }
}

impl Trees for Vec<Tree> {
    fn trees(&self) -> &[Tree] {
        self
    }
}

/// Calls `f` on `root` and on every node under it, in document order
/// (an iterative pre-order walk: the cursor cannot leave `root`, its root).
pub fn for_each_node<'t>(root: Node<'t>, mut f: impl FnMut(Node<'t>)) {
    let mut cursor = root.walk();
    loop {
        f(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The top-level nodes of the document (children of the `document` node of
/// every piece), in order.
pub fn top_nodes<T: Trees + ?Sized>(trees: &T) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    for tree in trees.trees() {
        let root = tree.root_node();
        let mut cursor = root.walk();
        out.extend(root.children(&mut cursor));
    }
    out
}

/// The root node of the tree of `trees` (a piece's consecutive trees,
/// [`PieceTrees`]) that holds byte `offset`.
pub fn root_at(trees: &[Tree], offset: usize) -> Node<'_> {
    let i = trees
        .iter()
        .rposition(|t| t.root_node().start_byte() <= offset)
        .unwrap_or(0);
    trees[i].root_node()
}

/// Whether any piece has an ERROR or MISSING node.
pub fn has_error<T: Trees + ?Sized>(trees: &T) -> bool {
    trees.trees().iter().any(|t| t.root_node().has_error())
}

/// One game: the document children between two game breaks (§3), including
/// the comments and escape lines before and after its tags. A stretch
/// holding only comments and `%` lines is not a game.
#[derive(Clone, Debug)]
pub struct GameChunk<'t> {
    /// Children of the document node in this game, in order.
    pub nodes: Vec<Node<'t>>,
    /// From the first to the last node.
    pub range: Range<usize>,
    /// The game is a part of a game longer than [`GAME_WINDOW`]: where it
    /// starts, if it is not the first part (`cut_before`), and where the
    /// next part starts, if it is not the last (`cut_after`).
    pub cut_before: Option<usize>,
    pub cut_after: Option<usize>,
}

impl GameChunk<'_> {
    /// The `game` node (or ERROR node) that carries the tags, if any.
    pub fn game_nodes(&self) -> impl Iterator<Item = &Node<'_>> {
        self.nodes
            .iter()
            .filter(|n| n.kind() == "game" || n.is_error())
    }
}

/// Splits the document into games. Only chunks with at least one `game` or
/// ERROR node are returned; comment-only stretches are not games (their
/// nodes are returned separately as the second value).
///
/// The end of a piece always ends a game: pieces are cut after blank lines
/// (`split/scan.rs`), which end a game even where error recovery put the game
/// break inside an ERROR node (found by fuzzing: `[Auction]]` … a blank
/// line … `[`), and the model is lowered piece by piece.
///
/// A tree that starts or ends where a game longer than [`GAME_WINDOW`] was
/// cut ([`continues_game`]; `text` is the text the trees were parsed from)
/// marks its first or last game as such a part.
pub fn games<'t, T: Trees + ?Sized>(
    trees: &'t T,
    text: &str,
) -> (Vec<GameChunk<'t>>, Vec<Node<'t>>) {
    let mut games = Vec::new();
    let mut loose = Vec::new();
    for tree in trees.trees() {
        let (mut g, l) = games_in(&top_nodes(tree));
        if !g.is_empty() {
            if let Some(r) = tree.included_ranges().first() {
                if continues_game(text, r.start_byte) {
                    g[0].cut_before = Some(r.start_byte);
                }
                let end = r.end_byte.min(text.len());
                let n = g.len();
                g[n - 1].cut_after = continues_game(text, end).then_some(end);
            }
        }
        games.extend(g);
        loose.extend(l);
    }
    (games, loose)
}

/// [`games`] from the document's top-level nodes ([`top_nodes`]).
pub fn games_in<'t>(top: &[Node<'t>]) -> (Vec<GameChunk<'t>>, Vec<Node<'t>>) {
    let mut games = Vec::new();
    let mut loose = Vec::new();
    let mut current: Vec<Node<'t>> = Vec::new();
    let mut flush = |current: &mut Vec<Node<'t>>| {
        if current.is_empty() {
            return;
        }
        let nodes = std::mem::take(current);
        if nodes
            .iter()
            .any(|n| n.kind() == "game" || n.is_error() || n.is_missing())
        {
            let range = nodes[0].start_byte()..nodes[nodes.len() - 1].end_byte();
            games.push(GameChunk {
                nodes,
                range,
                cut_before: None,
                cut_after: None,
            });
        } else {
            loose.extend(nodes);
        }
    };
    for child in top {
        if child.kind() == "game_break" {
            flush(&mut current);
        } else {
            current.push(*child);
        }
    }
    flush(&mut current);
    (games, loose)
}

/// The index of the game containing byte `offset`, given sorted game ranges.
pub fn game_at(games: &[GameChunk<'_>], offset: usize) -> Option<usize> {
    let i = games.partition_point(|g| g.range.end <= offset);
    (i < games.len() && games[i].range.start <= offset).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_games_and_skips_comment_only_chunks() {
        let text = "% PBN 2.1\n[Event \"a\"]\n\n{ not a game }\n\n[Event \"b\"] ; c\n";
        let tree = parse(text);
        let (games, loose) = games(&tree, text);
        assert_eq!(games.len(), 2);
        assert_eq!(loose.len(), 1);
        assert_eq!(loose[0].kind(), "comment");
        // leading escape line belongs to the first game; trailing comment to the second
        assert_eq!(games[0].nodes[0].kind(), "escape_line");
        assert_eq!(games[1].nodes.last().unwrap().kind(), "comment");
        assert_eq!(
            game_at(&games, text.find("[Event \"b\"]").unwrap()),
            Some(1)
        );
    }

    /// The `section_token` nodes of `text` (one game, one section), each as
    /// its §3.2 tokens.
    fn rows(text: &str) -> Vec<Vec<&str>> {
        let tree = parse(text);
        assert!(!tree.root_node().has_error(), "{text:?}");
        let section = tree.root_node().child(0).unwrap().child(0).unwrap();
        assert_eq!(section.kind(), "supplemental_section");
        let mut c = section.walk();
        let nodes: Vec<_> = section
            .children(&mut c)
            .filter(|n| n.kind() == "section_token")
            .collect();
        nodes
            .iter()
            .map(|n| {
                section_cells(text, n.byte_range())
                    .map(|r| &text[r])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn section_token_is_a_run_of_cells_split_at_white_space() {
        // One node per run (§5 table row); a string, a comment or the line
        // end ends it; tabs, vertical tabs and form feeds separate cells like
        // spaces (§3.2, the grammar's `\s`); CR ends a line.
        let text =
            "[T \"a\"]\n 1 \t 2\x0b3\x0c4  \"x y\" 5 {c} 6;d\r\n-  ?\rMüller\u{a0}x  \nE\0S 7\n";
        assert_eq!(
            rows(text),
            [
                vec!["1", "2", "3", "4"],
                vec!["5"],
                vec!["6"],
                vec!["-", "?"],
                vec!["Müller\u{a0}x"],
                vec!["E\0S", "7"]
            ]
        );
        // The parser reads a NUL as U+0001 (`parse_with_nul`): it may start
        // a token as any other control character, and a string may hold it.
        assert!(!parse("[T \"a\"]\n1 \0X\n").root_node().has_error());
        assert!(!parse("[T \"a\0\"]\n").root_node().has_error());
        // The ranges are exact, and a range inside a longer text stops at its end.
        let t = "ab  cd e";
        assert_eq!(section_cells(t, 0..6).collect::<Vec<_>>(), [0..2, 4..6]);
        assert_eq!(
            section_cells(t, 1..8).collect::<Vec<_>>(),
            [1..2, 4..6, 7..8]
        );
        assert_eq!(section_cells(t, 2..4).count(), 0);
    }

    /// The `run` nodes of `text` (one game whose first item is a `section`
    /// node), each as its §3.2 tokens and what `cell` says they are.
    fn runs<'a, C>(
        text: &'a str,
        section: &str,
        run: &str,
        cell: fn(&str) -> C,
    ) -> Vec<Vec<(&'a str, C)>> {
        let tree = parse(text);
        assert!(!tree.root_node().has_error(), "{text:?}");
        let node = tree.root_node().child(0).unwrap().child(0).unwrap();
        assert_eq!(node.kind(), section);
        let mut c = node.walk();
        let nodes: Vec<_> = node.children(&mut c).filter(|n| n.kind() == run).collect();
        nodes
            .iter()
            .map(|n| {
                section_cells(text, n.byte_range())
                    .map(|r| (&text[r.clone()], cell(&text[r])))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn cards_is_a_run_of_card_tokens_split_at_white_space() {
        // One node per run of card tokens on a line (§3.6.1); an annotation,
        // comment, `*`, `+` or the line end ends it; each token is a card,
        // `-` or anything else, exactly the §3.2 tokens (`SKX` is one).
        let text = "[Play \"W\"]\nSA s2\t- S10 SKX -- h_ {c} D3 =1= CT\x0bC9 ^R HA\n+ DK *\n";
        let runs = runs(text, "play_section", "cards", card_cell);
        use CardCell::*;
        assert_eq!(
            runs,
            [
                vec![
                    ("SA", Card),
                    ("s2", Card),
                    ("-", Dash),
                    ("S10", Invalid),
                    ("SKX", Invalid),
                    ("--", Invalid),
                    ("h_", Invalid)
                ],
                vec![("D3", Card)],
                vec![("CT", Card), ("C9", Card)],
                vec![("HA", Card)],
                vec![("DK", Card)],
            ]
        );
        for (t, k) in [
            ("ca", Card),
            ("C1", Invalid),
            ("X", Invalid),
            ("", Invalid),
            ("S", Invalid),
            ("TS", Invalid),
        ] {
            assert_eq!(card_cell(t), k, "{t:?}");
        }
    }

    #[test]
    fn calls_is_a_run_of_call_tokens_split_at_white_space() {
        // One node per run of call tokens on a line (§3.5.1); an
        // annotation, comment, `*`, `+`, `^S` or the line end ends it; each
        // token is a call, `-` or anything else, exactly the §3.2 tokens
        // (`1NTX` is one).
        let text =
            "[Auction \"N\"]\n1C pass\t1nt X xx {c} AP =1= - 1NTX -- ____ ^S 2s\x0b7NT\n+ P *\n";
        let runs = runs(text, "auction_section", "calls", call_cell);
        use CallCell::*;
        assert_eq!(
            runs,
            [
                vec![
                    ("1C", Bid),
                    ("pass", Pass),
                    ("1nt", Bid),
                    ("X", Double),
                    ("xx", Redouble)
                ],
                vec![("AP", AllPass)],
                vec![
                    ("-", Dash),
                    ("1NTX", Invalid),
                    ("--", Invalid),
                    ("____", Invalid)
                ],
                vec![("2s", Bid), ("7NT", Bid)],
                vec![("P", Invalid)],
            ]
        );
        for (t, k) in [
            ("7nT", Bid),
            ("8C", Invalid),
            ("0S", Invalid),
            ("1N", Invalid),
            ("1CC", Invalid),
            ("XXX", Invalid),
            ("Pas", Invalid),
            ("PASS", Pass),
            ("", Invalid),
            ("A", Invalid),
        ] {
            assert_eq!(call_cell(t), k, "{t:?}");
        }
    }

    /// `tag_parts` reads a tag pair written the usual way and nothing else;
    /// where it reads one, its ranges are those of the tree's `tag_name` and
    /// of the inside of its `string`.
    #[test]
    fn tag_parts_of_usual_tag_pairs_only() {
        let usual = [
            "[Event \"x\"]",
            "[ Event\t \"\"  ]",
            "[Event\"a b\"]",
            "[e_1 \"a\\\"b\\\\\"]",
            "[Event \"\u{e9}t\u{e9} \\\u{e9}\"]",
        ];
        for text in usual {
            let tree = parse(text);
            let pair = tree.root_node().child(0).and_then(|g| g.child(0)).unwrap();
            assert_eq!(pair.kind(), "tag_pair", "{text:?}");
            let name = pair.child_by_field_name("name").unwrap();
            let value = pair.child_by_field_name("value").unwrap();
            assert_eq!(value.kind(), "string", "{text:?}");
            let inside = value.start_byte() + 1..value.end_byte() - 1;
            assert_eq!(
                tag_parts(text, pair.byte_range()),
                Some(TagParts {
                    name: name.byte_range(),
                    value: inside,
                }),
                "{text:?}"
            );
        }
        for text in [
            "[Event x]",
            "[Event \"x]",
            "[Event \"x\" ; c\n]",
            "[Event {c} \"x\"]",
            "[Event\n\"x\"]",
            "[Event \"x\\\n\"]",
            "[Event]",
            "[\"x\"]",
            "[Event \"x\"",
            "[Event \"x\" \"y\"]",
            "[Ev-ent \"x\"]",
            "[Event\u{a0}\"x\"]",
            "Event \"x\"]",
            "[",
            "",
        ] {
            assert_eq!(tag_parts(text, 0..text.len()), None, "{text:?}");
        }
        // Only the range counts, wherever it is in the text.
        let text = "ab[Event \"x\"]cd";
        assert_eq!(
            tag_parts(text, 2..text.len() - 2),
            Some(TagParts {
                name: 3..8,
                value: 10..11,
            })
        );
        assert_eq!(tag_parts(text, 2..text.len()), None);
        assert_eq!(tag_parts(text, 2..99), None);
    }

    #[test]
    fn empty_document_has_no_games() {
        for text in ["", "\n\n", "% PBN 2.1\n% EXPORT\n"] {
            let tree = parse(text);
            assert!(!tree.root_node().has_error(), "{text:?}");
            assert_eq!(games(&tree, text).0.len(), 0, "{text:?}");
        }
    }
}
