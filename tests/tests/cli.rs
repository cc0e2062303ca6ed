//! End-to-end tests of the `pbn` command line.

use pbn_tests::binary::pbn_binary;
use std::io::Write;
use std::process::{Command, Stdio};

fn examples(name: &str) -> String {
    format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut child = Command::new(pbn_binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1")
        .spawn()
        .expect("spawn pbn");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_clean_file_exits_0_with_a_summary() {
    let (code, out, _) = run(&["check", &examples("schiphol.pbn")], None);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("checked 1 file (1 game): 0 errors, 0 warnings"),
        "{out}"
    );
}

#[test]
fn check_broken_file_exits_1_with_rustc_style_output() {
    let (code, out, _) = run(&["check", &examples("broken.pbn")], None);
    assert_eq!(code, 1);
    assert!(out.contains("error[PBN0003]"), "{out}");
    assert!(out.contains("broken.pbn:17:7"), "{out}");
    assert!(out.contains("^^^"), "{out}");
    assert!(out.contains("help: `pbn explain PBN0003`"), "{out}");
}

#[test]
fn check_json_is_one_document_with_the_documented_fields() {
    let (code, out, _) = run(
        &[
            "check",
            "--format",
            "json",
            &examples("broken.pbn"),
            &examples("schiphol.pbn"),
        ],
        None,
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    let d = &files[0]["diagnostics"][0];
    for key in [
        "code",
        "severity",
        "category",
        "message",
        "line",
        "column",
        "end_line",
        "end_column",
        "game",
    ] {
        assert!(d.get(key).is_some(), "missing {key} in {d}");
    }
    assert_eq!(files[0]["encoding"], "utf-8");
    assert!(v["summary"]["errors"].as_u64().unwrap() > 0);
    // Pretty-printed with the keys in alphabetical order, as a
    // `serde_json::Value` would print them (the output is not built as one).
    assert_eq!(out, serde_json::to_string_pretty(&v).unwrap() + "\n");
    // Related locations.
    let dup = std::env::temp_dir().join(format!("pbn-cli-json-{}.pbn", std::process::id()));
    std::fs::write(&dup, "[Room \"Open\"]\n[Room \"Closed\"]\n").unwrap();
    let (_, out, _) = run(&["check", "--format", "json", dup.to_str().unwrap()], None);
    let _ = std::fs::remove_file(&dup);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(out, serde_json::to_string_pretty(&v).unwrap() + "\n");
    assert_eq!(v["files"][0]["diagnostics"][0]["related"][0]["line"], 1);
}

#[test]
fn check_reads_stdin_and_deny_warnings_fails_on_warnings() {
    let warn_only = b"[Event \"x\"]\n[Date \"2024-01-02\"]\n";
    let (code, _, _) = run(&["check", "-"], Some(warn_only));
    assert_eq!(code, 0);
    let (code, _, _) = run(&["check", "--deny-warnings", "-"], Some(warn_only));
    assert_eq!(code, 1);
}

#[test]
fn usage_and_io_errors_exit_2() {
    let (code, _, err) = run(&["check", "/no/such/file.pbn"], None);
    assert_eq!(code, 2);
    assert!(err.contains("no such file"), "{err}");
    let (code, _, _) = run(&["check", "--format", "xml", "x.pbn"], None);
    assert_eq!(code, 2);
    let (code, _, err) = run(&["explain", "PBN9999"], None);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn explain_prints_rule_section_and_examples() {
    let (code, out, _) = run(&["explain", "PBN0003"], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("unterminated-string")
            && out.contains("§3.2")
            && out.contains("Fails:")
            && out.contains("Passes:"),
        "{out}"
    );
    let (code, out, _) = run(&["explain", "--list"], None);
    assert_eq!(code, 0);
    assert!(out.lines().count() > 100, "every code listed");
}

#[test]
fn dump_is_stable_json() {
    let (code, out, _) = run(&["dump", &examples("schiphol.pbn")], None);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"][0]["tags"]["Contract"], "5HX");
    assert_eq!(v["games"][0]["auction"]["outcome"]["declarer"], "S");
    let (_, again, _) = run(&["dump", &examples("schiphol.pbn")], None);
    assert_eq!(out, again);
}

#[test]
fn fmt_stdin_check_and_in_place_write_keep_latin1() {
    // stdin → stdout
    let (code, out, _) = run(
        &["fmt", "-"],
        Some(b"[Dealer \"n\"] [Event \"x\"]\n[Auction \"N\"]\n1c pass ap\n"),
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("[Event \"x\"]\n[Site \"?\"]"), "{out}");
    assert!(out.contains("1C Pass Pass Pass\n"), "{out}");

    let dir = std::env::temp_dir().join(format!("pbn-cli-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin1.pbn");
    std::fs::write(&file, b"[Event \"Li\xe8ge\"]\r\n[Dealer \"s\"]\r\n").unwrap();
    let f = file.to_str().unwrap();
    let (code, out, _) = run(&["fmt", "--check", f], None);
    assert_eq!(code, 1);
    assert!(out.contains("latin1.pbn"));
    let (code, _, err) = run(&["fmt", f], None);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&file).unwrap();
    assert!(
        bytes.windows(6).any(|w| w == b"Li\xe8ge\""),
        "still Latin-1"
    );
    assert!(
        bytes.windows(13).any(|w| w == b"[Dealer \"S\"]\r"),
        "CRLF kept, value upper case"
    );
    let (code, _, _) = run(&["fmt", "--check", f], None);
    assert_eq!(code, 0, "formatted file is stable");

    // A file with syntax errors is not written without --force.
    let broken = dir.join("broken.pbn");
    std::fs::copy(examples("broken.pbn"), &broken).unwrap();
    let before = std::fs::read(&broken).unwrap();
    let (code, _, err) = run(&["fmt", broken.to_str().unwrap()], None);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not written"), "{err}");
    assert_eq!(std::fs::read(&broken).unwrap(), before);

    // A game export format cannot hold (a Note with data before the
    // auction) is kept as written, said so, and the file is written: the
    // other games are formatted and nothing is lost.
    let kept = dir.join("kept.pbn");
    std::fs::write(
        &kept,
        "[Dealer \"S\"]\n[Note \"1:x\"]\nC8 CA\n[Auction \"S\"]\nAP\n\n[Dealer \"n\"]\n",
    )
    .unwrap();
    let (code, _, err) = run(&["fmt", kept.to_str().unwrap()], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("game(s) 1 cannot be written in export format without changing their meaning"),
        "{err}"
    );
    assert!(!err.contains("syntax errors"), "{err}");
    let written = std::fs::read_to_string(&kept).unwrap();
    assert!(
        written.starts_with("[Dealer \"S\"]\n[Note \"1:x\"]\nC8 CA\n"),
        "{written}"
    );
    assert!(
        written.contains("[Dealer \"N\"]"),
        "the second game is formatted: {written}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A file that never ends (`/dev/zero`) is read up to the limit and
/// refused, not read forever.
#[test]
fn an_endless_file_is_refused_at_the_read_limit() {
    let (code, out, err) = run(&["check", "/dev/zero"], None);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("larger than 256 MiB"), "{err}");
}

/// A FIFO named `*.pbn` in a directory is skipped with a note (reading it
/// would wait forever); the regular files beside it are checked.
#[test]
fn a_fifo_in_a_directory_is_skipped() {
    let dir = std::env::temp_dir().join(format!("pbn-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(examples("schiphol.pbn"), dir.join("a.pbn")).unwrap();
    let fifo = dir.join("b.pbn");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        std::fs::remove_dir_all(&dir).unwrap();
        panic!("mkfifo failed");
    }
    let (code, out, err) = run(&["check", dir.to_str().unwrap()], None);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(err.contains("skipped, not a regular file"), "{err}");
    assert!(out.contains("checked 1 file"), "{out}");
    assert_eq!(code, 0, "{out}{err}");
}
