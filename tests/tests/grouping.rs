//! File-wide patterns shown once (`pbn_core::checker::group`,
//! `codes::POLICY`): grouping loses no diagnostic (each group stands for
//! exactly the diagnostics it replaced, on every corpus file and on
//! generated files with foreign forms), a real problem keeps its own
//! diagnostic, a group's fix does what its members' fixes did, and the
//! import-format severity of readable forms; `pbn check --no-group` and
//! `[check] group = false`.

use pbn_core::checker::{check_text, CheckOptions, CheckResult};
use pbn_core::diagnostic::{apply_fixes, Severity};
use pbn_core::text::{decode, SourceText};
use pbn_tests::binary::pbn_binary;
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use pbn_tests::gen::{generate, GenOptions};
use pbn_tests::patterns::{expand, foreign_forms, shape};

fn both(source: &SourceText, export: bool, fixes: bool) -> (CheckResult, CheckResult) {
    let opts = CheckOptions {
        export,
        fixes,
        ungrouped: false,
    };
    let grouped = check_text(source, &opts);
    let each = check_text(
        source,
        &CheckOptions {
            ungrouped: true,
            ..opts
        },
    );
    (grouped, each)
}

fn assert_nothing_lost(name: &str, grouped: &CheckResult, each: &CheckResult) {
    let back = expand(&grouped.diagnostics, &each.diagnostics);
    assert_eq!(
        shape(&back),
        shape(&each.diagnostics),
        "{name}: the groups do not stand for the diagnostics they replaced"
    );
}

#[test]
fn every_corpus_file_keeps_every_diagnostic_in_its_groups() {
    let Some(dir) = corpus_dir() else { return };
    let (mut before, mut after) = (0, 0);
    for (name, source) in corpus_sources(&dir) {
        for export in [false, true] {
            let (grouped, each) = both(&source, export, false);
            assert_nothing_lost(&name, &grouped, &each);
            if !export {
                before += each.diagnostics.len();
                after += grouped.diagnostics.len();
            }
        }
    }
    assert!(after < before, "{after} of {before}");
}

fn pattern_file(games: usize, export: bool) -> String {
    foreign_forms(&generate(games, 61, &GenOptions::default()), export)
}

/// A generated file whose dates, calls and board numbers are another
/// program's: at most a tenth of the diagnostics once grouped, each
/// group on its first occurrence, naming the games and walking them.
#[test]
fn a_pattern_file_shows_a_tenth_of_its_diagnostics() {
    for export in [false, true] {
        let source = decode(pattern_file(200, export).as_bytes());
        let (grouped, each) = both(&source, export, false);
        assert_nothing_lost("generated", &grouped, &each);
        let (g, e) = (grouped.diagnostics.len(), each.diagnostics.len());
        assert!(e >= 400, "the file has its patterns: {e}");
        assert!(g * 10 <= e, "{g} grouped of {e}");
        let date = grouped
            .diagnostics
            .iter()
            .find(|d| d.code.code == "PBN0302")
            .expect("the dates' group");
        assert_eq!(date.game, Some(0));
        assert!(
            date.message
                .contains("[the same in 200 games: games 1, 2, 3, 4, 5, and 195 more]"),
            "{}",
            date.message
        );
        assert_eq!(date.related.len(), pbn_core::checker::group::RELATED);
        assert!(date.related[0].message.starts_with("game 2"));
        let last = &date.related[pbn_core::checker::group::RELATED - 1].message;
        assert!(
            last.contains("; 189 more not listed here (`pbn check --no-group`"),
            "{last}"
        );
    }
}

/// Grouping keeps what the file cannot mean: a wrong Result in one game
/// of a pattern file has its own error there.
#[test]
fn a_real_problem_keeps_its_own_diagnostic() {
    let text = pattern_file(50, false);
    let at = text.match_indices("[Result \"").nth(30).unwrap().0;
    let end = at + text[at..].find('\n').unwrap();
    let broken = format!("{}[Result \"0\"]{}", &text[..at], &text[end..]);
    let source = decode(broken.as_bytes());
    let (grouped, each) = both(&source, false, false);
    assert_nothing_lost("wrong result", &grouped, &each);
    let own: Vec<_> = grouped
        .diagnostics
        .iter()
        .filter(|d| d.code.code == "PBN0903")
        .collect();
    assert_eq!(own.len(), 1, "{own:?}");
    assert_eq!(own[0].severity, Severity::Error);
    assert_eq!(own[0].game, Some(30));
}

/// A group's fix holds every member's edit: applying the grouped fixes
/// gives the text that applying each fix gives.
#[test]
fn a_group_fixes_all_of_its_members() {
    let source = decode(pattern_file(60, false).as_bytes());
    let (grouped, each) = both(&source, false, true);
    let fix = grouped
        .diagnostics
        .iter()
        .find(|d| d.code.code == "PBN0520")
        .and_then(|d| d.fix.clone())
        .expect("the calls' group has a fix");
    assert!(fix.edits.len() >= 60, "{}", fix.edits.len());
    let (a, _) = apply_fixes(&source.text, &grouped.diagnostics, false).unwrap();
    let (b, _) = apply_fixes(&source.text, &each.diagnostics, false).unwrap();
    assert_eq!(a, b);
    let fixed = pbn_core::checker::fix::fix_source(&source, &CheckOptions::default(), false);
    assert!(
        !fixed
            .remaining
            .diagnostics
            .iter()
            .any(|d| d.code.code == "PBN0520" || d.code.code == "PBN0302"),
        "{:?}",
        fixed.remaining.diagnostics
    );
}

/// Readable forms with a safe fix: warnings in import format, errors in
/// export format (a `% EXPORT` line or `--export`).
#[test]
fn readable_forms_are_warnings_in_import_format_only() {
    let game = "[Dealer \"N\"]\n[Date \"2023-07-28\"]\n[Auction \"N\"]\n1N P P P\n";
    let sev = |text: &str, export: bool, code: &str| {
        let r = check_text(
            &decode(text.as_bytes()),
            &CheckOptions {
                export,
                ..Default::default()
            },
        );
        r.diagnostics
            .iter()
            .filter(|d| d.code.code == code)
            .map(|d| d.severity)
            .collect::<Vec<_>>()
    };
    for code in ["PBN0302", "PBN0520"] {
        assert!(
            sev(game, false, code)
                .iter()
                .all(|s| *s == Severity::Warning),
            "{code}"
        );
        assert!(!sev(game, false, code).is_empty(), "{code}");
        assert!(
            sev(game, true, code).iter().all(|s| *s == Severity::Error),
            "{code}"
        );
        let declared = format!("% PBN 2.1\n% EXPORT\n{game}");
        assert!(
            sev(&declared, false, code)
                .iter()
                .all(|s| *s == Severity::Error),
            "{code}"
        );
    }
}

fn pbn(args: &[&str], dir: &std::path::Path) -> (i32, String) {
    let out = std::process::Command::new(pbn_binary())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn json_count(out: &str) -> usize {
    let v: serde_json::Value = serde_json::from_str(out).unwrap();
    v["files"][0]["diagnostics"].as_array().unwrap().len()
}

/// `pbn check` groups; `--no-group` and `[check] group = false` list each.
#[test]
fn cli_groups_unless_told_not_to() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("grouping-cli");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::remove_file(dir.join("pbn.toml")).ok();
    std::fs::write(dir.join("f.pbn"), pattern_file(40, false)).unwrap();
    let (_, grouped) = pbn(&["check", "--format", "json", "f.pbn"], &dir);
    let (_, each) = pbn(&["check", "--format", "json", "--no-group", "f.pbn"], &dir);
    let (g, e) = (json_count(&grouped), json_count(&each));
    assert!(g * 10 <= e, "{g} of {e}");
    std::fs::write(dir.join("pbn.toml"), "[check]\ngroup = false\n").unwrap();
    let (_, configured) = pbn(&["check", "--format", "json", "f.pbn"], &dir);
    assert_eq!(json_count(&configured), e);
    std::fs::remove_dir_all(&dir).ok();
}
