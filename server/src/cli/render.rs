//! Human-readable diagnostics in the style of rustc.

use pbn_core::diagnostic::{Diagnostic, Severity};
use pbn_core::text::{LineIndex, PositionEncoding};
use std::fmt::Write;

pub struct Style {
    pub color: bool,
    /// One line a diagnostic (`--output-format concise`).
    pub concise: bool,
}

impl Style {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
    fn severity(&self, sev: Severity) -> String {
        let code = match sev {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Info => "1;36",
            Severity::Hint => "1;32",
        };
        self.paint(code, sev.name())
    }
    fn blue(&self, s: &str) -> String {
        self.paint("1;34", s)
    }
    fn bold(&self, s: &str) -> String {
        self.paint("1", s)
    }
}

/// Where the previous diagnostic's start, end and related ranges were
/// ([`LineIndex::line_col_near`]): the diagnostics of a file come in text
/// order, so the columns of thousands of them on one long line are counted
/// on from there, not each from the line's start.
pub type Near = [pbn_core::text::Near; 3];

/// Renders one diagnostic with its source line and carets.
pub fn render(
    out: &mut String,
    style: &Style,
    path: &str,
    text: &str,
    index: &LineIndex,
    d: &Diagnostic,
    near: &mut Near,
) {
    let [near_start, near_end, near_related] = near;
    let chars = PositionEncoding::Chars;
    let start = index.line_col_near(text, d.range.start, chars, near_start);
    let end = index.line_col_near(text, d.range.end, chars, near_end);
    let _ = writeln!(
        out,
        "{}{} {}{}",
        style.severity(d.severity),
        style.bold(&format!("[{}]:", d.code.code)),
        fix_mark(d),
        style.bold(&d.message)
    );
    let line_no = (start.line + 1).to_string();
    let pad = " ".repeat(line_no.len());
    let _ = writeln!(
        out,
        "{pad}{} {path}:{}:{}",
        style.blue("-->"),
        start.line + 1,
        start.col + 1
    );
    let line_range = index.line_range(text, start.line as usize);
    let line_text = &text[line_range.clone()];
    // The start's byte in the line (past its end on the line ending).
    let mut at = d.range.start.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let at = at - line_range.start;
    let (shown, indent) = source_window(line_text, at, start.col as usize);
    let _ = writeln!(out, "{pad} {}", style.blue("|"));
    let _ = writeln!(
        out,
        "{} {} {}",
        style.blue(&line_no),
        style.blue("|"),
        shown
    );
    let caret_len = if end.line == start.line {
        (end.col - start.col).max(1)
    } else {
        // To the line's end, as far as a window shows.
        let rest = line_text.get(at..).unwrap_or("");
        (rest.chars().take(WINDOW + 2).count() as u32).max(1)
    };
    // The carets end with the window.
    let room = shown.chars().count().saturating_sub(indent).max(1);
    let caret_len = (caret_len as usize).min(room);
    let carets = "^".repeat(caret_len);
    let sev_code = match d.severity {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
        Severity::Info => "1;36",
        Severity::Hint => "1;32",
    };
    let _ = writeln!(
        out,
        "{pad} {} {}{}",
        style.blue("|"),
        " ".repeat(indent),
        style.paint(sev_code, &carets)
    );
    for r in &d.related {
        let lc = index.line_col_near(text, r.range.start, chars, near_related);
        let _ = writeln!(
            out,
            "{pad} {} {}:{}:{}: {}",
            style.blue("="),
            path,
            lc.line + 1,
            lc.col + 1,
            r.message
        );
    }
    let _ = writeln!(
        out,
        "{pad} {} help: `pbn explain {}` ({} {})",
        style.blue("="),
        d.code.code,
        d.code.name,
        d.code.section
    );
    out.push('\n');
}

/// `[*] ` before the message of a diagnostic with a safe fix (what `pbn
/// check --fix` repairs), as ruff marks them; nothing otherwise.
pub fn fix_mark(d: &Diagnostic) -> &'static str {
    match &d.fix {
        Some(f) if f.applicability == pbn_core::diagnostic::Applicability::Safe => "[*] ",
        _ => "",
    }
}

/// The one-line form of `--output-format concise`:
/// `path:line:col: error[PBN0520]: [*] message`.
pub fn concise(
    out: &mut String,
    path: &str,
    text: &str,
    index: &LineIndex,
    d: &Diagnostic,
    near: &mut Near,
) {
    let start = index.line_col_near(text, d.range.start, PositionEncoding::Chars, &mut near[0]);
    let _ = writeln!(
        out,
        "{path}:{}:{}: {}[{}]: {}{}",
        start.line + 1,
        start.col + 1,
        d.severity.name(),
        d.code.code,
        fix_mark(d),
        d.message
    );
}

/// Characters of a source line shown under a diagnostic.
const WINDOW: usize = 160;
/// Characters shown before the diagnostic's column when the line is cut
/// on the left.
const BEFORE: usize = 40;

/// The part of a source line shown under a diagnostic at column `col`
/// (characters), byte `at` of the line (past its end when the position is
/// on the line ending, a byte a character there), and the column of the
/// carets in it. It costs the window, not the line. Lines of up to
/// `WINDOW` characters are shown whole; a longer one (PBN allows 255,
/// §2.3, but files hold megabytes on a line) is cut to `WINDOW`
/// characters around the column, with `…` where it was cut. Tabs are
/// shown as one space so that the carets line up, other control
/// characters as symbols (`visible_char`): the file must not drive the
/// terminal.
fn source_window(line: &str, at: usize, col: usize) -> (String, usize) {
    let (skip, from) = if col + BEFORE < WINDOW {
        (0, 0)
    } else {
        // BEFORE characters back from the column.
        let back = BEFORE.saturating_sub(at.saturating_sub(line.len()));
        let at = at.min(line.len());
        let from = match back {
            0 => at,
            n => line[..at]
                .char_indices()
                .rev()
                .nth(n - 1)
                .map_or(0, |(i, _)| i),
        };
        (col - BEFORE, from)
    };
    window_from(line, skip, from, col)
}

/// The window of `line` that starts `skip` characters (byte `from`) into
/// it, for a diagnostic at column `col`, and the column of the carets.
fn window_from(line: &str, skip: usize, from: usize, col: usize) -> (String, usize) {
    let mut shown = String::new();
    let mut indent = col - skip;
    if skip > 0 {
        shown.push('…');
        indent += 1;
    }
    let mut chars = line[from..].chars();
    for c in chars.by_ref().take(WINDOW) {
        shown.push(if c == '\t' {
            ' '
        } else {
            pbn_core::diagnostic::visible_char(c)
        });
    }
    if chars.next().is_some() {
        shown.push('…');
    }
    (shown, indent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_shown_whole() {
        assert_eq!(
            source_window("[Event \"x\"]", 7, 7),
            ("[Event \"x\"]".to_string(), 7)
        );
        assert_eq!(source_window("a\tb", 2, 2), ("a b".to_string(), 2));
        assert_eq!(
            source_window("a\u{1b}[31mb\u{0}", 2, 2),
            ("a␛[31mb␀".to_string(), 2)
        );
    }

    /// The window found by counting characters from the line's start:
    /// what `source_window` finds from the column's byte.
    fn window_by_chars(line: &str, col: usize) -> (String, usize) {
        let skip = if col + BEFORE < WINDOW {
            0
        } else {
            col - BEFORE
        };
        let from = line.char_indices().nth(skip).map_or(line.len(), |(i, _)| i);
        window_from(line, skip, from, col)
    }

    #[test]
    fn the_window_of_a_non_ascii_line_is_found_from_the_columns_byte() {
        let line: String = (0..700)
            .map(|i| match i % 5 {
                0 => 'é',
                2 => '♠',
                _ => 'x',
            })
            .collect();
        let n = line.chars().count();
        // Every character, and two positions on the line ending after it.
        let at_col = line
            .char_indices()
            .map(|(b, _)| b)
            .chain([line.len(), line.len() + 1, line.len() + 2])
            .zip(0..);
        for (at, col) in at_col {
            assert_eq!(
                source_window(&line, at, col),
                window_by_chars(&line, col),
                "column {col} of {n}"
            );
        }
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line: String = (0..1000)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        // near the start: the first WINDOW characters, cut on the right
        let (shown, indent) = source_window(&line, 5, 5);
        assert_eq!(shown.chars().count(), WINDOW + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(indent, 5);
        // far in: cut on both sides, BEFORE characters before the column
        let (shown, indent) = source_window(&line, 500, 500);
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(shown.chars().count(), WINDOW + 2);
        assert_eq!(indent, BEFORE + 1);
        assert_eq!(shown.chars().nth(indent), line.chars().nth(500));
        // at the end of the line: no `…` on the right
        let (shown, indent) = source_window(&line, 1000, 1000);
        assert!(!shown.ends_with('…'));
        assert_eq!(indent, BEFORE + 1);
    }
}
