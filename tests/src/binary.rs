//! Locating the `pbn` binary for end-to-end tests (it is built next to the
//! test executables; it is (re)built first when running under cargo).

use std::path::PathBuf;
use std::sync::OnceLock;

/// The path of the `pbn` binary of this build profile.
pub fn pbn_binary() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(p) = std::env::var_os("PBN_BINARY") {
            return PathBuf::from(p);
        }
        let exe = std::env::current_exe().expect("test executable path");
        // target/<profile>/deps/<test> → target/<profile>/pbn
        let profile_dir = exe
            .parent()
            .and_then(|d| d.parent())
            .expect("target/<profile>");
        let bin = profile_dir.join(format!("pbn{}", std::env::consts::EXE_SUFFIX));
        // Under cargo, make sure the binary is current (`cargo test -p
        // pbn-tests` does not rebuild another package's binary); a no-op
        // when it is.
        if !bin.exists() || std::env::var_os("CARGO").is_some() {
            let release = profile_dir.file_name().is_some_and(|n| n == "release");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let mut cmd = std::process::Command::new(cargo);
            cmd.args(["build", "-q", "-p", "pbn", "--bin", "pbn"]);
            if release {
                cmd.arg("--release");
            }
            let status = cmd.status().expect("run cargo build");
            assert!(status.success(), "cargo build -p pbn failed");
        }
        bin
    })
    .clone()
}

/// Runs `pbn ARGS` with `stdin` (or a closed standard input) and
/// `NO_COLOR=1`: its exit status (-1 when killed by a signal), standard
/// output and standard error.
pub fn run_pbn(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(pbn_binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1")
        .spawn()
        .expect("spawn pbn");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
