//! PBN data is ISO 8859-1 (§2.2): a UTF-8 file with non-ASCII characters
//! or a byte order mark gets one PBN0111 for the file, and `pbn fmt` and
//! `pbn check --fix` write it in ISO 8859-1 when every character fits
//! (rewriting a `charset=` declaration, dropping a byte order mark); with a
//! character ISO 8859-1 lacks it stays UTF-8 and PBN0106 marks it. Latin-1
//! input stays Latin-1, byte for byte.

use pbn_tests::binary::{run_pbn_stdin, run_pbn_stdin_bytes};
use std::path::{Path, PathBuf};

const GAME: &str = "[Event \"Café des Sports\"]\r\n[Site \"Genève\"]\r\n[Date \"2024.01.02\"]\r\n[Board \"1\"]\r\n[West \"?\"]\r\n[North \"?\"]\r\n[East \"?\"]\r\n[South \"?\"]\r\n[Dealer \"N\"]\r\n[Vulnerable \"None\"]\r\n[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\r\n[Scoring \"?\"]\r\n[Declarer \"?\"]\r\n[Contract \"?\"]\r\n[Result \"?\"]\r\n";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-latin1-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `pbn ARGS PATH`, colours off.
fn pbn(args: &[&str], path: &Path) -> (i32, String, String) {
    let path = path.to_str().expect("a UTF-8 temporary path");
    run_pbn_stdin(&[args, &[path]].concat(), None)
}

fn latin1(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
        .collect()
}

#[test]
fn check_reports_a_utf8_file_once_on_its_first_non_ascii_character() {
    let d = dir("check");
    let p = d.join("utf8.pbn");
    std::fs::write(&p, GAME).unwrap();
    let (code, out, err) = pbn(&["check", "--color", "never"], &p);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(out.matches("error[PBN0111]").count(), 1, "{out}");
    assert!(out.contains("utf8.pbn:1:12"), "{out}");
    assert!(
        out.contains("2 non-ASCII character(s)") && out.contains("all of them fit ISO 8859-1"),
        "{out}"
    );
    // The same text in ISO 8859-1: nothing to say.
    std::fs::write(&p, latin1(GAME)).unwrap();
    let (code, out, err) = pbn(&["check", "--color", "never"], &p);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("PBN0111"), "{out}");
}

#[test]
fn fmt_writes_a_utf8_file_in_latin1() {
    let d = dir("fmt");
    let p = d.join("cafe.pbn");
    std::fs::write(&p, GAME).unwrap();
    let (code, out, err) = pbn(&["fmt"], &p);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("written in iso-8859-1, not utf-8 (PBN data is ISO 8859-1, §2.2)"),
        "{err}"
    );
    let bytes = std::fs::read(&p).unwrap();
    assert_eq!(bytes, latin1(GAME), "{}", String::from_utf8_lossy(&bytes));
    assert!(bytes.windows(5).any(|w| w == b"Caf\xe9 "));
    // Written in ISO 8859-1, the file is then unchanged by fmt: Latin-1
    // input is written back byte for byte.
    let (code, out, err) = pbn(&["fmt"], &p);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("0 file(s), 1 unchanged"), "{err}");
    assert_eq!(std::fs::read(&p).unwrap(), latin1(GAME));
    let (code, out, err) = pbn(&["check", "--color", "never"], &p);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn fmt_rewrites_the_charset_declaration_and_drops_a_bom() {
    let d = dir("declared");
    let p = d.join("declared.pbn");
    let text = format!("%Content-type: text/x-pbn; charset=UTF-8\r\n{GAME}");
    std::fs::write(&p, [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat()).unwrap();
    let (code, out, err) = pbn(&["fmt"], &p);
    assert_eq!(code, 0, "{out}{err}");
    let want = latin1(&text.replace("charset=UTF-8", "charset=ISO-8859-1"));
    assert_eq!(std::fs::read(&p).unwrap(), want);
    // A byte order mark and ASCII only: reported, and dropped.
    let p = d.join("bom.pbn");
    let ascii = GAME.replace(['é', 'è'], "e");
    std::fs::write(&p, [&b"\xEF\xBB\xBF"[..], ascii.as_bytes()].concat()).unwrap();
    let (code, out, _) = pbn(&["check", "--color", "never"], &p);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[PBN0111]") && out.contains("byte order mark"),
        "{out}"
    );
    pbn(&["fmt"], &p);
    assert_eq!(std::fs::read(&p).unwrap(), ascii.as_bytes());
}

#[test]
fn fmt_keeps_utf8_when_a_character_has_no_latin1_code() {
    let d = dir("spade");
    let p = d.join("spade.pbn");
    let text = GAME.replace("des Sports", "4♠");
    std::fs::write(&p, &text).unwrap();
    let (code, out, err) = pbn(&["fmt"], &p);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("kept in UTF-8: 1 character(s) have no ISO 8859-1 code (PBN0106"),
        "{err}"
    );
    assert_eq!(std::fs::read(&p).unwrap(), text.as_bytes());
    let (code, out, err) = pbn(&["check", "--color", "never"], &p);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("warning[PBN0106]"), "{out}");
    assert!(
        out.contains("error[PBN0111]") && out.contains("1 of them outside ISO 8859-1"),
        "{out}"
    );
    // And `check --fix` leaves it alone (no fix applies).
    let (_, _, err) = pbn(&["check", "--fix", "--color", "never"], &p);
    assert!(!err.contains("applied"), "{err}");
    assert_eq!(std::fs::read(&p).unwrap(), text.as_bytes());
}

#[test]
fn check_fix_writes_latin1_and_diff_shows_it() {
    let d = dir("fix");
    let p = d.join("fix.pbn");
    std::fs::write(&p, GAME).unwrap();
    let (code, out, err) = pbn(&["check", "--fix", "--diff", "--color", "never"], &p);
    assert_eq!(code, 1, "{out}{err}");
    let name = p.display().to_string();
    assert!(
        out.contains(&format!(
            "--- {name} (utf-8)\n+++ {name} (fixed, iso-8859-1)\n"
        )),
        "{out}"
    );
    assert!(err.contains("would apply 1 fix (PBN0111)"), "{err}");
    assert_eq!(
        std::fs::read(&p).unwrap(),
        GAME.as_bytes(),
        "--diff writes nothing"
    );
    let (code, out, err) = pbn(&["check", "--fix", "--color", "never"], &p);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("applied 1 fix (PBN0111)"), "{err}");
    assert!(!out.contains("PBN0111"), "{out}");
    assert_eq!(std::fs::read(&p).unwrap(), latin1(GAME));
}

#[test]
fn fmt_of_stdin_writes_latin1() {
    let (_, out, _) = run_pbn_stdin_bytes(&["fmt", "-"], Some(GAME.as_bytes()));
    assert_eq!(out, latin1(GAME));
}
