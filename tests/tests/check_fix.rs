//! `pbn check --fix`, `--unsafe-fixes` and `--diff` on the fixtures of
//! `tests/fixtures/fix/` (one per fixable rule, named after its code; an
//! `-unsafe` name has only an unsafe fix): each fixture is fixed in a
//! temporary copy and the result snapshotted with what was reported; and
//! `pbn fmt` on every corpus file passes `pbn check --export` but for the
//! errors no fix can resolve.

use pbn_tests::binary::pbn_binary;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> Vec<PathBuf> {
    pbn_tests::corpus::pbn_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fix"))
}

/// Runs `pbn check <flags> <copy of path>`: (status, stdout, stderr, the
/// file's bytes afterwards), the temporary path written as `FILE`.
fn run_on_copy(path: &Path, flags: &[&str]) -> (i32, String, String, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("pbn-fix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join(path.file_name().unwrap());
    std::fs::copy(path, &copy).unwrap();
    let out = Command::new(pbn_binary())
        .arg("check")
        .args(flags)
        .args(["--color", "never"])
        .arg(&copy)
        .output()
        .unwrap();
    let after = std::fs::read(&copy).unwrap();
    std::fs::remove_file(&copy).unwrap();
    let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(&*copy.to_string_lossy(), "FILE");
    (
        out.status.code().unwrap_or(-1),
        clean(&out.stdout),
        clean(&out.stderr),
        after,
    )
}

#[test]
fn every_fixable_rule_has_a_fixture_whose_fix_is_snapshotted() {
    let files = fixtures();
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let before = std::fs::read(&path).unwrap();
        let code = format!("PBN{}", &name[..4]);
        // Failing case: the file has the diagnostic.
        let (status, stdout, _, _) = run_on_copy(&path, &[]);
        assert!(stdout.contains(&code), "{name}: no {code} before the fix");
        let _ = status;
        let (_, safe_out, safe_err, safe) = run_on_copy(&path, &["--fix"]);
        let (_, _, unsafe_err, unsafe_) = run_on_copy(&path, &["--fix", "--unsafe-fixes"]);
        // Passing case: the fix resolves the diagnostic (safe fixes unless
        // the fixture is named `-unsafe`, which --fix must leave alone).
        let fixed = if name.ends_with("-unsafe") {
            assert_eq!(safe, before, "{name}: an unsafe fix was applied by --fix");
            // The report of what is left offers them.
            assert!(safe_out.contains("--unsafe-fixes"), "{name}: {safe_out}");
            &unsafe_
        } else {
            assert_ne!(safe, before, "{name}: --fix changed nothing");
            &safe
        };
        let after = Command::new(pbn_binary())
            .args(["check", "--color", "never", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(fixed)?;
                c.wait_with_output()
            })
            .unwrap();
        let after_report = String::from_utf8_lossy(&after.stdout);
        assert!(
            !after_report.contains(&code),
            "{name}: {code} left after the fix:\n{after_report}"
        );
        let (before, safe, unsafe_) = (shown(&before), shown(&safe), shown(&unsafe_));
        insta::assert_snapshot!(
            format!("fix__{name}"),
            format!(
                "--- before\n{before}--- check --fix (stderr)\n{safe_err}--- check --fix (stdout)\n{safe_out}--- after --fix\n{safe}--- check --fix --unsafe-fixes (stderr)\n{unsafe_err}--- after --fix --unsafe-fixes\n{unsafe_}"
            )
        );
    }
}

/// A file's text for a snapshot, with its encoding when that is not UTF-8
/// (a UTF-8 file is written back in ISO 8859-1 when every character fits,
/// PBN0111).
fn shown(bytes: &[u8]) -> String {
    let s = pbn_core::text::decode(bytes);
    match s.encoding {
        pbn_core::text::Encoding::Utf8 => s.text,
        e => format!("(written as {})\n{}", e.name(), s.text),
    }
}

#[test]
fn diff_shows_the_fixes_without_writing() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fix/0520-nonstandard-calls.pbn");
    let before = std::fs::read(&path).unwrap();
    let (status, stdout, stderr, after) = run_on_copy(&path, &["--diff"]);
    assert_eq!(after, before, "--diff wrote the file");
    assert_eq!(status, 1, "--diff exits 1 when there is something to fix");
    assert!(
        stdout.contains("-1N P 3N Dbl\n-Rdbl P P P\n+1NT Pass 3NT X\n+XX Pass Pass Pass\n"),
        "{stdout}"
    );
    assert!(stderr.contains("would apply"), "{stderr}");
    // A file without fixes: no diff, status 0.
    let clean = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let first = pbn_tests::corpus::pbn_files(&clean).into_iter().find(|p| {
        let (s, _, _, _) = run_on_copy(p, &[]);
        s == 0
    });
    if let Some(p) = first {
        let (status, stdout, _, _) = run_on_copy(&p, &["--diff"]);
        assert_eq!((status, stdout.as_str()), (0, ""), "{p:?}");
    }
}

#[test]
fn fix_reads_standard_input_and_writes_the_fixed_text() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fix/0302-date.pbn");
    let out = Command::new(pbn_binary())
        .args(["check", "--fix", "-"])
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[Date \"2024.07.12\"]"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("left: 0 error(s)"));
}

/// `pbn fmt` writes a recomputed scoring figure where the Scoring tag names
/// the method (`MP;MP2`: a safe fix), and leaves it where the scale is only
/// the one the stated figures fit (`MP`: unsafe).
#[test]
fn fmt_writes_the_figures_the_scoring_tag_computes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fix");
    let fmt = |name: &str| {
        let out = Command::new(pbn_binary())
            .args(["fmt", "--stdout"])
            .arg(dir.join(name))
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}");
        String::from_utf8(out.stdout).unwrap()
    };
    let named = fmt("0809-matchpoints.pbn");
    assert!(named.ends_with("420 2 0\n170 1 1\n-50 0 2\n"), "{named}");
    let guessed = fmt("0809-scale-of-the-figures-unsafe.pbn");
    assert!(guessed.ends_with("420 2\n170 1\n-50 1\n"), "{guessed}");
}
