//! Note tag values (§3.5.5, §3.6.5): `<note_index>:<note_text>`.

use super::{issue, Parsed};
use crate::codes::values as codes;
use crate::model::unescape;
use std::ops::Range;

/// A parsed Note tag value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// 1..=32 (§3.5.4).
    pub index: u8,
    /// Range of the index digits in the raw value.
    pub index_range: Range<usize>,
    /// The note text with the string escapes `\"` and `\\` resolved.
    pub text: String,
    /// Range of the text in the raw value (after the colon).
    pub text_range: Range<usize>,
}

/// Parses a Note tag value `<note_index>:<note_text>` (§3.5.5, §3.6.5), the
/// index 1..32 (§3.5.4, §3.6.4). Errors: [`codes::NOTE_FORMAT`] (no index,
/// no colon — including `""`, `":"`, `"a:"`), [`codes::NOTE_INDEX_RANGE`]
/// (0, 33…). White space before the index: [`codes::VALUE_PADDING`].
pub fn parse_note(raw: &str) -> Parsed<Note> {
    const RULE: &str =
        "a note is \"<note_index>:<note_text>\" with <note_index> 1..32 (§3.5.5, §3.6.5)";
    let mut issues = Vec::new();
    let lead = raw.len() - raw.trim_start_matches(super::is_ws).len();
    let s = &raw[lead..];
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let index_range = lead..lead + digits;
    if digits == 0 {
        let end = s.find(':').map_or(raw.len(), |c| lead + c);
        let range = if end > 0 { 0..end } else { 0..raw.len().min(1) };
        let what = if raw.trim_matches(super::is_ws).is_empty() {
            "the value is empty".to_string()
        } else {
            "the index is missing".to_string()
        };
        issues.push(issue(&codes::NOTE_FORMAT, range, format!("{RULE}; {what}")));
        return Parsed::new(None, issues);
    }
    if s.as_bytes().get(digits) != Some(&b':') {
        let at = lead + digits;
        let range = if at < raw.len() {
            super::char_range(raw, at)
        } else {
            index_range.clone()
        };
        issues.push(issue(
            &codes::NOTE_FORMAT,
            range,
            format!("{RULE}; a colon must follow the index"),
        ));
        return Parsed::new(None, issues);
    }
    if lead > 0 {
        issues.push(issue(
            &codes::VALUE_PADDING,
            0..lead,
            "white space before the note index is not part of the syntax (§3.5.5)",
        ));
    }
    let index = s[..digits]
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=32).contains(n));
    let Some(index) = index else {
        issues.push(issue(
            &codes::NOTE_INDEX_RANGE,
            index_range,
            format!(
                "the note index {} is not between 1 and 32 (§3.5.4, §3.6.4)",
                &s[..digits]
            ),
        ));
        return Parsed::new(None, issues);
    };
    let text_range = lead + digits + 1..raw.len();
    let text = unescape(&raw[text_range.clone()]);
    Parsed::new(
        Some(Note {
            index: index as u8,
            index_range,
            text,
            text_range,
        }),
        issues,
    )
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn valid_notes() {
        let raw = "1: non-forcing 6-9 points, 6-card";
        let p = parse_note(raw);
        assert_clean(&p.issues, "note");
        let n = p.value.unwrap();
        assert_eq!(n.index, 1);
        assert_eq!(n.index_range, 0..1);
        assert_eq!(n.text, " non-forcing 6-9 points, 6-card");
        assert_eq!(n.text_range, 2..raw.len());
        let p = parse_note("32:say \\\"hi\\\" \\\\ \\S");
        assert_clean(&p.issues, "escapes");
        assert_eq!(p.value.unwrap().text, "say \"hi\" \\ \\S");
        assert_clean(&parse_note("2:").issues, "empty text");
    }

    #[test]
    fn errors_10_game_72() {
        for (raw, range) in [
            ("", 0..0),
            (":", 0..1),
            (" ", 0..1),
            ("a", 0..1),
            ("a:", 0..1),
            ("?", 0..1),
        ] {
            let p = parse_note(raw);
            assert_eq!(codes_of(&p.issues), vec!["PBN0329"], "{raw:?}");
            assert_eq!(p.issues[0].range, range, "{raw:?}");
        }
        let p = parse_note("1 forcing");
        assert_eq!(codes_of(&p.issues), vec!["PBN0329"]);
        assert_eq!(p.issues[0].range, 1..2);
        let p = parse_note("12");
        assert_eq!(p.issues[0].range, 0..2);
    }

    #[test]
    fn index_range() {
        let p = parse_note("0: illegal note index");
        assert_eq!(codes_of(&p.issues), vec!["PBN0330"]);
        assert_eq!(p.issues[0].range, 0..1);
        let p = parse_note("33: illegal note index");
        assert_eq!(p.issues[0].range, 0..2);
        expect(
            &parse_note("99999999999999999999:x").issues,
            &codes::NOTE_INDEX_RANGE,
        );
        let p = parse_note(" 3:x");
        assert_eq!(codes_of(&p.issues), vec!["PBN0331"]);
        assert_eq!(p.value.unwrap().index, 3);
    }
}
