//! How far the fixes go: `format::format_fixed` (every safe fix applied, then
//! export format: what `pbn fmt` writes) on every corpus file, then `pbn check --export`
//! on its output. What is left must be errors no fix can resolve; the
//! snapshot `fmt_export_corpus__left.snap` lists them per file and code,
//! with the code's name as the reason, and the test fails on any change
//! (a new kind of leftover, or one that went away: update the list then).
//! The goal is that no diagnostic saying "read as" survives: the snapshot
//! lists, per code and file, those that still do (readings whose fix is
//! unsafe, or without a fix yet), and those `pbn check --fix
//! --unsafe-fixes` leaves, so that one more of them fails the test.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::diagnostic::Severity;
use pbn_core::format::{format_fixed, FormatOptions};
use pbn_tests::corpus::{corpus_dir, corpus_sources};
use std::collections::BTreeMap;

#[test]
fn fmt_output_of_the_corpus_passes_the_export_check_but_for_unfixable_errors() {
    let Some(dir) = corpus_dir() else { return };
    let mut left = String::new();
    let mut read_as = Vec::new();
    let mut total = 0;
    let mut read_as_unsafe = Vec::new();
    for (name, source) in corpus_sources(&dir) {
        let fixed = pbn_core::checker::fix::fix_source(&source, &CheckOptions::default(), true);
        for d in &fixed.remaining.diagnostics {
            if d.message.contains("read as") {
                read_as_unsafe.push(format!("  {} {name}\n", d.code.code));
            }
        }
        let out = format_fixed(&source, &FormatOptions::default());
        // Read back as `pbn fmt` writes it: in ISO 8859-1 where every
        // character fits (PBN0111, §2.2), else in the file's own encoding.
        let (bytes, _) =
            pbn_core::text::encode(&out.text, pbn_core::rules::write_encoding(&source));
        let res = check_text(
            &pbn_core::text::decode(&bytes),
            &CheckOptions {
                export: true,
                ..Default::default()
            },
        );
        let mut by_code: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
        for d in &res.diagnostics {
            if d.message.contains("read as") {
                read_as.push((d.code.code, name.clone()));
            }
            if d.severity == Severity::Error {
                by_code.entry(d.code.code).or_insert((0, d.code.name)).0 += 1;
                total += 1;
            }
        }
        for (code, (n, why)) in by_code {
            left.push_str(&format!("{name}: {code} {why} ×{n}\n"));
        }
    }
    left.push_str(&format!("total errors left: {total}\n"));
    left.push_str(&format!(
        "\n\"read as\" diagnostics surviving fmt: {}\n",
        read_as.len()
    ));
    let mut kinds: BTreeMap<&(&str, String), usize> = BTreeMap::new();
    for survivor in &read_as {
        *kinds.entry(survivor).or_default() += 1;
    }
    for ((code, name), n) in kinds {
        left.push_str(&format!("  {code} ×{n} {name}\n"));
    }
    left.push_str(&format!(
        "\n\"read as\" diagnostics surviving check --fix --unsafe-fixes: {}\n",
        read_as_unsafe.len()
    ));
    read_as_unsafe.dedup();
    left.extend(read_as_unsafe);
    insta::assert_snapshot!("left", left);
}
