//! RBN 2.2 ↔ PBN.
//!
//! RBN (Richard Pavlicek's "Rec.Bridge Notation", version 2.2, 2005) keeps a
//! deal as lines `<label> <data>`, labels `T D L E S F K N B H A C P R I M`,
//! notes `1`–`9`, free-text paragraphs `{…}` and `%` lines; a deal ends at an
//! empty line. Section names below ("RBN Labels and Structure", "Detailed
//! Explanation of Labels", "General Database Rules", "File Signature and
//! Limits") are those of the RBN document; `§` numbers are PBN 2.1's.
//!
//! Mapping (RBN label → PBN tags):
//! - `T title:author` → `Description`, `Annotator` (§4.1.3, §4.7.1);
//! - `D yyyymmdd:hhmmss` → `Date` (§3.4.3), `Time` (§4.5.1);
//! - `L` → `Site` (§3.4.2); `E` → `Event` (§3.4.1); `S` → `Stage` (§4.4.6);
//! - `F` → `Scoring` (§3.4.12); `K home:visit` → `HomeTeam`, `VisitTeam`
//!   (§4.4.3, §4.4.8);
//! - `N north+south:west+east:room` → `North` … `West` (§3.4.5), `Room`
//!   (§4.1.7) or `Table` (§4.4.7);
//! - `B board:section` → `Board` (§3.4.4), `Section` (§4.4.5);
//! - `H` → `Deal` (§3.4.11, end positions §3.10) and `Hidden` (§4.1.6);
//! - `A` → `Dealer`, `Vulnerable` (§3.4.9, §3.4.10) and the auction section
//!   (§3.5) with its notes (§3.5.4); `C` → `Contract`, `Declarer`; `P` → the
//!   play section (§3.6); `R` → `Result` (§3.4.15), `Score`, `ScoreIMP`,
//!   `ScorePercentage` (§4.2);
//! - `M` double-dummy makes → `OptimumResultTable` (§5.7); its tricks after
//!   the lead, `I` (awards) and the parts of other labels PBN has no tag for
//!   are kept as commentary `{RBN <label> <data>}` (§3.8), which the writer
//!   turns back into the label.

use super::{read_pbn, short_bid, strain_letter, Converted, Loss, Part, PbnWriter, ReadDiagnostic};
use crate::bridge::strain_text as strain_name;
use crate::bridge::{self, card_text, rotate, Card, Rank, Seat, Strain, Suit};
use crate::codes::Severity;
use crate::model::values::deal::{rank_char, rank_of_char};
use crate::model::values::seat::seat_letter;
use crate::model::values::{self, ContractValue};
use crate::model::{
    typed, AnnotationKind, CallToken, CardToken, CommentKind, Entry, Game, Inherit, TagRole,
};
use std::ops::Range;

/// The ten labels that repeat when a deal does not state them ("RBN
/// Labels and Structure": "The first 10 labels (TDLESFKNBH) repeat
/// automatically if unstated").
const REPEATING: &[u8; 10] = b"TDLESFKNBH";
/// All sixteen labels, in the output order of "General Database Rules".
const LABELS: &[u8; 16] = b"TDLESFKNBHACPRIM";

/// The six notations after a call or card ("Detailed Explanation of
/// Labels", A and P), in PBN's suffix order (§3.5.3).
const NOTATIONS: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

// ---------------------------------------------------------------------------
// Reading RBN
// ---------------------------------------------------------------------------

/// A label's data and where it starts in the input.
#[derive(Clone, Debug)]
struct Field {
    data: String,
    start: usize,
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

struct Reader<'a> {
    input: &'a str,
    diagnostics: Vec<ReadDiagnostic>,
}

impl Reader<'_> {
    fn diag(&mut self, severity: Severity, range: Range<usize>, message: impl Into<String>) {
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
fn split_colons(data: &str) -> Vec<String> {
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
fn compact(r: &mut Reader<'_>, label: u8, f: &Field) -> String {
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
struct GameOut {
    tags: Vec<(&'static str, String)>,
    /// Commentary before the Deal tag, and at the end of the game.
    before: Vec<String>,
    after: Vec<String>,
    auction: Vec<String>,
    play: Vec<String>,
    /// The OptimumResultTable's tag line and rows (from M).
    table: Vec<String>,
}

impl GameOut {
    fn tag(&mut self, name: &'static str, value: impl Into<String>) {
        self.tags.push((name, value.into()));
    }
    fn keep(&mut self, label: u8, data: &str) {
        self.after.push(format!("RBN {} {}", label as char, data));
    }
}

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

/// Double-dummy makes by declarer ([`crate::dd::DECLARERS`] order N, S,
/// E, W) and strain ([`crate::dd::STRAINS`] order NT, S, H, D, C, which is
/// RBN's "sequence NSHDC"); `None` where unknown.
type Makes = [[Option<u8>; 5]; 4];

/// The OptimumResultTable header (§5.7, as `pbn dd` writes it).
const MAKES_HEADER: &str = "Declarer;Denomination\\2R;Result\\2R";

/// The OptimumResultTable rows of known makes, as `[declarer, strain,
/// tricks]` texts.
fn makes_rows(m: &Makes) -> Vec<[String; 3]> {
    let mut rows = Vec::new();
    for (d, seat) in crate::dd::DECLARERS.iter().enumerate() {
        for (k, strain) in crate::dd::STRAINS.iter().enumerate() {
            if let Some(n) = m[d][k] {
                rows.push([
                    seat.letter().to_string(),
                    crate::bridge::strain_text(*strain).to_string(),
                    n.to_string(),
                ]);
            }
        }
    }
    rows
}

/// One seat's makes: up to five of `0`-`9`, `A`-`D` (10-13) or `?`.
fn read_seat_makes(s: &str) -> Result<[Option<u8>; 5], (usize, String)> {
    let mut out = [None; 5];
    for (k, c) in s.chars().enumerate() {
        let made = match c {
            '?' => None,
            _ => match c.to_digit(16) {
                Some(n) if n <= 13 => Some(n as u8),
                _ => {
                    return Err((
                        k,
                        format!("expected a make 0-9, A-D (10-13) or ?, found `{c}`"),
                    ))
                }
            },
        };
        if k >= 5 {
            return Err((k, "expected at most five makes (NSHDC)".into()));
        }
        out[k] = made;
    }
    Ok(out)
}

/// `13 - n` for each known value: West's makes from North's (RBN's `!`).
fn complement(m: [Option<u8>; 5]) -> [Option<u8>; 5] {
    m.map(|v| v.map(|n| 13 - n))
}

/// One side of M: `first+second`, `first=` (the second the same),
/// `first!` (the second the complement of `other_second`), or `first`
/// alone; `first` may be `!` (the complement of `other_first`).
#[allow(clippy::type_complexity)]
fn read_side(
    s: &str,
    other: Option<&[[Option<u8>; 5]; 2]>,
) -> Result<[[Option<u8>; 5]; 2], (usize, String)> {
    let bad = |at: usize, what: &str| (at, what.to_string());
    let (first, rest) = match s.find(['+', '=', '!']) {
        Some(0) if s.starts_with('!') => ("!", &s[1..]),
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let first_at = 0;
    let a =
        if first == "!" {
            match other {
                Some(o) => complement(o[0]),
                None => return Err(bad(
                    0,
                    "`!` (the complement of North's or South's makes) only on the West-East side",
                )),
            }
        } else {
            read_seat_makes(first).map_err(|(k, m)| (first_at + k, m))?
        };
    let at = first.len();
    let b =
        match rest {
            "" => [None; 5],
            "=" => a,
            "!" => match other {
                Some(o) => complement(o[1]),
                None => return Err(bad(
                    at,
                    "`!` (the complement of North's or South's makes) only on the West-East side",
                )),
            },
            _ => match rest.strip_prefix('+') {
                Some(t) => read_seat_makes(t).map_err(|(k, m)| (at + 1 + k, m))?,
                None => {
                    return Err(bad(
                        at,
                        "expected `+`, `=` or `!` between the two seats' makes",
                    ))
                }
            },
        };
    Ok([a, b])
}

/// M `lead:north+south:west+east` ("Detailed Explanation of Labels", M:
/// "a list of double-dummy makes for N-S without specified leads. North's
/// makes are given first, followed by a plus (+) sign, then South's. Makes
/// consist of five numbers, one for each strain in the sequence NSHDC.
/// Unknown makes can be truncated or replaced with a question mark (?) …
/// If South's makes are the same as North … replace the plus sign with an
/// equal sign (=) … a second separator (:) and a similar listing for West
/// (first) then East … if West's makes plus North's makes total 13 in all
/// strains …, this may be shown by a logical Not symbol (!)"). The makes
/// become the OptimumResultTable (§5.7; as `pbn dd` writes it: declarers N, S, E,
/// W by strains NT, S, H, D, C); the tricks after the lead, which PBN has no
/// tag for, stay commentary `{RBN M <tricks>}`.
fn read_makes(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
    let data = compact(r, b'M', f);
    let mut parts = data.splitn(3, ':');
    let lead = parts.next().unwrap_or("");
    let (ns, we) = (parts.next(), parts.next());
    let ns_at = lead.len() + 1;
    let read = ns.map(|ns| {
        let ns_side = read_side(ns, None).map_err(|(k, m)| (ns_at + k, m))?;
        let we_side = match we {
            Some(we) => {
                read_side(we, Some(&ns_side)).map_err(|(k, m)| (ns_at + ns.len() + 1 + k, m))?
            }
            None => [[None; 5]; 2],
        };
        Ok::<_, (usize, String)>((ns_side, we_side))
    });
    let makes: Makes = match read {
        None => {
            // The tricks after the lead only.
            g.keep(b'M', &f.data);
            r.diag(
                Severity::Info,
                f.start..f.start + f.data.len(),
                "PBN has no tag for the tricks after the lead of RBN label M; kept as commentary `{RBN M …}`",
            );
            return;
        }
        Some(Err((at, message))) => {
            r.diag(
                Severity::Error,
                f.start + at..f.start + at + 1,
                format!("{message} in label M (RBN: Detailed Explanation of Labels, M); the label is kept as commentary `{{RBN M …}}`"),
            );
            g.keep(b'M', &f.data);
            return;
        }
        // DECLARERS order: N, S, E, W.
        Some(Ok((ns_side, we_side))) => [ns_side[0], ns_side[1], we_side[1], we_side[0]],
    };
    let rows = makes_rows(&makes);
    if !lead.is_empty() {
        // Before the table: commentary may not follow its rows (§5.1).
        if rows.is_empty() {
            g.keep(b'M', lead);
        } else {
            g.table.push(format!("{{RBN M {lead}}}"));
        }
        r.diag(
            Severity::Info,
            f.start..f.start + lead.len(),
            "PBN has no tag for the tricks after the lead of RBN label M; kept as commentary `{RBN M …}`",
        );
    }
    if !rows.is_empty() {
        g.table
            .push(format!("[OptimumResultTable \"{MAKES_HEADER}\"]"));
        for [d, s, n] in rows {
            g.table.push(format!("{d} {s:>2} {n:>2}"));
        }
    }
}

fn notes_as_comments(g: &mut GameOut, notes: &[(u8, Field)]) {
    for (n, f) in notes {
        g.after.push(format!("RBN {n} {}", f.data));
    }
}

/// T: `title:author` ("Detailed Explanation of Labels", T).
fn read_title(g: &mut GameOut, f: &Field) {
    let parts = split_colons(&f.data);
    if !parts[0].is_empty() {
        g.tag("Description", parts[0].clone());
    }
    if parts.len() > 1 {
        let author = parts[1..].join(":");
        if !author.is_empty() {
            g.tag("Annotator", author);
        }
    }
}

/// D: `yyyymmdd[:hhmmss]`, `?` for unknown digits, truncation, `C` for
/// circa ("Detailed Explanation of Labels", D) → Date (§3.4.3), Time
/// (§4.5.1).
fn read_date(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
    let data = compact(r, b'D', f);
    if let Some(i) = data.find(|c: char| !matches!(c, '0'..='9' | '?' | 'C' | ':')) {
        r.diag(
            Severity::Error,
            f.start + i..f.start + i + 1,
            "expected a date yyyymmdd (digits, `?`, `C` for circa) and an optional `:hhmmss` (RBN: D)",
        );
        g.keep(b'D', &f.data);
        return;
    }
    let (date, time) = match data.split_once(':') {
        Some((d, t)) => (d, Some(t)),
        None => (data.as_str(), None),
    };
    if date.contains('C') {
        r.diag(
            Severity::Info,
            f.start..f.start + f.data.len(),
            "PBN dates have no circa (`C`); the date is kept as commentary `{RBN D …}`",
        );
        g.keep(b'D', &f.data);
    }
    let digits: String = date.chars().filter(|&c| c != 'C').collect();
    if digits.len() > 8 || (digits.len() != 8 && !matches!(digits.len(), 0 | 4 | 6)) {
        r.diag(
            Severity::Error,
            f.start..f.start + date.len(),
            "expected yyyy, yyyymm or yyyymmdd (RBN: D)",
        );
    } else if !digits.is_empty() {
        let part = |a: usize, b: usize| {
            digits
                .get(a..b)
                .map(str::to_string)
                .unwrap_or_else(|| "?".repeat(b - a))
        };
        g.tag(
            "Date",
            format!("{}.{}.{}", part(0, 4), part(4, 6), part(6, 8)),
        );
    }
    match time {
        // "Midnight may be indicated ... at the start of a day as zero."
        Some("0") => g.tag("Time", "00:00:00"),
        Some("24") => {
            // Midnight at the end of the day: PBN hours are 00-23 (§4.5.1).
            r.diag(
                Severity::Info,
                f.start..f.start + f.data.len(),
                "PBN has no hour 24; the time is kept as commentary `{RBN D …}`",
            );
            g.keep(b'D', &f.data);
        }
        Some(t) if t.len() > 6 || t.len() % 2 == 1 || !t.bytes().all(|b| b.is_ascii_digit()) => {
            r.diag(
                Severity::Error,
                f.start + date.len() + 1..f.start + data.len(),
                "expected a time hh, hhmm or hhmmss after `:` (RBN: D)",
            );
        }
        Some(t) => {
            let mut t = t.to_string();
            while t.len() < 6 {
                t.push('0');
            }
            g.tag("Time", format!("{}:{}:{}", &t[0..2], &t[2..4], &t[4..6]));
        }
        None => {}
    }
}

/// The F abbreviations ("Detailed Explanation of Labels", F) and their
/// Scoring values (§3.4.12; T, X and P have no basic PBN name).
const SCORING: [(&str, &str); 10] = [
    ("I", "IMP"),
    ("B", "BAM"),
    ("T", "TotalPoints"),
    ("X", "IMPPairs"),
    ("M", "MP"),
    ("N", "Instant"),
    ("R", "Rubber"),
    ("C", "Chicago"),
    ("A", "Cavendish"),
    ("P", "PlusOrFishfood"),
];

fn read_scoring(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
    let (form, modifier) = match f.data.split_once(':') {
        Some((a, b)) => (a, Some(b)),
        None => (f.data.as_str(), None),
    };
    let value = SCORING
        .iter()
        .find(|(l, _)| *l == form)
        .map_or(form, |(_, v)| v);
    if !value.is_empty() {
        g.tag("Scoring", value);
    }
    if modifier.is_some() {
        r.diag(
            Severity::Info,
            f.start..f.start + f.data.len(),
            "the scoring modifier after `:` has no PBN form; kept as commentary `{RBN F …}`",
        );
        g.keep(b'F', &f.data);
    }
}

/// K: `home:visit`, each optionally with carryovers `+n`/`-n`
/// ("Detailed Explanation of Labels", K).
fn read_teams(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
    let mut carry = false;
    for (k, team) in f.data.splitn(2, ':').enumerate() {
        let mut name = team.trim();
        while let Some((head, last)) = name.rsplit_once(' ') {
            let num = last.strip_prefix(['+', '-']);
            if num.is_some_and(|n| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            }) {
                carry = true;
                name = head.trim_end();
            } else {
                break;
            }
        }
        if !name.is_empty() {
            g.tag(if k == 0 { "HomeTeam" } else { "VisitTeam" }, name);
        }
    }
    if carry {
        r.diag(
            Severity::Info,
            f.start..f.start + f.data.len(),
            "PBN has no tag for carryovers; kept as commentary `{RBN K …}`",
        );
        g.keep(b'K', &f.data);
    }
}

/// N: `north+south:west+east:room` ("Detailed Explanation of Labels", N).
fn read_names(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
    let parts: Vec<&str> = f.data.splitn(3, ':').collect();
    let names = [("North", "South"), ("West", "East")];
    for (k, pair) in parts.iter().take(2).enumerate() {
        let (a, b) = pair.split_once('+').unwrap_or((pair, ""));
        if !a.is_empty() {
            g.tag(names[k].0, a);
        }
        if !b.is_empty() {
            g.tag(names[k].1, b);
        }
    }
    if let Some(room) = parts.get(2) {
        match *room {
            "C" | "c" => g.tag("Room", "Closed"),
            "O" | "o" => g.tag("Room", "Open"),
            t if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => g.tag("Table", t),
            _ => {
                let at = f.start + parts[0].len() + parts[1].len() + 2;
                r.diag(
                    Severity::Error,
                    at..at + room.len(),
                    "expected the room (C = Closed, O = Open) or a table number after the second `:` (RBN: N)",
                );
            }
        }
    }
}

/// B: `board[:other]` ("Detailed Explanation of Labels", B).
fn read_board(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
    let data = compact(r, b'B', f);
    let (board, other) = match data.split_once(':') {
        Some((a, b)) => (a, Some(b)),
        None => (data.as_str(), None),
    };
    if !board.is_empty() {
        g.tag("Board", board);
    }
    match other {
        Some(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphabetic()) => {
            g.tag("Section", s)
        }
        Some(s) if !s.is_empty() => {
            r.diag(
                Severity::Info,
                f.start..f.start + f.data.len(),
                "PBN has no tag for a second board number; kept as commentary `{RBN B …}`",
            );
            g.keep(b'B', &f.data);
        }
        _ => {}
    }
}

/// The cards of one hand, by suit in `Suit::DESC` order.
type HandCards = [Vec<Rank>; 4];

fn count(h: &HandCards) -> usize {
    h.iter().map(Vec::len).sum()
}

/// H: `<seat>` then up to four hands, each after `:` (shown) or `;`
/// (hidden) ("Detailed Explanation of Labels", H). Returns the hands by
/// `Seat as usize` (`None`: not given).
fn read_hands(
    r: &mut Reader<'_>,
    g: &mut GameOut,
    f: &Field,
    dealer: Option<Seat>,
) -> Option<[Option<HandCards>; 4]> {
    let data = compact(r, b'H', f);
    let mut chars = data.char_indices();
    let Some((first, _)) = chars.next().and_then(|(_, c)| seat_letter(c)) else {
        r.diag(
            Severity::Error,
            f.start..f.start + 1,
            "expected the seat of the first hand (N, E, S or W) (RBN: H)",
        );
        return None;
    };
    // (hidden, text, offset in data)
    let mut hands: Vec<(bool, String, usize)> = Vec::new();
    for (i, c) in chars {
        match c {
            ':' | ';' => hands.push((c == ';', String::new(), i + 1)),
            _ => match hands.last_mut() {
                Some(h) => h.1.push(c),
                None => {
                    r.diag(
                        Severity::Error,
                        f.start + i..f.start + i + 1,
                        "expected `:` or `;` before each hand (RBN: H)",
                    );
                    return None;
                }
            },
        }
    }
    if hands.len() > 4 {
        r.diag(
            Severity::Error,
            f.start..f.start + f.data.len(),
            "more than four hands (RBN: H)",
        );
        hands.truncate(4);
    }
    let mut out: [Option<HandCards>; 4] = Default::default();
    let mut hidden = [false; 4];
    let mut used = [[false; 15]; 4];
    for (k, (hide, text, off)) in hands.iter().enumerate() {
        let seat = rotate(first, k);
        hidden[seat as usize] = *hide;
        if text.is_empty() {
            continue;
        }
        let mut cards: HandCards = Default::default();
        let mut suit = 0usize;
        for (i, c) in text.char_indices() {
            let at = f.start + off + i;
            if c == '.' {
                suit += 1;
                if suit > 3 {
                    r.diag(
                        Severity::Error,
                        at..at + 1,
                        "more than four suits in a hand (RBN: H)",
                    );
                    break;
                }
                continue;
            }
            let Some(rank) = rank_of_char(c) else {
                r.diag(
                    Severity::Error,
                    at..at + c.len_utf8(),
                    format!("`{c}` is not a rank: expected A K Q J T 9 … 2 (RBN: H)"),
                );
                continue;
            };
            let s = Suit::DESC[suit];
            if used[s as usize][rank.get() as usize] {
                r.diag(
                    Severity::Error,
                    at..at + 1,
                    format!(
                        "{} is given twice (RBN: H, no card may be used twice)",
                        card_text(Card { suit: s, rank })
                    ),
                );
                continue;
            }
            used[s as usize][rank.get() as usize] = true;
            cards[suit].push(rank);
        }
        if count(&cards) > 13 {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + text.len(),
                "more than 13 cards in a hand (RBN: H)",
            );
        }
        for s in &mut cards {
            s.sort_by(|a, b| b.cmp(a));
        }
        out[seat as usize] = Some(cards);
    }
    // "Three full hands followed by a colon means fourth hand gets the
    // rest."
    if hands.len() == 4 && hands[3].1.is_empty() {
        let full = (0..3).all(|k| {
            out[rotate(first, k) as usize]
                .as_ref()
                .is_some_and(|h| count(h) == 13)
        });
        if full {
            let mut rest: HandCards = Default::default();
            for (k, s) in Suit::DESC.iter().enumerate() {
                for n in (2..=14u8).rev() {
                    if !used[*s as usize][n as usize] {
                        rest[k].push(Rank::new(n));
                    }
                }
            }
            out[rotate(first, 3) as usize] = Some(rest);
        }
    }
    if out.iter().all(Option::is_none) {
        return Some(out);
    }
    let start = dealer.unwrap_or(first);
    let mut deal = format!("{}:", start.letter());
    for k in 0..4 {
        if k > 0 {
            deal.push(' ');
        }
        match &out[rotate(start, k) as usize] {
            None => deal.push('-'),
            Some(h) => deal.push_str(&hand_text(h)),
        }
    }
    g.tag("Deal", deal);
    let hidden: String = Seat::ALL
        .iter()
        .filter(|s| hidden[**s as usize])
        .map(|s| s.letter())
        .collect();
    if !hidden.is_empty() {
        g.tag("Hidden", hidden);
    }
    Some(out)
}

fn hand_text(h: &HandCards) -> String {
    h.iter()
        .map(|s| s.iter().map(|&r| rank_char(r)).collect::<String>())
        .collect::<Vec<_>>()
        .join(".")
}

/// A call or card with its RBN notations.
#[derive(Clone, Debug, Default)]
struct Marked {
    text: String,
    suffix: Option<&'static str>,
    notes: Vec<u8>,
    conventional: bool,
}

impl Marked {
    /// The PBN token with its suffix, note references (§3.5.3, §3.5.4) and
    /// `{conventional}` for RBN's `*`.
    fn pbn(&self) -> String {
        let mut s = self.text.clone();
        if let Some(x) = self.suffix {
            s.push_str(x);
        }
        for n in &self.notes {
            s.push_str(&format!(" ={n}="));
        }
        if self.conventional {
            s.push_str(" {conventional}");
        }
        s
    }
}

/// Reads notations after a call or card at `chars[*i..]` ("Detailed
/// Explanation of Labels", A and P).
fn read_notations(
    r: &mut Reader<'_>,
    chars: &[(usize, char)],
    i: &mut usize,
    base: usize,
    m: &mut Marked,
) {
    while let Some(&(off, c)) = chars.get(*i) {
        match c {
            '!' | '?' => {
                let mut s = String::from(c);
                if let Some(&(_, c2)) = chars.get(*i + 1) {
                    if matches!(c2, '!' | '?') {
                        s.push(c2);
                        *i += 1;
                    }
                }
                *i += 1;
                m.suffix = NOTATIONS.iter().copied().find(|n| *n == s);
                if m.suffix.is_none() {
                    r.diag(
                        Severity::Error,
                        base + off..base + off + 2,
                        "expected one of ! ? !! ?? !? ?!",
                    );
                }
            }
            '*' => {
                m.conventional = true;
                *i += 1;
            }
            '^' => match chars.get(*i + 1) {
                Some(&(_, d)) if ('1'..='9').contains(&d) => {
                    m.notes.push(d as u8 - b'0');
                    *i += 2;
                }
                _ => {
                    r.diag(
                        Severity::Error,
                        base + off..base + off + 1,
                        "expected a note number 1-9 after `^`",
                    );
                    *i += 1;
                }
            },
            _ => return,
        }
    }
}

struct AuctionRead {
    dealer: Option<Seat>,
    vulnerable: Option<&'static str>,
    calls: Vec<Marked>,
    /// Ends with `Y` (your call?).
    query: bool,
    complete: bool,
    final_strain: Option<Strain>,
    start: usize,
}

/// A: `<dealer><vul>:<calls>` ("Detailed Explanation of Labels", A).
fn read_auction(r: &mut Reader<'_>, f: &Field) -> AuctionRead {
    let data = compact(r, b'A', f);
    let chars: Vec<(usize, char)> = data.char_indices().collect();
    let mut a = AuctionRead {
        dealer: None,
        vulnerable: None,
        calls: Vec::new(),
        query: false,
        complete: false,
        final_strain: None,
        start: f.start,
    };
    // The header before the first `:`: dealer and vulnerability.
    let header = chars
        .iter()
        .position(|&(_, c)| c == ':')
        .unwrap_or(chars.len());
    match chars.first().and_then(|&(_, c)| seat_letter(c)) {
        Some((s, _)) => a.dealer = Some(s),
        None => r.diag(
            Severity::Error,
            f.start..f.start + 1,
            "expected the dealer (N, E, S or W) (RBN: A)",
        ),
    }
    if header > 1 {
        let (off, c) = chars[1];
        a.vulnerable = match c {
            'Z' => Some("None"),
            'N' => Some("NS"),
            'E' => Some("EW"),
            'B' => Some("All"),
            _ => {
                r.diag(
                    Severity::Error,
                    f.start + off..f.start + off + c.len_utf8(),
                    "expected the vulnerability (Z none, N, E, B both) after the dealer (RBN: A)",
                );
                None
            }
        };
    }
    if header > 2 {
        r.diag(
            Severity::Error,
            f.start + chars[2].0..f.start + chars[header - 1].0 + 1,
            "expected `:` before the calls (RBN: A)",
        );
    }
    let mut i = header;
    let (mut passes, mut bid) = (0, false);
    while let Some(&(off, c)) = chars.get(i) {
        i += 1;
        if c == ':' {
            continue;
        }
        if a.complete || a.query {
            r.diag(
                Severity::Error,
                f.start + off..f.start + data.len(),
                "calls after the end of the auction (RBN: A)",
            );
            break;
        }
        let text = match c {
            '1'..='7' => {
                let strain = chars.get(i).and_then(|&(_, s)| match s {
                    'C' => Some((Strain::Clubs, "C")),
                    'D' => Some((Strain::Diamonds, "D")),
                    'H' => Some((Strain::Hearts, "H")),
                    'S' => Some((Strain::Spades, "S")),
                    'N' => Some((Strain::Notrump, "NT")),
                    _ => None,
                });
                let Some((strain, name)) = strain else {
                    r.diag(
                        Severity::Error,
                        f.start + off..f.start + off + 2,
                        "expected a strain (C D H S N) after the level (RBN: A)",
                    );
                    continue;
                };
                i += 1;
                a.final_strain = Some(strain);
                bid = true;
                passes = 0;
                format!("{c}{name}")
            }
            'P' => {
                passes += 1;
                "Pass".to_string()
            }
            'X' => {
                passes = 0;
                "X".to_string()
            }
            'R' => {
                passes = 0;
                "XX".to_string()
            }
            'A' => {
                a.complete = true;
                "AP".to_string()
            }
            'Y' => {
                a.query = true;
                continue;
            }
            _ => {
                r.diag(
                    Severity::Error,
                    f.start + off..f.start + off + c.len_utf8(),
                    format!("`{c}` is not a call: expected P X R A Y or a bid such as 1C or 3N (RBN: A)"),
                );
                continue;
            }
        };
        let mut m = Marked {
            text,
            ..Marked::default()
        };
        read_notations(r, &chars, &mut i, f.start, &mut m);
        a.calls.push(m);
        if (bid && passes == 3) || passes == 4 {
            a.complete = true;
        }
    }
    a
}

fn write_notes(g: &mut GameOut, lines_out: bool, notes: &[(u8, Field)], play: bool) {
    for (n, f) in notes {
        let line = format!("[Note \"{n}:{}\"]", crate::model::escape(&f.data));
        if lines_out {
            if play {
                g.play.push(line);
            } else {
                g.auction.push(line);
            }
        }
    }
}

fn write_auction(r: &mut Reader<'_>, g: &mut GameOut, a: &AuctionRead, notes: &[(u8, Field)]) {
    if let Some(d) = a.dealer {
        g.tag("Dealer", d.letter().to_string());
    }
    if let Some(v) = a.vulnerable {
        g.tag("Vulnerable", v);
    }
    let Some(dealer) = a.dealer else {
        notes_as_comments(g, notes);
        return;
    };
    if a.calls.is_empty() && !a.query {
        notes_as_comments(g, notes);
        return;
    }
    g.auction.push(format!("[Auction \"{}\"]", dealer.letter()));
    let mut tokens: Vec<String> = a.calls.iter().map(Marked::pbn).collect();
    if a.query {
        // "Y" (your call?) → `+`: the next call is to come (§3.5).
        tokens.push("+".into());
    } else if !a.complete {
        // An incomplete auction ("just stop writing") → `*` (§3.5).
        tokens.push("*".into());
    }
    for row in tokens.chunks(4) {
        g.auction.push(row.join(" "));
    }
    for (n, f) in notes {
        if !a.calls.iter().any(|c| c.notes.contains(n)) {
            r.diag(
                Severity::Warning,
                f.start.saturating_sub(2)..f.start,
                format!("note {n} is not referenced by any `^{n}` in the auction"),
            );
        }
    }
    write_notes(g, true, notes, false);
    let _ = a.start;
}

/// C: `<contract>:<declarer>[goal]` or `P` ("Detailed Explanation of
/// Labels", C). Returns the strain.
fn read_contract(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) -> Option<Strain> {
    let data = compact(r, b'C', f);
    if data == "P" {
        g.tag("Contract", "Pass");
        g.tag("Declarer", "");
        return None;
    }
    let (c, d) = data.split_once(':').unwrap_or((&data, ""));
    let b = c.as_bytes();
    let (level, rest) = match b.first() {
        Some(l @ b'1'..=b'7') => (Some(l - b'0'), &c[1..]),
        _ => (None, c),
    };
    let rb = rest.as_bytes();
    let strain = match rb.first() {
        Some(b'C') => Strain::Clubs,
        Some(b'D') => Strain::Diamonds,
        Some(b'H') => Strain::Hearts,
        Some(b'S') => Strain::Spades,
        Some(b'N') => Strain::Notrump,
        _ => {
            r.diag(
                Severity::Error,
                f.start..f.start + c.len().max(1),
                "expected a contract such as 4S, 3NX, 6HR, a strain for an end position, or P (RBN: C)",
            );
            return None;
        }
    };
    let risk = match &rest[1..] {
        "" => "",
        "X" => "X",
        "R" | "XX" => "XX",
        other => {
            r.diag(
                Severity::Error,
                f.start + c.len() - other.len()..f.start + c.len(),
                "expected X (doubled) or R (redoubled) after the strain (RBN: C)",
            );
            ""
        }
    };
    let name = strain_name(strain);
    match level {
        Some(l) => g.tag("Contract", format!("{l}{name}{risk}")),
        // An end position: only the strain (§3.10).
        None => g.tag("Contract", name),
    }
    let mut dc = d.chars();
    match dc.next().and_then(seat_letter) {
        Some((s, _)) => g.tag("Declarer", s.letter().to_string()),
        None if d.is_empty() => {}
        None => r.diag(
            Severity::Error,
            f.start + c.len() + 1..f.start + data.len(),
            "expected the declarer (N, E, S or W) after `:` (RBN: C)",
        ),
    }
    if dc.next().is_some() {
        r.diag(
            Severity::Info,
            f.start..f.start + f.data.len(),
            "PBN has no tag for the goal after the declarer; kept as commentary `{RBN C …}`",
        );
        g.keep(b'C', &f.data);
    }
    Some(strain)
}

/// P: `<leader>:<trick>:<trick>…` ("Detailed Explanation of Labels", P),
/// written as PBN's column layout (§3.6): every row in the order of the
/// seats from the opening leader.
fn read_play(
    r: &mut Reader<'_>,
    g: &mut GameOut,
    f: &Field,
    hands: Option<[Option<HandCards>; 4]>,
    trump: Option<Option<Suit>>,
    notes: &[(u8, Field)],
) {
    let data = compact(r, b'P', f);
    let chars: Vec<(usize, char)> = data.char_indices().collect();
    let Some((leader, _)) = chars.first().and_then(|&(_, c)| seat_letter(c)) else {
        r.diag(
            Severity::Error,
            f.start..f.start + 1,
            "expected the opening leader (N, E, S or W) (RBN: P)",
        );
        notes_as_comments(g, notes);
        return;
    };
    let mut remaining = hands;
    // Each trick: the cards by seat.
    let mut tricks: Vec<[Option<Marked>; 4]> = Vec::new();
    let mut trick_leader = leader;
    let mut query = false;
    let mut stopped = false;
    let mut played: Vec<(Seat, Card)> = Vec::new();
    let mut i = 1;
    while i < chars.len() && !stopped {
        let (off, c) = chars[i];
        if c == ':' {
            if let Some(last) = tricks.last() {
                if last.iter().any(Option::is_none) {
                    r.diag(
                        Severity::Error,
                        f.start + off..f.start + off + 1,
                        "a trick has fewer than four cards (RBN: P)",
                    );
                    stopped = true;
                    continue;
                }
            }
            // The previous trick's winner leads.
            if !played.is_empty() {
                match trick_winner(&played, trump) {
                    Some(w) => trick_leader = w,
                    None => {
                        r.diag(
                            Severity::Error,
                            f.start + off..f.start + data.len(),
                            "the leader of this trick is unknown: the trump (C or A label) is needed to find who won the previous trick (RBN: P)",
                        );
                        stopped = true;
                        continue;
                    }
                }
                played.clear();
            }
            tricks.push(Default::default());
            i += 1;
            continue;
        }
        if tricks.is_empty() {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + 1,
                "expected `:` after the opening leader (RBN: P)",
            );
            tricks.push(Default::default());
        }
        if c == 'Y' {
            query = true;
            if i + 1 < chars.len() {
                r.diag(
                    Severity::Error,
                    f.start + chars[i + 1].0..f.start + data.len(),
                    "no plays may follow `Y` (RBN: P)",
                );
            }
            break;
        }
        let seat = rotate(trick_leader, played.len());
        if played.len() == 4 {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + 1,
                "a trick has more than four cards (RBN: P)",
            );
            stopped = true;
            continue;
        }
        let given_suit = match c {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        };
        if given_suit.is_some() {
            i += 1;
        }
        let Some(suit) = given_suit.or_else(|| played.first().map(|(_, c)| c.suit)) else {
            r.diag(
                Severity::Error,
                f.start + off..f.start + off + 1,
                "expected the suit of the card led (S H D C) (RBN: P)",
            );
            stopped = true;
            continue;
        };
        let Some(&(roff, rc)) = chars.get(i) else {
            r.diag(
                Severity::Error,
                f.start + off..f.start + data.len(),
                "expected a rank after the suit (RBN: P)",
            );
            break;
        };
        i += 1;
        let hand = remaining.as_ref().and_then(|h| h[seat as usize].as_ref());
        let rank = match rc {
            '-' | '+' => {
                // "-" lowest, "+" highest card of the suit in the hand.
                let ranks = hand.map(|h| &h[suit_index(suit)]);
                match ranks.and_then(|v| if rc == '-' { v.last() } else { v.first() }) {
                    Some(&r) => Some(r),
                    None => {
                        r.diag(
                            Severity::Error,
                            f.start + roff..f.start + roff + 1,
                            format!(
                                "`{rc}` needs {}'s hand to hold a {} (RBN: P)",
                                bridge::seat_name(seat),
                                suit_word(suit)
                            ),
                        );
                        None
                    }
                }
            }
            _ => {
                let rank = rank_of_char(rc);
                if rank.is_none() {
                    r.diag(
                        Severity::Error,
                        f.start + roff..f.start + roff + rc.len_utf8(),
                        format!(
                            "`{rc}` is not a rank: expected A K Q J T 9 … 2, `-` or `+` (RBN: P)"
                        ),
                    );
                }
                rank
            }
        };
        let Some(rank) = rank else {
            stopped = true;
            continue;
        };
        let card = Card { suit, rank };
        if let Some(h) = remaining.as_mut().and_then(|h| h[seat as usize].as_mut()) {
            let v = &mut h[suit_index(suit)];
            match v.iter().position(|&x| x == rank) {
                Some(p) => {
                    v.remove(p);
                }
                None => r.diag(
                    Severity::Warning,
                    f.start + off..f.start + roff + 1,
                    format!(
                        "{} does not hold {}",
                        bridge::seat_name(seat),
                        card_text(card)
                    ),
                ),
            }
        }
        let mut m = Marked {
            text: card_text(card),
            ..Marked::default()
        };
        read_notations(r, &chars, &mut i, f.start, &mut m);
        played.push((seat, card));
        if let Some(t) = tricks.last_mut() {
            t[seat as usize] = Some(m);
        }
    }
    g.play.push(format!("[Play \"{}\"]", leader.letter()));
    let all_played = remaining
        .as_ref()
        .is_some_and(|h| h.iter().flatten().all(|h| count(h) == 0));
    let complete = !stopped
        && tricks.last().is_some_and(|t| t.iter().all(Option::is_some))
        && (tricks.len() == 13 || all_played);
    let next = rotate(trick_leader, played.len() % 4);
    let new_trick = played.len() == 4 || tricks.is_empty();
    if query && new_trick {
        tricks.push(Default::default());
    }
    let n = tricks.len();
    for (k, t) in tricks.iter().enumerate() {
        let row: Vec<String> = (0..4)
            .map(|c| {
                let seat = rotate(leader, c);
                match &t[seat as usize] {
                    Some(m) => m.pbn(),
                    None if query
                        && k + 1 == n
                        && seat == next_or(new_trick, played.len(), trick_leader, next) =>
                    {
                        "+".into()
                    }
                    None => "-".into(),
                }
            })
            .collect();
        g.play.push(row.join(" "));
    }
    if !complete && !query {
        g.play.push("*".into());
    }
    write_notes(g, true, notes, true);
}

/// The seat the `+` of a `Y` goes to.
fn next_or(new_trick: bool, played: usize, leader: Seat, next: Seat) -> Seat {
    if new_trick && played == 4 {
        // A new trick after a full one: its leader is not known here, the
        // caller placed the `Y` at the last leader's winner; fall back.
        next
    } else {
        let _ = leader;
        next
    }
}

fn suit_index(s: Suit) -> usize {
    Suit::DESC.iter().position(|&x| x == s).unwrap_or(0)
}

fn suit_word(s: Suit) -> &'static str {
    match s {
        Suit::Spades => "spade",
        Suit::Hearts => "heart",
        Suit::Diamonds => "diamond",
        Suit::Clubs => "club",
    }
}

/// The winner of a full trick (cards in play order); `None` when the trump
/// is unknown.
fn trick_winner(cards: &[(Seat, Card)], trump: Option<Option<Suit>>) -> Option<Seat> {
    let trump = trump?;
    let led = cards.first()?.1.suit;
    let key = |c: &Card| {
        let t = Some(c.suit) == trump;
        (t, c.suit == led, c.rank)
    };
    cards
        .iter()
        .filter(|(_, c)| Some(c.suit) == trump || c.suit == led)
        .max_by_key(|(_, c)| key(c))
        .map(|(s, _)| *s)
}

/// R: `<tricks>[±score][:effective]` ("Detailed Explanation of Labels", R).
fn read_result(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
    let data = compact(r, b'R', f);
    let (main, eff) = match data.split_once(':') {
        Some((a, b)) => (a, Some(b)),
        None => (data.as_str(), None),
    };
    let split = main.find(['+', '-']).unwrap_or(main.len());
    let (tricks, score) = main.split_at(split);
    let bad = |r: &mut Reader<'_>, msg: &str| {
        r.diag(
            Severity::Error,
            f.start..f.start + f.data.len(),
            format!("{msg} (RBN: R)"),
        );
    };
    match tricks {
        "" | "P" => {}
        t => match t.parse::<u8>() {
            Ok(n) if n <= 13 => g.tag("Result", n.to_string()),
            _ => bad(
                r,
                "expected the number of tricks won by declarer (0-13) or P",
            ),
        },
    }
    if !score.is_empty() {
        match score.parse::<i64>() {
            Ok(n) => g.tag("Score", format!("NS {n}")),
            Err(_) => bad(
                r,
                "expected the raw score after the tricks, e.g. +620 or -300",
            ),
        }
    }
    match eff {
        None | Some("") => {}
        Some("=") => g.tag("ScoreIMP", "NS 0"),
        Some(e) => {
            let signed = e.starts_with(['+', '-']);
            match e.parse::<f64>() {
                Ok(v) if signed => g.tag("ScoreIMP", format!("NS {}", number(v))),
                Ok(v) => g.tag("ScorePercentage", format!("NS {}", number(v))),
                Err(_) => bad(
                    r,
                    "expected `=`, a signed number of IMPs or a percentage after `:`",
                ),
            }
        }
    }
}

/// A number as PBN writes it: no fraction when whole, else two places at
/// most.
fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').to_string()
    }
}

// ---------------------------------------------------------------------------
// Writing RBN
// ---------------------------------------------------------------------------

/// Tags the writer carries (the mapping of the module documentation).
const CARRIED: &[&str] = &[
    "Description",
    "Annotator",
    "Date",
    "Time",
    "Site",
    "Event",
    "Stage",
    "Scoring",
    "HomeTeam",
    "VisitTeam",
    "North",
    "South",
    "West",
    "East",
    "Room",
    "Table",
    "Board",
    "Section",
    "Deal",
    "Hidden",
    "Dealer",
    "Vulnerable",
    "Contract",
    "Declarer",
    "Result",
    "Score",
    "ScoreIMP",
    "ScorePercentage",
    "OptimumResultTable",
];

/// Reads PBN and writes RBN.
pub fn from_pbn(pbn: &str) -> Converted {
    from_pbn_games(pbn, 0..usize::MAX)
}

/// [`from_pbn`] of the games (0-based indices) in `games` only: earlier
/// games are read for the values they pass on with `#`/`##` (§4.8).
pub fn from_pbn_games(pbn: &str, games: std::ops::Range<usize>) -> Converted {
    let doc = read_pbn(pbn);
    let mut out = String::from("% RBN 2.2\n");
    let mut losses = Vec::new();
    for g in doc.games.iter().filter(|g| games.contains(&g.index)) {
        let mut wr = GameWriter {
            text: pbn,
            game: g,
            losses: Vec::new(),
            labels: Default::default(),
            auction_notes: Vec::new(),
            play_notes: Vec::new(),
            makes: None,
        };
        wr.write();
        out.push_str(&wr.finish());
        losses.extend(wr.losses);
    }
    Converted {
        text: out,
        diagnostics: Vec::new(),
        losses,
    }
}

struct GameWriter<'a> {
    text: &'a str,
    game: &'a Game,
    losses: Vec<Loss>,
    /// Data of each label (`LABELS` order).
    labels: [Option<String>; 16],
    /// Note lines after the A and P labels.
    auction_notes: Vec<String>,
    play_notes: Vec<String>,
    /// The double-dummy makes of M (`:north+south:west+east`), from the
    /// OptimumResultTable; the tricks after the lead come before them.
    makes: Option<String>,
}

/// One seat's makes in M: hex digits, `?` for unknown, trailing unknowns
/// truncated ("Unknown makes can be truncated or replaced with a question
/// mark").
fn seat_makes(m: &[Option<u8>; 5]) -> String {
    let s: String = m
        .iter()
        .map(|v| v.map_or('?', |n| char::from_digit(u32::from(n), 16).unwrap_or('?')))
        .collect::<String>()
        .to_ascii_uppercase();
    s.trim_end_matches('?').to_string()
}

/// M's makes from a table (the inverse of [`read_side`]): `:N+S:W+E`
/// with `=` and `!` where they apply; `None` when nothing is known.
fn write_makes_data(m: &Makes) -> Option<String> {
    let known = |a: &[Option<u8>; 5]| a.iter().any(Option::is_some);
    let [n, s, e, w] = m;
    let ns = if known(n) && n == s {
        format!("{}=", seat_makes(n))
    } else if known(s) {
        format!("{}+{}", seat_makes(n), seat_makes(s))
    } else {
        seat_makes(n)
    };
    let west = if known(w) && *w == complement(*n) {
        "!".to_string()
    } else {
        seat_makes(w)
    };
    let we = if known(w) && e == w {
        format!("{west}=")
    } else if known(e) && *e == complement(*s) {
        format!("{west}!")
    } else if known(e) {
        format!("{west}+{}", seat_makes(e))
    } else {
        west
    };
    match (known(n) || known(s), known(w) || known(e)) {
        (false, false) => None,
        (_, false) => Some(format!(":{ns}")),
        _ => Some(format!(":{ns}:{we}")),
    }
}

/// TLES data: colons doubled ("Detailed Explanation of Labels", T).
fn escape_colons(s: &str) -> String {
    s.replace(':', "::")
}

impl GameWriter<'_> {
    fn lose(&mut self, part: Part, what: impl Into<String>) {
        self.lose_parts(vec![part], what);
    }

    fn lose_parts(&mut self, parts: Vec<Part>, what: impl Into<String>) {
        self.losses.push(Loss {
            game: self.game.index,
            parts,
            what: what.into(),
        });
    }

    fn set(&mut self, label: u8, data: String) {
        if let Some(k) = LABELS.iter().position(|&l| l == label) {
            self.labels[k] = Some(data);
        }
    }

    /// The game's own value of a tag (values received through `##` are not
    /// part of the game's dump, §4.8).
    fn value(&self, name: &str) -> Option<&str> {
        self.game.value(name).filter(|v| *v != "?" && !v.is_empty())
    }

    /// Losses for carried tags whose value cannot be read: RBN's labels hold
    /// only readable data.
    fn unreadable(&mut self, ty: &typed::TypedGame) {
        for (name, read) in [
            ("Dealer", ty.dealer.is_some()),
            ("Vulnerable", ty.vulnerable.is_some()),
            ("Deal", ty.deal.is_some()),
            ("Declarer", ty.declarer.is_some()),
            ("Contract", ty.contract.is_some()),
            ("Result", ty.result.is_some()),
            ("Score", ty.score.is_some()),
        ] {
            if self.value(name).is_some() && !read {
                self.lose(Part::tag(name), format!("the {name} (unreadable)"));
            }
        }
        for (name, ok) in [
            (
                "ScoreIMP",
                self.value("ScoreIMP")
                    .map(|v| values::parse_score_imp(v).value.is_some()),
            ),
            (
                "ScorePercentage",
                self.value("ScorePercentage")
                    .map(|v| values::parse_score_percentage(v).value.is_some()),
            ),
        ] {
            if ok == Some(false) {
                self.lose(Part::tag(name), format!("the {name} (unreadable)"));
            }
        }
    }

    fn write(&mut self) {
        let g = self.game;
        for t in &g.tags {
            if t.inherit == Inherit::Previous
                && crate::spec::tags::NO_INHERIT.contains(&t.name.as_str())
            {
                // §4.8 forbids `#` here: the game has no value, but RBN's
                // repeated label gives it the previous one.
                self.lose(
                    Part::tag(&t.name),
                    format!(
                        "the forbidden `#` of tag {} (§4.8; RBN repeats the value)",
                        t.name
                    ),
                );
            } else if t.inherit != Inherit::None {
                self.lose(
                    Part::Inheritance(t.name.to_string()),
                    format!(
                        "the `#`/`##` inheritance of tag {} (RBN repeats labels instead)",
                        t.name
                    ),
                );
            }
            if t.effective() == Some("")
                && CARRIED.contains(&t.name.as_str())
                && !(matches!(t.name.as_str(), "Declarer" | "Result")
                    && crate::model::contract_is_pass(g))
            {
                self.lose(
                    Part::tag(&t.name),
                    format!(
                        "the empty value of tag {} (an RBN null label is an absent value)",
                        t.name
                    ),
                );
            }
            if matches!(t.role, TagRole::Plain | TagRole::Section)
                && !CARRIED.contains(&t.name.as_str())
                && t.effective().is_some_and(|v| v != "?")
            {
                self.lose(Part::tag(&t.name), format!("tag {} (no RBN label)", t.name));
            }
        }
        for s in &g.sections {
            if let Some(t) = g.tags.get(s.tag) {
                if CARRIED.contains(&t.name.as_str())
                    && t.name != "OptimumResultTable"
                    && !s.elements.is_empty()
                {
                    self.lose(
                        Part::Section(t.name.to_string()),
                        format!("the section data of tag {}", t.name),
                    );
                }
            }
        }
        for i in &g.inherited {
            if !CARRIED.contains(&i.name.as_str()) && i.value != "?" && g.tag(&i.name).is_none() {
                self.lose(Part::tag(&i.name), format!("tag {} (no RBN label)", i.name));
            }
        }
        let ty = typed::typed(self.text, g);
        self.unreadable(&ty);
        if g.syntax_error {
            self.lose(
                Part::SyntaxErrors,
                "the syntax errors (the game is written as far as it could be read)",
            );
        }
        // T
        let title = self.value("Description").map(escape_colons);
        let author = self.value("Annotator").map(escape_colons);
        match (title, author) {
            (None, None) => {}
            (t, None) => self.set(b'T', t.unwrap_or_default()),
            (t, Some(a)) => self.set(b'T', format!("{}:{a}", t.unwrap_or_default())),
        }
        self.write_date();
        for (label, tag) in [(b'L', "Site"), (b'E', "Event"), (b'S', "Stage")] {
            if let Some(v) = self.value(tag) {
                let v = escape_colons(v);
                self.set(label, v);
            }
        }
        if let Some(v) = self.value("Scoring") {
            let f = SCORING
                .iter()
                .find(|(_, name)| *name == v)
                .map_or(v.to_string(), |(l, _)| l.to_string());
            if f.contains(':') {
                self.lose(Part::tag("Scoring"), "the Scoring value (it contains `:`)");
            } else {
                self.set(b'F', f);
            }
        }
        self.write_teams();
        self.write_names();
        self.write_board();
        self.write_deal(&ty);
        self.write_auction(&ty);
        self.write_contract(&ty);
        self.write_play(&ty);
        self.write_result(&ty);
        self.write_makes();
    }

    /// M's makes from the OptimumResultTable (§5.7; [`read_makes`]).
    fn write_makes(&mut self) {
        let g = self.game;
        let Some(ti) = g.tags.iter().position(|t| t.name == "OptimumResultTable") else {
            return;
        };
        let Some(header) = g.tags[ti]
            .effective()
            .filter(|v| !v.is_empty() && *v != "?")
        else {
            return;
        };
        let elements = g
            .sections
            .iter()
            .find(|s| s.tag == ti)
            .map_or(&[][..], |s| &s.elements[..]);
        let cols = values::parse_columns(header).value.unwrap_or_default();
        let find = |n: &str| cols.iter().position(|c| c.name.eq_ignore_ascii_case(n));
        let (Some(di), Some(ni), Some(ri)) =
            (find("Declarer"), find("Denomination"), find("Result"))
        else {
            self.lose(
                Part::tag("OptimumResultTable"),
                "the OptimumResultTable (no Declarer, Denomination or Result column)",
            );
            return;
        };
        let mut makes: Makes = [[None; 5]; 4];
        let mut exact = header == MAKES_HEADER && elements.len() % cols.len() == 0;
        for row in elements.chunks_exact(cols.len()) {
            let t = row[di].text.as_str();
            let seat = (t.len() == 1)
                .then(|| t.chars().next())
                .flatten()
                .and_then(seat_letter)
                .map(|(s, _)| s);
            let d = seat.and_then(|s| crate::dd::DECLARERS.iter().position(|x| *x == s));
            let k = values::parse_denomination(row[ni].text.as_str())
                .value
                .and_then(|s| crate::dd::STRAINS.iter().position(|x| *x == s));
            let n = row[ri]
                .text
                .as_str()
                .parse::<u8>()
                .ok()
                .filter(|n| *n <= 13);
            match (d, k, n) {
                (Some(d), Some(k), Some(n)) if makes[d][k].is_none() => makes[d][k] = Some(n),
                _ => exact = false,
            }
        }
        let rows = makes_rows(&makes);
        exact &= rows.len() * 3 == elements.len()
            && rows
                .iter()
                .flatten()
                .zip(elements)
                .all(|(a, b)| *a == b.text.as_str());
        if !exact {
            self.lose(
                Part::tag("OptimumResultTable"),
                "the OptimumResultTable's layout or unreadable rows (RBN's M holds the tricks \
                 of each declarer and strain; they read back as `pbn dd` writes them)",
            );
        }
        self.makes = write_makes_data(&makes);
    }

    fn write_date(&mut self) {
        let mut d = String::new();
        if let Some(v) = self.value("Date") {
            let parts: Vec<&str> = v.split('.').collect();
            let ok = parts.len() == 3
                && [4, 2, 2].iter().zip(&parts).all(|(n, p)| {
                    p.len() == *n && p.bytes().all(|b| b.is_ascii_digit() || b == b'?')
                });
            if ok {
                d = parts.concat();
                // "mmdd or dd may be truncated" when unknown.
                while d.ends_with("??") && d.len() > 4 {
                    d.truncate(d.len() - 2);
                }
                if d == "????" {
                    d.clear();
                }
            } else {
                self.lose(Part::tag("Date"), format!("Date \"{v}\" (not yyyy.mm.dd)"));
            }
        }
        if let Some(t) = self.value("Time") {
            let parts: Vec<&str> = t.split(':').collect();
            if parts.len() == 3
                && parts
                    .iter()
                    .all(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit()))
            {
                d.push(':');
                d.push_str(&parts.concat());
            } else {
                self.lose(Part::tag("Time"), format!("Time \"{t}\" (not hh:mm:ss)"));
            }
        }
        if !d.is_empty() {
            self.set(b'D', d);
        }
    }

    fn write_teams(&mut self) {
        let home = self.value("HomeTeam").unwrap_or("").to_string();
        let visit = self.value("VisitTeam").unwrap_or("").to_string();
        let carry_like = |t: &str| {
            t.rsplit_once(' ').is_some_and(|(_, last)| {
                last.strip_prefix(['+', '-']).is_some_and(|n| {
                    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                })
            })
        };
        if carry_like(&home) || carry_like(&visit) {
            self.lose_parts(
                vec![Part::tag("HomeTeam"), Part::tag("VisitTeam")],
                "a HomeTeam or VisitTeam name ending like an RBN carryover (+n or -n)",
            );
            return;
        }
        if home.contains(':') || visit.contains(':') {
            self.lose_parts(
                vec![Part::tag("HomeTeam"), Part::tag("VisitTeam")],
                "a team name with `:`",
            );
            return;
        }
        if !home.is_empty() || !visit.is_empty() {
            self.set(b'K', format!("{home}:{visit}"));
        }
    }

    fn write_names(&mut self) {
        let names: Vec<String> = ["North", "South", "West", "East"]
            .iter()
            .map(|n| self.value(n).unwrap_or("").to_string())
            .collect();
        if names.iter().any(|n| n.contains([':', '+'])) {
            self.lose_parts(
                ["North", "South", "West", "East", "Room", "Table"]
                    .map(Part::tag)
                    .to_vec(),
                "a player name with `:` or `+`",
            );
            return;
        }
        let room = match (self.value("Room"), self.value("Table")) {
            (Some(r), _) if r.eq_ignore_ascii_case("open") => Some("O".to_string()),
            (Some(r), _) if r.eq_ignore_ascii_case("closed") => Some("C".to_string()),
            (Some(r), _) => {
                self.lose(Part::tag("Room"), format!("Room \"{r}\""));
                None
            }
            (None, Some(t)) if t.bytes().all(|b| b.is_ascii_digit()) => Some(t.to_string()),
            (None, Some(t)) => {
                self.lose(
                    Part::tag("Table"),
                    format!("Table \"{t}\" (RBN holds table numbers only)"),
                );
                None
            }
            (None, None) => None,
        };
        if self.value("Room").is_some() && self.value("Table").is_some() {
            self.lose(
                Part::tag("Table"),
                "Table (RBN holds a room or a table, not both)",
            );
        }
        let mut n = format!("{}+{}:{}+{}", names[0], names[1], names[2], names[3]);
        if let Some(room) = room {
            n.push(':');
            n.push_str(&room);
        } else if names.iter().all(String::is_empty) {
            return;
        }
        self.set(b'N', n);
    }

    fn write_board(&mut self) {
        let board = self.value("Board").unwrap_or("").to_string();
        let section = self.value("Section").map(str::to_string);
        let ok = |s: &str| {
            s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-/.".contains(&b))
        };
        if !ok(&board) {
            self.lose_parts(
                vec![Part::tag("Board"), Part::tag("Section")],
                format!("Board \"{board}\" (RBN holds letters, digits and - / . only)"),
            );
            return;
        }
        match section {
            Some(s) if s.bytes().all(|b| b.is_ascii_alphabetic()) => {
                self.set(b'B', format!("{board}:{}", s.to_ascii_uppercase()));
                if s.bytes().any(|b| b.is_ascii_lowercase()) {
                    self.lose(
                        Part::tag("Section"),
                        format!("the letter case of Section \"{s}\""),
                    );
                }
            }
            Some(s) => {
                self.lose(
                    Part::tag("Section"),
                    format!("Section \"{s}\" (RBN holds letters only)"),
                );
                if !board.is_empty() {
                    self.set(b'B', board);
                }
            }
            None if !board.is_empty() => self.set(b'B', board),
            None => {}
        }
    }

    fn write_deal(&mut self, ty: &typed::TypedGame) {
        let Some(deal) = &ty.deal else {
            if self.value("Hidden").is_some() {
                self.lose(
                    Part::tag("Hidden"),
                    "Hidden without a Deal (RBN marks hidden hands in the H label)",
                );
            }
            return;
        };
        if deal.hands.iter().all(Option::is_none) {
            self.lose_parts(
                vec![Part::tag("Deal"), Part::tag("Hidden")],
                "a Deal of no hands (an RBN H label of no hands is no deal)",
            );
            return;
        }
        if deal.spot_cards.iter().any(|&n| n > 0) {
            self.lose_parts(
                vec![Part::tag("Deal"), Part::tag("Hidden")],
                "`x` spot cards of the Deal",
            );
            return;
        }
        let hidden = self
            .value("Hidden")
            .and_then(|v| values::parse_hidden(v).value);
        if hidden.as_ref().is_some_and(|x| {
            Seat::ALL
                .iter()
                .any(|&s| x.contains(s) && deal.hands[s as usize].is_none_or(|h| h.is_empty()))
        }) {
            self.lose(
                Part::tag("Hidden"),
                "Hidden of a hand with no cards (RBN's `;` hides cards)",
            );
        }
        let start = deal.first;
        let mut h = String::from(start.letter());
        for k in 0..4 {
            let seat = rotate(start, k);
            let hide = hidden.as_ref().is_some_and(|x| x.contains(seat));
            h.push(if hide { ';' } else { ':' });
            if let Some(hand) = deal.hands[seat as usize] {
                let suits: Vec<String> = Suit::DESC
                    .iter()
                    .map(|&s| hand[s].iter().map(rank_char).collect())
                    .collect();
                h.push_str(&suits.join("."));
            }
        }
        // A trailing empty, shown hand is not written ("else fourth hand
        // would be assumed not to exist"), unless the first three are full
        // (then it would get the rest).
        let fourth = rotate(start, 3);
        let three_full =
            (0..3).all(|k| deal.hands[rotate(start, k) as usize].is_some_and(|x| x.len() == 13));
        if deal.hands[fourth as usize].is_none() && h.ends_with(':') {
            if three_full {
                self.lose(
                    Part::tag("Deal"),
                    "an absent fourth hand after three full ones (RBN gives it the rest)",
                );
            }
            h.pop();
        }
        self.set(b'H', h);
    }

    fn write_auction(&mut self, ty: &typed::TypedGame) {
        let g = self.game;
        let dealer = ty.dealer;
        let vul = ty
            .vulnerable
            .map(|v| crate::spec::seats::by_vulnerability(v.vulnerability, ['Z', 'N', 'E', 'B']));
        let Some(dealer) = dealer else {
            if vul.is_some() {
                self.lose(
                    Part::tag("Vulnerable"),
                    "Vulnerable without a Dealer (RBN's A label starts with the dealer)",
                );
            }
            if g.auction.is_some() {
                self.lose(Part::Auction, "the auction (no Dealer)");
            }
            return;
        };
        let mut a = String::from(dealer.letter());
        if let Some(v) = vul {
            a.push(v);
        }
        let mut note_lines = Vec::new();
        if let Some(auction) = &g.auction {
            let seat = g
                .tags
                .get(auction.tag)
                .and_then(|t| t.effective())
                .and_then(|v| values::parse_auction_seat(v).value)
                .map(|s| s.seat);
            if seat != Some(dealer) {
                self.lose(
                    Part::Auction,
                    "the auction (its first call is not the dealer's)",
                );
            } else {
                let calls = self.calls(&auction.entries);
                for (k, c) in calls.iter().enumerate() {
                    if k % 4 == 0 {
                        a.push(':');
                    }
                    a.push_str(c);
                }
                note_lines = self.notes(&auction.notes, Part::AuctionAnnotations);
            }
        }
        if let Some(an) = &ty.auction {
            if g.auction.is_some() && !an.complete && !an.ended_by_terminator && !an.continued {
                self.lose(
                    Part::AuctionEnd,
                    "an unfinished auction without `*` (RBN's reader ends it with `*`)",
                );
            }
        }
        self.set(b'A', a);
        self.auction_notes = note_lines;
    }

    /// RBN notations of an entry: suffixes and NAGs 1-6 (calls) or 7-12
    /// (cards) as `!` … `?!`, note references 1-9 as `^n`.
    fn notations<T>(&mut self, e: &Entry<T>, card: bool) -> String {
        let mut out = String::new();
        let part = if card {
            Part::PlayAnnotations
        } else {
            Part::AuctionAnnotations
        };
        if !e.pre().is_empty() {
            // Without its `^R`/`^L` the play is seated otherwise (a lead
            // out of turn leads the trick), so the play goes with them.
            if card {
                self.lose_parts(
                    vec![Part::PlayAnnotations, Part::Play],
                    "irregularity marks (^R ^L) of the play",
                );
            } else {
                self.lose(part.clone(), "irregularity marks (^I ^S ^R ^L)");
            }
        }
        let mut suffixes = 0;
        for a in e.post() {
            let nag = match a.kind {
                AnnotationKind::Suffix(s) => Some(u32::from(s) + if card { 6 } else { 0 }),
                AnnotationKind::Nag(Some(n)) => Some(n),
                AnnotationKind::Nag(None) => {
                    self.lose(part.clone(), "an unreadable NAG");
                    None
                }
                AnnotationKind::NoteRef(Some(n)) if (1..=9).contains(&n) => {
                    out.push_str(&format!("^{n}"));
                    None
                }
                AnnotationKind::NoteRef(_) => {
                    self.lose(part.clone(), "note references beyond 9 (RBN notes are 1-9)");
                    None
                }
                AnnotationKind::Irregularity(_) => None,
            };
            if let Some(n) = nag {
                let k = n.wrapping_sub(if card { 7 } else { 1 }) as usize;
                match NOTATIONS.get(k) {
                    Some(x) if suffixes == 0 => {
                        suffixes += 1;
                        out.insert_str(0, x);
                    }
                    Some(_) => {
                        self.lose(part.clone(), "a second suffix or NAG on one call or card")
                    }
                    None => self.lose(
                        part.clone(),
                        format!("NAG \"${n}\" (RBN holds ! ? !! ?? !? ?! only)"),
                    ),
                }
            }
        }
        out
    }

    /// The RBN calls of an auction section.
    fn calls(&mut self, entries: &[Entry<CallToken>]) -> Vec<String> {
        let entries = super::read_calls(self.text, entries);
        let mut out = Vec::new();
        let (mut passes, mut bid, mut ended) = (0, false, false);
        for e in &entries {
            if ended && !matches!(e.token, CallToken::Terminator | CallToken::Continuation) {
                self.lose(Part::Auction, "calls after the end of the auction");
                break;
            }
            match e.token {
                CallToken::Pass => passes += 1,
                CallToken::Bid(_) => {
                    bid = true;
                    passes = 0
                }
                CallToken::AllPass => ended = true,
                _ => passes = 0,
            }
            ended |= (bid && passes >= 3) || passes >= 4;
            let token = match e.token {
                CallToken::Bid(b) => short_bid(b),
                CallToken::Pass => "P".into(),
                CallToken::Double => "X".into(),
                CallToken::Redouble => "R".into(),
                CallToken::AllPass => "A".into(),
                CallToken::Continuation => "Y".into(),
                CallToken::Terminator => continue,
                CallToken::Dash => {
                    self.lose(Part::Auction, "`-` in the auction");
                    continue;
                }
                CallToken::Skip => {
                    self.lose(Part::Auction, "`^S` (a skipped player) in the auction");
                    continue;
                }
                CallToken::Invalid => {
                    let text = &self.text[e.range.clone()];
                    self.lose(Part::Auction, format!("the unreadable call \"{text}\""));
                    continue;
                }
            };
            let marks = self.notations(e, false);
            out.push(format!("{token}{marks}"));
        }
        out
    }

    /// Note lines (`n text`) of Note tags (§3.5.4, §3.6.5).
    fn notes(&mut self, idx: &[usize], part: Part) -> Vec<String> {
        let mut out = Vec::new();
        for &i in idx {
            let Some(v) = self.game.tags.get(i).and_then(|t| t.value.as_ref()) else {
                continue;
            };
            match self.game.note(i) {
                Some(n) if (1..=9).contains(&n.index) && !n.text.contains('\n') => {
                    out.push(format!("{} {}", n.index, n.text))
                }
                _ => self.lose(
                    part.clone(),
                    format!("Note \"{}\" (RBN notes are numbered 1-9, one line)", v.text),
                ),
            }
        }
        out
    }

    fn write_contract(&mut self, ty: &typed::TypedGame) {
        let Some(c) = &ty.contract else {
            if ty.declarer.is_some() {
                self.lose(
                    Part::tag("Declarer"),
                    "the Declarer without a Contract (RBN's C label holds both)",
                );
            }
            return;
        };
        let text = match c.value {
            ContractValue::Pass => {
                self.set(b'C', "P".into());
                return;
            }
            ContractValue::Empty => return,
            ContractValue::EndPosition(s) => strain_letter(s).to_string(),
            ContractValue::Contract(k) => format!(
                "{}{}",
                short_bid(k.bid),
                match k.penalty {
                    bridge::Penalty::Undoubled => "",
                    bridge::Penalty::Doubled => "X",
                    bridge::Penalty::Redoubled => "R",
                }
            ),
        };
        let decl = match ty.declarer {
            Some(d) if d.swapped => {
                self.lose_parts(
                    vec![Part::tag("Declarer"), Part::Play],
                    "the `^` of Declarer (declarer and dummy swapped)",
                );
                d.seat
            }
            Some(d) => d.seat,
            None => None,
        };
        match decl {
            Some(s) => self.set(b'C', format!("{text}:{}", s.letter())),
            None => self.set(b'C', text),
        }
    }

    fn write_play(&mut self, ty: &typed::TypedGame) {
        let g = self.game;
        let no_cards = |p: &crate::model::Play| {
            p.entries
                .iter()
                .all(|e| matches!(e.token, CardToken::Terminator))
        };
        if g.play.as_ref().is_some_and(no_cards) {
            self.lose(
                Part::Play,
                "a play of no cards (RBN's P label starts with the lead)",
            );
            return;
        }
        let (Some(play), Some(analysis)) = (&g.play, &ty.play) else {
            return;
        };
        let Some(leader) = g
            .tags
            .get(play.tag)
            .and_then(|t| t.effective())
            .and_then(|v| values::parse_play_seat(v).value)
            .map(|s| s.seat)
        else {
            self.lose(Part::Play, "the play (no opening leader)");
            return;
        };
        let mut p = String::from(leader.letter());
        let mut stopped = false;
        let cards = super::read_cards(self.text, &play.entries);
        'tricks: for trick in &analysis.tricks {
            let Some(tl) = trick.leader else {
                self.lose(Part::Play, "the play after a trick with an unknown card");
                break;
            };
            let mut led: Option<Suit> = None;
            let mut first = true;
            for k in 0..4 {
                let seat = rotate(tl, k);
                let Some(item) = trick.cards[seat as usize] else {
                    stopped = true;
                    continue;
                };
                let Some(e) = cards.get(item) else {
                    continue;
                };
                let card = match e.token {
                    CardToken::Card(c) => c,
                    CardToken::Invalid => {
                        self.lose(Part::Play, "the play from an unreadable card on");
                        break 'tricks;
                    }
                    CardToken::Continuation => {
                        if first {
                            p.push(':');
                        }
                        p.push('Y');
                        break 'tricks;
                    }
                    CardToken::Dash | CardToken::Terminator => {
                        stopped = true;
                        continue;
                    }
                };
                if stopped {
                    self.lose(Part::Play, "the play after an unknown card (`-`)");
                    break 'tricks;
                }
                if first {
                    p.push(':');
                    first = false;
                }
                if led != Some(card.suit) || k == 0 {
                    p.push(card.suit.letter());
                }
                if k == 0 {
                    led = Some(card.suit);
                }
                p.push(rank_char(card.rank));
                let marks = self.notations(e, true);
                p.push_str(&marks);
            }
        }
        let terminated = analysis.terminated;
        let all_given = analysis.tricks.len() == analysis.total_tricks as usize
            && analysis.tricks.last().is_some_and(|t| t.complete);
        if terminated && all_given {
            self.lose(Part::PlayEnd, "`*` after a complete play");
        } else if !terminated && !all_given && !analysis.continued {
            // The reader also gives the last trick's missing cards as `-`.
            self.lose(
                Part::Play,
                "an unfinished play without `*` (RBN's reader ends it with `*`)",
            );
        }
        self.set(b'P', p);
        self.play_notes = self.notes(&play.notes, Part::PlayAnnotations);
    }

    fn write_result(&mut self, ty: &typed::TypedGame) {
        let ns_declarer = ty.declarer.and_then(|d| d.seat).map(bridge::is_north_south);
        let passed = matches!(ty.contract.map(|c| c.value), Some(ContractValue::Pass));
        let mut r = String::new();
        if passed {
            r.push('P');
            if ty.result.is_some_and(|res| res.tricks.is_some()) {
                self.lose(
                    Part::tag("Result"),
                    "a Result of a passed-out game (RBN's R label says P)",
                );
            }
        } else if let Some(res) = &ty.result {
            if res.differs_from_actual {
                self.lose(Part::tag("Result"), "the `^` of Result");
            }
            match res.tricks.and_then(|t| match t {
                values::SideScores::Declarer(n) => Some(n),
                s => ns_declarer.and_then(|ns| s.for_declarer(ns)),
            }) {
                Some(n) => r.push_str(&n.to_string()),
                None => self.lose(
                    Part::tag("Result"),
                    "the Result (not readable as declarer's tricks)",
                ),
            }
        }
        let ns = |s: values::SideScores<f64>| match s {
            values::SideScores::Declarer(v) => ns_declarer.map(|ns| if ns { v } else { -v }),
            values::SideScores::Sides { ns: Some(v), .. } => Some(v),
            values::SideScores::Sides { ew: Some(v), .. } => Some(-v),
            _ => None,
        };
        if let Some(s) = ty.score {
            let as_f = match s {
                values::SideScores::Declarer(v) => values::SideScores::Declarer(v as f64),
                values::SideScores::Sides { ns, ew, ns_first } => values::SideScores::Sides {
                    ns: ns.map(|v| v as f64),
                    ew: ew.map(|v| v as f64),
                    ns_first,
                },
            };
            match ns(as_f) {
                Some(v) => r.push_str(&format!("{:+}", v as i64)),
                None => self.lose(Part::tag("Score"), "the Score (its side is unknown)"),
            }
        }
        let imp = self
            .value("ScoreIMP")
            .and_then(|v| values::parse_score_imp(v).value);
        let pct = self
            .value("ScorePercentage")
            .and_then(|v| values::parse_score_percentage(v).value);
        match (imp.and_then(ns), pct.and_then(ns)) {
            (Some(v), p) => {
                if v == 0.0 {
                    r.push_str(":=");
                } else {
                    r.push(':');
                    if v > 0.0 {
                        r.push('+');
                    }
                    r.push_str(&number(v));
                }
                if p.is_some() {
                    self.lose(
                        Part::tag("ScorePercentage"),
                        "ScorePercentage (RBN holds one effective score)",
                    );
                }
            }
            (None, Some(p)) => {
                r.push(':');
                r.push_str(&number(p));
            }
            (None, None) => {
                if imp.is_some() || pct.is_some() {
                    self.lose_parts(
                        vec![Part::tag("ScoreIMP"), Part::tag("ScorePercentage")],
                        "the effective score (its side is unknown)",
                    );
                }
            }
        }
        if !r.is_empty() {
            self.set(b'R', r);
        }
    }

    /// The game's commentary as RBN paragraphs: before the H label (those
    /// before the Deal tag) and after; `{RBN <label> <data>}` back to the
    /// label.
    fn paragraphs(&mut self) -> (Vec<String>, Vec<String>) {
        let deal_at = self.game.tag("Deal").map_or(usize::MAX, |t| t.range.start);
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let game = self.game;
        for c in game.commentary() {
            let raw = &self.text[c.range.clone()];
            let body = match c.kind {
                CommentKind::Brace | CommentKind::UnterminatedBrace | CommentKind::Line => {
                    c.body(self.text)
                }
                // `% PBN 2.1`, `% EXPORT` (§2.4) and `% RBN 2.2` say
                // which format a file is in: the RBN file has its own.
                CommentKind::Escape
                    if ["% PBN", "% EXPORT", "% RBN"]
                        .iter()
                        .any(|p| raw.starts_with(p)) =>
                {
                    continue
                }
                CommentKind::Escape => {
                    self.lose_parts(Vec::new(), "an escape line (`%`) inside a game");
                    continue;
                }
            };
            if let Some(rest) = body.strip_prefix("RBN ") {
                let b = rest.as_bytes();
                if b.len() >= 2 && LABELS.contains(&b[0]) && b[1] == b' ' {
                    self.set(b[0], rest[2..].to_string());
                    continue;
                }
            }
            let text: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
            let mut text = text.join("\n").replace('{', "(");
            if text.trim().is_empty() {
                continue;
            }
            if text.contains('\n') {
                // A line of a paragraph may not start with `{`, which the
                // replacement above already rules out.
                text = text
                    .lines()
                    .map(str::trim_end)
                    .collect::<Vec<_>>()
                    .join("\n");
            }
            if c.range.start < deal_at {
                before.push(text);
            } else {
                after.push(text);
            }
        }
        (before, after)
    }

    fn finish(&mut self) -> String {
        let (before, after) = self.paragraphs();
        if let Some(makes) = self.makes.take() {
            // The tricks after the lead (kept as `{RBN M …}`), then the
            // makes.
            let k = LABELS.iter().position(|&l| l == b'M').unwrap_or(15);
            let lead = self.labels[k]
                .as_deref()
                .map_or("", |m| m.split(':').next().unwrap_or(""))
                .to_string();
            self.labels[k] = Some(format!("{lead}{makes}"));
        }
        let mut out = String::new();
        for p in &before {
            out.push_str(&format!("{{{p}}}\n"));
        }
        for (k, &label) in LABELS.iter().enumerate() {
            match &self.labels[k] {
                Some(d) => out.push_str(&format!("{} {d}\n", label as char)),
                // Every repeating label is written, null when absent, so
                // that nothing repeats from the previous deal ("General
                // Database Rules").
                None if k < 10 => out.push_str(&format!("{}\n", label as char)),
                None => {}
            }
            let notes = match label {
                b'A' => &self.auction_notes,
                b'P' => &self.play_notes,
                _ => continue,
            };
            for n in notes {
                out.push_str(n);
                out.push('\n');
            }
        }
        for p in &after {
            out.push_str(&format!("{{{p}}}\n"));
        }
        out.push('\n');
        out
    }
}
