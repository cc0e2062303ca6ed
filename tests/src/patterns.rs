//! File-wide patterns (`pbn_core::checker::group`): generated files that
//! have them, and what a grouped check still flags.

use pbn_core::checker::group::key;
use pbn_core::diagnostic::Diagnostic;
use std::collections::HashMap;

/// A generated file (`pbn_tests::gen`) rewritten the way other programs
/// write: dates as `2019-03-05`, `P` for Pass and `1N` for 1NT in the
/// auction, every board numbered 1 (so that 3 in 4 dealers and
/// vulnerabilities are not the usual ones, PBN0905/PBN0906). Without the
/// `% EXPORT` line unless `export`.
pub fn foreign_forms(text: &str, export: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_auction = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("% EXPORT") && !export {
            continue;
        }
        if line.starts_with('[') {
            in_auction = line.starts_with("[Auction ");
            if let Some(date) = line.strip_prefix("[Date \"") {
                out.push_str("[Date \"");
                out.push_str(&date.replacen('.', "-", 2));
            } else if line.starts_with("[Board \"") {
                out.push_str("[Board \"1\"]");
                out.push_str(if line.ends_with("\r\n") { "\r\n" } else { "\n" });
            } else {
                out.push_str(line);
            }
            continue;
        }
        if in_auction {
            let body = line.trim_end_matches(['\r', '\n']);
            let calls: Vec<String> = body
                .split(' ')
                .map(|t| match t {
                    "Pass" => "P".to_owned(),
                    t if t.len() == 3 && t.ends_with("NT") => t[..2].to_owned(),
                    t => t.to_owned(),
                })
                .collect();
            out.push_str(&calls.join(" "));
            out.push_str(&line[body.len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The diagnostics a grouped check stands for: `grouped` with each
/// pattern's one diagnostic replaced by its members in `ungrouped` (the
/// same file checked with `ungrouped: true`). Equal to `ungrouped` (as a
/// multiset of code, range and severity) when grouping lost nothing.
pub fn expand(grouped: &[Diagnostic], ungrouped: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut before: HashMap<_, usize> = HashMap::new();
    for k in ungrouped.iter().filter_map(key) {
        *before.entry(k).or_default() += 1;
    }
    let mut after: HashMap<_, usize> = HashMap::new();
    for k in grouped.iter().filter_map(key) {
        *after.entry(k).or_default() += 1;
    }
    let is_group = |d: &Diagnostic| {
        key(d).is_some_and(|k| {
            after.get(&k).copied().unwrap_or(0) < before.get(&k).copied().unwrap_or(0)
        })
    };
    let mut out: Vec<Diagnostic> = grouped.iter().filter(|d| !is_group(d)).cloned().collect();
    out.extend(ungrouped.iter().filter(|d| is_group(d)).cloned());
    out
}

/// `diags` as a sorted multiset of (start, end, code, severity).
pub fn shape(diags: &[Diagnostic]) -> Vec<(usize, usize, &'static str, &'static str)> {
    let mut v: Vec<_> = diags
        .iter()
        .map(|d| (d.range.start, d.range.end, d.code.code, d.severity.name()))
        .collect();
    v.sort();
    v
}
