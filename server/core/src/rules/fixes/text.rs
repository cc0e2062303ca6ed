//! Text helpers of the fixes: line ends, where new lines go, a tag line.

use crate::model::Game;

/// The line ending to use in inserted lines: the document's first.
pub(crate) fn eol(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(i) if text[i..].starts_with("\r\n") => "\r\n",
        Some(i) if text.as_bytes()[i] == b'\r' => "\r",
        _ => "\n",
    }
}

/// Offset of the line break ending the line of `offset` (or the text end).
fn line_end(text: &str, offset: usize) -> usize {
    text[offset..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| offset + i)
}

/// The start of the next line after the line of `offset`.
pub(super) fn next_line_start(text: &str, offset: usize) -> usize {
    let e = line_end(text, offset);
    if text[e..].starts_with("\r\n") {
        e + 2
    } else if e < text.len() {
        e + 1
    } else {
        e
    }
}

pub(super) fn is_blank(s: &str) -> bool {
    s.chars().all(|c| c == ' ' || c == '\t')
}

/// Where to insert new lines after the item ending at `end`: the end of its
/// line when only white space or comments that end on the line follow it,
/// else right after the item (what followed moves to the new line).
pub(super) fn after_point(text: &str, g: &Game, end: usize) -> usize {
    let le = line_end(text, end);
    let mut p = end;
    loop {
        let rest = &text[p..le];
        let skip = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        p += skip;
        if p >= le {
            return le;
        }
        match g
            .comments
            .iter()
            .find(|c| c.range.start == p && c.range.end <= le)
        {
            Some(c) => p = c.range.end,
            None => return end,
        }
    }
}

pub(super) fn tag_line(name: &str, value: &str) -> String {
    format!("[{name} \"{}\"]", crate::model::escape(value))
}
