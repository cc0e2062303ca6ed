//! Locating the `pbn` binary for end-to-end tests (it is built next to the
//! test executables; it is (re)built first when running under cargo).

use std::path::{Path, PathBuf};
use std::process::Command;
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

/// Runs `pbn` with `args` in `cwd` (the test's own directory when `None`),
/// `HOME` set to `home` and colours off: its exit status (-1 when killed),
/// stdout and stderr.
pub fn run_pbn(args: &[&str], cwd: Option<&Path>, home: &Path) -> (i32, String, String) {
    let mut cmd = Command::new(pbn_binary());
    cmd.args(args).env("HOME", home);
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    run(cmd, None)
}

/// Runs `pbn ARGS` with `stdin` (or a closed standard input), colours off:
/// its exit status (-1 when killed by a signal), stdout and stderr.
pub fn run_pbn_stdin(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut cmd = Command::new(pbn_binary());
    cmd.args(args);
    run(cmd, stdin)
}

/// [`run_pbn_stdin`] with stdout as the bytes written (a Latin-1 output
/// is not UTF-8).
pub fn run_pbn_stdin_bytes(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut cmd = Command::new(pbn_binary());
    cmd.args(args);
    run_bytes(cmd, stdin)
}

fn run(cmd: Command, stdin: Option<&[u8]>) -> (i32, String, String) {
    let (code, out, err) = run_bytes(cmd, stdin);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

fn run_bytes(mut cmd: Command, stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pbn");
    if let Some(input) = stdin {
        // A command that fails before reading its input (a usage error)
        // may close the pipe first: what it says is still checked.
        match child.stdin.take().unwrap().write_all(input) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r.unwrap(),
        }
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
