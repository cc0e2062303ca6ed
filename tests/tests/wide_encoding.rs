//! UTF-16 and UTF-32 files (not PBN encodings, §2.2): `pbn check` decodes
//! them and reports one PBN0110 instead of a control character per NUL,
//! and `pbn fmt` writes them back (as UTF-8) only with --force.

use pbn_tests::binary::run_pbn_stdin;
use std::path::{Path, PathBuf};

const TEXT: &str = "[Event \"Café\"]\r\n[Dealer \"n\"]\r\n";
/// With an invalid call on line 4 (PBN0521).
const BAD_CALL: &str = "[Event \"Café\"]\r\n[Dealer \"N\"]\r\n[Auction \"N\"]\r\n1X\r\n";

fn utf16le(s: &str) -> Vec<u8> {
    let mut v = vec![0xFF, 0xFE];
    for u in s.encode_utf16() {
        v.extend_from_slice(&u.to_le_bytes());
    }
    v
}

fn utf32be_without_bom(s: &str) -> Vec<u8> {
    s.chars().flat_map(|c| (c as u32).to_be_bytes()).collect()
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-wide-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `pbn ARGS PATH`, colours off.
fn pbn(args: &[&str], path: &Path) -> (i32, String, String) {
    let path = path.to_str().expect("a UTF-8 temporary path");
    run_pbn_stdin(&[args, &[path]].concat(), None)
}

#[test]
fn check_reports_one_diagnostic_for_a_wide_file() {
    let d = dir("check");
    for (name, bytes, what) in [
        ("le.pbn", utf16le(BAD_CALL), "UTF-16LE (byte order mark)"),
        (
            "be32.pbn",
            utf32be_without_bom(BAD_CALL),
            "UTF-32BE (NUL bytes between the ASCII characters)",
        ),
    ] {
        let p = d.join(name);
        std::fs::write(&p, bytes).unwrap();
        let (code, out, err) = pbn(&["check", "--color", "never"], &p);
        assert_eq!(code, 1, "{out}{err}");
        assert_eq!(out.matches("error[PBN0110]").count(), 1, "{out}");
        assert!(out.contains(&format!("{name}:1:1")), "{out}");
        assert!(out.contains(what), "{out}");
        assert!(!out.contains("PBN0101"), "no control characters: {out}");
        // The text was decoded and checked: the invalid call is found.
        assert!(out.contains("error[PBN0521]"), "{out}");
        assert!(out.contains(&format!("{name}:4:1")), "{out}");
    }
    // The same text in UTF-8 has no PBN0110.
    let p = d.join("utf8.pbn");
    std::fs::write(&p, BAD_CALL).unwrap();
    let (_, out, _) = pbn(&["check", "--color", "never"], &p);
    assert!(!out.contains("PBN0110"), "{out}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn fmt_writes_a_wide_file_as_utf8_only_with_force() {
    let d = dir("fmt");
    let p = d.join("game.pbn");
    let bytes = utf16le(TEXT);
    std::fs::write(&p, &bytes).unwrap();
    let (code, _, err) = pbn(&["fmt"], &p);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("game.pbn: the file is UTF-16LE"), "{err}");
    assert!(err.contains("use --force to write it as UTF-8"), "{err}");
    assert!(err.contains("1 skipped (UTF-16 or UTF-32)"), "{err}");
    assert_eq!(std::fs::read(&p).unwrap(), bytes, "left as it was");
    // --check and --stdout do not write, so they are not refused.
    let (_, out, _) = pbn(&["fmt", "--stdout"], &p);
    assert!(out.starts_with("[Event \"Café\"]"), "{out}");
    let (code, _, err) = pbn(&["fmt", "--force"], &p);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&p).expect("written as UTF-8");
    assert!(written.starts_with("[Event \"Café\"]\r\n"), "{written}");
    assert!(written.contains("[Dealer \"N\"]"), "{written}");
    std::fs::remove_dir_all(&d).ok();
}
