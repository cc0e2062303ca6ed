//! `pbn show` and `pbn html`: snapshots of the terminal hand records of
//! every fixture in tests/fixtures/show (plain and colour), the CLI's
//! options and errors, and no panic on any corpus file.

use pbn_tests::binary::pbn_binary;
use pbn_tests::corpus::{corpus_dir, corpus_files, corpus_sources};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/show")
}

/// Runs `pbn` with `args` in the fixture directory (so that paths in the
/// output are short); stdout is a pipe.
fn run(args: &[&str], no_color: bool) -> (i32, String, String) {
    let mut cmd = Command::new(pbn_binary());
    cmd.args(args)
        .current_dir(fixtures())
        .env_remove("NO_COLOR");
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    let out = cmd.output().expect("spawn pbn");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pbn"))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "fixtures missing: {names:?}");
    names
}

#[test]
fn show_snapshots_plain_and_colour() {
    for name in fixture_names() {
        let stem = name.trim_end_matches(".pbn");
        let (code, plain, err) = run(&["show", &name, "--color", "never"], false);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(!plain.contains('\x1b'), "{name}: escapes in plain output");
        insta::assert_snapshot!(format!("{stem}_plain"), plain);
        let (code, color, err) = run(&["show", &name, "--color", "always"], false);
        assert_eq!(code, 0, "{name}: {err}");
        // The escapes made visible, so the snapshot can be read.
        insta::assert_snapshot!(format!("{stem}_color"), color.replace('\x1b', "␛"));
    }
}

/// `--dd`: the table and par from the solver when the file has none, the
/// opening leads under them, and the costly card marked in the trick
/// table; without `--dd`, none of it.
#[test]
fn dd_adds_leads_and_marks_costly_cards() {
    let (code, out, err) = run(
        &["show", "end_position_play.pbn", "--dd", "--color", "never"],
        false,
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("end_position_play_dd", out);
    assert!(out.contains("♠2−1"), "{out}");
    let (_, plain, _) = run(
        &["show", "end_position_play.pbn", "--color", "never"],
        false,
    );
    assert!(
        !plain.contains("−1") && !plain.contains("Opening leads"),
        "{plain}"
    );
    // A full deal: the table comes from the file, the leads from the solver.
    let (code, out, err) = run(
        &[
            "show",
            "full_record.pbn",
            "--dd",
            "--board",
            "1",
            "--color",
            "never",
        ],
        false,
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("full_record_dd", out);
    let dir = std::env::temp_dir().join(format!("pbn-show-dd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("dd.html");
    let (code, _, err) = run(
        &[
            "html",
            "end_position_play.pbn",
            "--dd",
            "-o",
            page.to_str().unwrap(),
        ],
        true,
    );
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<sup class=\"cost\" title=\"gave away 1 trick(s), double dummy\">−1</sup>"),
        "{html}"
    );
    assert!(
        html.contains(
            "<b>Opening leads:</b> North leads, ♠ trumps; tricks for North-South: ♥A: 1, ♠2: 0"
        ),
        "{html}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn colour_marks_red_suits_only_and_auto_is_plain_in_a_pipe() {
    let (_, color, _) = run(&["show", "full_record.pbn", "--color", "always"], false);
    assert!(color.contains("\x1b[31m♥\x1b[0m"), "{color}");
    assert!(color.contains("\x1b[31m♦\x1b[0m"));
    assert!(!color.contains("\x1b[31m♠"));
    assert!(!color.contains("\x1b[31m♣"));
    // auto: stdout is a pipe here.
    let (_, auto, _) = run(&["show", "full_record.pbn"], false);
    assert!(!auto.contains('\x1b'));
    let (_, never, _) = run(&["show", "full_record.pbn"], true);
    assert_eq!(auto, never);
}

#[test]
fn board_filter_and_its_errors() {
    let (code, out, _) = run(&["show", "full_record.pbn", "--board", "2"], true);
    assert_eq!(code, 0);
    assert!(out.starts_with("Board 2 · Dealer North · Vul NS"), "{out}");
    assert!(!out.contains("Board 1"));
    // No such board: a finding about the file (1), not a usage error (2).
    let (code, out, err) = run(&["show", "full_record.pbn", "--board", "9"], true);
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("full_record.pbn: no game has Board \"9\""),
        "{err}"
    );
    let (code, _, err) = run(&["show", "no_such.pbn"], true);
    assert_eq!(code, 2);
    assert!(err.contains("no_such.pbn"), "{err}");
}

#[test]
fn errors_are_listed_with_file_line_column() {
    let (code, out, _) = run(&["show", "broken.pbn"], true);
    assert_eq!(code, 0);
    assert!(out.contains("Problems"), "{out}");
    assert!(
        out.contains("broken.pbn:4:10: error[PBN0310]"),
        "dealer error with its position: {out}"
    );
    // A clean game lists none.
    let (_, out, _) = run(&["show", "partial_deal.pbn"], true);
    assert!(!out.contains("Problems"), "{out}");
}

#[test]
fn problems_list_only_what_changes_the_drawing() {
    let dir = std::env::temp_dir().join(format!("pbn-show-problems-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("layout.pbn");
    // LF line ends, tag order, `1N` and `P` (drawn as read): no problem
    // for the record; the Contract the auction contradicts is one.
    std::fs::write(
        &file,
        "[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n[Event \"E\"]\n[Declarer \"N\"]\n[Contract \"2NT\"]\n[Result \"\"]\n[Auction \"N\"]\n1N P P P\n",
    )
    .unwrap();
    let (code, out, err) = run(&["show", file.to_str().unwrap()], true);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1NT"), "{out}");
    assert!(out.contains("error[PBN0902]"), "{out}");
    for layout in ["PBN1002", "PBN1004", "PBN0520"] {
        assert!(!out.contains(layout), "{layout} listed: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn html_writes_to_stdout_without_o() {
    let (code, out, err) = run(&["html", "full_record.pbn"], true);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<!DOCTYPE html>"), "{out}");
    let (code, _, err) = run(&["html", "full_record.pbn", "--pdf", "x.pdf"], true);
    assert_eq!(code, 2);
    assert!(err.contains("give -o OUT.html"), "{err}");
}

#[test]
fn html_page_is_self_contained_and_accessible() {
    let dir = std::env::temp_dir().join(format!("pbn-show-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("records.html");
    let (code, _, err) = run(
        &["html", "full_record.pbn", "-o", out.to_str().unwrap()],
        true,
    );
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&out).unwrap();
    assert_eq!(page.matches("<article class=\"board\"").count(), 2);
    assert!(page.contains("@media print"));
    assert!(page.contains("name=\"viewport\""));
    // No network: no external resources or scripts.
    for bad in ["http://", "https://", "<script", "<link", "<img", "src="] {
        assert!(!page.contains(bad), "page contains {bad}");
    }
    // Suit symbols have text alternatives; the ten is 10.
    assert!(page.contains("aria-hidden=\"true\">♥</span><span class=\"vh\">hearts </span>"));
    assert!(page.contains("J1098"));
    // Player names and commentary are escaped text.
    assert!(page.contains("North had an easy raise."));
    // Errors listed in the page.
    let (_, _, _) = run(&["html", "broken.pbn", "-o", out.to_str().unwrap()], true);
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.contains("class=\"problems\""), "{page}");
    assert!(page.contains("broken.pbn:4:10: error[PBN0310]"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pdf_without_chromium_says_how_to_install_one() {
    let dir = std::env::temp_dir().join(format!("pbn-show-nochrome-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("r.html");
    let pdf = dir.join("r.pdf");
    let out = Command::new(pbn_binary())
        .args(["html", "full_record.pbn", "-o"])
        .arg(&html)
        .arg("--pdf")
        .arg(&pdf)
        .current_dir(fixtures())
        .env("PATH", &dir)
        .env_remove("CHROMIUM")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("apt-get install chromium"), "{err}");
    assert!(html.is_file(), "the HTML page is still written");
    assert!(!pdf.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every game of every corpus file drawn in-process in the three outputs,
/// and `pbn show` and `pbn html` run on every file: no panic, exit 0.
#[test]
fn every_corpus_file_is_drawn() {
    let Some(dir) = corpus_dir() else { return };
    let mut games = 0;
    for (name, source) in corpus_sources(&dir) {
        let text = source.text.as_str();
        let tree = pbn_core::syntax::parse_pieces(text);
        let doc = pbn_core::model::lower(&tree, text);
        let records: Vec<_> = doc
            .games
            .iter()
            .map(|g| pbn_core::render::record(text, g))
            .collect();
        for r in &records {
            for color in [false, true] {
                let s = pbn_core::render::text::render(r, pbn_core::render::text::Style { color });
                assert!(
                    s.starts_with("Board ") || s.starts_with("Game ") || color,
                    "{name}"
                );
            }
            // The ten is drawn as 10, never T.
            assert!(
                r.hands
                    .iter()
                    .flatten()
                    .all(|h| h.suits.iter().all(|s| !s.contains('T'))),
                "{name}"
            );
            if r.has_deal() {
                assert!(pbn_core::render::markdown::deal(r).contains("```text"));
            }
        }
        let page = pbn_core::render::html::page(&name, &records);
        assert_eq!(
            page.matches("<article class=\"board\"").count(),
            records.len(),
            "{name}"
        );
        games += records.len();
    }
    assert!(games > 1000, "only {games} games drawn");
    let out_dir = std::env::temp_dir().join(format!("pbn-show-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let html = out_dir.join("page.html");
    for rel in corpus_files(&dir) {
        let path = dir.join(&rel);
        let show = Command::new(pbn_binary())
            .arg("show")
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&show.stderr);
        assert_eq!(show.status.code(), Some(0), "show {}: {err}", rel.display());
        assert!(!err.contains("panicked"), "{}: {err}", rel.display());
        let page = Command::new(pbn_binary())
            .arg("html")
            .arg(&path)
            .arg("-o")
            .arg(&html)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&page.stderr);
        assert_eq!(page.status.code(), Some(0), "html {}: {err}", rel.display());
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}
