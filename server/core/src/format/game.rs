//! Printing one game in export format.

use super::options::FormatOptions;
use crate::bridge::seat_letter;
use crate::hash::Map as HashMap;
use crate::model::values;
use crate::model::{
    AnnotationKind, CallToken, CardToken, CommentKind, Entry, Game, Inherit, TagRole,
};
use crate::spec::sections::Section;
use crate::spec::tags::MANDATORY;
use std::borrow::Cow;

/// The longest line export format allows, without its line end (§2.3).
const MAX_LINE: usize = 255;

/// What a comment is attached to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Anchor {
    Lead,
    Tag(usize),
    Pre(Section, usize, usize),
    Token(Section, usize),
    Post(Section, usize, usize),
    Element(usize, usize),
}

struct Printer<'a> {
    text: &'a str,
    game: &'a Game,
    attached: HashMap<Anchor, Vec<usize>>,
    printed: Vec<bool>,
    /// Later duplicates (§3.4: ignored) of a tag, by the first one's index:
    /// printed as comments after it.
    duplicates: HashMap<usize, Vec<usize>>,
    /// Pieces of data that export format cannot hold, written as comments
    /// (a duplicate tag, a `*` before the end of a section).
    commented: usize,
    /// Something could not be written as a comment: keep the game as written.
    failed: bool,
}

impl<'a> Printer<'a> {
    fn comments(&mut self, a: Anchor) -> Vec<usize> {
        let v = self.attached.get(&a).cloned().unwrap_or_default();
        for &i in &v {
            self.printed[i] = true;
        }
        v
    }

    fn comment_text(&self, i: usize) -> &'a str {
        &self.text[self.game.comments[i].range.clone()]
    }

    /// Comments after a tag: each at the beginning of a new line (§3.8).
    /// Comments after a tag: the first at the beginning of a new line
    /// (§3.8); comments that shared a line in the input share it again.
    fn tag_comments(&mut self, a: Anchor, out: &mut String) {
        let list = self.comments(a);
        for (n, &i) in list.iter().enumerate() {
            let c = &self.game.comments[i];
            if n > 0 {
                let prev = &self.game.comments[list[n - 1]];
                let same_line = prev.kind != CommentKind::Escape
                    && c.kind != CommentKind::Escape
                    && prev.kind != CommentKind::Line
                    && !self.text[prev.range.end..c.range.start].contains(['\n', '\r']);
                if same_line {
                    out.pop();
                    out.push(' ');
                }
            }
            out.push_str(&wrapped(
                self.comment_text(i).trim_end_matches(['\r', '\n']),
            ));
            out.push('\n');
        }
    }
}

/// The mandatory tags (bit `i` for `MANDATORY[i]`) game `g` has, and those
/// of them whose value is `"#"`: all [`keep_from_marks`] needs of a game.
pub(super) fn mandatory_marks(g: &Game) -> (u16, u16) {
    let (mut present, mut hash) = (0u16, 0u16);
    for (bit, name) in MANDATORY.iter().enumerate() {
        if let Some(t) = g.tag(name) {
            present |= 1 << bit;
            if t.inherit == Inherit::Previous {
                hash |= 1 << bit;
            }
        }
    }
    (present, hash)
}

/// For each game, from every game's [`mandatory_marks`] in order, the
/// mandatory tags (bit `i` for `MANDATORY[i]`) that `add_missing_tags` must
/// not add because a later game's `"#"` would inherit the added `"?"`
/// (§4.8: `#` takes the value of the tag in the nearest previous game): the
/// game lacks the tag and the next game that has it writes `"#"`. Adding
/// `"?"` would change that game's value from the earlier real value (or
/// `""`) to unknown, so the tag stays absent.
pub(super) fn keep_from_marks(marks: &[(u16, u16)]) -> Vec<u16> {
    let mut next_is_hash: u16 = 0;
    let mut out = vec![0; marks.len()];
    for (gi, &(present, hash)) in marks.iter().enumerate().rev() {
        out[gi] = next_is_hash;
        next_is_hash = (next_is_hash & !present) | hash;
    }
    out
}

/// A game printed in export format.
pub(super) struct Printed {
    pub text: String,
    /// Later duplicate tags, written as comments.
    pub duplicates: usize,
    /// Everything written as a comment because export format cannot hold
    /// it (duplicates included).
    pub commented: usize,
}

/// Prints a game; `None` when it cannot be printed safely (then the caller
/// prints it verbatim). `keep_absent` (from [`keep_from_marks`]) names the
/// missing mandatory tags that must not be added.
pub(super) fn print(
    text: &str,
    g: &Game,
    opts: &FormatOptions,
    keep_absent: u16,
) -> Option<Printed> {
    let mut p = Printer {
        text,
        game: g,
        attached: HashMap::default(),
        printed: vec![false; g.comments.len()],
        duplicates: HashMap::default(),
        commented: 0,
        failed: false,
    };
    attach(&mut p);

    // About the game's size: no doubling past it on a huge game.
    let mut out = String::with_capacity(g.range.len() + g.range.len() / 8 + 64);
    // Leading comments and escape lines.
    p.tag_comments(Anchor::Lead, &mut out);

    // First occurrence of each tag; later duplicates (ignored, §3.4) are
    // kept as comments after the first one, with their own comments.
    let mut first: HashMap<&str, usize> = HashMap::default();
    let mut dropped = 0;
    for (i, t) in g.tags.iter().enumerate() {
        if matches!(t.role, TagRole::AuctionNote | TagRole::PlayNote) || t.name == "Note" {
            continue;
        }
        match first.get(t.name.as_str()) {
            None => {
                first.insert(&t.name, i);
            }
            Some(&f) => {
                dropped += 1;
                p.duplicates.entry(f).or_default().push(i);
                if matches!(t.role, TagRole::Auction | TagRole::Play | TagRole::Section) {
                    return None; // a second section: keep the game as written
                }
            }
        }
    }

    // A Note tag with data after it, outside the auction and play (a
    // supplemental section named Note, §5.1): printed among the sections,
    // after the auction or the play, it would become that section's note
    // and its data that section's calls or cards. Keep the game as written.
    if g.sections
        .iter()
        .any(|s| g.tags.get(s.tag).is_some_and(|t| t.name == "Note"))
    {
        return None;
    }

    // (1) the mandatory tags in their fixed order.
    for (bit, &name) in MANDATORY.iter().enumerate() {
        match first.get(name) {
            Some(&i) if g.tags[i].role == TagRole::Plain => print_tag(&mut p, i, &mut out),
            Some(_) => {}
            None => {
                // Omitted only where a `##` value supplies it (§4.8); a
                // plain value that replaced one is written out.
                let inherited = g.inherited.iter().find(|t| t.name == name);
                if let Some(t) = inherited.filter(|t| !t.marked) {
                    let v = crate::model::escape(&t.value);
                    out.push_str(&format!("[{name} \"{v}\"]\n"));
                } else if opts.add_missing_tags
                    && inherited.is_none()
                    && keep_absent & (1 << bit) == 0
                {
                    // §3.4.13-15: when all pass, Contract is "Pass",
                    // Declarer and Result "".
                    let passed = crate::model::contract_is_pass(g)
                        || crate::model::typed::passed_out(text, g);
                    let value = match name {
                        "Declarer" | "Result" if passed => "",
                        "Contract" if passed => "Pass",
                        _ => "?",
                    };
                    out.push_str(&format!("[{name} \"{value}\"]\n"));
                }
            }
        }
    }
    // (2) the supplemental tags, alphabetically; misplaced Note tags too.
    let mut supplemental: Vec<usize> = g
        .tags
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            t.role == TagRole::Plain
                && !MANDATORY.contains(&t.name.as_str())
                && (t.name == "Note" || first.get(t.name.as_str()) == Some(i))
        })
        .map(|(i, _)| i)
        .collect();
    supplemental.sort_by(|&a, &b| g.tags[a].name.cmp(&g.tags[b].name).then(a.cmp(&b)));
    for i in supplemental {
        print_tag(&mut p, i, &mut out);
    }
    // (3) the auction section, (4) the play section.
    if let Some(a) = &g.auction {
        auction(&mut p, a, &mut out)?;
    }
    if let Some(pl) = &g.play {
        play(&mut p, pl, &mut out)?;
    }
    // (5) supplemental sections, alphabetically.
    let mut sections: Vec<usize> = (0..g.sections.len()).collect();
    sections.sort_by(|&a, &b| {
        let na = g
            .tags
            .get(g.sections[a].tag)
            .map(|t| t.name.as_str())
            .unwrap_or("");
        let nb = g
            .tags
            .get(g.sections[b].tag)
            .map(|t| t.name.as_str())
            .unwrap_or("");
        na.cmp(nb).then(a.cmp(&b))
    });
    for s in sections {
        section(&mut p, s, &mut out)?;
    }
    // Every comment printed exactly once, or the game is left as written.
    if p.failed || p.printed.iter().any(|&b| !b) {
        return None;
    }
    Some(Printed {
        text: out,
        duplicates: dropped,
        commented: p.commented,
    })
}

/// Attaches each comment to the item it follows: the one whose start is
/// the last before the comment's (ties to the later kind: tags, calls,
/// cards, section elements). Found by binary search in the entries and
/// elements (in source order), without a list of every anchor: a game of a
/// million cards would hold one of 40 MB.
fn attach(p: &mut Printer<'_>) {
    let g = p.game;
    for (ci, c) in g.comments.iter().enumerate() {
        let at = c.range.start;
        let mut best: Option<(usize, Anchor)> = None;
        let mut consider = |s: usize, a: Anchor| {
            if s < at && best.is_none_or(|(b, _)| s >= b) {
                best = Some((s, a));
            }
        };
        for (i, t) in g.tags.iter().enumerate() {
            consider(t.range.start, Anchor::Tag(i));
        }
        if let Some(a) = &g.auction {
            entry_anchor(&a.entries, Section::Auction, at, &mut consider);
        }
        if let Some(pl) = &g.play {
            entry_anchor(&pl.entries, Section::Play, at, &mut consider);
        }
        for (s, sec) in g.sections.iter().enumerate() {
            let k = sec.elements.partition_point(|e| e.range.start < at);
            if k > 0 {
                consider(sec.elements[k - 1].range.start, Anchor::Element(s, k - 1));
            }
        }
        let anchor = best.map_or(Anchor::Lead, |(_, a)| a);
        p.attached.entry(anchor).or_default().push(ci);
    }
}

/// Offers `consider` the anchors (annotations before, token, annotations
/// after) of the last entry of `es` that starts before `at`.
fn entry_anchor<T>(
    es: &[Entry<T>],
    sec: Section,
    at: usize,
    consider: &mut impl FnMut(usize, Anchor),
) {
    let first = |e: &Entry<T>| e.pre().first().map_or(e.range.start, |a| a.range.start);
    let k = es.partition_point(|e| first(e) < at);
    let Some(k) = k.checked_sub(1) else {
        return;
    };
    let e = &es[k];
    for (j, a) in e.pre().iter().enumerate() {
        consider(a.range.start, Anchor::Pre(sec, k, j));
    }
    consider(e.range.start, Anchor::Token(sec, k));
    for (j, a) in e.post().iter().enumerate() {
        consider(a.range.start, Anchor::Post(sec, k, j));
    }
}

fn print_tag(p: &mut Printer<'_>, i: usize, out: &mut String) {
    let t = &p.game.tags[i];
    let value = match &t.value {
        None => String::new(),
        // As written: the export form of a value is the rules' safe fix
        // (`crate::rules::fixes`), applied before formatting.
        Some(v) => v.raw.as_str().to_owned(),
    };
    // A tag pair alone on its line (§3.3), but a line holds at most 254
    // characters plus its end (§2.3): drop the space if that is what it takes.
    let line = format!("[{} \"{}\"]", t.name, value);
    if line.chars().count() > 254 && line.chars().count() <= 255 {
        out.push_str(&format!("[{}\"{}\"]\n", t.name, value));
    } else {
        out.push_str(&line);
        out.push('\n');
    }
    p.tag_comments(Anchor::Tag(i), out);
    for d in p.duplicates.remove(&i).unwrap_or_default() {
        let raw = &p.text[p.game.tags[d].range.clone()];
        out.push_str(&as_comment(raw));
        out.push('\n');
        p.commented += 1;
        p.tag_comments(Anchor::Tag(d), out);
    }
}

/// The widest line [`wrapped`] writes.
const WRAP_WIDTH: usize = 200;

/// A `{…}` comment whose lines fit export format's 255 characters (§2.3):
/// a line of more than 254 characters is broken at spaces into lines of
/// at most [`WRAP_WIDTH`] (room for what stands before the comment on its
/// first line); every word is kept, a word longer than that stays whole.
/// Other comments as written.
fn wrapped(t: &str) -> std::borrow::Cow<'_, str> {
    let long = |l: &str| l.chars().count() > 254;
    if !t.starts_with('{') || !t.lines().any(long) {
        return t.into();
    }
    let mut out = String::with_capacity(t.len() + t.len() / WRAP_WIDTH);
    for (k, line) in t.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        if !long(line) {
            out.push_str(line);
            continue;
        }
        let mut width = 0;
        for (j, word) in line.split(' ').enumerate() {
            let n = word.chars().count();
            if j > 0 {
                if width > 0 && width + 1 + n > WRAP_WIDTH {
                    out.push('\n');
                    width = 0;
                } else {
                    out.push(' ');
                    width += 1;
                }
            }
            out.push_str(word);
            width += n;
        }
    }
    out.into()
}

/// `raw` as `;` comments (§3.8), one a line. Never a `{…}` comment: a
/// `}` the formatter wrote would close a `{` comment left open earlier in
/// the file (one cut at a semi-empty line, PBN0004), and the games between
/// would become part of that comment.
fn as_comment(raw: &str) -> String {
    let lines: Vec<String> = raw
        .split("\r\n")
        .flat_map(|l| l.split(['\r', '\n']))
        .map(|l| format!(";{l}"))
        .collect();
    lines.join("\n")
}

/// Appends `piece` to the current line, separated by one space.
fn push_piece(line: &mut String, piece: &str) {
    if !line.is_empty() {
        line.push(' ');
    }
    line.push_str(piece);
}

/// Prints the pieces of one entry (irregularity marks, token, annotations,
/// with their comments) onto `line`, the lines it ends into `out`; returns
/// whether the line must end after it (a `;` comment or an escape line).
fn entry_pieces<T>(
    p: &mut Printer<'_>,
    sec: Section,
    k: usize,
    e: &Entry<T>,
    token: &str,
    line: &mut String,
    out: &mut String,
) -> bool {
    let mut must_break = false;
    let emit_comments = |p: &mut Printer<'_>,
                         a: Anchor,
                         line: &mut String,
                         out: &mut String,
                         must_break: &mut bool| {
        for ci in p.comments(a) {
            let c = &p.game.comments[ci];
            let t = p.text[c.range.clone()].trim_end_matches(['\r', '\n']);
            match c.kind {
                CommentKind::Escape => {
                    flush_line(line, out);
                    out.push_str(t);
                    out.push('\n');
                }
                CommentKind::Line => {
                    push_piece(line, t);
                    flush_line(line, out);
                    *must_break = true;
                }
                _ => push_piece(line, t),
            }
        }
    };
    for (j, a) in e.pre().iter().enumerate() {
        push_piece(line, &p.text[a.range.clone()]);
        emit_comments(p, Anchor::Pre(sec, k, j), line, out, &mut must_break);
    }
    push_piece(line, token);
    if token.starts_with(';') {
        flush_line(line, out);
        must_break = true;
    }
    emit_comments(p, Anchor::Token(sec, k), line, out, &mut must_break);
    // Export order: the note reference, then the NAGs in increasing order
    // (§3.5.2); suffixes become their NAG (§3.7).
    let mut order: Vec<(u8, u64, usize, String)> = Vec::new();
    for (j, a) in e.post().iter().enumerate() {
        let t = &p.text[a.range.clone()];
        let item = match a.kind {
            AnnotationKind::NoteRef(_) => (0, 0, j, t.to_owned()),
            // Placed as its NAG; written as its NAG by the PBN1007 fix.
            AnnotationKind::Suffix(s) => (1, u64::from(sec.suffix_nag(s)), j, t.to_owned()),
            AnnotationKind::Nag(Some(n)) => (1, n as u64, j, format!("${n}")),
            AnnotationKind::Nag(None) => (2, 0, j, t.to_owned()),
            AnnotationKind::Irregularity(_) => (3, 0, j, t.to_owned()),
        };
        order.push(item);
    }
    order.sort();
    for (_, _, j, t) in order {
        push_piece(line, &t);
        emit_comments(p, Anchor::Post(sec, k, j), line, out, &mut must_break);
    }
    must_break
}

/// Ends `line` (if any) in `out` as it is: a line of a section.
fn flush_line(line: &mut String, out: &mut String) {
    if !line.is_empty() {
        out.push_str(line);
        out.push('\n');
        line.clear();
    }
}

/// A piece of a section's layout.
enum Piece<'t> {
    /// Entry `k`, written as `token`; `counts` as one of a line's four
    /// slots (a stray `*` does not).
    Entry {
        k: usize,
        token: Cow<'t, str>,
        counts: bool,
    },
    /// One of the passes an `AP` stands for, but the last (which carries
    /// the `AP`'s comments: an `Entry`).
    Pass,
}

/// Writes the pieces of a section, four slots a line, straight into `out`
/// (made one at a time: a line of a million cards holds no list of them).
fn slot_layout<'t, T>(
    p: &mut Printer<'_>,
    sec: Section,
    entries: &[Entry<T>],
    pieces: impl Iterator<Item = Piece<'t>>,
    out: &mut String,
) {
    let mut line = String::new();
    let mut slot = 0usize;
    for piece in pieces {
        let counts = !matches!(piece, Piece::Entry { counts: false, .. });
        if counts && slot.is_multiple_of(4) && slot > 0 {
            flush_line(&mut line, out);
        }
        let broke = match piece {
            Piece::Pass => {
                push_piece(&mut line, "Pass");
                false
            }
            Piece::Entry { k, token, .. } => {
                entry_pieces(p, sec, k, &entries[k], &token, &mut line, out)
            }
        };
        if broke {
            flush_line(&mut line, out);
        }
        if counts {
            slot += 1;
        }
    }
    flush_line(&mut line, out);
}

/// The `*` that ends a section, on a line of its own.
fn terminator_line<T>(p: &mut Printer<'_>, sec: Section, k: usize, e: &Entry<T>, out: &mut String) {
    let mut line = String::new();
    entry_pieces(p, sec, k, e, "*", &mut line, out);
    flush_line(&mut line, out);
}

fn auction(p: &mut Printer<'_>, a: &crate::model::Auction, out: &mut String) -> Option<()> {
    let g = p.game;
    if a.tag == usize::MAX {
        return None;
    }
    let tag = &g.tags[a.tag];
    if tag.inherit != Inherit::None {
        return None;
    }
    let seat = tag
        .value
        .as_ref()
        .and_then(|v| values::parse_auction_seat(&v.raw).value)
        .map(|s| s.seat);
    let dealer = g
        .value("Dealer")
        .and_then(|d| values::parse_dealer(d).value)
        .map(|s| s.seat);
    // Drop the `-` padding before the dealer (§3.5) when it is exactly that.
    let mut skip = 0;
    let mut tag_seat = seat;
    if let (Some(s), Some(d)) = (seat, dealer) {
        let pad = crate::bridge::distance(s, d);
        let dashes = a
            .entries
            .iter()
            .take_while(|e| e.token == CallToken::Dash && e.post().is_empty() && e.pre().is_empty())
            .count();
        let dash_comments =
            (0..pad).any(|k| p.attached.contains_key(&Anchor::Token(Section::Auction, k)));
        if pad > 0 && dashes >= pad && !dash_comments {
            skip = pad;
            tag_seat = Some(d);
        }
    }
    let value = match tag_seat {
        Some(s) if skip > 0 => seat_letter(s).to_string(),
        _ => tag
            .value
            .as_ref()
            .map(|v| v.raw.as_str().to_owned())
            .unwrap_or_default(),
    };
    out.push_str(&format!("[Auction \"{value}\"]\n"));
    p.tag_comments(Anchor::Tag(a.tag), out);
    // The `*` that ends the section (§3.5); any other, before a call or a
    // second one, cannot stand in export format: kept as a comment there.
    let last_call = a
        .entries
        .iter()
        .rposition(|e| e.token != CallToken::Terminator);
    let terminator = (last_call.map_or(0, |l| l + 1)..a.entries.len())
        .find(|&k| a.entries[k].token == CallToken::Terminator);
    let entries = &a.entries;
    let stray = |k: usize| entries[k].token == CallToken::Terminator && Some(k) != terminator;
    stray_terminators(
        p,
        entries,
        last_call,
        (skip..entries.len()).filter(|&k| stray(k)),
    )?;
    let text = p.text;
    let mut k = skip;
    // Passes still to write for the `AP` before `k`.
    let mut passes = 0usize;
    let pieces = std::iter::from_fn(move || loop {
        if passes > 0 {
            passes -= 1;
            return Some(if passes == 0 {
                Piece::Entry {
                    k: k - 1,
                    token: "Pass".into(),
                    counts: true,
                }
            } else {
                Piece::Pass
            });
        }
        let e = entries.get(k)?;
        k += 1;
        if e.token == CallToken::Terminator {
            if stray(k - 1) {
                return Some(Piece::Entry {
                    k: k - 1,
                    token: ";*".into(),
                    counts: false,
                });
            }
            continue;
        }
        // `AP` is written as the passes it stands for (as the reference
        // verifier's export does), unless it carries annotations.
        if e.token == CallToken::AllPass && e.post().is_empty() && e.pre().is_empty() {
            passes = crate::model::all_pass_count(&entries[..k - 1]);
            if passes > 0 {
                continue;
            }
        }
        return Some(Piece::Entry {
            k: k - 1,
            token: text[e.range.clone()].into(),
            counts: true,
        });
    });
    slot_layout(p, Section::Auction, entries, pieces, out);
    if let Some(k) = terminator {
        terminator_line(p, Section::Auction, k, &entries[k], out);
    }
    for &n in &a.notes {
        print_tag(p, n, out);
    }
    Some(())
}

/// Counts the `*`s at `strays`, which do not end their section: each is
/// written as a `;*` comment ending the line where it stood (never `{*}`:
/// see [`as_comment`]). `None` (keep the game as written) when one carries
/// annotations, which would then annotate the entry before it, or stands
/// before the section's last call or card (`last`): the section ends at
/// that `*` (`pbn dump`'s `end`, and no contract from the calls after it),
/// and as a comment it would let them count (BEN's `4C*`, PBN0511, whose
/// unsafe fix says what it was meant as).
fn stray_terminators<T>(
    p: &mut Printer<'_>,
    entries: &[Entry<T>],
    last: Option<usize>,
    strays: impl Iterator<Item = usize>,
) -> Option<()> {
    for k in strays {
        let e = &entries[k];
        if !e.pre().is_empty() || !e.post().is_empty() || last.is_some_and(|l| k < l) {
            return None;
        }
        p.commented += 1;
    }
    Some(())
}

fn play(p: &mut Printer<'_>, pl: &crate::model::Play, out: &mut String) -> Option<()> {
    let g = p.game;
    if pl.tag == usize::MAX {
        return None;
    }
    let tag = &g.tags[pl.tag];
    if tag.inherit != Inherit::None {
        return None;
    }
    let seat = tag
        .value
        .as_ref()
        .and_then(|v| values::parse_play_seat(&v.raw).value)
        .map(|s| s.seat);
    let declarer = g
        .value("Declarer")
        .and_then(|d| values::parse_declarer(d).value)
        .and_then(|d| d.seat);
    let entries = &pl.entries;
    let is_card = |k: usize| entries[k].token != CardToken::Terminator;
    let last_card = (0..entries.len()).rposition(is_card);
    // The `*` that ends the section (§3.6); the others are kept as comments
    // where they stood (before a card, or a second one).
    let terminator: Option<usize> = (last_card.map_or(0, |l| l + 1)..entries.len())
        .find(|&k| entries[k].token == CardToken::Terminator);
    let stray = |k: usize| !is_card(k) && Some(k) != terminator;
    // Rotate the columns so that each line starts with the opening leader
    // (§3.6) when every trick line is complete and nothing marks a lead out
    // of turn. Then no `*` but the last stands among the cards, which are
    // the entries `0..cards`.
    let mut rotate = 0;
    let mut tag_seat = seat;
    if let (Some(s), Some(d)) = (seat, declarer) {
        let leader = d.lho();
        let shift = crate::bridge::distance(s, leader);
        let cards = (0..entries.len()).filter(|&k| is_card(k)).count();
        let any_l = entries.iter().any(|e| {
            e.pre()
                .iter()
                .any(|a| a.kind == AnnotationKind::Irregularity('L'))
        });
        let no_stray = !(0..entries.len()).any(stray);
        if shift > 0 && cards.is_multiple_of(4) && !any_l && no_stray {
            rotate = shift;
            tag_seat = Some(leader);
        }
    }
    let value = match tag_seat {
        Some(s) if rotate > 0 => seat_letter(s).to_string(),
        _ => tag
            .value
            .as_ref()
            .map(|v| v.raw.as_str().to_owned())
            .unwrap_or_default(),
    };
    out.push_str(&format!("[Play \"{value}\"]\n"));
    p.tag_comments(Anchor::Tag(pl.tag), out);
    // In place, with the stray `*`s; or rotated (the cards only).
    let order: Box<dyn Iterator<Item = usize>> = if rotate > 0 {
        let cards = last_card.map_or(0, |l| l + 1);
        Box::new((0..cards).map(move |i| i - i % 4 + (i % 4 + rotate) % 4))
    } else {
        Box::new((0..entries.len()).filter(move |&k| Some(k) != terminator))
    };
    stray_terminators(
        p,
        entries,
        last_card,
        (0..entries.len()).filter(|&k| stray(k)),
    )?;
    let text = p.text;
    let pieces = order.map(|k| {
        let e = &entries[k];
        let t = &text[e.range.clone()];
        let token: Cow<'_, str> = match e.token {
            CardToken::Terminator => ";*".into(),
            _ => t.into(),
        };
        Piece::Entry {
            k,
            counts: e.token != CardToken::Terminator,
            token,
        }
    });
    slot_layout(p, Section::Play, entries, pieces, out);
    if let Some(k) = terminator {
        terminator_line(p, Section::Play, k, &entries[k], out);
    }
    for &n in &pl.notes {
        print_tag(p, n, out);
    }
    Some(())
}

/// Ends `line` (if any) in `out`. Only the spaces and tabs of padding are
/// trimmed, never Unicode white space: a section element of U+0085 or
/// U+00A0 (an error outside strings, §2.2, but data all the same) would be
/// dropped by `str::trim_end`, and the empty line left in its place would
/// end the game there (§3.1: one game would become two).
fn end_line(line: &mut String, out: &mut String) {
    let kept = line.trim_end_matches([' ', '\t']);
    if !kept.is_empty() {
        out.push_str(kept);
        out.push('\n');
    }
    line.clear();
}

/// Appends the comments attached to element `k` of section `s` to `line`.
/// An escape line gets a line of its own (`%` only counts in the first
/// column, §2.4) and a `;` comment ends its line (§3.8): printed inline,
/// the one would become section data and the other would swallow the
/// elements after it.
fn element_comments(p: &mut Printer<'_>, s: usize, k: usize, line: &mut String, out: &mut String) {
    for ci in p.comments(Anchor::Element(s, k)) {
        let t = p.comment_text(ci).trim_end_matches(['\r', '\n']);
        match p.game.comments[ci].kind {
            CommentKind::Escape => {
                end_line(line, out);
                out.push_str(t);
                out.push('\n');
            }
            CommentKind::Line => {
                push_piece(line, t);
                end_line(line, out);
            }
            _ => push_piece(line, &wrapped(t)),
        }
    }
}

fn section(p: &mut Printer<'_>, s: usize, out: &mut String) -> Option<()> {
    let g = p.game;
    let sec = &g.sections[s];
    if sec.tag == usize::MAX {
        return None;
    }
    print_tag(p, sec.tag, out);
    let tag = &g.tags[sec.tag];
    let columns = tag
        .value
        .as_ref()
        .and_then(|v| values::layout_columns(&tag.name, &v.raw));
    let element_text =
        |p: &Printer<'_>, k: usize| -> String { p.text[sec.elements[k].range.clone()].to_owned() };
    match columns {
        Some(cols) if sec.elements.len().is_multiple_of(cols.len()) => {
            for row in (0..sec.elements.len())
                .collect::<Vec<_>>()
                .chunks(cols.len())
            {
                let mut line = String::new();
                for (c, &k) in row.iter().enumerate() {
                    let t = element_text(p, k);
                    let col = &cols[c];
                    // A line holds at most 255 characters (§2.3): a wider
                    // minimum width cannot be honoured, and padding to it
                    // would let a hostile `\1111111111111111111` ask for
                    // exabytes (found by fuzzing).
                    let width = col.min_width.unwrap_or(0).min(MAX_LINE);
                    let len = t.chars().count();
                    let padded = if len >= width {
                        t
                    } else {
                        let pad = " ".repeat(width - len);
                        let right = match col.align {
                            Some(values::Align::Right) => true,
                            Some(values::Align::Left) => false,
                            None => t
                                .trim_start_matches(['-', '+', '^'])
                                .chars()
                                .next()
                                .is_some_and(|c| c.is_ascii_digit()),
                        };
                        if right {
                            format!("{pad}{t}")
                        } else {
                            format!("{t}{pad}")
                        }
                    };
                    if c > 0 && !line.is_empty() {
                        line.push(' ');
                    }
                    line.push_str(&padded);
                    element_comments(p, s, k, &mut line, out);
                }
                end_line(&mut line, out);
            }
        }
        _ => {
            // Keep the rows as written, one space between elements.
            let mut line = String::new();
            let mut last_end: Option<usize> = None;
            for k in 0..sec.elements.len() {
                let e = &sec.elements[k];
                if let Some(end) = last_end {
                    if p.text[end..e.range.start].contains(['\n', '\r']) && !line.is_empty() {
                        out.push_str(&line);
                        out.push('\n');
                        line.clear();
                    }
                }
                push_piece(&mut line, &element_text(p, k));
                element_comments(p, s, k, &mut line, out);
                last_end = Some(e.range.end);
            }
            end_line(&mut line, out);
        }
    }
    Some(())
}
