//! Lowering: tree-sitter-pbn tree → [`Document`].

use super::*;
use crate::syntax::{self, GameChunk, Trees};
use contract_bridge::{Bid, Card, Level, Rank, Strain, Suit};
use std::ops::Range;
use tree_sitter::Node;

/// Builds the model of a parsed document. Never fails: whatever the tree
/// holds is represented, and syntax errors mark their game.
///
/// A document parsed in pieces ([`syntax::parse_pieces`]) is lowered piece
/// by piece on every core; `#`/`##` inheritance (§4.8), which runs through
/// the whole file, is resolved afterwards.
pub fn lower<T: Trees + ?Sized>(trees: &T, text: &str) -> Document {
    let trees = trees.trees();
    // A game never spans two pieces: pieces are cut right after a game break.
    let parts = crate::par::map(trees, |tree| {
        let (chunks, loose) = syntax::games(tree);
        let games: Vec<Game> = chunks.iter().map(|chunk| lower_game(0, chunk, text)).collect();
        let loose: Vec<Comment> = loose.iter().filter_map(|n| comment_of(*n, text)).collect();
        (games, loose)
    });
    let mut doc = Document {
        games: Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum()),
        loose: Vec::new(),
    };
    for (games, loose) in parts {
        for mut g in games {
            g.index = doc.games.len();
            doc.games.push(g);
        }
        doc.loose.extend(loose);
    }
    super::inherit::resolve(&mut doc);
    doc
}

fn comment_of(node: Node<'_>, text: &str) -> Option<Comment> {
    let kind = match node.kind() {
        "comment" if text.as_bytes()[node.start_byte()] == b';' => CommentKind::Line,
        "comment" => CommentKind::Brace,
        "unterminated_comment" => CommentKind::UnterminatedBrace,
        "escape_line" => CommentKind::Escape,
        _ => return None,
    };
    Some(Comment { kind, range: node.byte_range() })
}

/// What an auction or play section holds, before it becomes an
/// [`Auction`] or [`Play`].
struct SectionItems<T> {
    tag: usize,
    entries: Vec<Entry<T>>,
    stray: Vec<Annotation>,
    notes: Vec<usize>,
}

struct Lowerer<'a> {
    text: &'a str,
    game: Game,
}

/// Lowers one game (`#`/`##` values unresolved: see [`super::inherit::Env`]).
pub fn lower_game(index: usize, chunk: &GameChunk<'_>, text: &str) -> Game {
    let mut l = Lowerer {
        text,
        game: Game { index, range: chunk.range.clone(), ..Default::default() },
    };
    for node in &chunk.nodes {
        l.visit_top(*node);
    }
    l.game
}

impl<'a> Lowerer<'a> {
    fn comment(&mut self, node: Node<'_>) -> bool {
        let Some(c) = comment_of(node, self.text) else { return false };
        if c.kind == CommentKind::UnterminatedBrace {
            self.game.syntax_error = true;
        }
        self.game.comments.push(c);
        true
    }

    /// A child of the document in this game: the `game` node's items, or a
    /// comment, escape line or ERROR node around it.
    fn visit_top(&mut self, node: Node<'_>) {
        if node.kind() != "game" {
            return self.visit_item(node);
        }
        if node.has_error() {
            self.game.syntax_error = true;
        }
        let mut c = node.walk();
        for child in node.children(&mut c) {
            self.visit_item(child);
        }
    }

    /// Inside ERROR nodes: collect tag pairs and comments, nothing else.
    fn visit_children_generic(&mut self, node: Node<'_>) {
        let mut c = node.walk();
        for child in node.children(&mut c) {
            if self.comment(child) {
                continue;
            }
            match child.kind() {
                "tag_pair" => {
                    self.tag(child, TagRole::Plain);
                }
                _ if child.child_count() > 0 => self.visit_children_generic(child),
                _ => {}
            }
        }
    }

    fn visit_item(&mut self, node: Node<'_>) {
        if self.comment(node) {
            return;
        }
        if node.is_error() || node.is_missing() {
            self.game.syntax_error = true;
            self.visit_children_generic(node);
            return;
        }
        match node.kind() {
            "tag_pair" => {
                self.tag(node, TagRole::Plain);
            }
            "auction_section" => self.auction(node),
            "play_section" => self.play(node),
            "supplemental_section" => self.section(node),
            _ => {}
        }
    }

    /// Lowers a tag pair and returns its index.
    fn tag(&mut self, node: Node<'_>, role: TagRole) -> usize {
        let mut name = String::new();
        let mut name_range = node.start_byte()..node.start_byte();
        let mut value = None;
        let mut c = node.walk();
        for child in node.children(&mut c) {
            if self.comment(child) {
                continue;
            }
            if child.is_error() || child.is_missing() {
                self.game.syntax_error = true;
                continue;
            }
            match child.kind() {
                "tag_name" => {
                    name = self.text[child.byte_range()].to_owned();
                    name_range = child.byte_range();
                }
                "string" => {
                    let r = string_inner(self.text, child.byte_range(), true);
                    let raw = &self.text[r.clone()];
                    value = Some(TagValue { raw: raw.to_owned(), text: unescape(raw), range: r, quoted: true, terminated: true });
                }
                "unterminated_string" => {
                    self.game.syntax_error = true;
                    let r = string_inner(self.text, child.byte_range(), false);
                    let raw = &self.text[r.clone()];
                    value = Some(TagValue { raw: raw.to_owned(), text: unescape(raw), range: r, quoted: true, terminated: false });
                }
                "unquoted_value" => {
                    self.game.syntax_error = true;
                    let r = child.byte_range();
                    let raw = &self.text[r.clone()];
                    value = Some(TagValue { raw: raw.to_owned(), text: raw.to_owned(), range: r, quoted: false, terminated: true });
                }
                _ => {}
            }
        }
        if value.is_none() {
            self.game.syntax_error = true;
        }
        let inherit = match value.as_ref().map(|v| v.text.as_str()) {
            Some("#") => Inherit::Previous,
            Some(v) if v.starts_with("##") => Inherit::Header(v[2..].to_owned()),
            _ => Inherit::None,
        };
        self.game.tags.push(Tag {
            name,
            name_range,
            value,
            range: node.byte_range(),
            role,
            inherit,
            resolved: None,
        });
        self.game.tags.len() - 1
    }

    fn annotation(&self, node: Node<'_>) -> Option<Annotation> {
        let t = &self.text[node.byte_range()];
        let kind = match node.kind() {
            "suffix" => AnnotationKind::Suffix(SUFFIXES.iter().position(|s| *s == t).map(|i| i as u8 + 1)?),
            "note_ref" => AnnotationKind::NoteRef(digits(&t[1..t.len() - 1])),
            "nag" => AnnotationKind::Nag(digits(&t[1..])),
            "irregularity" => AnnotationKind::Irregularity(t[1..].chars().next().unwrap_or('?')),
            _ => return None,
        };
        Some(Annotation { kind, range: node.byte_range() })
    }

    /// Lowers the children of an auction or play section: its tag, the
    /// tokens `token` recognises (with irregularity marks before them and
    /// annotations after them), and the Note tags that end it.
    fn section_items<T>(
        &mut self,
        node: Node<'_>,
        roles: (TagRole, TagRole),
        token: impl Fn(&str, &str) -> Option<T>,
    ) -> SectionItems<T> {
        let mut items = SectionItems { tag: usize::MAX, entries: Vec::new(), stray: Vec::new(), notes: Vec::new() };
        let mut pending: Vec<Annotation> = Vec::new();
        let section_tag = node.child_by_field_name("tag");
        let mut c = node.walk();
        for child in node.children(&mut c) {
            if self.comment(child) {
                continue;
            }
            if child.is_error() || child.is_missing() {
                self.game.syntax_error = true;
                self.visit_children_generic(child);
                continue;
            }
            if child.kind() == "tag_pair" {
                if section_tag != Some(child) {
                    let i = self.tag(child, roles.1);
                    items.notes.push(i);
                } else {
                    items.tag = self.tag(child, roles.0);
                }
                continue;
            }
            match token(child.kind(), &self.text[child.byte_range()]) {
                Some(t) => items.entries.push(Entry {
                    token: t,
                    range: child.byte_range(),
                    pre: std::mem::take(&mut pending),
                    post: Vec::new(),
                }),
                None => {
                    if let Some(a) = self.annotation(child) {
                        if matches!(a.kind, AnnotationKind::Irregularity(_)) {
                            pending.push(a);
                        } else if let Some(last) = items.entries.last_mut() {
                            last.post.push(a);
                        } else {
                            items.stray.push(a);
                        }
                    }
                }
            }
        }
        items.stray.extend(pending);
        items
    }

    fn auction(&mut self, node: Node<'_>) {
        let items = self.section_items(node, (TagRole::Auction, TagRole::AuctionNote), |kind, t| {
            Some(match kind {
                "bid" => parse_bid(t).map(CallToken::Bid).unwrap_or(CallToken::Invalid),
                "pass" => CallToken::Pass,
                "double" => CallToken::Double,
                "redouble" => CallToken::Redouble,
                "all_pass" => CallToken::AllPass,
                "dash" => CallToken::Dash,
                "invalid_call" | "invalid_card" | "card" => CallToken::Invalid,
                "continuation" => CallToken::Continuation,
                "terminator" => CallToken::Terminator,
                // `^S` takes the skipped player's turn (§3.9 B).
                "irregularity" if t[1..].eq_ignore_ascii_case("S") => CallToken::Skip,
                _ => return None,
            })
        });
        let auction = Auction { tag: items.tag, entries: items.entries, stray: items.stray, notes: items.notes, range: node.byte_range() };
        self.game.auction.get_or_insert(auction);
    }

    fn play(&mut self, node: Node<'_>) {
        let items = self.section_items(node, (TagRole::Play, TagRole::PlayNote), |kind, t| {
            Some(match kind {
                "card" => parse_card(t).map(CardToken::Card).unwrap_or(CardToken::Invalid),
                "dash" => CardToken::Dash,
                "invalid_card" | "invalid_call" => CardToken::Invalid,
                "continuation" => CardToken::Continuation,
                "terminator" => CardToken::Terminator,
                _ => return None,
            })
        });
        let play = Play { tag: items.tag, entries: items.entries, stray: items.stray, notes: items.notes, range: node.byte_range() };
        self.game.play.get_or_insert(play);
    }

    fn section(&mut self, node: Node<'_>) {
        let mut section = Section { tag: usize::MAX, elements: Vec::new(), range: node.byte_range() };
        let mut c = node.walk();
        for child in node.children(&mut c) {
            if self.comment(child) {
                continue;
            }
            if child.is_error() || child.is_missing() {
                self.game.syntax_error = true;
                continue;
            }
            match child.kind() {
                "tag_pair" => section.tag = self.tag(child, TagRole::Section),
                // A run of section tokens (§3.2), e.g. the unquoted cells of
                // a table row (§5): one element per token.
                "section_token" => section.elements.extend(syntax::section_cells(self.text, child.byte_range()).map(|r| {
                    Element { text: self.text[r.clone()].to_owned(), range: r, quoted: false }
                })),
                "string" => {
                    let r = string_inner(self.text, child.byte_range(), true);
                    section.elements.push(Element { text: unescape(&self.text[r]), range: child.byte_range(), quoted: true })
                }
                _ => {}
            }
        }
        self.game.sections.push(section);
    }
}

/// The inside of a string token: after its opening quote, before its
/// closing quote (if `closed`). Robust against odd token boundaries.
fn string_inner(text: &str, r: Range<usize>, closed: bool) -> Range<usize> {
    let s = &text[r.clone()];
    let start = s.find('"').map(|i| r.start + i + 1).unwrap_or(r.start);
    let mut end = r.end;
    if closed && end > start && text.as_bytes()[end - 1] == b'"' {
        end -= 1;
    }
    start..end.max(start)
}

fn digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok().or(Some(u32::MAX))
}

/// Parses a bid token (`1C` … `7NT`, any case).
pub fn parse_bid(t: &str) -> Option<Bid> {
    let b = t.as_bytes();
    let level = b.first().filter(|c| (b'1'..=b'7').contains(c))? - b'0';
    let strain = match t[1..].to_ascii_uppercase().as_str() {
        "C" => Strain::Clubs,
        "D" => Strain::Diamonds,
        "H" => Strain::Hearts,
        "S" => Strain::Spades,
        "NT" => Strain::Notrump,
        _ => return None,
    };
    Some(Bid { level: Level::new(level), strain })
}

/// Parses a card token (`SA`, `hT`, …).
pub fn parse_card(t: &str) -> Option<Card> {
    let mut ch = t.chars();
    let suit = match ch.next()?.to_ascii_uppercase() {
        'S' => Suit::Spades,
        'H' => Suit::Hearts,
        'D' => Suit::Diamonds,
        'C' => Suit::Clubs,
        _ => return None,
    };
    let rank = rank_of(ch.next()?)?;
    if ch.next().is_some() {
        return None;
    }
    Some(Card { suit, rank })
}

/// A rank character (`A K Q J T 9 … 2`, any case).
pub fn rank_of(c: char) -> Option<Rank> {
    super::values::deal::rank_of_char(c)
}
