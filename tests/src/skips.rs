//! Skipped tests that a plain `cargo test` shows.
//!
//! A test that cannot run here (no Emacs, no shared corpus…) passes with a
//! skip. libtest captures what a passing test prints with `eprintln!`, so
//! [`skip`] writes its banner to the standard error handle itself, which the
//! capture does not cover, and the test binary prints one summary line of
//! every skip and its reason when it exits (an `atexit` hook), after
//! libtest's `test result:` line.
//!
//! `PBN_REQUIRE_<WHAT>=1` (set by `.ci/run`) turns the skip into a failure
//! in the callers ([`crate::corpus::corpus_dir`], [`crate::editors::skip`]).

use std::io::Write;
use std::sync::{Mutex, Once};

/// The reasons skipped so far, with how often.
static SKIPS: Mutex<Vec<(String, usize)>> = Mutex::new(Vec::new());
static HOOK: Once = Once::new();

/// Records that the current test is skipped because of `reason`, and says
/// so now (once per reason) and in the summary at exit.
pub fn skip(reason: &str) {
    let first = {
        let mut skips = SKIPS.lock().unwrap_or_else(|e| e.into_inner());
        match skips.iter_mut().find(|(r, _)| r == reason) {
            Some((_, n)) => {
                *n += 1;
                false
            }
            None => {
                skips.push((reason.to_string(), 1));
                true
            }
        }
    };
    if first {
        let banner = format!("\n!!!!!!!! SKIPPED: {reason} !!!!!!!!\n");
        let _ = std::io::stderr().write_all(banner.as_bytes());
    }
    HOOK.call_once(|| {
        #[cfg(unix)]
        // SAFETY: `summary` is an `extern "C" fn()` that does not unwind.
        unsafe {
            libc::atexit(summary);
        }
    });
}

/// The summary line: `SKIPPED in editor_emacs: 4 tests: Emacs not found
/// (run …)` (several reasons are separated by `; `).
pub fn summary_line(binary: &str, skips: &[(String, usize)]) -> Option<String> {
    if skips.is_empty() {
        return None;
    }
    let total: usize = skips.iter().map(|(_, n)| n).sum();
    let reasons: Vec<String> = skips
        .iter()
        .map(|(r, n)| {
            if skips.len() > 1 {
                format!("{r} ({n})")
            } else {
                r.clone()
            }
        })
        .collect();
    Some(format!(
        "SKIPPED in {binary}: {total} test{}: {}",
        if total == 1 { "" } else { "s" },
        reasons.join("; ")
    ))
}

/// The test binary's name without cargo's `-<hash>` suffix.
fn binary_name() -> String {
    let stem = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "tests".into());
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name.to_string()
        }
        _ => stem,
    }
}

#[cfg(unix)]
extern "C" fn summary() {
    let _ = std::panic::catch_unwind(|| {
        let skips = SKIPS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(line) = summary_line(&binary_name(), &skips) {
            let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_tests_and_names_every_reason() {
        assert_eq!(summary_line("cli", &[]), None);
        assert_eq!(
            summary_line("editor_emacs", &[("Emacs not found (run x)".into(), 4)]).unwrap(),
            "SKIPPED in editor_emacs: 4 tests: Emacs not found (run x)"
        );
        assert_eq!(
            summary_line("a", &[("no corpus".into(), 1), ("no node".into(), 2)]).unwrap(),
            "SKIPPED in a: 3 tests: no corpus (1); no node (2)"
        );
    }
}
