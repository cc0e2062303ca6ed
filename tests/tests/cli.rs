//! End-to-end tests of the `pbn` command line.

use pbn_tests::binary::pbn_binary;
use std::process::{Command, Stdio};

fn examples(name: &str) -> String {
    format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    pbn_tests::binary::run_pbn_stdin(args, stdin)
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
    // An unknown tag is a warning (§4.9); `2024-01-02` is an error now.
    let warn_only = b"[Event \"x\"]\n[MyTag \"y\"]\n";
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

/// `pbn explain` says what a code's fix does and its kind, from the one
/// registry of fixable codes (PBN0310's fix is made in `rules::fixes`,
/// PBN0001's with the syntax diagnostic).
#[test]
fn explain_says_what_the_fix_does() {
    let (code, out, _) = run(&["explain", "PBN0310"], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("Fix: an empty `[Play \"\"]` without cards removed")
            && out.contains("Its kind: safe"),
        "{out}"
    );
    let (_, out, _) = run(&["explain", "PBN0001"], None);
    assert!(out.contains("Fix: a line of free text"), "{out}");
    let (_, out, _) = run(&["explain", "PBN0901"], None);
    assert!(out.contains("Its kind: unsafe"), "{out}");
    let (_, out, _) = run(&["explain", "PBN0003"], None);
    assert!(out.contains("Fix: none."), "{out}");
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

/// `P`, `3N`, `Dbl`, `S10` and `2024-07-12` dump as `Pass`, `3NT`, `X`,
/// `ST` and `2024.07.12`: the same as the file written canonically, and
/// the same as the file after `pbn fmt`.
#[test]
fn dump_prints_canonical_values() {
    let other: &[u8] = b"[Event \"x\"]\n[Date \"2024-07-12\"]\n[Dealer \"N\"]\n\
        [Declarer \"N\"]\n[Contract \"3N\"]\n[Auction \"N\"]\n3N P Dbl Rdbl\nP P P\n\
        [Play \"E\"]\nS10 hA d2 c3\n*\n";
    let canonical: &[u8] = b"[Event \"x\"]\n[Date \"2024.07.12\"]\n[Dealer \"N\"]\n\
        [Declarer \"N\"]\n[Contract \"3NT\"]\n[Auction \"N\"]\n3NT Pass X XX\nPass Pass Pass\n\
        [Play \"E\"]\nST HA D2 C3\n*\n";
    let (code, out, err) = run(&["dump", "-"], Some(other));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let g = &v["games"][0];
    assert_eq!(g["tags"]["Date"], "2024.07.12");
    assert_eq!(g["tags"]["Contract"], "3NT");
    let calls: Vec<&str> = g["auction"]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["call"].as_str().unwrap())
        .collect();
    assert_eq!(calls, ["3NT", "Pass", "X", "XX", "Pass", "Pass", "Pass"]);
    assert_eq!(g["play"]["tricks"][0]["E"], "ST");
    let (_, want, _) = run(&["dump", "-"], Some(canonical));
    assert_eq!(out, want);
    let (_, formatted, _) = run(&["fmt", "-"], Some(canonical));
    let (_, again, _) = run(&["dump", "-"], Some(formatted.as_bytes()));
    assert_eq!(out, again);
    // A different call is a different meaning.
    let changed = String::from_utf8_lossy(canonical).replace("XX", "X");
    let (_, differs, _) = run(&["dump", "-"], Some(changed.as_bytes()));
    assert_ne!(out, differs);
}

/// `pbn fmt` applies the safe fixes (`P`, `3N`, `Dbl`, `--`, `2024-07-12`
/// written as `Pass`, `3NT`, `X`, `-`, `2024.07.12`), says how many on
/// stderr, and leaves the unsafe ones (`event` may be another tag than
/// `Event`, §3.3); the file dumps as before.
#[test]
fn fmt_applies_safe_fixes_only() {
    let input: &[u8] = b"[Event \"x\"]\n[Date \"2024-07-12\"]\n[Dealer \"N\"]\n[event \"y\"]\n\
        [Declarer \"N\"]\n[Contract \"3N\"]\n[Auction \"N\"]\n3N P Dbl P\nP P\n\
        [Play \"E\"]\nS10 -- d2 c3\n*\n";
    let (code, out, err) = run(&["fmt", "-"], Some(input));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("[Date \"2024.07.12\"]"), "{out}");
    assert!(out.contains("[Contract \"3NT\"]"), "{out}");
    assert!(out.contains("3NT Pass X Pass\nPass Pass"), "{out}");
    assert!(out.contains("ST - D2 C3"), "{out}");
    assert!(
        out.contains("[event \"y\"]"),
        "an unsafe fix applied: {out}"
    );
    assert!(
        err.contains("note: <stdin>: ") && err.contains("safe fixes applied"),
        "{err}"
    );
    let (_, before, _) = run(&["dump", "-"], Some(input));
    let (_, after, _) = run(&["dump", "-"], Some(out.as_bytes()));
    assert_eq!(before, after);
    // Formatted text has nothing left to fix: no note.
    let (_, again, err) = run(&["fmt", "-"], Some(out.as_bytes()));
    assert_eq!(again, out);
    assert!(!err.contains("fix"), "{err}");
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
    assert!(
        err.contains("skipped: 1 game with syntax errors (1)"),
        "{err}"
    );
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
        err.contains(
            "1 game that export format cannot hold without a change of meaning (1) kept as written"
        ),
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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pbn-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs pbn with its standard output going to a pipe whose reader closes
/// after reading `keep` bytes (0: before pbn writes anything). Returns the
/// exit code (`None`: killed by a signal) and standard error.
fn run_into_closed_pipe(args: &[&str], keep: usize) -> (Option<i32>, String) {
    use std::io::Read;
    let mut child = Command::new(pbn_binary())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pbn");
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = vec![0u8; keep];
    stdout.read_exact(&mut buf).unwrap();
    drop(stdout); // the reader is gone, like `head` after its lines
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    // 1,000 games in import format: a dump, a diff and a report of
    // hundreds of kilobytes, far more than a pipe holds (64 KiB on Linux),
    // so that pbn still writes when the reader has gone.
    let dir = temp_dir("pipe");
    let game =
        "[Event \"x\"]\n[Board \"1\"]\n[Dealer \"n\"]\n[Auction \"N\"]\n1c pass 1h pass\n2c ap\n\n";
    let big = dir.join("big.pbn");
    std::fs::write(&big, game.repeat(1000)).unwrap();
    let big = big.to_str().unwrap();
    for (args, keep) in [
        (vec!["dump", big], 100),
        (vec!["dump", big], 0),
        (vec!["fmt", "--diff", big], 100),
        (vec!["fmt", "--stdout", big], 0),
        // --no-group: each of the 1,000 games' diagnostics, not one
        // per file-wide pattern.
        (
            vec!["check", "--format", "json", "--export", "--no-group", big],
            100,
        ),
        (vec!["check", "--export", "--no-group", big], 100),
        (vec!["explain", "--list"], 0),
        (vec!["explain", "PBN0003"], 0),
        (vec!["config", "show"], 0),
    ] {
        if keep > 0 {
            let (_, out, _) = run(&args, None);
            assert!(out.len() > 1 << 18, "pbn {args:?}: {} bytes", out.len());
        }
        let (code, err) = run_into_closed_pipe(&args, keep);
        assert_eq!(code, Some(0), "pbn {args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "pbn {args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fmt_skips_a_file_whose_games_all_have_syntax_errors_with_one_line() {
    let dir = temp_dir("fmt-all-broken");
    let game = "[Event \"unterminated]\n[Board \"1\"]\n[Dealer \"n\"]\n\n";
    let file = dir.join("training.pbn");
    std::fs::write(&file, game.repeat(379)).unwrap();
    let before = std::fs::read(&file).unwrap();
    let f = file.to_str().unwrap();

    let (code, out, err) = run(&["fmt", f], None);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "error: {f}: skipped: 379 games with syntax errors (1–379) (run `pbn check {f}`); use --force to format the other games and keep these as written\n\
             formatted 0 file(s), 0 unchanged, 1 skipped (syntax errors)\n"
        )
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);

    // --force: the games keep their layout, said once, success; their
    // safe fixes apply as `pbn check --fix` applies them (`n` → `N`).
    let (code, _, err) = run(&["fmt", "--force", f], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        format!(
            "warning: {f}: 379 games with syntax errors (1–379) kept as written (run `pbn check {f}`)\n\
             note: {f}: 379 safe fixes applied (`pbn check --diff {f}` lists them)\n\
             formatted 1 file(s), 0 unchanged\n"
        )
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        game.replace("\"n\"", "\"N\"").repeat(379)
    );

    // Scattered broken games: at most 8 ranges, then `…`.
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(if i % 2 == 0 {
            game
        } else {
            "[Event \"ok\"]\n[Board \"1\"]\n[Dealer \"n\"]\n\n"
        });
    }
    std::fs::write(&file, &text).unwrap();
    let (code, _, err) = run(&["fmt", "--check", f], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("20 games with syntax errors (1, 3, 5, 7, 9, 11, 13, 15, …)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_summary_names_infos() {
    let doc = b"[Event \"x\"]\n[Board \"1\"]\n[Dealer \"E\"]\n[Vulnerable \"None\"]\n";
    let (code, out, _) = run(&["check", "-"], Some(doc));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("info[PBN0905]"), "{out}");
    assert!(
        out.ends_with("checked 1 file (1 game): 0 errors, 0 warnings, 1 info\n"),
        "{out}"
    );
    assert!(!out.contains("other"), "{out}");
}

/// The README shows the whole output of `pbn check examples/broken.pbn`;
/// it must be what the command prints. `PBN_UPDATE_README=1` rewrites it.
#[test]
fn readme_check_example_is_the_real_output() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme_path = repo.join("README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let command = "$ pbn check examples/broken.pbn\n";
    let start = readme.find(command).expect("the example in README.md") + command.len();
    let end = start + readme[start..].find("```").expect("the end of the example");
    let shown = &readme[start..end];
    let out = Command::new(pbn_binary())
        .args(["check", "--color", "never", "examples/broken.pbn"])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let printed = String::from_utf8(out.stdout).unwrap();
    if shown != printed && std::env::var_os("PBN_UPDATE_README").is_some() {
        let updated = format!("{}{printed}{}", &readme[..start], &readme[end..]);
        std::fs::write(&readme_path, updated).unwrap();
        return;
    }
    if shown != printed {
        let diff = similar::TextDiff::from_lines(shown, printed.as_str());
        panic!(
            "README.md's output of `pbn check examples/broken.pbn` is not what it prints (PBN_UPDATE_README=1 rewrites it):\n{}",
            diff.unified_diff().header("README.md", "pbn check")
        );
    }
}

#[test]
fn version_names_the_commit() {
    let (code, out, _) = run(&["--version"], None);
    assert_eq!(code, 0);
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(&repo)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let commit = head.unwrap_or_else(|| "unknown commit".to_string());
    assert_eq!(
        out,
        format!("pbn {} ({commit})\n", env!("CARGO_PKG_VERSION")),
        "`pbn --version` must name this checkout's commit"
    );
}

/// §4.1.2 across games (PBN0212): `pbn check` reports the DealId of a
/// later, different deal and points at the game that has it first.
#[test]
fn check_reports_a_deal_id_reused_for_another_deal() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/deal_id.pbn");
    let bytes = std::fs::read(path).unwrap();
    let (code, out, err) = run(&["check", "-"], Some(&bytes));
    assert_eq!(code, 0, "warnings only: {out}{err}");
    insta::assert_snapshot!("check_deal_id", out);
    let (code, _, _) = run(&["check", "--deny-warnings", "-"], Some(&bytes));
    assert_eq!(code, 1);
    let (code, out, _) = run(&["explain", "PBN0212"], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("§4.1.2") && out.contains("deal-id-reused"),
        "{out}"
    );
}

/// What each `--help` example exits with when run as written, in a
/// directory that holds the files the examples name (made from the repo's
/// `examples/`: clean games, so the status is the command's own). A new
/// example must be added here; each status is what the command's help
/// promises (`fmt --diff` and `check --diff` exit 1 when there is
/// something to change).
const HELP_EXAMPLES: &[(&str, i32)] = &[
    ("pbn check examples/schiphol.pbn", 0),
    ("pbn dump examples/schiphol.pbn", 0),
    ("pbn fmt --check games/", 0),
    ("pbn check --output-format json games/", 0),
    ("pbn explain PBN0003", 0),
    ("pbn show examples/schiphol.pbn --board 1", 0),
    ("pbn html examples/schiphol.pbn -o records.html", 0),
    ("pbn convert deals.rbn -o deals.pbn", 0),
    ("pbn score results.pbn", 0),
    ("pbn check game.pbn", 0),
    ("pbn check --output-format json tournaments/", 0),
    (
        "pbn check --output-format concise --select auction,PBN0302 games/",
        0,
    ),
    ("pbn check --ignore export game.pbn", 0),
    ("cat game.pbn | pbn check -", 0),
    ("pbn check --export --deny-warnings out.pbn", 0),
    ("pbn check --timings big.pbn", 0),
    ("pbn check --statistics archive/", 0),
    ("pbn check --dd analysed.pbn", 0),
    ("pbn check --no-group export.pbn", 0),
    ("pbn check --fix games.pbn", 0),
    ("pbn check --diff --unsafe-fixes games.pbn", 0),
    ("pbn fmt games.pbn", 0),
    ("pbn fmt --check tournaments/", 0),
    ("pbn fmt --diff game.pbn", 0),
    ("pbn fmt --eol crlf --export-header out.pbn", 0),
    ("cat game.pbn | pbn fmt -", 0),
    ("pbn dd deals.pbn", 0),
    ("pbn dd --check tournaments/", 0),
    ("pbn dd --overwrite --stdout analysed.pbn", 0),
    ("cat deals.pbn | pbn dd -", 0),
    ("pbn dd --play played.pbn", 0),
    ("pbn dd --play --check played.pbn", 0),
    ("pbn dd --leads deals.pbn", 0),
    ("pbn config show", 0),
    ("pbn config show games/game.pbn", 0),
    ("pbn config schema", 0),
    ("pbn dump game.pbn", 0),
    ("pbn dump a.pbn b.pbn", 0),
    ("pbn dump - < game.pbn", 0),
    ("diff <(pbn dump a.pbn) <(pbn dump b.pbn)", 0),
    ("pbn explain unterminated-string", 0),
    ("pbn explain --list", 0),
    ("pbn explain --policy", 0),
    ("pbn show examples/schiphol.pbn", 0),
    ("pbn show played.pbn --dd", 0),
    ("pbn show games.pbn --board 7", 0),
    ("pbn show games.pbn --color always | less -R", 0),
    ("pbn show - < games.pbn", 0),
    ("pbn html examples/schiphol.pbn -o schiphol.html", 0),
    ("pbn html examples/schiphol.pbn > schiphol.html", 0),
    ("pbn html games.pbn -o records.html --pdf records.pdf", 0),
    ("pbn html games.pbn --board 3 -o board3.html", 0),
    ("pbn html played.pbn --dd -o analysed.html", 0),
    ("pbn convert game.pbn -o game.rbn", 0),
    ("pbn convert board.lin -o board.pbn", 0),
    // schiphol.pbn's unknown cards (`-`) have no LIN form: a loss, exit 1.
    ("pbn convert game.pbn -o game.lin", 1),
    ("pbn convert game.pbn -o post.txt", 0),
    ("pbn convert game.pbn --to forum", 0),
    ("cat deals.rbn | pbn convert - --from rbn --to pbn -o -", 0),
    ("pbn score --write results.pbn", 0),
    ("pbn score --diff results.pbn", 0),
    ("pbn score - < results.pbn", 0),
];

/// A results file whose figures are right (`pbn score` examples).
const RESULTS: &str = "[Event \"Pairs\"]\n[Board \"1\"]\n[Vulnerable \"None\"]\n\
[Scoring \"MP;MP1\"]\n[ScoreTable \"PairId_NS;PairId_EW;Score_NS\\4R;MP_NS;MP_EW\"]\n\
1 4  420 4 0\n2 5  170 2 2\n3 6  -50 0 4\n";

/// The `Commands:` of a help text.
fn help_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // Not the wrapped lines of a description.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect()
}

/// The example commands of a help text: the lines after `Examples:` up to
/// a blank line, each cut before a run of spaces (the convert examples
/// explain themselves on the right).
fn help_examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Examples:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().split("   ").next().unwrap_or("").trim().to_owned())
        .collect()
}

#[test]
fn every_help_example_exits_as_its_help_says() {
    let help = |args: &[&str]| {
        let (code, out, err) = run(args, None);
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    };
    // Every example of `pbn --help` and of each subcommand's (and theirs).
    let mut found: Vec<String> = help_examples(&help(&["--help"]));
    for c in help_commands(&help(&["--help"])) {
        let text = help(&[&c, "--help"]);
        found.extend(help_examples(&text));
        for sub in help_commands(&text) {
            found.extend(help_examples(&help(&[&c, &sub, "--help"])));
        }
    }
    let mut seen = std::collections::HashSet::new();
    found.retain(|e| seen.insert(e.clone()));
    let table: Vec<&str> = HELP_EXAMPLES.iter().map(|(e, _)| *e).collect();
    let missing: Vec<&String> = found
        .iter()
        .filter(|e| !table.contains(&e.as_str()))
        .collect();
    let stale: Vec<&&str> = table
        .iter()
        .filter(|e| !found.iter().any(|f| f == *e))
        .collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "examples not in HELP_EXAMPLES: {missing:#?}\nin HELP_EXAMPLES, in no help: {stale:#?}"
    );

    // The files the examples name, from the repo's examples.
    let dir = temp_dir("help-examples");
    let bin = dir.join(".bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(pbn_binary(), bin.join("pbn")).unwrap();
    let sh = |cmd: &str| {
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("bash")
            .args(["-c", cmd])
            .current_dir(&dir)
            .env("PATH", path)
            .env("NO_COLOR", "1")
            .env_remove("CHROMIUM")
            .stdin(Stdio::null())
            .output()
            .expect("spawn bash")
    };
    std::fs::create_dir_all(dir.join("examples")).unwrap();
    let game = std::fs::read_to_string(examples("schiphol.pbn")).unwrap();
    std::fs::write(dir.join("examples/schiphol.pbn"), &game).unwrap();
    let games: String = ["1", "3", "7"]
        .iter()
        .map(|b| game.replace("[Board \"1\"]", &format!("[Board \"{b}\"]")))
        .collect::<Vec<_>>()
        .join("\n");
    for (name, text) in [
        ("game.pbn", &game),
        ("a.pbn", &game),
        ("b.pbn", &game),
        ("big.pbn", &games),
        ("games.pbn", &games),
        ("played.pbn", &game),
        ("games/game.pbn", &game),
        ("tournaments/day1.pbn", &games),
        ("archive/old.pbn", &games),
        ("results.pbn", &RESULTS.to_string()),
    ] {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    for setup in [
        "pbn fmt games/ tournaments/ game.pbn",
        "pbn fmt --eol crlf --export-header --stdout game.pbn > out.pbn",
        "pbn fmt --eol crlf --export-header --stdout game.pbn > export.pbn",
        "pbn dd --stdout game.pbn > analysed.pbn",
        "pbn convert game.pbn -o deals.rbn",
        "pbn convert --allow-loss game.pbn -o board.lin",
    ] {
        let out = sh(setup);
        assert!(
            out.status.success(),
            "{setup}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let chromium = std::env::var_os("CHROMIUM")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/usr/bin/chromium".into());
    for (example, want) in HELP_EXAMPLES {
        if example.contains("--pdf") && !chromium.exists() {
            pbn_tests::skips::skip("chromium not found: the --pdf example not run");
            continue;
        }
        let out = sh(&if example.contains("--pdf") {
            format!("CHROMIUM={} {example}", chromium.display())
        } else {
            example.to_string()
        });
        assert_eq!(
            out.status.code(),
            Some(*want),
            "`{example}`: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pbn score` finds the hand-worked fixtures' wrong figures (exit 1);
/// `--write` writes the computed ones over them, touching no other line;
/// then `pbn check` reports none of the scoring codes and `pbn score`
/// exits 0.
#[test]
fn score_write_leaves_the_arithmetic_clean() {
    let dir = temp_dir("score-write");
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check");
    let mut files = Vec::new();
    for name in ["scoring_methods.pbn", "score_totals.pbn"] {
        let to = dir.join(name);
        std::fs::copy(fixtures.join(name), &to).unwrap();
        files.push(to.to_string_lossy().into_owned());
    }
    let before: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let args = |cmd: &[&'static str]| -> Vec<String> {
        cmd.iter()
            .map(|s| s.to_string())
            .chain(files.iter().cloned())
            .collect()
    };
    let call = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run(&a, None)
    };
    let (code, out, _) = call(args(&["score"]));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("3 (file 4)"), "{out}");
    assert!(out.contains("pair 2: TotalMP 3, computed 1.5"), "{out}");
    let (code, _, err) = call(args(&["score", "--write"]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("applied"), "{err}");
    for (f, old) in files.iter().zip(&before) {
        let new = std::fs::read_to_string(f).unwrap();
        let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
        assert_eq!(a.len(), b.len(), "{f}: lines added or removed");
        for (x, y) in a.iter().zip(&b) {
            if x != y {
                // Only table rows and the score tags change.
                assert!(
                    !x.starts_with('[') || x.starts_with("[Score"),
                    "{f}: `{x}` became `{y}`"
                );
            }
        }
    }
    let (code, out, _) = call(args(&[
        "check",
        "--output-format",
        "concise",
        "--select",
        "PBN0808,PBN0809,PBN0810,PBN0811",
    ]));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("PBN08"), "{out}");
    let (code, out, _) = call(args(&["score"]));
    assert_eq!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
