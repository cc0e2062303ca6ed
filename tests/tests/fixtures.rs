//! Directory-driven snapshots of our own fixtures: `tests/fixtures/fmt/*.pbn`
//! → `pbn fmt` output (`format_fixed`), `tests/fixtures/check/*.pbn` (and the fmt fixtures)
//! → `pbn check` diagnostics. New fixture files are picked up automatically.

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::format::{format_fixed, FormatOptions};
use pbn_core::text::{decode, LineIndex, PositionEncoding};
use std::path::{Path, PathBuf};

fn fixtures(dir: &str) -> Vec<PathBuf> {
    pbn_tests::corpus::pbn_files(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(dir),
    )
}

fn diagnostics_report(bytes: &[u8], export: bool) -> String {
    let source = decode(bytes);
    let res = check_text(
        &source,
        &CheckOptions {
            export,
            ..Default::default()
        },
    );
    let index = LineIndex::new(&source.text);
    let mut s = format!("games: {}\n", res.games);
    for d in &res.diagnostics {
        let p = index.line_col(&source.text, d.range.start, PositionEncoding::Chars);
        s.push_str(&format!(
            "{}:{} {} {} {}\n",
            p.line + 1,
            p.col + 1,
            d.severity.name(),
            d.code.code,
            d.message
        ));
    }
    s
}

#[test]
fn fmt_fixtures() {
    let files = fixtures("fmt");
    assert!(files.len() >= 3);
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        // What `pbn fmt` writes: the safe fixes (export forms of values,
        // calls and cards, suffixes as NAGs) and then the layout.
        let out = format_fixed(&decode(&bytes), &FormatOptions::default());
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("fmt__{name}"), out.text);
        // The formatted text is itself stable.
        let again = format_fixed(&decode(out.text.as_bytes()), &FormatOptions::default());
        assert_eq!(out.text, again.text, "{name}: not idempotent");
    }
}

#[test]
fn check_fixtures() {
    let mut files = fixtures("check");
    files.extend(fixtures("fmt"));
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("check__{name}"), diagnostics_report(&bytes, false));
    }
}
