//! Differential test against the reference PBN verifier
//! (`../shared/tools/verifier`, see `pbn_tests::verifier`).
//!
//! Inputs: every corpus file, and generated games (`pbn_tests::gen`), clean
//! and with one seeded random edit each (`pbn_tests::mutate`: swapped cards,
//! shifted calls, damaged tags and tables). Both checkers check every file;
//! their verdicts are compared game by game (the verifier's games): does the
//! game have an error (`E:`/`S:` for the verifier, an error-severity
//! diagnostic for `pbn check`)?
//!
//! Each disagreement is keyed by (input group, side, kind): the group is the
//! corpus file or `generated/<edit>`; the side is `verifier-only` (the
//! verifier rejects a game pbn accepts; the kind is the verifier's message)
//! or `pbn-only` (the kind is pbn's code). Every key seen must be a row of
//! `tests/fixtures/verifier/disagreements.tsv`, with the spec sentence that
//! shows which side is right (`open`: not yet judged); a row no longer seen
//! fails too (a fixed rule takes its row out). A row's group `*` stands for
//! every group.
//!
//! Runs when Java, `xvfb-run` and the jar are there (`.ci/install-verifier.sh`),
//! else skips loudly, or fails under `PBN_REQUIRE_SHARED=1` /
//! `PBN_REQUIRE_CORPUS=1`.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::diagnostic::Severity;
use pbn_core::text::{decode, LineIndex};
use pbn_tests::corpus::{corpus_dir, corpus_files};
use pbn_tests::mutate::{mutated_file, Mutation};
use pbn_tests::verifier::{scratch_dir, Job, Report, Verifier};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Generated games: clean files and mutated files, `GAMES` games each.
const GAMES: usize = 150;
const CLEAN_FILES: u64 = 4;
const MUTATED_FILES: u64 = 14;

const TABLE: &str = "fixtures/verifier/disagreements.tsv";

/// One input file and how its games are grouped.
struct Input {
    path: PathBuf,
    /// The group of every game: the corpus file, or per game its edit.
    groups: Groups,
}

enum Groups {
    Whole(String),
    PerGame(Vec<String>),
}

/// (group, side, kind) → games seen, with one example (file:line).
type Seen = BTreeMap<(String, &'static str, String), (usize, String)>;

fn inputs(dir: &Path, scratch: &Path) -> Vec<Input> {
    let mut out: Vec<Input> = corpus_files(dir)
        .into_iter()
        .map(|rel| Input {
            path: dir.join(&rel),
            groups: Groups::Whole(rel.display().to_string()),
        })
        .collect();
    for seed in 0..CLEAN_FILES {
        let path = scratch.join(format!("clean{seed}.pbn"));
        let text = pbn_tests::gen::generate(GAMES, 1000 + seed, &Default::default());
        std::fs::write(&path, text).unwrap();
        out.push(Input {
            path,
            groups: Groups::Whole("generated/clean".into()),
        });
    }
    for seed in 0..MUTATED_FILES {
        let path = scratch.join(format!("mutated{seed}.pbn"));
        let (text, edits) = mutated_file(GAMES, 2000 + seed, &Mutation::ALL);
        std::fs::write(&path, text).unwrap();
        out.push(Input {
            path,
            groups: Groups::PerGame(
                edits
                    .iter()
                    .map(|m| format!("generated/{}", m.name()))
                    .collect(),
            ),
        });
    }
    out
}

/// Compares one file's verdicts game by game into `seen`; returns the
/// number of games compared.
fn compare(input: &Input, report: &Report, seen: &mut Seen, label: &str) -> usize {
    let bytes = std::fs::read(&input.path).unwrap();
    let source = decode(&bytes);
    // The rules' verdicts, each diagnostic listed, readable forms at their
    // export severity (the verifier is strict); grouped as shown, every
    // one of them is still there, on its own or in its file-wide pattern.
    let res = check_text(
        &source,
        &CheckOptions {
            ungrouped: true,
            ..Default::default()
        },
    );
    let grouped = check_text(&source, &CheckOptions::default());
    assert_eq!(
        pbn_tests::patterns::shape(&pbn_tests::patterns::expand(
            &grouped.diagnostics,
            &res.diagnostics
        )),
        pbn_tests::patterns::shape(&res.diagnostics),
        "{label}: grouping lost a diagnostic"
    );
    let index = LineIndex::new(&source.text);
    let mut pbn_errors: Vec<BTreeMap<&'static str, usize>> =
        vec![BTreeMap::new(); report.games.len()];
    for d in res
        .diagnostics
        .iter()
        .filter(|d| pbn_core::codes::strict_severity(d.code, d.severity) == Severity::Error)
    {
        let line = index.line_of(d.range.start);
        if let Some(g) = report.game_of_line(line) {
            pbn_errors[g].entry(d.code.code).or_insert(line);
        }
    }
    if let Groups::PerGame(groups) = &input.groups {
        assert_eq!(
            groups.len(),
            report.games.len(),
            "{label}: the verifier sees {} games, the generator wrote {}",
            report.games.len(),
            groups.len()
        );
    }
    for (g, game) in report.games.iter().enumerate() {
        let group = match &input.groups {
            Groups::Whole(name) => name.clone(),
            Groups::PerGame(groups) => groups[g].clone(),
        };
        let verifier: BTreeMap<&str, Option<usize>> = game
            .findings
            .iter()
            .filter(|f| f.is_error())
            .map(|f| (f.message.as_str(), f.line))
            .collect();
        let ours = &pbn_errors[g];
        let mut note = |side: &'static str, kind: String, line: Option<usize>| {
            let e = seen
                .entry((group.clone(), side, kind))
                .or_insert_with(|| (0, String::new()));
            e.0 += 1;
            if e.1.is_empty() {
                e.1 = format!(
                    "{label}:{} (verifier game {})",
                    line.map_or("?".into(), |l| (l + 1).to_string()),
                    game.number
                );
            }
        };
        if ours.is_empty() {
            for (msg, line) in &verifier {
                note("verifier-only", msg.to_string(), *line);
            }
        }
        if verifier.is_empty() {
            for (code, line) in ours {
                note("pbn-only", code.to_string(), Some(*line));
            }
        }
    }
    report.games.len()
}

struct Row {
    key: (String, String, String),
    line: usize,
}

fn table() -> Vec<Row> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(TABLE);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if n == 0 || line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            cols.len(),
            7,
            "{TABLE}:{}: 7 tab-separated columns (group, side, kind, verifier, pbn, right, spec)",
            n + 1
        );
        assert!(
            matches!(cols[5], "verifier" | "pbn" | "both" | "open"),
            "{TABLE}:{}: column 6 (right) is verifier, pbn, both or open (not yet judged), not {:?}",
            n + 1,
            cols[5]
        );
        assert!(
            cols[6].contains('§'),
            "{TABLE}:{}: the spec column cites a § number",
            n + 1
        );
        rows.push(Row {
            key: (cols[0].into(), cols[1].into(), cols[2].into()),
            line: n + 1,
        });
    }
    rows
}

#[test]
fn verdicts_agree_with_the_reference_verifier_or_are_listed() {
    let Some(dir) = corpus_dir() else { return };
    let Some(verifier) = Verifier::find() else {
        return;
    };
    let scratch = scratch_dir("verifier-diff");
    let inputs = inputs(&dir, &scratch);
    let jobs: Vec<Job> = inputs
        .iter()
        .map(|i| Job {
            input: i.path.clone(),
            export: false,
        })
        .collect();
    let reports = verifier.run(&jobs);
    let mut seen = Seen::new();
    let mut games = 0;
    for (input, report) in inputs.iter().zip(&reports) {
        let label = input
            .path
            .strip_prefix(&dir)
            .or_else(|_| input.path.strip_prefix(&scratch))
            .unwrap_or(&input.path)
            .display()
            .to_string();
        games += compare(input, report, &mut seen, &label);
    }
    if std::env::var_os("PBN_KEEP_SCRATCH").is_none() {
        let _ = std::fs::remove_dir_all(&scratch);
    }

    let rows = table();
    let mut failures = Vec::new();
    let mut listed = BTreeSet::new();
    for row in &rows {
        let (group, side, kind) = (&row.key.0, &row.key.1, &row.key.2);
        let matching: Vec<_> = seen
            .keys()
            .filter(|k| (group == "*" || k.0 == *group) && k.1 == side && k.2 == *kind)
            .cloned()
            .collect();
        if matching.is_empty() {
            failures.push(format!(
                "{TABLE}:{}: {} / {} / {} is no longer seen: take the row out",
                row.line, row.key.0, row.key.1, row.key.2
            ));
        }
        listed.extend(matching);
    }
    let mut by_side: BTreeMap<&str, usize> = BTreeMap::new();
    for ((group, side, kind), (n, example)) in &seen {
        *by_side.entry(side).or_default() += n;
        // Every disagreement with an example, for judging the table's rows
        // (`cargo test --test verifier_diff -- --nocapture`).
        eprintln!("{group}\t{side}\t{kind}\t{n} games, e.g. {example}");
        if !listed.contains(&(group.clone(), *side, kind.clone())) {
            failures.push(format!(
                "not in {TABLE}: {group}\t{side}\t{kind}\t({n} games, e.g. {example})"
            ));
        }
    }
    eprintln!(
        "{games} games compared; {} kinds of disagreement: {by_side:?}",
        seen.len()
    );
    assert!(games > 2000, "a few thousand games compared, not {games}");
    assert!(
        failures.is_empty(),
        "\n{}\n\n(a new row: group, side, kind, what the verifier says, what pbn says, \
         which is right, the spec sentence with its §)",
        failures.join("\n")
    );
}
