//! `pbn check --dd`: double-dummy values against the solver (PBN11xx).

use pbn_tests::binary::pbn_binary;
use std::io::Write;
use std::process::{Command, Stdio};

fn run(args: &[&str], dir: &std::path::Path, stdin: &str) -> (i32, String) {
    let mut child = Command::new(pbn_binary())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1")
        .spawn()
        .expect("spawn pbn");
    // Written from another thread: a large input and output would
    // otherwise fill both pipes and deadlock.
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const DEAL: &str = "[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n";

/// The values BridgeComposer wrote for this deal, which the solver confirms.
fn right() -> String {
    format!(
        "{DEAL}[DoubleDummyTricks \"63b3c63b3c492a0492a0\"]\n[OptimumScore \"EW -300\"]\n[ParContract \"EW 6DX-2\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT  6\nN  S  3\nE  H  2\n"
    )
}

fn wrong() -> String {
    format!(
        "{DEAL}[DoubleDummyTricks \"63b3c63b3c492a0492a1\"]\n[OptimumScore \"NS 420\"]\n[ParContract \"NS 4S=\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT  7\nN  S  3\n"
    )
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-dd-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn check_dd_names_each_wrong_value_with_position() {
    let dir = tmp("wrong");
    let (_, out) = run(&["check", "--dd", "-"], &dir, &wrong());
    assert!(
        out.contains(
            "DoubleDummyTricks digit 20 (West declaring in clubs) says 1 trick; the solver says 0"
        ),
        "{out}"
    );
    assert!(
        out.contains("<stdin>:4:40") || out.contains(":4:40"),
        "{out}"
    );
    assert!(
        out.contains("OptimumResultTable row \"N NT\" says 7 tricks; the solver says 6"),
        "{out}"
    );
    assert!(
        out.contains("ParContract says \"NS 4S=\"; the solver's par is EW 6DX-2 (NS 300)"),
        "{out}"
    );
    assert!(
        out.contains("OptimumScore says \"NS 420\"; the solver's par score is NS 300"),
        "{out}"
    );
    assert_eq!(out.matches("warning[PBN11").count(), 4, "{out}");
}

#[test]
fn check_dd_is_quiet_on_right_values_and_off_without_the_flag() {
    let dir = tmp("right");
    let (_, out) = run(&["check", "--dd", "-"], &dir, &right());
    assert!(!out.contains("PBN11"), "{out}");
    let (_, out) = run(&["check", "-"], &dir, &wrong());
    assert!(!out.contains("PBN11"), "{out}");
}

#[test]
fn pbn_toml_turns_dd_on() {
    let dir = tmp("toml");
    std::fs::write(dir.join("pbn.toml"), "[check]\ndd = true\n").unwrap();
    let (_, out) = run(&["check", "-"], &dir, &wrong());
    assert!(out.contains("PBN1104"), "{out}");
}

/// `--config FILE` decides `dd` as it decides `export`: one resolution of
/// the configuration per file.
#[test]
fn config_option_turns_dd_on() {
    let dir = tmp("config");
    let conf = dir.join("elsewhere.toml");
    std::fs::write(&conf, "[check]\ndd = true\n").unwrap();
    let (_, out) = run(&["check", "-"], &dir, &wrong());
    assert!(!out.contains("PBN11"), "{out}");
    let (_, out) = run(
        &["check", "--config", conf.to_str().unwrap(), "-"],
        &dir,
        &wrong(),
    );
    assert!(out.contains("PBN1104"), "{out}");
}

#[test]
fn unsolvable_deal_is_reported_not_a_crash() {
    let dir = tmp("unsolvable");
    let (code, out) = run(
        &["check", "--dd", "-"],
        &dir,
        "[Deal \"N:AKQ... - - -\"]\n[OptimumScore \"NS 0\"]\n",
    );
    assert!(
        out.contains("double-dummy values are not checked: the hand of East is not given"),
        "{out}"
    );
    assert!(code == 0 || code == 1, "{code}");
}

/// Every line of `old` is in `new`, in order (`new` only adds lines): the
/// number of lines added, or the first line of `old` not found.
fn only_insertions(old: &str, new: &str) -> Result<usize, String> {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let mut k = 0;
    for line in &new {
        if k < old.len() && *line == old[k] {
            k += 1;
        }
    }
    if k < old.len() {
        return Err(format!("line {} ({:?}) is gone or changed", k + 1, old[k]));
    }
    Ok(new.len() - old.len())
}

const TWO_GAMES: &str = "% comment kept\n[Event \"A\"]\n[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Deal \"N:Q.AKJT9873..QJT4 AJ98543.4.AK85.8 K76..643.AK96532 T2.Q652.QJT972.7\"]\n[Auction \"N\"]\n1H 1S 5C Pass\nPass Pass\n\n[Event \"B\"]\n[Board \"2\"]\n[Dealer \"E\"]\n[Vulnerable \"All\"]\n[Deal \"E:AKQJ.AKQ.AKQ.AKQ 5432.5432.5432.5 T987.T987.T98.T9 6.J6.J76.J876432\"]\n[ParContract \"NS 7N=\"]  {wrong, kept without --overwrite}\n\n[Event \"no deal\"]\n";

#[test]
fn dd_fills_a_file_and_check_dd_is_then_clean() {
    let dir = tmp("fill");
    let file = dir.join("games.pbn");
    std::fs::write(&file, TWO_GAMES).unwrap();
    // --check: what is stated, not what is absent.
    let (code, out) = run(&["dd", "--check", "games.pbn"], &dir, "");
    assert_eq!(code, 1, "{out}");
    assert_eq!(out, "games.pbn:11:1: game 2: wrong ParContract\n");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), TWO_GAMES);

    // --stdout leaves the file alone.
    let (code, printed) = run(&["dd", "--stdout", "games.pbn"], &dir, "");
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), TWO_GAMES);

    let (code, _) = run(&["dd", "games.pbn"], &dir, "");
    assert_eq!(code, 0);
    let filled = std::fs::read_to_string(&file).unwrap();
    assert_eq!(filled, printed);
    assert_eq!(only_insertions(TWO_GAMES, &filled), Ok(24 + 23));
    // In export order: the tags before the auction, the table after it.
    assert!(
        filled.contains(".7\"]\n[DoubleDummyTricks \"63b3c63b3c492a0492a0\"]\n"),
        "{filled}"
    );
    assert!(
        filled.contains("Pass Pass\n[OptimumResultTable "),
        "{filled}"
    );
    // The wrong ParContract is still there and still reported.
    let (_, out) = run(&["check", "--dd", "games.pbn"], &dir, "");
    assert_eq!(out.matches("warning[PBN1103]").count(), 1, "{out}");
    assert_eq!(out.matches("[PBN11").count(), 1, "{out}");

    let (code, _) = run(&["dd", "--overwrite", "games.pbn"], &dir, "");
    assert_eq!(code, 0);
    let (_, out) = run(&["check", "--dd", "games.pbn"], &dir, "");
    assert!(!out.contains("PBN11"), "{out}");
    let (code, out) = run(&["dd", "--check", "games.pbn"], &dir, "");
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn dd_reads_stdin_and_reports_unsolvable_deals() {
    let dir = tmp("stdin");
    let (code, out) = run(&["dd", "-"], &dir, "[Deal \"N:AKQ... - - -\"]\n");
    assert_eq!(code, 0);
    assert_eq!(out, "[Deal \"N:AKQ... - - -\"]\n");
    let (code, out) = run(&["dd", "-"], &dir, DEAL);
    assert_eq!(code, 0);
    assert!(out.starts_with(DEAL) && out.ends_with("W  C  0\n"), "{out}");
}

#[test]
fn generated_solved_dd_passes_check_dd_and_estimates_do_not() {
    use pbn_tests::gen::{generate, GenOptions};
    let dir = tmp("gen");
    let solved = generate(
        40,
        11,
        &GenOptions {
            solved_dd: true,
            ..GenOptions::default()
        },
    );
    assert!(
        solved.contains("[OptimumScore \"") && solved.contains("[ParContract \""),
        "{solved}"
    );
    let (_, out) = run(&["check", "--dd", "-"], &dir, &solved);
    assert_eq!(out.matches("[PBN11").count(), 0, "{out}");
    // The default's estimated tricks are not the solver's.
    let (_, out) = run(
        &["check", "--dd", "-"],
        &dir,
        &generate(40, 11, &GenOptions::default()),
    );
    assert!(out.contains("[PBN1101]"), "{out}");
}

/// Runs `pbn` with standard error a pipe: its status and standard error.
fn run_stderr(args: &[&str], dir: &std::path::Path) -> (i32, String) {
    let out = Command::new(pbn_binary())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("spawn pbn");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn dd_check_is_quiet_about_tags_a_complete_analysis_lacks() {
    let dir = tmp("no-par");
    // Bridge Composer's analysis without ParContract: right, and complete
    // for what it states.
    let text = right().replace("[ParContract \"EW 6DX-2\"]\n", "");
    std::fs::write(dir.join("bc.pbn"), text).unwrap();
    let (code, out) = run(&["dd", "--check", "bc.pbn"], &dir, "");
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn nothing_is_solved_that_states_no_double_dummy_value() {
    let dir = tmp("nothing-stated");
    // A deal the solver refuses: reported only where a value asks for it.
    let unsolvable = "[Deal \"N:AKQ... - - -\"]\n";
    std::fs::write(dir.join("plain.pbn"), unsolvable).unwrap();
    let (code, out) = run(&["dd", "--check", "plain.pbn"], &dir, "");
    let (_, err) = run_stderr(&["dd", "--check", "plain.pbn"], &dir);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let (_, out) = run(&["check", "--dd", "plain.pbn"], &dir, "");
    assert!(!out.contains("PBN1105"), "{out}");
    std::fs::write(
        dir.join("stated.pbn"),
        format!("{unsolvable}[OptimumScore \"NS 0\"]\n"),
    )
    .unwrap();
    let (_, err) = run_stderr(&["dd", "--check", "stated.pbn"], &dir);
    assert!(err.contains("skipped: the deal cannot be solved"), "{err}");
}

#[test]
fn no_progress_when_standard_error_is_piped() {
    let dir = tmp("progress");
    let games: String = (0..40).map(|_| right() + "\n").collect();
    std::fs::write(dir.join("many.pbn"), games).unwrap();
    for args in [
        &["check", "--dd", "many.pbn"][..],
        &["dd", "--check", "many.pbn"],
        &["dd", "--stdout", "many.pbn"],
    ] {
        let (_, err) = run_stderr(args, &dir);
        assert!(
            !err.contains('\r') && !err.contains("games") && !err.contains('\x1b'),
            "{args:?}: {err:?}"
        );
    }
}
