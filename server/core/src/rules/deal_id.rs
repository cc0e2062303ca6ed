//! The rule across games: §4.1.2, "no two PBN deals should have the same
//! tag value for DealId".
//!
//! Each game contributes a position-free-but-for-its-tag [`DealIdMark`]
//! (its DealId and its deal), computed when the game is checked and kept
//! with the game's diagnostics, so that the incremental checker does not
//! lower a game again to know it. [`conflicts`] folds the marks of every
//! game in order: the first game of a DealId with a known deal is that
//! DealId's deal; a later game with the same DealId and another deal gets
//! [`codes::DEAL_ID_REUSED`] on its DealId, naming that first game. The
//! same DealId on the same deal (the tables of a team match, a `#`
//! DealId on the second table) is what §4.1.2 asks for.

use crate::codes::tags as codes;
use crate::diagnostic::Diagnostic;
use crate::hash::Map as HashMap;
use crate::model::{values, Game};
use crate::text::LineIndex;
use contract_bridge::Seat;
use std::ops::Range;

/// What one game contributes to the DealId rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealIdMark {
    /// The DealId value (resolved when it is `#`).
    pub id: Box<str>,
    /// The deal in export form from North, `None` when the game has no
    /// readable Deal (it is then compared with nothing).
    pub deal: Option<Box<str>>,
    /// The DealId tag's value (the tag pair's range when it has no value
    /// text), in the offsets of the text the game was checked in.
    pub range: Range<usize>,
}

impl DealIdMark {
    /// The mark of `game`: `None` without a DealId tag of its own or with
    /// an empty or unknown (`?`) DealId.
    pub fn of(game: &Game) -> Option<DealIdMark> {
        let tag = game.tag("DealId")?;
        let id = tag.effective()?.trim_matches(values::is_ws);
        if id.is_empty() || values::is_unknown(id) {
            return None;
        }
        let deal = game
            .value("Deal")
            .and_then(|v| values::parse_deal(v).value)
            .and_then(|d| d.export_form(Seat::North))
            .map(String::into_boxed_str);
        let range = tag
            .value
            .as_ref()
            .map_or(tag.range.clone(), |v| v.range.clone());
        Some(DealIdMark {
            id: id.into(),
            deal,
            range,
        })
    }

    /// The same mark with its range moved by `by`.
    pub fn shifted(&self, by: isize) -> DealIdMark {
        let f = |o: usize| (o as isize + by) as usize;
        DealIdMark {
            range: f(self.range.start)..f(self.range.end),
            ..self.clone()
        }
    }
}

/// The diagnostics of the DealId rule over `marks`: (game index, mark with
/// document offsets), in document order.
pub fn conflicts<'a>(
    text: &str,
    marks: impl IntoIterator<Item = (usize, &'a DealIdMark)>,
) -> Vec<Diagnostic> {
    let mut first: HashMap<&'a str, (usize, &'a DealIdMark)> = HashMap::default();
    let mut found: Vec<(usize, &DealIdMark, &DealIdMark)> = Vec::new();
    for (g, m) in marks {
        let Some(deal) = m.deal.as_deref() else {
            continue;
        };
        match first.get(&*m.id) {
            None => {
                first.insert(&m.id, (g, m));
            }
            Some((_, f)) if f.deal.as_deref() != Some(deal) => found.push((g, m, f)),
            Some(_) => {}
        }
    }
    if found.is_empty() {
        return Vec::new();
    }
    let lines = LineIndex::new(text);
    found
        .into_iter()
        .map(|(g, m, f)| {
            let line = lines.line_of(f.range.start) + 1;
            Diagnostic::new(
                &codes::DEAL_ID_REUSED,
                m.range.clone(),
                format!(
                    "DealId \"{}\" already identifies another deal, the game at line {line}; \
                     no two deals should have the same DealId (§4.1.2)",
                    m.id
                ),
            )
            .with_related(
                f.range.clone(),
                format!("DealId \"{}\" of a different deal", f.id),
            )
            .with_game(Some(g))
        })
        .collect()
}
