//! Human-readable diagnostics in the style of rustc.

use pbn_core::diagnostic::{Diagnostic, Severity};
use pbn_core::text::{LineIndex, PositionEncoding};
use std::fmt::Write;

pub struct Style {
    pub color: bool,
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

/// Renders one diagnostic with its source line and carets.
pub fn render(
    out: &mut String,
    style: &Style,
    path: &str,
    text: &str,
    index: &LineIndex,
    d: &Diagnostic,
) {
    let start = index.line_col(text, d.range.start, PositionEncoding::Chars);
    let end = index.line_col(text, d.range.end, PositionEncoding::Chars);
    let _ = writeln!(
        out,
        "{}{} {}",
        style.severity(d.severity),
        style.bold(&format!("[{}]:", d.code.code)),
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
    let line_text = &text[line_range];
    let (shown, indent) = source_window(line_text, start.col as usize);
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
        (line_text.chars().count() as u32)
            .saturating_sub(start.col)
            .max(1)
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
        let lc = index.line_col(text, r.range.start, PositionEncoding::Chars);
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

/// Characters of a source line shown under a diagnostic.
const WINDOW: usize = 160;
/// Characters shown before the diagnostic's column when the line is cut
/// on the left.
const BEFORE: usize = 40;

/// The part of a source line shown under a diagnostic at column `col`
/// (characters), and the column of the carets in it. Lines of up to
/// `WINDOW` characters are shown whole; a longer one (PBN allows 255,
/// §2.3, but files hold megabytes on a line) is cut to `WINDOW`
/// characters around the column, with `…` where it was cut. Tabs are
/// shown as one space so that the carets line up, other control
/// characters as symbols (`visible_char`): the file must not drive the
/// terminal.
fn source_window(line: &str, col: usize) -> (String, usize) {
    let skip = if col + BEFORE < WINDOW {
        0
    } else {
        col - BEFORE
    };
    let mut shown = String::new();
    let mut indent = col - skip;
    if skip > 0 {
        shown.push('…');
        indent += 1;
    }
    let mut chars = line.chars().skip(skip);
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
            source_window("[Event \"x\"]", 7),
            ("[Event \"x\"]".to_string(), 7)
        );
        assert_eq!(source_window("a\tb", 2), ("a b".to_string(), 2));
        assert_eq!(
            source_window("a\u{1b}[31mb\u{0}", 2),
            ("a␛[31mb␀".to_string(), 2)
        );
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line: String = (0..1000)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        // near the start: the first WINDOW characters, cut on the right
        let (shown, indent) = source_window(&line, 5);
        assert_eq!(shown.chars().count(), WINDOW + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(indent, 5);
        // far in: cut on both sides, BEFORE characters before the column
        let (shown, indent) = source_window(&line, 500);
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(shown.chars().count(), WINDOW + 2);
        assert_eq!(indent, BEFORE + 1);
        assert_eq!(shown.chars().nth(indent), line.chars().nth(500));
        // at the end of the line: no `…` on the right
        let (shown, indent) = source_window(&line, 1000);
        assert!(!shown.ends_with('…'));
        assert_eq!(indent, BEFORE + 1);
    }
}
