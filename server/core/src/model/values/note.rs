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

/// A note too long for one line (§2.3: a line holds at most 255
/// characters with its end; §3.2: so does a token) keeps its first part in
/// the tag, cut at a space, and the rest in a `{…}` comment right after the
/// tag: `{Note 3 continued: …}`. The note's text is the tag's, a space,
/// and the comment's after the marker, each line end in it read as a
/// space. Export format has no other place for it: §3.5.5 lets each index
/// have one Note tag only, and a comment is kept by every PBN reader.
const CONTINUED: &str = " continued:";

/// The longest raw value [`split_long`] keeps in the tag: with `[Note "`,
/// `"]` and CRLF the line stays well under 255 characters.
pub const TAG_PART: usize = 240;

/// The lines of a continuation comment are wrapped before this many
/// characters (§2.3 discourages lines of 80 or more).
const COMMENT_WIDTH: usize = 79;

/// The text that the body of a `{…}` comment (between the braces) adds to
/// note `index` when it continues that note ([`CONTINUED`]): what follows
/// `Note <index> continued:` and one space or line end, with each line end
/// read as a space.
pub fn continuation(body: &str, index: u8) -> Option<String> {
    let rest = body.strip_prefix("Note ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if rest[..digits].parse::<u8>().ok()? != index {
        return None;
    }
    let rest = rest[digits..].strip_prefix(CONTINUED)?;
    let rest = ["\r\n", "\n", "\r", " "]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))?;
    Some(rest.replace("\r\n", " ").replace(['\n', '\r'], " "))
}

/// For a raw Note value too long for one line: where to cut it (a byte
/// offset of a space in `raw`; the tag keeps `raw[..cut]`) and the comment
/// that holds the rest (lines ending with `eol`). `None` when the value is
/// not a note, is short enough, or cannot be cut this way: no space to cut
/// at, a `}` in the rest (it would end the comment), or a run of text
/// without a space too long for a comment line.
pub fn split_long(raw: &str, eol: &str) -> Option<(usize, String)> {
    let note = parse_note(raw).value?;
    if raw.chars().count() <= TAG_PART {
        return None;
    }
    // A cut after an odd run of backslashes would escape the closing quote.
    let cut = raw
        .char_indices()
        .take(TAG_PART + 1)
        .filter(|&(i, c)| {
            c == ' '
                && i > note.text_range.start
                && raw[..i].bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 0
        })
        .map(|(i, _)| i)
        .last()?;
    let rest = unescape(&raw[cut + 1..]);
    if rest.contains('}') || rest.split(' ').any(|w| w.chars().count() > 200) {
        return None;
    }
    let mut out = format!("{{Note {}{CONTINUED}", note.index);
    let mut width = out.chars().count();
    // Words joined by single spaces; a line break replaces one space.
    for (k, word) in rest.split(' ').enumerate() {
        let w = word.chars().count();
        if k > 0 && width + 1 + w >= COMMENT_WIDTH {
            out.push_str(eol);
            width = 0;
        } else {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += w;
    }
    out.push('}');
    Some((cut, out))
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    /// A long note cut for export and read back from its comment: every
    /// character kept, escapes included.
    #[test]
    fn long_notes_split_and_continue() {
        let words: Vec<String> = (0..60).map(|i| format!("w{i}")).collect();
        let raw = format!("7:say \\\"hi\\\" {}", words.join(" "));
        let (cut, comment) = split_long(&raw, "\r\n").unwrap();
        assert!(raw[..cut].chars().count() <= TAG_PART);
        assert_eq!(&raw[cut..cut + 1], " ");
        assert!(comment.starts_with("{Note 7 continued: "), "{comment}");
        assert!(
            comment.split("\r\n").all(|l| l.chars().count() < 80),
            "{comment}"
        );
        let body = &comment[1..comment.len() - 1];
        let joined = format!(
            "{} {}",
            parse_note(&raw[..cut]).value.unwrap().text,
            continuation(body, 7).unwrap()
        );
        assert_eq!(joined, parse_note(&raw).value.unwrap().text);
        // Another note's continuation, or none.
        assert_eq!(continuation(body, 8), None);
        assert_eq!(continuation("Note 7 continues: x", 7), None);
        assert_eq!(
            continuation("Note 7 continued:\nx\ny", 7).as_deref(),
            Some("x y")
        );
        // Short, no space to cut at, a `}` in the rest, a cut that would
        // leave a backslash before the closing quote.
        assert_eq!(split_long("1:short", "\n"), None);
        assert_eq!(split_long(&format!("1:{}", "x".repeat(300)), "\n"), None);
        assert_eq!(
            split_long(&format!("1:{} }}", "x ".repeat(150)), "\n"),
            None
        );
        let odd = format!("1:{}\\ {}", "x ".repeat(118), "y ".repeat(20));
        let (cut, _) = split_long(&odd, "\n").unwrap();
        assert_eq!(cut, 237);
    }

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
