//! The RBN reader (RBN → PBN): the input split into deals, the labels that
//! repeat, and each deal assembled and written as a PBN game.

use super::makes::read_makes;
use super::read_play::{read_auction, read_contract, read_hands, read_play, write_auction};
use super::read_tags::{
    read_board, read_date, read_names, read_result, read_scoring, read_teams, read_title,
};
use super::{LABELS, REPEATING};
use crate::bridge::Strain;
use crate::codes::Severity;
use crate::convert::{Converted, PbnWriter, ReadDiagnostic};
use std::ops::Range;

/// A label's data and where it starts in the input.
#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) data: String,
    pub(super) start: usize,
}

/// One deal as read: the labels it states (`None`: stated null), its notes,
/// paragraphs and `%` lines.
#[derive(Default)]
struct RawDeal {
    labels: Vec<(u8, Option<Field>)>,
    auction_notes: Vec<(u8, Field)>,
    play_notes: Vec<(u8, Field)>,
    /// Paragraphs, and whether each came before the H label.
    paragraphs: Vec<(bool, String)>,
    escapes: Vec<String>,
    /// Where the deal's first line starts: diagnostics before it belong to
    /// labels repeated from earlier deals, already reported there.
    start: Option<usize>,
}

impl RawDeal {
    fn is_empty(&self) -> bool {
        self.labels.is_empty()
            && self.paragraphs.is_empty()
            && self.auction_notes.is_empty()
            && self.play_notes.is_empty()
    }

    fn stated(&self, label: u8) -> Option<&Option<Field>> {
        self.labels
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, f)| f)
    }
}

pub(super) struct Reader<'a> {
    input: &'a str,
    diagnostics: Vec<ReadDiagnostic>,
}

impl Reader<'_> {
    pub(super) fn diag(
        &mut self,
        severity: Severity,
        range: Range<usize>,
        message: impl Into<String>,
    ) {
        // On whole characters: a range of one byte at a multi-byte
        // character (fuzz fixture `convert/rbn-error-at-a-multi-byte-character`)
        // takes the character.
        let mut end = range.end.min(self.input.len());
        while !self.input.is_char_boundary(end) {
            end += 1;
        }
        let mut start = range.start.min(end);
        while !self.input.is_char_boundary(start) {
            start -= 1;
        }
        self.diagnostics
            .push(ReadDiagnostic::new(severity, start..end, message));
    }
}

/// The lines of `input` with their start offsets, without line ends.
fn lines(input: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in input.split_inclusive('\n') {
        let line = piece.trim_end_matches(['\n', '\r']);
        out.push((start, line));
        start += piece.len();
    }
    out
}

/// Reads RBN and writes PBN (import format).
pub fn to_pbn(input: &str) -> Converted {
    let mut r = Reader {
        input,
        diagnostics: Vec::new(),
    };
    let deals = split_deals(&mut r);
    let mut w = PbnWriter::default();
    let mut repeat: [Option<Field>; 10] = Default::default();
    // The N label of the two previous deals ("General Database Rules":
    // with K not null, N repeats in alternating fashion).
    let (mut n_prev, mut n_prev2): (Option<Field>, Option<Field>) = (None, None);
    for deal in deals {
        for e in &deal.escapes {
            w.line(e);
        }
        if deal.is_empty() {
            continue;
        }
        let mut fields: [Option<Field>; 16] = Default::default();
        for (k, &label) in REPEATING.iter().enumerate() {
            match deal.stated(label) {
                Some(f) => repeat[k] = f.clone(),
                None if label == b'N' && repeat[6].is_some() => {
                    repeat[k] = n_prev2.clone().or_else(|| n_prev.clone())
                }
                None => {}
            }
            fields[k] = repeat[k].clone();
        }
        n_prev2 = n_prev.take();
        n_prev = repeat[7].clone();
        for (k, &label) in LABELS.iter().enumerate().skip(10) {
            fields[k] = deal.stated(label).cloned().flatten();
        }
        let before = r.diagnostics.len();
        write_game(&mut r, &mut w, &deal, &fields);
        let from = deal.start.unwrap_or(0);
        let mut k = 0;
        r.diagnostics.retain(|d| {
            k += 1;
            k <= before || d.range.start >= from
        });
    }
    Converted {
        text: w.out,
        diagnostics: r.diagnostics,
        losses: Vec::new(),
    }
}

/// Splits the input into deals ("File Signature and Limits": an empty line
/// ends a deal; "RBN Labels and Structure": paragraphs).
fn split_deals(r: &mut Reader<'_>) -> Vec<RawDeal> {
    let mut deals = Vec::new();
    let mut cur = RawDeal::default();
    let mut seen_h = false;
    let mut seen_p = false;
    // An open paragraph: its text so far and where it started.
    let mut para: Option<(String, usize)> = None;
    let close = |para: &mut Option<(String, usize)>, cur: &mut RawDeal, seen_h: bool| {
        if let Some((text, _)) = para.take() {
            cur.paragraphs.push((!seen_h, text));
        }
    };
    for (start, line) in lines(r.input) {
        if !line.trim().is_empty() && cur.start.is_none() {
            cur.start = Some(start);
        }
        if line.trim().is_empty() {
            if let Some((_, at)) = &para {
                // "General Database Rules": a paragraph ends at the end of
                // the deal (an empty line), closed or not.
                r.diag(
                    Severity::Info,
                    *at..*at + 1,
                    "paragraph not closed with `}` before the end of the deal (RBN: paragraphs end with `}` at the end of a line)",
                );
            }
            close(&mut para, &mut cur, seen_h);
            deals.push(std::mem::take(&mut cur));
            seen_h = false;
            seen_p = false;
            continue;
        }
        if let Some(rest) = line.strip_prefix('{') {
            close(&mut para, &mut cur, seen_h);
            para = Some((String::new(), start));
            push_para_line(&mut para, &mut cur, seen_h, rest);
            continue;
        }
        if para.is_some() {
            push_para_line(&mut para, &mut cur, seen_h, line);
            continue;
        }
        if line.starts_with('%') {
            // "File Signature and Limits": `% RBN 2.2` and extraneous
            // text; PBN keeps the text as escape lines (§2.4), the
            // signature gives way to PBN's own `% PBN 2.1`.
            if !line.starts_with("% RBN") {
                cur.escapes.push(line.to_string());
            }
            continue;
        }
        let first = line.as_bytes()[0];
        let label = first.to_ascii_uppercase();
        // A label is one ASCII character (`get`: a line may open with a
        // non-ASCII one, which is no label).
        let Some(rest) = line.get(1..).filter(|r| r.is_empty() || r.starts_with(' ')) else {
            r.diag(
                Severity::Error,
                start..start + line.len(),
                "expected a label (T D L E S F K N B H A C P R I M or a note number 1-9) followed by a space, `{` or `%` (RBN: Labels and Structure)",
            );
            continue;
        };
        let data_start = start + 1 + usize::from(!rest.is_empty());
        let data = rest.strip_prefix(' ').unwrap_or(rest);
        if line.len() > 128 && label != b'I' || line.len() > 512 {
            r.diag(
                Severity::Warning,
                start..start + line.len(),
                "line longer than RBN allows (128 characters, 512 for I; RBN: File Signature and Limits)",
            );
        }
        let field = Field {
            data: data.to_string(),
            start: data_start,
        };
        if (b'1'..=b'9').contains(&label) {
            // "RBN Labels and Structure": a note pertains to the auction
            // unless the P label came first.
            if seen_p {
                cur.play_notes.push((label - b'0', field));
            } else {
                cur.auction_notes.push((label - b'0', field));
            }
            continue;
        }
        if !LABELS.contains(&label) {
            r.diag(
                Severity::Error,
                start..start + 1,
                format!("`{}` is not an RBN label: expected one of T D L E S F K N B H A C P R I M or a note number 1-9 (RBN: Labels and Structure)", first as char),
            );
            continue;
        }
        if cur.stated(label).is_some() {
            r.diag(
                Severity::Warning,
                start..start + 1,
                format!(
                    "label {} given twice in one deal; the first is used",
                    label as char
                ),
            );
            continue;
        }
        seen_h |= label == b'H';
        seen_p |= label == b'P';
        let value = (!data.trim().is_empty()).then_some(field);
        cur.labels.push((label, value));
    }
    close(&mut para, &mut cur, seen_h);
    deals.push(cur);
    deals
}

/// Adds one line to the open paragraph; a `}` at the end of the line closes
/// it ("RBN Labels and Structure").
fn push_para_line(para: &mut Option<(String, usize)>, cur: &mut RawDeal, seen_h: bool, line: &str) {
    let Some((text, _)) = para.as_mut() else {
        return;
    };
    if !text.is_empty() {
        text.push('\n');
    }
    let trimmed = line.trim_end();
    if let Some(body) = trimmed.strip_suffix('}') {
        text.push_str(body);
        let (text, _) = para.take().unwrap_or_default();
        cur.paragraphs.push((!seen_h, text));
    } else {
        text.push_str(line);
    }
}

/// Splits TLES-style data at single colons; `::` is a literal colon
/// ("Detailed Explanation of Labels", T).
pub(super) fn split_colons(data: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = data.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' {
            if chars.peek() == Some(&':') {
                chars.next();
                parts.last_mut().unwrap().push(':');
            } else {
                parts.push(String::new());
            }
        } else {
            parts.last_mut().unwrap().push(c);
        }
    }
    parts
}

/// Data of the labels that allow no spaces (DBHACPRM, "General Database
/// Rules"), upper case, spaces removed (with a warning).
pub(super) fn compact(r: &mut Reader<'_>, label: u8, f: &Field) -> String {
    if let Some(i) = f.data.find(' ') {
        r.diag(
            Severity::Warning,
            f.start + i..f.start + i + 1,
            format!(
                "spaces are not allowed in the data of label {} (RBN: General Database Rules); ignored",
                label as char
            ),
        );
    }
    f.data.replace(' ', "").to_ascii_uppercase()
}

/// One PBN game being assembled.
#[derive(Default)]
pub(super) struct GameOut {
    tags: Vec<(&'static str, String)>,
    /// Commentary before the Deal tag, and at the end of the game.
    before: Vec<String>,
    pub(super) after: Vec<String>,
    pub(super) auction: Vec<String>,
    pub(super) play: Vec<String>,
    /// The OptimumResultTable's tag line and rows (from M).
    pub(super) table: Vec<String>,
}

impl GameOut {
    pub(super) fn tag(&mut self, name: &'static str, value: impl Into<String>) {
        self.tags.push((name, value.into()));
    }
    pub(super) fn keep(&mut self, label: u8, data: &str) {
        self.after.push(format!("RBN {} {}", label as char, data));
    }
}

/// Reads a deal's labels into a PBN game and writes it.
fn write_game(r: &mut Reader<'_>, w: &mut PbnWriter, deal: &RawDeal, fields: &[Option<Field>; 16]) {
    let mut g = GameOut::default();
    let get = |l: u8| fields[LABELS.iter().position(|&x| x == l).unwrap_or(0)].as_ref();
    if let Some(f) = get(b'T') {
        read_title(&mut g, f);
    }
    if let Some(f) = get(b'D') {
        read_date(r, &mut g, f);
    }
    if let Some(f) = get(b'L') {
        g.tag("Site", split_colons(&f.data).join(":"));
    }
    if let Some(f) = get(b'E') {
        g.tag("Event", split_colons(&f.data).join(":"));
    }
    if let Some(f) = get(b'S') {
        g.tag("Stage", split_colons(&f.data).join(":"));
    }
    if let Some(f) = get(b'F') {
        read_scoring(r, &mut g, f);
    }
    if let Some(f) = get(b'K') {
        read_teams(r, &mut g, f);
    }
    if let Some(f) = get(b'N') {
        read_names(r, &mut g, f);
    }
    if let Some(f) = get(b'B') {
        read_board(r, &mut g, f);
    }
    let auction = get(b'A').map(|f| read_auction(r, f));
    let dealer = auction.as_ref().and_then(|a| a.dealer);
    let deal_hands = get(b'H').and_then(|f| read_hands(r, &mut g, f, dealer));
    let contract = get(b'C').and_then(|f| read_contract(r, &mut g, f));
    if let Some(a) = &auction {
        write_auction(r, &mut g, a, &deal.auction_notes);
    } else {
        notes_as_comments(&mut g, &deal.auction_notes);
    }
    if let Some(f) = get(b'P') {
        let trump = contract
            .or_else(|| auction.as_ref().and_then(|a| a.final_strain))
            .map(Strain::suit);
        read_play(r, &mut g, f, deal_hands, trump, &deal.play_notes);
    } else {
        notes_as_comments(&mut g, &deal.play_notes);
    }
    if let Some(f) = get(b'R') {
        read_result(r, &mut g, f);
    }
    if let Some(f) = get(b'M') {
        read_makes(r, &mut g, f);
    }
    for l in [b'I'] {
        if let Some(f) = get(l) {
            // "Detailed Explanation of Labels", I: award scales have no
            // PBN tag.
            g.keep(l, &f.data);
            r.diag(
                Severity::Info,
                f.start..f.start + f.data.len(),
                format!(
                    "PBN has no tag for RBN label {}; kept as commentary `{{RBN {} …}}`",
                    l as char, l as char
                ),
            );
        }
    }
    for (before, text) in &deal.paragraphs {
        if *before {
            g.before.push(text.clone());
        } else {
            g.after.push(text.clone());
        }
    }
    // A deal of null labels is still a deal: PBN needs a tag to make a
    // game of it (§3: a game starts with its tags), and Event is the first
    // mandatory one (§3.4), "?" for unknown.
    if !deal.labels.is_empty() && g.tags.is_empty() {
        g.tags.push(("Event", "?".to_string()));
    }
    emit(w, g);
}

/// Writes the game: tags in the order of §3.4 then the others, the
/// auction and play sections, commentary.
fn emit(w: &mut PbnWriter, mut g: GameOut) {
    let order = crate::spec::tags::MANDATORY;
    g.tags
        .sort_by_key(|(n, _)| order.iter().position(|m| m == n).unwrap_or(order.len()));
    let mut before = std::mem::take(&mut g.before);
    for (name, value) in &g.tags {
        if *name == "Deal" {
            for c in before.drain(..) {
                w.comment(&c);
            }
        }
        w.tag(name, value);
    }
    for c in before {
        w.comment(&c);
    }
    for l in g.auction.iter().chain(&g.play).chain(&g.table) {
        w.line(l);
    }
    for c in &g.after {
        w.comment(c);
    }
    w.end_game();
}

/// Keeps notes as commentary `{RBN n …}` when there is no section for them.
pub(super) fn notes_as_comments(g: &mut GameOut, notes: &[(u8, Field)]) {
    for (n, f) in notes {
        g.after.push(format!("RBN {n} {}", f.data));
    }
}
