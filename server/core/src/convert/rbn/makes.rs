//! The M label both ways: RBN's double-dummy makes ↔ PBN's
//! OptimumResultTable (§5.7).

use super::read::{compact, Field, GameOut, Reader};
use super::write::GameWriter;
use crate::codes::Severity;
use crate::convert::Part;
use crate::model::values;
use crate::model::values::seat::seat_letter;

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
pub(super) fn read_makes(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
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

impl GameWriter<'_> {
    /// M's makes from the OptimumResultTable (§5.7; [`read_makes`]).
    pub(super) fn write_makes(&mut self) {
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
}
