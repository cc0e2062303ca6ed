//! Declarer, Contract and Result from the auction and the play: the fixes of
//! their mismatches, the missing mandatory tags, and [`fill_from_auction`].

use super::tags::{set_value, set_value_fix, tag_of};
use super::text::{after_point, eol, tag_line};
use super::{edit, mk};
use crate::bridge::{self, FinalContract, Seat, Strain};
use crate::diagnostic::{Edit, Fix};
use crate::model::values::{self, ContractValue};
use crate::model::{typed, Game, Inherit, TagRole};
use crate::rules::tags::MANDATORY;

/// What the auction and the play say about Contract, Declarer and Result.
#[derive(Debug, Default)]
struct Facts {
    outcome: Option<FinalContract>,
    /// The Result as declarer's tricks, when the play decides it.
    result: Option<String>,
}

pub(super) fn seat_of(
    v: Option<&str>,
    parse: fn(&str) -> values::Parsed<values::SeatTag>,
) -> Option<Seat> {
    v.and_then(|v| parse(v).value).map(|s| s.seat)
}

/// Declarer's tricks when the play decides them: all tricks played (or a
/// claim whose outcome is forced), `declarer` playing in `strain`.
fn play_tricks(text: &str, g: &Game, strain: Option<Strain>, declarer: Seat) -> Option<u8> {
    let p = g.play.as_ref()?;
    let tag = g.tags.get(p.tag).filter(|t| t.inherit == Inherit::None)?;
    let first = seat_of(tag.effective(), values::parse_play_seat)?;
    let hands = g
        .value("Deal")
        .and_then(|v| values::parse_deal(v).value)
        .map(|d| d.hands)
        .unwrap_or([None; 4]);
    let (items, _) = typed::play_items(text, p);
    let a = bridge::analyze_play(
        &hands,
        strain.and_then(Strain::suit),
        Some(declarer),
        first,
        &items,
    );
    if !a.complete || a.end_position {
        return None;
    }
    let (lo, hi) = a.final_bounds(declarer);
    (lo == hi).then_some(lo)
}

fn facts(text: &str, g: &Game) -> Facts {
    let outcome = typed::auction_outcome(text, g);
    let tag_contract = g
        .value("Contract")
        .and_then(|v| values::parse_contract(v).value)
        .map(|c| c.value);
    let tag_declarer = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value);
    let passed = matches!(outcome, Some(FinalContract::PassedOut))
        || (outcome.is_none() && matches!(tag_contract, Some(ContractValue::Pass)));
    let result = if passed {
        Some(String::new())
    } else {
        let (strain, declarer) = match outcome {
            Some(FinalContract::Contract { contract, declarer }) => {
                // The Declarer tag may name the irregular declarer (`^`).
                let playing = tag_declarer
                    .and_then(|d| d.seat)
                    .filter(|s| bridge::same_side(*s, declarer));
                (Some(contract.bid.strain), Some(playing.unwrap_or(declarer)))
            }
            _ => {
                let strain = match tag_contract {
                    Some(ContractValue::Contract(c)) => Some(c.bid.strain),
                    Some(ContractValue::EndPosition(s)) => Some(s),
                    _ => None,
                };
                (strain, tag_declarer.and_then(|d| d.seat))
            }
        };
        match (strain, declarer) {
            (Some(s), Some(d)) => play_tricks(text, g, Some(s), d).map(|n| n.to_string()),
            _ => None,
        }
    };
    Facts { outcome, result }
}

fn contract_value(outcome: FinalContract) -> String {
    match outcome {
        FinalContract::PassedOut => "Pass".into(),
        FinalContract::Contract { contract, .. } => bridge::contract_text(contract),
    }
}

/// The Declarer value of the auction's outcome, keeping the `^` form when
/// the tag uses it.
fn declarer_value(outcome: FinalContract, g: &Game) -> String {
    match outcome {
        FinalContract::PassedOut => String::new(),
        FinalContract::Contract { declarer, .. } => {
            let swapped = g
                .value("Declarer")
                .and_then(|v| values::parse_declarer(v).value)
                .is_some_and(|d| d.swapped);
            if swapped {
                format!("^{}", declarer.partner().letter())
            } else {
                declarer.letter().to_string()
            }
        }
    }
}

/// PBN0908: the Result emptied (all players passed).
pub(super) fn empty_result(g: &Game) -> Option<Fix> {
    tag_of(g, "Result")
        .and_then(|t| set_value(t, ""))
        .map(|e| mk("Empty the Result: all players passed", vec![e], true))
}

/// The play section was led by the left-hand opponent of the Declarer tag's
/// seat but not of `new` (a seat that plays the hand): the Declarer tag
/// agrees with the play, and the auction may be what is wrong.
fn play_supports_tag(g: &Game, new: Option<Seat>) -> bool {
    let Some(p) = &g.play else { return false };
    let leader = g
        .tags
        .get(p.tag)
        .and_then(|t| seat_of(t.effective(), values::parse_play_seat));
    let current = g
        .value("Declarer")
        .and_then(|v| values::parse_declarer(v).value)
        .and_then(|d| d.seat);
    match (leader, current) {
        (Some(l), Some(c)) => l == c.lho() && new.is_none_or(|n| l != n.lho()),
        _ => false,
    }
}

pub(super) fn fix_declarer(text: &str, g: &Game) -> Option<Fix> {
    let outcome = typed::auction_outcome(text, g)?;
    let tag = tag_of(g, "Declarer")?;
    let new = declarer_value(outcome, g);
    let new_seat = values::parse_declarer(&new).value.and_then(|d| d.seat);
    let preferred = !play_supports_tag(g, new_seat);
    set_value_fix(
        tag,
        &new,
        format!("Set Declarer to \"{new}\" (from the auction)"),
        preferred,
    )
}

pub(super) fn fix_contract(text: &str, g: &Game) -> Option<Fix> {
    let outcome = typed::auction_outcome(text, g)?;
    let tag = tag_of(g, "Contract")?;
    let new = contract_value(outcome);
    // With a play section and a Result, another denomination changes who
    // won the tricks: the Contract tag may be right and the auction wrong.
    let strain = |v: Option<&str>| match v
        .and_then(|v| values::parse_contract(v).value)
        .map(|c| c.value)
    {
        Some(ContractValue::Contract(c)) => Some(c.bid.strain),
        _ => None,
    };
    let has_result = g
        .value("Result")
        .and_then(|v| values::parse_result(v).value)
        .is_some_and(|r| r.tricks.is_some());
    let preferred =
        g.play.is_none() || !has_result || strain(g.value("Contract")) == strain(Some(&new));
    let mut fix = set_value_fix(
        tag,
        &new,
        format!("Set Contract to \"{new}\" (from the auction)"),
        preferred,
    )?;
    // The Declarer goes with the contract (a Contract "Pass" hides its
    // mismatch).
    if let Some(d) = tag_of(g, "Declarer").filter(|t| t.inherit == Inherit::None) {
        let dv = declarer_value(outcome, g);
        if d.value.as_ref().map(|v| v.raw.as_str()) != Some(dv.as_str())
            && d.effective().map(str::trim) != Some("?")
        {
            fix.edits.push(set_value(d, &dv)?);
            let dv_seat = values::parse_declarer(&dv).value.and_then(|x| x.seat);
            fix.preferred &= !play_supports_tag(g, dv_seat);
            fix.title =
                format!("Set Contract to \"{new}\" and Declarer to \"{dv}\" (from the auction)");
        }
    }
    Some(fix)
}

pub(super) fn fix_result(text: &str, g: &Game) -> Vec<Fix> {
    let Some(tag) = tag_of(g, "Result") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(n) = facts(text, g).result.filter(|n| !n.is_empty()) {
        out.extend(set_value_fix(
            tag,
            &n,
            format!("Set Result to \"{n}\" (tricks won by declarer in the play)"),
            true,
        ));
    }
    if let Some(v) = tag.value.as_ref().filter(|v| v.quoted && v.terminated) {
        let lead = v.raw.len() - v.raw.trim_start().len();
        if !v.raw.trim_start().starts_with('^') {
            let at = v.range.start + lead;
            out.push(mk(
                "Mark the Result with `^` (the players agreed on a different number)",
                vec![edit(at..at, "^")],
                false,
            ));
        }
    }
    out
}

pub(super) fn remove_result_caret(g: &Game) -> Option<Fix> {
    let v = tag_of(g, "Result")?.value.as_ref()?;
    let i = v.raw.find('^')?;
    let at = v.range.start + i;
    Some(mk(
        "Remove the `^`: the Result equals the tricks won",
        vec![edit(at..at + 1, "")],
        true,
    ))
}

/// Insertions of new tag lines at their export-order place (§3.4): after
/// the nearest mandatory tag before them in that order that precedes the
/// sections, else before the first tag of the game.
fn insert_tags(text: &str, g: &Game, new: &[(&str, String)]) -> Vec<Edit> {
    let nl = eol(text);
    let limit = g
        .tags
        .iter()
        .filter(|t| t.role != TagRole::Plain)
        .map(|t| t.range.start)
        .min()
        .unwrap_or(usize::MAX);
    let order = |name: &str| {
        MANDATORY
            .iter()
            .position(|m| *m == name)
            .unwrap_or(MANDATORY.len())
    };
    // (offset, after an existing tag) → (export position, line)
    type Lines = Vec<(usize, String)>;
    let mut at: Vec<((usize, bool), Lines)> = Vec::new();
    for (name, value) in new {
        let i = order(name);
        let anchor = g
            .tags
            .iter()
            .filter(|t| t.role == TagRole::Plain && t.range.end <= limit && order(&t.name) < i)
            .max_by_key(|t| (order(&t.name), std::cmp::Reverse(t.range.start)));
        let key = match anchor {
            Some(t) => (after_point(text, g, t.range.end), true),
            None => match g.tags.first() {
                Some(t) => (t.range.start, false),
                None => continue,
            },
        };
        let line = tag_line(name, value);
        match at.iter_mut().find(|(k, _)| *k == key) {
            Some((_, lines)) => lines.push((i, line)),
            None => at.push((key, vec![(i, line)])),
        }
    }
    at.into_iter()
        .map(|((p, after), mut lines)| {
            lines.sort_by_key(|(i, _)| *i);
            let mut s = String::new();
            for (_, l) in lines {
                if after {
                    s.push_str(nl);
                    s.push_str(&l);
                } else {
                    s.push_str(&l);
                    s.push_str(nl);
                }
            }
            edit(p..p, s)
        })
        .collect()
}

/// The value to write for a mandatory tag that is missing.
fn missing_value(name: &str, f: &Facts, g: &Game) -> (String, bool) {
    let passed =
        matches!(f.outcome, Some(FinalContract::PassedOut)) || crate::model::contract_is_pass(g);
    let known = match (name, f.outcome) {
        ("Contract", Some(o)) => Some(contract_value(o)),
        ("Declarer", Some(o)) => Some(declarer_value(o, g)),
        ("Declarer", None) if passed => Some(String::new()),
        ("Result", _) => f.result.clone(),
        _ => None,
    };
    match known {
        Some(v) => (v, true),
        None => ("?".into(), false),
    }
}

pub(super) fn add_mandatory(text: &str, g: &Game) -> Option<Fix> {
    let missing: Vec<&str> = MANDATORY
        .iter()
        .copied()
        .filter(|n| g.tag(n).is_none() && g.value(n).is_none())
        .collect();
    if missing.is_empty() {
        return None;
    }
    let f = facts(text, g);
    let new: Vec<(&str, String)> = missing
        .iter()
        .map(|n| (*n, missing_value(n, &f, g).0))
        .collect();
    let edits = insert_tags(text, g, &new);
    (!edits.is_empty()).then(|| {
        mk(
            format!("Add the missing mandatory tags ({})", missing.join(", ")),
            edits,
            true,
        )
    })
}

/// PBN0205: Deal, Declarer and Contract before the play section.
pub(super) fn add_play_tags(text: &str, g: &Game) -> Option<Fix> {
    let f = facts(text, g);
    let mut inserts = Vec::new();
    let mut edits = Vec::new();
    let mut all_known = true;
    let mut names = Vec::new();
    for name in ["Deal", "Declarer", "Contract"] {
        let filled = g.value(name).is_some_and(|v| !v.trim().is_empty());
        if filled {
            continue;
        }
        let (value, known) = missing_value(name, &f, g);
        if value.is_empty() {
            continue; // all passed: nothing to play
        }
        all_known &= known;
        names.push(format!("{name} \"{value}\""));
        match g.tag(name) {
            Some(t) => edits.push(set_value(t, &value)?),
            None => inserts.push((name, value)),
        }
    }
    edits.extend(insert_tags(text, g, &inserts));
    (!edits.is_empty()).then(|| {
        mk(
            format!("Add {} before the play section", names.join(", ")),
            edits,
            all_known,
        )
    })
}

/// The refactoring: Declarer, Contract and Result that are missing or `?`
/// filled from the auction and the play.
pub fn fill_from_auction(text: &str, g: &Game) -> Option<Fix> {
    let f = facts(text, g);
    let mut edits = Vec::new();
    let mut inserts = Vec::new();
    let mut names = Vec::new();
    for name in ["Declarer", "Contract", "Result"] {
        let value = match (name, f.outcome) {
            ("Contract", Some(o)) => Some(contract_value(o)),
            ("Declarer", Some(o)) => Some(declarer_value(o, g)),
            ("Result", _) => f.result.clone(),
            _ => None,
        };
        let Some(value) = value else { continue };
        match g.tag(name) {
            Some(t)
                if t.inherit == Inherit::None
                    && t.value.as_ref().is_some_and(|v| v.raw.trim() == "?") =>
            {
                edits.push(set_value(t, &value)?);
            }
            None if g.value(name).is_none() => inserts.push((name, value.clone())),
            _ => continue,
        }
        names.push(name);
    }
    edits.extend(insert_tags(text, g, &inserts));
    (!edits.is_empty()).then(|| {
        mk(
            format!("Fill {} from the auction and play", names.join(", ")),
            edits,
            false,
        )
    })
}
