//! The fixes of the Deal and of values in another form than PBN writes:
//! another program's Deal, `...` and `10`, the one card correction, a
//! rotated Deal, passes left out, and the export forms of the Deal,
//! Vulnerable and Result.

use super::outcome::seat_of;
use super::tags::{set_value_fix, tag_at_value};
use super::{edit, mk};
use crate::bridge::{self, Seat};
use crate::diagnostic::Fix;
use crate::model::values;
use crate::model::{Game, Inherit};
use std::ops::Range;

/// PBN0412: a Deal in another program's form written as PBN writes it.
pub(super) fn deal_read_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.inherit == Inherit::None)?;
    let (new, _) = values::deal_read_form(&tag.value.as_ref()?.raw)?;
    set_value_fix(tag, &new, format!("Write the Deal as \"{new}\""), true)
}

/// PBN0411: a hand of four empty suits (`...`), which is read as a hand not
/// given, written as such (`-`, §3.4.11). Always safe: the diagnostic is
/// only made when another hand has cards, and then no other reading
/// exists (a Deal gives 13 cards a hand or an end position, never a hand
/// of none), whatever the other hands hold (`x` spot cards too: `pbn dump`
/// writes such a Deal's hands not given as `-` either way).
pub(super) fn empty_hand(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let hand = text.get(r.clone())?;
    if hand != "..." {
        return None;
    }
    tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    Some(mk(
        "Write the hand not given as `-`",
        vec![edit(r.clone(), "-")],
        true,
    ))
}

/// PBN0405 on a `10`: the ten is written `T` (§3.4.11). One fix writes
/// every `10` of the Deal as `T`; unsafe when the Deal still cannot be read
/// as a whole (`pbn dump` then shows its text as written, which changes).
pub(super) fn deal_ten(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    if text.get(r.clone())? != "10" {
        return None;
    }
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    let fixed = tag.value.as_ref()?.raw.replace("10", "T");
    let readable = values::parse_deal(&fixed)
        .value
        .is_some_and(|d| d.export_form(d.first).is_some());
    set_value_fix(tag, &fixed, "Write the ten as `T`".into(), readable)
}

/// PBN0406, PBN0407, PBN0408: the Deal's only smallest correction
/// ([`values::unique_correction`]), one fix for all its diagnostics.
pub(super) fn deal_cards(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    let c = values::unique_correction(&tag.value.as_ref()?.raw)?;
    let card = bridge::card_word;
    let hand = |s: Seat| bridge::seat_name(s);
    let title = match (c.removed, c.added) {
        (Some((from, a)), Some((to, b))) if a == b => {
            format!(
                "Move {} from {}'s hand to {}'s",
                card(a),
                hand(from),
                hand(to)
            )
        }
        (Some((from, a)), Some((to, b))) if from == to => {
            format!(
                "Replace {} by {} in {}'s hand",
                card(a),
                card(b),
                hand(from)
            )
        }
        (Some((from, a)), Some((to, b))) => format!(
            "Take {} out of {}'s hand and give the missing {} to {}",
            card(a),
            hand(from),
            card(b),
            hand(to)
        ),
        (Some((from, a)), None) => {
            format!("Take the extra {} out of {}'s hand", card(a), hand(from))
        }
        (None, Some((to, b))) => format!("Give the missing {} to {}", card(b), hand(to)),
        (None, None) => return None,
    };
    set_value_fix(tag, &c.value, title, false)
}

/// PBN0612: each seat given the hand the Deal gives the seat the play
/// shows it held, written in the Deal's own first seat.
pub(super) fn rotate_deal(text: &str, g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal" && t.inherit == Inherit::None)?;
    let k = crate::rules::bridge::deal_rotation(text, g)?;
    let mut deal = values::parse_deal(&tag.value.as_ref()?.raw).value?;
    let hands = deal.hands;
    deal.hands = std::array::from_fn(|s| hands[(s + k) % 4]);
    let new = deal.export_form(deal.first)?;
    let seats = if k == 1 { "seat" } else { "seats" };
    set_value_fix(
        tag,
        &new,
        format!("Rotate the Deal's hands by {k} {seats}: \"{new}\""),
        true,
    )
}

/// PBN0512: the passes before the first call.
pub(super) fn write_left_out_passes(text: &str, g: &Game) -> Option<Fix> {
    let k = crate::rules::bridge::left_out_passes(text, g)?;
    let at = g.auction.as_ref()?.entries.first()?.range.start;
    let passes = if k == 1 { "pass" } else { "passes" };
    Some(mk(
        format!("Write the {k} {passes} before the first bid"),
        vec![edit(at..at, "Pass ".repeat(k))],
        false,
    ))
}

pub(super) fn deal_export_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r).filter(|t| t.name == "Deal")?;
    let raw = &tag.value.as_ref()?.raw;
    let p = values::parse_deal(raw);
    if !p.issues.is_empty() {
        return None;
    }
    let deal = p.value?;
    let dealer = seat_of(g.value("Dealer"), values::parse_dealer).unwrap_or(deal.first);
    let new = deal.export_form(dealer)?;
    set_value_fix(
        tag,
        &new,
        "Write the Deal from the dealer with the ranks in descending order".into(),
        true,
    )
}

pub(super) fn value_export_form(g: &Game, r: &Range<usize>) -> Option<Fix> {
    let tag = tag_at_value(g, r)?;
    let raw = &tag.value.as_ref()?.raw;
    match tag.name.as_str() {
        "Vulnerable" => {
            let new = values::vulnerable_export_form(raw)?;
            set_value_fix(tag, new, format!("Write Vulnerable as \"{new}\""), true)
        }
        "Result" => {
            let result = values::parse_result(raw).value?;
            let declarer = g
                .value("Declarer")
                .and_then(|v| values::parse_declarer(v).value)?
                .seat?;
            let n = result
                .tricks?
                .for_declarer(bridge::is_north_south(declarer))?;
            let new = format!("{}{n}", if result.differs_from_actual { "^" } else { "" });
            set_value_fix(
                tag,
                &new,
                format!("Write the Result as declarer's tricks: \"{new}\""),
                true,
            )
        }
        _ => None,
    }
}
