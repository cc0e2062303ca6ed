//! Locating the shared corpus of real PBN files (`../shared/corpus`).
//!
//! Tests that need it call [`corpus_dir`]; when it is absent (a user's fresh
//! clone) they skip, visibly ([`crate::skips`]), unless
//! `PBN_REQUIRE_CORPUS=1` (set by `.ci/run`) turns the skip into a failure.

use std::path::{Path, PathBuf};

/// The corpus directory: `$PBN_CORPUS`, else `<repo>/../shared/corpus`.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("PBN_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    if dir.is_dir() {
        Some(dir)
    } else {
        let reason = format!("PBN corpus not found at {} (set PBN_CORPUS)", dir.display());
        if std::env::var("PBN_REQUIRE_CORPUS").is_ok_and(|v| v == "1") {
            panic!("{reason}: PBN_REQUIRE_CORPUS=1 makes this a failure");
        }
        crate::skips::skip(&reason);
        None
    }
}

/// Every `*.pbn` file under the corpus, as paths relative to it, sorted.
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("corpus readable")
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pbn")) {
                out.push(p.strip_prefix(base).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// Every corpus file decoded ([`pbn_core::text::decode`]), with its path
/// relative to the corpus as its name, in [`corpus_files`] order.
pub fn corpus_sources(dir: &Path) -> Vec<(String, pbn_core::text::SourceText)> {
    corpus_files(dir)
        .into_iter()
        .map(|rel| {
            let bytes =
                std::fs::read(dir.join(&rel)).unwrap_or_else(|e| panic!("{}: {e}", rel.display()));
            (rel.display().to_string(), pbn_core::text::decode(&bytes))
        })
        .collect()
}

/// The `*.pbn` files directly in `dir`, sorted (a directory that cannot be
/// read is a test failure).
pub fn pbn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pbn"))
        .collect();
    files.sort();
    files
}

/// The project's own PBN files, decoded, with their paths as names: the
/// `check`, `fmt` and `fix` fixtures of `tests/fixtures` and the shipped
/// `examples/`.
pub fn own_sources() -> Vec<(String, pbn_core::text::SourceText)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        root.join("fixtures/check"),
        root.join("fixtures/fmt"),
        root.join("fixtures/fix"),
        root.join("../examples"),
    ] {
        for p in pbn_files(&dir) {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            out.push((p.display().to_string(), pbn_core::text::decode(&bytes)));
        }
    }
    out
}
