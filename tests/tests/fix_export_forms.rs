//! The export form of a value comes from one place, the rules' safe fixes
//! (`pbn_core::rules::fixes`): `pbn fmt` applies them and then only lays
//! the text out, so `pbn check --export --fix` writes the same values as
//! `pbn fmt`, and a file, its fixed and its formatted version dump alike.
//! Fixes are built only when asked for (`CheckOptions::fixes`).

use pbn_core::checker::fix::fix_source;
use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::format::{format, format_fixed, FormatOptions};
use pbn_core::text::SourceText;
use pbn_tests::binary::run_pbn_stdin;

/// A game as hand editors and programs write it: `P`, `3N`, lower-case
/// cards and seats, an ISO date, `10` for the ten, `Both`, the Result as
/// a side's tricks.
const INPUT: &str = "[Event \"x\"]\n[Site \"?\"]\n[Date \"2024-07-12\"]\n[Board \"2\"]\n\
[West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n[Dealer \"n\"]\n\
[Vulnerable \"Both\"]\n\
[Deal \"N:AKQJ.AKQ.AKQ.AKQ 10987.J109.J109.J109 6543.876.876.876 2.5432.5432.5432\"]\n\
[Scoring \"?\"]\n[Declarer \"N\"]\n[Contract \"3N\"]\n[Result \"NS 9\"]\n\
[Auction \"N\"]\n1N! P 3N P\nP P\n[Play \"e\"]\ns10 s3 s2 sa\n";

/// The values every path must write.
const EXPORT_FORMS: &[&str] = &[
    "[Date \"2024.07.12\"]",
    "[Dealer \"N\"]",
    "[Vulnerable \"All\"]",
    "[Contract \"3NT\"]",
    "[Result \"9\"]",
    "1NT $1 Pass 3NT Pass",
    "[Play \"E\"]",
    "ST S3 S2 SA",
    "[Deal \"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432\"]",
];

/// The readings that must not survive a fix (`read as …`, lower case,
/// value forms, suffixes).
const FIXED_CODES: &[&str] = &[
    "PBN0302", "PBN0316", "PBN0405", "PBN0520", "PBN0620", "PBN1006", "PBN1007", "PBN1013",
];

/// `pbn ARGS` with `stdin`, colours off.
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_pbn_stdin(args, Some(stdin.as_bytes()))
}

fn codes(text: &str) -> Vec<&'static str> {
    let opts = CheckOptions {
        export: true,
        ..Default::default()
    };
    let res = check_text(&SourceText::from_text(text.to_owned()), &opts);
    res.diagnostics.iter().map(|d| d.code.code).collect()
}

#[test]
fn check_export_fix_writes_what_fmt_writes() {
    // Failing case: the input has every one of these readings.
    let before = codes(INPUT);
    for c in FIXED_CODES {
        assert!(
            before.contains(c),
            "{c} not reported on the input: {before:?}"
        );
    }
    let (_, fixed, err) = run(&["check", "--export", "--fix", "-"], INPUT);
    let (_, formatted, _) = run(&["fmt", "-"], INPUT);
    for form in EXPORT_FORMS {
        assert!(
            fixed.contains(form),
            "check --fix: no {form}:\n{fixed}\n{err}"
        );
        assert!(formatted.contains(form), "fmt: no {form}:\n{formatted}");
    }
    // Passing case: nothing of them is left, after either.
    for text in [&fixed, &formatted] {
        let after = codes(text);
        for c in FIXED_CODES {
            assert!(!after.contains(c), "{c} left:\n{text}");
        }
    }
    // fmt is the fixes and then the layout: formatting the fixed text
    // gives fmt's output, and so does laying it out without fixes.
    let (_, fixed_formatted, _) = run(&["fmt", "-"], &fixed);
    assert_eq!(fixed_formatted, formatted);
}

#[test]
fn fmt_is_the_safe_fixes_then_the_layout() {
    let source = SourceText::from_text(INPUT.to_owned());
    let opts = CheckOptions {
        export: true,
        ..Default::default()
    };
    let fixed = fix_source(&source, &opts, false);
    assert!(fixed.count() > 0);
    let laid_out = format(&fixed.source, &FormatOptions::default()).text;
    assert_eq!(
        laid_out,
        format_fixed(&source, &FormatOptions::default()).text
    );
    // Without the fixes the layout keeps the values as written: the
    // formatter repairs nothing itself.
    let as_written = format(&source, &FormatOptions::default()).text;
    for kept in ["[Contract \"3N\"]", "1N ! P 3N P", "s10 s3 s2 sa"] {
        assert!(as_written.contains(kept), "{kept}:\n{as_written}");
    }
}

#[test]
fn a_file_its_fixed_and_its_formatted_version_dump_alike() {
    let (_, fixed, _) = run(&["check", "--export", "--fix", "-"], INPUT);
    let (_, formatted, _) = run(&["fmt", "-"], INPUT);
    assert_ne!(fixed, INPUT);
    let (s, dump, err) = run(&["dump", "-"], INPUT);
    assert_eq!(s, 0, "{err}");
    let (_, dump_fixed, _) = run(&["dump", "-"], &fixed);
    let (_, dump_formatted, _) = run(&["dump", "-"], &formatted);
    assert_eq!(dump, dump_fixed, "check --export --fix changed the meaning");
    assert_eq!(dump, dump_formatted, "fmt changed the meaning");
    // The failing case the comparison guards against: another card.
    let (_, other, _) = run(&["dump", "-"], &fixed.replace("S3 S2", "S3 S4"));
    assert_ne!(dump, other);
}

#[test]
fn fixes_are_built_only_when_asked_for() {
    let source = SourceText::from_text(INPUT.to_owned());
    let plain = check_text(
        &source,
        &CheckOptions {
            export: true,
            ..Default::default()
        },
    );
    let with = check_text(
        &source,
        &CheckOptions {
            export: true,
            fixes: true,
            ungrouped: false,
        },
    );
    let fixes = |r: &pbn_core::checker::CheckResult| {
        r.diagnostics.iter().filter(|d| d.fix.is_some()).count()
    };
    // The same diagnostics either way.
    let codes = |r: &pbn_core::checker::CheckResult| {
        r.diagnostics
            .iter()
            .map(|d| (d.code.code, d.range.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(codes(&plain), codes(&with));
    assert!(fixes(&with) >= FIXED_CODES.len(), "{}", fixes(&with));
    // Only the file-level and syntax fixes, made where their diagnostic is
    // (none in this file), without the option.
    assert_eq!(fixes(&plain), 0);
}
