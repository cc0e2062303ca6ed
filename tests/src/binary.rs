//! Locating the `pbn` binary for end-to-end tests (it is built next to the
//! test executables; if it is missing, it is built).

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
        let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>");
        let bin = profile_dir.join(format!("pbn{}", std::env::consts::EXE_SUFFIX));
        if !bin.exists() {
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
