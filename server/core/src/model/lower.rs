//! Lowering: tree-sitter-pbn tree → [`Document`].

use super::*;
use crate::syntax::{self, GameChunk, Trees};
use contract_bridge::{Bid, Card};
use std::ops::Range;
use tree_sitter::{Node, TreeCursor};

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
        lower_piece(std::slice::from_ref(tree), text, 0)
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

/// Every game of `text` in order, piece by piece, for batch tools that
/// stream (`pbn fmt`, `pbn dump`): the text is cut at game breaks into
/// pieces of about [`syntax::EDIT_PIECE`] bytes ([`syntax::Forest`]); a few
/// pieces at a time are parsed and lowered on every core, their games
/// numbered and their `#`/`##` values resolved in document order (§4.8: the
/// state [`lower`] carries from game to game is carried from piece to
/// piece), then `f` runs on each piece's trees, games and comments outside
/// games, on every core, and `sink` gets the results in document order.
/// The trees and games are dropped after `f`: the tree and model of the
/// whole file never exist at once. The games are [`lower`]'s.
pub fn for_each_piece<R: Send>(
    text: &str,
    f: impl Fn(&[tree_sitter::Tree], &[Game], &[Comment]) -> R + Sync,
    sink: impl FnMut(R),
) {
    for_each_piece_at(text, |p| f(p.trees, p.games, p.loose), sink)
}

/// One piece as [`for_each_piece_at`] hands it over.
pub struct PieceAt<'p> {
    /// Where the piece is in the text (it starts after a game break, or at
    /// the start of the text).
    pub range: Range<usize>,
    /// The `#`/`##` state before the piece's first game, when the text has
    /// a `#` at all (to lower the piece's games again after an edit).
    pub env: Option<&'p super::inherit::Env>,
    pub trees: &'p [tree_sitter::Tree],
    pub games: &'p [Game],
    pub loose: &'p [Comment],
}

/// [`for_each_piece`], with each piece's range and inheritance state.
pub fn for_each_piece_at<R: Send>(
    text: &str,
    f: impl Fn(&PieceAt<'_>) -> R + Sync,
    mut sink: impl FnMut(R),
) {
    for_each_piece_full(text, f, |r, _| sink(r));
}

/// [`for_each_piece`] whose `sink` also gets the piece's games (the trees
/// are dropped before it runs): `pbn dump` writes a long game to the sink
/// as it serializes it.
pub fn for_each_piece_with_games<R: Send>(
    text: &str,
    f: impl Fn(&[tree_sitter::Tree], &[Game], &[Comment]) -> R + Sync,
    sink: impl FnMut(R, &[Game]),
) {
    for_each_piece_full(text, |p| f(p.trees, p.games, p.loose), sink)
}

/// The one walk behind the `for_each_piece*` functions: `f` gets each
/// piece as a [`PieceAt`], `sink` its result and the piece's games.
fn for_each_piece_full<R: Send>(
    text: &str,
    f: impl Fn(&PieceAt<'_>) -> R + Sync,
    mut sink: impl FnMut(R, &[Game]),
) {
    let forest = syntax::Forest::cut_with_cache(text, syntax::EDIT_PIECE, 0);
    let inherits = memchr::memchr(b'#', text.as_bytes()).is_some();
    let mut env = super::inherit::Env::default();
    let mut next = 0;
    let all: Vec<usize> = (0..forest.len()).collect();
    for batch in forest.batches(&all) {
        let batch = &batch[..];
        let mut parts = crate::par::map(batch, |&p| {
            let trees = forest.piece_trees_uncached(p, text);
            let (games, loose) = lower_piece(&trees, text, 0);
            (p, None, trees, games, loose)
        });
        for (_, before, _, games, _) in &mut parts {
            if inherits {
                *before = Some(env.clone());
            }
            for g in games.iter_mut() {
                g.index = next;
                next += 1;
                if inherits {
                    env.apply(g.index, g);
                }
            }
        }
        let out = crate::par::map(&parts, |(p, env, trees, games, loose)| {
            f(&PieceAt {
                range: forest.ranges()[*p].clone(),
                env: env.as_ref(),
                trees,
                games,
                loose,
            })
        });
        let mut games = Vec::with_capacity(parts.len());
        let mut rest = Vec::with_capacity(parts.len());
        for (_, env, trees, g, loose) in parts {
            games.push(g);
            rest.push((env, trees, loose));
        }
        crate::par::drop_later(rest);
        for (r, g) in out.into_iter().zip(&games) {
            sink(r, g);
        }
        crate::par::drop_later(games);
    }
}

/// The games (numbered from `first`) and the comments outside games of
/// consecutive trees (a piece of a document, [`syntax::PieceTrees`]),
/// without `#`/`##` inheritance, which needs the games before them.
pub fn lower_piece(
    trees: &[tree_sitter::Tree],
    text: &str,
    first: usize,
) -> (Vec<Game>, Vec<Comment>) {
    let (chunks, loose) = syntax::games(trees, text);
    let mut scratch = Scratch::default();
    let games: Vec<Game> = chunks
        .iter()
        .enumerate()
        .map(|(k, chunk)| lower_game_with(first + k, chunk, text, &mut scratch))
        .collect();
    let loose: Vec<Comment> = loose.iter().filter_map(|n| comment_of(*n, text)).collect();
    (games, loose)
}

/// The node kinds lowering tells apart, looked up by `kind_id` in a table
/// built once from the grammar's symbol names (comparing `kind()` strings
/// costs a `strlen` and a UTF-8 check per call). Every id whose name is the
/// same (aliases included) maps to the same kind, as the strings did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Other,
    /// An ERROR node (`Node::is_error`).
    Error,
    Game,
    TagPair,
    TagName,
    String,
    UnterminatedString,
    UnquotedValue,
    Comment,
    UnterminatedComment,
    EscapeLine,
    AuctionSection,
    PlaySection,
    SupplementalSection,
    SectionToken,
    Suffix,
    NoteRef,
    Nag,
    Irregularity,
    /// A `calls` node: a run of §3.5.1 tokens, each lowered as a
    /// [`Kind::Call`] ([`syntax::call_cell`]).
    Calls,
    /// One token of a `calls` run.
    Call(syntax::CallCell),
    /// A `cards` node: a run of §3.6.1 tokens, each lowered as a
    /// [`Kind::Card`] ([`syntax::card_cell`]).
    Cards,
    /// One token of a `cards` run.
    Card(syntax::CardCell),
    Continuation,
    Terminator,
}

fn kind(node: Node<'_>) -> Kind {
    static TABLE: std::sync::OnceLock<Vec<Kind>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let lang = syntax::language();
        (0..lang.node_kind_count())
            .map(|id| match lang.node_kind_for_id(id as u16).unwrap_or("") {
                "game" => Kind::Game,
                "tag_pair" => Kind::TagPair,
                "tag_name" => Kind::TagName,
                "string" => Kind::String,
                "unterminated_string" => Kind::UnterminatedString,
                "unquoted_value" => Kind::UnquotedValue,
                "comment" => Kind::Comment,
                "unterminated_comment" => Kind::UnterminatedComment,
                "escape_line" => Kind::EscapeLine,
                "auction_section" => Kind::AuctionSection,
                "play_section" => Kind::PlaySection,
                "supplemental_section" => Kind::SupplementalSection,
                "section_token" => Kind::SectionToken,
                "suffix" => Kind::Suffix,
                "note_ref" => Kind::NoteRef,
                "nag" => Kind::Nag,
                "irregularity" => Kind::Irregularity,
                "calls" => Kind::Calls,
                "cards" => Kind::Cards,
                "continuation" => Kind::Continuation,
                "terminator" => Kind::Terminator,
                _ => Kind::Other,
            })
            .collect()
    });
    match node.kind_id() {
        u16::MAX => Kind::Error,
        id => table.get(id as usize).copied().unwrap_or(Kind::Other),
    }
}

/// The field id of `tag` (the section tag of an auction or play section).
fn tag_field() -> Option<std::num::NonZeroU16> {
    static ID: std::sync::OnceLock<Option<std::num::NonZeroU16>> = std::sync::OnceLock::new();
    *ID.get_or_init(|| syntax::language().field_id_for_name("tag"))
}

fn comment_of(node: Node<'_>, text: &str) -> Option<Comment> {
    comment_of_kind(node, kind(node), text)
}

fn comment_of_kind(node: Node<'_>, kind: Kind, text: &str) -> Option<Comment> {
    let kind = match kind {
        Kind::Comment if text.as_bytes()[node.start_byte()] == b';' => CommentKind::Line,
        Kind::Comment => CommentKind::Brace,
        Kind::UnterminatedComment => CommentKind::UnterminatedBrace,
        Kind::EscapeLine => CommentKind::Escape,
        _ => return None,
    };
    Some(Comment {
        kind,
        range: node.byte_range(),
    })
}

/// What an auction or play section holds, before it becomes an
/// [`Auction`] or [`Play`].
struct SectionItems<T> {
    tag: usize,
    entries: Vec<Entry<T>>,
    stray: Vec<Annotation>,
    notes: Vec<usize>,
}

/// Buffers kept from one game to the next: a game's vectors are built in
/// them and then copied out at their exact length, so that the model keeps
/// no spare capacity and lowering does not grow each game's vectors from
/// empty.
#[derive(Default)]
pub struct Scratch {
    tags: Vec<Tag>,
    comments: Vec<Comment>,
    calls: Vec<Entry<CallToken>>,
    cards: Vec<Entry<CardToken>>,
}

/// How many children of `node` are of a kind `pick` accepts.
fn count_children(node: Node<'_>, pick: impl Fn(Kind) -> bool) -> usize {
    let mut c = node.walk();
    let mut n = 0;
    if c.goto_first_child() {
        loop {
            n += usize::from(pick(kind(c.node())));
            if !c.goto_next_sibling() {
                break;
            }
        }
    }
    n
}

/// Moves `buf`'s items into a vector of their exact length, leaving `buf`
/// empty: with its capacity when it is small (the next game's vector is
/// built in it), without when it is large (a huge game's buffer is not kept
/// for the games after it). A large buffer at most an eighth too long is
/// moved out as it is rather than copied: lowering reserves one at the
/// length it counts ([`count_children`]), and a copy would hold
/// the game's items twice.
fn exact<T>(buf: &mut Vec<T>) -> Vec<T> {
    /// Buffers up to this capacity are kept.
    const KEEP: usize = 1 << 10;
    if buf.capacity() > KEEP && (buf.capacity() - buf.len()) * 8 <= buf.capacity() {
        return std::mem::take(buf);
    }
    let mut v = Vec::with_capacity(buf.len());
    v.append(buf);
    if buf.capacity() > KEEP {
        *buf = Vec::new();
    }
    v
}

struct Lowerer<'a, 't> {
    text: &'a str,
    game: Game,
    scratch: Scratch,
    /// One cursor for the whole game: a function that lowers a node finds
    /// the cursor on that node and leaves it there.
    cursor: TreeCursor<'t>,
}

/// Lowers one game (`#`/`##` values unresolved: see [`super::inherit::Env`]).
pub fn lower_game(index: usize, chunk: &GameChunk<'_>, text: &str) -> Game {
    lower_game_with(index, chunk, text, &mut Scratch::default())
}

/// [`lower_game`] with buffers kept from game to game.
pub fn lower_game_with(
    index: usize,
    chunk: &GameChunk<'_>,
    text: &str,
    scratch: &mut Scratch,
) -> Game {
    let game = Game {
        index,
        range: chunk.range.clone(),
        syntax_error: chunk.cut_before.is_some() || chunk.cut_after.is_some(),
        cut_before: chunk.cut_before,
        cut_after: chunk.cut_after.is_some(),
        ..Default::default()
    };
    let Some(first) = chunk.nodes.first() else {
        return game;
    };
    let mut l = Lowerer {
        text,
        game,
        scratch: std::mem::take(scratch),
        cursor: first.walk(),
    };
    l.game.tags = std::mem::take(&mut l.scratch.tags);
    l.game.comments = std::mem::take(&mut l.scratch.comments);
    // The game's tag pairs outside its sections, counted first: a game of
    // a million tags does not grow its vector by doubling (up to twice the
    // tags, and a copy of them at each step).
    let tags: usize = chunk
        .nodes
        .iter()
        .map(|n| match kind(*n) {
            Kind::Game => count_children(*n, |k| k == Kind::TagPair),
            Kind::TagPair => 1,
            _ => 0,
        })
        .sum();
    l.game.tags.reserve(tags);
    for node in &chunk.nodes {
        l.cursor.reset(*node);
        l.visit_top(*node, kind(*node));
    }
    let mut game = l.game;
    *scratch = l.scratch;
    scratch.tags = std::mem::take(&mut game.tags);
    game.tags = exact(&mut scratch.tags);
    scratch.comments = std::mem::take(&mut game.comments);
    game.comments = exact(&mut scratch.comments);
    game.notes_continued = notes_continued(&game, text);
    game
}

/// The Note tags of `g` followed, after white space only, by a `{…}`
/// comment continuing them ([`values::note::continuation`]).
fn notes_continued(g: &Game, text: &str) -> Vec<NoteContinued> {
    if g.comments.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, t) in g.tags.iter().enumerate() {
        if t.name != "Note" {
            continue;
        }
        let k = g.comments.partition_point(|c| c.range.start < t.range.end);
        let Some(c) = g.comments.get(k).filter(|c| c.kind == CommentKind::Brace) else {
            continue;
        };
        let between = &text[t.range.end..c.range.start];
        if !between.bytes().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        let Some(note) = t
            .value
            .as_ref()
            .and_then(|v| values::parse_note(&v.raw).value)
        else {
            continue;
        };
        if let Some(rest) = values::note::continuation(c.body(text), note.index) {
            out.push(NoteContinued {
                tag: i,
                comment: k,
                text: rest,
            });
        }
    }
    out
}

impl<'a, 't> Lowerer<'a, 't> {
    /// Calls `f` on each child of the cursor's node with the cursor on that
    /// child (`f` must leave it there), then puts the cursor back on the
    /// node. The same children, in the same order, as `Node::children`.
    fn each_child(&mut self, mut f: impl FnMut(&mut Self, Node<'t>)) {
        if !self.cursor.goto_first_child() {
            return;
        }
        loop {
            let child = self.cursor.node();
            f(self, child);
            if !self.cursor.goto_next_sibling() {
                break;
            }
        }
        self.cursor.goto_parent();
    }

    /// Keeps `node`, of kind `kind`, as a comment of the game when it is a
    /// comment or an escape line (`true`); `false` for any other node.
    fn comment_k(&mut self, node: Node<'_>, kind: Kind) -> bool {
        let Some(c) = comment_of_kind(node, kind, self.text) else {
            return false;
        };
        if c.kind == CommentKind::UnterminatedBrace {
            self.game.syntax_error = true;
        }
        self.game.comments.push(c);
        true
    }

    /// A child of the document in this game: the `game` node's items, or a
    /// comment, escape line or ERROR node around it.
    fn visit_top(&mut self, node: Node<'t>, k: Kind) {
        if k != Kind::Game {
            return self.visit_item(node, k);
        }
        if node.has_error() {
            self.game.syntax_error = true;
        }
        self.each_child(|l, child| l.visit_item(child, kind(child)));
    }

    /// Inside ERROR nodes: collect tag pairs and comments, nothing else.
    fn visit_children_generic(&mut self) {
        self.each_child(|l, child| {
            let k = kind(child);
            if l.comment_k(child, k) {
                return;
            }
            if k == Kind::TagPair {
                l.tag(child, TagRole::Plain);
            } else {
                // A node without children: the cursor stays where it is.
                l.visit_children_generic();
            }
        });
    }

    fn visit_item(&mut self, node: Node<'t>, k: Kind) {
        if self.comment_k(node, k) {
            return;
        }
        if k == Kind::Error || node.is_missing() {
            self.game.syntax_error = true;
            self.visit_children_generic();
            return;
        }
        match k {
            Kind::TagPair => {
                self.tag(node, TagRole::Plain);
            }
            Kind::AuctionSection => self.auction(node),
            Kind::PlaySection => self.play(node),
            Kind::SupplementalSection => self.section(node),
            _ => {}
        }
    }

    /// Lowers a tag pair and returns its index.
    fn tag(&mut self, node: Node<'t>, role: TagRole) -> usize {
        // Most tag pairs are `[Name "value"]` on one line: read from the
        // text (`syntax::tag_parts`) rather than from their four nodes, for
        // the same tag (`tag_parts_read_as_the_nodes_do` below).
        let tag = match node.child_count() {
            4 => syntax::tag_parts(self.text, node.byte_range())
                .map(|p| self.tag_of_parts(node, role, p)),
            _ => None,
        };
        let tag = tag.unwrap_or_else(|| self.tag_of_nodes(node, role));
        self.game.tags.push(tag);
        self.game.tags.len() - 1
    }

    /// The tag of a well-formed tag pair.
    fn tag_of_parts(&self, node: Node<'t>, role: TagRole, p: syntax::TagParts) -> Tag {
        let value = quoted_value(self.text, p.value, true);
        Tag {
            name: SmallStr::new(&self.text[p.name.clone()]),
            name_range: p.name,
            inherit: inherit_of(value.text.as_str()),
            value: Some(value),
            range: node.byte_range(),
            role,
            resolved: None,
        }
    }

    /// The tag of any tag pair, read from its nodes.
    fn tag_of_nodes(&mut self, node: Node<'t>, role: TagRole) -> Tag {
        let mut name = SmallStr::default();
        let mut name_range = node.start_byte()..node.start_byte();
        let mut value = None;
        // A tag pair has a few children, not nested in repetitions:
        // `Node::child` finds them for less than cursor steps cost, and
        // leaves the main cursor where it is (`section` walks its children
        // with a cursor of its own).
        for i in 0..node.child_count() {
            let Some(child) = node.child(i) else {
                continue;
            };
            let k = kind(child);
            if self.comment_k(child, k) {
                continue;
            }
            if k == Kind::Error || child.is_missing() {
                self.game.syntax_error = true;
                continue;
            }
            match k {
                Kind::TagName => {
                    name = SmallStr::new(&self.text[child.byte_range()]);
                    name_range = child.byte_range();
                }
                Kind::String => {
                    let r = string_inner(self.text, child.byte_range(), true);
                    value = Some(quoted_value(self.text, r, true));
                }
                Kind::UnterminatedString => {
                    self.game.syntax_error = true;
                    let r = string_inner(self.text, child.byte_range(), false);
                    value = Some(quoted_value(self.text, r, false));
                }
                Kind::UnquotedValue => {
                    self.game.syntax_error = true;
                    let r = child.byte_range();
                    let raw = &self.text[r.clone()];
                    value = Some(TagValue {
                        raw: SmallStr::new(raw),
                        text: SmallStr::new(raw),
                        range: r,
                        quoted: false,
                        terminated: true,
                    });
                }
                _ => {}
            }
        }
        if value.is_none() {
            self.game.syntax_error = true;
        }
        Tag {
            name,
            name_range,
            inherit: value
                .as_ref()
                .map_or(Inherit::None, |v| inherit_of(v.text.as_str())),
            value,
            range: node.byte_range(),
            role,
            resolved: None,
        }
    }

    fn annotation(&self, range: Range<usize>, kind: Kind) -> Option<Annotation> {
        let t = &self.text[range.clone()];
        let kind = match kind {
            Kind::Suffix => AnnotationKind::Suffix(crate::spec::sections::suffix_number(t)?),
            Kind::NoteRef => AnnotationKind::NoteRef(digits(&t[1..t.len() - 1])),
            Kind::Nag => AnnotationKind::Nag(digits(&t[1..])),
            Kind::Irregularity => {
                AnnotationKind::Irregularity(t[1..].chars().next().unwrap_or('?'))
            }
            _ => return None,
        };
        Some(Annotation { kind, range })
    }

    /// Lowers the children of an auction or play section: its tag, the
    /// tokens `token` recognises (with irregularity marks before them and
    /// annotations after them), and the Note tags that end it.
    fn section_items<T>(
        &mut self,
        roles: (TagRole, TagRole),
        token: impl Fn(Kind, &str) -> Option<T>,
        buf: &mut Vec<Entry<T>>,
    ) -> SectionItems<T> {
        // The section's tag pairs and tokens, counted first (an upper bound
        // of its entries): a section of a million calls or notes does not
        // grow its vectors by doubling.
        let (mut tags, mut tokens) = (0, 0);
        let node = self.cursor.node();
        let mut c = node.walk();
        if c.goto_first_child() {
            loop {
                match kind(c.node()) {
                    Kind::TagPair => tags += 1,
                    Kind::Cards | Kind::Calls => {
                        tokens += syntax::section_cells(self.text, c.node().byte_range()).count()
                    }
                    Kind::Continuation | Kind::Terminator | Kind::Irregularity => tokens += 1,
                    _ => {}
                }
                if !c.goto_next_sibling() {
                    break;
                }
            }
        }
        self.game.tags.reserve(tags);
        let mut entries = std::mem::take(buf);
        entries.reserve(tokens);
        let mut items = SectionItems {
            tag: usize::MAX,
            entries,
            stray: Vec::new(),
            notes: Vec::with_capacity(tags.saturating_sub(1)),
        };
        let mut pending: Vec<Annotation> = Vec::new();
        // The section's tag is its first child in the `tag` field (what
        // `child_by_field_name("tag")` finds); other tag pairs are notes.
        let tag_field = tag_field();
        let mut tag_seen = false;
        self.each_child(|l, child| {
            let kind = kind(child);
            if l.comment_k(child, kind) {
                return;
            }
            if kind == Kind::Error || child.is_missing() {
                l.game.syntax_error = true;
                l.visit_children_generic();
                return;
            }
            if kind == Kind::TagPair {
                if tag_seen || tag_field.is_none() || l.cursor.field_id() != tag_field {
                    let i = l.tag(child, roles.1);
                    items.notes.push(i);
                } else {
                    tag_seen = true;
                    items.tag = l.tag(child, roles.0);
                }
                return;
            }
            let r = child.byte_range();
            if kind == Kind::Cards || kind == Kind::Calls {
                // One node per run of card (call) tokens on a line: an
                // entry per token.
                for r in syntax::section_cells(l.text, r) {
                    let t = &l.text[r.clone()];
                    let kind = if kind == Kind::Cards {
                        Kind::Card(syntax::card_cell(t))
                    } else {
                        Kind::Call(syntax::call_cell(t))
                    };
                    if let Some(t) = token(kind, t) {
                        items
                            .entries
                            .push(Entry::new(t, r, std::mem::take(&mut pending)));
                    }
                }
                return;
            }
            match token(kind, &l.text[r.clone()]) {
                Some(t) => items
                    .entries
                    .push(Entry::new(t, r, std::mem::take(&mut pending))),
                None => {
                    if let Some(a) = l.annotation(r, kind) {
                        if matches!(a.kind, AnnotationKind::Irregularity(_)) {
                            pending.push(a);
                        } else if let Some(last) = items.entries.last_mut() {
                            last.push_post(a);
                        } else {
                            items.stray.push(a);
                        }
                    }
                }
            }
        });
        items.stray.extend(pending);
        // The entries at their exact length; the buffer goes back for the
        // next section.
        let entries = exact(&mut items.entries);
        *buf = std::mem::replace(&mut items.entries, entries);
        items
    }

    fn auction(&mut self, node: Node<'t>) {
        let mut buf = std::mem::take(&mut self.scratch.calls);
        let items = self.section_items(
            (TagRole::Auction, TagRole::AuctionNote),
            |kind, t| {
                use syntax::CallCell as C;
                Some(match kind {
                    Kind::Call(C::Bid) => parse_bid(t)
                        .map(CallToken::Bid)
                        .unwrap_or(CallToken::Invalid),
                    Kind::Call(C::Pass) => CallToken::Pass,
                    Kind::Call(C::Double) => CallToken::Double,
                    Kind::Call(C::Redouble) => CallToken::Redouble,
                    Kind::Call(C::AllPass) => CallToken::AllPass,
                    Kind::Call(C::Dash) => CallToken::Dash,
                    Kind::Call(C::Invalid) | Kind::Card(_) => CallToken::Invalid,
                    Kind::Continuation => CallToken::Continuation,
                    Kind::Terminator => CallToken::Terminator,
                    // `^S` takes the skipped player's turn (§3.9 B).
                    Kind::Irregularity if t[1..].eq_ignore_ascii_case("S") => CallToken::Skip,
                    _ => return None,
                })
            },
            &mut buf,
        );
        self.scratch.calls = buf;
        let auction = Auction {
            tag: items.tag,
            entries: items.entries,
            stray: items.stray,
            notes: items.notes,
            range: node.byte_range(),
        };
        self.game.auction.get_or_insert(auction);
    }

    fn play(&mut self, node: Node<'t>) {
        let mut buf = std::mem::take(&mut self.scratch.cards);
        let items = self.section_items(
            (TagRole::Play, TagRole::PlayNote),
            |kind, t| {
                Some(match kind {
                    Kind::Card(syntax::CardCell::Card) => parse_card(t)
                        .map(CardToken::Card)
                        .unwrap_or(CardToken::Invalid),
                    Kind::Card(syntax::CardCell::Dash) => CardToken::Dash,
                    Kind::Card(syntax::CardCell::Invalid) | Kind::Call(_) => CardToken::Invalid,
                    Kind::Continuation => CardToken::Continuation,
                    Kind::Terminator => CardToken::Terminator,
                    _ => return None,
                })
            },
            &mut buf,
        );
        self.scratch.cards = buf;
        let play = Play {
            tag: items.tag,
            entries: items.entries,
            stray: items.stray,
            notes: items.notes,
            range: node.byte_range(),
        };
        self.game.play.get_or_insert(play);
    }

    fn section(&mut self, node: Node<'t>) {
        let mut section = Section {
            tag: usize::MAX,
            elements: Vec::new(),
            range: node.byte_range(),
        };
        let mut c = node.walk();
        for child in node.children(&mut c) {
            let k = kind(child);
            if self.comment_k(child, k) {
                continue;
            }
            if k == Kind::Error || child.is_missing() {
                self.game.syntax_error = true;
                continue;
            }
            match k {
                Kind::TagPair => section.tag = self.tag(child, TagRole::Section),
                // A run of section tokens (§3.2), e.g. the unquoted cells of
                // a table row (§5): one element per token.
                Kind::SectionToken => section.elements.extend(
                    syntax::section_cells(self.text, child.byte_range()).map(|r| Element {
                        text: SmallStr::new(&self.text[r.clone()]),
                        range: r,
                        quoted: false,
                    }),
                ),
                Kind::String => {
                    let r = string_inner(self.text, child.byte_range(), true);
                    section.elements.push(Element {
                        text: SmallStr::new(&unescape(&self.text[r])),
                        range: child.byte_range(),
                        quoted: true,
                    })
                }
                _ => {}
            }
        }
        self.game.sections.push(section);
    }
}

/// The value of a quoted tag value whose inside (between the quotes) is
/// `r`; `terminated` when the closing quote is there.
fn quoted_value(text: &str, r: Range<usize>, terminated: bool) -> TagValue {
    let raw = &text[r.clone()];
    TagValue {
        raw: SmallStr::new(raw),
        text: unescape_small(raw),
        range: r,
        quoted: true,
        terminated,
    }
}

/// What a tag value inherits (§4.8): `#` the previous game's value, `##…`
/// the header's.
fn inherit_of(value: &str) -> Inherit {
    match value {
        "#" => Inherit::Previous,
        v if v.starts_with("##") => Inherit::Header,
        _ => Inherit::None,
    }
}

/// [`unescape`] without an intermediate `String` when there is nothing to
/// unescape.
fn unescape_small(raw: &str) -> SmallStr {
    if raw.contains('\\') {
        unescape(raw).into()
    } else {
        SmallStr::new(raw)
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
    match crate::spec::calls::read_standard(t)? {
        crate::spec::calls::Call::Bid { level, strain } => crate::bridge::bid_of(level, strain),
        _ => None,
    }
}

/// Parses a card token (`SA`, `hT`, …).
pub fn parse_card(t: &str) -> Option<Card> {
    let (suit, rank) = crate::spec::cards::read_standard(t)?;
    crate::bridge::card_of(suit, rank)
}

#[cfg(test)]
mod card_token_tests {
    use crate::syntax::{card_cell, CardCell};

    /// A token is a card exactly when the syntax layer's `cards` run calls
    /// it one.
    #[test]
    fn a_token_is_a_card_exactly_when_the_syntax_says_so() {
        for a in 0u8..128 {
            for b in 0u8..128 {
                let t = String::from_utf8(vec![a, b]).unwrap();
                assert_eq!(
                    card_cell(&t) == CardCell::Card,
                    super::parse_card(&t).is_some(),
                    "{t:?}"
                );
            }
        }
    }
}

#[cfg(test)]
mod tag_parts_tests {
    use super::*;

    /// A tag pair read from its text (`syntax::tag_parts`) is the tag read
    /// from its nodes; other tag pairs are read from their nodes.
    #[test]
    fn tag_parts_read_as_the_nodes_do() {
        let text = "[Event \"x\"]\n[ Site\t\"a\\\"b\\\\\" ]\n[Date \"#\"]\n[Room \"##r\"]\n\
                    [Auction \"N\"]\n1C Pass\n[Note \"1:x\"]\n[Play \"E\"]\nSA\n\
                    [OptimumResultTable \"a\"]\nN 1\n[Bad x]\n[Odd \"y\" ; c\n]\n[Open \"z\n";
        let tree = syntax::parse(text);
        let mut pairs = Vec::new();
        syntax::for_each_node(tree.root_node(), |n| {
            if kind(n) == Kind::TagPair {
                pairs.push(n);
            }
        });
        let mut l = Lowerer {
            text,
            game: Game::default(),
            scratch: Scratch::default(),
            cursor: tree.root_node().walk(),
        };
        let mut read = Vec::new();
        for n in pairs {
            let from_nodes = l.tag_of_nodes(n, TagRole::Plain);
            let parts = (n.child_count() == 4)
                .then(|| syntax::tag_parts(text, n.byte_range()))
                .flatten();
            if let Some(p) = parts {
                assert!(!l.game.syntax_error, "{:?}", &text[n.byte_range()]);
                let from_text = l.tag_of_parts(n, TagRole::Plain, p);
                assert_eq!(format!("{from_text:?}"), format!("{from_nodes:?}"));
                read.push(from_text.name.as_str().to_string());
            }
        }
        assert_eq!(
            read,
            [
                "Event",
                "Site",
                "Date",
                "Room",
                "Auction",
                "Note",
                "Play",
                "OptimumResultTable"
            ]
        );
        // The others are syntax errors, which the nodes tell.
        assert!(l.game.syntax_error);
        let doc = lower(&tree, text);
        let tags: Vec<_> = doc.games[0]
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.inherit))
            .collect();
        assert_eq!(
            tags[2..4],
            [("Date", Inherit::Previous), ("Room", Inherit::Header)]
        );
        assert_eq!(tags.len(), 11);
    }
}

#[cfg(test)]
mod exact_length_tests {
    use super::*;

    /// A game's vectors are as long as what they hold (a game of a million
    /// tags or calls grown by doubling kept up to twice that), and the
    /// games after a huge one are lowered as before, with small vectors.
    #[test]
    fn a_huge_games_vectors_are_at_their_length() {
        let mut text = "[Event \"x\"]".repeat(3000);
        text += "\n[Dealer \"N\"]\n[Auction \"N\"]\n";
        text += &"1C =1= Pass ".repeat(1500);
        text += "\n";
        text += &"[Note \"1:x\"]\n".repeat(1000);
        text += "[Declarer \"S\"]\n[Contract \"1C\"]\n[Play \"W\"]\n";
        text += &"SA ".repeat(2500);
        text += "\n";
        text += &"{ c }\n".repeat(1500);
        text += "\n[Event \"y\"]\n[Dealer \"N\"]\n[Auction \"N\"]\n1C Pass\n";
        let (games, _) = lower_piece(&syntax::parse_split(&text, usize::MAX), &text, 0);
        let [g, small] = &games[..] else {
            panic!("{} games", games.len());
        };
        assert_eq!(g.tags.len(), 3000 + 2 + 1000 + 3);
        assert_eq!(g.tags.capacity(), g.tags.len());
        let a = g.auction.as_ref().unwrap();
        assert_eq!((a.entries.len(), a.entries.capacity()), (3000, 3000));
        assert_eq!((a.notes.len(), a.notes.capacity()), (1000, 1000));
        let p = g.play.as_ref().unwrap();
        assert_eq!((p.entries.len(), p.entries.capacity()), (2500, 2500));
        assert_eq!((g.comments.len(), g.comments.capacity()), (1500, 1500));
        assert_eq!(small.tags.capacity(), small.tags.len());
        assert_eq!(small.auction.as_ref().unwrap().entries.capacity(), 2);
    }

    /// Buffers past [`exact`]'s limit are not kept for the next game; a
    /// vector built in one reserved at its length is moved out, not copied.
    #[test]
    fn exact_keeps_small_buffers_and_moves_full_large_ones() {
        let mut small: Vec<u8> = Vec::with_capacity(100);
        small.extend([1, 2, 3]);
        let v = exact(&mut small);
        assert_eq!((v.capacity(), small.capacity()), (3, 100));
        let mut large: Vec<u8> = Vec::with_capacity(5000);
        large.extend([0; 1000]);
        let v = exact(&mut large);
        assert_eq!((v.capacity(), large.capacity()), (1000, 0));
        let mut full: Vec<u8> = Vec::with_capacity(5000);
        full.extend([0; 4900]);
        let p = full.as_ptr();
        let v = exact(&mut full);
        assert_eq!((v.as_ptr(), v.len(), full.capacity()), (p, 4900, 0));
    }
}
