//! Every byte the CLI prints goes through here (the `outln!`, `out!` and
//! `errln!` macros of `cli/mod.rs`), so that `pbn dump big.pbn | head` ends
//! quietly: when the reader has closed standard output, the program exits
//! with status 0 at once, as ripgrep does, instead of panicking with
//! "failed printing to stdout: Broken pipe" (what `println!` does).
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe is an `EPIPE` error
//! here; nothing else in the process needs to know about it.

use std::io::{self, Write};

/// Writes `bytes` to standard output and flushes them.
pub fn stdout(bytes: &[u8]) {
    let mut lock = io::stdout().lock();
    let result = lock.write_all(bytes).and_then(|()| lock.flush());
    stdout_result(result);
}

/// Ends the program on a failed write to standard output: quietly with
/// status 0 when the reader is gone (a closed pipe), else with an error
/// message and status 2 (a full disk must not pass for success).
pub fn stdout_result(result: io::Result<()>) {
    match result {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            stderr(format!("error: writing to standard output: {e}\n").as_bytes());
            std::process::exit(2);
        }
    }
}

/// Writes `bytes` to standard error. A failure is ignored: messages that
/// nobody can read must not change what the command does to the files.
pub fn stderr(bytes: &[u8]) {
    let mut lock = io::stderr().lock();
    let _ = lock.write_all(bytes).and_then(|()| lock.flush());
}
