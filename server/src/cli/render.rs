//! Human-readable diagnostics in the style of rustc.

use pbn::diagnostic::{Diagnostic, Severity};
use pbn::text::{LineIndex, PositionEncoding};
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
    let _ = writeln!(out, "{pad}{} {path}:{}:{}", style.blue("-->"), start.line + 1, start.col + 1);
    let line_range = index.line_range(text, start.line as usize);
    let line_text = &text[line_range];
    // Show tabs as one space so that carets line up.
    let shown: String = line_text.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
    let shown: String = if shown.chars().count() > 160 { shown.chars().take(160).collect::<String>() + "…" } else { shown };
    let _ = writeln!(out, "{pad} {}", style.blue("|"));
    let _ = writeln!(out, "{} {} {}", style.blue(&line_no), style.blue("|"), shown);
    let caret_len = if end.line == start.line { (end.col - start.col).max(1) } else {
        (line_text.chars().count() as u32).saturating_sub(start.col).max(1)
    };
    let caret_len = caret_len.min(160);
    let carets = "^".repeat(caret_len as usize);
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
        " ".repeat(start.col.min(160) as usize),
        style.paint(sev_code, &carets)
    );
    for r in &d.related {
        let lc = index.line_col(text, r.range.start, PositionEncoding::Chars);
        let _ = writeln!(out, "{pad} {} {}:{}:{}: {}", style.blue("="), path, lc.line + 1, lc.col + 1, r.message);
    }
    let _ = writeln!(out, "{pad} {} help: `pbn explain {}` ({} {})", style.blue("="), d.code.code, d.code.name, d.code.section);
    out.push('\n');
}
