//! Rewriting a file in place, safely. Every command that writes files back
//! (`pbn fmt`, and later ones) goes through [`read`] and [`replace`]:
//!
//! - a symlink is followed: its target is read and rewritten, the link
//!   stays a link;
//! - the new text goes to a temporary file in the target's directory,
//!   created with `O_CREAT|O_EXCL|O_NOFOLLOW` (a planted file or symlink is
//!   never opened) under a random, short name (`.pbn-XXXXXXXX.tmp`, so a
//!   255-byte file name still has room), mode 600;
//! - owner, group and mode are copied onto it before any data is written; a
//!   setuid/setgid bit is dropped when the owner/group could not be kept;
//! - a read-only file (no write bit, or not writable by this user) is
//!   refused unless `force`;
//! - just before the rename, the target's device, inode, size and mtime are
//!   compared with those seen when it was read: a file changed meanwhile is
//!   left alone and reported;
//! - the temporary file is removed on any error (ENOSPC, EIO, …); the
//!   directory is fsynced after the rename.
//!
//! Test-only hooks (environment variables read here and nowhere else; they
//! exist so that the integration tests can simulate what cannot be staged
//! from outside the process):
//! - `PBN_TEST_HOOK_BEFORE_RENAME=CMD`: `sh -c CMD sh TARGET` runs after the
//!   data is written and before the metadata check (a concurrent edit);
//! - `PBN_TEST_WRITE_LIMIT=N`: writing more than N bytes fails with ENOSPC
//!   (a full disk).

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// A file as it was read: its resolved path and what identifies the
/// version read.
#[derive(Debug)]
pub struct Original {
    /// The path written: symlinks resolved.
    pub target: PathBuf,
    meta: Metadata,
}

/// The identity of a version of a file: device, inode, size, mtime.
fn identity(m: &Metadata) -> (u64, u64, u64, i64, i64) {
    (m.dev(), m.ino(), m.size(), m.mtime(), m.mtime_nsec())
}

/// Reports on stderr that `lost` characters of the output for `name` have
/// no form in the file's encoding (so it is not written); true when so.
pub fn unencodable(name: &str, lost: usize, encoding: pbn_core::text::Encoding) -> bool {
    if lost > 0 {
        errln!(
            "error: {name}: {lost} character(s) cannot be written in {}; not written",
            encoding.name()
        );
    }
    lost > 0
}

/// A unified diff of `old` (the file `name`, read in `from`) and `new` (to
/// be written in `to`, labelled `name (label)`): when the encoding changes,
/// the headers name both encodings and are printed even when the text is
/// the same, so that a change of the bytes alone is shown.
pub fn unified_diff(
    name: &str,
    label: &str,
    (old, from): (&str, pbn_core::text::Encoding),
    (new, to): (&str, pbn_core::text::Encoding),
) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    if from == to {
        let new_name = format!("{name} ({label})");
        return diff
            .unified_diff()
            .context_radius(3)
            .header(name, &new_name)
            .to_string();
    }
    let (a, b) = (
        format!("{name} ({})", from.name()),
        format!("{name} ({label}, {})", to.name()),
    );
    let text = diff
        .unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_string();
    if text.is_empty() {
        format!("--- {a}\n+++ {b}\n")
    } else {
        text
    }
}

/// An error message for an I/O error, without the `(os error N)` tail.
pub fn message(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_owned(),
                None => s,
            }
        }
    }
}

/// Reads `path` (following symlinks) and remembers which version was read.
pub fn read(path: &Path) -> io::Result<(Vec<u8>, Original)> {
    let target = std::fs::canonicalize(path)?;
    let mut file = File::open(&target)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut bytes)?;
    Ok((bytes, Original { target, meta }))
}

/// Reads an input of a command that writes files back: a file through
/// [`read`] (with what [`replace`] checks before writing), standard input
/// through [`super::files::read`] (nothing to write back).
pub fn read_input(input: &super::files::Input) -> io::Result<(Vec<u8>, Option<Original>)> {
    match input {
        super::files::Input::Stdin => super::files::read(input).map(|b| (b, None)),
        super::files::Input::File(p) => read(p).map(|(b, o)| (b, Some(o))),
    }
}

/// True when `m` has no write bit, or this user may not write `path`.
fn read_only(path: &Path, m: &Metadata) -> bool {
    if m.mode() & 0o222 == 0 {
        return true;
    }
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated string.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) != 0 }
}

/// Writes through `limit` bytes, then fails as a full disk would (test hook).
fn write_all_limited(f: &mut File, bytes: &[u8]) -> io::Result<()> {
    let limit = std::env::var("PBN_TEST_WRITE_LIMIT")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    match limit {
        Some(n) if bytes.len() > n => {
            f.write_all(&bytes[..n])?;
            Err(io::Error::from_raw_os_error(libc::ENOSPC))
        }
        _ => f.write_all(bytes),
    }
}

/// Replaces the file read as `original` by `bytes`. See the module
/// documentation for what is guaranteed.
pub fn replace(original: &Original, bytes: &[u8], force: bool) -> io::Result<()> {
    let target = &original.target;
    let m = &original.meta;
    if !force && read_only(target, m) {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "read-only file (mode {:o}); not written (use --force to write it anyway)",
                m.mode() & 0o7777
            ),
        ));
    }
    let dir = dir_of(target);
    let mut tmp = tempfile::Builder::new()
        .prefix(".pbn-")
        .suffix(".tmp")
        .rand_bytes(8)
        .make_in(dir, |p| {
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(p)
        })?;
    // Owner first (chown clears setuid/setgid), then the mode, then data.
    let file = tmp.as_file_mut();
    let _ = std::os::unix::fs::fchown(&*file, Some(m.uid()), Some(m.gid()));
    let now = file.metadata()?;
    let mut mode = m.mode() & 0o7777;
    if now.uid() != m.uid() {
        mode &= !libc::S_ISUID;
    }
    if now.gid() != m.gid() {
        mode &= !libc::S_ISGID;
    }
    file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    write_all_limited(file, bytes)?;
    file.sync_all()?;
    if let Ok(cmd) = std::env::var("PBN_TEST_HOOK_BEFORE_RENAME") {
        let _ = std::process::Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .arg("sh")
            .arg(target)
            .status();
    }
    let changed = match std::fs::metadata(target) {
        Ok(now) => identity(&now) != identity(m),
        Err(_) => true,
    };
    if changed {
        return Err(io::Error::other(
            "changed on disk since it was read; left as it is (run the command again)",
        ));
    }
    tmp.persist(target).map_err(|e| e.error)?;
    File::open(dir)?.sync_all()
}

/// The directory a file is in (`.` for a bare name).
fn dir_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Writes `bytes` to `path`: an existing file is replaced as [`replace`]
/// does; a new one is written to a temporary file in the same directory
/// (random name, created exclusively, mode 600) and renamed into place
/// without replacing a file that appeared meanwhile, then the directory is
/// fsynced.
pub fn create_or_replace(path: &Path, bytes: &[u8], force: bool) -> io::Result<()> {
    if path.exists() {
        let (_, original) = read(path)?;
        return replace(&original, bytes, force);
    }
    let dir = dir_of(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".pbn-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    write_all_limited(tmp.as_file_mut(), bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist_noclobber(path).map_err(|e| e.error)?;
    File::open(dir)?.sync_all()
}
