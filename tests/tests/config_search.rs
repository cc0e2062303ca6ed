//! `pbn.toml` is found upward from the file up to the repository root or
//! the home directory, is honoured by `pbn check` as by the server, and
//! `pbn config show` names the file in effect.

use pbn_tests::binary::{pbn_binary, run_pbn};
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pbn-config-search-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::canonicalize(&d).unwrap()
}

fn pbn(args: &[&str], home: &Path) -> (i32, String, String) {
    run_pbn(args, None, home)
}

/// A game legal in import format that export format rejects (lower-case
/// value), so that `[check] export = true` changes the result.
const GAME: &str = "[Event \"x\"]\n[Site \"?\"]\n[Date \"?\"]\n[Board \"1\"]\n[West \"?\"]\n[North \"?\"]\n[East \"?\"]\n[South \"?\"]\n[Dealer \"n\"]\n[Vulnerable \"None\"]\n[Deal \"N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 765.876.876.7654 432.5432.5432.32\"]\n[Scoring \"?\"]\n[Declarer \"?\"]\n[Contract \"?\"]\n[Result \"?\"]\n";

#[test]
fn check_honours_pbn_toml_like_the_server() {
    let d = dir("check");
    let game = d.join("game.pbn");
    std::fs::write(&game, GAME).unwrap();
    std::fs::create_dir(d.join(".git")).unwrap();
    let g = game.to_str().unwrap();
    let (_, plain, _) = pbn(&["check", "--format", "json", g], &d);
    let (_, export, _) = pbn(&["check", "--format", "json", "--export", g], &d);
    assert_ne!(plain, export, "the game must differ under export rules");
    std::fs::write(d.join("pbn.toml"), "[check]\nexport = true\n").unwrap();
    let (_, configured, err) = pbn(&["check", "--format", "json", g], &d);
    assert_eq!(configured, export, "{err}");
    // --config names another file.
    let other = d.join("other.toml");
    std::fs::write(&other, "[check]\nexport = false\n").unwrap();
    let (_, forced, _) = pbn(
        &[
            "check",
            "--format",
            "json",
            "--config",
            other.to_str().unwrap(),
            g,
        ],
        &d,
    );
    assert_eq!(forced, plain);
    // A broken pbn.toml is an error with file:line:column.
    std::fs::write(d.join("pbn.toml"), "[check]\nexprt = true\n").unwrap();
    let (code, _, err) = pbn(&["check", g], &d);
    assert_eq!(code, 2);
    assert!(err.contains("pbn.toml:2:1"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_search_stops_at_the_repository_root_and_at_home() {
    let d = dir("bounds");
    // A pbn.toml above the repository (as one planted in /tmp would be).
    std::fs::write(d.join("pbn.toml"), "[format]\neol = \"crlf\"\n").unwrap();
    let repo = d.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("games")).unwrap();
    let games = repo.join("games");
    let nohome = d.join("nohome");
    let (code, out, err) = pbn(&["config", "show", games.to_str().unwrap()], &nohome);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "# in effect: none (no pbn.toml or .pbn.toml from {} up to {}); defaults",
            games.display(),
            repo.display()
        )
    );
    assert!(out.contains("eol = \"keep\""), "{out}");
    // Without the repository, the search goes up and finds it.
    std::fs::remove_dir(repo.join(".git")).unwrap();
    let (_, out, _) = pbn(&["config", "show", games.to_str().unwrap()], &nohome);
    assert!(
        out.starts_with(&format!("# in effect: {}\n", d.join("pbn.toml").display())),
        "{out}"
    );
    assert!(out.contains("eol = \"crlf\""), "{out}");
    // The home directory is a boundary too.
    let (_, out, _) = pbn(&["config", "show", games.to_str().unwrap()], &repo);
    assert!(out.starts_with("# in effect: none"), "{out}");
    // A relative path is searched from the current directory upward.
    let out = Command::new(pbn_binary())
        .args(["config", "show", "."])
        .current_dir(&games)
        .env("HOME", &nohome)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.contains("eol = \"crlf\""), "{out}");
    std::fs::remove_dir_all(&d).ok();
}
