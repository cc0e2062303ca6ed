//! Table cells (any section whose tag value is a column spec, §5.2).

use super::HoverInput;
use crate::bridge;
use crate::bridge::side_score;
use crate::model::score_table::{Kind, ScoreTable};
use crate::model::typed::typed;
use crate::model::values::{self, ContractValue};
use crate::model::Game;
use std::ops::Range as ByteRange;

/// What a column of a table holds (§5.3-§5.10), by its name.
fn column_meaning(name: &str) -> Option<&'static str> {
    Some(match name {
        "Rank" => "rank order of the score (best rank on a tie)",
        "PairId" | "PairId_NS" | "PairId_EW" => "pair identification",
        "Names" | "Names_NS" | "Names_EW" => "the names of the players",
        "Contract" => "the contract, as in the Contract tag",
        "Declarer" => "the declarer",
        "Denomination" => "the denomination",
        "Result" => "tricks won by declarer",
        "Score_NS" => "trick score of NS",
        "Score_EW" => "trick score of EW",
        "IMP_NS" => "IMP score of NS",
        "IMP_EW" => "IMP score of EW",
        "MP_NS" => "MatchPoints of NS",
        "MP_EW" => "MatchPoints of EW",
        "Percentage_NS" => "percentage score of NS",
        "Percentage_EW" => "percentage score of EW",
        "Multiplicity" => "the multiplicity of the score",
        "TotalScore" => "cumulative scores",
        "TotalIMP" => "cumulative IMPs",
        "TotalMP" => "cumulative MatchPoints",
        "TotalPercentage" => "cumulative percentage",
        "MeanScore" => "mean score",
        "MeanIMP" => "mean IMPs",
        "MeanMP" => "mean MatchPoints",
        "MeanPercentage" => "mean percentage",
        "NrBoards" => "the number of games played",
        _ => return None,
    })
}

/// A cell of a table (any section whose tag value is a column spec,
/// §5.2): its row and column, what the column holds, and what the row's
/// contract, declarer and tricks score at the game's vulnerability ("2S by
/// N, 8 tricks → NS +110").
pub(super) fn table_cell_hover(
    h: &HoverInput<'_>,
    game: &Game,
    offset: usize,
) -> Option<(String, ByteRange<usize>)> {
    let (s, k) = game.sections.iter().find_map(|s| {
        let k = s
            .elements
            .iter()
            .position(|e| e.range.contains(&offset))
            .or_else(|| s.elements.iter().position(|e| e.range.end == offset))?;
        Some((s, k))
    })?;
    let tag = game.tags.get(s.tag)?;
    let cols = values::layout_columns(&tag.name, &tag.value.as_ref()?.raw)?;
    let (row, c) = (k / cols.len(), k % cols.len());
    let cells = s.elements.get(row * cols.len()..(row + 1) * cols.len());
    let col = &cols[c];
    let e = &s.elements[k];
    let mut md = format!(
        "**{}** row {}, column `{}`: **{}**",
        tag.name,
        row + 1,
        col.name,
        e.text
    );
    if let Some(m) = column_meaning(&col.name) {
        md.push_str(&format!(" — {m}"));
    }
    if let Some(meaning) = cells.and_then(|cells| row_meaning(h, game, &cols, cells)) {
        md.push_str("\n\n");
        md.push_str(&meaning);
    }
    if tag.name == "ScoreTable" {
        md.push_str(&row_figures(game, row));
    }
    Some((md, e.range.clone()))
}

/// What a table row's Contract (or Denomination), Declarer and Result
/// score: "4S by N, 10 tricks → NS +420"; a Denomination row (the
/// OptimumResultTable, §5.7) at the highest level the tricks make.
fn row_meaning(
    h: &HoverInput<'_>,
    game: &Game,
    cols: &[values::Column],
    cells: &[crate::model::Element],
) -> Option<String> {
    let cell = |name: &str| {
        cols.iter()
            .position(|c| c.name == name)
            .map(|i| cells[i].text.as_str())
    };
    let declarer = values::parse_declarer(cell("Declarer")?).value?.seat?;
    let tricks: u8 = cell("Result")?.parse().ok().filter(|n| *n <= 13)?;
    let contract = match (cell("Contract"), cell("Denomination")) {
        (Some(c), _) => match values::parse_contract(c).value?.value {
            ContractValue::Contract(c) => c,
            _ => return None,
        },
        (None, Some(d)) => contract_bridge::Contract {
            bid: contract_bridge::Bid {
                level: contract_bridge::Level::try_new(tricks.saturating_sub(6).max(1)).ok()?,
                strain: values::parse_denomination(d).value?,
            },
            penalty: contract_bridge::Penalty::Undoubled,
        },
        (None, None) => return None,
    };
    let t = typed(h.text, game);
    let vul = t.vulnerability()?;
    let score = bridge::duplicate_score(contract, declarer, tricks, vul);
    Some(format!(
        "{} by {}, {tricks} tricks → {} (vulnerable: {})",
        bridge::contract_text(contract),
        declarer.letter(),
        side_score(score),
        bridge::vulnerability_name(vul)
    ))
}

/// How a ScoreTable row's matchpoints and IMPs follow from the board's
/// scores by the game's Scoring ([`ScoreTable::explain`]): which scores it
/// beat and tied, the datum, the comparisons.
fn row_figures(game: &Game, row: usize) -> String {
    let Some(t) = ScoreTable::of(game) else {
        return String::new();
    };
    let mut md = String::new();
    for (what, kind) in [("Matchpoints", Kind::Matchpoints), ("IMPs", Kind::Imps)] {
        if t.computed(row, kind, false).is_none() {
            continue;
        }
        if let Some(how) = t.explain(row, kind) {
            md.push_str(&format!("\n\n{what} (`{}`): {how}", t.scoring));
        }
    }
    md
}
