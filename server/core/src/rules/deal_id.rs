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
//!
//! A game without a DealId tag of its own may still have one: a `##`
//! value is the default of every later game until a game gives the tag
//! another value (§4.8). Such a game's mark is its inherited DealId, placed
//! on its own Deal (the text that makes it another deal).

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
    /// text), or the Deal's value when the DealId is inherited through
    /// `##`; in the offsets of the text the game was checked in.
    pub range: Range<usize>,
    /// The DealId is not the game's own: a `##` value of an earlier game
    /// (§4.8).
    pub inherited: bool,
}

impl DealIdMark {
    /// The mark of `game`: `None` without a DealId (its own or inherited
    /// through `##`), with an empty or unknown (`?`) DealId, or with an
    /// inherited DealId and no Deal value to place it on.
    pub fn of(game: &Game) -> Option<DealIdMark> {
        let own = game.tag("DealId");
        let id = match own {
            Some(tag) => tag.effective()?,
            None => game.value("DealId")?,
        };
        let id = id.trim_matches(values::is_ws);
        if id.is_empty() || values::is_unknown(id) {
            return None;
        }
        let deal_value = || game.tag("Deal").and_then(|t| t.value.as_ref());
        let range = match own {
            Some(tag) => tag
                .value
                .as_ref()
                .map_or(tag.range.clone(), |v| v.range.clone()),
            None => deal_value()?.range.clone(),
        };
        let deal = game
            .value("Deal")
            .and_then(|v| values::parse_deal(v).value)
            .and_then(|d| d.export_form(Seat::North))
            .map(String::into_boxed_str);
        Some(DealIdMark {
            id: id.into(),
            deal,
            range,
            inherited: own.is_none(),
        })
    }

    /// How a message names the DealId: with where it comes from when it
    /// is inherited.
    fn named(&self) -> String {
        if self.inherited {
            format!("DealId \"{}\" (inherited, §4.8)", self.id)
        } else {
            format!("DealId \"{}\"", self.id)
        }
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
                    "{} already identifies another deal, the game at line {line}; \
                     no two deals should have the same DealId (§4.1.2)",
                    m.named()
                ),
            )
            .with_related(
                f.range.clone(),
                format!("{} of a different deal", f.named()),
            )
            .with_game(Some(g))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{conflicts, DealIdMark};
    use crate::model::lower;
    use crate::syntax::parse;

    const A: &str = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432";
    /// A written from East: the same deal.
    const A_EAST: &str = "E:T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ";
    const B: &str = "N:T987.JT9.JT9.JT9 AKQJ.AKQ.AKQ.AKQ 6543.876.876.876 2.5432.5432.5432";

    /// The PBN0212 diagnostics of `text`: (game, line of the range, message).
    fn found(text: &str) -> Vec<(usize, usize, String)> {
        let doc = lower(&parse(text), text);
        let marks: Vec<(usize, DealIdMark)> = doc
            .games
            .iter()
            .filter_map(|g| Some((g.index, DealIdMark::of(g)?)))
            .collect();
        conflicts(text, marks.iter().map(|(g, m)| (*g, m)))
            .into_iter()
            .map(|d| {
                let line = text[..d.range.start].matches('\n').count() + 1;
                (d.game.unwrap(), line, d.message.to_string())
            })
            .collect()
    }

    fn games(parts: &[(&str, &str)]) -> String {
        parts
            .iter()
            .map(|(tags, deal)| format!("{tags}[Deal \"{deal}\"]\n"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn an_inherited_deal_id_on_another_deal_is_reported_on_the_deal() {
        let text = games(&[("[DealId \"##s\"]\n", A), ("", A_EAST), ("", B)]);
        let got = found(&text);
        assert_eq!(got.len(), 1, "{got:?}");
        let (game, line, message) = &got[0];
        assert_eq!((*game, *line), (2, 6), "on the third game's Deal");
        assert!(
            message.starts_with("DealId \"s\" (inherited, §4.8)")
                && message.contains("the game at line 1;"),
            "{message}"
        );
    }

    #[test]
    fn an_inherited_deal_id_on_the_same_deal_is_right() {
        let text = games(&[("[DealId \"##s\"]\n", A), ("", A_EAST), ("", A)]);
        assert_eq!(found(&text), vec![]);
    }

    #[test]
    fn a_later_value_overrides_the_inherited_deal_id() {
        // From the third game on the DealId is "t" (§4.8): B there is
        // t's first deal, and the fourth game inherits "t" on B too.
        let text = games(&[
            ("[DealId \"##s\"]\n", A),
            ("", A),
            ("[DealId \"t\"]\n", B),
            ("", B),
        ]);
        assert_eq!(found(&text), vec![]);
        // The fifth game inherits "t" on A: reported, naming the third.
        let text = format!("{text}\n[Deal \"{A}\"]\n");
        let got = found(&text);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 4);
        assert!(got[0].2.contains("the game at line 6;"), "{got:?}");
    }

    #[test]
    fn an_inherited_deal_id_without_a_deal_has_no_mark() {
        let text = "[DealId \"##s\"]\n[Deal \"".to_owned() + A + "\"]\n\n[Board \"2\"]\n";
        let doc = lower(&parse(&text), &text);
        assert!(DealIdMark::of(&doc.games[0]).is_some());
        assert!(DealIdMark::of(&doc.games[1]).is_none());
    }
}
