//! The reader's labels that become plain PBN tags: T, D, F, K, N, B and R
//! (L, E and S are read in [`super::read`]).

use super::read::{compact, split_colons, Field, GameOut, Reader};
use super::{number, SCORING};
use crate::codes::Severity;

/// T: `title:author` ("Detailed Explanation of Labels", T).
pub(super) fn read_title(g: &mut GameOut, f: &Field) {
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
pub(super) fn read_date(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
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

/// F: `form[:modifier]` ("Detailed Explanation of Labels", F) → Scoring.
pub(super) fn read_scoring(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
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
pub(super) fn read_teams(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
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
pub(super) fn read_names(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
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
pub(super) fn read_board(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
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

/// R: `<tricks>[±score][:effective]` ("Detailed Explanation of Labels", R).
pub(super) fn read_result(r: &mut Reader<'_>, g: &mut GameOut, f: &Field) {
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
