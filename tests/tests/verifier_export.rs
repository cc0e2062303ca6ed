//! Export parity with the reference PBN verifier
//! (`../shared/tools/verifier`, see `pbn_tests::verifier`).
//!
//! For every corpus file that neither checker rejects (no `E:`/`S:` from the
//! verifier, no error-severity diagnostic from `pbn check`):
//! 1. the verifier accepts `pbn fmt`'s output with no error;
//! 2. `pbn fmt`'s output equals the verifier's own export (`-e`) game by
//!    game, line by line (`%` lines aside), except for the kinds of
//!    difference in `ALLOWED`, each with the spec sentence that allows it.
//!
//! Runs when Java, `xvfb-run` and the jar are there (`.ci/install-verifier.sh`),
//! else skips loudly, or fails under `PBN_REQUIRE_SHARED=1` /
//! `PBN_REQUIRE_CORPUS=1`.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::diagnostic::Severity;
use pbn_core::format::{format_fixed, EolOption, FormatOptions};
use pbn_core::text::{decode, encode};
use pbn_tests::corpus::{corpus_dir, corpus_files};
use pbn_tests::verifier::{export_blocks as blocks, line_differences as differences};
use pbn_tests::verifier::{latin1, scratch_dir, Job, Verifier};
use std::collections::BTreeMap;

/// (kind, which side the text supports, spec sentence). `classify` maps
/// each differing run of lines to one of these; rows whose side is
/// `verifier` are pbn fmt's worklist.
const ALLOWED: &[(&str, &str, &str)] = &[
    ("new-tag-game", "pbn", "§4.9: \"A PBN parser is robust when it just skips such tags, and perhaps shows a warning.\" The verifier leaves a game with a tag it does not know (its `W: New tag name`) out of its export; pbn fmt keeps the game and the tag. Such games are not compared."),
    ("comment-block", "both", "§3.8: \"There are no rules for converting comments from import format to export format. A conversion program has the freedom to merge comments, etc.\" The verifier moves a comment-only block between two games into the next game; pbn fmt keeps it where it stood."),
    ("empty-contract", "pbn", "§3.4: \"When a tag value of a mandatory tag is inappropriate (e.g. a dealing program only gives the tags 'Dealer', 'Vulnerable', and 'Deal'), then the tag is given as an empty string.\" The input gives `[Contract \"\"]`; pbn fmt keeps the empty value, the verifier writes \"?\"."),
    ("play-end", "verifier", "§3.6: \"The play section ends after 13 tricks, or with \"*\" .\" The verifier ends a play section that stops early with `*`; pbn fmt keeps it as written (and `pbn check` warns, PBN0611)."),
];

/// Errors the verifier reports on pbn fmt's output: (message, kind of
/// `ALLOWED` that explains it).
const REJECTED: &[(&str, &str)] = &[];

fn classify(ours: &[&str], theirs: &[&str]) -> Option<&'static str> {
    if ours == ["[Contract \"\"]"] && theirs == ["[Contract \"?\"]"] {
        return Some("empty-contract");
    }
    if ours.is_empty() && theirs == ["*"] {
        return Some("play-end");
    }
    None
}

/// Moves each comment-only block (no tag) into the next game, as the
/// verifier does; returns how many were moved.
fn merge_comment_blocks(blocks: &mut Vec<Vec<&str>>) -> usize {
    let mut moved = 0;
    let mut i = 0;
    while i + 1 < blocks.len() {
        if blocks[i].iter().all(|l| !l.starts_with('[')) {
            let block = blocks.remove(i);
            blocks[i].splice(0..0, block);
            moved += 1;
        } else {
            i += 1;
        }
    }
    moved
}

#[test]
fn fmt_output_is_accepted_by_and_equals_the_reference_verifiers_export() {
    let Some(dir) = corpus_dir() else { return };
    let Some(verifier) = Verifier::find() else {
        return;
    };
    let scratch = scratch_dir("verifier-export");
    // Files pbn accepts, with pbn fmt's output beside them.
    let mut files = Vec::new();
    for rel in corpus_files(&dir) {
        let path = dir.join(&rel);
        let source = decode(&std::fs::read(&path).unwrap());
        let res = check_text(&source, &CheckOptions::default());
        if res
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            continue;
        }
        let formatted = format_fixed(
            &source,
            &FormatOptions {
                eol: EolOption::Lf,
                ..Default::default()
            },
        );
        let out = scratch.join(format!("fmt{}.pbn", files.len()));
        std::fs::write(
            &out,
            encode(&formatted.text, pbn_core::rules::write_encoding(&source)).0,
        )
        .unwrap();
        files.push((rel.display().to_string(), path, out));
    }
    let jobs: Vec<Job> = files
        .iter()
        .flat_map(|(_, path, out)| {
            [
                Job {
                    input: path.clone(),
                    export: true,
                },
                Job {
                    input: out.clone(),
                    export: false,
                },
            ]
        })
        .collect();
    let reports = verifier.run(&jobs);

    let mut failures = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut compared = 0;
    for ((rel, _, out), pair) in files.iter().zip(reports.chunks(2)) {
        let (original, of_fmt) = (&pair[0], &pair[1]);
        let rejects = |r: &pbn_tests::verifier::Report| {
            r.games
                .iter()
                .flat_map(|g| &g.findings)
                .filter(|f| f.is_error())
                .map(|f| f.message.clone())
                .collect::<Vec<_>>()
        };
        if !rejects(original).is_empty() {
            // The verifier rejects the input: its export is no reference.
            continue;
        }
        compared += 1;
        for e in rejects(of_fmt) {
            match REJECTED.iter().find(|(m, _)| *m == e) {
                Some((_, kind)) => *counts.entry(kind).or_default() += 1,
                None => failures.push(format!(
                    "{rel}: the verifier rejects pbn fmt's output ({}): {e}",
                    out.display()
                )),
            }
        }
        let Some(export) = &original.export else {
            failures.push(format!("{rel}: the verifier wrote no export"));
            continue;
        };
        let ours = latin1(&std::fs::read(out).unwrap());
        let (mut a, b) = (blocks(&ours), blocks(export));
        let moved = merge_comment_blocks(&mut a);
        if moved > 0 {
            *counts.entry("comment-block").or_default() += moved;
        }
        // The games the verifier leaves out of its export.
        let left_out: Vec<usize> = original
            .games
            .iter()
            .enumerate()
            .filter(|(_, g)| g.findings.iter().any(|f| f.message == "New tag name"))
            .map(|(i, _)| i)
            .collect();
        // (The verifier may count an empty game after the last.)
        if !left_out.is_empty() && a.len() <= original.games.len() {
            *counts.entry("new-tag-game").or_default() += left_out.len();
            a = a
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !left_out.contains(i))
                .map(|(_, g)| g)
                .collect();
        }
        if a.len() != b.len() {
            failures.push(format!(
                "{rel}: {} games in pbn fmt's output, {} in the verifier's export",
                a.len(),
                b.len()
            ));
            continue;
        }
        for (g, (ga, gb)) in a.iter().zip(&b).enumerate() {
            for (o, t) in differences(ga, gb) {
                match classify(&o, &t) {
                    Some(kind) => *counts.entry(kind).or_default() += 1,
                    None => failures.push(format!(
                        "{rel} game {} ({}): pbn fmt {o:?}\n    verifier {t:?}",
                        g + 1,
                        out.display()
                    )),
                }
            }
        }
    }
    if std::env::var_os("PBN_KEEP_SCRATCH").is_none() {
        let _ = std::fs::remove_dir_all(&scratch);
    }
    eprintln!(
        "{compared} of {} files pbn accepts are accepted by the verifier and compared; \
         differences, all allowed:",
        files.len()
    );
    for (kind, n) in &counts {
        let (right, why) = ALLOWED
            .iter()
            .find(|(k, _, _)| k == kind)
            .map_or(("?", "?"), |(_, r, w)| (*r, *w));
        eprintln!("  {n:4} × {kind} (the text supports: {right}): {why}");
    }
    assert!(compared >= 10, "only {compared} files compared");
    let unused: Vec<_> = ALLOWED
        .iter()
        .filter(|(k, _, _)| !counts.contains_key(k))
        .map(|(k, _, _)| *k)
        .collect();
    assert!(
        unused.is_empty(),
        "kinds of difference no longer seen, take them out of ALLOWED: {unused:?}"
    );
    assert!(
        failures.is_empty(),
        "{} unexplained:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn only_the_listed_kinds_of_difference_are_classified() {
    assert_eq!(classify(&[], &["*"]), Some("play-end"));
    assert_eq!(classify(&["[Declarer \"?\"]"], &["[Declarer \"\"]"]), None);
    assert_eq!(
        classify(&["[Contract \"\"]"], &["[Contract \"?\"]"]),
        Some("empty-contract")
    );
    assert_eq!(classify(&["S2 S3"], &["S3 S2"]), None);
    assert_eq!(classify(&["[Declarer \"N\"]"], &["[Declarer \"\"]"]), None);
    assert_eq!(classify(&[], &[]), None);
}

#[test]
fn comment_only_blocks_join_the_next_game() {
    let mut b = blocks("[Event \"a\"]\n\n{\nNo game\n}\n\n[Event \"b\"]\n% x\n");
    assert_eq!(merge_comment_blocks(&mut b), 1);
    assert_eq!(
        b,
        [
            vec!["[Event \"a\"]"],
            vec!["{", "No game", "}", "[Event \"b\"]"]
        ]
    );
}
