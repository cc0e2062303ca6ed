//! The layers of `pbn-core` and the files of the language server, checked
//! on the source: each core module imports only from the modules listed
//! before it in [`CORE_LAYERS`], and no directory's files import each other
//! in a loop. The crate boundary (`pbn-core` has no tokio, tower-lsp-server
//! or ropey) is checked by the compiler; this test keeps the order inside.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// `server/core/src`'s modules, lowest first.
const CORE_LAYERS: &[&str] = &[
    "hash",
    "par",
    "text",
    "codes",
    "diagnostic",
    "spec",
    "syntax",
    "bridge",
    "model",
    "dd",
    "rules",
    "checker",
    "format",
    "reference",
    "render",
    "hover",
    "convert",
    "config",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its comments (line comments only: the code
/// has no block comments) and without its `#[cfg(test)]` module, which
/// comes last in every file (a test may use a higher layer's helpers).
fn code_lines(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|n| n.trim_start().starts_with("mod "))
        })
        .unwrap_or(lines.len());
    lines[..end]
        .iter()
        .map(|l| {
            let l = match l.find("//") {
                Some(i) if !l[..i].contains('"') => &l[..i],
                _ => l,
            };
            l.to_string()
        })
        .collect()
}

/// The names that follow `prefix` in the code (`crate::` → `model`, and
/// each name of `use crate::{a, b::c}`).
fn referenced(lines: &[String], prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let joined = lines.join("\n");
    let mut rest = joined.as_str();
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

#[test]
fn core_modules_import_only_lower_layers() {
    let src = root().join("server/core/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rank = |m: &str| CORE_LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    for f in &files {
        let m = module_of(&src, f);
        if m == "lib" {
            continue;
        }
        let Some(own) = rank(&m) else {
            wrong.push(format!("{m}: not in CORE_LAYERS (add it where it belongs)"));
            continue;
        };
        for r in referenced(&code_lines(f), "crate::") {
            match rank(&r) {
                Some(k) if k > own => wrong.push(format!(
                    "{}: `{m}` imports `crate::{r}`, a higher layer",
                    f.strip_prefix(root()).unwrap_or(f).display()
                )),
                _ => {}
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "layer violations:\n{}", wrong.join("\n"));
}

/// `pbn-core` does no IO (it builds for wasm32 and runs in the web page):
/// no file system, process, network, standard streams or environment
/// outside its tests. The binary reads files and `pbn.toml`
/// (`server/src/config_file.rs`); the one environment variable the core
/// reads is rayon's thread count (`par.rs`).
#[test]
fn core_does_no_io() {
    let src = root().join("server/core/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let io = [
        "std::fs",
        "std::net",
        "std::process",
        "std::io::stdin",
        "std::io::stdout",
        "std::io::stderr",
        "println!",
        "eprintln!",
        "std::env::var",
    ];
    let mut wrong = Vec::new();
    for f in &files {
        let m = module_of(&src, f);
        for (i, line) in code_lines(f).iter().enumerate() {
            for w in io {
                let allowed = m == "par" && line.contains("std::env::var(\"RAYON_NUM_THREADS\")");
                if line.contains(w) && !allowed {
                    wrong.push(format!(
                        "{}:{}: {w}",
                        f.strip_prefix(root()).unwrap_or(f).display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "IO in pbn-core:\n{}", wrong.join("\n"));
}

/// Sibling files of one directory that import each other through
/// `super::sibling` (or `crate::path::sibling`) must not form a loop.
fn sibling_loops(dir: &Path, crate_path: &str) -> Vec<String> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut names = BTreeSet::new();
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if name != "mod" && (p.is_dir() || p.extension().is_some_and(|x| x == "rs")) {
            names.insert(name);
        }
    }
    for name in &names {
        let mut files = Vec::new();
        let p = dir.join(name);
        if p.is_dir() {
            rust_files(&p, &mut files);
        } else {
            files.push(dir.join(format!("{name}.rs")));
        }
        let mut deps = BTreeSet::new();
        for f in &files {
            let lines = code_lines(f);
            // `super::` from a file in `dir` names a sibling; from deeper it
            // names the file's own parent, which is `name` itself.
            if f.parent() == Some(dir) {
                deps.extend(referenced(&lines, "super::"));
            }
            if !crate_path.is_empty() {
                deps.extend(referenced(&lines, &format!("{crate_path}::")));
            }
        }
        deps.retain(|d| names.contains(d) && d != name);
        graph.insert(name.clone(), deps);
    }
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<String>,
    ) {
        if done.contains(n) {
            return;
        }
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut cycle = stack[i..].to_vec();
            cycle.push(n.to_string());
            out.push(cycle.join(" -> "));
            return;
        }
        stack.push(n.to_string());
        for d in &g[n] {
            visit(d, g, stack, done, out);
        }
        stack.pop();
        done.insert(n.to_string());
    }
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for n in graph.keys() {
        visit(n, &graph, &mut Vec::new(), &mut done, &mut out);
    }
    out.into_iter()
        .map(|c| format!("{}: {c}", dir.strip_prefix(root()).unwrap_or(dir).display()))
        .collect()
}

#[test]
fn no_import_loops_between_sibling_files() {
    let mut loops = Vec::new();
    let core = root().join("server/core/src");
    let mut dirs = vec![(core.clone(), "crate".to_string())];
    for e in fs::read_dir(&core).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            let m = p.file_name().unwrap().to_string_lossy().to_string();
            dirs.push((p, format!("crate::{m}")));
        }
    }
    let server = root().join("server/src");
    dirs.push((server.join("lsp"), "crate::lsp".to_string()));
    dirs.push((
        server.join("lsp/requests"),
        "crate::lsp::requests".to_string(),
    ));
    dirs.push((server.join("cli"), "crate::cli".to_string()));
    for (dir, path) in dirs {
        loops.extend(sibling_loops(&dir, &path));
    }
    assert!(loops.is_empty(), "import loops:\n{}", loops.join("\n"));
}

#[test]
fn the_check_finds_a_loop_and_a_layer_violation() {
    // The checks above must be able to fail: a loop of two files, and a
    // reference to a higher layer.
    let dir = std::env::temp_dir().join(format!("pbn-layers-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("a.rs"), "use super::b::B;\n").unwrap();
    fs::write(dir.join("b.rs"), "use super::a::A; // super::c\n").unwrap();
    fs::write(dir.join("c.rs"), "use super::a::A;\n").unwrap();
    let loops = sibling_loops(&dir, "");
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(loops.len(), 1, "{loops:?}");
    assert!(loops[0].ends_with("a -> b -> a"), "{loops:?}");
    let lines = vec!["use crate::{model, rules::x};".to_string()];
    let refs = referenced(&lines, "crate::");
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["model", "rules"]);
}
