//! A game's ScoreTable (§5.9) read for its arithmetic: each row's NS
//! score and how many tables it stands for, and each figure a row states
//! (MP, Percentage and IMP of either side, ButlerDatum) beside what the
//! board's scores give by the game's Scoring (§3.4.12,
//! [`crate::bridge::scoring`]). The checker (PBN0808, PBN0809, PBN0810),
//! `pbn score` and the hover on a row all read a board through here.

use super::values::{self, parse_columns, parse_decimal, parse_int, Column};
use super::{Element, Game, Inherit};
use crate::bridge;
use crate::bridge::scoring::{Board, CrossPer, Datum, ImpMethod, Method, MpScale};

/// A figure column of a ScoreTable (§5.9) or score tag (§4.2.2–§4.2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Matchpoints,
    Percentage,
    Imps,
    Datum,
}

/// The figure columns: name, kind, and whether it is EW's.
pub const FIGURES: [(&str, Kind, bool); 7] = [
    ("MP_NS", Kind::Matchpoints, false),
    ("MP_EW", Kind::Matchpoints, true),
    ("Percentage_NS", Kind::Percentage, false),
    ("Percentage_EW", Kind::Percentage, true),
    ("IMP_NS", Kind::Imps, false),
    ("IMP_EW", Kind::Imps, true),
    ("ButlerDatum", Kind::Datum, false),
];

/// The score tags (§4.2.2–§4.2.4) and the kind of their figures.
pub const FIGURE_TAGS: [(&str, Kind); 3] = [
    ("ScoreMP", Kind::Matchpoints),
    ("ScoreIMP", Kind::Imps),
    ("ScorePercentage", Kind::Percentage),
];

/// A game's ScoreTable with its board.
pub struct ScoreTable<'g> {
    pub columns: Vec<Column>,
    /// Each row's elements.
    pub rows: Vec<&'g [Element]>,
    /// Each row's NS score and multiplicity.
    pub board: Board,
    /// The Scoring tag's value (`""` without one) and its method.
    pub scoring: &'g str,
    pub method: Method,
    /// The matchpoint scale: the one Scoring names, else the one the
    /// stated MP cells fit (MP1 when both fit, §4.2.3), with `true`.
    pub mp_scale: (MpScale, bool),
}

/// A figure a row states and what the board's scores give.
#[derive(Clone, Debug)]
pub struct Figure<'g> {
    pub row: usize,
    pub column: &'static str,
    pub kind: Kind,
    /// An EW column: NS's figure's complement.
    pub ew: bool,
    pub cell: &'g Element,
    pub stated: f64,
    pub computed: f64,
}

impl Figure<'_> {
    /// Whether the stated figure is the computed one, to the decimals it is
    /// written with.
    pub fn agrees(&self) -> bool {
        agrees(&self.cell.text, self.computed)
    }

    /// The computed figure written as the cell writes its numbers.
    pub fn written(&self) -> String {
        write_like(&self.cell.text, self.computed)
    }
}

/// The decimals of a written number (`84.09`: 2).
fn decimals(text: &str) -> usize {
    text.split_once('.').map_or(0, |(_, f)| f.len())
}

/// Whether `stated` is `computed` rounded to its own decimals.
pub fn agrees(stated: &str, computed: f64) -> bool {
    let Some(v) = parse_decimal(stated.strip_prefix('^').unwrap_or(stated)) else {
        return true;
    };
    (v - computed).abs() <= 0.5 * 10f64.powi(-(decimals(stated) as i32)) + 1e-9
}

/// `value` written with the decimals it needs, up to 2; when it needs
/// more, rounded to those of `like` or to 2.
pub fn write_like(like: &str, value: f64) -> String {
    let exact = (0..=2usize).find(|&d| {
        let f = 10f64.powi(d as i32);
        ((value * f).round() / f - value).abs() < 1e-9
    });
    let d = exact.unwrap_or_else(|| decimals(like).max(2));
    let s = format!("{value:.d$}");
    // No `-0`.
    if s.trim_start_matches('-')
        .bytes()
        .all(|b| b == b'0' || b == b'.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

impl<'g> ScoreTable<'g> {
    /// The ScoreTable of `g`, if it has one with columns.
    pub fn of(g: &'g Game) -> Option<ScoreTable<'g>> {
        let i = g.tags.iter().position(|t| t.name == "ScoreTable")?;
        let columns = parse_columns(&g.tags[i].value.as_ref()?.raw)
            .value
            .filter(|c| !c.is_empty())?;
        let section = g.sections.iter().find(|s| s.tag == i)?;
        let rows: Vec<&[Element]> = section.elements.chunks_exact(columns.len()).collect();
        let col = |name: &str| columns.iter().position(|c| c.name == name);
        let (sns, sew, mult) = (col("Score_NS"), col("Score_EW"), col("Multiplicity"));
        // A number, `^` (artificial, §5.2) dropped; far beyond any bridge
        // score is no score.
        let number = |r: &[Element], k: usize| {
            let t = r[k].text.as_str();
            parse_int(t.strip_prefix('^').unwrap_or(t))
                .filter(|n| n.abs() <= 100_000)
                .map(|n| n as i32)
        };
        let board = Board {
            rows: rows
                .iter()
                .map(|r| {
                    let ns = sns
                        .and_then(|k| number(r, k))
                        .or_else(|| sew.and_then(|k| number(r, k)).map(|n| -n));
                    let w = mult
                        .and_then(|k| parse_int(&r[k].text))
                        .filter(|&w| (1..=1000).contains(&w))
                        .unwrap_or(1);
                    (ns, w as u32)
                })
                .collect(),
        };
        let (scoring, method) = method_of(g);
        let mut t = ScoreTable {
            columns,
            rows,
            board,
            scoring,
            method,
            mp_scale: (MpScale::Mp1, false),
        };
        t.mp_scale = match method.mp_scale {
            Some(s) => (s, false),
            None => {
                let fits = |s: MpScale| {
                    t.figures_by(s)
                        .iter()
                        .filter(|f| f.kind == Kind::Matchpoints && f.agrees())
                        .count()
                };
                let (one, two) = (fits(MpScale::Mp1), fits(MpScale::Mp2));
                (
                    if two > one {
                        MpScale::Mp2
                    } else {
                        MpScale::Mp1
                    },
                    true,
                )
            }
        };
        Some(t)
    }

    /// Whether the Scoring tag names how figures of `kind` are computed:
    /// all but matchpoints on the scale the stated figures fit (Scoring
    /// names no `MP1`, `MP2` or `BAM`).
    pub fn named(&self, kind: Kind) -> bool {
        kind != Kind::Matchpoints || !self.mp_scale.1
    }

    /// The index of column `name`.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }

    /// What the board's scores give row `i` in a figure column, by the
    /// method; `None` when the method does not say or the row has no score.
    pub fn computed(&self, i: usize, kind: Kind, ew: bool) -> Option<f64> {
        self.computed_by(i, kind, ew, self.mp_scale.0)
    }

    fn computed_by(&self, i: usize, kind: Kind, ew: bool, scale: MpScale) -> Option<f64> {
        let b = &self.board;
        let m = &self.method;
        let ns = match kind {
            Kind::Matchpoints if m.matchpoints => b.matchpoints(i, scale)?,
            Kind::Percentage if m.matchpoints => b.percentage(i)?,
            Kind::Imps => b.imps(i, m.imps?, m.imp_scale?)?,
            Kind::Datum => match m.imps? {
                ImpMethod::Butler {
                    without_extremes,
                    datum,
                } => {
                    m.imp_scale?;
                    return b.datum(without_extremes, datum).map(f64::from);
                }
                _ => return None,
            },
            _ => return None,
        };
        Some(match (kind, ew) {
            (_, false) => ns,
            (Kind::Matchpoints, true) => b.top(scale) - ns,
            (Kind::Percentage, true) => 100.0 - ns,
            _ => -ns,
        })
    }

    /// Every figure the rows state that the method computes.
    pub fn figures(&self) -> Vec<Figure<'g>> {
        self.figures_by(self.mp_scale.0)
    }

    fn figures_by(&self, scale: MpScale) -> Vec<Figure<'g>> {
        let mut out = Vec::new();
        for (column, kind, ew) in FIGURES {
            let Some(k) = self.column(column) else {
                continue;
            };
            for (i, r) in self.rows.iter().enumerate() {
                let cell = &r[k];
                let Some(stated) = parse_decimal(&cell.text) else {
                    continue;
                };
                let Some(computed) = self.computed_by(i, kind, ew, scale) else {
                    continue;
                };
                out.push(Figure {
                    row: i,
                    column,
                    kind,
                    ew,
                    cell,
                    stated,
                    computed,
                });
            }
        }
        out.sort_by_key(|f| f.cell.range.start);
        out
    }

    /// The first row whose NS score is `ns`: a game's own row (rows with
    /// the same score have the same figures).
    pub fn row_of(&self, ns: i32) -> Option<usize> {
        self.board.rows.iter().position(|r| r.0 == Some(ns))
    }
}

/// A game's ScoreMP, ScoreIMP or ScorePercentage (§4.2.2–§4.2.4) beside
/// its own row's figures.
#[derive(Clone, Debug)]
pub struct TagFigure {
    pub tag: &'static str,
    pub kind: Kind,
    /// The game's row.
    pub row: usize,
    /// The value's range (inside the quotes) and text.
    pub range: std::ops::Range<usize>,
    pub stated: String,
    /// The value with each number that differs replaced by the computed one.
    pub computed: String,
    /// Each number that differs: `NS 11 should be 12`.
    pub wrong: Vec<String>,
}

impl ScoreTable<'_> {
    /// The game's ScoreMP, ScoreIMP and ScorePercentage against the figures
    /// of its own row: the row with its NS score ([`game_score`]).
    pub fn tag_figures(&self, g: &Game) -> Vec<TagFigure> {
        let Some(row) = game_score(g, self.method.old_mp).and_then(|ns| self.row_of(ns)) else {
            return Vec::new();
        };
        let declarer_ns = g
            .value("Declarer")
            .and_then(|d| values::parse_declarer(d).value)
            .and_then(|d| d.tag().auction_declarer())
            .map(bridge::is_north_south);
        let mut out = Vec::new();
        for (tag, kind) in FIGURE_TAGS {
            let Some(v) = g
                .tags
                .iter()
                .find(|x| x.name == tag && x.inherit == Inherit::None)
                .and_then(|x| x.value.as_ref())
                .filter(|v| v.quoted && v.terminated)
            else {
                continue;
            };
            let (Some(ns), Some(ew)) = (
                self.computed(row, kind, false),
                self.computed(row, kind, true),
            ) else {
                continue;
            };
            let Some(items) = side_items(&v.raw, declarer_ns) else {
                continue;
            };
            let mut computed = v.raw.to_string();
            let mut wrong = Vec::new();
            for (ew_side, range) in items.iter().rev() {
                let want = if *ew_side { ew } else { ns };
                let text = &v.raw[range.clone()];
                if !agrees(text, want) {
                    let w = write_like(text, want);
                    let side = if *ew_side { "EW" } else { "NS" };
                    wrong.push(format!("{side} {text} should be {w}"));
                    computed.replace_range(range.clone(), &w);
                }
            }
            wrong.reverse();
            out.push(TagFigure {
                tag,
                kind,
                row,
                range: v.range.clone(),
                stated: v.raw.to_string(),
                computed,
                wrong,
            });
        }
        out
    }
}

/// The numbers of a value in the five forms of the Score tag (§4.2.1):
/// whether each is EW's, and its range; a bare number is the declarer's
/// side's (`declarer_ns`). `None` when the value is not in those forms.
fn side_items(raw: &str, declarer_ns: Option<bool>) -> Option<Vec<(bool, std::ops::Range<usize>)>> {
    let words: Vec<(usize, &str)> = raw
        .split(values::is_ws)
        .scan(0, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let number = |&(o, w): &(usize, &str)| parse_decimal(w).map(|_| o..o + w.len());
    match words.as_slice() {
        [x] => Some(vec![(!declarer_ns?, number(x)?)]),
        [(_, side), x, rest @ ..] => {
            let mut out = vec![(*side == "EW", number(x)?)];
            match rest {
                [] => {}
                [(_, other), y] if other != side => out.push((*other == "EW", number(y)?)),
                _ => return None,
            }
            matches!(*side, "NS" | "EW").then_some(out)
        }
        _ => None,
    }
}

impl ScoreTable<'_> {
    /// How the board's scores give row `i` its figure of `kind`, in words
    /// (the diagnostics, `pbn score` and the hover on a row say it so).
    pub fn explain(&self, i: usize, kind: Kind) -> Option<String> {
        let b = &self.board;
        let me = b.rows.get(i)?.0?;
        let (n, scored) = (b.tables(), b.scored());
        let factored = if n == scored {
            String::new()
        } else {
            let none = n - scored;
            format!(
                ", factored up to {n} tables as {none} of them {} no score",
                if none == 1 { "has" } else { "have" }
            )
        };
        Some(match kind {
            Kind::Matchpoints | Kind::Percentage => {
                let (lower, equal) = b.beaten_tied(i)?;
                let (scale, inferred) = self.mp_scale;
                let mp = b.matchpoints(i, scale)?;
                let top = b.top(scale);
                let pct = b.percentage(i)?;
                format!(
                    "NS {me} beat {lower} and tied {equal} of the other {} scored tables: {} of a \
                     top of {} by {}{}{factored} ({}%)",
                    scored.saturating_sub(1),
                    write_like("", mp),
                    write_like("", top),
                    scale.name(),
                    if inferred {
                        ", the scale the stated matchpoints fit (Scoring names none)"
                    } else {
                        ""
                    },
                    write_like("", pct),
                )
            }
            Kind::Imps | Kind::Datum => {
                let scale = self.method.imp_scale?;
                let imps = b.imps(i, self.method.imps?, scale)?;
                match self.method.imps? {
                    ImpMethod::Butler {
                        without_extremes,
                        datum,
                    } => {
                        let d = b.datum(without_extremes, datum)?;
                        format!(
                            "the datum is the {} of the board's {scored} scores{}, to the nearest \
                             10: {d}; NS {me} against it is {:+} = {} IMPs",
                            match datum {
                                Datum::Mean => "mean",
                                Datum::Median => "median",
                            },
                            if without_extremes && scored > 2 {
                                " without the highest and the lowest"
                            } else {
                                ""
                            },
                            me - d,
                            write_like("", imps)
                        )
                    }
                    ImpMethod::Teams => format!(
                        "NS {me} against the other table's NS {} is {} IMPs by the {} scale",
                        b.other_table(i)?,
                        write_like("", imps),
                        scale.name()
                    ),
                    ImpMethod::Cross(per) => format!(
                        "NS {me} IMPed against each of the other {} scored tables, {}: {} IMPs",
                        scored.saturating_sub(1),
                        match per {
                            CrossPer::Nothing => "summed (Cross)",
                            CrossPer::Score => "the sum divided by the number of scores (Cross1)",
                            CrossPer::Comparison => {
                                "the sum divided by the number of comparisons (Cross2)"
                            }
                        },
                        write_like("", imps)
                    ),
                }
            }
        })
    }
}

/// A game's own NS score: its Score tag, else the duplicate score of its
/// Contract, Declarer and Result (by OldMP when `old_mp`).
pub fn game_score(g: &Game, old_mp: bool) -> Option<i32> {
    let declarer = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value)
        .and_then(|d| d.tag().auction_declarer());
    if let Some(s) = g.value("Score").and_then(|v| values::parse_score(v).value) {
        let ns = s.ns_value(declarer.map(bridge::is_north_south))?;
        return i32::try_from(ns).ok();
    }
    let Some(values::ContractValue::Contract(contract)) = g
        .value("Contract")
        .and_then(|v| values::parse_contract(v).value)
        .map(|c| c.value)
    else {
        return None;
    };
    let declarer = declarer?;
    let result = g
        .value("Result")
        .and_then(|v| values::parse_result(v).value)?;
    if result.differs_from_actual {
        return None;
    }
    let tricks = result
        .tricks?
        .for_declarer(bridge::is_north_south(declarer))?;
    let vul = g
        .value("Vulnerable")
        .and_then(|v| values::parse_vulnerable(v).value)
        .map_or(bridge::Vulnerability::NONE, |v| v.vulnerability);
    Some(crate::bridge::scoring::board_score(
        contract, declarer, tricks, vul, old_mp,
    ))
}

/// A game's Scoring value (`""` without one) and the method it names.
pub fn method_of(g: &Game) -> (&str, Method) {
    let scoring = g.value("Scoring").unwrap_or("");
    let parsed = values::parse_scoring(scoring).value;
    let method = Method::of(|f| parsed.as_ref().is_some_and(|s| s.has(f)));
    (scoring, method)
}

/// One pair's figures on one board, from a ScoreTable row.
#[derive(Clone, Debug, PartialEq)]
pub struct PairScore {
    pub id: String,
    /// Sat EW (else NS).
    pub ew: bool,
    /// Matchpoints and the board's top, when matchpoints are scored.
    pub mp: Option<(f64, f64)>,
    pub percentage: Option<f64>,
    pub imps: Option<f64>,
}

/// A figure a TotalScoreTable row states about a pair (§5.10).
#[derive(Clone, Debug, PartialEq)]
pub struct TotalCell {
    pub id: String,
    /// The row's Direction (`NS`, `EW`; `N-S` read so), if it has one.
    pub direction: Option<String>,
    /// The row's NrBoards.
    pub boards: Option<f64>,
    pub column: &'static str,
    pub text: String,
    pub range: std::ops::Range<usize>,
    pub quoted: bool,
}

/// What a game gives the totals across games (§5.10): its ScoreTable
/// rows' pairs and computed figures, and its TotalScoreTable's figures.
/// Ranges are document offsets ([`ScoreMark::shifted`] moves them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScoreMark {
    pub pairs: Vec<PairScore>,
    /// A row has the same PairId on both sides: each direction numbers its
    /// own pairs (a Mitchell movement).
    pub same_id_both_sides: bool,
    pub totals: Vec<TotalCell>,
}

/// The TotalScoreTable columns checked, and whether each is a mean.
const TOTAL_COLUMNS: [&str; 7] = [
    "TotalIMP",
    "TotalScoreIMP",
    "MeanIMP",
    "TotalMP",
    "MeanMP",
    "TotalPercentage",
    "MeanPercentage",
];

impl ScoreMark {
    /// The mark of `g`; `None` when it adds nothing to the totals.
    pub fn of(g: &Game) -> Option<ScoreMark> {
        let mut m = ScoreMark::default();
        if let Some(t) = ScoreTable::of(g) {
            let ids = (t.column("PairId_NS"), t.column("PairId_EW"));
            for (i, row) in t.rows.iter().enumerate() {
                for (k, ew) in [(ids.0, false), (ids.1, true)] {
                    let Some(id) = k.map(|k| row[k].text.trim()) else {
                        continue;
                    };
                    if matches!(id, "" | "-" | "?") {
                        continue;
                    }
                    let top = t.board.top(t.mp_scale.0);
                    m.pairs.push(PairScore {
                        id: id.to_string(),
                        ew,
                        mp: t.computed(i, Kind::Matchpoints, ew).map(|v| (v, top)),
                        percentage: t.computed(i, Kind::Percentage, ew),
                        imps: t.computed(i, Kind::Imps, ew),
                    });
                }
                if let (Some(a), Some(b)) = ids {
                    m.same_id_both_sides |= row[a].text.trim() == row[b].text.trim();
                }
            }
        }
        totals_of(g, &mut m.totals);
        (!m.pairs.is_empty() || !m.totals.is_empty()).then_some(m)
    }

    /// The mark with its ranges moved by `by`.
    pub fn shifted(mut self, by: isize) -> ScoreMark {
        for c in &mut self.totals {
            c.range = (c.range.start as isize + by) as usize..(c.range.end as isize + by) as usize;
        }
        self
    }
}

/// The figures of `g`'s TotalScoreTable.
fn totals_of(g: &Game, out: &mut Vec<TotalCell>) {
    let Some(i) = g.tags.iter().position(|t| t.name == "TotalScoreTable") else {
        return;
    };
    let Some(cols) = g.tags[i]
        .value
        .as_ref()
        .and_then(|v| parse_columns(&v.raw).value)
        .filter(|c| !c.is_empty())
    else {
        return;
    };
    let Some(s) = g.sections.iter().find(|s| s.tag == i) else {
        return;
    };
    let col = |n: &str| cols.iter().position(|c| c.name == n);
    let Some(kp) = col("PairId") else { return };
    for row in s.elements.chunks_exact(cols.len()) {
        for column in TOTAL_COLUMNS {
            let Some(cell) = col(column).map(|k| &row[k]) else {
                continue;
            };
            if parse_decimal(&cell.text).is_none() {
                continue;
            }
            out.push(TotalCell {
                id: row[kp].text.trim().to_string(),
                direction: col("Direction")
                    .map(|k| row[k].text.replace('-', "").trim().to_ascii_uppercase()),
                boards: col("NrBoards").and_then(|k| parse_decimal(&row[k].text)),
                column,
                text: cell.text.to_string(),
                range: cell.range.clone(),
                quoted: cell.quoted,
            });
        }
    }
}

/// A pair's figures summed over the file's boards.
#[derive(Clone, Debug, Default)]
pub struct PairTotal {
    /// The PairId, with ` NS` or ` EW` when each direction numbers its own.
    pub key: String,
    pub boards: u32,
    pub mp: f64,
    pub top: f64,
    /// The boards' percentages summed.
    pub percentages: f64,
    pub imps: f64,
    pub scores_mp: bool,
    pub scores_imps: bool,
}

impl PairTotal {
    /// The pair's percentage of the tops it played to.
    pub fn percentage(&self) -> f64 {
        if self.top > 0.0 {
            100.0 * self.mp / self.top
        } else {
            50.0
        }
    }

    /// What it gives a TotalScoreTable column.
    fn figure(&self, column: &str) -> Option<f64> {
        let n = f64::from(self.boards.max(1));
        let (known, v) = match column {
            "TotalIMP" | "TotalScoreIMP" => (self.scores_imps, self.imps),
            "MeanIMP" => (self.scores_imps, self.imps / n),
            "TotalMP" => (self.scores_mp, self.mp),
            "MeanMP" => (self.scores_mp, self.mp / n),
            _ => (self.scores_mp, self.percentage()),
        };
        known.then_some(v)
    }
}

/// A TotalScoreTable figure against the file's boards.
#[derive(Clone, Debug)]
pub struct TotalCheck<'m> {
    /// The game of the TotalScoreTable.
    pub game: usize,
    pub cell: &'m TotalCell,
    pub verdict: Verdict,
}

/// What the file's boards say of a total.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Agrees,
    /// The boards give this value.
    Differs(f64),
    /// The boards cannot say: why.
    Unknown(String),
}

/// Every pair's totals over the boards of the marks (by game), and each
/// TotalScoreTable figure against them.
pub struct Totals<'m> {
    pub pairs: Vec<PairTotal>,
    pub checks: Vec<TotalCheck<'m>>,
}

/// The totals of the marks, in game order.
pub fn totals<'m>(marks: impl Iterator<Item = (usize, &'m ScoreMark)>) -> Totals<'m> {
    let marks: Vec<(usize, &ScoreMark)> = marks.collect();
    let per_direction = marks.iter().any(|(_, m)| m.same_id_both_sides);
    let mut by_key: std::collections::BTreeMap<String, PairTotal> = Default::default();
    for (_, m) in &marks {
        for p in &m.pairs {
            let key = if per_direction {
                format!("{} {}", p.id, if p.ew { "EW" } else { "NS" })
            } else {
                p.id.clone()
            };
            let t = by_key.entry(key.clone()).or_default();
            t.key = key;
            t.boards += 1;
            if let (Some((mp, top)), Some(pct)) = (p.mp, p.percentage) {
                t.mp += mp;
                t.top += top;
                t.percentages += pct;
                t.scores_mp = true;
            }
            if let Some(v) = p.imps {
                t.imps += v;
                t.scores_imps = true;
            }
        }
    }
    let mut checks = Vec::new();
    for &(game, m) in &marks {
        for cell in &m.totals {
            let key = match (&cell.direction, per_direction) {
                (Some(d), true) => format!("{} {d}", cell.id),
                _ => cell.id.clone(),
            };
            let verdict = match by_key.get(&key) {
                None => Verdict::Unknown(format!("no board of the file has pair {key}")),
                Some(p) if cell.boards.is_some_and(|n| n != f64::from(p.boards)) => {
                    Verdict::Unknown(format!(
                        "the file holds {} of pair {key}'s {} boards",
                        p.boards,
                        cell.boards.unwrap_or_default()
                    ))
                }
                Some(p) => match p.figure(cell.column) {
                    None => Verdict::Unknown(format!(
                        "the Scoring of pair {key}'s boards does not compute {}",
                        cell.column
                    )),
                    // §5.10 calls TotalPercentage cumulative; programs
                    // write the session's percentage: either is read.
                    Some(v)
                        if agrees(&cell.text, v)
                            || cell.column == "TotalPercentage"
                                && agrees(&cell.text, p.percentages) =>
                    {
                        Verdict::Agrees
                    }
                    Some(v) => Verdict::Differs(v),
                },
            };
            checks.push(TotalCheck {
                game,
                cell,
                verdict,
            });
        }
    }
    Totals {
        pairs: by_key.into_values().collect(),
        checks,
    }
}
