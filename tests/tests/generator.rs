//! The PBN generator (`pbn_tests::gen`) writes what `pbn check` accepts:
//! the benchmarks rely on it (BENCHMARKS.md states the diagnostics of each
//! input), so a rule or generator change that breaks it fails here.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::text::decode;
use pbn_tests::gen::{generate, GenOptions};

fn codes(text: &str, export: bool) -> Vec<String> {
    let result = check_text(
        &decode(text.as_bytes()),
        // Each diagnostic listed: what the rules find in every game.
        &CheckOptions {
            export,
            ungrouped: true,
            ..Default::default()
        },
    );
    result
        .diagnostics
        .iter()
        .map(|d| format!("{:?} {}", d.severity, d.code.code))
        .collect()
}

#[test]
fn a_clean_file_has_no_diagnostic_even_in_export_format() {
    for seed in [1, 2, 3] {
        let text = generate(300, seed, &GenOptions::clean());
        assert!(text.contains("\r\n") && !text.contains("DoubleDummyTricks"));
        for export in [false, true] {
            let found = codes(&text, export);
            assert!(found.is_empty(), "seed {seed}, export {export}: {found:?}");
        }
    }
}

#[test]
fn the_default_file_has_one_line_end_error_and_one_hint_per_game() {
    let games = 300;
    let text = generate(games, 1, &GenOptions::default());
    let found = codes(&text, false);
    let hints = found.iter().filter(|c| c.ends_with("PBN0208")).count();
    assert_eq!(
        hints, games,
        "one application-specific-tag hint (DoubleDummyTricks) per game: {found:?}"
    );
    let others: Vec<_> = found.iter().filter(|c| !c.ends_with("PBN0208")).collect();
    assert_eq!(
        others.len(),
        1,
        "and the LF line ends, once per file: {others:?}"
    );
}

#[test]
fn the_clean_file_has_the_same_games_as_the_default() {
    let a = generate(100, 5, &GenOptions::default());
    let b = generate(100, 5, &GenOptions::clean());
    let strip = |t: &str| {
        t.replace("\r\n", "\n")
            .lines()
            .filter(|l| !l.starts_with("[DoubleDummyTricks "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
}
