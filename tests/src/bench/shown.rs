//! `pbn-bench shown`: the diagnostics a user sees on opening a file
//! (`pbn check` and the language server share the check), per severity,
//! each diagnostic listed (`ungrouped`, the readable forms as errors: what
//! was shown before file-wide patterns were grouped) and as shown now
//! (grouped, `codes::POLICY`), on every shared-corpus file whose count
//! changes and on generated files with another program's forms
//! (`pbn_tests::patterns::foreign_forms`).

use super::Args;
use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::codes::{strict_severity, Severity};
use pbn_core::text::decode;
use pbn_tests::gen::{generate, GenOptions};

/// Errors, warnings, infos, hints.
type Counts = [usize; 4];

fn counts(bytes: &[u8], ungrouped: bool) -> (usize, Counts) {
    let source = decode(bytes);
    let r = check_text(
        &source,
        &CheckOptions {
            ungrouped,
            ..Default::default()
        },
    );
    let mut n = [0; 4];
    for d in &r.diagnostics {
        let severity = if ungrouped {
            strict_severity(d.code, d.severity)
        } else {
            d.severity
        };
        let i = match severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
            Severity::Hint => 3,
        };
        n[i] += 1;
    }
    (r.games, n)
}

fn cell(n: &Counts) -> String {
    format!(
        "{} ({}/{}/{}/{})",
        n.iter().sum::<usize>(),
        n[0],
        n[1],
        n[2],
        n[3]
    )
}

/// Diagnostics on open over every shared-corpus file: each listed (the
/// readable forms as errors) and grouped, in total.
pub fn corpus_totals() -> Result<(usize, usize), String> {
    let dir = pbn_tests::corpus::corpus_dir().ok_or("no shared corpus")?;
    let (mut before, mut after) = (0, 0);
    for rel in pbn_tests::corpus::corpus_files(&dir) {
        let bytes = std::fs::read(dir.join(&rel)).map_err(|e| e.to_string())?;
        before += counts(&bytes, true).1.iter().sum::<usize>();
        after += counts(&bytes, false).1.iter().sum::<usize>();
    }
    Ok((before, after))
}

pub fn run(args: &Args) -> Result<String, String> {
    let mut rows: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(dir) = pbn_tests::corpus::corpus_dir() {
        for rel in pbn_tests::corpus::corpus_files(&dir) {
            let bytes = std::fs::read(dir.join(&rel)).map_err(|e| e.to_string())?;
            rows.push((rel.display().to_string(), bytes));
        }
    }
    let games = if args.quick { 100 } else { 10_000 };
    let generated = generate(games, 61, &GenOptions::default());
    for export in [false, true] {
        let text = pbn_tests::patterns::foreign_forms(&generated, export);
        let what = if export { "export" } else { "import" };
        rows.push((
            format!("generated, {games} games, foreign forms, {what}"),
            text.into_bytes(),
        ));
    }
    let mut out = String::from(
        "Diagnostics shown on open: total (errors/warnings/infos/hints), each listed \
         with readable forms as errors (before) and grouped (after); corpus files \
         whose count does not change are left out.\n\n\
         | file | games | before | after | after/before |\n|---|---:|---:|---:|---:|\n",
    );
    let (mut all_before, mut all_after) = ([0; 4], [0; 4]);
    for (name, bytes) in &rows {
        let (games, before) = counts(bytes, true);
        let (_, after) = counts(bytes, false);
        for i in 0..4 {
            all_before[i] += before[i];
            all_after[i] += after[i];
        }
        if before == after {
            continue;
        }
        let (b, a) = (before.iter().sum::<usize>(), after.iter().sum::<usize>());
        out += &format!(
            "| {name} | {games} | {} | {} | {:.3} |\n",
            cell(&before),
            cell(&after),
            a as f64 / b.max(1) as f64
        );
    }
    out += &format!(
        "| all {} files | | {} | {} | |\n",
        rows.len(),
        cell(&all_before),
        cell(&all_after)
    );
    Ok(out)
}
