//! `pbn score`: each board's ScoreTable with its figures recomputed by the
//! game's Scoring ([`crate::model::score_table`]), every figure the file
//! states differently, and each pair's totals and rank over the file's
//! boards, beside what a TotalScoreTable states (§3.4.12, §5.9, §5.10).

use crate::model::score_table::{
    agrees, totals, write_like, Kind, PairTotal, ScoreMark, ScoreTable, Totals, Verdict, FIGURES,
};
use crate::model::values::parse_decimal;
use crate::model::{Document, Game};
use std::fmt::Write;

/// What `pbn score` prints for a file.
#[derive(Debug, Default)]
pub struct ScoreReport {
    pub text: String,
    /// Boards with a ScoreTable.
    pub boards: usize,
    /// Figures the file states that differ from the computation.
    pub differences: usize,
    /// Figures compared.
    pub compared: usize,
}

/// The columns that say which table a row is, printed as the file has them.
const IDENTITY: [&str; 7] = [
    "Table",
    "Round",
    "PairId_NS",
    "PairId_EW",
    "Contract",
    "Declarer",
    "Result",
];

/// The report of a document.
pub fn report(doc: &Document) -> ScoreReport {
    let mut r = ScoreReport::default();
    for g in &doc.games {
        let Some(t) = ScoreTable::of(g) else { continue };
        r.boards += 1;
        board(&mut r, g, &t);
    }
    if r.boards == 0 {
        r.text
            .push_str("no game has a ScoreTable: nothing to score\n");
        return r;
    }
    let marks: Vec<(usize, ScoreMark)> = doc
        .games
        .iter()
        .filter_map(|g| Some((g.index, ScoreMark::of(g)?)))
        .collect();
    let t = totals(marks.iter().map(|(g, m)| (*g, m)));
    pairs(&mut r, &t);
    stated_totals(&mut r, doc, &t);
    let _ = writeln!(
        r.text,
        "\n{} board{}, {} of {} stated figures agree{}",
        r.boards,
        if r.boards == 1 { "" } else { "s" },
        r.compared - r.differences,
        r.compared,
        if r.differences > 0 {
            " (`pbn score --write` writes the computed ones)"
        } else {
            ""
        }
    );
    r
}

/// A board's table with its figures recomputed, and its score tags.
fn board(r: &mut ScoreReport, g: &Game, t: &ScoreTable<'_>) {
    let m = &t.method;
    let b = &t.board;
    match g.value("Board") {
        Some(n) if !n.is_empty() => {
            let _ = write!(r.text, "Board {n}");
        }
        _ => {
            let _ = write!(r.text, "Game {}", g.index + 1);
        }
    }
    if t.scoring.is_empty() {
        let _ = writeln!(r.text, ": no Scoring tag, so nothing to compute (§3.4.12)");
        return;
    }
    let figures: Vec<(&str, Kind, bool)> = FIGURES
        .iter()
        .copied()
        .filter(|&(_, k, ew)| (0..t.rows.len()).any(|i| t.computed(i, k, ew).is_some()))
        .collect();
    let _ = write!(r.text, " (`{}`), {} tables", t.scoring, b.tables());
    if figures.is_empty() {
        let why = if m.imp_scale.is_none() {
            "the IMP scale of IMP_1961 is not known to pbn"
        } else if m.imps.is_some() || m.matchpoints {
            "no row has a score to compare"
        } else {
            "not a method pbn computes (matchpoints, Butler, Cross, or IMPs over two tables)"
        };
        let _ = writeln!(r.text, ": {why}");
        return;
    }
    if m.matchpoints {
        let (scale, inferred) = t.mp_scale;
        let _ = write!(
            r.text,
            ", top {} by {}{}",
            write_like("", b.top(scale)),
            scale.name(),
            if inferred {
                " (the scale the stated figures fit)"
            } else {
                ""
            }
        );
    }
    if let Some(d) = (0..t.rows.len()).find_map(|i| t.computed(i, Kind::Datum, false)) {
        let _ = write!(r.text, ", datum {d}");
    }
    r.text.push('\n');
    let ids: Vec<(&str, usize)> = IDENTITY
        .iter()
        .filter_map(|&c| Some((c, t.column(c)?)))
        .collect();
    let mut lines: Vec<Vec<String>> = Vec::new();
    let mut head: Vec<String> = ids.iter().map(|(c, _)| c.to_string()).collect();
    head.push("Score_NS".into());
    head.extend(figures.iter().map(|(c, _, _)| c.to_string()));
    lines.push(head);
    for (i, row) in t.rows.iter().enumerate() {
        let mut line: Vec<String> = ids.iter().map(|&(_, k)| row[k].text.to_string()).collect();
        line.push(b.rows[i].0.map_or("-".into(), |s| s.to_string()));
        for &(c, k, ew) in &figures {
            let Some(v) = t.computed(i, k, ew) else {
                line.push("-".into());
                continue;
            };
            let stated = t.column(c).map(|k| row[k].text.as_str());
            let mut cell = write_like("", v);
            if let Some(s) = stated.filter(|s| parse_decimal(s).is_some()) {
                r.compared += 1;
                if !agrees(s, v) {
                    r.differences += 1;
                    let _ = write!(cell, " (file {s})");
                }
            }
            line.push(cell);
        }
        lines.push(line);
    }
    table(&mut r.text, &lines);
    for f in t.tag_figures(g) {
        r.compared += 1;
        if f.wrong.is_empty() {
            let _ = writeln!(r.text, "  {} \"{}\" agrees", f.tag, f.stated);
        } else {
            r.differences += 1;
            let _ = writeln!(
                r.text,
                "  {} \"{}\": {}",
                f.tag,
                f.stated,
                f.wrong.join(", ")
            );
        }
    }
    r.text.push('\n');
}

/// `lines` as columns, each as wide as its widest cell, numbers right.
fn table(out: &mut String, lines: &[Vec<String>]) {
    let n = lines.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..n)
        .map(|k| {
            lines
                .iter()
                .filter_map(|l| l.get(k))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for l in lines {
        let mut s = String::from(" ");
        for (k, c) in l.iter().enumerate() {
            let _ = write!(s, " {c:>w$}", w = width[k]);
        }
        out.push_str(s.trim_end());
        out.push('\n');
    }
}

/// Each pair's totals and rank.
fn pairs(r: &mut ScoreReport, t: &Totals<'_>) {
    if t.pairs.is_empty() {
        return;
    }
    let mp = t.pairs.iter().any(|p| p.scores_mp);
    let score = |p: &PairTotal| if mp { p.percentage() } else { p.imps };
    let mut rows: Vec<&PairTotal> = t.pairs.iter().collect();
    rows.sort_by(|a, b| {
        score(b)
            .total_cmp(&score(a))
            .then_with(|| (a.key.len(), &a.key).cmp(&(b.key.len(), &b.key)))
    });
    let _ = writeln!(
        r.text,
        "Pairs over the file's {} boards, ranked by {}",
        r.boards,
        if mp { "percentage" } else { "IMPs" }
    );
    let mut head = vec!["Rank", "PairId", "Boards", if mp { "MP" } else { "IMPs" }];
    if mp {
        head.push("Percentage");
    }
    let mut lines = vec![head.into_iter().map(String::from).collect::<Vec<_>>()];
    let mut rank = 0;
    let mut last: Option<f64> = None;
    for (k, p) in rows.iter().enumerate() {
        if last.is_none_or(|l| (l - score(p)).abs() > 1e-9) {
            rank = k + 1;
            last = Some(score(p));
        }
        let mut line = vec![rank.to_string(), p.key.clone(), p.boards.to_string()];
        if mp {
            line.push(write_like("", p.mp));
            line.push(write_like("0.00", p.percentage()));
        } else {
            line.push(write_like("", p.imps));
        }
        lines.push(line);
    }
    table(&mut r.text, &lines);
}

/// Each TotalScoreTable figure against the pairs' totals.
fn stated_totals(r: &mut ScoreReport, doc: &Document, t: &Totals<'_>) {
    let mut game = None;
    let (mut agree, mut compared) = (0, 0);
    for c in &t.checks {
        if game != Some(c.game) {
            if game.is_some() {
                let _ = writeln!(r.text, "  {agree} of {compared} totals agree");
            }
            (agree, compared) = (0, 0);
            game = Some(c.game);
            let board = doc.games.get(c.game).and_then(|g| g.value("Board"));
            let _ = writeln!(
                r.text,
                "\nTotalScoreTable of board {}:",
                board.unwrap_or("?")
            );
        }
        let cell = c.cell;
        match &c.verdict {
            Verdict::Agrees => {
                compared += 1;
                agree += 1;
            }
            Verdict::Differs(v) => {
                compared += 1;
                r.differences += 1;
                let _ = writeln!(
                    r.text,
                    "  pair {}: {} {}, computed {}",
                    cell.id,
                    cell.column,
                    cell.text,
                    write_like(&cell.text, *v)
                );
            }
            Verdict::Unknown(why) => {
                let _ = writeln!(
                    r.text,
                    "  pair {}: {} {} not checked: {why}",
                    cell.id, cell.column, cell.text
                );
            }
        }
    }
    r.compared += compared;
    if game.is_some() {
        let _ = writeln!(r.text, "  {agree} of {compared} totals agree");
    }
}
