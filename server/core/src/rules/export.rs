//! PBN10xx: what import format allows but export format does not (§2.1,
//! §2.3, §3.3–§3.6, §3.11). Active with `--export` or a `% EXPORT` line.

use super::tags::MANDATORY;
use super::GameCtx;
use crate::codes::export as c;
use crate::diagnostic::Diagnostic;
use crate::diagnostic::{Applicability, Fix};
use crate::model::values::{char_range, layout_columns, Align, Column};
use crate::model::{AnnotationKind, CallToken, CardToken, CommentKind, Element, Game, TagRole};
use crate::spec::tags::export_rank;
use crate::text::{LineEnding, SourceText};
use std::ops::Range;

/// Does the document declare export format (`% EXPORT` escape line, §2.4)?
pub fn declares_export(text: &str) -> bool {
    text.lines()
        .take_while(|l| l.starts_with('%') || l.trim().is_empty())
        .any(crate::text::is_export_line)
}

/// File-level export rules: line ends, tabs, game separators.
pub fn check_file(
    source: &SourceText,
    children: &[tree_sitter::Node<'_>],
    out: &mut Vec<Diagnostic>,
) {
    check_file_text(source, out);
    let text = source.text.as_str();
    // Game separators: exactly one empty line.
    for (k, n) in children.iter().enumerate() {
        if n.kind() != "game_break" || k == 0 || k + 1 >= children.len() {
            continue;
        }
        out.extend(separator(
            text,
            children[k - 1].end_byte(),
            n.byte_range(),
            children[k + 1].start_byte(),
        ));
    }
}

/// The game separator rule (§3) on one `game_break` node (at `brk`)
/// between a node ending at `before` and one starting at `after`.
pub fn separator(
    text: &str,
    before: usize,
    brk: std::ops::Range<usize>,
    after: usize,
) -> Option<Diagnostic> {
    let gap = &text[before..after];
    let ok = gap == "\r\n\r\n" || gap == "\n\n" || gap == "\r\r";
    (!ok).then(|| {
        Diagnostic::new(
            &c::EXPORT_GAME_SEPARATOR,
            brk,
            "games must be separated by exactly one empty line, without spaces or tabs (§3)",
        )
    })
}

/// The file-level export rules that need only the text: line ends and tabs.
pub fn check_file_text(source: &SourceText, out: &mut Vec<Diagnostic>) {
    let text = source.text.as_str();
    let b = text.as_bytes();
    if !matches!(source.line_ending, LineEnding::CrLf | LineEnding::None) {
        // Point at the first line end that is not CRLF.
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                i += 2;
                continue;
            }
            if b[i] == b'\n' || b[i] == b'\r' {
                out.push(Diagnostic::new(
                    &c::EXPORT_LINE_ENDING,
                    i..i + 1,
                    format!(
                        "lines end with {} here; export format ends every line with CRLF (§2.3)",
                        if b[i] == b'\n' { "LF" } else { "CR" }
                    ),
                ));
                break;
            }
            i += 1;
        }
    }
    // Tab and VT (§2.3); the count is kept across edits (`SourceText`), so
    // a file without them is not scanned.
    let any_tab = source.has_tab();
    let tabs = if any_tab { b } else { &b[..0] };
    for i in tabs
        .iter()
        .enumerate()
        .filter(|(_, &x)| x == b'\t' || x == 0x0b)
        .map(|(i, _)| i)
        .take(20)
    {
        out.push(Diagnostic::new(
            &c::EXPORT_TAB,
            i..i + 1,
            "tab characters are not permitted in export format (§2.3)",
        ));
    }
}

/// The seat letter of a one-letter seat value (`n`, `^S`), in upper case.
fn seat_letter(v: &str) -> Option<char> {
    let t = v.trim();
    let mut c = t.strip_prefix('^').unwrap_or(t).chars();
    match (c.next(), c.next()) {
        (Some(c), None) => crate::spec::seats::from_letter(c).map(|_| c.to_ascii_uppercase()),
        _ => None,
    }
}

/// The letter of the seat after `s` clockwise: declarer's left-hand
/// opponent, the opening leader (§3.6).
fn lho(s: char) -> char {
    let next = crate::spec::seats::from_letter(s).map_or(0, |i| (i + 1) % 4);
    crate::spec::seats::LETTERS[next].as_bytes()[0] as char
}

/// Whether `offset` starts a line. Looks at one byte: scanning back to the
/// line start for every tag was quadratic on a line of many tags.
fn at_line_start(text: &str, offset: usize) -> bool {
    offset == 0 || matches!(text.as_bytes()[offset - 1], b'\n' | b'\r')
}

/// Whether the line ends at `offset` (one byte looked at, as above).
fn rest_of_line_empty(text: &str, offset: usize) -> bool {
    text.as_bytes()
        .get(offset)
        .is_none_or(|&c| c == b'\n' || c == b'\r')
}

pub fn check(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    missing_tags(ctx, out);
    tag_order(ctx, out);
    tag_layout(ctx, out);
    let dealer = g.value("Dealer").and_then(seat_letter);
    value_forms(ctx, dealer, out);
    auction(ctx, g, dealer, out);
    play(ctx, g, out);
    spacing(ctx, g, out);
    table_rows(ctx, g, out);
}

/// PBN1001: the mandatory tags (§3.4).
fn missing_tags(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    let first_range = g
        .tags
        .first()
        .map(|t| t.range.clone())
        .unwrap_or(g.range.clone());
    let missing: Vec<&str> = MANDATORY
        .iter()
        .copied()
        .filter(|n| g.tag(n).is_none() && g.value(n).is_none())
        .collect();
    if !missing.is_empty() {
        ctx.push(out, Diagnostic::new(
            &c::EXPORT_MISSING_TAG,
            first_range.clone(),
            format!("export format requires the mandatory tag(s) {} (§3.4; write \"?\" for an unknown value)", missing.join(", ")),
        ));
    }
}

/// PBN1002 the tags' order, PBN1015 a tag repeated (§3.1, §3.4).
fn tag_order(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    let mut seen: super::FastSet<&str> =
        super::FastSet::with_capacity_and_hasher(g.tags.len(), Default::default());
    let mut prev_key: Option<(u8, usize, &str, &str)> = None;
    for tag in &g.tags {
        let name = tag.name.as_str();
        if matches!(tag.role, TagRole::AuctionNote | TagRole::PlayNote) {
            continue;
        }
        if seen.contains(&name) {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_DUPLICATE_TAG,
                    tag.range.clone(),
                    format!(
                        "`{name}` occurs more than once; export format allows each tag once (§3.4)"
                    ),
                ),
            );
            continue;
        }
        seen.insert(name);
        let key = match tag.role {
            TagRole::Auction => export_rank("Auction", false),
            TagRole::Play => export_rank("Play", false),
            role => export_rank(name, role == TagRole::Section),
        };
        if let Some((pk, pi, pn, pname)) = prev_key {
            if key < (pk, pi, pn) {
                ctx.push(out, Diagnostic::new(
                    &c::EXPORT_TAG_ORDER,
                    tag.name_range.clone(),
                    format!(
                        "`{name}` must come before `{pname}`: mandatory tags in fixed order, supplemental tags alphabetically, auction, play, then sections alphabetically (§3.1, §3.4)"
                    ),
                ));
            }
        }
        prev_key = Some((key.0, key.1, key.2, name));
    }
}

/// PBN1003: each tag `[Name "value"]` on a line by itself (§3.3).
fn tag_layout(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let (g, text) = (ctx.game, ctx.text);
    for tag in &g.tags {
        let Some(v) = &tag.value else { continue };
        // `[Name "value"]`, or `[Name"value"]` when that line would have
        // 255 characters: without the space it fits (§2.3). The expected
        // form is only written out when it is reported.
        let space = 5 + tag.name.chars().count() + v.raw.chars().count() != 255;
        let written = &text[tag.range.clone()];
        let at_line_start = at_line_start(text, tag.range.start);
        if !is_layout(written, &tag.name, &v.raw, space)
            || !at_line_start
            || !rest_of_line_empty(text, tag.range.end)
        {
            let expected = if space {
                format!("[{} \"{}\"]", tag.name, v.raw)
            } else {
                format!("[{}\"{}\"]", tag.name, v.raw)
            };
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_TAG_LAYOUT,
                    tag.range.clone(),
                    format!(
                        "write this tag as `{expected}`, left justified on a line by itself (§3.3)"
                    ),
                ),
            );
        }
    }
}

/// PBN1006 lower case, PBN1013 value forms, PBN1012 the Deal's form.
fn value_forms(ctx: &GameCtx<'_>, dealer: Option<char>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    for tag in &g.tags {
        let Some(v) = &tag.value else { continue };
        let raw = v.raw.as_str();
        if raw == "#" || raw.starts_with("##") {
            continue;
        }
        let lower = match tag.name.as_str() {
            "Dealer" | "Declarer" | "Auction" | "Play" | "Deal" => {
                raw.chars().any(|c| c.is_ascii_lowercase())
            }
            "Contract" => raw != "Pass" && raw.chars().any(|c| c.is_ascii_lowercase()),
            _ => false,
        };
        if lower {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_LOWERCASE,
                    v.range.clone(),
                    format!(
                        "`{}` value must be upper case in export format (§3.11)",
                        tag.name
                    ),
                ),
            );
        }
        match tag.name.as_str() {
            "Vulnerable" => {
                if let Some(canon) = crate::model::values::vulnerable_export_form(raw) {
                    if canon != raw {
                        ctx.push(
                            out,
                            Diagnostic::new(
                                &c::EXPORT_VALUE_FORM,
                                v.range.clone(),
                                format!(
                                    "write Vulnerable as \"{canon}\" in export format (§3.4.10)"
                                ),
                            ),
                        );
                    }
                }
            }
            "Result" => {
                let t = raw.trim_start_matches('^');
                // Only expressible as declarer's tricks when there is a declarer.
                let has_declarer = g
                    .value("Declarer")
                    .is_some_and(|d| seat_letter(d).is_some());
                if has_declarer && (t.starts_with("NS") || t.starts_with("EW")) {
                    ctx.push(out, Diagnostic::new(&c::EXPORT_VALUE_FORM, v.range.clone(), "in export format the Result is the number of tricks won by declarer (§3.4.15)"));
                }
            }
            "Deal" => {
                if let Some((first, hands)) = raw.split_once(':') {
                    if let (Some(f), Some(d)) = (seat_letter(first), dealer) {
                        if f != d {
                            ctx.push(out, Diagnostic::new(&c::EXPORT_DEAL_FORM, v.range.start..v.range.start + first.len(), format!("the Deal must start with the dealer `{d}` in export format (§3.4.11)")));
                        }
                    }
                    let unsorted = hands.split(' ').flat_map(|h| h.split('.')).any(|suit| {
                        let pos: Vec<Option<usize>> =
                            suit.chars().map(crate::spec::cards::rank).collect();
                        pos.windows(2)
                            .any(|w| matches!((w[0], w[1]), (Some(a), Some(b)) if a > b))
                    });
                    if unsorted {
                        ctx.push(out, Diagnostic::new(&c::EXPORT_DEAL_FORM, v.range.clone(), "the ranks of each suit must be in descending order (AKQJT98765432) in export format (§3.4.11)"));
                    }
                }
            }
            _ => {}
        }
    }
}

/// What a token in [`spacing`] is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Item {
    Tag,
    Comment,
    /// A call or card (the gap between two is PBN1011's).
    Entry,
    /// A suffix (`!`, `?`…), written against its call or card.
    Suffix,
    /// Another annotation, or an element outside a table.
    Token,
    /// An element of table section `k` (its spacing is [`table_rows`]').
    Cell(usize),
}

/// The line end the text uses, for a fix that breaks a line.
fn line_end(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        Some(_) => "\n",
        None => "\r\n",
    }
}

/// The lists of a game's tokens for [`spacing`], each in the order the
/// model keeps it: tag pairs, comments (not escape lines), the auction's
/// calls with their annotations and its stray annotations, the same of the
/// play, the elements of every section (`kinds`: each section's item kind).
fn token_lists<'a>(
    g: &'a Game,
    kinds: &'a [Item],
) -> [Box<dyn Iterator<Item = (Range<usize>, Item)> + 'a>; 7] {
    fn entries<T>(
        entries: &[crate::model::Entry<T>],
    ) -> impl Iterator<Item = (Range<usize>, Item)> + '_ {
        entries.iter().flat_map(|e| {
            let pre = e.pre().iter().map(|a| (a.range.clone(), Item::Token));
            // A suffix is written against its call or card (PBN1007 in
            // export format): no gap before it.
            let post = e.post().iter().map(|a| {
                let kind = match a.kind {
                    AnnotationKind::Suffix(_) => Item::Suffix,
                    _ => Item::Token,
                };
                (a.range.clone(), kind)
            });
            pre.chain(std::iter::once((e.range.clone(), Item::Entry)))
                .chain(post)
        })
    }
    let stray =
        |s: &'a [crate::model::Annotation]| s.iter().map(|x| (x.range.clone(), Item::Token));
    [
        Box::new(g.tags.iter().map(|t| (t.range.clone(), Item::Tag))),
        Box::new(
            g.comments
                .iter()
                .filter(|c| c.kind != CommentKind::Escape)
                .map(|c| (c.range.clone(), Item::Comment)),
        ),
        Box::new(g.auction.iter().flat_map(|a| entries(&a.entries))),
        Box::new(g.auction.iter().flat_map(move |a| stray(&a.stray))),
        Box::new(g.play.iter().flat_map(|p| entries(&p.entries))),
        Box::new(g.play.iter().flat_map(move |p| stray(&p.stray))),
        Box::new(
            g.sections
                .iter()
                .zip(kinds)
                .flat_map(|(s, &kind)| s.elements.iter().map(move |e| (e.range.clone(), kind))),
        ),
    ]
}

/// Lists each in order, merged into one in order; of equal items, the one
/// of the earlier list first.
struct Merge<I: Iterator<Item = (Range<usize>, Item)>>(Vec<std::iter::Peekable<I>>);

impl<I: Iterator<Item = (Range<usize>, Item)>> Iterator for Merge<I> {
    type Item = (Range<usize>, Item);

    fn next(&mut self) -> Option<Self::Item> {
        let mut best: Option<(usize, (usize, usize))> = None;
        for (k, list) in self.0.iter_mut().enumerate() {
            if let Some((r, _)) = list.peek() {
                let key = (r.start, r.end);
                if best.is_none_or(|(_, b)| key < b) {
                    best = Some((k, key));
                }
            }
        }
        self.0[best?.0].next()
    }
}

/// PBN1016: tokens that share a line are separated by a single space: after
/// a note reference (§3.5.4) or a NAG (§3.7), before a comment (§3.8),
/// between section elements (§5.1); a comment after a tag pair starts a new
/// line (§3.8). The gap between a tag pair and a token is PBN1003's, between
/// two calls or cards PBN1011's, between two elements of a table PBN1017's.
/// Not in a game with a syntax error.
fn spacing(ctx: &GameCtx<'_>, g: &Game, out: &mut Vec<Diagnostic>) {
    if g.syntax_error {
        return; // its tokens are not all known: a gap may be inside one
    }
    let text = ctx.text;
    // The tokens in document order: each list of them (tags, comments, the
    // auction's, the play's, the sections') is in document order, so they
    // are merged as they are read, with no list of a game's million cards;
    // the order is the one a stable sort of the lists one after the other
    // gives. Should a list not be in order, they are sorted instead.
    let kinds: Vec<Item> = (0..g.sections.len())
        .map(|k| {
            let s = &g.sections[k];
            if s.tag != usize::MAX && table_columns(g, s).is_some() {
                Item::Cell(k)
            } else {
                Item::Token
            }
        })
        .collect();
    let key = |t: &(Range<usize>, Item)| (t.0.start, t.0.end);
    let items: Box<dyn Iterator<Item = (Range<usize>, Item)>> = if token_lists(g, &kinds)
        .into_iter()
        .all(|l| l.is_sorted_by_key(|t| key(&t)))
    {
        Box::new(Merge(
            token_lists(g, &kinds)
                .into_iter()
                .map(Iterator::peekable)
                .collect(),
        ))
    } else {
        let mut all: Vec<_> = token_lists(g, &kinds).into_iter().flatten().collect();
        all.sort_by_key(key);
        Box::new(all.into_iter())
    };
    let mut reported = 0;
    let mut prev: Option<(Range<usize>, Item)> = None;
    for item in items {
        if prev.as_ref().is_none_or(|p| p.0.end > item.0.start) {
            // The first item, or one inside the one before (a comment in
            // a tag pair is PBN0010's).
            if prev.as_ref().is_none_or(|p| item.0.end > p.0.end) {
                prev = Some(item);
            }
            continue;
        }
        let Some(p) = prev.replace(item.clone()) else {
            continue;
        };
        let gap = p.0.end..item.0.start;
        let between = &text[gap.clone()];
        if between.contains(['\n', '\r']) || reported >= 20 {
            continue;
        }
        let d = match (p.1, item.1) {
            (Item::Tag, Item::Comment) => Diagnostic::new(
                &c::EXPORT_SPACING,
                gap.start..item.0.start + 1,
                "a comment after a tag pair starts a new line in export format (§3.8)",
            )
            .with_fix(Some(Fix::replace(
                "Start the comment on a new line",
                gap.clone(),
                line_end(text),
                Applicability::Safe,
            ))),
            (Item::Tag, _) | (_, Item::Tag) => continue,
            (Item::Cell(a), Item::Cell(b)) if a == b => continue,
            (Item::Entry, Item::Entry) | (Item::Entry, Item::Suffix) => continue,
            _ if between == " " => continue,
            (before, after) => {
                let what = if after == Item::Comment {
                    "before a comment (§3.8)"
                } else if before == Item::Comment {
                    "after a comment (§3.8)"
                } else {
                    match text[p.0.clone()].as_bytes().first() {
                        Some(b'=') => "after a note reference (§3.5.4)",
                        Some(b'$') => "after a NAG (§3.7)",
                        _ => "between the tokens of a line (§5.1)",
                    }
                };
                let at = if gap.is_empty() {
                    // The token's first character, which may be a
                    // non-ASCII one (section data read liberally).
                    char_range(text, item.0.start)
                } else {
                    gap.clone()
                };
                Diagnostic::new(
                    &c::EXPORT_SPACING,
                    at,
                    format!("export format writes a single space {what}"),
                )
                .with_fix(Some(Fix::replace(
                    "Write a single space",
                    gap.clone(),
                    " ",
                    Applicability::Safe,
                )))
            }
        };
        reported += 1;
        ctx.push(out, d);
    }
}

/// The columns of a table section: its tag's value is a column spec,
/// whatever the tag (§5.2, [`layout_columns`]).
fn table_columns(g: &Game, s: &crate::model::Section) -> Option<Vec<Column>> {
    let tag = &g.tags[s.tag];
    layout_columns(&tag.name, &tag.value.as_ref()?.raw)
}

/// The widest minimum width honoured: a line holds at most 255 characters
/// (§2.3), as in the formatter.
const MAX_WIDTH: usize = 255;

/// PBN1017: in export format a table row is one line, its elements
/// separated by a single space; more spaces only pad an element to its
/// column's minimum width, on the side its alignment allows, and every
/// element is padded to that width (§5.2).
fn table_rows(ctx: &GameCtx<'_>, g: &Game, out: &mut Vec<Diagnostic>) {
    let text = ctx.text;
    for s in &g.sections {
        if s.tag == usize::MAX {
            continue;
        }
        let Some(cols) = table_columns(g, s) else {
            continue;
        };
        let mut reported = 0;
        for row in s.elements.chunks_exact(cols.len()) {
            if reported >= 20 {
                break;
            }
            if let Some(msg) = row_problem(text, &cols, row) {
                reported += 1;
                let span = row[0].range.start..row[row.len() - 1].range.end;
                ctx.push(
                    out,
                    Diagnostic::new(&c::EXPORT_TABLE_ROW, span, format!("{msg} (§5.2)")),
                );
            }
        }
    }
}

/// What is wrong with one table row's layout, if anything.
fn row_problem(text: &str, cols: &[Column], row: &[Element]) -> Option<String> {
    let len = |e: &Element| text[e.range.clone()].chars().count();
    let width = |k: usize| cols[k].min_width.unwrap_or(0).min(MAX_WIDTH);
    // Spaces before the first element and after the last one pad them;
    // one of them separates the row from what shares its line (§5.2 keeps
    // a row on one line, not a line to a row).
    let first = row[0].range.start;
    let lead_spaces = first - text[..first].trim_end_matches(' ').len();
    let lead = if at_line_start(text, first - lead_spaces) {
        lead_spaces
    } else {
        lead_spaces.saturating_sub(1)
    };
    let last = row[row.len() - 1].range.end;
    let tail = &text[last..];
    let trail_spaces = tail.len() - tail.trim_start_matches(' ').len();
    let trail_spaces = if rest_of_line_empty(text, last + trail_spaces) {
        trail_spaces
    } else {
        trail_spaces.saturating_sub(1)
    };
    // Spaces before element k that pad it (from its left gap).
    let mut before = lead;
    for (k, e) in row.iter().enumerate() {
        let (w, n, col) = (width(k), len(e), &cols[k]);
        let pre = before;
        let pads_before = col.align != Some(Align::Left);
        if before > 0 && (!pads_before || before + n > w.max(n)) {
            return Some(format!(
                "`{}` has more spaces before it than the minimum width of column `{}` needs; \
                 table elements are separated by a single space in export format",
                e.text, col.name
            ));
        }
        let room = if col.align == Some(Align::Right) {
            0
        } else {
            w.saturating_sub(n + before)
        };
        let after = match row.get(k + 1) {
            Some(next) => {
                let gap = &text[e.range.end..next.range.start];
                if gap.contains(['\n', '\r']) {
                    return Some(
                        "the elements of a table row are on one line in export format".into(),
                    );
                }
                if gap.contains(['{', ';']) || gap.is_empty() {
                    // A comment in the row is PBN0802's, its spacing and
                    // a missing space PBN1016's.
                    return None;
                }
                let extra = gap.len() - 1;
                let mine = extra.min(room);
                before = extra - mine;
                mine
            }
            None => trail_spaces.min(room),
        };
        let padded = pre + n + after;
        if padded < w {
            return Some(format!(
                "`{}` is not padded to the minimum width {w} of column `{}`{}",
                e.text,
                col.name,
                match col.align {
                    Some(Align::Left) => " (with spaces after it: `L`)",
                    Some(Align::Right) => " (with spaces before it: `R`)",
                    None => "",
                }
            ));
        }
    }
    None
}

fn annotations<T>(
    ctx: &GameCtx<'_>,
    entries: &[crate::model::Entry<T>],
    out: &mut Vec<Diagnostic>,
) {
    for e in entries {
        let mut seen_nag: Option<u32> = None;
        for a in e.post() {
            match a.kind {
                AnnotationKind::Suffix(_) => ctx.push(out, Diagnostic::new(&c::EXPORT_SUFFIX, a.range.clone(), "export format writes suffixes as their NAG ($1..$6 for calls, $7..$12 for cards) (§3.5.2)")),
                AnnotationKind::NoteRef(_)
                    if seen_nag.is_some() => {
                        ctx.push(out, Diagnostic::new(&c::EXPORT_ANNOTATION_ORDER, a.range.clone(), "the note reference comes before the NAGs in export format (§3.5.2)"));
                    }
                AnnotationKind::Nag(Some(n)) => {
                    if seen_nag.is_some_and(|p| p > n) {
                        ctx.push(out, Diagnostic::new(&c::EXPORT_ANNOTATION_ORDER, a.range.clone(), "NAGs are given in increasing order in export format (§3.5.2)"));
                    }
                    seen_nag = Some(n);
                }
                _ => {}
            }
        }
    }
}

/// Checks that the entries of a section are laid out 4 to a line with
/// single spaces; `entries` gives each entry's range, whether it occupies a
/// column and whether it has annotations. Read line by line, not collected:
/// a section of a million cards (or a line of them) takes no list of them.
fn layout(
    ctx: &GameCtx<'_>,
    entries: impl Iterator<Item = (Range<usize>, bool, bool)>,
    what: &str,
    out: &mut Vec<Diagnostic>,
) {
    let text = ctx.text;
    // The current line; it is checked when the next one starts (or the
    // section ends: then it is the last).
    let mut line = Line::default();
    let mut last_line = usize::MAX;
    // Line numbers counted incrementally (entries are in document order).
    let mut counted_to = None;
    let mut line_no = 0usize;
    for (r, counts, annotated) in entries {
        let from = *counted_to.get_or_insert(r.start);
        if !counts {
            continue;
        }
        if r.start >= from {
            line_no += text.as_bytes()[from..r.start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            counted_to = Some(r.start);
        }
        if line_no != last_line {
            if line.n > 0 {
                layout_line(ctx, &line, false, what, out);
                line = Line::default();
            }
            last_line = line_no;
        }
        line.push(r, annotated);
    }
    if line.n > 0 {
        layout_line(ctx, &line, true, what, out);
    }
}

/// One line of a section's entries that occupy a column, as [`layout`]
/// checks it: how many, the first five (a line of more is wrong whatever
/// they are), where the last ends, whether any has annotations.
#[derive(Default)]
struct Line {
    n: usize,
    head: Vec<Range<usize>>,
    end: usize,
    annotated: bool,
}

impl Line {
    fn push(&mut self, r: Range<usize>, annotated: bool) {
        self.n += 1;
        self.end = r.end;
        self.annotated |= annotated;
        if self.head.len() < 5 {
            self.head.push(r);
        }
    }
}

/// [`layout`] on one line of entries (`last`: the section's last line).
fn layout_line(ctx: &GameCtx<'_>, line: &Line, last: bool, what: &str, out: &mut Vec<Diagnostic>) {
    let text = ctx.text;
    let first = &line.head[0];
    let bad_count = line.n > 4 || (line.n < 4 && !last && !line.annotated);
    let not_left = !at_line_start(text, first.start);
    if bad_count || not_left {
        ctx.push(out, Diagnostic::new(
            &c::EXPORT_LINE_LAYOUT,
            first.start..line.end,
            format!("each line holds 4 {what}s starting at the left margin (fewer only due to annotation) in export format (§3.5, §3.6)"),
        ));
        return;
    }
    for w in line.head.windows(2) {
        let gap = &text[w[0].end..w[1].start];
        if gap != " " && !gap.contains(['{', ';', '$', '=', '!', '?', '^']) {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_LINE_LAYOUT,
                    w[0].end..w[1].start,
                    format!(
                        "{what}s are separated by a single space in export format (§3.5, §5.1)"
                    ),
                ),
            );
            break;
        }
    }
}

/// From the first irregularity mark before the token to the token's end.
fn entry_span<T>(e: &crate::model::Entry<T>) -> Range<usize> {
    e.pre()
        .first()
        .map(|a| a.range.start)
        .unwrap_or(e.range.start)..e.range.end
}

fn auction(ctx: &GameCtx<'_>, g: &Game, dealer: Option<char>, out: &mut Vec<Diagnostic>) {
    let Some(a) = &g.auction else { return };
    if a.tag == usize::MAX {
        return;
    }
    let tag = &g.tags[a.tag];
    let seat = tag.value.as_ref().and_then(|v| seat_letter(&v.raw));
    if let (Some(s), Some(d)) = (seat, dealer) {
        if s != d {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_AUCTION_START,
                    tag.range.clone(),
                    format!("the auction must start with the dealer `{d}` in export format (§3.5)"),
                ),
            );
        }
    }
    for e in &a.entries {
        let t = &ctx.text[e.range.clone()];
        let canonical = match e.token {
            CallToken::Invalid => t,
            tok => tok.canonical(t).unwrap_or(t),
        };
        if canonical != t {
            // Quotes what was written and the form to write: `PASS` is
            // already upper case, its export form is `Pass`.
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_LOWERCASE,
                    e.range.clone(),
                    format!("write `{t}` as `{canonical}` in export format (§3.11)"),
                ),
            );
        }
        if e.token == CallToken::Dash {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_AUCTION_START,
                    e.range.clone(),
                    "no `-` padding in export format: the auction starts with the dealer (§3.5)",
                ),
            );
        }
    }
    annotations(ctx, &a.entries, out);
    let entries = a.entries.iter().map(|e| {
        (
            entry_span(e),
            !matches!(
                e.token,
                CallToken::Terminator | CallToken::Continuation | CallToken::Dash
            ),
            !e.post().is_empty() || !e.pre().is_empty(),
        )
    });
    layout(ctx, entries, "call", out);
}

fn play(ctx: &GameCtx<'_>, g: &Game, out: &mut Vec<Diagnostic>) {
    let Some(p) = &g.play else { return };
    if p.tag == usize::MAX {
        return;
    }
    let tag = &g.tags[p.tag];
    let seat = tag.value.as_ref().and_then(|v| seat_letter(&v.raw));
    let declarer = g
        .value("Declarer")
        .filter(|d| !d.starts_with('^'))
        .and_then(seat_letter);
    if let (Some(s), Some(d)) = (seat, declarer) {
        if s != lho(d) {
            ctx.push(out, Diagnostic::new(&c::EXPORT_PLAY_START, tag.range.clone(), format!("the play must start with the opening leader `{}` (declarer's left-hand opponent) in export format (§3.6)", lho(d))));
        }
    }
    for e in &p.entries {
        let t = &ctx.text[e.range.clone()];
        if matches!(e.token, CardToken::Card(_)) && t.to_ascii_uppercase() != t {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::EXPORT_LOWERCASE,
                    e.range.clone(),
                    format!(
                        "write `{t}` as `{}` in export format (§3.11)",
                        t.to_ascii_uppercase()
                    ),
                ),
            );
        }
    }
    annotations(ctx, &p.entries, out);
    let entries = p.entries.iter().map(|e| {
        (
            entry_span(e),
            !matches!(e.token, CardToken::Terminator),
            !e.post().is_empty() || !e.pre().is_empty(),
        )
    });
    layout(ctx, entries, "card", out);
}

/// `written` is `[name "raw"]` (without the space if not `space`).
fn is_layout(written: &str, name: &str, raw: &str, space: bool) -> bool {
    let sep: &str = if space { " \"" } else { "\"" };
    written.len() == name.len() + raw.len() + sep.len() + 3
        && written.starts_with('[')
        && written[1..].starts_with(name)
        && written[1 + name.len()..].starts_with(sep)
        && written[1 + name.len() + sep.len()..].starts_with(raw)
        && written.ends_with("\"]")
}

#[cfg(test)]
mod tests {
    use super::{Item, Merge};

    /// Lists in order merge into what a stable sort of them one after the
    /// other gives (an item of an earlier list first among equal ones).
    #[test]
    fn merged_lists_are_in_stable_sort_order() {
        let lists: Vec<Vec<(std::ops::Range<usize>, Item)>> = vec![
            vec![(0..3, Item::Tag), (5..6, Item::Tag), (9..12, Item::Tag)],
            vec![
                (3..4, Item::Comment),
                (5..6, Item::Comment),
                (20..21, Item::Comment),
            ],
            vec![],
            vec![
                (1..2, Item::Token),
                (5..7, Item::Entry),
                (9..12, Item::Suffix),
            ],
        ];
        let merged: Vec<_> = Merge(
            lists
                .iter()
                .map(|l| l.clone().into_iter().peekable())
                .collect(),
        )
        .collect();
        let mut sorted: Vec<_> = lists.concat();
        sorted.sort_by_key(|(r, _)| (r.start, r.end));
        assert!(
            merged == sorted,
            "{:?}",
            merged.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>()
        );
        assert_eq!(merged.len(), 9);
        assert!(matches!(merged[2].1, Item::Comment));
        assert!(matches!(merged[3].1, Item::Tag) && matches!(merged[4].1, Item::Comment));
    }
}
