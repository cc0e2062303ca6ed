//! End-to-end tests of `pbn convert`: formats from extensions and from
//! --from/--to, `-` for standard input and output, read diagnostics with
//! file:line:column, losses on standard error, exit statuses. Outputs are
//! insta snapshots.

use pbn_tests::binary::{pbn_binary, run_pbn_stdin};
use std::path::{Path, PathBuf};
use std::process::Command;

fn examples(name: &str) -> String {
    format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn rbn_fixture(name: &str) -> String {
    format!("{}/fixtures/convert/rbn/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-convert-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `pbn convert ARGS`.
fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut all = vec!["convert"];
    all.extend_from_slice(args);
    run_pbn_stdin(&all, stdin)
}

/// Replaces the machine-dependent directory prefixes in `s`.
fn scrub(s: &str, dirs: &[&Path]) -> String {
    let mut s = s.replace(env!("CARGO_MANIFEST_DIR"), "<tests>");
    for d in dirs {
        s = s.replace(&d.display().to_string(), "<tmp>");
    }
    s
}

#[test]
fn rbn_file_to_pbn_file_by_extension() {
    let d = scratch("rbn-pbn");
    let out = d.join("deal.pbn");
    let (code, stdout, stderr) = run(
        &[
            &rbn_fixture("shanbrom_carswell.rbn"),
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "", "a file output leaves standard output empty");
    assert_eq!(stderr, "", "a clean conversion says nothing");
    let pbn = std::fs::read_to_string(&out).unwrap();
    // Export format: CRLF line ends and the PBN header.
    assert!(pbn.starts_with("% PBN 2.1"), "{pbn}");
    assert!(pbn.contains("[Contract \"5HX\"]"), "{pbn}");
    // The written file passes `pbn check`.
    let check = Command::new(pbn_binary())
        .args(["check", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    insta::assert_snapshot!("cli_rbn_to_pbn", pbn.replace("\r\n", "\n"));
    // No temporary file is left beside the output.
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["deal.pbn"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn pbn_to_rbn_on_standard_output_reports_losses() {
    let (code, stdout, stderr) = run(&[&examples("schiphol.pbn"), "--to", "rbn"], None);
    assert_eq!(code, 0, "losses alone are not an error: {stderr}");
    assert!(stdout.contains("\nH N:"), "{stdout}");
    insta::assert_snapshot!(
        "cli_pbn_to_rbn",
        format!("--- stdout\n{stdout}--- stderr\n{}", scrub(&stderr, &[]))
    );
}

#[test]
fn pbn_to_forum_by_extension() {
    let d = scratch("pbn-forum");
    let out = d.join("post.forum");
    let (code, stdout, stderr) = run(
        &[&examples("schiphol.pbn"), "-o", out.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[Deal "), "{text}");
    assert!(text.contains("[Bidding "), "{text}");
    insta::assert_snapshot!(
        "cli_pbn_to_forum",
        format!(
            "--- {}\n{text}--- stderr\n{}",
            "post.forum",
            scrub(&stderr, &[&d])
        )
    );
    // .txt also means forum notation.
    let txt = d.join("post.txt");
    let (code, _, _) = run(
        &[&examples("schiphol.pbn"), "-o", txt.to_str().unwrap()],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&txt).unwrap(), text);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn standard_input_and_output_with_from_and_to() {
    let rbn = std::fs::read(rbn_fixture("label_e.rbn")).unwrap();
    let (code, stdout, stderr) = run(
        &["-", "--from", "rbn", "--to", "pbn", "-o", "-"],
        Some(&rbn),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("% PBN 2.1"), "{stdout}");
    assert!(stdout.contains("[Event "), "{stdout}");
    // The same through a file gives the same text.
    let (_, from_file, _) = run(&[&rbn_fixture("label_e.rbn"), "--to", "pbn"], None);
    assert_eq!(stdout, from_file);
    // --from overrides the extension: a .txt read as RBN.
    let d = scratch("from-override");
    let txt = d.join("deal.txt");
    std::fs::write(&txt, &rbn).unwrap();
    let (code, overridden, stderr) = run(
        &[txt.to_str().unwrap(), "--from", "rbn", "--to", "pbn"],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(overridden, stdout);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn standard_input_without_from_is_a_usage_error() {
    let (code, stdout, stderr) = run(&["-", "--to", "pbn"], Some(b"E x\n"));
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("give --from for standard input"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&[&examples("schiphol.pbn")], None);
    assert_eq!(code, 2, "standard output without --to");
    assert!(stderr.contains("give --to for standard output"), "{stderr}");
}

#[test]
fn malformed_rbn_gives_positioned_diagnostics_and_exit_1() {
    let (code, stdout, stderr) = run(&[&rbn_fixture("malformed.rbn"), "--to", "pbn"], None);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("malformed.rbn:3:1"), "{stderr}");
    // The output is still written: what could be read is not lost.
    assert!(stdout.starts_with("% PBN 2.1"), "{stdout}");
    insta::assert_snapshot!("cli_malformed_rbn", scrub(&stderr, &[]));
}

#[test]
fn clean_rbn_exits_0_and_a_broken_label_exits_1() {
    // The passing and the failing case of the exit status on one label.
    let (code, _, stderr) = run(
        &["-", "--from", "rbn", "--to", "pbn"],
        Some(b"D 19930512\n\n"),
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(
        &["-", "--from", "rbn", "--to", "pbn"],
        Some(b"D 1993051X\n\n"),
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("<stdin>:1:"), "{stderr}");
}

#[test]
fn unknown_extension_and_format_names_are_usage_errors() {
    let d = scratch("unknown-ext");
    let input = d.join("deal.xyz");
    std::fs::write(&input, "E x\n").unwrap();
    let (code, stdout, stderr) = run(&[input.to_str().unwrap(), "--to", "pbn"], None);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("cannot tell the input format") && stderr.contains("use --from"),
        "{stderr}"
    );
    let (code, _, stderr) = run(
        &[
            &examples("schiphol.pbn"),
            "-o",
            d.join("out.doc").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot tell the output format"), "{stderr}");
    assert!(
        !d.join("out.doc").exists(),
        "nothing written on a usage error"
    );
    let (code, _, stderr) = run(&[&examples("schiphol.pbn"), "--to", "docx"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown output format `docx`"), "{stderr}");
    // Forum notation is written, never read.
    let (code, _, stderr) = run(&["-", "--from", "forum", "--to", "pbn"], Some(b"[S]\n"));
    assert_eq!(code, 2);
    assert!(stderr.contains("forum is written, not read"), "{stderr}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_missing_input_is_an_io_error() {
    let (code, _, stderr) = run(&["/nonexistent/deal.rbn", "--to", "pbn"], None);
    assert_eq!(code, 2);
    assert!(stderr.contains("/nonexistent/deal.rbn"), "{stderr}");
}

#[test]
fn help_has_an_example_per_format() {
    let out = Command::new(pbn_binary())
        .args(["convert", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    // The first paragraph names every format.
    let first = help.split("\n\n").next().unwrap_or("");
    for format in ["RBN", "LIN", "forum notation"] {
        assert!(first.contains(format), "{format}: {first}");
    }
    for needle in [
        "deals.rbn -o deals.pbn",
        "-o game.rbn",
        "board.lin -o board.pbn",
        "-o game.lin",
        "-o post.txt",
        "--to forum",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
}

fn respelled() -> String {
    format!(
        "{}/fixtures/convert/forum/respelled.pbn",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `P`, `1N`, `Dbl`, `Rdbl`, `ap`, `ca`, `C10` are calls and cards the PBN
/// reader understands: each format writes them in its own spelling, and
/// reports none of them as lost.
#[test]
fn calls_and_cards_in_other_spellings_are_written() {
    for (to, wants) in [
        ("rbn", &["A NZ:1N^1XRP:3NPPA", "CA872", "QT54"][..]),
        (
            "lin",
            &["mb|1N!|an|15-17|mb|d|mb|r|mb|p|mb|3N|", "pc|CA|", "pc|CT|"][..],
        ),
        (
            "forum",
            &["[Bidding - - 1N=1= X XX P 3N P P P]", "[C]T"][..],
        ),
    ] {
        let (code, stdout, stderr) = run(&[&respelled(), "--to", to], None);
        for want in wants {
            assert!(stdout.contains(want), "{to}: {want} not in\n{stdout}");
        }
        assert!(
            !stderr.contains("call") && !stderr.contains("card"),
            "{to}: {stderr}"
        );
        assert_eq!(code, 0, "{to}: {stderr}");
    }
}

/// What the target cannot hold is said once per kind, with the number of
/// games and their numbers; tags without game meaning exit 0.
#[test]
fn losses_are_said_once_per_kind_with_a_count() {
    let game = |b: usize| format!("[Event \"e\"]\n[Board \"{b}\"]\n[BCFlags \"1f\"]\n\n");
    let input: String = (1..=7).map(game).collect();
    let (code, _, stderr) = run(
        &["-", "--from", "pbn", "--to", "lin"],
        Some(input.as_bytes()),
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "<stdin>: not in lin: tag BCFlags: LIN has no pair for it (7 games: 1, 2, 3, 4, 5, …)"
    );
}

/// A lost call (here an auction without a Dealer, which RBN's A label
/// starts with) fails the conversion unless `--allow-loss`.
#[test]
fn a_lost_auction_exits_1_unless_allowed() {
    let input = b"[Event \"e\"]\n[Auction \"N\"]\n1S Pass 2S AP\n";
    let (code, stdout, stderr) = run(&["-", "--from", "pbn", "--to", "rbn"], Some(input));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stdout.starts_with("% RBN 2.2"),
        "the output is written: {stdout}"
    );
    assert!(
        stderr.contains("error: <stdin>: not in rbn: the auction (no Dealer) (1 game: 1)")
            && stderr.contains("--allow-loss"),
        "{stderr}"
    );
    let (code, _, stderr) = run(
        &["-", "--from", "pbn", "--to", "rbn", "--allow-loss"],
        Some(input),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: <stdin>: not in rbn: the auction"),
        "{stderr}"
    );
}

/// The help promises exit 1 for input with errors: a PBN input's syntax
/// errors are reported with file:line:col.
#[test]
fn pbn_input_with_syntax_errors_exits_1() {
    let input = b"[Event \"e\"]\n[Board \"1\n[Dealer \"N\"]\n";
    let (code, _, stderr) = run(&["-", "--from", "pbn", "--to", "lin"], Some(input));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("--> <stdin>:2:"), "{stderr}");
}
