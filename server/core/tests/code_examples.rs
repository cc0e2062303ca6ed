//! Every diagnostic code's `bad` example (shown by `pbn explain`) triggers
//! that code, and its `good` example does not: each rule has a failing and a
//! passing fixture, and the documentation cannot rot.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::codes::{all, Category};
use pbn_core::text::decode;

fn codes_of(src: &str, export: bool) -> Vec<&'static str> {
    let source = decode(src.as_bytes());
    let res = check_text(
        &source,
        &CheckOptions {
            export,
            ..Default::default()
        },
    );
    let mut codes: Vec<_> = res.diagnostics.iter().map(|d| d.code.code).collect();
    // PBN11xx: `pbn check --dd`, double-dummy values against the solver.
    let trees = pbn_core::syntax::parse_split(&source.text, usize::MAX);
    let doc = pbn_core::model::lower(&trees, &source.text);
    codes.extend(
        pbn_core::dd::verify::check_document(&doc)
            .iter()
            .map(|d| d.code.code),
    );
    codes
}

/// Codes whose examples cannot be written as plain text (they depend on
/// bytes or line-ending conventions the explain text describes in words).
const DESCRIBED_ONLY: &[&str] = &["PBN1004", "PBN0108", "PBN0007"];

#[test]
fn bad_examples_trigger_and_good_examples_pass() {
    let mut failures = Vec::new();
    for c in all() {
        if DESCRIBED_ONLY.contains(&c.code) {
            continue;
        }
        let export = c.category == Category::Export;
        let bad = codes_of(c.bad, export);
        if !bad.contains(&c.code) {
            failures.push(format!(
                "{} {}: bad example does not trigger it (got {:?}):\n{}",
                c.code, c.name, bad, c.bad
            ));
        }
        let good = codes_of(c.good, export);
        if good.contains(&c.code) {
            failures.push(format!(
                "{} {}: good example triggers it:\n{}",
                c.code, c.name, c.good
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn codes_of_bytes(bytes: &[u8], export: bool) -> Vec<&'static str> {
    let source = decode(bytes);
    check_text(
        &source,
        &CheckOptions {
            export,
            ..Default::default()
        },
    )
    .diagnostics
    .iter()
    .map(|d| d.code.code)
    .collect()
}

#[test]
fn described_only_codes_have_byte_fixtures() {
    // PBN0108: Windows-1252 bytes 0x80–0x9F.
    assert!(codes_of_bytes(
        b"%charset=windows-1252\n{ \x93quoted\x94 caf\xe9 }\n[Event \"x\"]\n",
        false
    )
    .contains(&"PBN0108"));
    assert!(!codes_of_bytes(
        b"%charset=windows-1252\n{ \"quoted\" caf\xe9 }\n[Event \"x\"]\n",
        false
    )
    .contains(&"PBN0108"));
    // Undeclared, such bytes are Latin-1 C1 controls (§2.2).
    assert!(codes_of_bytes(b"{ \x93quoted\x94 }\n[Event \"x\"]\n", false).contains(&"PBN0101"));
    // PBN1004: LF line ends in export mode.
    assert!(codes_of_bytes(b"[Event \"x\"]\n", true).contains(&"PBN1004"));
    assert!(!codes_of_bytes(b"[Event \"x\"]\r\n", true).contains(&"PBN1004"));
    // PBN0007: a game longer than 1 MiB, read in parts.
    let tags = |n: usize| "[Event \"x\"]\n".repeat(n).into_bytes();
    let long = (pbn_core::syntax::GAME_WINDOW / 12) + 1000;
    assert!(codes_of_bytes(&tags(long), false).contains(&"PBN0007"));
    assert!(!codes_of_bytes(&tags(long - 2000), false).contains(&"PBN0007"));
    // `% EXPORT` turns the export rules on by itself.
    assert!(codes_of_bytes(b"% EXPORT\n[Event \"x\"]\n", false).contains(&"PBN1004"));
}
