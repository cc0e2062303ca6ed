//! Snapshot of the diagnostics of every corpus file (insta, one snapshot per
//! file). A change in what `pbn check` reports on real files shows up here
//! for review (`cargo insta review`).

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::text::{decode, LineIndex, PositionEncoding};
use pbn_tests::corpus::{corpus_dir, corpus_files};

/// Diagnostics listed one by one per file (the counts cover all of them).
const SHOWN: usize = 300;

#[test]
fn corpus_diagnostics_snapshots() {
    let Some(dir) = corpus_dir() else { return };
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_path("snapshots/corpus");
    let _guard = settings.bind_to_scope();
    for rel in corpus_files(&dir) {
        let bytes = std::fs::read(dir.join(&rel)).unwrap();
        let source = decode(&bytes);
        let result = check_text(&source, &CheckOptions::default());
        let index = LineIndex::new(&source.text);
        let mut report = format!(
            "encoding: {}\nline endings: {}\ngames: {}\ndiagnostics: {}\n\n",
            source.encoding.name(),
            source.line_ending.name(),
            result.games,
            result.diagnostics.len()
        );
        // Large files: every code with its count, then the first diagnostics.
        let mut counts = std::collections::BTreeMap::new();
        for d in &result.diagnostics {
            *counts
                .entry((d.code.code, d.severity.name()))
                .or_insert(0usize) += 1;
        }
        for ((code, sev), n) in &counts {
            report.push_str(&format!("count {code} {sev}: {n}\n"));
        }
        report.push('\n');
        for d in result.diagnostics.iter().take(SHOWN) {
            let p = index.line_col(&source.text, d.range.start, PositionEncoding::Chars);
            report.push_str(&format!(
                "{}:{} {} {} [game {}] {}\n",
                p.line + 1,
                p.col + 1,
                d.severity.name(),
                d.code.code,
                d.game.map(|g| (g + 1).to_string()).unwrap_or("-".into()),
                d.message
            ));
        }
        let name = rel.to_string_lossy().replace(['/', '\\', ' '], "__");
        insta::assert_snapshot!(name, report);
    }
}
