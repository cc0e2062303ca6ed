//! Result (§3.4.15) and the score tags: Score (§4.2.1), ScoreIMP (§4.2.2),
//! ScoreMP (§4.2.3), ScorePercentage (§4.2.4), ScoreRubber (§4.2.5),
//! ScoreRubberHistory (§4.2.6), OptimumScore (§4.2.7).
//!
//! These values are sequences of white-space separated items, so extra
//! white space between, before or after the items is accepted silently
//! (the reference verifier accepts `"EW 300/40 NS 50 / 70  "`).

use super::{issue, parse_decimal, parse_int, parse_uint, tokens, Parsed, ValueIssue};
use crate::codes::{values as codes, CodeInfo};

/// A value in one of the five forms of the Score tag (§4.2.1): `<x>`,
/// `NS <x>`, `EW <x>`, `NS <x> EW <y>`, `EW <x> NS <y>`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SideScores<T> {
    /// `<x>`: for the declarer (Score, Result) — for OptimumScore a bare
    /// number whose side is not given.
    Declarer(T),
    /// One or both sides. `ns_first` keeps the written order.
    Sides {
        ns: Option<T>,
        ew: Option<T>,
        ns_first: bool,
    },
}

impl<T: Copy> SideScores<T> {
    /// The NS value, if given explicitly.
    pub fn ns(&self) -> Option<T> {
        match *self {
            SideScores::Sides { ns, .. } => ns,
            SideScores::Declarer(_) => None,
        }
    }
    /// The EW value, if given explicitly.
    pub fn ew(&self) -> Option<T> {
        match *self {
            SideScores::Sides { ew, .. } => ew,
            SideScores::Declarer(_) => None,
        }
    }
    /// The NS value: NS's, else minus EW's, else the bare value when the
    /// declarer is NS (`declarer_is_ns`), minus it when EW.
    pub fn ns_value(&self, declarer_is_ns: Option<bool>) -> Option<T>
    where
        T: std::ops::Neg<Output = T>,
    {
        match *self {
            SideScores::Sides { ns: Some(n), .. } => Some(n),
            SideScores::Sides { ew: Some(n), .. } => Some(-n),
            SideScores::Sides { .. } => None,
            SideScores::Declarer(n) => Some(if declarer_is_ns? { n } else { -n }),
        }
    }

    /// The value for the declaring side: the bare value, or the value of
    /// the declarer's side when given.
    pub fn for_declarer(&self, declarer_is_ns: bool) -> Option<T> {
        match *self {
            SideScores::Declarer(v) => Some(v),
            SideScores::Sides { ns, ew, .. } => {
                if declarer_is_ns {
                    ns
                } else {
                    ew
                }
            }
        }
    }
}

/// Merges items around `/` (`50 / 70` → one item) for rubber scores.
fn merge_slashes<'a>(s: &'a str, items: Vec<(usize, &'a str)>) -> Vec<(usize, &'a str)> {
    let mut out: Vec<(usize, &'a str)> = Vec::new();
    for (off, t) in items {
        if let Some(&(poff, prev)) = out.last() {
            if prev.ends_with('/') || t.starts_with('/') {
                out.pop();
                out.push((poff, &s[poff..off + t.len()]));
                continue;
            }
        }
        out.push((off, t));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Ns,
    Ew,
}

/// `NS`/`EW` (other cases with a [`codes::VALUE_CASE`] warning).
fn side(t: &str, off: usize, issues: &mut Vec<ValueIssue>) -> Option<Side> {
    let side = if t.eq_ignore_ascii_case("NS") {
        Side::Ns
    } else if t.eq_ignore_ascii_case("EW") {
        Side::Ew
    } else {
        return None;
    };
    if t != "NS" && t != "EW" {
        issues.push(issue(
            &codes::VALUE_CASE,
            off..off + t.len(),
            format!("a side is written \"NS\" or \"EW\", not \"{t}\""),
        ));
    }
    Some(side)
}

/// Parses the five-form structure; `item` parses one value (pushing its own
/// issue and returning `None` when it is bad).
fn parse_sides<T: Copy>(
    raw: &str,
    format_code: &'static CodeInfo,
    forms_rule: &dyn Fn() -> String,
    merge: bool,
    mut item: impl FnMut(&str, usize, &mut Vec<ValueIssue>) -> Option<T>,
) -> Parsed<SideScores<T>> {
    let mut items = tokens(raw);
    if merge {
        items = merge_slashes(raw, items);
    }
    let mut issues = Vec::new();
    let whole = match (items.first(), items.last()) {
        (Some(&(a, _)), Some(&(b, t))) => a..b + t.len(),
        _ => return Parsed::none(),
    };
    let mut local = Vec::new();
    let sides: Vec<Option<Side>> = items.iter().map(|&(o, t)| side(t, o, &mut local)).collect();
    let shape_ok = match sides.as_slice() {
        [None] => true,
        [Some(_), None] => true,
        [Some(a), None, Some(b), None] => a != b,
        _ => false,
    };
    if !shape_ok {
        issues.push(issue(format_code, whole, forms_rule()));
        return Parsed::new(None, issues);
    }
    issues.extend(local);
    let mut values = Vec::new();
    let mut ok = true;
    for (k, &(o, t)) in items.iter().enumerate() {
        if sides[k].is_none() {
            match item(t, o, &mut issues) {
                Some(v) => values.push(v),
                None => ok = false,
            }
        }
    }
    if !ok {
        return Parsed::new(None, issues);
    }
    let value = match sides.as_slice() {
        [None] => SideScores::Declarer(values[0]),
        [Some(a), None] => match a {
            Side::Ns => SideScores::Sides {
                ns: Some(values[0]),
                ew: None,
                ns_first: true,
            },
            Side::Ew => SideScores::Sides {
                ns: None,
                ew: Some(values[0]),
                ns_first: false,
            },
        },
        [Some(a), _, _, _] => match a {
            Side::Ns => SideScores::Sides {
                ns: Some(values[0]),
                ew: Some(values[1]),
                ns_first: true,
            },
            Side::Ew => SideScores::Sides {
                ns: Some(values[1]),
                ew: Some(values[0]),
                ns_first: false,
            },
        },
        _ => unreachable!(),
    };
    Parsed::new(Some(value), issues)
}

fn forms(tag: &str, item: &str, extra: &str, section: &str) -> String {
    format!(
        "{tag} must be \"{item}\", \"NS {item}\", \"EW {item}\", \"NS {item} EW {item}\" or \"EW {item} NS {item}\"{extra} ({section})"
    )
}

// ---- Result ---------------------------------------------------------------

/// The Result tag value (§3.4.15).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResultTag {
    /// `None` for `""`: all players passed.
    pub tricks: Option<ResultTricks>,
    /// `^` prefix: the result differs from the tricks actually won.
    pub differs_from_actual: bool,
}

/// Tricks in the Result tag.
pub type ResultTricks = SideScores<u8>;

impl ResultTag {
    /// `""`: all players passed.
    pub fn is_all_pass(&self) -> bool {
        self.tricks.is_none()
    }
}

/// Parses a Result tag value (§3.4.15): `<n>`, `NS <n>`, `EW <n>`,
/// `NS <n> EW <m>`, `EW <n> NS <m>` with 0..13, optionally preceded by
/// `^`; `""` when all pass; `?` gives no value. Errors:
/// [`codes::RESULT_FORMAT`]; both sides summing over 13:
/// [`codes::RESULT_SUM_OVER_13`]; below 13: [`codes::RESULT_SUM_UNDER_13`]
/// (warning: the Result may be partial when the play has not ended).
pub fn parse_result(raw: &str) -> Parsed<ResultTag> {
    const SECTION: &str = "§3.4.15";
    if raw.is_empty() {
        return Parsed::ok(ResultTag {
            tricks: None,
            differs_from_actual: false,
        });
    }
    // The usual value, one or two digits up to 13 (every table cell of a
    // Result column), without the general parse below: it gives the same.
    if raw.len() <= 2 && raw.bytes().all(|b| b.is_ascii_digit()) {
        let n = raw.bytes().fold(0u8, |n, b| n * 10 + (b - b'0'));
        if n <= 13 {
            return Parsed::ok(ResultTag {
                tricks: Some(SideScores::Declarer(n)),
                differs_from_actual: false,
            });
        }
    }
    if super::is_unknown(raw) {
        return Parsed::none();
    }
    let lead = raw.len() - raw.trim_start_matches(super::is_ws).len();
    let caret = raw[lead..].starts_with('^');
    let body_off = if caret { lead + 1 } else { 0 };
    let body = &raw[body_off..];
    // The message is only built when an issue is reported.
    let rule = || {
        forms(
            "Result",
            "<tricks>",
            " with <tricks> 0..13, optionally preceded by `^`",
            SECTION,
        )
    };
    if caret && body.trim_matches(super::is_ws).is_empty() {
        return Parsed::new(
            None,
            vec![issue(&codes::RESULT_FORMAT, lead..raw.len(), rule())],
        );
    }
    let mut p =
        parse_sides(
            body,
            &codes::RESULT_FORMAT,
            &rule,
            false,
            |t, o, issues| match parse_uint(t).filter(|&n| n <= 13) {
                Some(n) => Some(n as u8),
                None => {
                    issues.push(issue(
                        &codes::RESULT_FORMAT,
                        o..o + t.len(),
                        format!("a result is a number of tricks, 0..13 ({SECTION})"),
                    ));
                    None
                }
            },
        );
    p.issues = p.issues.into_iter().map(|i| i.shifted(body_off)).collect();
    if p.value.is_none() && p.issues.is_empty() {
        // Only white space (after `^`).
        return Parsed::none();
    }
    if let Some(SideScores::Sides {
        ns: Some(ns),
        ew: Some(ew),
        ..
    }) = p.value
    {
        let sum = ns + ew;
        let range = {
            let t = tokens(raw);
            t[0].0..t.last().map_or(raw.len(), |&(o, s)| o + s.len())
        };
        if sum > 13 {
            p.issues.push(issue(
                &codes::RESULT_SUM_OVER_13,
                range,
                format!(
                    "NS {ns} and EW {ew} tricks add up to {sum}; a deal has 13 tricks ({SECTION})"
                ),
            ));
            return Parsed::new(None, p.issues);
        } else if sum < 13 {
            p.issues.push(issue(
                &codes::RESULT_SUM_UNDER_13,
                range,
                format!(
                    "NS {ns} and EW {ew} tricks add up to {sum}, not 13; only a partial result of an unfinished play adds up to less ({SECTION})"
                ),
            ));
        }
    }
    p.map(|tricks| ResultTag {
        tricks: Some(tricks),
        differs_from_actual: caret,
    })
}

// ---- Scores -----------------------------------------------------------------

fn integer_item(
    tag: &'static str,
    section: &'static str,
) -> impl FnMut(&str, usize, &mut Vec<ValueIssue>) -> Option<i64> {
    move |t, o, issues| {
        let v = parse_int(t);
        if v.is_none() {
            issues.push(issue(
                &codes::SCORE_FORMAT,
                o..o + t.len(),
                format!("a {tag} <score> is an integer number of points, not `{t}` ({section})"),
            ));
        }
        v
    }
}

fn decimal_item(
    tag: &'static str,
    section: &'static str,
) -> impl FnMut(&str, usize, &mut Vec<ValueIssue>) -> Option<f64> {
    move |t, o, issues| {
        let v = parse_decimal(t);
        if v.is_none() {
            issues.push(issue(
                &codes::SCORE_FORMAT,
                o..o + t.len(),
                format!(
                    "a {tag} <score> is an integer or a decimal number with a dot, not `{t}` ({section})"
                ),
            ));
        }
        v
    }
}

fn score_like<T: Copy>(
    raw: &str,
    tag: &'static str,
    section: &'static str,
    merge: bool,
    item: impl FnMut(&str, usize, &mut Vec<ValueIssue>) -> Option<T>,
) -> Parsed<SideScores<T>> {
    if raw.is_empty() || super::is_unknown(raw) {
        return Parsed::none();
    }
    parse_sides(
        raw,
        &codes::SCORE_FORMAT,
        &|| forms(tag, "<score>", "", section),
        merge,
        item,
    )
}

/// Parses a Score tag value (§4.2.1): an integer number of points in the
/// five forms. Errors: [`codes::SCORE_FORMAT`]. `""`, `?`: no value.
pub fn parse_score(raw: &str) -> Parsed<SideScores<i64>> {
    score_like(
        raw,
        "Score",
        "§4.2.1",
        false,
        integer_item("Score", "§4.2.1"),
    )
}

/// Parses a ScoreIMP tag value (§4.2.2): IMPs, an integer or a decimal
/// number with a dot, in the five forms. Errors: [`codes::SCORE_FORMAT`].
pub fn parse_score_imp(raw: &str) -> Parsed<SideScores<f64>> {
    score_like(
        raw,
        "ScoreIMP",
        "§4.2.2",
        false,
        decimal_item("ScoreIMP", "§4.2.2"),
    )
}

/// Parses a ScoreMP tag value (§4.2.3): MatchPoints, an integer or a
/// decimal number with a dot, in the five forms. Errors:
/// [`codes::SCORE_FORMAT`].
pub fn parse_score_mp(raw: &str) -> Parsed<SideScores<f64>> {
    score_like(
        raw,
        "ScoreMP",
        "§4.2.3",
        false,
        decimal_item("ScoreMP", "§4.2.3"),
    )
}

/// Parses a ScorePercentage tag value (§4.2.4): a decimal value between 0
/// and 100 (`0.`, `100.` are fine) in the five forms. Errors:
/// [`codes::SCORE_FORMAT`], [`codes::PERCENTAGE_RANGE`].
pub fn parse_score_percentage(raw: &str) -> Parsed<SideScores<f64>> {
    let mut item = decimal_item("ScorePercentage", "§4.2.4");
    score_like(raw, "ScorePercentage", "§4.2.4", false, |t, o, issues| {
        let v = item(t, o, issues)?;
        if !(0.0..=100.0).contains(&v) {
            issues.push(issue(
                &codes::PERCENTAGE_RANGE,
                o..o + t.len(),
                format!("a percentage is between 0 and 100, not {t} (§4.2.4)"),
            ));
            return None;
        }
        Some(v)
    })
}

/// A rubber score `<above>/<below>` (§4.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RubberScore {
    /// Above the line: bonus (premium) points.
    pub above: u64,
    /// Below the line: trick points.
    pub below: u64,
}

fn rubber_pair(t: &str) -> Option<RubberScore> {
    let (a, b) = t.split_once('/')?;
    let (a, b) = (a.trim_matches(super::is_ws), b.trim_matches(super::is_ws));
    Some(RubberScore {
        above: parse_uint(a)?,
        below: parse_uint(b)?,
    })
}

/// Parses a ScoreRubber tag value (§4.2.5): `<above>/<below>` with two
/// non-negative integers, in the five forms; white space around `/` is
/// accepted. Errors: [`codes::SCORE_FORMAT`].
pub fn parse_score_rubber(raw: &str) -> Parsed<SideScores<RubberScore>> {
    score_like(raw, "ScoreRubber", "§4.2.5", true, |t, o, issues| {
        let v = rubber_pair(t);
        if v.is_none() {
            issues.push(issue(
                &codes::SCORE_FORMAT,
                o..o + t.len(),
                format!(
                    "a ScoreRubber <score> is <above>/<below>, two non-negative integers, not `{t}` (§4.2.5)"
                ),
            ));
        }
        v
    })
}

/// Parses an OptimumScore tag value (§4.2.7): an integer with a side in
/// one of the four forms `NS <x>`, `EW <x>`, `NS <x> EW <y>`,
/// `EW <x> NS <y>`. A bare number gives [`codes::OPTIMUM_SCORE_SIDE`]
/// (warning) and [`SideScores::Declarer`]; bad numbers
/// [`codes::SCORE_FORMAT`].
pub fn parse_optimum_score(raw: &str) -> Parsed<SideScores<i64>> {
    let mut p = score_like(
        raw,
        "OptimumScore",
        "§4.2.7",
        false,
        integer_item("OptimumScore", "§4.2.7"),
    );
    if let Some(SideScores::Declarer(v)) = p.value {
        let t = tokens(raw);
        let (o, s) = t[0];
        p.issues.push(issue(
            &codes::OPTIMUM_SCORE_SIDE,
            o..o + s.len(),
            format!("OptimumScore gives the side of the score: \"NS {v}\" or \"EW {v}\" (§4.2.7)"),
        ));
    }
    // "Note that the NS <score> is opposite to the EW <score>." (§4.2.7)
    if let Some(SideScores::Sides {
        ns: Some(ns),
        ew: Some(ew),
        ..
    }) = p.value
    {
        if ns.checked_neg() != Some(ew) {
            p.issues.push(issue(
                &codes::OPTIMUM_SCORE_NOT_OPPOSITE,
                0..raw.len(),
                format!(
                    "OptimumScore gives NS {ns} and EW {ew}; the NS score is opposite to the EW score (NS {ns} EW {}) (§4.2.7)",
                    ns.saturating_neg()
                ),
            ));
        }
    }
    p
}

/// One side's history in ScoreRubberHistory (§4.2.6):
/// `<above_previous> <above_current>/<below-1> [<below-2> [<below-3>]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryScore {
    pub above_previous: u64,
    pub above_current: u64,
    /// Below-the-line points per game of the current rubber (1 to 3).
    pub below: Vec<u64>,
}

/// The ScoreRubberHistory tag value (§4.2.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RubberHistory {
    pub ns: HistoryScore,
    pub ew: HistoryScore,
}

/// Parses a ScoreRubberHistory tag value (§4.2.6):
/// `NS <HistoryScore> EW <HistoryScore>` (the EW part may come first).
/// Errors: [`codes::RUBBER_HISTORY_FORMAT`].
pub fn parse_score_rubber_history(raw: &str) -> Parsed<RubberHistory> {
    if raw.is_empty() || super::is_unknown(raw) {
        return Parsed::none();
    }
    const RULE: &str = "ScoreRubberHistory must be \"NS <HistoryScore> EW <HistoryScore>\", each \
                        \"<above_previous> <above_current>/<below-1> [<below-2> [<below-3>]]\" with \
                        non-negative integers (§4.2.6)";
    let items = merge_slashes(raw, tokens(raw));
    let mut issues = Vec::new();
    let Some(&(start, _)) = items.first() else {
        return Parsed::none();
    };
    let whole = start..items.last().map_or(raw.len(), |&(o, t)| o + t.len());
    let mut local = Vec::new();
    let side_at: Vec<usize> = (0..items.len())
        .filter(|&k| side(items[k].1, items[k].0, &mut local).is_some())
        .collect();
    if side_at.len() != 2 || side_at[0] != 0 || items[0].1.eq_ignore_ascii_case(items[side_at[1]].1)
    {
        issues.push(issue(&codes::RUBBER_HISTORY_FORMAT, whole, RULE));
        return Parsed::new(None, issues);
    }
    issues.extend(local);
    let parse_history =
        |part: &[(usize, &str)], issues: &mut Vec<ValueIssue>| -> Option<HistoryScore> {
            let range = match (part.first(), part.last()) {
                (Some(&(a, _)), Some(&(b, t))) => a..b + t.len(),
                _ => whole.clone(),
            };
            let bad = |issues: &mut Vec<ValueIssue>, r: std::ops::Range<usize>, what: String| {
                issues.push(issue(
                    &codes::RUBBER_HISTORY_FORMAT,
                    r,
                    format!("{RULE}; {what}"),
                ));
                None
            };
            if !(2..=4).contains(&part.len()) {
                return bad(
                    issues,
                    range,
                    format!("{} score units instead of 3 to 5", part.len() + 1),
                );
            }
            let Some(above_previous) = parse_uint(part[0].1) else {
                return bad(
                    issues,
                    part[0].0..part[0].0 + part[0].1.len(),
                    format!("`{}` is not a non-negative integer", part[0].1),
                );
            };
            let Some(pair) = rubber_pair(part[1].1) else {
                return bad(
                    issues,
                    part[1].0..part[1].0 + part[1].1.len(),
                    format!("`{}` is not <above_current>/<below-1>", part[1].1),
                );
            };
            let mut below = vec![pair.below];
            for &(o, t) in &part[2..] {
                match parse_uint(t) {
                    Some(v) => below.push(v),
                    None => {
                        return bad(
                            issues,
                            o..o + t.len(),
                            format!("`{t}` is not a non-negative integer"),
                        )
                    }
                }
            }
            Some(HistoryScore {
                above_previous,
                above_current: pair.above,
                below,
            })
        };
    let first = parse_history(&items[1..side_at[1]], &mut issues);
    let second = parse_history(&items[side_at[1] + 1..], &mut issues);
    let ns_first = items[0].1.eq_ignore_ascii_case("NS");
    let value = match (first, second) {
        (Some(a), Some(b)) => Some(if ns_first {
            RubberHistory { ns: a, ew: b }
        } else {
            RubberHistory { ns: b, ew: a }
        }),
        _ => None,
    };
    Parsed::new(value, issues)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn results() {
        let p = parse_result("9");
        assert_clean(&p.issues, "9");
        assert_eq!(p.value.unwrap().tricks, Some(SideScores::Declarer(9)));
        let p = parse_result("^5");
        assert_clean(&p.issues, "^5");
        let r = p.value.unwrap();
        assert!(r.differs_from_actual);
        assert_eq!(r.tricks, Some(SideScores::Declarer(5)));
        let p = parse_result("NS 9 EW 4");
        assert_clean(&p.issues, "NS 9 EW 4");
        let t = p.value.unwrap().tricks.unwrap();
        assert_eq!((t.ns(), t.ew()), (Some(9), Some(4)));
        assert_eq!(t.for_declarer(true), Some(9));
        let p = parse_result("EW 4 NS 9");
        assert_clean(&p.issues, "EW 4 NS 9");
        assert_eq!(p.value.unwrap().tricks.unwrap().ns(), Some(9));
        assert_clean(&parse_result("NS 9").issues, "NS 9");
        assert_clean(&parse_result("EW 4").issues, "EW 4");
        assert_clean(&parse_result("^NS 9 EW 4").issues, "caret with sides");
        assert!(parse_result("").value.unwrap().is_all_pass());
        assert!(parse_result("?").value.is_none());
    }

    #[test]
    fn result_errors() {
        for (raw, range) in [
            ("C-2", 0..3),
            ("14", 0..2),
            ("-1", 0..2),
            ("NS", 0..2),
            ("NS 9 NS 4", 0..9),
            ("9 4", 0..3),
            ("NS x", 3..4),
            ("^", 0..1),
            ("^x", 1..2),
        ] {
            let p = parse_result(raw);
            assert_eq!(codes_of(&p.issues), vec!["PBN0317"], "{raw}");
            assert_eq!(p.issues[0].range, range, "{raw}");
            assert!(p.value.is_none());
        }
        let p = parse_result("NS 9 EW 2");
        assert_eq!(codes_of(&p.issues), vec!["PBN0319"]);
        assert_eq!(p.issues[0].range, 0..9);
        assert!(p.value.is_some());
        let p = parse_result("NS 9 EW 5");
        assert_eq!(codes_of(&p.issues), vec!["PBN0318"]);
        assert!(p.value.is_none());
        let p = parse_result("ns 9");
        assert_eq!(codes_of(&p.issues), vec!["PBN0325"]);
    }

    #[test]
    fn scores() {
        assert_eq!(parse_score("-300").value, Some(SideScores::Declarer(-300)));
        assert_eq!(
            parse_score("NS 450").value,
            Some(SideScores::Sides {
                ns: Some(450),
                ew: None,
                ns_first: true
            })
        );
        assert_clean(&parse_score("NS +620 EW -620").issues, "signs");
        for raw in ["a", "10.a", "10.-10", "10. 10", "10.5"] {
            expect(&parse_score(raw).issues, &codes::SCORE_FORMAT);
        }
        assert_eq!(
            expect(&parse_score("NS 10.a").issues, &codes::SCORE_FORMAT).range,
            3..7
        );
    }

    #[test]
    fn decimal_scores() {
        for raw in ["10", "EW -2.5", "NS 10 EW 0", "EW 10 NS 0", "NS 0 EW -0"] {
            assert_clean(&parse_score_imp(raw).issues, raw);
            assert_clean(&parse_score_mp(raw).issues, raw);
        }
        for raw in ["a", "10.a", "10.-10", "10. 10"] {
            expect(&parse_score_imp(raw).issues, &codes::SCORE_FORMAT);
            expect(&parse_score_mp(raw).issues, &codes::SCORE_FORMAT);
        }
        assert_eq!(parse_score_imp("EW -2.5").value.unwrap().ew(), Some(-2.5));
    }

    #[test]
    fn percentages() {
        for raw in [
            "0.",
            "100.",
            "100.0",
            "0.1000",
            "EW 50. NS 50.0",
            "NS 15.91",
        ] {
            assert_clean(&parse_score_percentage(raw).issues, raw);
        }
        for raw in ["a", "10.a", "10.-10", "10. 10"] {
            expect(&parse_score_percentage(raw).issues, &codes::SCORE_FORMAT);
        }
        expect(
            &parse_score_percentage("-10").issues,
            &codes::PERCENTAGE_RANGE,
        );
        expect(
            &parse_score_percentage("NS 100.5").issues,
            &codes::PERCENTAGE_RANGE,
        );
    }

    #[test]
    fn rubber() {
        let p = parse_score_rubber("EW 300/40 NS 50 / 70  ");
        assert_clean(&p.issues, "rubber");
        let v = p.value.unwrap();
        assert_eq!(
            v.ns(),
            Some(RubberScore {
                above: 50,
                below: 70
            })
        );
        assert_eq!(
            v.ew(),
            Some(RubberScore {
                above: 300,
                below: 40
            })
        );
        assert_clean(&parse_score_rubber("300/40").issues, "bare");
        assert_clean(&parse_score_rubber("EW 300/ 40").issues, "space after /");
        for raw in [
            "a",
            "10.a",
            "10.-10",
            "10. 10",
            "-10/20",
            "10/",
            "NS 10/20/30",
        ] {
            expect(&parse_score_rubber(raw).issues, &codes::SCORE_FORMAT);
        }
    }

    #[test]
    fn optimum() {
        assert_clean(&parse_optimum_score("NS +620").issues, "plus");
        assert_clean(&parse_optimum_score("EW -300 NS 300").issues, "both");
        let p = parse_optimum_score("620");
        assert_eq!(codes_of(&p.issues), vec!["PBN0323"]);
        assert_eq!(p.value, Some(SideScores::Declarer(620)));
        expect(&parse_optimum_score("NS 6x").issues, &codes::SCORE_FORMAT);
    }

    #[test]
    fn rubber_history() {
        let p = parse_score_rubber_history("NS 0 0/40 EW 100 50/0 70");
        assert_clean(&p.issues, "history");
        let h = p.value.unwrap();
        assert_eq!(
            h.ns,
            HistoryScore {
                above_previous: 0,
                above_current: 0,
                below: vec![40]
            }
        );
        assert_eq!(h.ew.below, vec![0, 70]);
        let p = parse_score_rubber_history("EW 0 0 / 0 NS 0 30/60 0 20");
        assert_clean(&p.issues, "ew first, spaced slash");
        assert_eq!(p.value.unwrap().ns.below, vec![60, 0, 20]);
        for raw in [
            "NS 0/40 EW 0",
            "NS 0 0/40",
            "NS 0 0/40 NS 0 0/0",
            "0 0/40 0 0/0",
            "NS 0 0/40 1 2 3 EW 0 0/0",
            "NS a 0/0 EW 0 0/0",
        ] {
            expect(
                &parse_score_rubber_history(raw).issues,
                &codes::RUBBER_HISTORY_FORMAT,
            );
        }
    }
}
