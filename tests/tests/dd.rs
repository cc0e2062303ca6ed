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
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
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
            "DoubleDummyTricks digit 20 (West declaring in clubs) says 1 tricks; the solver says 0"
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
