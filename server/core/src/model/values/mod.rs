//! Parsers for tag values that have a syntax in PBN 2.1 (Deal, Contract,
//! Result, Date, …). The grammar keeps tag values as opaque strings; these
//! functions parse them and report problems with ranges inside the value.
//!
//! Every parser is pure (no IO, no tree-sitter) and takes the *raw* value:
//! the text between the quotes, escapes (`\"`, `\\`) not processed. Ranges in
//! [`ValueIssue`] are byte ranges into that raw text, so the caller adds the
//! offset of the opening quote + 1 to place them in the file.
//!
//! Conventions shared by all parsers:
//! - `"?"` (unknown, §3.4) gives `value: None` and no issue, except for the
//!   Note tag (whose syntax is fixed) and the tags that need a direction
//!   (Auction, Play).
//! - `""` (inappropriate, §3.4) gives `value: None` and no issue, except
//!   where the spec gives it a meaning (Declarer, Contract and Result when all
//!   players pass; TimeControl without a limit; Hidden with no hidden hand),
//!   which return a typed "empty" value, and where it is malformed (Note,
//!   Auction, Play, table column specifications).
//! - Import-format-legal forms (lowercase per §3.11, `Love`, `Both`, `-`,
//!   unsorted ranks, any first seat in the Deal) produce no issue; the typed
//!   values expose what export format needs (`was_lowercase`,
//!   `canonical_export()`, `ranks_sorted`, …).
//! - Readable but non-standard forms give a warning and the interpreted
//!   value; unreadable or impossible values give an error (the severity is
//!   the code's default severity, see `codes/values.rs`).
//! - The inheritance markers `#`/`##` (§4.8) are resolved before; these
//!   parsers are never called with them.

use crate::codes::{values as codes, CodeInfo};
use crate::diagnostic::{Diagnostic, Related, Severity};
use std::ops::Range;

/// Contract tag (§3.4.14, §3.10).
pub mod contract;
/// Date/Time tags (§3.4.3, §4.4.1, §4.5, §4.6).
pub mod date_time;
/// Deal tag (§3.4.11, §3.10, §3.11).
pub mod deal;
/// Board, Scoring, Round, Table, FrenchMP, Room, Hidden and the open-list tags (§3.4.4, §3.4.12, §4.1, §4.3.4, §4.4, §4.7.4).
pub mod misc;
/// Note tag values (§3.5.5, §3.6.5).
pub mod note;
/// Result and score tags (§3.4.15, §4.2).
pub mod result_score;
/// Dealer, Declarer, Auction, Play, Vulnerable (§3.4.9-§3.4.13, §3.5, §3.6).
pub mod seat;
/// Table column specifications and elements (§5.2-§5.10).
pub mod table;

pub use contract::{parse_contract, parse_denomination, ContractTag, ContractValue};
pub use date_time::{
    day_month_swapped, parse_date, parse_seconds, parse_time, parse_time_control, Date, Time,
    TimeControl,
};
pub use deal::{deal_read_form, parse_deal, unique_correction, Deal, DealCorrection};
pub use misc::{
    parse_board, parse_french_mp, parse_hidden, parse_open_list, parse_room, parse_round,
    parse_scoring, parse_table, Hidden, OpenListTag, OpenValue, Room, Round, Scoring, ScoringField,
    ScoringFieldKind, TableId,
};
pub use note::{parse_note, Note};
pub use result_score::{
    parse_optimum_score, parse_result, parse_score, parse_score_imp, parse_score_mp,
    parse_score_percentage, parse_score_rubber, parse_score_rubber_history, HistoryScore,
    ResultTag, ResultTricks, RubberHistory, RubberScore, SideScores,
};
pub use seat::{
    parse_auction_seat, parse_dealer, parse_declarer, parse_play_seat, parse_vulnerable,
    vulnerable_export_form, Declarer, SeatTag, Vulnerable,
};
pub use table::{
    check_cell, check_table_cell, is_table_tag, layout_columns, parse_columns, Align, Column,
    Order, TABLE_TAGS,
};

/// One problem found in a tag value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueIssue {
    /// The rule (its default severity is the issue's severity).
    pub code: &'static CodeInfo,
    /// Byte range relative to the start of the raw value text (the text
    /// between the quotes, escapes NOT processed).
    pub range: Range<usize>,
    /// Names the rule and the § section.
    pub message: String,
    /// A secondary location in the same value (e.g. the first occurrence of
    /// a duplicated card), relative to the raw value text.
    pub related: Option<Related>,
}

impl ValueIssue {
    /// An issue without related information.
    pub fn new(code: &'static CodeInfo, range: Range<usize>, message: impl Into<String>) -> Self {
        let message = message.into();
        let message = crate::diagnostic::tidy(&message).unwrap_or(message);
        ValueIssue {
            code,
            range,
            message,
            related: None,
        }
    }

    /// The issue's severity (its code's default severity).
    pub fn severity(&self) -> Severity {
        self.code.severity
    }

    /// Shifts the ranges by `delta` bytes (e.g. when a sub-value is parsed).
    pub fn shifted(self, delta: usize) -> Self {
        self.mapped(|o| o + delta)
    }

    /// Maps the ranges' offsets through `f` (e.g. from an unescaped text to
    /// the text as written).
    pub fn mapped(mut self, f: impl Fn(usize) -> usize) -> Self {
        self.range = f(self.range.start)..f(self.range.end);
        if let Some(r) = &mut self.related {
            r.range = f(r.range.start)..f(r.range.end);
        }
        self
    }

    /// A diagnostic placed in the file, `value_start` being the byte offset
    /// of the first character after the opening quote.
    pub fn to_diagnostic(&self, value_start: usize) -> Diagnostic {
        let shifted = self.clone().shifted(value_start);
        let mut d = Diagnostic::new(self.code, shifted.range, shifted.message);
        if let Some(r) = shifted.related {
            d = d.with_related(r.range, r.message);
        }
        d
    }
}

/// The result of a value parser: the typed value (if it could be read) and
/// the issues found.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed<T> {
    /// The typed value; `None` when unreadable, `?`, or `""` without meaning.
    pub value: Option<T>,
    /// Problems found, in order of position (mostly).
    pub issues: Vec<ValueIssue>,
}

impl<T> Parsed<T> {
    /// A value (or none) with its issues.
    pub fn new(value: Option<T>, issues: Vec<ValueIssue>) -> Self {
        Parsed { value, issues }
    }

    /// A value without issues.
    pub fn ok(value: T) -> Self {
        Parsed {
            value: Some(value),
            issues: Vec::new(),
        }
    }

    /// No value and no issue (`?`, or `""` where it means "not given").
    pub fn none() -> Self {
        Parsed {
            value: None,
            issues: Vec::new(),
        }
    }

    /// Whether an issue has error severity.
    pub fn has_errors(&self) -> bool {
        self.issues.iter().any(|i| i.severity() == Severity::Error)
    }

    /// Converts the value, keeping the issues.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Parsed<U> {
        Parsed {
            value: self.value.map(f),
            issues: self.issues,
        }
    }
}

/// Validates the value of tag `name` if its value has a syntax in the spec
/// and returns the issues; `None` for tags whose value is free text (Event,
/// Site, player names, …) and for unknown tags. Covers the tags of §3.4,
/// §3.5.5 (Note), §4 and the table tags of §5.
pub fn parse_for_tag(name: &str, raw: &str) -> Option<Vec<ValueIssue>> {
    let issues = match name {
        "Date" | "EventDate" | "UTCDate" => parse_date(raw).issues,
        "Time" | "UTCTime" => parse_time(raw).issues,
        "TimeControl" => parse_time_control(raw).issues,
        "TimeCall" | "TimeCard" => parse_seconds(raw).issues,
        "Board" => parse_board(raw).issues,
        "Table" => parse_table(raw).issues,
        "Round" => parse_round(raw).issues,
        "Dealer" => parse_dealer(raw).issues,
        "Auction" => parse_auction_seat(raw).issues,
        "Play" => parse_play_seat(raw).issues,
        "Declarer" => parse_declarer(raw).issues,
        "Vulnerable" => parse_vulnerable(raw).issues,
        "Deal" => parse_deal(raw).issues,
        "Scoring" => parse_scoring(raw).issues,
        "Contract" => parse_contract(raw).issues,
        "Result" => parse_result(raw).issues,
        "Score" => parse_score(raw).issues,
        "ScoreIMP" => parse_score_imp(raw).issues,
        "ScoreMP" => parse_score_mp(raw).issues,
        "ScorePercentage" => parse_score_percentage(raw).issues,
        "ScoreRubber" => parse_score_rubber(raw).issues,
        "ScoreRubberHistory" => parse_score_rubber_history(raw).issues,
        "OptimumScore" => parse_optimum_score(raw).issues,
        "FrenchMP" => parse_french_mp(raw).issues,
        "Room" => parse_room(raw).issues,
        "Hidden" => parse_hidden(raw).issues,
        "Note" => parse_note(raw).issues,
        _ => {
            if let Some(tag) = OpenListTag::from_name(name) {
                parse_open_list(tag, raw).issues
            } else if table::is_table_tag(name) {
                parse_columns(raw).issues
            } else {
                return None;
            }
        }
    };
    Some(issues)
}

// ---------------------------------------------------------------------------
// Helpers shared by the parsers.

pub(crate) fn issue(
    code: &'static CodeInfo,
    range: Range<usize>,
    message: impl Into<String>,
) -> ValueIssue {
    ValueIssue::new(code, range, message)
}

/// White space inside a tag value (a tab is an error of its own elsewhere).
pub(crate) fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `?`, possibly padded: the unknown value of §3.4.
pub(crate) fn is_unknown(raw: &str) -> bool {
    raw.trim_matches(is_ws) == "?"
}

/// Trims white space around a single-item value, reporting it as
/// [`codes::VALUE_PADDING`]. Returns the offset of the trimmed text in `raw`.
pub(crate) fn trim_padded<'a>(
    raw: &'a str,
    tag: &str,
    section: &str,
    issues: &mut Vec<ValueIssue>,
) -> (usize, &'a str) {
    let start = raw.len() - raw.trim_start_matches(is_ws).len();
    let trimmed = raw.trim_matches(is_ws);
    let end = start + trimmed.len();
    if trimmed.is_empty() {
        if !raw.is_empty() {
            issues.push(issue(
                &codes::VALUE_PADDING,
                0..raw.len(),
                format!("{tag} value consists of white space only; the value itself is empty ({section})"),
            ));
        }
        return (raw.len(), "");
    }
    if start > 0 {
        issues.push(issue(
            &codes::VALUE_PADDING,
            0..start,
            format!("white space before the {tag} value is not part of its syntax ({section})"),
        ));
    }
    if end < raw.len() {
        issues.push(issue(
            &codes::VALUE_PADDING,
            end..raw.len(),
            format!("white space after the {tag} value is not part of its syntax ({section})"),
        ));
    }
    (start, trimmed)
}

/// Splits at white space; returns each item with its byte offset.
pub(crate) fn tokens(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if is_ws(c) {
            if let Some(st) = start.take() {
                out.push((st, &s[st..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

/// A non-empty string of ASCII digits, without overflow.
pub(crate) fn parse_uint(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// An integer with an optional sign.
pub(crate) fn parse_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let n = i64::try_from(parse_uint(digits)?).ok()?;
    Some(if neg { -n } else { n })
}

/// A decimal number with an optional sign and an optional decimal dot
/// (`2`, `-2.5`, `50.`, `.5`).
pub(crate) fn parse_decimal(s: &str) -> Option<f64> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, f),
        None => (digits, ""),
    };
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() && frac.is_empty() || !all_digits(int) || !all_digits(frac) {
        return None;
    }
    s.parse::<f64>().ok()
}

/// Range of the character at byte `i` of `s`.
pub(crate) fn char_range(s: &str, i: usize) -> Range<usize> {
    let len = s[i..].chars().next().map_or(1, char::len_utf8);
    i..i + len
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::*;

    /// Codes of the issues.
    pub fn codes_of(issues: &[ValueIssue]) -> Vec<&'static str> {
        issues.iter().map(|i| i.code.code).collect()
    }

    /// Asserts that `issues` contain `code` and returns that issue.
    pub fn expect<'a>(issues: &'a [ValueIssue], code: &CodeInfo) -> &'a ValueIssue {
        issues
            .iter()
            .find(|i| i.code.code == code.code)
            .unwrap_or_else(|| panic!("expected {} ({}), got {:?}", code.code, code.name, issues))
    }

    pub fn assert_clean(issues: &[ValueIssue], what: &str) {
        assert!(issues.is_empty(), "{what}: unexpected issues {issues:#?}");
    }

    /// `[Name "value"]` pairs of a PBN fragment or file (one tag per line,
    /// possibly several on a line), raw values (escapes kept), with the line
    /// number. Lines starting with `%` are skipped.
    pub fn extract_tags(text: &str) -> Vec<(usize, String, String)> {
        let mut out = Vec::new();
        for (ln, line) in text.lines().enumerate() {
            if line.starts_with('%') {
                continue;
            }
            let mut rest = line;
            while let Some(open) = rest.find('[') {
                let after = &rest[open + 1..];
                let name_len = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                let name = &after[..name_len];
                let tail = after[name_len..].trim_start();
                if name.is_empty() || !tail.starts_with('"') {
                    rest = after;
                    continue;
                }
                // Find the closing quote, honouring \" and \\.
                let body = &tail[1..];
                let mut end = None;
                let mut chars = body.char_indices();
                while let Some((i, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => {
                            end = Some(i);
                            break;
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else { break };
                out.push((ln + 1, name.to_string(), body[..end].to_string()));
                rest = &body[end + 1..];
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::*;
    use super::*;

    #[test]
    fn number_helpers() {
        assert_eq!(parse_uint("007"), Some(7));
        assert_eq!(parse_uint(""), None);
        assert_eq!(parse_uint("1a"), None);
        assert_eq!(parse_int("-300"), Some(-300));
        assert_eq!(parse_int("+620"), Some(620));
        assert_eq!(parse_int("-"), None);
        assert_eq!(parse_decimal("0."), Some(0.0));
        assert_eq!(parse_decimal("100."), Some(100.0));
        assert_eq!(parse_decimal("-2.5"), Some(-2.5));
        assert_eq!(parse_decimal(".5"), Some(0.5));
        assert_eq!(parse_decimal("-.5"), Some(-0.5));
        assert_eq!(parse_decimal("."), None);
        assert_eq!(parse_decimal("10.a"), None);
        assert_eq!(parse_decimal("10.-10"), None);
        assert_eq!(parse_decimal(""), None);
    }

    #[test]
    fn white_space_only_values() {
        for (tag, raw) in [
            ("Board", "  "),
            ("Date", " "),
            ("Vulnerable", " "),
            ("Contract", "  "),
            ("Hidden", " "),
        ] {
            let issues = parse_for_tag(tag, raw).unwrap();
            assert_eq!(codes_of(&issues), vec!["PBN0331"], "{tag}");
            assert_eq!(issues[0].range, 0..raw.len());
        }
        let issues = parse_for_tag("Auction", " ").unwrap();
        assert_eq!(codes_of(&issues), vec!["PBN0331", "PBN0310"]);
    }

    #[test]
    fn tokens_have_offsets() {
        assert_eq!(
            tokens(" NS  9 EW 4 "),
            vec![(1, "NS"), (5, "9"), (7, "EW"), (10, "4")]
        );
    }

    #[test]
    fn unknown_tags_are_not_validated() {
        assert!(parse_for_tag("Event", "anything &").is_none());
        assert!(parse_for_tag("West", "").is_none());
        assert!(parse_for_tag("MyTag", "x").is_none());
        assert!(parse_for_tag("Board", "1").unwrap().is_empty());
        assert!(parse_for_tag("ScoreTable", "Rank\\2R;Score_NS")
            .unwrap()
            .is_empty());
    }

    #[test]
    fn to_diagnostic_shifts_ranges() {
        let p = parse_deal("W:KQT2.AT.J6542.85 K.63.AKQ987.A973 - -");
        let i = expect(&p.issues, &codes::DEAL_DUPLICATE_CARD);
        let d = i.to_diagnostic(100);
        assert_eq!(d.range, i.range.start + 100..i.range.end + 100);
        assert_eq!(d.related.len(), 1);
        assert_eq!(d.related[0].range.start, 102);
    }

    /// Every code of values.rs: its `bad` example triggers it and its `good`
    /// example is clean.
    #[test]
    fn every_code_has_a_failing_and_a_passing_example() {
        for code in codes::LIST {
            let run = |fragment: &str| -> Vec<ValueIssue> {
                let mut issues = Vec::new();
                let tags = extract_tags(fragment);
                assert!(!tags.is_empty(), "{}: no tag in {fragment:?}", code.code);
                for (_, name, raw) in &tags {
                    issues.extend(
                        parse_for_tag(name, raw)
                            .unwrap_or_else(|| panic!("{}: tag {name} not validated", code.code)),
                    );
                    if table::is_table_tag(name) {
                        let cols = parse_columns(raw).value.unwrap_or_default();
                        // Rows: every line after the tag line, split on spaces.
                        for line in fragment.lines().skip(1) {
                            for (col, (_, cell)) in cols.iter().zip(tokens(line)) {
                                issues.extend(check_cell(&col.name, cell));
                            }
                        }
                    }
                }
                issues
            };
            let bad = run(code.bad);
            assert!(
                bad.iter().any(|i| std::ptr::eq(i.code, *code)),
                "{} ({}): bad example {:?} gives {:?}",
                code.code,
                code.name,
                code.bad,
                codes_of(&bad)
            );
            let good = run(code.good);
            assert!(
                good.is_empty(),
                "{} ({}): good example {:?} gives {good:#?}",
                code.code,
                code.name,
                code.good
            );
        }
    }
}
