//! The scoring arithmetic (`pbn_core::bridge::scoring`) against every real
//! ScoreTable of the shared corpus that states it: each board's Butler
//! datum (`ButlerDatum`) and each row's IMPs (`IMP_NS`, `IMP_EW`),
//! recomputed from the rows' NS scores by the game's `Scoring` (§3.4.12,
//! §5.9), and each pair's `TotalScoreIMP` in a TotalScoreTable (§5.10)
//! against the sum of its rows over the file's boards. The summary, with
//! every disagreement, is the snapshot `scoring_corpus__agreement.snap`.

use pbn_core::bridge::scoring::{butler_datum, imps, Datum};
use pbn_core::model::values::table::parse_columns;
use pbn_core::model::{lower, Game};
use pbn_core::syntax::parse;
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The rows of a game's table `name`: each a map of column name to cell.
fn rows(g: &Game, name: &str) -> Vec<BTreeMap<String, String>> {
    let Some(i) = g.tags.iter().position(|t| t.name == name) else {
        return Vec::new();
    };
    let Some(value) = g.tags[i].value.as_ref() else {
        return Vec::new();
    };
    let Some(cols) = parse_columns(&value.raw).value.filter(|c| !c.is_empty()) else {
        return Vec::new();
    };
    let Some(s) = g.sections.iter().find(|s| s.tag == i) else {
        return Vec::new();
    };
    s.elements
        .chunks_exact(cols.len())
        .map(|r| {
            cols.iter()
                .zip(r)
                .map(|(c, e)| (c.name.clone(), e.text.to_string()))
                .collect()
        })
        .collect()
}

fn int(row: &BTreeMap<String, String>, col: &str) -> Option<i32> {
    row.get(col)?.trim().parse().ok()
}

/// A row's NS score: Score_NS, else minus Score_EW.
fn ns_score(row: &BTreeMap<String, String>) -> Option<i32> {
    int(row, "Score_NS").or_else(|| int(row, "Score_EW").map(|s| -s))
}

#[test]
fn corpus_score_tables_agree_with_the_arithmetic() {
    let Some(dir) = corpus_dir() else { return };
    let mut out = String::new();
    for (name, source) in corpus_sources(&dir) {
        let text = &source.text;
        let doc = lower(&parse(text), text);
        let (mut boards, mut datums, mut cells, mut agree) = (0, 0, 0, 0);
        let mut wrong = String::new();
        // Each pair's IMPs summed over the boards, in either direction.
        let mut totals: BTreeMap<String, i32> = BTreeMap::new();
        for g in &doc.games {
            let scoring = g.value("Scoring").unwrap_or("");
            let fields: Vec<&str> = scoring.split(';').map(str::trim).collect();
            if !fields.iter().any(|f| f.starts_with("Butler")) {
                continue;
            }
            let without_extremes = fields.contains(&"Butler-2");
            let how = if fields.contains(&"Median") {
                Datum::Median
            } else {
                Datum::Mean
            };
            let table = rows(g, "ScoreTable");
            let scores: Vec<i32> = table.iter().filter_map(ns_score).collect();
            if scores.len() != table.len() || table.is_empty() {
                continue;
            }
            boards += 1;
            let board = g.value("Board").unwrap_or("?");
            let datum = butler_datum(&scores, without_extremes, how).unwrap();
            for row in &table {
                if let Some(stated) = int(row, "ButlerDatum") {
                    datums += 1;
                    if stated != datum {
                        writeln!(
                            wrong,
                            "  board {board}: ButlerDatum {stated}, computed {datum}"
                        )
                        .unwrap();
                    }
                    break;
                }
            }
            for row in &table {
                let n = imps(ns_score(row).unwrap() - datum);
                for (col, want) in [("IMP_NS", n), ("IMP_EW", -n)] {
                    let Some(stated) = int(row, col) else {
                        continue;
                    };
                    cells += 1;
                    if stated == want {
                        agree += 1;
                    } else {
                        writeln!(wrong, "  board {board}: {col} {stated}, computed {want}")
                            .unwrap();
                    }
                }
                for (id, sign) in [("PairId_NS", 1), ("PairId_EW", -1)] {
                    if let Some(p) = row.get(id) {
                        *totals.entry(p.trim().to_owned()).or_default() += sign * n;
                    }
                }
            }
        }
        if boards == 0 {
            continue;
        }
        let (mut pairs, mut pairs_agree) = (0, 0);
        for g in &doc.games {
            for row in rows(g, "TotalScoreTable") {
                let (Some(p), Some(d), Some(stated)) = (
                    row.get("PairId"),
                    row.get("Direction"),
                    int(&row, "TotalScoreIMP"),
                ) else {
                    continue;
                };
                let Some(&sum) = totals.get(p.trim()) else {
                    continue;
                };
                pairs += 1;
                if sum == stated {
                    pairs_agree += 1;
                } else {
                    writeln!(wrong, "  pair {p} {d}: TotalScoreIMP {stated}, sum {sum}").unwrap();
                }
            }
        }
        writeln!(
            out,
            "{name}: {boards} boards, {datums} datums stated, \
             {agree} of {cells} IMP cells agree, {pairs_agree} of {pairs} pair totals agree"
        )
        .unwrap();
        out.push_str(&wrong);
    }
    assert!(!out.is_empty(), "no corpus file states Butler scores");
    insta::assert_snapshot!("agreement", out);
}

/// `pbn score`'s report (`pbn_core::render::score`) on every corpus file
/// with a ScoreTable: how many of the figures each states agree with the
/// computation, and every one that does not, with what the file says and
/// what the computation gives.
#[test]
fn corpus_score_reports() {
    let Some(dir) = corpus_dir() else { return };
    let mut out = String::new();
    for (name, source) in corpus_sources(&dir) {
        let text = &source.text;
        let doc = lower(&parse(text), text);
        let r = pbn_core::render::score::report(&doc);
        if r.boards == 0 {
            continue;
        }
        writeln!(
            out,
            "{name}: {} boards, {} of {} stated figures agree",
            r.boards,
            r.compared - r.differences,
            r.compared
        )
        .unwrap();
        for line in r
            .text
            .lines()
            .filter(|l| l.contains("(file ") || l.contains(", computed "))
        {
            writeln!(out, "  {}", line.trim()).unwrap();
        }
    }
    assert!(!out.is_empty(), "no corpus file has a ScoreTable");
    insta::assert_snapshot!("reports", out);
}
