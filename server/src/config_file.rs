//! Finding and reading `pbn.toml` ([`pbn_core::config`]): the file
//! looked for upward from the file being processed, up to the repository
//! root or the home directory. The CLI and the language server both load
//! it here; the core only parses its text.

use pbn_core::config::{parse, Config, FILE_NAMES};
use std::path::{Path, PathBuf};

/// Where the upward search for a configuration file ends: the first
/// directory that is a repository root (holds `.git`, a directory or a
/// worktree's file) or the user's home (`$HOME`), after that directory
/// itself was searched; `/` when there is neither. So does rustfmt's and
/// ruff's search: a `pbn.toml` planted in `/tmp` or `/` does not apply to
/// every project below it.
pub fn is_boundary(dir: &Path, home: Option<&Path>) -> bool {
    dir.join(".git").exists() || home.is_some_and(|h| h == dir)
}

/// The result of the search for a configuration file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The file found, if any.
    pub file: Option<PathBuf>,
    /// The last directory searched (a boundary, or `/`).
    pub stopped_at: PathBuf,
}

/// Searches for the configuration file of `start` (a file or directory):
/// the first `pbn.toml` or `.pbn.toml` in its directory or a parent, up to
/// the boundary (see [`is_boundary`]). A relative `start` is taken from the
/// current directory.
pub fn search(start: &Path) -> Search {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .and_then(|h| std::fs::canonicalize(h).ok());
    let abs = std::fs::canonicalize(start)
        .or_else(|_| std::path::absolute(start))
        .unwrap_or_else(|_| start.to_path_buf());
    let mut dir = if abs.is_dir() {
        Some(abs.as_path())
    } else {
        abs.parent()
    };
    let mut last = abs.clone();
    while let Some(d) = dir {
        last = d.to_path_buf();
        for name in FILE_NAMES {
            let p = d.join(name);
            if p.is_file() {
                return Search {
                    file: Some(p),
                    stopped_at: last,
                };
            }
        }
        if is_boundary(d, home.as_deref()) {
            break;
        }
        dir = d.parent();
    }
    Search {
        file: None,
        stopped_at: last,
    }
}

/// The configuration file for `start`, if any (see [`search`]).
pub fn find(start: &Path) -> Option<PathBuf> {
    search(start).file
}

/// Loads the configuration for `start`, or the defaults when there is none.
pub fn load_for(start: &Path) -> Result<(Config, Option<PathBuf>), String> {
    match find(start) {
        None => Ok((Config::default(), None)),
        Some(p) => {
            let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            Ok((parse(&text, &p)?, Some(p)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pbn-config-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::canonicalize(&d).unwrap()
    }

    #[test]
    fn the_search_stops_at_the_repository_root() {
        let d = temp("git");
        std::fs::write(d.join("pbn.toml"), "").unwrap();
        let repo = d.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("sub")).unwrap();
        let s = search(&repo.join("sub/game.pbn"));
        assert_eq!(s.file, None);
        assert_eq!(s.stopped_at, repo);
        // A worktree's `.git` is a file: a boundary too.
        std::fs::remove_dir_all(repo.join(".git")).unwrap();
        std::fs::write(repo.join(".git"), "gitdir: x").unwrap();
        assert_eq!(find(&repo.join("sub")), None);
        // The root itself is searched; without the boundary the parent's is found.
        std::fs::write(repo.join("pbn.toml"), "").unwrap();
        assert_eq!(find(&repo.join("sub")), Some(repo.join("pbn.toml")));
        std::fs::remove_file(repo.join("pbn.toml")).unwrap();
        std::fs::remove_file(repo.join(".git")).unwrap();
        assert_eq!(find(&repo.join("sub")), Some(d.join("pbn.toml")));
        std::fs::remove_dir_all(&d).ok();
    }

    #[test]
    fn the_home_directory_is_a_boundary() {
        let d = temp("home");
        std::fs::write(d.join("pbn.toml"), "").unwrap();
        let home = d.join("home");
        assert!(is_boundary(&home, Some(&home)));
        assert!(!is_boundary(&d, Some(&home)));
        assert!(!is_boundary(&d, None));
        std::fs::remove_dir_all(&d).ok();
    }
}
