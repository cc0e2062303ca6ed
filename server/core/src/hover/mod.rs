//! The hover: Markdown for the token at a byte offset (the language
//! server's `textDocument/hover`, the web page's tooltips).
//!
//! - NAGs (`$n`) and suffixes (`!` … `?!`): the NAG and its meaning (§3.7);
//!   a suffix is $1-$6 after a call, $7-$12 after a card (§3.5.3, §3.6.3).
//! - Note references (`=n=`): the text of the `[Note "n:…"]` of the same
//!   section of the same game (§3.5.5, §3.6.5).
//! - Irregularity marks (`^I` `^S` `^R` `^L`, §3.9).
//! - Tag names: the tag's description and section; for `#`/`##` values the
//!   inherited value and where it comes from (§4.8).
//! - The Deal value: a diagram of the hands around a compass, with HCP and
//!   shape per hand (§3.4.11; only the known hands of a partial deal).
//! - The Contract and Result values: contract, declarer, tricks and the
//!   duplicate score at the game's vulnerability.
//! - Calls: who made it and where in the auction, and the text of its
//!   `=n=` notes; cards: who played it, in which trick, who led and who won
//!   that trick, and double dummy what the card cost and which cards would
//!   have kept the tricks (from the [`DdAnswers`] the caller gives: the server's cache,
//!   "solving…" until it is done).
//! - Under the Deal's double-dummy table: the opening leads, with the
//!   tricks of the leader's side after each.
//! - Score, OptimumScore and DoubleDummyTricks (as a table) with what the
//!   contract and result, or the solver once the deal is solved, say; the
//!   Auction value: the first call's seat and the final contract.
//! - Table cells (any section whose tag value is a column spec, §5.2): row,
//!   column, what the column holds, and what the row's contract, declarer
//!   and tricks score ("3S by N, 9 tricks → NS +140").
//! - Application tags (Bridge Composer's DoubleDummyTricks…): the program
//!   and what the tag holds.
//!
//! One entry point, [`hover`], for the language server (which converts
//! positions and wraps the Markdown in LSP types) and the web page alike:
//! a [`HoverInput`] is the text, its line index, the trees around the
//! offset and the document's games ([`Games`]), and the double-dummy
//! results through [`DdAnswers`] (the server answers from its cache and
//! never solves on the hover path; [`SolveNow`] solves inline). [`Parsed`]
//! builds the whole-document input from a text.
//!
//! Split by subject: `annotations.rs` (NAGs, suffixes, notes,
//! irregularities), `tags.rs` (tag names, values, the Deal, scores),
//! `tables.rs` (table cells), `calls.rs` (calls and cards), `dd.rs`
//! (double dummy), `words.rs` (what they share).

mod annotations;
mod calls;
mod dd;
mod tables;
mod tags;
#[cfg(test)]
mod tests;
mod words;

pub use dd::{DdAnswers, DdLookup, LeadsSolved, NoDd, PlaySolved, SolveNow};

use crate::model::{self, Game};
use crate::spec::sections::Section;
use crate::text::LineIndex;
use annotations::{irregularity_hover, nag_hover, note_hover, suffix_hover};
use calls::{call_hover, card_hover};
use std::ops::Range as ByteRange;
use tables::table_cell_hover;
use tags::{tag_name_hover, value_hover};
use tree_sitter::{Node, Tree};

/// The games of a document, as the hover asks for them.
pub trait Games {
    /// The game containing byte `offset`.
    fn game_at(&self, offset: usize) -> Option<&Game>;
    /// Game `index` (0-based), with its inherited `#`/`##` values (§4.8).
    fn game(&self, index: usize) -> Option<&Game>;
}

impl Games for model::Document {
    fn game_at(&self, offset: usize) -> Option<&Game> {
        let i = self.games.partition_point(|g| g.range.end < offset);
        self.games.get(i).filter(|g| g.range.start <= offset)
    }

    fn game(&self, index: usize) -> Option<&Game> {
        self.games.get(index)
    }
}

/// What a hover reads.
pub struct HoverInput<'a> {
    /// The document's text.
    pub text: &'a str,
    /// Its line index (a hover names lines: where a note or an inherited
    /// value is).
    pub lines: &'a LineIndex,
    /// Trees holding the hovered offset: the whole document's, or those
    /// of the piece around it ([`crate::syntax::Forest::piece_trees`]).
    pub trees: &'a [Tree],
    /// The document's games.
    pub games: &'a dyn Games,
    /// Double-dummy results.
    pub dd: &'a dyn DdAnswers,
}

impl HoverInput<'_> {
    /// The 1-based line of byte `offset`.
    fn line(&self, offset: usize) -> usize {
        self.lines.line_of(offset) + 1
    }
}

/// A hover's Markdown and the byte range of the token it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverAnswer {
    pub markdown: String,
    pub range: ByteRange<usize>,
}

/// The hover at byte `offset`: of the token at it, else of the one just
/// before it (the cursor at the end of a token). `None` where there is
/// nothing to say.
pub fn hover(input: &HoverInput<'_>, offset: usize) -> Option<HoverAnswer> {
    if offset > input.text.len() || input.trees.is_empty() {
        return None;
    }
    let root = crate::syntax::root_at(input.trees, offset);
    let mut tried = None;
    for at in [Some(offset), offset.checked_sub(1)].into_iter().flatten() {
        let Some(node) = root.descendant_for_byte_range(at, at) else {
            continue;
        };
        if tried == Some(node.id()) {
            continue;
        }
        tried = Some(node.id());
        if let Some((markdown, range)) = hover_node(input, node, offset) {
            return Some(HoverAnswer { markdown, range });
        }
    }
    None
}

/// A whole document parsed and lowered for [`hover`], for a caller that
/// has only the text (the web page): its trees (cut in pieces at game
/// breaks, [`crate::syntax::parse_pieces`]), games with their `#`/`##`
/// values resolved ([`crate::model::lower::lower`]) and line index.
pub struct Parsed {
    pub trees: Vec<Tree>,
    pub model: model::Document,
    pub lines: LineIndex,
}

impl Parsed {
    pub fn new(text: &str) -> Parsed {
        let trees = crate::syntax::parse_pieces(text);
        let model = model::lower::lower(&trees, text);
        Parsed {
            trees,
            model,
            lines: LineIndex::new(text),
        }
    }

    /// The input for [`hover`] on `text`, the text this was parsed from.
    pub fn input<'a>(&'a self, text: &'a str, dd: &'a dyn DdAnswers) -> HoverInput<'a> {
        HoverInput {
            text,
            lines: &self.lines,
            trees: &self.trees,
            games: &self.model,
            dd,
        }
    }
}

/// Which section a node is in (`None`: outside the auction and play).
fn section_of(node: Node<'_>) -> Option<Section> {
    let mut n = node.parent();
    while let Some(p) = n {
        match p.kind() {
            "auction_section" => return Some(Section::Auction),
            "play_section" => return Some(Section::Play),
            "game" | "document" => return None,
            _ => n = p.parent(),
        }
    }
    None
}

/// The hover of `node`, the token at or just before the cursor `offset`.
fn hover_node(
    h: &HoverInput<'_>,
    node: Node<'_>,
    offset: usize,
) -> Option<(String, ByteRange<usize>)> {
    let mut range = node.byte_range();
    if node.is_missing() || range.is_empty() {
        return None;
    }
    if matches!(node.kind(), "cards" | "calls") {
        // A run of card (call) tokens (§3.6.1, §3.5.1): the one under the
        // cursor, else the one that ends at it.
        let cells: Vec<_> = crate::syntax::section_cells(h.text, range.clone()).collect();
        range = cells
            .iter()
            .find(|c| c.contains(&offset))
            .or_else(|| cells.iter().find(|c| c.end == offset))
            .cloned()?;
    }
    let text = &h.text[range.clone()];
    let game = h.games.game_at(range.start);
    let md = match node.kind() {
        "nag" => nag_hover(text, section_of(node)),
        "suffix" => suffix_hover(text, section_of(node)),
        "note_ref" => note_hover(h, game?, text, section_of(node)),
        "irregularity" => match section_of(node) {
            Some(Section::Auction) if text[1..].eq_ignore_ascii_case("S") => {
                call_hover(h, game?, range.start)
            }
            _ => irregularity_hover(text),
        },
        "tag_name" => tag_name_hover(h, game?, range.start, text),
        "section_token" | "string"
            if node
                .parent()
                .is_some_and(|p| p.kind() == "supplemental_section") =>
        {
            let (md, cell) = table_cell_hover(h, game?, offset)?;
            range = cell;
            Some(md)
        }
        "string" | "unquoted_value" | "unterminated_string"
            if node.parent().is_some_and(|p| p.kind() == "tag_pair") =>
        {
            value_hover(h, game?, range.start)
        }
        "calls" | "cards" | "continuation" | "terminator" => match section_of(node) {
            Some(Section::Auction) => call_hover(h, game?, range.start),
            Some(Section::Play) => card_hover(h, game?, range.start),
            None => None,
        },
        _ => None,
    }?;
    Some((md, range))
}
