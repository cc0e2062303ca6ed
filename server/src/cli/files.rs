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
/// reported for it alone while the other files are processed.
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
            out.push(path);
        }
    }
    Ok(())
}

/// Reads an input's bytes.
pub fn read(input: &Input) -> std::io::Result<Vec<u8>> {
    match input {
        Input::Stdin => {
            use std::io::Read;
            let mut v = Vec::new();
            std::io::stdin().read_to_end(&mut v)?;
            Ok(v)
        }
        Input::File(p) => std::fs::read(p),
    }
}
