//! Grouping file-wide patterns loses no game with a problem: on every
//! corpus file, each game the reference verifier rejects (an `E:` or `S:`
//! finding) and that `pbn check` flags when each diagnostic is listed
//! still has a diagnostic shown with grouping on (the default), its own or
//! a group's: a group counts for its first place and for every game its
//! related locations name (what an editor lets the user walk to). A group
//! names at most `group::RELATED` places: a game past them, all of whose
//! diagnostics are members of groups (file-wide patterns: never a revoke,
//! an impossible deal or a wrong score), is counted by the group's message
//! only; that is allowed and counted, anything else fails.
//!
//! Games the verifier rejects and `pbn check` does not flag at all are
//! `verifier_diff.rs`'s business (its table of disagreements), counted
//! here only. Runs when the verifier runs (`pbn_tests::verifier`).

use pbn_core::checker::group::key;
use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::diagnostic::Diagnostic;
use pbn_core::text::{decode, LineIndex};
use pbn_tests::corpus::{corpus_dir, corpus_files};
use pbn_tests::verifier::{Job, Report, Verifier};

/// Per verifier game: whether a diagnostic (or, with `related`, one of its
/// related locations) lies in it.
fn games_named(
    diags: &[Diagnostic],
    related: bool,
    index: &LineIndex,
    report: &Report,
) -> Vec<bool> {
    let mut named = vec![false; report.games.len()];
    for d in diags {
        let places =
            std::iter::once(&d.range).chain(d.related.iter().map(|r| &r.range).filter(|_| related));
        for r in places {
            if let Some(g) = report.game_of_line(index.line_of(r.start)) {
                named[g] = true;
            }
        }
    }
    named
}

#[test]
fn every_game_the_verifier_rejects_keeps_a_shown_diagnostic() {
    let Some(dir) = corpus_dir() else { return };
    let Some(verifier) = Verifier::find() else {
        return;
    };
    let files = corpus_files(&dir);
    let jobs: Vec<Job> = files
        .iter()
        .map(|rel| Job {
            input: dir.join(rel),
            export: false,
        })
        .collect();
    let reports = verifier.run(&jobs);
    let (mut rejected, mut kept, mut verifier_only, mut grouped_files) = (0, 0, 0, 0);
    let mut counted_only = 0;
    let mut lost = Vec::new();
    for (rel, report) in files.iter().zip(&reports) {
        let source = decode(&std::fs::read(dir.join(rel)).unwrap());
        let index = LineIndex::new(&source.text);
        let shown = check_text(&source, &CheckOptions::default());
        let each = check_text(
            &source,
            &CheckOptions {
                ungrouped: true,
                ..Default::default()
            },
        );
        grouped_files += usize::from(shown.diagnostics.len() < each.diagnostics.len());
        let shown_in = games_named(&shown.diagnostics, true, &index, report);
        let each_in = games_named(&each.diagnostics, false, &index, report);
        // Per game: whether one of its diagnostics is not in a group (its
        // pattern's count did not go down once grouped).
        let count = |diags: &[Diagnostic]| {
            let mut n = std::collections::HashMap::new();
            for k in diags.iter().filter_map(key) {
                *n.entry(k).or_insert(0usize) += 1;
            }
            n
        };
        let (before, after) = (count(&each.diagnostics), count(&shown.diagnostics));
        let mut own = vec![false; report.games.len()];
        for d in &each.diagnostics {
            let grouped = key(d).is_some_and(|k| after.get(&k) < before.get(&k));
            if !grouped {
                if let Some(g) = report.game_of_line(index.line_of(d.range.start)) {
                    own[g] = true;
                }
            }
        }
        for (g, game) in report.games.iter().enumerate() {
            let Some(finding) = game.findings.iter().find(|f| f.is_error()) else {
                continue;
            };
            rejected += 1;
            if !each_in[g] {
                verifier_only += 1;
            } else if shown_in[g] {
                kept += 1;
            } else if !own[g] {
                counted_only += 1;
            } else {
                lost.push(format!(
                    "{}: verifier game {} (line {}): {}",
                    rel.display(),
                    game.number,
                    game.first_line + 1,
                    finding.message
                ));
            }
        }
    }
    eprintln!(
        "{rejected} games rejected by the verifier in {} files ({grouped_files} with groups): \
         {kept} keep a shown diagnostic, {counted_only} are counted by a group's message only \
         (past its related places), {} lost one, {verifier_only} not flagged even listed",
        files.len(),
        lost.len()
    );
    assert!(
        grouped_files > 0,
        "some corpus file has a file-wide pattern"
    );
    assert!(rejected > 100, "only {rejected} rejected games compared");
    assert!(
        lost.is_empty(),
        "{} rejected games show no diagnostic once grouped:\n{}",
        lost.len(),
        lost.join("\n")
    );
}
