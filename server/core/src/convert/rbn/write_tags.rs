//! The writer's labels from plain PBN tags: T, D, L, E, S, F, K, N, B and R.

use super::write::GameWriter;
use super::{number, SCORING};
use crate::bridge;
use crate::convert::Part;
use crate::model::typed;
use crate::model::values::{self, ContractValue};

/// TLES data: colons doubled ("Detailed Explanation of Labels", T).
fn escape_colons(s: &str) -> String {
    s.replace(':', "::")
}

impl GameWriter<'_> {
    /// T from Description and Annotator.
    pub(super) fn write_title(&mut self) {
        let title = self.value("Description").map(escape_colons);
        let author = self.value("Annotator").map(escape_colons);
        match (title, author) {
            (None, None) => {}
            (t, None) => self.set(b'T', t.unwrap_or_default()),
            (t, Some(a)) => self.set(b'T', format!("{}:{a}", t.unwrap_or_default())),
        }
    }

    /// L, E and S from Site, Event and Stage.
    pub(super) fn write_texts(&mut self) {
        for (label, tag) in [(b'L', "Site"), (b'E', "Event"), (b'S', "Stage")] {
            if let Some(v) = self.value(tag) {
                let v = escape_colons(v);
                self.set(label, v);
            }
        }
    }

    /// F from Scoring, abbreviated where RBN has a letter for it.
    pub(super) fn write_scoring(&mut self) {
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
    }

    /// D from Date and Time.
    pub(super) fn write_date(&mut self) {
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

    /// K from HomeTeam and VisitTeam.
    pub(super) fn write_teams(&mut self) {
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

    /// N from the players and Room or Table.
    pub(super) fn write_names(&mut self) {
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

    /// B from Board and Section.
    pub(super) fn write_board(&mut self) {
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

    /// R from Result, Score and ScoreIMP or ScorePercentage.
    pub(super) fn write_result(&mut self, ty: &typed::TypedGame) {
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
}
