//! Shared plumbing of the real-editor tests (`tests/tests/editor_*.rs`):
//! scratch directories, the skip/fail policy, running a headless editor
//! scenario that writes a JSON result, and `pbn fmt -`.

use crate::binary::{pbn_binary, run_pbn_stdin_bytes};
use serde_json::{json, Value};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Kill an editor that has not finished by then (its own waits are 20–30 s).
pub const TIMEOUT: Duration = Duration::from_secs(90);

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repo root")
        .to_path_buf()
}

/// A file of `examples/`.
pub fn example(name: &str) -> String {
    fs::read_to_string(repo().join("examples").join(name)).expect("example file")
}

/// A fresh scratch directory for one test of one editor.
pub fn scratch(tmp: &Path, editor: &str, name: &str) -> PathBuf {
    let dir = tmp.join(format!("editor-{editor}")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Skips visibly ([`crate::skips`]) when an editor is missing, or fails
/// when `PBN_REQUIRE_EDITORS=1` (set by `.ci/run`).
pub fn skip(what: &str, hint: &str) {
    let reason = format!("{what} ({hint})");
    if std::env::var("PBN_REQUIRE_EDITORS").is_ok_and(|v| v == "1") {
        panic!("SKIPPED: {reason}: PBN_REQUIRE_EDITORS=1 makes this a failure");
    }
    crate::skips::skip(&reason);
}

/// `PATH` with the directory of this build's `pbn` first.
pub fn path_with_pbn() -> OsString {
    let bin_dir = pbn_binary().parent().expect("pbn binary dir").to_path_buf();
    std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("PATH")
}

/// The editor's stdout, stderr and any extra log files of `dir`.
pub fn logs(dir: &Path, extra: &[&str]) -> String {
    let read = |p: PathBuf| fs::read_to_string(p).unwrap_or_default();
    let mut s = format!(
        "\n--- stdout\n{}\n--- stderr\n{}",
        read(dir.join("stdout.txt")),
        read(dir.join("stderr.txt"))
    );
    for e in extra {
        s.push_str(&format!("\n--- {e}\n{}", read(dir.join(e))));
    }
    s
}

/// Runs an editor scenario: `cmd` must make the editor write `out_file`
/// (`{"ok": bool, "error": …, "log": …, "<editor>_version": …, "data": …}`)
/// and exit. Returns `data`; fails with the editor's output otherwise.
pub fn run_scenario(
    editor: &str,
    scenario: &str,
    mut cmd: Command,
    dir: &Path,
    out_file: &Path,
    extra_logs: &[&str],
) -> Value {
    let _ = fs::remove_file(out_file);
    cmd.stdin(Stdio::null())
        .stdout(fs::File::create(dir.join("stdout.txt")).unwrap())
        .stderr(fs::File::create(dir.join("stderr.txt")).unwrap());
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("start {editor}: {e}"));
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .unwrap_or_else(|e| panic!("wait for {editor}: {e}"))
        {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{editor} ({scenario}) did not finish within {TIMEOUT:?}{}",
                logs(dir, extra_logs)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = fs::read_to_string(out_file).unwrap_or_else(|e| {
        panic!(
            "{editor} ({scenario}, {status}) wrote no result ({e}){}",
            logs(dir, extra_logs)
        )
    });
    let result: Value = serde_json::from_str(&text).expect("result JSON");
    assert!(
        result["ok"] == json!(true),
        "{editor} scenario {scenario} failed: {}\nlog: {}{}",
        result["error"].as_str().unwrap_or("?"),
        result["log"],
        logs(dir, extra_logs)
    );
    eprintln!(
        "{editor} {} ({scenario}): {:?}",
        result[format!("{editor}_version")],
        started.elapsed()
    );
    result["data"].clone()
}

/// Writes `text` to `dir/name`.
pub fn put(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

/// `pbn fmt -` of `text`.
pub fn pbn_fmt(text: &str) -> String {
    let (code, out, err) = run_pbn_stdin_bytes(&["fmt", "-"], Some(text.as_bytes()));
    assert!(code == 0, "pbn fmt failed: {err}");
    String::from_utf8(out).unwrap()
}

/// schiphol.pbn with import-format liberties (spacing, a lower-case call),
/// and its export format according to `pbn fmt -`.
pub fn messy_schiphol() -> (String, String) {
    let text = example("schiphol.pbn")
        .replacen("[Board \"1\"]", "[Board    \"1\"]", 1)
        .replacen("1D      1S   3H =1= 4S", "1d 1S 3H =1=   4S", 1);
    let expected = pbn_fmt(&text);
    assert_ne!(
        expected, text,
        "the input must need formatting for this test to mean anything"
    );
    (text, expected)
}

/// Fails with a diff unless `got` (described by `what`) is `expected`, the
/// `pbn fmt -` output.
pub fn assert_same(expected: &str, got: &str, what: &str) {
    if expected != got {
        let diff = similar::TextDiff::from_lines(expected, got);
        panic!(
            "{what} is not `pbn fmt -` output:\n{}",
            diff.unified_diff().header("pbn fmt", what)
        );
    }
}
