//! `pbn fmt` writes files safely (server/src/cli/write.rs): planted
//! symlinks, symlink arguments, read-only files, concurrent edits, long
//! names, missing paths, a full disk.

use pbn_tests::binary::pbn_binary;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

const UNFORMATTED: &str = "[Dealer \"n\"]\n";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-fmt-write-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fmt(args: &[&Path], env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = Command::new(pbn_binary());
    cmd.arg("fmt").args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn formatted(p: &Path) -> bool {
    std::fs::read_to_string(p)
        .unwrap()
        .starts_with("[Event \"?\"]")
}

fn entries(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_symlink_planted_under_a_temporary_name_is_never_followed() {
    let d = dir("planted");
    let game = d.join("game.pbn");
    std::fs::write(&game, UNFORMATTED).unwrap();
    let victim = d.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    // The names an attacker could predict: the old `.NAME.pbn-fmt-PID` for
    // the next process ids.
    let me = std::process::id();
    for pid in me..me + 3000 {
        let _ = std::os::unix::fs::symlink(&victim, d.join(format!(".game.pbn.pbn-fmt-{pid}")));
    }
    let (code, err) = fmt(&[&game], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(&game).unwrap();
    assert!(meta.file_type().is_file(), "game.pbn stays a regular file");
    assert!(formatted(&game));
    assert!(
        !entries(&d).iter().any(|n| n.starts_with(".pbn-")),
        "no temporary file left: {:?}",
        entries(&d)
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_symlink_argument_is_followed_and_stays_a_link() {
    let d = dir("symlink");
    let target = d.join("real.pbn");
    std::fs::write(&target, UNFORMATTED).unwrap();
    let link = d.join("link.pbn");
    std::os::unix::fs::symlink("real.pbn", &link).unwrap();
    let (code, err) = fmt(&[&link], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(formatted(&target), "the target is formatted");
    let help = Command::new(pbn_binary())
        .args(["fmt", "--help"])
        .output()
        .unwrap();
    // The help is wrapped to the terminal: compare words, not lines.
    let help = String::from_utf8_lossy(&help.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(help.contains("symlink is followed"), "{help}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_read_only_file_is_refused_unless_force() {
    let d = dir("readonly");
    let ro = d.join("ro.pbn");
    let good = d.join("good.pbn");
    std::fs::write(&ro, UNFORMATTED).unwrap();
    std::fs::write(&good, UNFORMATTED).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let (code, err) = fmt(&[&ro, &good], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ro.pbn: read-only file (mode 444)"), "{err}");
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), UNFORMATTED);
    assert!(formatted(&good), "the other file is still formatted");
    let (code, err) = fmt(&[Path::new("--force"), &ro], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(formatted(&ro));
    let mode = std::fs::metadata(&ro).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o444, "mode kept");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn check_fix_refuses_a_read_only_file_unless_force() {
    let d = dir("readonly-fix");
    let ro = d.join("ro.pbn");
    let text = "[Contract \"3N\"]\n";
    std::fs::write(&ro, text).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(pbn_binary())
            .arg("check")
            .args(args)
            .arg(&ro)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["--fix"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ro.pbn: read-only file (mode 444)"), "{err}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), text);
    let (code, err) = run(&["--fix", "--force"]);
    assert!(code == 0 || code == 1, "{err}");
    assert!(err.contains("applied 1 fix"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&ro).unwrap(),
        "[Contract \"3NT\"]\n"
    );
    let mode = std::fs::metadata(&ro).unwrap().mode() & 0o7777;
    assert_eq!(mode, 0o444, "mode kept");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn mode_and_owner_are_kept_and_set_before_the_rename() {
    let d = dir("mode");
    let f = d.join("private.pbn");
    std::fs::write(&f, UNFORMATTED).unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
    // Another owner, when this test may give one (root).
    let other = std::os::unix::fs::chown(&f, Some(65534), Some(65534)).is_ok();
    let modes = d.join("modes.txt");
    let hook = format!(
        "stat -c '%a %u' \"$(dirname \"$1\")\"/.pbn-*.tmp > {}",
        modes.display()
    );
    let (code, err) = fmt(&[&f], &[("PBN_TEST_HOOK_BEFORE_RENAME", &hook)]);
    assert_eq!(code, 0, "{err}");
    let meta = std::fs::metadata(&f).unwrap();
    assert_eq!(meta.mode() & 0o7777, 0o600);
    let seen = std::fs::read_to_string(&modes).unwrap();
    if other {
        assert_eq!(meta.uid(), 65534, "owner kept");
        assert_eq!(meta.gid(), 65534, "group kept");
        assert_eq!(seen.trim(), "600 65534", "temporary file before the rename");
    } else {
        assert!(seen.starts_with("600 "), "{seen}");
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_file_edited_while_fmt_runs_is_left_alone_and_reported() {
    let d = dir("concurrent");
    let f = d.join("edited.pbn");
    std::fs::write(&f, UNFORMATTED).unwrap();
    let (code, err) = fmt(
        &[&f],
        &[(
            "PBN_TEST_HOOK_BEFORE_RENAME",
            "printf '%% saved\\n' >> \"$1\"",
        )],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("edited.pbn: changed on disk since it was read"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        format!("{UNFORMATTED}% saved\n"),
        "the user's edit is kept"
    );
    assert_eq!(entries(&d), ["edited.pbn"], "no temporary file left");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_full_disk_leaves_the_file_and_no_temporary_file() {
    let d = dir("enospc");
    let f = d.join("full.pbn");
    std::fs::write(&f, UNFORMATTED).unwrap();
    let (code, err) = fmt(&[&f], &[("PBN_TEST_WRITE_LIMIT", "10")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("full.pbn: No space left on device"), "{err}");
    assert_eq!(std::fs::read_to_string(&f).unwrap(), UNFORMATTED);
    assert_eq!(entries(&d), ["full.pbn"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_file_name_of_250_bytes_is_written() {
    let d = dir("long");
    let f = d.join(format!("{}.pbn", "g".repeat(246)));
    std::fs::write(&f, UNFORMATTED).unwrap();
    let (code, err) = fmt(&[&f], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(formatted(&f));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_missing_path_is_reported_and_the_other_files_are_formatted() {
    let d = dir("missing");
    let good = d.join("good.pbn");
    std::fs::write(&good, UNFORMATTED).unwrap();
    let missing = d.join("missing.pbn");
    let (code, err) = fmt(&[&missing, &good], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("missing.pbn: no such file or directory"),
        "{err}"
    );
    assert!(formatted(&good));
    assert!(err.contains("formatted 1 file(s)"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}
