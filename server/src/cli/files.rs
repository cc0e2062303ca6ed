//! Expanding command-line paths into the list of files to read.

use std::path::{Path, PathBuf};

/// An input: a file path or standard input (`-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    pub fn display(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_owned(),
            Input::File(p) => p.display().to_string(),
        }
    }
}

/// Expands paths: files are taken as given, directories are searched
/// recursively for `*.pbn` (case-insensitive), sorted for stable output.
/// A path that does not exist is kept: reading it fails, and that is
/// reported for it alone while the other files are processed. Paths that
/// hold no PBN file at all (empty directories) are an error: nothing would
/// be checked, and a silent success would hide a mistyped path.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Input::Stdin);
        } else if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found).map_err(|e| format!("{}: {e}", p.display()))?;
            found.sort();
            out.extend(found.into_iter().map(Input::File));
        } else {
            out.push(Input::File(p.clone()));
        }
    }
    if out.is_empty() && !paths.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!(
            "no PBN files (*.pbn) found in {}",
            shown.join(", ")
        ));
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let ft = entry.file_type()?;
        if ft.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("pbn"))
        {
            // A FIFO, socket or device named `*.pbn` would be read forever
            // or block: skipped with a note (a symlink counts as its target).
            if std::fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
                errln!("pbn: {}: skipped, not a regular file", path.display());
                continue;
            }
            out.push(path);
        }
    }
    Ok(())
}

/// The largest input `pbn` reads, in bytes (256 MiB; the largest real PBN
/// files are a few MB). A larger file, or a special file named on the
/// command line that never ends (`/dev/zero`, a FIFO), is refused with an
/// error once this many bytes have been read, instead of being read
/// forever.
pub const MAX_INPUT: u64 = 256 << 20;

/// Reads an input's bytes, at most [`MAX_INPUT`] of them.
pub fn read(input: &Input) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut v = Vec::new();
    let n = match input {
        Input::Stdin => std::io::stdin().take(MAX_INPUT + 1).read_to_end(&mut v)?,
        Input::File(p) => std::fs::File::open(p)?
            .take(MAX_INPUT + 1)
            .read_to_end(&mut v)?,
    };
    if n as u64 > MAX_INPUT {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB, the most pbn reads (a device or a FIFO that never ends?)",
            MAX_INPUT >> 20
        )));
    }
    Ok(v)
}
