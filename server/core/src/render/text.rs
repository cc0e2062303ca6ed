//! A hand record as terminal text: `pbn show`. Red hearts and diamonds and
//! bold headings with colour (ANSI escapes), the same layout without.

use super::{superscript, Piece, Record, DD_SEATS, DD_STRAINS, GRID_SEATS, SUITS};
use crate::bridge::suit_symbol;
use crate::bridge::{seat_name, Seat};

/// A painted string and its width in terminal columns (escapes excluded).
#[derive(Clone, Debug, Default)]
struct Cell {
    s: String,
    w: usize,
}

impl Cell {
    fn plain(s: impl Into<String>) -> Cell {
        let s = s.into();
        let w = s.chars().count();
        Cell { s, w }
    }
    fn push(&mut self, other: Cell) {
        self.s.push_str(&other.s);
        self.w += other.w;
    }
    /// Padded with spaces to `width` columns.
    fn padded(&self, width: usize) -> String {
        format!("{}{}", self.s, " ".repeat(width.saturating_sub(self.w)))
    }
}

/// Colour on or off.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub color: bool,
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> Cell {
        let w = s.chars().count();
        if self.color {
            Cell {
                s: format!("\x1b[{code}m{s}\x1b[0m"),
                w,
            }
        } else {
            Cell::plain(s)
        }
    }
    fn bold(&self, s: &str) -> String {
        self.paint("1", s).s
    }
    fn suit(&self, suit: crate::bridge::Suit) -> Cell {
        let sym = suit_symbol(suit).to_string();
        if super::is_red(suit) {
            self.paint("31", &sym)
        } else {
            Cell::plain(sym)
        }
    }
    fn pieces(&self, pieces: &[Piece]) -> Cell {
        let mut c = Cell::default();
        for p in pieces {
            c.push(match p {
                Piece::Text(t) => Cell::plain(t.as_str()),
                Piece::Suit(s) => self.suit(*s),
                Piece::Cost(n) => self.paint("33", &super::cost_text(*n)),
            });
        }
        c
    }
    /// The pieces in bold (suit colours kept).
    fn strong(&self, pieces: &[Piece]) -> Cell {
        let c = self.pieces(pieces);
        if self.color {
            Cell {
                s: format!("\x1b[1m{}\x1b[0m", c.s.replace("\x1b[0m", "\x1b[0m\x1b[1m")),
                w: c.w,
            }
        } else {
            c
        }
    }
}

/// The lines of one hand: a suit per line, `—` for a void.
fn hand_lines(r: &Record, seat: Seat, style: Style) -> Vec<Cell> {
    let Some(h) = &r.hands[seat as usize] else {
        return Vec::new();
    };
    SUITS
        .iter()
        .zip(&h.suits)
        .map(|(&s, ranks)| {
            let mut c = style.suit(s);
            c.push(Cell::plain(format!(
                " {}",
                if ranks.is_empty() { "—" } else { ranks }
            )));
            c
        })
        .collect()
}

/// `N 13`: the seat letter and HCP (and `x` spot cards) of a known hand.
fn seat_label(r: &Record, seat: Seat) -> String {
    match &r.hands[seat as usize] {
        Some(h) if h.spots > 0 => format!("{} {}+{}x", seat.letter(), h.hcp, h.spots),
        Some(h) => format!("{} {}", seat.letter(), h.hcp),
        None => seat.letter().to_string(),
    }
}

const COMPASS: usize = 15;

/// The deal around a compass that shows each seat's HCP: North on top, West
/// left, East right, South below; 12 lines for a full deal.
pub fn diagram(r: &Record, style: Style) -> Vec<String> {
    let [north, east, south, west] = Seat::ALL.map(|s| hand_lines(r, s, style));
    let wcol = west.iter().map(|c| c.w).max().unwrap_or(0).max(9);
    let indent = " ".repeat(wcol + 2 + 4);
    let center = |s: String| {
        let w = s.chars().count();
        let left = (COMPASS.saturating_sub(w)) / 2;
        format!(
            "{}{s}{}",
            " ".repeat(left),
            " ".repeat(COMPASS.saturating_sub(w + left))
        )
    };
    let (wl, el) = (seat_label(r, Seat::West), seat_label(r, Seat::East));
    let middle = [
        center(seat_label(r, Seat::North)),
        format!(
            "{wl}{}{el}",
            " ".repeat(COMPASS.saturating_sub(wl.chars().count() + el.chars().count()))
        ),
        center(seat_label(r, Seat::South)),
        // What the compass numbers are.
        center("(HCP)".to_owned()),
    ];
    let mut out: Vec<String> = north.iter().map(|c| format!("{indent}{}", c.s)).collect();
    for (i, m) in middle.iter().enumerate() {
        let w = west.get(i).cloned().unwrap_or_default();
        let e = east.get(i).map(|c| c.s.as_str()).unwrap_or("");
        out.push(
            format!("{}  {m}  {e}", w.padded(wcol))
                .trim_end()
                .to_owned(),
        );
    }
    out.extend(south.iter().map(|c| format!("{indent}{}", c.s)));
    out
}

/// The auction grid and its notes.
fn auction(r: &Record, style: Style, out: &mut Vec<String>) {
    let Some(a) = &r.auction else { return };
    if a.rows.is_empty() {
        return;
    }
    const W: usize = 9;
    out.push(String::new());
    out.push(
        style.bold(
            GRID_SEATS
                .map(|s| format!("{:W$}", seat_name(s)))
                .concat()
                .trim_end(),
        ),
    );
    for row in &a.rows {
        let line: String = row
            .iter()
            .map(|c| match c {
                Some(c) => {
                    let mut cell = style.pieces(&c.call);
                    cell.push(Cell::plain(superscript(&c.notes)));
                    cell.padded(W)
                }
                None => " ".repeat(W),
            })
            .collect();
        out.push(line.trim_end().to_owned());
    }
    notes(&a.notes, out);
}

fn notes(notes: &[(u32, String)], out: &mut Vec<String>) {
    for (n, text) in notes {
        out.push(format!("{} {}", superscript(&[*n]), text.trim()));
    }
}

fn play(r: &Record, style: Style, out: &mut Vec<String>) {
    let Some(p) = &r.play else { return };
    if p.tricks.is_empty() {
        return;
    }
    const W: usize = 7;
    out.push(String::new());
    let head = format!(
        "{:>2}  {:5} {} Won",
        "#",
        "Lead",
        GRID_SEATS.map(|s| format!("{:W$}", seat_name(s))).concat()
    );
    out.push(style.bold(&head));
    for (i, tr) in p.tricks.iter().enumerate() {
        let cells: String = GRID_SEATS
            .iter()
            .zip(&tr.cards)
            .map(|(&s, c)| match c {
                Some(c) if tr.winner == Some(s) => style.strong(c).padded(W),
                Some(c) => style.pieces(c).padded(W),
                None => " ".repeat(W),
            })
            .collect();
        let seat = |s: Option<Seat>| s.map_or("?".to_owned(), |s| s.letter().to_string());
        out.push(
            format!(
                "{:>2}  {:5} {cells} {}",
                i + 1,
                seat(tr.leader),
                seat(tr.winner)
            )
            .trim_end()
            .to_owned(),
        );
    }
    notes(&p.notes, out);
}

fn dd(r: &Record, style: Style, out: &mut Vec<String>) {
    if r.dd.is_none() && r.par.is_none() && r.optimum_score.is_none() {
        return;
    }
    out.push(String::new());
    if let Some(t) = &r.dd {
        let mut head = Cell::plain("Double dummy ");
        for s in DD_STRAINS {
            let c = match s.suit() {
                Some(suit) => style.suit(suit),
                None => Cell::plain("NT"),
            };
            head.push(Cell::plain(" ".repeat(4 - c.w)));
            head.push(c);
        }
        out.push(head.s);
        for (seat, row) in DD_SEATS.iter().zip(t) {
            let cells: String = row
                .iter()
                .map(|n| n.map_or("   -".to_owned(), |n| format!("{n:>4}")))
                .collect();
            out.push(format!("  {:11}{cells}", seat_name(*seat)));
        }
    }
    match (&r.par, &r.optimum_score) {
        (Some(p), Some(s)) => out.push(format!("Par: {p} ({s})")),
        (Some(p), None) => out.push(format!("Par: {p}")),
        (None, Some(s)) => out.push(format!("Optimum score: {s}")),
        (None, None) => {}
    }
}

/// The opening leads and the play analysis line (`--dd`).
fn dd_analysis(r: &Record, out: &mut Vec<String>) {
    if let Some(l) = &r.leads {
        out.push(format!("Opening leads: {l}"));
    }
    if let Some(p) = &r.dd_play {
        out.push(p.clone());
    }
}

/// The whole record.
pub fn render(r: &Record, style: Style) -> String {
    let mut out = Vec::new();
    let mut title = r.title();
    let sub = r.subtitle();
    if !sub.is_empty() {
        title = format!("{title} · {sub}");
    }
    if let Some(e) = &r.event {
        title = format!("{title} — {e}");
    }
    out.push(style.bold(&title));
    let players: Vec<String> = Seat::ALL
        .iter()
        .filter_map(|&s| {
            Some(format!(
                "{}: {}",
                seat_name(s),
                r.players[s as usize].as_ref()?
            ))
        })
        .collect();
    if !players.is_empty() {
        out.push(players.join("  "));
    }
    if r.has_deal() {
        out.push(String::new());
        out.extend(diagram(r, style));
        if let Some(n) = r.end_position {
            out.push(format!("End position: {n} cards per hand (§3.10)"));
        }
    }
    auction(r, style, &mut out);
    if let Some(c) = &r.contract {
        out.push(String::new());
        out.push(format!("{} {}", style.bold("Contract:"), style.pieces(c).s));
    }
    play(r, style, &mut out);
    dd(r, style, &mut out);
    dd_analysis(r, &mut out);
    if !r.commentary.is_empty() {
        out.push(String::new());
        out.push(style.bold("Commentary"));
        for c in &r.commentary {
            let c = style.pieces(c).s;
            out.extend(c.lines().map(|l| format!("  {}", l.trim_end())));
        }
    }
    if !r.errors.is_empty() {
        out.push(String::new());
        out.push(style.paint("1;31", "Problems").s);
        out.extend(r.errors.iter().map(|e| format!("  {e}")));
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}
