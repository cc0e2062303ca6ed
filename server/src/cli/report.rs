//! The human report of a check (`pbn check`, and what `pbn check --fix`
//! leaves): the diagnostics rustc-style, `--statistics`, the summary line.

use super::files::Input;
use super::render::{concise, render, Style};
use pbn_core::checker::json::{diag_json, DiagJson};
use pbn_core::diagnostic::Severity;
use pbn_core::text::{LineIndex, SourceText};
use serde::Serialize;
use std::io::{IsTerminal, Write};

/// One input's outcome: its text and check result, or why it was not read.
pub(super) struct FileReport {
    pub(super) input: Input,
    pub(super) outcome: Result<(SourceText, pbn_core::checker::CheckResult), String>,
}

pub(super) fn color_on(setting: &str) -> bool {
    match setting {
        "always" => true,
        "never" => false,
        _ => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}

/// `summary`: end with the summary line and what is fixable (not with
/// `--quiet`); `unsafe_applied`: the unsafe fixes were applied already
/// (`--fix --unsafe-fixes`), so none is offered.
pub(super) fn print_human(
    reports: &[FileReport],
    style: &Style,
    [errors, warnings, infos, hints]: [usize; 4],
    games: usize,
    summary: bool,
    unsafe_applied: bool,
) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let mut files_ok = 0;
    for r in reports {
        match &r.outcome {
            Err(e) => errln!("error: {e}"),
            Ok((source, res)) => {
                files_ok += 1;
                if res.diagnostics.is_empty() {
                    continue;
                }
                let index = LineIndex::new(&source.text);
                let mut out = String::new();
                let path = r.input.display();
                let mut near = Default::default();
                for d in &res.diagnostics {
                    if style.concise {
                        concise(&mut out, &path, &source.text, &index, d, &mut near);
                    } else {
                        render(&mut out, style, &path, &source.text, &index, d, &mut near);
                    }
                }
                super::out::stdout_result(lock.write_all(out.as_bytes()));
            }
        }
    }
    if !summary {
        super::out::stdout_result(lock.flush());
        return;
    }
    let mut text = summary_line(files_ok, games, [errors, warnings, infos, hints]);
    for line in fixable_lines(reports, unsafe_applied) {
        text.push('\n');
        text.push_str(&line);
    }
    let written = writeln!(lock, "{text}");
    super::out::stdout_result(written.and_then(|()| lock.flush()));
}

/// What the fixes would still do for the diagnostics of `reports`:
/// `[*] 3 fixable with `pbn check --fix` (2 more with `--unsafe-fixes`)`,
/// `` `pbn fmt` clears 5 more (export layout) ``. Nothing when nothing is
/// fixable. `unsafe_applied`: the run applied the unsafe fixes already.
pub(super) fn fixable_lines(reports: &[FileReport], unsafe_applied: bool) -> Vec<String> {
    use pbn_core::diagnostic::Applicability;
    let (mut safe, mut unsafe_, mut fmt) = (0, 0, 0);
    for r in reports {
        let Ok((_, res)) = &r.outcome else { continue };
        for d in &res.diagnostics {
            match d.fix.as_ref().map(|f| f.applicability) {
                Some(Applicability::Safe) => safe += 1,
                _ if pbn_core::rules::fixes::cleared_by_fmt(d.code) => fmt += 1,
                Some(Applicability::Unsafe) if !unsafe_applied => unsafe_ += 1,
                _ => {}
            }
        }
    }
    let mut lines = Vec::new();
    let more = if unsafe_ > 0 {
        format!(" ({unsafe_} more with `--unsafe-fixes`)")
    } else {
        String::new()
    };
    if safe > 0 {
        lines.push(format!("[*] {safe} fixable with `pbn check --fix`{more}"));
    } else if unsafe_ > 0 {
        lines.push(format!(
            "{unsafe_} fixable with `pbn check --fix --unsafe-fixes`"
        ));
    }
    if fmt > 0 {
        lines.push(format!(
            "`pbn fmt` clears {fmt} more (export layout: tag order, line layout…)"
        ));
    }
    lines
}

/// `--statistics`: one line per code, most frequent first (then by code),
/// then the summary line.
pub(super) fn print_statistics(reports: &[FileReport], counts: [usize; 4], games: usize) {
    let mut per_code: std::collections::HashMap<(&str, Severity), (usize, &str)> =
        Default::default();
    let mut files_ok = 0;
    for r in reports {
        match &r.outcome {
            Err(e) => errln!("error: {e}"),
            Ok((_, res)) => {
                files_ok += 1;
                for d in &res.diagnostics {
                    per_code
                        .entry((d.code.code, d.severity))
                        .or_insert((0, d.code.summary))
                        .0 += 1;
                }
            }
        }
    }
    let mut out = String::new();
    for line in statistics_lines(per_code) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&summary_line(files_ok, games, counts));
    out.push('\n');
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    super::out::stdout_result(lock.write_all(out.as_bytes()).and_then(|()| lock.flush()));
}

/// The lines of `--statistics`: `   12  PBN0302  warning  date is readable…`,
/// counts right-aligned, most frequent first, then by code and severity.
fn statistics_lines(
    per_code: std::collections::HashMap<(&str, Severity), (usize, &str)>,
) -> Vec<String> {
    let mut rows: Vec<_> = per_code.into_iter().collect();
    rows.sort_by(|((ca, sa), (na, _)), ((cb, sb), (nb, _))| {
        nb.cmp(na).then(ca.cmp(cb)).then(sb.cmp(sa))
    });
    let width = rows.first().map_or(1, |(_, (n, _))| n.to_string().len());
    rows.into_iter()
        .map(|((code, sev), (n, title))| format!("{n:>width$}  {code}  {:<7}  {title}", sev.name()))
        .collect()
}

/// `checked 1 file (2 games): 1 error, 0 warnings, 1 info`.
fn summary_line(
    files: usize,
    games: usize,
    [errors, warnings, infos, hints]: [usize; 4],
) -> String {
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    format!(
        "checked {} ({}): {}, {}{}",
        plural(files, "file"),
        plural(games, "game"),
        plural(errors, "error"),
        plural(warnings, "warning"),
        others_text(infos, hints)
    )
}

/// `, 1 info, 2 hints` for the summary line (nothing when both are 0).
fn others_text(infos: usize, hints: usize) -> String {
    let mut s = String::new();
    for (n, word) in [(infos, "info"), (hints, "hint")] {
        if n > 0 {
            s.push_str(&format!(", {n} {word}{}", if n == 1 { "" } else { "s" }));
        }
    }
    s
}

// The JSON report. Fields in alphabetical order (the order the report has
// always had); written straight from borrowed data, without building a
// `serde_json::Value` tree per diagnostic (20,000 of them in a large file).

#[derive(Serialize)]
struct FileJson<'a> {
    diagnostics: Vec<DiagJson<'a>>,
    encoding: &'static str,
    games: usize,
    line_ending: &'static str,
    path: String,
}

#[derive(Serialize)]
struct FailedJson<'a> {
    error: &'a str,
    path: String,
}

#[derive(Serialize)]
struct SummaryJson {
    errors: usize,
    files: usize,
    games: usize,
    hints: usize,
    infos: usize,
    warnings: usize,
}

#[derive(Serialize)]
struct ReportJson<'a> {
    failed: Vec<FailedJson<'a>>,
    files: Vec<FileJson<'a>>,
    summary: SummaryJson,
}

/// The JSON report of `pbn check` (and of what `pbn check --fix` leaves).
pub(super) fn print_json(
    reports: &[FileReport],
    [errors, warnings, infos, hints]: [usize; 4],
    games: usize,
) {
    let mut files = Vec::new();
    let mut failed = Vec::new();
    let indexes: Vec<Option<LineIndex>> = reports
        .iter()
        .map(|r| {
            r.outcome
                .as_ref()
                .ok()
                .map(|(source, _)| LineIndex::new(&source.text))
        })
        .collect();
    for (r, index) in reports.iter().zip(&indexes) {
        match (&r.outcome, index) {
            (Ok((source, res)), Some(index)) => files.push(FileJson {
                diagnostics: {
                    let mut near = Default::default();
                    res.diagnostics
                        .iter()
                        .map(|d| diag_json(d, &source.text, index, &mut near))
                        .collect()
                },
                encoding: source.encoding.name(),
                games: res.games,
                line_ending: source.line_ending.name(),
                path: r.input.display().to_string(),
            }),
            (Err(e), _) => failed.push(FailedJson {
                error: e,
                path: r.input.display().to_string(),
            }),
            _ => {}
        }
    }
    let doc = ReportJson {
        failed,
        files,
        summary: SummaryJson {
            errors,
            files: reports.len(),
            games,
            hints,
            infos,
            warnings,
        },
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    super::out::stdout_result(
        serde_json::to_writer_pretty(&mut out, &doc)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
            .and_then(|()| out.flush()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_most_frequent_first_then_by_code() {
        let mut m = std::collections::HashMap::new();
        m.insert(("PBN0302", Severity::Warning), (3, "b"));
        m.insert(("PBN0301", Severity::Error), (3, "a"));
        m.insert(("PBN0501", Severity::Error), (12, "c"));
        assert_eq!(
            statistics_lines(m),
            [
                "12  PBN0501  error    c",
                " 3  PBN0301  error    a",
                " 3  PBN0302  warning  b",
            ]
        );
    }

    #[test]
    fn summary_names_infos_and_hints() {
        assert_eq!(others_text(0, 0), "");
        assert_eq!(others_text(1, 0), ", 1 info");
        assert_eq!(others_text(2, 1), ", 2 infos, 1 hint");
        assert_eq!(others_text(0, 3), ", 3 hints");
    }
}
