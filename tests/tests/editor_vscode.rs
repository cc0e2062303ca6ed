//! The VS Code extension (editors/vscode).
//!
//! - `extension_manifest`: package.json contributes the `pbn` language, the
//!   grammar, the settings and `onLanguage:pbn` activation (no tools needed).
//! - `textmate_grammar_covers_highlights_scm`: every node that
//!   tree-sitter-pbn/queries/highlights.scm captures has a TextMate scope in
//!   syntaxes/pbn.tmLanguage.json, exercised by a grammar snapshot.
//! - `textmate_grammar_snapshots`: `vscode-tmgrammar-snap` over
//!   editors/vscode/tests/grammar/*.pbn against the committed .snap files.
//! - `vscode_end_to_end`: editors/vscode/test/e2e.mjs packages the .vsix,
//!   installs it into code-server, and drives VS Code in Debian's chromium
//!   with playwright-core (squiggle + Problems entry PBN0003, NAG hover,
//!   deal-diagram hover, Format Document, quick fix).
//!
//! The last two need node, `npm ci` in editors/vscode, code-server (in
//! .ci/cache) and chromium: `.ci/install-vscode.sh` installs them. Without
//! them the tests skip with a loud message, unless `PBN_REQUIRE_EDITORS=1`
//! makes that a failure.

use pbn_tests::binary::pbn_binary;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Kill the e2e driver if it has not finished by then (its own waits are at
/// most 60 s each; a normal run takes about 30–60 s).
const E2E_TIMEOUT: Duration = Duration::from_secs(300);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("repo root")
        .to_path_buf()
}

fn ext_dir() -> PathBuf {
    repo().join("editors/vscode")
}

fn skip(what: &str) {
    pbn_tests::editors::skip(what, "run .ci/install-vscode.sh")
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Node.js ≥ 20 on PATH, or why not.
fn node() -> Result<(), String> {
    let out = Command::new("node")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("node not found on PATH: {e}"))?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let major: u32 = v
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 20 {
        return Err(format!("node {v} is too old (need ≥ 20)"));
    }
    Ok(())
}

/// The extension's node dependencies (`npm ci` in editors/vscode), or why not.
fn node_modules() -> Result<(), String> {
    let nm = ext_dir().join("node_modules");
    for p in [
        ".bin/vsce",
        ".bin/tsc",
        ".bin/vscode-tmgrammar-snap",
        "playwright-core/package.json",
        "vscode-languageclient/package.json",
    ] {
        if !nm.join(p).exists() {
            return Err(format!(
                "editors/vscode/node_modules/{p} is missing (npm ci in editors/vscode)"
            ));
        }
    }
    Ok(())
}

/// code-server: `$CODE_SERVER`, else a complete install in .ci/cache.
fn code_server() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("CODE_SERVER") {
        let p = PathBuf::from(p);
        return if p.exists() {
            Ok(p)
        } else {
            Err(format!("CODE_SERVER={} does not exist", p.display()))
        };
    }
    let cache = repo().join(".ci/cache");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&cache)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    dirs.retain(|d| {
        d.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("code-server-"))
    });
    dirs.sort();
    dirs.into_iter()
        .rev()
        .map(|d| (d.join("node_modules/.bin/code-server"), d.join(".complete")))
        .find(|(bin, done)| bin.exists() && done.exists())
        .map(|(bin, _)| bin)
        .ok_or_else(|| format!("code-server not found in {}", cache.display()))
}

fn chromium() -> Result<PathBuf, String> {
    let p = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/usr/bin/chromium".into());
    if p.exists() {
        Ok(p)
    } else {
        Err(format!(
            "chromium not found at {} (apt-get install chromium)",
            p.display()
        ))
    }
}

/// Runs a command with a deadline; returns (exit code, stdout + stderr).
fn run_with_timeout(mut cmd: Command, timeout: Duration) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn().expect("spawn");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > timeout {
            // The driver starts code-server and chromium in its process group.
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut output = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if !err.trim().is_empty() {
        output.push_str("\n--- stderr:\n");
        output.push_str(&err);
    }
    match status {
        Some(s) => (s.code(), output),
        None => (
            None,
            format!("{output}\n--- killed after {} s", timeout.as_secs()),
        ),
    }
}

#[test]
fn extension_manifest() {
    let ext = ext_dir();
    let pkg = read_json(&ext.join("package.json"));
    assert_eq!(pkg["main"], "./out/extension.js");
    let activation: Vec<&str> = pkg["activationEvents"]
        .as_array()
        .expect("activationEvents")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        activation.contains(&"onLanguage:pbn"),
        "activationEvents: {activation:?}"
    );

    let languages = pkg["contributes"]["languages"]
        .as_array()
        .expect("languages");
    let pbn = languages
        .iter()
        .find(|l| l["id"] == "pbn")
        .expect("the pbn language");
    assert!(pbn["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e == ".pbn"));
    assert!(!pbn["aliases"].as_array().unwrap().is_empty());
    let lang_conf = read_json(&ext.join(pbn["configuration"].as_str().unwrap()));
    assert_eq!(lang_conf["comments"]["lineComment"], ";");
    assert_eq!(
        lang_conf["comments"]["blockComment"],
        serde_json::json!(["{", "}"])
    );
    let pairs: Vec<String> = lang_conf["autoClosingPairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{}{}",
                p["open"].as_str().unwrap(),
                p["close"].as_str().unwrap()
            )
        })
        .collect();
    for pair in ["\"\"", "[]", "{}"] {
        assert!(
            pairs.iter().any(|p| p == pair),
            "autoClosingPairs lacks {pair}: {pairs:?}"
        );
    }

    let grammars = pkg["contributes"]["grammars"].as_array().expect("grammars");
    let g = grammars
        .iter()
        .find(|g| g["language"] == "pbn")
        .expect("the pbn grammar");
    assert_eq!(g["scopeName"], "source.pbn");
    let grammar = read_json(&ext.join(g["path"].as_str().unwrap()));
    assert_eq!(grammar["scopeName"], "source.pbn");

    let props = &pkg["contributes"]["configuration"]["properties"];
    for (key, ty) in [
        ("pbn.server.path", "string"),
        ("pbn.server.extraArgs", "array"),
        ("pbn.trace.server", "string"),
        ("pbn.export", "boolean"),
        ("pbn.format.addMissingTags", "boolean"),
    ] {
        assert_eq!(props[key]["type"], ty, "setting {key}");
    }
    // The client reads these names (initializationOptions and the binary search).
    let src = fs::read_to_string(ext.join("src/extension.ts")).expect("extension.ts");
    for needle in [
        "server.path",
        "server.extraArgs",
        "\"export\"",
        "format.addMissingTags",
        "initializationOptions",
        "configurationSection: \"pbn\"",
        "\"server\", EXE",
    ] {
        assert!(
            src.contains(needle),
            "src/extension.ts does not mention {needle}"
        );
    }
    assert!(
        ext.join("package-lock.json").is_file(),
        "editors/vscode/package-lock.json must be committed"
    );
}

/// `npm run package` runs its script with `sh` (dash on Debian): the
/// script line must start bash itself, and package.sh must parse there
/// (`--help` prints its usage before doing anything).
#[test]
fn npm_package_script_runs_under_sh() {
    let pkg = read_json(&ext_dir().join("package.json"));
    for name in ["package", "package:bundled"] {
        let script = pkg["scripts"][name]
            .as_str()
            .unwrap_or_else(|| panic!("package.json has no script {name}"));
        assert!(
            script.starts_with("bash scripts/package.sh"),
            "script {name}: {script}"
        );
    }
    let script = pkg["scripts"]["package"].as_str().unwrap();
    let out = Command::new("sh")
        .args(["-c", &format!("{script} --help")])
        .current_dir(ext_dir())
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("usage:") && err.contains("--bundle"), "{err}");
    assert!(!err.contains("Illegal option"), "{err}");
    // (`sh scripts/package.sh` under dash stops at `set -o pipefail`
    // with "Illegal option" before the usage.)
    let readme = fs::read_to_string(ext_dir().join("README.md")).unwrap();
    assert!(
        !readme.contains("README-vscode.md"),
        "editors/vscode/README.md points to a file that does not exist"
    );
}

/// The TextMate scope of each node that highlights.scm captures.
const SCOPES: &[(&str, &[&str])] = &[
    ("escape_line", &["keyword.control.directive.escape.pbn"]),
    (
        "comment",
        &["comment.line.semicolon.pbn", "comment.block.brace.pbn"],
    ),
    (
        "tag_pair",
        &[
            "meta.tag-pair.pbn",
            "punctuation.definition.tag.begin.pbn",
            "punctuation.definition.tag.end.pbn",
        ],
    ),
    (
        "tag_name",
        &["entity.name.tag.pbn", "keyword.other.section-tag.pbn"],
    ),
    ("string", &["string.quoted.double.pbn"]),
    (
        "unterminated_string",
        &["invalid.illegal.unterminated-string.pbn"],
    ),
    // A run of call tokens: TextMate scopes each token.
    (
        "calls",
        &[
            "constant.numeric.call.bid.pbn",
            "constant.language.call.pass.pbn",
            "constant.language.call.all-pass.pbn",
            "keyword.operator.call.double.pbn",
            "keyword.operator.call.redouble.pbn",
            "punctuation.separator.dash.pbn",
            "invalid.illegal.call.pbn",
        ],
    ),
    // A run of card tokens: TextMate scopes each token (a `-` is the
    // auction's dash scope, listed above).
    (
        "cards",
        &["constant.other.card.pbn", "invalid.illegal.card.pbn"],
    ),
    ("suffix", &["keyword.operator.suffix.pbn"]),
    ("note_ref", &["entity.name.label.note-reference.pbn"]),
    ("nag", &["constant.numeric.nag.pbn"]),
    ("irregularity", &["keyword.control.irregularity.pbn"]),
    ("terminator", &["punctuation.terminator.section.pbn"]),
    ("continuation", &["punctuation.separator.continuation.pbn"]),
    ("section_token", &["string.unquoted.section-token.pbn"]),
];

#[test]
fn textmate_grammar_covers_highlights_scm() {
    let hl = fs::read_to_string(repo().join("tree-sitter-pbn/queries/highlights.scm"))
        .expect("highlights.scm");
    // Node names in the queries: `(name` not preceded by `#` (predicates).
    let mut nodes = BTreeSet::new();
    for line in hl.lines().filter(|l| !l.trim_start().starts_with(';')) {
        let b = line.as_bytes();
        for (i, _) in line.match_indices('(') {
            let rest = &line[i + 1..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty()
                && !rest[name.len()..].starts_with('?')
                && b.get(i + 1) != Some(&b'#')
            {
                nodes.insert(name);
            }
        }
    }
    assert!(
        nodes.contains("nag") && nodes.contains("escape_line"),
        "parsed nodes: {nodes:?}"
    );

    let grammar =
        fs::read_to_string(ext_dir().join("syntaxes/pbn.tmLanguage.json")).expect("grammar");
    let mut snaps = String::new();
    for e in fs::read_dir(ext_dir().join("tests/grammar")).expect("tests/grammar") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "snap") {
            snaps.push_str(&fs::read_to_string(&p).expect("snap"));
        }
    }
    let mut problems = Vec::new();
    for node in &nodes {
        match SCOPES.iter().find(|(n, _)| n == node) {
            None => problems.push(format!(
                "highlights.scm captures ({node}) but SCOPES has no TextMate scope for it"
            )),
            Some((_, scopes)) => {
                for s in *scopes {
                    if !grammar.contains(&format!("\"{s}\"")) {
                        problems.push(format!("({node}): scope {s} is not in pbn.tmLanguage.json"));
                    }
                    if !snaps.contains(s) {
                        problems.push(format!("({node}): scope {s} is in no tests/grammar/*.snap"));
                    }
                }
            }
        }
    }
    // The section tags that highlights.scm singles out.
    for tag in ["Auction", "Play", "Note"] {
        assert!(hl.contains(&format!("\"{tag}\"")));
        assert!(
            grammar.contains(tag),
            "pbn.tmLanguage.json does not single out {tag}"
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn textmate_grammar_snapshots() {
    if let Err(why) = node().and_then(|_| node_modules()) {
        return skip(&format!("TextMate grammar snapshots: {why}"));
    }
    let mut cmd = Command::new("node");
    cmd.current_dir(ext_dir()).args([
        "node_modules/vscode-tmgrammar-test/dist/snapshot.js",
        "--scope",
        "source.pbn",
        "--grammar",
        "syntaxes/pbn.tmLanguage.json",
        "tests/grammar/*.pbn",
    ]);
    let (code, output) = run_with_timeout(cmd, Duration::from_secs(120));
    assert_eq!(
        code,
        Some(0),
        "vscode-tmgrammar-snap failed (update with `npm run test:grammar:update` in editors/vscode after checking the diff):\n{output}"
    );
}

#[test]
fn vscode_end_to_end() {
    let prereqs = node()
        .and_then(|_| node_modules())
        .and_then(|_| code_server())
        .and_then(|cs| chromium().map(|c| (cs, c)));
    let (code_server, chromium) = match prereqs {
        Ok(p) => p,
        Err(why) => return skip(&format!("VS Code end-to-end test: {why}")),
    };
    let pbn = pbn_binary();
    let mut cmd = Command::new("node");
    cmd.current_dir(ext_dir())
        .arg("test/e2e.mjs")
        .env("PBN_BINARY", &pbn)
        .env("CODE_SERVER", &code_server)
        .env("CHROMIUM", &chromium);
    let (code, output) = run_with_timeout(cmd, E2E_TIMEOUT);
    match code {
        Some(0) => eprintln!("{output}"),
        Some(77) => skip(&format!("VS Code end-to-end test: {}", output.trim())),
        _ => panic!("VS Code end-to-end test failed (exit {code:?}); screenshots in editors/vscode/screenshots/failure-*.png\n{output}"),
    }
}
