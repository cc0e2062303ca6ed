//! Date, EventDate, UTCDate (§3.4.3, §4.4.1, §4.5.2); Time, UTCTime
//! (§4.5.1, §4.5.3); TimeControl (§4.6.1); TimeCall, TimeCard (§4.6.2-3).

use super::{is_unknown, is_ws, issue, parse_uint, trim_padded, Parsed, ValueIssue};
use crate::codes::values as codes;

/// A date of the Date/EventDate/UTCDate tags (§3.4.3). Each field is `None`
/// when one of its digits is unknown (`?`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Date {
    pub year: Option<u16>,
    pub month: Option<u8>,
    pub day: Option<u8>,
    /// The date in the standard form `YYYY.MM.DD`, `?` kept per digit. Equal
    /// to the raw value when it was written in the standard form.
    pub canonical: String,
    /// A time of day written after the date (`2013-08-24 18:36`), as
    /// `HH:MM:SS`: it belongs in the Time (UTCTime) tag.
    pub time: Option<String>,
}

impl Date {
    /// Whether every digit is known.
    pub fn is_complete(&self) -> bool {
        self.year.is_some() && self.month.is_some() && self.day.is_some()
    }
}

const DATE_RULE: &str = "a date must be YYYY.MM.DD with `?` for unknown digits (§3.4.3)";

/// Parses a Date, EventDate or UTCDate tag value (§3.4.3, §4.4.1, §4.5.2).
///
/// `YYYY.MM.DD` with `?` per unknown digit is clean. Readable variants give
/// [`codes::NONSTANDARD_DATE`] (warning) and the interpreted date: `-` or `/`
/// separators, no separators (`20151006`), a one-character month or day
/// (`2015.9.1`, `2015.09.?`). Anything else is [`codes::DATE_FORMAT`];
/// a month or day that does not exist is [`codes::IMPOSSIBLE_DATE`].
pub fn parse_date(raw: &str) -> Parsed<Date> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Date", "§3.4.3", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let whole = off..off + s.len();
    if let Some(other) = other_date_form(off, s) {
        issues.extend(other.issues);
        return Parsed::new(other.value, issues);
    }
    let (parts, mut nonstandard) = date_parts(s);
    if parts.len() != 3 {
        issues.push(issue(
            &codes::DATE_FORMAT,
            whole,
            format!("{DATE_RULE}; `{s}` does not have three fields"),
        ));
        return Parsed::new(None, issues);
    }
    if let Some(i) = wrong_characters(off, s, &parts) {
        issues.push(i);
        return Parsed::new(None, issues);
    }
    let (yp, year) = parts[0];
    if year.len() != 4 {
        issues.push(issue(
            &codes::DATE_FORMAT,
            off + yp..off + yp + year.len(),
            format!(
                "{DATE_RULE}; the year must have four digits, not {}",
                year.len()
            ),
        ));
        return Parsed::new(None, issues);
    }
    let mut ok = true;
    let mut fields = [String::new(), String::new()];
    for (k, &(p, text)) in parts[1..].iter().enumerate() {
        let what = if k == 0 { "month" } else { "day" };
        match text.len() {
            2 => fields[k] = text.to_string(),
            1 => {
                fields[k] = if text == "?" {
                    "??".into()
                } else {
                    format!("0{text}")
                };
                if !nonstandard.contains(&"has a one-character month or day") {
                    nonstandard.push("has a one-character month or day");
                }
            }
            _ => {
                issues.push(issue(
                    &codes::DATE_FORMAT,
                    off + p..off + p + text.len(),
                    format!("{DATE_RULE}; the {what} must have two digits"),
                ));
                ok = false;
            }
        }
    }
    if !ok {
        return Parsed::new(None, issues);
    }
    let canonical = format!("{year}.{}.{}", fields[0], fields[1]);
    if !nonstandard.is_empty() {
        issues.push(issue(
            &codes::NONSTANDARD_DATE,
            whole.clone(),
            format!(
                "date `{s}` {}; read as `{canonical}`: {DATE_RULE}",
                nonstandard.join(" and ")
            ),
        ));
    }
    let known = |t: &str| t.parse::<u16>().ok().filter(|_| !t.contains('?'));
    let y = known(year);
    let m = known(&fields[0]).map(|v| v as u8);
    let d = known(&fields[1]).map(|v| v as u8);
    let value_ok = month_and_day_exist(off, &parts, y, m, d, &mut issues);
    let value = value_ok.then_some(Date {
        year: y,
        month: m,
        day: d,
        canonical,
        time: None,
    });
    Parsed::new(value, issues)
}

fn is_date_char(c: char) -> bool {
    c.is_ascii_digit() || c == '?'
}

/// A date's three fields or more (offset in `s`, text), and how its form
/// is not the standard's.
fn date_parts(s: &str) -> (Vec<(usize, &str)>, Vec<&'static str>) {
    let mut nonstandard = Vec::new();
    let parts: Vec<(usize, &str)> = if s.len() == 8 && s.chars().all(is_date_char) {
        nonstandard.push("has no separators");
        vec![(0, &s[0..4]), (4, &s[4..6]), (6, &s[6..8])]
    } else {
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, c) in s.char_indices() {
            if matches!(c, '.' | '-' | '/') {
                parts.push((start, &s[start..i]));
                start = i + 1;
                if c != '.' && !nonstandard.contains(&"uses `-` or `/` as separator") {
                    nonstandard.push("uses `-` or `/` as separator");
                }
            }
        }
        parts.push((start, &s[start..]));
        parts
    };
    (parts, nonstandard)
}

/// [`codes::DATE_FORMAT`] for the characters of the fields that are not
/// digits or `?`, if any: one diagnostic for the value, however many
/// characters are wrong (`2-Aug-2023`, `2013-08-24 18:36`), naming each
/// wrong one once.
fn wrong_characters(off: usize, s: &str, parts: &[(usize, &str)]) -> Option<ValueIssue> {
    // The range runs from the first wrong character to the last.
    let mut wrong: Vec<char> = Vec::new();
    let mut span: Option<std::ops::Range<usize>> = None;
    for &(p, text) in parts {
        for (i, c) in text.char_indices().filter(|&(_, c)| !is_date_char(c)) {
            let at = off + p + i;
            let end = at + c.len_utf8();
            span = Some(span.map_or(at..end, |r| r.start..end));
            if !wrong.contains(&c) {
                wrong.push(c);
            }
        }
    }
    if wrong.is_empty() {
        return None;
    }
    let list: Vec<String> = wrong
        .iter()
        .map(|&c| match c {
            ' ' => "a space".to_string(),
            c => format!("`{c}`"),
        })
        .collect();
    let verb = if wrong.len() == 1 {
        "is not a digit"
    } else {
        "are not digits"
    };
    Some(issue(
        &codes::DATE_FORMAT,
        span.unwrap_or(off..off + s.len()),
        format!("{DATE_RULE}; in `{s}`, {} {verb}", list.join(", ")),
    ))
}

/// Whether the month (01 to 12) and the day (in that month) exist;
/// [`codes::IMPOSSIBLE_DATE`] for each that does not.
fn month_and_day_exist(
    off: usize,
    parts: &[(usize, &str)],
    y: Option<u16>,
    m: Option<u8>,
    d: Option<u8>,
    issues: &mut Vec<ValueIssue>,
) -> bool {
    let (mp, mtext) = parts[1];
    let (dp, dtext) = parts[2];
    let mut value_ok = true;
    if let Some(m) = m {
        if !(1..=12).contains(&m) {
            value_ok = false;
            issues.push(issue(
                &codes::IMPOSSIBLE_DATE,
                off + mp..off + mp + mtext.len(),
                format!("month {m} does not exist; the month is 01 to 12 (§3.4.3)"),
            ));
        }
    }
    if let Some(d) = d {
        let max = match m {
            Some(2) => match y {
                Some(y) if !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) => 28,
                _ => 29,
            },
            Some(4 | 6 | 9 | 11) => 30,
            _ => 31,
        };
        if d == 0 || d > max {
            value_ok = false;
            let month = match m {
                Some(m) if (1..=12).contains(&m) => format!(" in month {m:02}"),
                _ => String::new(),
            };
            issues.push(issue(
                &codes::IMPOSSIBLE_DATE,
                off + dp..off + dp + dtext.len(),
                format!("day {d} does not exist{month}; the day is 01 to {max} (§3.4.3)"),
            ));
        }
    }
    value_ok
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// A month name in English, three letters or more (`Aug`, `august`, `SEPT`).
fn month_of_name(t: &str) -> Option<usize> {
    let lower = t.to_ascii_lowercase();
    (t.len() >= 3 && t.bytes().all(|b| b.is_ascii_alphabetic()))
        .then(|| MONTHS.iter().position(|m| lower.starts_with(m)))
        .flatten()
}

/// `H:MM` or `HH:MM[:SS]` as `HH:MM:SS`, when it is a time of day.
fn time_of_day(t: &str) -> Option<String> {
    let parts: Vec<&str> = t.split(':').collect();
    let digits = |p: &&str| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    if !(2..=3).contains(&parts.len()) || !parts.iter().all(digits) {
        return None;
    }
    let time = format!(
        "{:0>2}:{:0>2}:{:0>2}",
        parts[0],
        parts[1],
        parts.get(2).unwrap_or(&"00")
    );
    parse_time(&time).value.map(|_| time)
}

/// The date forms of other programs that have one reading: a time after
/// the date (`2013-08-24 18:36`, `2013-08-24T18:36:05`), a month name
/// (`2-Aug-2023`, `Aug 2 2023`), the year last (`24.08.2013`, `08/24/2013`)
/// when a field above 12 tells the day from the month. Each gives one
/// [`codes::NONSTANDARD_DATE`] over the value and the date read; a year
/// last whose day and month could be either way round (`08/07/2013`) is
/// [`codes::DATE_FORMAT`], without a reading: no order is guessed. `None`
/// for every other form (read by [`parse_date`] itself).
fn other_date_form(off: usize, s: &str) -> Option<Parsed<Date>> {
    let whole = off..off + s.len();
    let (date, time) = match s.rfind([' ', 'T']) {
        Some(i) => match time_of_day(&s[i + 1..]) {
            Some(t) => (s[..i].trim_end_matches(is_ws), Some(t)),
            None => (s, None),
        },
        None => (s, None),
    };
    let fields: Vec<&str> = date
        .split(['.', '-', '/', ' ', ','])
        .filter(|f| !f.is_empty())
        .collect();
    let numeric = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    let named = fields.iter().position(|f| month_of_name(f).is_some());
    let year_last = fields.len() == 3
        && fields[2].len() == 4
        && fields.iter().all(|f| numeric(f))
        && fields[..2].iter().all(|f| f.len() <= 2);
    let (year, month, day, how) = match named {
        _ if fields.len() != 3 => return None,
        Some(m) => {
            let others: Vec<&str> = (0..3).filter(|&i| i != m).map(|i| fields[i]).collect();
            let (y, d) = match (others[0].len(), others[1].len()) {
                (1 | 2, 4) => (others[1], others[0]),
                (4, 1 | 2) => (others[0], others[1]),
                _ => return None,
            };
            if !numeric(y) || !numeric(d) {
                return None;
            }
            let month = month_of_name(fields[m])? + 1;
            (
                y.to_string(),
                month.to_string(),
                d.to_string(),
                "names its month",
            )
        }
        None if year_last => {
            let (a, b) = (fields[0], fields[1]);
            let (va, vb) = (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?);
            let (month, day, how) = if va == vb || (va > 12 && vb <= 12) {
                (b, a, "is written day, month, year")
            } else if vb > 12 && va <= 12 {
                (a, b, "is written month, day, year")
            } else if va > 12 && vb > 12 {
                return None;
            } else {
                let issues = vec![issue(
                    &codes::DATE_FORMAT,
                    whole,
                    format!(
                        "{DATE_RULE}; `{s}` puts the year last and may be day {a} of month {b} or day {b} of month {a}: no order is guessed, write the date as YYYY.MM.DD"
                    ),
                )];
                return Some(Parsed::new(None, issues));
            };
            (
                fields[2].to_string(),
                month.to_string(),
                day.to_string(),
                how,
            )
        }
        None if time.is_some() => return Some(with_time(off, s, date, time)),
        None => return None,
    };
    let read = format!("{year}.{month:0>2}.{day:0>2}");
    let p = parse_date(&read);
    let issues = p
        .issues
        .into_iter()
        .filter(|i| i.code.code != codes::NONSTANDARD_DATE.code)
        .map(|mut i| {
            i.range = whole.clone();
            i
        })
        .collect::<Vec<_>>();
    if !issues.is_empty() {
        return Some(Parsed::new(None, issues));
    }
    let value = p.value.map(|d| Date {
        time: time.clone(),
        ..d
    });
    let canonical = value.as_ref().map_or(read, |d| d.canonical.clone());
    let at = time.as_ref().map_or(String::new(), |t| {
        format!(" with the time {t}, which belongs in the Time tag")
    });
    Some(Parsed::new(
        value,
        vec![issue(
            &codes::NONSTANDARD_DATE,
            whole,
            format!("date `{s}` {how}{at}; read as `{canonical}`: {DATE_RULE}"),
        )],
    ))
}

/// A date in one of [`parse_date`]'s own forms followed by a time.
fn with_time(off: usize, s: &str, date: &str, time: Option<String>) -> Parsed<Date> {
    let whole = off..off + s.len();
    let p = parse_date(date);
    if p.issues
        .iter()
        .any(|i| i.code.code != codes::NONSTANDARD_DATE.code)
    {
        let issues = p
            .issues
            .into_iter()
            .map(|mut i| {
                i.range = whole.clone();
                i
            })
            .collect();
        return Parsed::new(None, issues);
    }
    let value = p.value.map(|d| Date { time, ..d });
    let (canonical, t) = value
        .as_ref()
        .map(|d| (d.canonical.clone(), d.time.clone().unwrap_or_default()))
        .unwrap_or_default();
    Parsed::new(
        value,
        vec![issue(
            &codes::NONSTANDARD_DATE,
            whole,
            format!(
                "date `{s}` has the time {t} after it, which belongs in the Time tag; read as `{canonical}`: {DATE_RULE}"
            ),
        )],
    )
}

/// The date `raw` with its month and day swapped (`2024.13.05` →
/// `2024.05.13`), when that is the only way to read it: `raw` is
/// impossible only because its month is 13 or more, and the swapped date
/// is a complete, existing one. (A day that does not exist never becomes a
/// month: it is 13 or more too.)
pub fn day_month_swapped(raw: &str) -> Option<String> {
    let p = parse_date(raw);
    if p.value.is_some()
        || p.issues.iter().any(|i| {
            ![codes::IMPOSSIBLE_DATE.code, codes::NONSTANDARD_DATE.code].contains(&i.code.code)
        })
    {
        return None;
    }
    let s = raw.trim();
    let parts: Vec<&str> = if s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit()) {
        vec![&s[0..4], &s[4..6], &s[6..8]]
    } else {
        s.split(['.', '-', '/']).collect()
    };
    let [year, month, day] = parts[..] else {
        return None;
    };
    let swapped = format!("{year}.{day:0>2}.{month:0>2}");
    parse_date(&swapped)
        .value
        .filter(Date::is_complete)
        .map(|d| d.canonical)
}

/// A time of day of the Time/UTCTime tags (§4.5.1). Each field is `None`
/// when one of its digits is unknown (`?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Time {
    pub hour: Option<u8>,
    pub minute: Option<u8>,
    pub second: Option<u8>,
}

/// Parses a Time or UTCTime tag value `HH:MM:SS` (§4.5.1, §4.5.3); as in
/// the Date tag, `?` may replace unknown digits. Errors:
/// [`codes::TIME_FORMAT`].
pub fn parse_time(raw: &str) -> Parsed<Time> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "Time", "§4.5.1", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let whole = off..off + s.len();
    const RULE: &str = "a time must be HH:MM:SS with colons (§4.5.1)";
    let parts: Vec<&str> = s.split(':').collect();
    let well_formed = parts.len() == 3
        && parts
            .iter()
            .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_digit() || c == '?'));
    if !well_formed {
        issues.push(issue(
            &codes::TIME_FORMAT,
            whole,
            format!("{RULE}; `{s}` is not"),
        ));
        return Parsed::new(None, issues);
    }
    let known = |t: &str| t.parse::<u8>().ok().filter(|_| !t.contains('?'));
    let t = Time {
        hour: known(parts[0]),
        minute: known(parts[1]),
        second: known(parts[2]),
    };
    let mut ok = true;
    for (k, (v, max, what)) in [
        (t.hour, 23, "hour"),
        (t.minute, 59, "minute"),
        (t.second, 59, "second"),
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(v) = v {
            if v > max {
                ok = false;
                issues.push(issue(
                    &codes::TIME_FORMAT,
                    off + 3 * k..off + 3 * k + 2,
                    format!("{what} {v} does not exist; the {what} is 00 to {max} (§4.5.1)"),
                ));
            }
        }
    }
    Parsed::new(ok.then_some(t), issues)
}

/// The TimeControl tag value (§4.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `""`: no time limit at all.
    Unlimited,
    /// `<NrGames>/<NrMinutes>`: `games` games must be finished within
    /// `minutes` minutes.
    Limit { games: u32, minutes: u32 },
}

/// Parses a TimeControl tag value: `<NrGames>/<NrMinutes>` (two positive
/// integers), or `""` for no limit (§4.6.1). Errors:
/// [`codes::TIME_CONTROL_FORMAT`].
pub fn parse_time_control(raw: &str) -> Parsed<TimeControl> {
    if raw.is_empty() {
        return Parsed::ok(TimeControl::Unlimited);
    }
    if is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "TimeControl", "§4.6.1", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    let positive = |t: &str| {
        parse_uint(t)
            .and_then(|v| u32::try_from(v).ok())
            .filter(|&v| v > 0)
    };
    let value = s
        .split_once('/')
        .and_then(|(g, m)| Some((positive(g)?, positive(m)?)));
    match value {
        Some((games, minutes)) => Parsed::new(Some(TimeControl::Limit { games, minutes }), issues),
        None => {
            issues.push(issue(
                &codes::TIME_CONTROL_FORMAT,
                off..off + s.len(),
                "TimeControl must be <NrGames>/<NrMinutes> with two positive integers, e.g. \"4/30\", \
                 or \"\" for no time limit (§4.6.1)",
            ));
            Parsed::new(None, issues)
        }
    }
}

/// Parses a TimeCall or TimeCard tag value: a non-negative integer number
/// of seconds (§4.6.2, §4.6.3). Errors: [`codes::SECONDS_FORMAT`].
pub fn parse_seconds(raw: &str) -> Parsed<u32> {
    if raw.is_empty() || is_unknown(raw) {
        return Parsed::none();
    }
    let mut issues = Vec::new();
    let (off, s) = trim_padded(raw, "TimeCall/TimeCard", "§4.6.2", &mut issues);
    if s.is_empty() {
        return Parsed::new(None, issues);
    }
    match parse_uint(s).and_then(|v| u32::try_from(v).ok()) {
        Some(v) => Parsed::new(Some(v), issues),
        None => {
            issues.push(issue(
                &codes::SECONDS_FORMAT,
                off..off + s.len(),
                "TimeCall and TimeCard give a number of seconds, a non-negative integer (§4.6.2, §4.6.3)",
            ));
            Parsed::new(None, issues)
        }
    }
}

/// A duration of the Time/TotalTime table columns: `HH:MM:SS`, `MM:SS` or
/// `SS` (§5.4, §5.8); returns seconds. Minutes and seconds after the first
/// field must be below 60.
pub fn parse_duration(s: &str) -> Option<u64> {
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let mut total = 0u64;
    for (i, p) in parts.iter().enumerate() {
        if i > 0 && p.len() > 2 {
            return None;
        }
        let v = parse_uint(p)?;
        if i > 0 && v >= 60 {
            return None;
        }
        total = total.checked_mul(60)?.checked_add(v)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn standard_dates() {
        let p = parse_date("1995.06.10");
        assert_clean(&p.issues, "date");
        let d = p.value.unwrap();
        assert_eq!((d.year, d.month, d.day), (Some(1995), Some(6), Some(10)));
        assert_eq!(d.canonical, "1995.06.10");
        assert!(d.is_complete());
        let p = parse_date("2012.08.??");
        assert_clean(&p.issues, "partial");
        assert_eq!(p.value.unwrap().day, None);
        assert_clean(&parse_date("????.??.??").issues, "unknown digits");
        assert_clean(&parse_date("2000.02.29").issues, "leap");
        assert_clean(&parse_date("????.02.29").issues, "leap unknown year");
        assert!(parse_date("").value.is_none() && parse_date("").issues.is_empty());
        assert!(parse_date("?").issues.is_empty());
    }

    #[test]
    fn date_errors() {
        let p = parse_date("95.06.10");
        assert_eq!(expect(&p.issues, &codes::DATE_FORMAT).range, 0..2);
        assert!(p.value.is_none());
        let p = parse_date("1995.o6.10");
        assert_eq!(expect(&p.issues, &codes::DATE_FORMAT).range, 5..6);
        let p = parse_date("1995.06");
        expect(&p.issues, &codes::DATE_FORMAT);
        let p = parse_date("1995.006.10");
        expect(&p.issues, &codes::DATE_FORMAT);
        let p = parse_date("10/07/2023");
        expect(&p.issues, &codes::DATE_FORMAT);
    }

    #[test]
    fn one_diagnostic_per_date_value() {
        let p = parse_date("2013-08-24 18:3x");
        assert_eq!(codes_of(&p.issues), ["PBN0301"], "{:?}", p.issues);
        let i = &p.issues[0];
        assert_eq!(i.range, 10..16);
        assert!(
            i.message
                .ends_with("in `2013-08-24 18:3x`, a space, `:`, `x` are not digits"),
            "{}",
            i.message
        );
        let p = parse_date("2-Agu-2023");
        assert_eq!(codes_of(&p.issues), ["PBN0301"], "{:?}", p.issues);
        assert_eq!(p.issues[0].range, 2..5);
        assert!(p.issues[0]
            .message
            .ends_with("`A`, `g`, `u` are not digits"));
        // Failing before: one character, one diagnostic, still pointed at.
        let p = parse_date("1995.o6.10");
        assert_eq!(codes_of(&p.issues), ["PBN0301"]);
        assert!(p.issues[0].message.ends_with("`o` is not a digit"));
    }

    #[test]
    fn other_programs_dates_with_one_reading() {
        for (raw, canon, time) in [
            ("2-Aug-2023", "2023.08.02", None),
            ("02 august 2023", "2023.08.02", None),
            ("Aug 2, 2023", "2023.08.02", None),
            ("2013-08-24 18:36", "2013.08.24", Some("18:36:00")),
            ("2013.08.24T8:36:05", "2013.08.24", Some("08:36:05")),
            ("24.08.2013", "2013.08.24", None),
            ("08/24/2013", "2013.08.24", None),
            ("7/7/2013", "2013.07.07", None),
            ("24.08.2013 18:36", "2013.08.24", Some("18:36:00")),
        ] {
            let p = parse_date(raw);
            assert_eq!(
                codes_of(&p.issues),
                vec!["PBN0302"],
                "{raw}: {:?}",
                p.issues
            );
            assert_eq!(p.issues[0].range, 0..raw.len(), "{raw}");
            let d = p.value.unwrap();
            assert_eq!(d.canonical, canon, "{raw}");
            assert_eq!(d.time.as_deref(), time, "{raw}");
        }
        // Day and month either way round: said, not guessed.
        let p = parse_date("08/07/2013");
        assert_eq!(codes_of(&p.issues), vec!["PBN0301"]);
        assert!(p.issues[0].message.contains("no order is guessed"));
        assert!(p.value.is_none());
        // A month name with an impossible day: the day is reported.
        let p = parse_date("31-Feb-2023");
        assert_eq!(codes_of(&p.issues), vec!["PBN0303"]);
        assert!(p.value.is_none());
    }

    #[test]
    fn impossible_dates() {
        let p = parse_date("1995.13.40");
        let codes_ = codes_of(&p.issues);
        assert_eq!(codes_, vec!["PBN0303", "PBN0303"]);
        assert_eq!(p.issues[0].range, 5..7);
        assert_eq!(p.issues[1].range, 8..10);
        assert!(p.value.is_none());
        expect(&parse_date("1900.02.29").issues, &codes::IMPOSSIBLE_DATE);
        expect(&parse_date("2001.04.31").issues, &codes::IMPOSSIBLE_DATE);
        expect(&parse_date("2001.00.01").issues, &codes::IMPOSSIBLE_DATE);
        expect(&parse_date("2001.01.00").issues, &codes::IMPOSSIBLE_DATE);
        assert_clean(
            &parse_date("2001.1?.31").issues,
            "partial month not checked",
        );
    }

    #[test]
    fn nonstandard_dates_are_interpreted() {
        for (raw, canon) in [
            ("2023-07-28", "2023.07.28"),
            ("2023/07/28", "2023.07.28"),
            ("20151006", "2015.10.06"),
            ("2015.09.?", "2015.09.??"),
            ("2015.9.1", "2015.09.01"),
        ] {
            let p = parse_date(raw);
            assert_eq!(codes_of(&p.issues), vec!["PBN0302"], "{raw}");
            assert_eq!(p.value.unwrap().canonical, canon, "{raw}");
        }
        let p = parse_date(" 2023.07.28");
        assert_eq!(codes_of(&p.issues), vec!["PBN0331"]);
        assert_eq!(p.value.unwrap().canonical, "2023.07.28");
    }

    #[test]
    fn times() {
        let p = parse_time("23:59:59");
        assert_clean(&p.issues, "time");
        assert_eq!(p.value.unwrap().hour, Some(23));
        assert_clean(&parse_time("20:??:??").issues, "unknown");
        assert_eq!(
            expect(&parse_time("24:00:00").issues, &codes::TIME_FORMAT).range,
            0..2
        );
        assert_eq!(
            expect(&parse_time("12:60:00").issues, &codes::TIME_FORMAT).range,
            3..5
        );
        expect(&parse_time("12.30.00").issues, &codes::TIME_FORMAT);
        expect(&parse_time("9:30").issues, &codes::TIME_FORMAT);
    }

    #[test]
    fn time_control_and_seconds() {
        assert_eq!(
            parse_time_control("4/30").value,
            Some(TimeControl::Limit {
                games: 4,
                minutes: 30
            })
        );
        assert_eq!(parse_time_control("").value, Some(TimeControl::Unlimited));
        expect(
            &parse_time_control("4/").issues,
            &codes::TIME_CONTROL_FORMAT,
        );
        expect(
            &parse_time_control("0/30").issues,
            &codes::TIME_CONTROL_FORMAT,
        );
        expect(
            &parse_time_control("30 minutes").issues,
            &codes::TIME_CONTROL_FORMAT,
        );
        assert_eq!(parse_seconds("10").value, Some(10));
        assert_clean(&parse_seconds("0").issues, "zero seconds");
        expect(&parse_seconds("-1").issues, &codes::SECONDS_FORMAT);
        expect(&parse_seconds("10s").issues, &codes::SECONDS_FORMAT);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("01:02:03"), Some(3723));
        assert_eq!(parse_duration("02:03"), Some(123));
        assert_eq!(parse_duration("45"), Some(45));
        assert_eq!(parse_duration("125"), Some(125));
        assert_eq!(parse_duration("1:60"), None);
        assert_eq!(parse_duration("a"), None);
        assert_eq!(parse_duration("1:2:3:4"), None);
        assert_eq!(parse_duration(""), None);
    }

    #[test]
    fn day_and_month_swap_only_when_it_is_the_one_reading() {
        assert_eq!(
            day_month_swapped("2024.13.05").as_deref(),
            Some("2024.05.13")
        );
        assert_eq!(
            day_month_swapped("2024-31-1").as_deref(),
            Some("2024.01.31")
        );
        assert_eq!(day_month_swapped("20242502").as_deref(), Some("2024.02.25"));
        // Possible as written, or impossible either way round, or a digit
        // unknown: no swap.
        assert_eq!(day_month_swapped("2024.05.13"), None);
        assert_eq!(day_month_swapped("2024.13.13"), None);
        assert_eq!(day_month_swapped("2024.31.02"), None);
        assert_eq!(day_month_swapped("2024.02.30"), None);
        assert_eq!(day_month_swapped("2024.13.0?"), None);
        assert_eq!(day_month_swapped("2024.13.x5"), None);
    }
}
