//! Table column specifications and table elements (§5.2-§5.10).

use super::{issue, parse_decimal, parse_int, parse_uint, Parsed, ValueIssue};
use crate::codes::values as codes;
use std::ops::Range;

/// The tags of the tables defined in §5.3-§5.10.
pub const TABLE_TAGS: &[&str] = crate::spec::tags::TABLES;

/// Whether `name` is a table tag of §5 (whose value is a column spec).
pub fn is_table_tag(name: &str) -> bool {
    TABLE_TAGS.contains(&name)
}

/// The columns of a section whose tag value is a column spec (§5.2), the
/// table's layout: a table tag of §5 with a readable column list, or any
/// other tag whose value reads as one without an issue and declares a
/// column's minimum width (an application's table, e.g. Bridge Composer's
/// `OptimumOpeningLeadTable "Leader;Denomination\2R;Result\1R;S\4;…"`).
pub fn layout_columns(name: &str, raw: &str) -> Option<Vec<Column>> {
    let parsed = parse_columns(raw);
    let columns = parsed.value.filter(|c| !c.is_empty())?;
    let declared = || {
        parsed.issues.is_empty()
            && columns.iter().any(|c| c.min_width.is_some())
            && columns
                .iter()
                .all(|c| !c.name.is_empty() && !c.name.contains(super::is_ws))
    };
    (is_table_tag(name) || declared()).then_some(columns)
}

/// Sort order of a column (§5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// `+`: highest value at the first row.
    Descending,
    /// `-`: lowest value at the first row.
    Ascending,
}

/// Alignment of a column with a minimum width (§5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// `L`: extra spaces after the element.
    Left,
    /// `R`: extra spaces before the element.
    Right,
}

/// One column of a table (§5.2): `[+|-]<name>[\<width>[L|R]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    /// Range of the name in the raw tag value.
    pub name_range: Range<usize>,
    pub order: Option<Order>,
    pub min_width: Option<usize>,
    pub align: Option<Align>,
    /// Range of the whole column specification in the raw tag value.
    pub range: Range<usize>,
}

/// Parses the tag value of a table: column specifications separated by
/// `;` (§5.2, §3.2). A backslash written `\\` (the string escape of §3.2)
/// counts as one backslash. Errors: [`codes::COLUMN_SPEC`] for an empty
/// column name, a `\` not followed by an integer, or characters after the
/// width and alignment. The value keeps the readable columns.
pub fn parse_columns(raw: &str) -> Parsed<Vec<Column>> {
    const RULE: &str =
        "a column is [+|-]<name>[\\<width>[L|R]] and columns are separated by `;` (§5.2)";
    let mut issues = Vec::new();
    let mut columns = Vec::new();
    let mut start = 0;
    for piece in raw.split(';') {
        let range = start..start + piece.len();
        start += piece.len() + 1;
        let mut i = 0;
        let b = piece.as_bytes();
        let order = match b.first() {
            Some(b'+') => Some(Order::Descending),
            Some(b'-') => Some(Order::Ascending),
            _ => None,
        };
        if order.is_some() {
            i = 1;
        }
        let name_end = piece[i..].find('\\').map_or(piece.len(), |k| i + k);
        let name = &piece[i..name_end];
        let name_range = range.start + i..range.start + name_end;
        if name.trim_matches(super::is_ws).is_empty() {
            let r = if piece.is_empty() {
                // Point at the `;` next to the empty column.
                if range.start > 0 {
                    range.start - 1..range.start
                } else {
                    0..raw.len().min(1)
                }
            } else {
                range.clone()
            };
            issues.push(issue(
                &codes::COLUMN_SPEC,
                r,
                format!("empty column name: {RULE}"),
            ));
            continue;
        }
        let mut min_width = None;
        let mut align = None;
        let mut ok = true;
        if name_end < piece.len() {
            let mut j = name_end + 1;
            if b.get(j) == Some(&b'\\') {
                j += 1; // `\\`: an escaped backslash
            }
            let digits = piece[j..].bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                issues.push(issue(
                    &codes::COLUMN_SPEC,
                    range.start + name_end
                        ..range.start + j + piece[j..].chars().next().map_or(0, char::len_utf8),
                    format!("`\\` must be followed by the minimum width, an integer: {RULE}"),
                ));
                ok = false;
            } else {
                min_width = parse_uint(&piece[j..j + digits]).and_then(|v| usize::try_from(v).ok());
                j += digits;
                align = match b.get(j) {
                    Some(b'L') => Some(Align::Left),
                    Some(b'R') => Some(Align::Right),
                    _ => None,
                };
                if align.is_some() {
                    j += 1;
                }
                if j < piece.len() {
                    issues.push(issue(
                        &codes::COLUMN_SPEC,
                        range.start + j..range.end,
                        format!(
                            "`{}` after the width: only `L` or `R` may follow it: {RULE}",
                            &piece[j..]
                        ),
                    ));
                    ok = false;
                }
            }
        }
        if ok {
            columns.push(Column {
                name: name.to_string(),
                name_range,
                order,
                min_width,
                align,
                range,
            });
        }
    }
    Parsed::new(Some(columns), issues)
}

/// "a" or "an" before a column name as it is read aloud: "an IMP_NS", "an
/// MP_EW", "an S" (abbreviations are spelled out), "a Rank".
fn article(column_name: &str) -> &'static str {
    let first_word = column_name.split('_').next().unwrap_or("");
    let spelled = first_word.len() <= 3 && first_word.chars().all(|c| c.is_ascii_uppercase());
    match column_name.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'a' | 'e' | 'i' | 'o' | 'u') => "an",
        Some('F' | 'H' | 'L' | 'M' | 'N' | 'R' | 'S' | 'X') if spelled => "an",
        _ => "a",
    }
}

/// Checks one table element against the format of its column (§5.2-§5.10).
/// `column_name` is [`Column::name`] (without order and width);
/// `cell` the element's text (the inside of a string token). `?`
/// (unknown), `-` (irrelevant) and a leading `^` (artificial score) are
/// always allowed. Columns without a defined format (PairId, Names, user
/// columns) are not checked. Returns the most severe issue, with a range
/// relative to `cell`; mostly [`codes::TABLE_CELL_FORMAT`], or the tag
/// parsers' codes for Contract, Declarer, Result, Denomination.
pub fn check_cell(column_name: &str, cell: &str) -> Option<ValueIssue> {
    if cell == "?" || cell == "-" {
        return None;
    }
    let (off, v) = match cell.strip_prefix('^') {
        Some(rest) => (1, rest),
        None => (0, cell),
    };
    let bad = |what: &str, section: &str| {
        Some(issue(
            &codes::TABLE_CELL_FORMAT,
            0..cell.len(),
            format!(
                "{} {column_name} element is {what}, `?` or `-`, not \"{cell}\" ({section})",
                article(column_name)
            ),
        ))
    };
    let first_of = |issues: Vec<ValueIssue>| -> Option<ValueIssue> {
        let worst = issues.iter().map(|i| i.severity()).max()?;
        issues
            .into_iter()
            .find(|i| i.severity() == worst)
            .map(|i| i.shifted(off))
    };
    let positive = |s: &str| parse_uint(s).is_some_and(|n| n > 0);
    let score = |s: &str| parse_int(s).is_some();
    let decimal = |s: &str| parse_decimal(s).is_some();
    match column_name {
        "Rank" | "NrBoards" | "Multiplicity" => (!positive(v)).then(|| bad("a positive integer", "§5.9, §5.10")).flatten(),
        "Score_NS" | "Score_EW" => (!score(v)).then(|| bad("an integer score", "§5.9")).flatten(),
        "ScoreRange_NS" | "ScoreRange_EW" => {
            let ok = match v.split_once(',') {
                None => score(v),
                Some((a, b)) => match (a, b) {
                    ("*", "*") => false,
                    ("*", b) => score(b),
                    (a, "*") => score(a),
                    (a, b) => score(a) && score(b),
                },
            };
            (!ok).then(|| bad("<score>, <score1>,*, <score1>,<score2> or *,<score2>", "§5.5")).flatten()
        }
        "Percentage" | "Percentage_NS" | "Percentage_EW" | "TotalPercentage" | "MeanPercentage" => {
            match parse_decimal(v) {
                Some(p) if (0.0..=100.0).contains(&p) => None,
                Some(_) => Some(issue(
                    &codes::PERCENTAGE_RANGE,
                    0..cell.len(),
                    format!(
                        "{} {column_name} element is a percentage between 0 and 100, not \"{cell}\" (§4.2.4, §5.9)",
                        article(column_name)
                    ),
                )),
                None => bad("a decimal number", "§5.9"),
            }
        }
        "Time" | "TotalTime" => super::date_time::parse_duration(v)
            .is_none()
            .then(|| bad("a time HH:MM:SS, MM:SS or SS", "§5.4, §5.8"))
            .flatten(),
        n if n.starts_with("IMP_") || n.starts_with("MP_") || n.starts_with("Total") || n.starts_with("Mean") => {
            (!decimal(v)).then(|| bad("a number (integer or decimal with a dot)", "§5.9, §5.10")).flatten()
        }
        "Contract" => first_of(super::parse_contract(v).issues),
        "Declarer" => first_of(super::parse_declarer(v).issues),
        "Result" => first_of(super::parse_result(v).issues),
        "Denomination" => first_of(super::contract::parse_denomination(v).issues),
        "Card" => crate::spec::cards::read_standard(v)
            .is_none()
            .then(|| bad("a card <suit><rank> as in the play section", "§5.3, §3.6.1"))
            .flatten(),
        "Call" => {
            use crate::spec::calls::{self, Call};
            // Pass, X, XX, AP in any case (§3.11), or a bid as a contract
            // writes it.
            let other = calls::read(v).filter(|c| !matches!(c, Call::Bid { .. }));
            let ok = other.is_some_and(|c| c.canonical().eq_ignore_ascii_case(v))
                || matches!(super::parse_contract(v).value, Some(t)
                    if matches!(t.value, super::ContractValue::Contract(c) if c.penalty == contract_bridge::Penalty::Undoubled));
            (!ok).then(|| bad("a call as in the auction section", "§5.3, §3.5.1")).flatten()
        }
        _ => None,
    }
}

/// Like [`check_cell`], knowing the table: also checks the suit columns S,
/// H, D, C of the OptimumPlayTable (ranks, §5.6), which other tables may
/// use with another meaning.
pub fn check_table_cell(table: &str, column_name: &str, cell: &str) -> Option<ValueIssue> {
    if table == "OptimumPlayTable" && matches!(column_name, "S" | "H" | "D" | "C") {
        if cell == "?" || cell == "-" {
            return None;
        }
        let ok = !cell.is_empty() && cell.chars().all(|c| super::deal::rank_of_char(c).is_some());
        return (!ok).then(|| {
            issue(
                &codes::TABLE_CELL_FORMAT,
                0..cell.len(),
                format!(
                    "{} {column_name} element of the OptimumPlayTable is the ranks of the optimum cards (A K Q J T 9 … 2) or `-`, not \"{cell}\" (§5.6)",
                    article(column_name)
                ),
            )
        });
    }
    // The standard's author ends an ActionTable with a row of zeros and his
    // verifier accepts it; "rank order of action" (§5.3) does not rule it
    // out. Elsewhere a rank is a position, from 1.
    if table == "ActionTable" && column_name == "Rank" && cell == "0" {
        return None;
    }
    check_cell(column_name, cell)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn articles_follow_how_a_column_name_is_read() {
        for (name, a) in [
            ("Rank", "a"),
            ("IMP_NS", "an"),
            ("MP_EW", "an"),
            ("MeanPercentage", "a"),
            ("S", "an"),
            ("H", "an"),
            ("D", "a"),
            ("C", "a"),
            ("Score_NS", "a"),
            ("Time", "a"),
        ] {
            assert_eq!(article(name), a, "{name}");
        }
    }

    #[test]
    fn columns() {
        let raw = "Declarer;Denomination\\2R;Result\\2R";
        let p = parse_columns(raw);
        assert_clean(&p.issues, raw);
        let cols = p.value.unwrap();
        assert_eq!(cols.len(), 3);
        assert_eq!(cols[1].name, "Denomination");
        assert_eq!(cols[1].min_width, Some(2));
        assert_eq!(cols[1].align, Some(Align::Right));
        assert_eq!(cols[1].name_range, 9..21);
        assert_eq!(cols[1].range, 9..24);
        let p = parse_columns("+Rank;-Score_NS\\6;Names\\50L;My col");
        assert_clean(&p.issues, "orders");
        let cols = p.value.unwrap();
        assert_eq!(cols[0].order, Some(Order::Descending));
        assert_eq!(cols[0].name_range, 1..5);
        assert_eq!(cols[1].order, Some(Order::Ascending));
        assert_eq!(cols[1].min_width, Some(6));
        assert_eq!(cols[1].align, None);
        assert_eq!(cols[2].align, Some(Align::Left));
        assert_eq!(cols[3].name, "My col");
        // Escaped backslash.
        let p = parse_columns("Rank\\\\2R");
        assert_clean(&p.issues, "escaped");
        assert_eq!(p.value.unwrap()[0].min_width, Some(2));
    }

    #[test]
    fn column_errors() {
        for (raw, range) in [
            ("", 0..0),
            ("Rank;", 4..5),
            ("Rank;;Score", 4..5),
            ("+", 0..1),
            ("Rank\\R", 4..6),
            ("Rank\\", 4..5),
            ("Rank\\2X", 6..7),
            ("Rank\\2RL", 7..8),
        ] {
            let p = parse_columns(raw);
            assert_eq!(codes_of(&p.issues), vec!["PBN0332"], "{raw:?}");
            assert_eq!(p.issues[0].range, range, "{raw:?}");
        }
    }

    #[test]
    fn cells() {
        for (col, cell) in [
            ("Rank", "1"),
            ("Rank", "?"),
            ("Rank", "-"),
            ("Score_NS", "-620"),
            ("Score_EW", "^300"),
            ("IMP_NS", "-2.5"),
            ("MP_EW", "10"),
            ("Percentage_NS", "56.2"),
            ("TotalScoreIMP", "50"),
            ("MeanMP", "1.5"),
            ("Time", "01:02:03"),
            ("TotalTime", "2:03"),
            ("Time", "45"),
            ("Contract", "3NTX"),
            ("Contract", "4h"),
            ("Declarer", "W"),
            ("Result", "13"),
            ("Denomination", "NT"),
            ("Multiplicity", "2"),
            ("NrBoards", "21"),
            ("ScoreRange_NS", "420"),
            ("ScoreRange_NS", "420,*"),
            ("ScoreRange_NS", "*,-100"),
            ("ScoreRange_NS", "100,420"),
            ("Card", "SK"),
            ("Call", "1NT"),
            ("Call", "Pass"),
            ("PairId_NS", "anything"),
            ("Names", "A;B"),
        ] {
            assert_eq!(check_cell(col, cell), None, "{col} {cell}");
        }
        for (col, cell, code) in [
            ("Rank", "0", "PBN0333"),
            ("Rank", "a", "PBN0333"),
            ("Score_NS", "abc", "PBN0333"),
            ("IMP_NS", "1.a", "PBN0333"),
            ("Percentage_EW", "101", "PBN0321"),
            ("Time", "1:60", "PBN0333"),
            ("Contract", "5Hearts", "PBN0315"),
            ("Contract", "1N", "PBN0316"),
            ("Declarer", "X", "PBN0310"),
            ("Result", "14", "PBN0317"),
            ("Denomination", "1S", "PBN0315"),
            ("ScoreRange_NS", "*,*", "PBN0333"),
            ("Card", "SX", "PBN0333"),
            ("Call", "1NTX", "PBN0333"),
        ] {
            let i = check_cell(col, cell).unwrap_or_else(|| panic!("{col} {cell}"));
            assert_eq!(i.code.code, code, "{col} {cell}");
        }
        assert_eq!(check_table_cell("OptimumPlayTable", "S", "AKQ"), None);
        assert_eq!(check_table_cell("ActionTable", "Rank", "0"), None);
        assert!(check_table_cell("ScoreTable", "Rank", "0").is_some());
        assert_eq!(check_table_cell("OptimumPlayTable", "H", "-"), None);
        assert_eq!(
            check_table_cell("OptimumPlayTable", "S", "AKV")
                .unwrap()
                .code
                .code,
            "PBN0333"
        );
        assert_eq!(check_table_cell("AuctionTimeTable", "S", "17"), None);
        assert_eq!(
            check_table_cell("ScoreTable", "Rank", "x")
                .unwrap()
                .code
                .code,
            "PBN0333"
        );
        // `^` shifts the ranges of sub-parsers.
        let i = check_cell("Contract", "^5Hearts").unwrap();
        assert_eq!(i.range, 3..8);
    }
}
