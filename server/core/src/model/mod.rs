//! The typed semantic model of a PBN document.
//!
//! [`lower`] turns the tree-sitter-pbn tree into a [`Document`]: games, their
//! tags in order (with `#`/`##` inheritance resolved across games, §4.8), the
//! auction and play sections with their annotations and notes, supplemental
//! sections, and every comment with its position. All positions are byte
//! ranges into the decoded text.
//!
//! The model keeps tag values as written ([`TagValue::raw`]); typed
//! interpretations (Deal, Contract, …) come from [`values`].

pub mod dump;
pub mod inherit;
pub mod lower;
pub mod score_table;
mod small_str;
pub mod typed;
pub mod values;

pub use small_str::SmallStr;

pub use lower::lower;

use std::ops::Range;

/// A whole document.
#[derive(Clone, Debug, Default)]
pub struct Document {
    pub games: Vec<Game>,
    /// Comments and escape lines in stretches without any tag (not games).
    pub loose: Vec<Comment>,
}

/// One game (§3): everything between two semi-empty lines that has tags.
#[derive(Clone, Debug, Default)]
pub struct Game {
    /// 0-based position in the document.
    pub index: usize,
    /// From the first to the last node of the game (comments included).
    pub range: Range<usize>,
    /// The game contains an ERROR/MISSING node or a lenient error leaf:
    /// its meaning is uncertain and the formatter prints it verbatim. A
    /// part of a game longer than [`crate::syntax::GAME_WINDOW`] has one
    /// too.
    pub syntax_error: bool,
    /// The game is a part of a game longer than
    /// [`crate::syntax::GAME_WINDOW`], not the first: where it was cut.
    pub cut_before: Option<usize>,
    /// The game is a part of such a game, not the last.
    pub cut_after: bool,
    /// Every tag pair, in document order, including Auction, Play, Note and
    /// section tags.
    pub tags: Vec<Tag>,
    pub auction: Option<Auction>,
    pub play: Option<Play>,
    /// Supplemental sections (§5): tags followed by section data.
    pub sections: Vec<Section>,
    /// Comments and escape lines of the game, in document order.
    pub comments: Vec<Comment>,
    /// Values this game receives from `##` tags of earlier games without
    /// having the tag itself (§4.8).
    pub inherited: Vec<Inherited>,
    /// Note tags whose text goes on in a `{Note n continued: …}` comment
    /// right after the tag ([`values::note::continuation`]). Read through
    /// [`Game::note`] and [`Game::commentary`].
    pub notes_continued: Vec<NoteContinued>,
}

/// A Note tag continued in the comment after it.
#[derive(Clone, Debug, PartialEq)]
pub struct NoteContinued {
    /// The Note tag (an index into [`Game::tags`]).
    pub tag: usize,
    /// The comment (an index into [`Game::comments`]).
    pub comment: usize,
    /// The text the comment adds to the note's.
    pub text: String,
}

/// Where a tag pair sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagRole {
    /// An ordinary tag pair (identification section, §3.4, or a supplemental
    /// tag, §4).
    Plain,
    /// `[Auction]`: starts the auction section (§3.5).
    Auction,
    /// `[Play]`: starts the play section (§3.6).
    Play,
    /// A `[Note]` at the end of the auction section (§3.5.5).
    AuctionNote,
    /// A `[Note]` at the end of the play section (§3.6.5).
    PlayNote,
    /// A tag followed by section data (§5).
    Section,
}

/// The value of a tag pair as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagValue {
    /// The characters between the quotes, escapes not processed.
    pub raw: SmallStr,
    /// The value with `\"` and `\\` unescaped (§3.2).
    pub text: SmallStr,
    /// Byte range of `raw` in the document (inside the quotes).
    pub range: Range<usize>,
    /// Written as a quoted string (not a bare word).
    pub quoted: bool,
    /// Has its closing quote.
    pub terminated: bool,
}

/// `#` / `##` inheritance markers (§4.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inherit {
    None,
    /// `"#"`: the value of the same tag in the nearest previous game.
    Previous,
    /// `"##text"`: `text`, here and in all subsequent games. The text is
    /// the value after `##` ([`Tag::header_text`]); not kept twice.
    Header,
}

/// Where an inherited value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// Game index and tag index of the tag that holds the real value.
    pub game: usize,
    pub tag: usize,
}

#[derive(Clone, Debug)]
pub struct Tag {
    pub name: SmallStr,
    pub name_range: Range<usize>,
    /// `None` when the tag pair has no value at all (`[Event]`).
    pub value: Option<TagValue>,
    /// The whole tag pair.
    pub range: Range<usize>,
    pub role: TagRole,
    pub inherit: Inherit,
    /// For `#` values: the value found in earlier games and its source; for
    /// `##text`: `text` with no source. `None` for ordinary values (boxed:
    /// most tags have none).
    pub resolved: Option<Box<(String, Option<Source>)>>,
}

impl Tag {
    /// For a `##text` value: `text` (unescaped).
    pub fn header_text(&self) -> Option<&str> {
        match self.inherit {
            Inherit::Header => self.value.as_ref().map(|v| &v.text[2..]),
            _ => None,
        }
    }

    /// The value to use: the resolved inherited value or the text itself.
    pub fn effective(&self) -> Option<&str> {
        match self.resolved.as_deref() {
            Some((v, _)) => Some(v),
            None => self.value.as_ref().map(|v| v.text.as_str()),
        }
    }
}

/// A tag a game does not have but receives through `##` (§4.8).
#[derive(Clone, Debug, PartialEq)]
pub struct Inherited {
    pub name: String,
    pub value: String,
    pub source: Source,
    /// The value was written with `##` (false: a plain value that replaced
    /// an earlier `##` value and now applies in its place, §4.8).
    pub marked: bool,
}

/// A comment (§3.8) or escape line (§2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub kind: CommentKind,
    pub range: Range<usize>,
}

impl Comment {
    /// The comment's text without its delimiters: `{`/`}`, `;` or `%`.
    pub fn body<'t>(&self, text: &'t str) -> &'t str {
        let raw = &text[self.range.clone()];
        match self.kind {
            CommentKind::Brace => raw
                .strip_prefix('{')
                .and_then(|s| s.strip_suffix('}'))
                .unwrap_or(raw),
            CommentKind::UnterminatedBrace => raw.strip_prefix('{').unwrap_or(raw),
            CommentKind::Line => raw.strip_prefix(';').unwrap_or(raw),
            CommentKind::Escape => raw.strip_prefix('%').unwrap_or(raw),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentKind {
    /// `; …` to the end of the line.
    Line,
    /// `{ … }`.
    Brace,
    /// `{ …` without its `}`.
    UnterminatedBrace,
    /// `%` in column 0.
    Escape,
}

/// An annotation after a call or card, or an irregularity before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub kind: AnnotationKind,
    pub range: Range<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnnotationKind {
    /// `!` `?` `!!` `??` `!?` `?!` as 1..=6 in that order (§3.5.3).
    Suffix(u8),
    /// `=n=`; `None` when the inside is not a number (§3.5.4).
    NoteRef(Option<u32>),
    /// `$n`; `None` when not a number (§3.7).
    Nag(Option<u32>),
    /// `^I` `^S` `^R` `^L` (or another letter, which the checker rejects).
    Irregularity(char),
}

pub use crate::bridge::auction::CallToken;
pub use crate::bridge::play::CardToken;

/// A call or card with its annotations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<T> {
    pub token: T,
    /// Range of the token itself.
    pub range: Range<usize>,
    /// The annotations before and after the token; `None` for the many
    /// entries without any, so that an entry takes 32 bytes, not 72.
    annotations: Option<Box<EntryAnnotations>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct EntryAnnotations {
    /// `pre` then `post`.
    all: Vec<Annotation>,
    pre: usize,
}

impl<T> Entry<T> {
    pub fn new(token: T, range: Range<usize>, pre: Vec<Annotation>) -> Entry<T> {
        let annotations = (!pre.is_empty()).then(|| {
            Box::new(EntryAnnotations {
                pre: pre.len(),
                all: pre,
            })
        });
        Entry {
            token,
            range,
            annotations,
        }
    }

    /// Irregularities written before the token (`^I 1C`, `^R S6`).
    pub fn pre(&self) -> &[Annotation] {
        self.annotations.as_ref().map_or(&[], |a| &a.all[..a.pre])
    }

    /// Suffix, note reference and NAGs written after the token.
    pub fn post(&self) -> &[Annotation] {
        self.annotations.as_ref().map_or(&[], |a| &a.all[a.pre..])
    }

    /// Adds an annotation after the token.
    pub fn push_post(&mut self, a: Annotation) {
        let all = &mut self
            .annotations
            .get_or_insert_with(|| {
                Box::new(EntryAnnotations {
                    all: Vec::new(),
                    pre: 0,
                })
            })
            .all;
        // Most annotated entries have one or two annotations: room for
        // exactly those, not the four a growing vector starts with (a
        // million `=1=` took 96 bytes each, not 24); more grow as usual.
        if all.len() == all.capacity() && all.len() < 4 {
            all.reserve_exact(1);
        }
        all.push(a);
    }
}

/// The auction section (§3.5).
#[derive(Clone, Debug)]
pub struct Auction {
    /// Index of the `[Auction]` tag in [`Game::tags`].
    pub tag: usize,
    pub entries: Vec<Entry<CallToken>>,
    /// Annotations with no call before them (or irregularities with no call
    /// after them).
    pub stray: Vec<Annotation>,
    /// Indices of the section's `[Note]` tags in [`Game::tags`].
    pub notes: Vec<usize>,
    pub range: Range<usize>,
}

/// The play section (§3.6).
#[derive(Clone, Debug)]
pub struct Play {
    pub tag: usize,
    pub entries: Vec<Entry<CardToken>>,
    pub stray: Vec<Annotation>,
    pub notes: Vec<usize>,
    pub range: Range<usize>,
}

/// A supplemental section (§5).
#[derive(Clone, Debug)]
pub struct Section {
    pub tag: usize,
    pub elements: Vec<Element>,
    pub range: Range<usize>,
}

/// A section element: a section token or a string token (§5.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// The element's text (unescaped, without quotes, for strings); inline
    /// up to 22 bytes, as table cells almost always are (1.4 million of
    /// them in a 20,000-game file: a `String` each would be 40% of the model).
    pub text: SmallStr,
    pub range: Range<usize>,
    pub quoted: bool,
}

impl Game {
    /// Tag `tag` read as a Note (`n:text`, §3.5.5, §3.6.5), its text with
    /// the continuation comment a note too long for one line has
    /// ([`Game::notes_continued`]). `None` when it is not one.
    pub fn note(&self, tag: usize) -> Option<values::Note> {
        let mut note = values::parse_note(&self.tags.get(tag)?.value.as_ref()?.raw).value?;
        if let Some(c) = self.notes_continued.iter().find(|c| c.tag == tag) {
            note.text.push(' ');
            note.text.push_str(&c.text);
        }
        Some(note)
    }

    /// The index of each of the Note tags `notes` (tag indices) that has
    /// one, with its tag: the number before the colon, blanks around it
    /// and any size allowed. Lenient on purpose: a Note whose value breaks
    /// the form ([`values::parse_note`] reports it) still pairs with the
    /// references to its number, so that they do not each read as a
    /// reference to no note.
    pub fn note_indices<'a>(
        &'a self,
        notes: &'a [usize],
    ) -> impl Iterator<Item = (u32, usize)> + 'a {
        notes.iter().filter_map(|&i| {
            let text = self.tags.get(i)?.value.as_ref()?.text.as_str();
            let (n, _) = text.split_once(':')?;
            let n = n.trim();
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((n.parse().ok()?, i))
        })
    }

    /// The game's comments and escape lines in document order but for
    /// those that continue a Note ([`Game::note`] reads them): what the
    /// renderers and converters show as commentary.
    pub fn commentary(&self) -> impl Iterator<Item = &Comment> {
        let mut skip = self.notes_continued.iter().map(|c| c.comment).peekable();
        self.comments.iter().enumerate().filter_map(move |(i, c)| {
            while skip.next_if(|&k| k < i).is_some() {}
            match skip.next_if_eq(&i) {
                Some(_) => None,
                None => Some(c),
            }
        })
    }

    /// The game is a part of a game longer than
    /// [`crate::syntax::GAME_WINDOW`]: it is checked as a game, but no fix
    /// is offered for it (it is not the game the fix would be made for).
    pub fn is_part(&self) -> bool {
        self.cut_before.is_some() || self.cut_after
    }

    /// The first tag with this name (§3.4: later duplicates are ignored).
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// The effective value of a tag: its own (resolved) value, or one
    /// inherited through `##`.
    pub fn value(&self, name: &str) -> Option<&str> {
        match self.tag(name) {
            Some(t) => t.effective(),
            None => self
                .inherited
                .iter()
                .find(|i| i.name == name)
                .map(|i| i.value.as_str()),
        }
    }
}

/// Unescapes a PBN string's inside: `\"` → `"`, `\\` → `\` (§3.2). Other
/// backslashes are kept as written.
pub fn unescape(raw: &str) -> String {
    if !raw.contains('\\') {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('"') | Some('\\') => out.push(chars.next().unwrap()),
                _ => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The byte offset in `raw` (a string's inside as written) of byte offset
/// `off` of its [`unescape`]d text: issues found in the unescaped text (a
/// quoted table element, §5.2) are placed in the file with it. Before a
/// `\"` or `\\` it is the backslash's offset, after one the offset past it.
pub fn raw_offset(raw: &str, off: usize) -> usize {
    let b = raw.as_bytes();
    let (mut i, mut o) = (0, 0);
    while o < off && i < b.len() {
        if b[i] == b'\\' && matches!(b.get(i + 1), Some(b'"' | b'\\')) {
            i += 2;
            o += 1;
        } else {
            let n = raw[i..].chars().next().map_or(1, char::len_utf8);
            i += n;
            o += n;
        }
    }
    i
}

pub use crate::spec::escape;

/// How many passes an `AP` after `before` stands for (§3.5.1 "all players
/// pass"): enough for three passes after the last bid, double or redouble,
/// or four passes when nobody has bid.
pub fn all_pass_count(before: &[Entry<CallToken>]) -> usize {
    let calls: Vec<CallToken> = before
        .iter()
        .map(|e| e.token)
        .filter(|t| {
            !matches!(
                t,
                CallToken::Dash | CallToken::Terminator | CallToken::Continuation
            )
        })
        .collect();
    let trailing = calls
        .iter()
        .rev()
        .take_while(|t| **t == CallToken::Pass)
        .count();
    let bid = calls
        .iter()
        .any(|t| !matches!(t, CallToken::Pass | CallToken::Skip));
    let need: usize = if bid { 3 } else { 4 };
    need.saturating_sub(trailing)
}

/// The game's Contract is `Pass` (all four players passed).
pub fn contract_is_pass(g: &Game) -> bool {
    g.value("Contract")
        .is_some_and(|c| c.trim().eq_ignore_ascii_case("pass"))
}

/// The Play tag of a board not played: `[Play ""]` (or `"?"`), written
/// here, with no card, no annotation and no note. It says nothing (§3.6).
pub fn empty_play_tag(g: &Game) -> Option<&Tag> {
    let play = g.play.as_ref()?;
    let tag = g
        .tags
        .get(play.tag)
        .filter(|t| t.inherit == Inherit::None)?;
    let v = tag.value.as_ref()?;
    (play.entries.is_empty()
        && play.stray.is_empty()
        && play.notes.is_empty()
        && matches!(v.raw.trim(), "" | "?"))
    .then_some(tag)
}

#[cfg(test)]
mod tests {
    use super::{raw_offset, unescape, Annotation, AnnotationKind, Entry};

    /// A Note whose value breaks the form still has the number a reader
    /// sees; one without a number before its colon has none.
    #[test]
    fn a_note_keeps_its_number_when_its_form_is_broken() {
        let text = "[Auction \"N\"]\n1C =1= 1D =2= AP\n[Note \" 1 :a\"]\n[Note \"40:b\"]\n[Note \"x:c\"]\n[Note \"2\"]\n";
        let doc = crate::model::lower(&crate::syntax::parse_pieces(text), text);
        let g = &doc.games[0];
        let notes = &g.auction.as_ref().unwrap().notes;
        let found: Vec<u32> = g.note_indices(notes).map(|(n, _)| n).collect();
        assert_eq!(found, [1, 40]);
    }

    /// One or two annotations after a token take room for one or two, not
    /// for the four a growing vector starts with; a fifth grows as usual.
    #[test]
    fn post_annotations_take_the_room_they_need() {
        let mut e = Entry::new(super::CardToken::Dash, 0..1, Vec::new());
        let a = Annotation {
            kind: AnnotationKind::Nag(Some(1)),
            range: 2..4,
        };
        let room = |e: &Entry<_>| e.annotations.as_ref().unwrap().all.capacity();
        e.push_post(a.clone());
        assert_eq!(room(&e), 1);
        e.push_post(a.clone());
        assert_eq!(room(&e), 2);
        for _ in 0..3 {
            e.push_post(a.clone());
        }
        assert_eq!((e.post().len(), e.pre().len()), (5, 0));
        assert!(room(&e) >= 5);
    }

    #[test]
    fn raw_offset_maps_unescaped_offsets_back() {
        let raw = r#"a\"¤\\b\c"#;
        let text = unescape(raw);
        assert_eq!(text, "a\"¤\\b\\c");
        // Every char boundary of the unescaped text maps to one of the raw
        // text, and the text between mapped offsets unescapes to the piece.
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        for &a in &bounds {
            for &b in bounds.iter().filter(|&&b| b >= a) {
                let (ra, rb) = (raw_offset(raw, a), raw_offset(raw, b));
                assert!(
                    raw.is_char_boundary(ra) && raw.is_char_boundary(rb),
                    "{a}..{b} → {ra}..{rb}"
                );
                assert_eq!(unescape(&raw[ra..rb]), text[a..b], "{a}..{b} → {ra}..{rb}");
            }
        }
        assert_eq!(raw_offset(raw, 1), 1); // before `\"`
        assert_eq!(raw_offset(raw, 2), 3); // after it
        assert_eq!(raw_offset("ab", 2), 2);
    }
}
