//! Hand records as one self-contained HTML page: `pbn html`. Inline CSS, no
//! script, no network; real text throughout, each suit symbol followed by
//! its name as visually hidden text for screen readers; a single column on
//! a phone; `@media print` on A4 with at most two boards per page.

use super::{Piece, Record, DD_SEATS, DD_STRAINS, GRID_SEATS, SUITS};
use crate::bridge::{seat_name, Seat};
use crate::bridge::{suit_name, suit_symbol};
use std::fmt::Write;

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn suit(s: crate::bridge::Suit) -> String {
    let class = match s {
        crate::bridge::Suit::Spades => "s",
        crate::bridge::Suit::Hearts => "h",
        crate::bridge::Suit::Diamonds => "d",
        crate::bridge::Suit::Clubs => "c",
    };
    format!(
        "<span class=\"suit {class}\" aria-hidden=\"true\">{}</span><span class=\"vh\">{} </span>",
        suit_symbol(s),
        suit_name(s)
    )
}

fn pieces(p: &[Piece]) -> String {
    p.iter()
        .map(|p| match p {
            Piece::Text(t) => escape(t),
            Piece::Suit(s) => suit(*s),
            Piece::Cost(n) => format!(
                "<sup class=\"cost\" title=\"gave away {n} trick(s), double dummy\">{}</sup>",
                super::cost_text(*n)
            ),
        })
        .collect()
}

const CSS: &str = r#"
:root{--red:#c8102e;--ink:#1a1a1a;--line:#ccc;font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;color:var(--ink);background:#fff}
body{margin:0 auto;padding:12px;max-width:52rem;line-height:1.35}
h1{font-size:1.4rem;margin:.2rem 0 1rem}
.board{border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:0 0 16px}
.board h2{font-size:1.15rem;margin:0 0 2px}
.meta{margin:0 0 8px;color:#444}
.deal{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:2px 8px;max-width:26rem;margin:6px 0 10px}
.hand{font-variant-numeric:tabular-nums;white-space:nowrap}
.hand .who{font-weight:bold;font-size:.85rem;color:#444}
.n{grid-column:2;grid-row:1}.w{grid-column:1;grid-row:2}.e{grid-column:3;grid-row:2}.so{grid-column:2;grid-row:3}
.compass{grid-column:2;grid-row:2;align-self:center;justify-self:center;display:grid;grid-template-columns:repeat(3,2rem);grid-template-rows:repeat(3,auto);line-height:1.1;padding:2px 0;text-align:center;border:1px solid #999;border-radius:4px;background:#eef3ee;font-size:.8rem}
.compass .cn{grid-column:2;grid-row:1}.compass .cw{grid-column:1;grid-row:2}.compass .ce{grid-column:3;grid-row:2}.compass .cs{grid-column:2;grid-row:3}
.suit{display:inline-block;width:1.05em}
.suit.h,.suit.d{color:var(--red)}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table{border-collapse:collapse;margin:6px 0 8px;font-variant-numeric:tabular-nums}
th,td{padding:1px 6px;text-align:left}
thead th{border-bottom:1px solid var(--line)}
.auction td,.auction th{width:4.2rem}
.play td,.play th{padding:1px 4px}
.play .won{font-weight:bold;text-decoration:underline}
.dd td{text-align:right}
.cost{color:#b35900;font-weight:bold}
.notes{margin:2px 0 8px;padding-left:0;list-style:none;font-size:.92rem}
.result{margin:4px 0}
.commentary{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.92rem;border-left:3px solid var(--line);padding-left:8px}
.problems{color:#8a1010;font-size:.88rem;overflow-wrap:anywhere}
.cols{display:flex;flex-wrap:wrap;gap:0 24px}
@media (max-width:480px){body{padding:6px}.board{padding:8px}.auction td,.auction th{width:auto}}
@page{size:A4;margin:12mm}
@media print{body{max-width:none;padding:0}.board{break-inside:avoid;border:none;border-bottom:1px solid var(--line);border-radius:0}.board:nth-of-type(2n){break-after:page}h1{display:none}.problems{display:none}}
"#;

fn hand(r: &Record, seat: Seat, class: &str, out: &mut String) {
    let name = seat_name(seat);
    let player = r.players[seat as usize]
        .as_ref()
        .map(|p| format!(" {}", escape(p)))
        .unwrap_or_default();
    let _ = write!(
        out,
        "<div class=\"hand {class}\" aria-label=\"{name}\"><div class=\"who\">{name}{player}</div>"
    );
    match &r.hands[seat as usize] {
        Some(h) => {
            for (s, ranks) in SUITS.iter().zip(&h.suits) {
                let ranks = if ranks.is_empty() {
                    "—".to_owned()
                } else {
                    escape(ranks)
                };
                let _ = write!(out, "<div>{}{ranks}</div>", suit(*s));
            }
        }
        None => out.push_str("<div>not given</div>"),
    }
    out.push_str("</div>");
}

fn deal(r: &Record, out: &mut String) {
    out.push_str("<div class=\"deal\" role=\"group\" aria-label=\"Deal\">");
    hand(r, Seat::North, "n", out);
    hand(r, Seat::West, "w", out);
    out.push_str("<div class=\"compass\" aria-label=\"High card points\">");
    for (s, c) in [
        (Seat::North, "cn"),
        (Seat::West, "cw"),
        (Seat::East, "ce"),
        (Seat::South, "cs"),
    ] {
        let hcp = r.hands[s as usize]
            .as_ref()
            .map(|h| h.hcp.to_string())
            .unwrap_or_default();
        let _ = write!(
            out,
            "<span class=\"{c}\" title=\"{} HCP\">{}<br>{hcp}</span>",
            seat_name(s),
            s.letter()
        );
    }
    out.push_str("</div>");
    hand(r, Seat::East, "e", out);
    hand(r, Seat::South, "so", out);
    out.push_str("</div>");
}

fn note_list(notes: &[(u32, String)], out: &mut String) {
    if notes.is_empty() {
        return;
    }
    out.push_str("<ul class=\"notes\">");
    for (n, t) in notes {
        let _ = write!(out, "<li><sup>{n}</sup> {}</li>", escape(t.trim()));
    }
    out.push_str("</ul>");
}

fn auction(r: &Record, out: &mut String) {
    let Some(a) = &r.auction else { return };
    if a.rows.is_empty() {
        return;
    }
    out.push_str(
        "<div><table class=\"auction\"><caption class=\"vh\">Auction</caption><thead><tr>",
    );
    for s in GRID_SEATS {
        let _ = write!(out, "<th scope=\"col\">{}</th>", seat_name(s));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &a.rows {
        out.push_str("<tr>");
        for c in row {
            out.push_str("<td>");
            if let Some(c) = c {
                out.push_str(&pieces(&c.call));
                for n in &c.notes {
                    let _ = write!(out, "<sup>{n}</sup>");
                }
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    note_list(&a.notes, out);
    out.push_str("</div>");
}

fn play(r: &Record, out: &mut String) {
    let Some(p) = &r.play else { return };
    if p.tricks.is_empty() {
        return;
    }
    out.push_str("<div><table class=\"play\"><caption class=\"vh\">Play</caption><thead><tr><th scope=\"col\">#</th><th scope=\"col\">Lead</th>");
    for s in GRID_SEATS {
        let _ = write!(
            out,
            "<th scope=\"col\" title=\"{}\">{}</th>",
            seat_name(s),
            s.letter()
        );
    }
    out.push_str("<th scope=\"col\">Won</th></tr></thead><tbody>");
    let letter = |s: Option<Seat>| s.map_or("?".to_owned(), |s| s.letter().to_string());
    for (i, tr) in p.tricks.iter().enumerate() {
        let _ = write!(out, "<tr><td>{}</td><td>{}</td>", i + 1, letter(tr.leader));
        for (s, c) in GRID_SEATS.iter().zip(&tr.cards) {
            match c {
                Some(c) if tr.winner == Some(*s) => {
                    let _ = write!(out, "<td class=\"won\">{}</td>", pieces(c));
                }
                Some(c) => {
                    let _ = write!(out, "<td>{}</td>", pieces(c));
                }
                None => out.push_str("<td></td>"),
            }
        }
        let _ = write!(out, "<td>{}</td></tr>", letter(tr.winner));
    }
    out.push_str("</tbody></table>");
    note_list(&p.notes, out);
    out.push_str("</div>");
}

fn dd(r: &Record, out: &mut String) {
    if let Some(t) = &r.dd {
        out.push_str(
            "<div><table class=\"dd\"><caption>Double dummy</caption><thead><tr><th></th>",
        );
        for s in DD_STRAINS {
            let head = match s.suit() {
                Some(x) => suit(x),
                None => "NT".to_owned(),
            };
            let _ = write!(out, "<th scope=\"col\">{head}</th>");
        }
        out.push_str("</tr></thead><tbody>");
        for (seat, row) in DD_SEATS.iter().zip(t) {
            let _ = write!(out, "<tr><th scope=\"row\">{}</th>", seat_name(*seat));
            for n in row {
                let _ = write!(
                    out,
                    "<td>{}</td>",
                    n.map_or("-".to_owned(), |n| n.to_string())
                );
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
    }
}

/// The opening leads and the play analysis line (`--dd`).
fn dd_analysis(r: &Record, out: &mut String) {
    if let Some(l) = &r.leads {
        let _ = write!(
            out,
            "<p class=\"result\"><b>Opening leads:</b> {}</p>",
            escape(l)
        );
    }
    if let Some(p) = &r.dd_play {
        let _ = write!(out, "<p class=\"result\">{}</p>", escape(p));
    }
}

/// One board's record as an `<article>`.
pub fn record(r: &Record, out: &mut String) {
    let _ = write!(
        out,
        "<article class=\"board\" id=\"game-{}\"><h2>{}</h2>",
        r.game + 1,
        escape(&r.title())
    );
    let mut meta = r.subtitle();
    if let Some(e) = &r.event {
        meta = if meta.is_empty() {
            e.clone()
        } else {
            format!("{meta} · {e}")
        };
    }
    if !meta.is_empty() {
        let _ = write!(out, "<p class=\"meta\">{}</p>", escape(&meta));
    }
    if r.has_deal() {
        deal(r, out);
        if let Some(n) = r.end_position {
            let _ = write!(out, "<p>End position: {n} cards per hand.</p>");
        }
    }
    out.push_str("<div class=\"cols\">");
    auction(r, out);
    dd(r, out);
    out.push_str("</div>");
    if let Some(c) = &r.contract {
        let _ = write!(
            out,
            "<p class=\"result\"><b>Contract:</b> {}</p>",
            pieces(c)
        );
    }
    match (&r.par, &r.optimum_score) {
        (Some(p), Some(s)) => {
            let _ = write!(
                out,
                "<p class=\"result\"><b>Par:</b> {} ({})</p>",
                escape(p),
                escape(s)
            );
        }
        (Some(p), None) => {
            let _ = write!(out, "<p class=\"result\"><b>Par:</b> {}</p>", escape(p));
        }
        (None, Some(s)) => {
            let _ = write!(
                out,
                "<p class=\"result\"><b>Optimum score:</b> {}</p>",
                escape(s)
            );
        }
        (None, None) => {}
    }
    dd_analysis(r, out);
    play(r, out);
    for c in &r.commentary {
        let _ = write!(out, "<div class=\"commentary\">{}</div>", pieces(c));
    }
    if !r.errors.is_empty() {
        out.push_str("<details class=\"problems\"><summary>Problems</summary><ul>");
        for e in &r.errors {
            let _ = write!(out, "<li>{}</li>", escape(e));
        }
        out.push_str("</ul></details>");
    }
    out.push_str("</article>\n");
}

/// The page's title: the Event the games share, else `Hand records:` and
/// the file's name.
pub fn title(records: &[Record], file: &str) -> String {
    let mut events = records.iter().map(|r| r.event.as_deref());
    match events.next() {
        Some(Some(e)) if events.all(|x| x == Some(e)) => e.to_owned(),
        _ => format!("Hand records: {file}"),
    }
}

/// The page: a heading and one article per record.
pub fn page(title: &str, records: &[Record]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>{CSS}</style></head>\n<body><main><h1>{t}</h1>\n",
        t = escape(title)
    );
    for r in records {
        record(r, &mut out);
    }
    if records.is_empty() {
        out.push_str("<p>No games.</p>");
    }
    out.push_str("</main></body></html>\n");
    out
}
