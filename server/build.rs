//! Sets `PBN_COMMIT` for `pbn --version`: the short hash of the checked-out
//! commit (`git rev-parse --short HEAD`; uncommitted changes are not
//! marked, since the script reruns only when HEAD moves), `$PBN_COMMIT` when
//! a packager sets it, or `unknown commit` when the sources are not a git
//! checkout or git is missing (a source archive, a vendored copy).

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        // At run time: a build script compiled once may run for another
        // checkout of the same sources (a shared target directory).
        .current_dir(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| ".".into()))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-env-changed=PBN_COMMIT");
    let commit = match std::env::var("PBN_COMMIT") {
        // A packager may set it (for a build outside a git checkout).
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => match git(&["rev-parse", "--short", "HEAD"]) {
            Some(hash) => {
                // Rebuild when HEAD moves: HEAD itself and the ref it names
                // (in a worktree, HEAD lives in the worktree's git dir).
                if let Some(head) =
                    git(&["rev-parse", "--path-format=absolute", "--git-path", "HEAD"])
                {
                    println!("cargo:rerun-if-changed={head}");
                }
                if let Some(refname) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    if let Some(p) = git(&[
                        "rev-parse",
                        "--path-format=absolute",
                        "--git-path",
                        &refname,
                    ]) {
                        if PathBuf::from(&p).exists() {
                            println!("cargo:rerun-if-changed={p}");
                        }
                    }
                    if let Some(p) =
                        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"])
                    {
                        println!("cargo:rerun-if-changed={p}/packed-refs");
                    }
                }
                hash
            }
            None => "unknown commit".to_string(),
        },
    };
    println!("cargo:rustc-env=PBN_COMMIT={commit}");
}
