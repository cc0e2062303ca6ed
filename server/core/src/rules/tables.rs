//! PBN08xx: supplemental sections and tables (§5). Column specifications
//! and cell formats are parsed by `model::values`.

use super::GameCtx;
use crate::bridge;
use crate::codes::tables as c;
use crate::diagnostic::{Applicability, Diagnostic, Fix};
use crate::model::score_table::{
    method_of, write_like, Figure, Kind, ScoreMark, ScoreTable, Verdict,
};
use crate::model::values::{
    self, parse_columns, parse_decimal, parse_int, Column, ContractValue, Order,
};
use crate::model::{CallToken, CardToken, CommentKind, Element};

pub fn check(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    for s in &g.sections {
        if s.tag == usize::MAX {
            continue;
        }
        let tag = &g.tags[s.tag];
        // §5.1: no commentary after a section element.
        if let Some(first) = s.elements.first() {
            // The section's data runs to the next tag (trailing comments are
            // not inside the section node).
            let end = g
                .tags
                .iter()
                .map(|t| t.range.start)
                .filter(|&p| p > first.range.start)
                .min()
                .unwrap_or(g.range.end);
            for cm in &g.comments {
                if cm.kind != CommentKind::Escape
                    && cm.range.start > first.range.start
                    && cm.range.start < end
                {
                    ctx.push(out, Diagnostic::new(
                        &c::COMMENT_IN_SECTION,
                        cm.range.start..cm.range.start + 1,
                        "comment after a section element; only the tag pair of a section may be followed by commentary (§5.1)",
                    ));
                }
            }
        }
        let Some(value) = &tag.value else { continue };
        if !matches!(
            tag.name.as_str(),
            "ActionTable"
                | "AuctionTimeTable"
                | "InstantScoreTable"
                | "OptimumPlayTable"
                | "OptimumResultTable"
                | "PlayTimeTable"
                | "ScoreTable"
                | "TotalScoreTable"
        ) {
            continue;
        }
        if let Some(cols) = parse_columns(&value.raw).value.filter(|c| !c.is_empty()) {
            let rows: Vec<&[Element]> = s.elements.chunks_exact(cols.len()).collect();
            column_order(ctx, &cols, &rows, out);
            if tag.name == "InstantScoreTable" {
                score_ranges(ctx, &cols, &rows, out);
            }
            if tag.name == "ScoreTable" {
                row_scores(ctx, &cols, &rows, out);
                figures(ctx, out);
            }
        }
        let columns = value.text.split(';').count().max(1);
        let n = s.elements.len();
        if n % columns != 0 {
            let last = &s.elements[n - n % columns];
            ctx.push(out, Diagnostic::new(
                &c::TABLE_ELEMENT_COUNT,
                last.range.start..s.elements[n - 1].range.end,
                format!(
                    "{n} elements do not fill rows of {columns} columns: the last row has {} (§5.2; use `?` for unknown and `-` for irrelevant elements)",
                    n % columns
                ),
            ));
        }
        let rows = n / columns;
        // §5.4 / §5.8: time tables need their section, one row per call/card.
        let (needs, count, label) = match tag.name.as_str() {
            "AuctionTimeTable" => (
                "Auction",
                g.auction.as_ref().map(|a| {
                    a.entries
                        .iter()
                        .filter(|e| {
                            !matches!(
                                e.token,
                                CallToken::Dash | CallToken::Terminator | CallToken::Continuation
                            )
                        })
                        .count()
                }),
                "calls",
            ),
            "PlayTimeTable" => (
                "Play",
                g.play.as_ref().map(|p| {
                    p.entries
                        .iter()
                        .filter(|e| matches!(e.token, CardToken::Card(_)))
                        .count()
                }),
                "cards",
            ),
            _ => continue,
        };
        let section_before = match needs {
            "Auction" => g
                .auction
                .as_ref()
                .is_some_and(|a| a.range.start < s.range.start),
            _ => g
                .play
                .as_ref()
                .is_some_and(|p| p.range.start < s.range.start),
        };
        if !section_before {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::TABLE_NEEDS_SECTION,
                    tag.range.clone(),
                    format!(
                        "an {needs} section must be given before the {} (§5.4, §5.8)",
                        tag.name
                    ),
                ),
            );
        } else if let Some(count) = count {
            if count != rows && n % columns == 0 {
                ctx.push(out, Diagnostic::new(
                    &c::TABLE_ROW_COUNT,
                    tag.range.clone(),
                    format!("{} has {rows} rows but the {} section has {count} {label}; each row times one of them, in order (§5.4, §5.8)", tag.name, needs),
                ));
            }
        }
    }
}

/// A table element's number for ordering: `^` (artificial score, §5.2)
/// dropped; `None` for `?`, `-` and text.
fn cell_number(text: &str) -> Option<f64> {
    parse_decimal(text.strip_prefix('^').unwrap_or(text))
}

/// §5.2: a `+` column is descending, a `-` column ascending. Columns with
/// elements that are not numbers (names, times) are not compared.
fn column_order(
    ctx: &GameCtx<'_>,
    cols: &[Column],
    rows: &[&[Element]],
    out: &mut Vec<Diagnostic>,
) {
    for (k, col) in cols.iter().enumerate() {
        let Some(order) = col.order else { continue };
        let cells = rows.iter().map(|r| &r[k]);
        let known: Vec<&Element> = cells
            .filter(|e| !matches!(e.text.as_str(), "?" | "-"))
            .collect();
        let Some(numbers) = known
            .iter()
            .map(|e| cell_number(&e.text))
            .collect::<Option<Vec<f64>>>()
        else {
            continue;
        };
        let wrong = numbers.windows(2).position(|w| match order {
            Order::Descending => w[1] > w[0],
            Order::Ascending => w[1] < w[0],
        });
        let Some(i) = wrong else { continue };
        let (sign, way) = match order {
            Order::Descending => ('+', "descending: highest value in the first row"),
            Order::Ascending => ('-', "ascending: lowest value in the first row"),
        };
        ctx.push(
            out,
            Diagnostic::new(
                &c::COLUMN_ORDER,
                known[i + 1].range.clone(),
                format!(
                    "column `{sign}{}` is marked {way}, but `{}` follows `{}` (§5.2)",
                    col.name,
                    known[i + 1].text,
                    known[i].text
                ),
            )
            .with_related(known[i].range.clone(), "the row before"),
        );
    }
}

/// One `<score_range>` of an InstantScoreTable (§5.5) as the integers it
/// holds, `lo..=hi` (`*` is unbounded).
fn score_range(text: &str) -> Option<(i128, i128)> {
    let int = |s: &str| parse_int(s).map(i128::from);
    match text.split_once(',') {
        None => int(text).map(|v| (v, v)),
        Some(("*", "*")) => None,
        Some(("*", b)) => Some((i128::MIN, int(b)? - 1)),
        Some((a, "*")) => Some((int(a)? + 1, i128::MAX)),
        Some((a, b)) => Some((int(a)? + 1, int(b)? - 1)),
    }
}

/// §5.5: "The score ranges do not overlap, and all the score ranges
/// together cover the whole score space." Scores are multiples of 10, so a
/// gap is a multiple of 10 no range holds.
fn score_ranges(
    ctx: &GameCtx<'_>,
    cols: &[Column],
    rows: &[&[Element]],
    out: &mut Vec<Diagnostic>,
) {
    for (k, col) in cols.iter().enumerate() {
        if !matches!(col.name.as_str(), "ScoreRange_NS" | "ScoreRange_EW") {
            continue;
        }
        let mut ranges = Vec::new();
        let mut complete = true;
        for r in rows {
            match score_range(&r[k].text) {
                Some((lo, hi)) => ranges.push((lo, hi, &r[k])),
                None => complete = false, // `?`, `-` or malformed (PBN0333)
            }
        }
        ranges.sort_by_key(|&(lo, hi, _)| (lo, hi));
        let mut problems = Vec::new();
        // The range reaching highest so far, against each next one.
        let mut reach: Option<(i128, &Element)> = None;
        for &(lo, hi, b) in &ranges {
            if let Some((top, a)) = reach {
                if lo <= top {
                    problems.push((
                        b,
                        a,
                        format!("score range `{}` overlaps `{}`", b.text, a.text),
                    ));
                } else if complete {
                    // The first multiple of 10 above `top`.
                    let x = top + 1;
                    let next = x + (10 - x.rem_euclid(10)) % 10;
                    if next < lo {
                        problems.push((
                            b,
                            a,
                            format!(
                                "no score range holds {next}, between `{}` and `{}`",
                                a.text, b.text
                            ),
                        ));
                    }
                }
            }
            if reach.is_none_or(|(top, _)| hi > top) {
                reach = Some((hi, b));
            }
        }
        if complete {
            if let (Some(&(lo, _, first)), Some((hi, last))) = (ranges.first(), reach) {
                if lo != i128::MIN {
                    problems.push((first, first, format!("no score range holds the scores below `{}`; the lowest range is `*,<score>`", first.text)));
                }
                if hi != i128::MAX {
                    problems.push((last, last, format!("no score range holds the scores above `{}`; the highest range is `<score>,*`", last.text)));
                }
            }
        }
        for (at, other, msg) in problems.into_iter().take(3) {
            let mut d = Diagnostic::new(
                &c::SCORE_RANGES,
                at.range.clone(),
                format!("{msg} in column {}: the ranges do not overlap and together cover every score (§5.5)", col.name),
            );
            if !std::ptr::eq(at, other) {
                d = d.with_related(other.range.clone(), "the neighbouring range");
            }
            ctx.push(out, d);
        }
    }
}

/// §3.4.12, §5.9: each MP, Percentage, IMP and ButlerDatum figure of a
/// ScoreTable row against what the board's scores give by the game's
/// Scoring ([`ScoreTable::figures`]): matchpoints and percentages when it
/// scores matchpoints (PBN0809), IMPs and the datum when it names Butler,
/// Cross or (two tables) plain IMPs (PBN0808). Then the game's own
/// ScoreMP, ScoreIMP and ScorePercentage against its row (PBN0810). A fix
/// is safe where the Scoring tag names the method ([`ScoreTable::named`]):
/// the file says how the figure is computed, so the computed value is the
/// one it means. When most figures of a table differ, the one fix writing
/// them all is unsafe: the file computes them some other way.
fn figures(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let Some(t) = ScoreTable::of(ctx.game) else {
        return;
    };
    let all = t.figures();
    for (code, family, what) in [
        (
            &c::SCORE_TABLE_MATCHPOINTS,
            [Kind::Matchpoints, Kind::Percentage],
            "matchpoint and percentage",
        ),
        (
            &c::SCORE_TABLE_IMPS,
            [Kind::Imps, Kind::Datum],
            "IMP and datum",
        ),
    ] {
        let figures: Vec<&Figure<'_>> = all.iter().filter(|f| family.contains(&f.kind)).collect();
        let wrong: Vec<&Figure<'_>> = figures.iter().copied().filter(|f| !f.agrees()).collect();
        if wrong.len() >= MOSTLY && 2 * wrong.len() > figures.len() {
            mostly_differ(ctx, &t, (code, what), &wrong, figures.len(), out);
            continue;
        }
        for f in wrong.iter().take(20) {
            let want = f.written();
            let mut how = t.explain(f.row, f.kind).unwrap_or_default();
            if f.ew {
                how.push_str(match f.kind {
                    Kind::Matchpoints => "; EW's is the top minus NS's",
                    Kind::Percentage => "; EW's is 100 minus NS's",
                    _ => "; EW's is minus NS's",
                });
            }
            ctx.push(
                out,
                Diagnostic::new(
                    code,
                    f.cell.range.clone(),
                    format!(
                        "{} is {}, but the board's scores give {want} by `{}`: {how} (§3.4.12, §5.9)",
                        f.column, f.cell.text, t.scoring
                    ),
                )
                .with_fix(Some(cell_fix(
                    f.cell.range.clone(),
                    f.cell.quoted,
                    &want,
                    t.named(f.kind),
                ))),
            );
        }
    }
    score_tags(ctx, &t, out);
}

/// At least this many figures of a table differ, and more than half of
/// them: the file computes them some other way (another convention, a
/// Scoring tag that does not say how), reported once for the table.
const MOSTLY: usize = 4;

/// One diagnostic for a table whose figures mostly differ, on the first,
/// with one fix writing every computed figure.
fn mostly_differ(
    ctx: &GameCtx<'_>,
    t: &ScoreTable<'_>,
    (code, what): (&'static crate::codes::CodeInfo, &str),
    wrong: &[&Figure<'_>],
    of: usize,
    out: &mut Vec<Diagnostic>,
) {
    let f = wrong[0];
    let edits = wrong
        .iter()
        .flat_map(|w| cell_fix(w.cell.range.clone(), w.cell.quoted, &w.written(), false).edits)
        .collect();
    ctx.push(
        out,
        Diagnostic::new(
            code,
            f.cell.range.clone(),
            format!(
                "{} of the {of} {what} figures of this ScoreTable differ from what the board's \
                 scores give by `{}`, so the file computes them some other way; the first: {} is \
                 {}, computed {} ({}); `pbn score` shows each (§3.4.12, §5.9)",
                wrong.len(),
                t.scoring,
                f.column,
                f.cell.text,
                f.written(),
                t.explain(f.row, f.kind).unwrap_or_default()
            ),
        )
        .with_fix(Some(Fix::new(
            format!("Write the {} computed figures", wrong.len()),
            edits,
            Applicability::Unsafe,
        ))),
    );
}

/// A fix writing `want` over a table cell at `range` (its quotes
/// included), quoted if it was; safe when the Scoring tag names how the
/// figure is computed (`named`).
fn cell_fix(range: std::ops::Range<usize>, quoted: bool, want: &str, named: bool) -> Fix {
    let new = if quoted {
        format!("\"{want}\"")
    } else {
        want.to_string()
    };
    Fix::replace(
        format!("Write {want}"),
        range,
        new,
        Applicability::safe_if(named),
    )
}

/// §4.2.2–§4.2.4: the game's ScoreMP, ScoreIMP and ScorePercentage are the
/// figures of its own score in its ScoreTable ([`ScoreTable::tag_figures`]).
fn score_tags(ctx: &GameCtx<'_>, t: &ScoreTable<'_>, out: &mut Vec<Diagnostic>) {
    for f in t.tag_figures(ctx.game) {
        if f.wrong.is_empty() {
            continue;
        }
        ctx.push(
            out,
            Diagnostic::new(
                &c::SCORE_TAG_FIGURES,
                f.range.clone(),
                format!(
                    "{}: {} by the game's ScoreTable and `{}`: {} (§4.2.2–§4.2.4)",
                    f.tag,
                    f.wrong.join(", "),
                    t.scoring,
                    t.explain(f.row, f.kind).unwrap_or_default()
                ),
            )
            .with_fix(Some(Fix::replace(
                format!("Write \"{}\"", f.computed),
                f.range.clone(),
                f.computed.clone(),
                Applicability::safe_if(t.named(f.kind)),
            ))),
        );
    }
}

/// §5.9: a ScoreTable row's Score_NS (Score_EW) is the trick score of its
/// Contract, Declarer and Result at the game's vulnerability. Artificial
/// scores (`^`), `?` and `-` are not compared; like PBN0907 a warning, as
/// an irregularity can change a score.
fn row_scores(ctx: &GameCtx<'_>, cols: &[Column], rows: &[&[Element]], out: &mut Vec<Diagnostic>) {
    let col = |name: &str| cols.iter().position(|c| c.name == name);
    let (Some(kc), Some(kd), Some(kr)) = (col("Contract"), col("Declarer"), col("Result")) else {
        return;
    };
    let (sns, sew) = (col("Score_NS"), col("Score_EW"));
    if sns.is_none() && sew.is_none() {
        return;
    }
    let vul = ctx
        .game
        .value("Vulnerable")
        .and_then(|v| values::parse_vulnerable(v).value)
        .map_or(bridge::Vulnerability::NONE, |v| v.vulnerability);
    let old_mp = method_of(ctx.game).1.old_mp;
    let mut reported = 0;
    for r in rows {
        let Some(ContractValue::Contract(contract)) =
            values::parse_contract(&r[kc].text).value.map(|c| c.value)
        else {
            continue;
        };
        let Some(declarer) = values::parse_declarer(&r[kd].text)
            .value
            .filter(|d| !d.swapped)
            .and_then(|d| d.seat)
        else {
            continue;
        };
        let Some(tricks) = parse_int(&r[kr].text).and_then(|n| u8::try_from(n).ok()) else {
            continue;
        };
        if tricks > 13 {
            continue;
        }
        let ns = i64::from(bridge::scoring::board_score(
            contract, declarer, tricks, vul, old_mp,
        ));
        // The claimed NS score: Score_NS, else minus Score_EW.
        let claim = |k: Option<usize>, sign: i64| {
            k.and_then(|k| parse_int(&r[k].text).map(|n| (sign * n, &r[k])))
        };
        let Some((claimed, cell)) = claim(sns, 1).or_else(|| claim(sew, -1)) else {
            continue;
        };
        if claimed == ns || reported >= 20 {
            continue;
        }
        reported += 1;
        ctx.push(
            out,
            Diagnostic::new(
                &c::SCORE_TABLE_SCORE,
                cell.range.clone(),
                format!(
                    "{} by {} taking {tricks} tricks scores NS {ns} at this game's vulnerability, \
                     not NS {claimed} (§5.9)",
                    r[kc].text,
                    bridge::seat_name(declarer)
                ),
            ),
        );
    }
}

/// §5.10: each TotalScoreTable figure against the pair's boards in the
/// file ([`crate::model::score_table::totals`] of every game's
/// [`ScoreMark`], `(game index, mark)` in game order, ranges in document
/// offsets). Figures the boards cannot say are not reported (`pbn score`
/// lists them). The fix is unsafe: a safe fix is made from its own game
/// alone, so that `pbn fmt` and the editor can fix one piece of a file at a
/// time; a total is made from every game (`pbn score --write` writes it).
pub fn score_totals<'m>(marks: impl Iterator<Item = (usize, &'m ScoreMark)>) -> Vec<Diagnostic> {
    let t = crate::model::score_table::totals(marks);
    let mut out = Vec::new();
    for c in &t.checks {
        let Verdict::Differs(v) = c.verdict else {
            continue;
        };
        let cell = c.cell;
        let want = write_like(&cell.text, v);
        out.push(
            Diagnostic::new(
                &c::TOTAL_SCORE_TABLE,
                cell.range.clone(),
                format!(
                    "{} of pair {} is {}, but its boards in the file give {want} (§5.10)",
                    cell.column, cell.id, cell.text
                ),
            )
            .with_fix(Some(cell_fix(
                cell.range.clone(),
                cell.quoted,
                &want,
                false,
            )))
            .with_game(Some(c.game)),
        );
    }
    out
}
