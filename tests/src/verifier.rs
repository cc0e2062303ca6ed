//! Running the reference PBN verifier (`../shared/tools/verifier/PbnJVeri.jar`,
//! the Java port of Tis Veugen's verifier) and reading its verdicts.
//!
//! The verifier opens a window even in batch mode, so it runs under a
//! virtual display (`xvfb-run`). [`Verifier::run`] starts one X server for
//! a whole batch and two JVMs inside it (the machine's cores), each checking
//! a list of files, the biggest first, each with a fresh class loader
//! (`VerifierBatch.java`): the reports are the same as one JVM per file
//! gives, at a third of the time.
//!
//! Its report (`-v`) echoes every input line, with before each game two
//! `% ==== game N ====` headers and after an offending line a caret line
//! and one finding a line (`E:` error, `S:` severe error, `W:` warning,
//! `R:` remark). [`parse_log`] walks the echo along the input to give each
//! game its first input line and each finding its line.
//!
//! When Java, `xvfb-run` or the jar is missing, [`Verifier::find`] skips
//! ([`crate::skips`]) unless `PBN_REQUIRE_SHARED=1` or
//! `PBN_REQUIRE_CORPUS=1` (set by `.ci/run`) makes that a failure; CI
//! installs them with `.ci/install-verifier.sh`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The reference verifier, found.
#[derive(Clone, Debug)]
pub struct Verifier {
    jar: PathBuf,
}

/// One file to verify, and whether to write its export format too.
#[derive(Clone, Debug)]
pub struct Job {
    pub input: PathBuf,
    /// Write the export format (`-e`, LF line ends) into [`Report::export`].
    pub export: bool,
}

/// The verifier's verdict on one file.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The games in file order.
    pub games: Vec<Game>,
    /// The export format, when asked for (`None` also when the verifier
    /// wrote none).
    pub export: Option<String>,
    /// The raw report, for failure messages.
    pub log: String,
}

/// One game as the verifier delimits it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The verifier's game number (1-based).
    pub number: u32,
    /// The game's first input line (0-based).
    pub first_line: usize,
    pub findings: Vec<Finding>,
}

/// One finding of the verifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// `E` error, `S` severe error, `W` warning, `R` remark.
    pub kind: char,
    pub message: String,
    /// The offending input line (0-based), when the echo placed it.
    pub line: Option<usize>,
}

impl Finding {
    /// An error or a severe error: what makes the verifier reject a game.
    pub fn is_error(&self) -> bool {
        matches!(self.kind, 'E' | 'S')
    }
}

impl Report {
    /// The index in [`Report::games`] of the game holding input `line`
    /// (0-based): the last game starting at or before it (lines before the
    /// first game belong to it).
    pub fn game_of_line(&self, line: usize) -> Option<usize> {
        if self.games.is_empty() {
            return None;
        }
        Some(
            self.games
                .iter()
                .rposition(|g| g.first_line <= line)
                .unwrap_or(0),
        )
    }
}

fn require_shared() -> bool {
    ["PBN_REQUIRE_SHARED", "PBN_REQUIRE_CORPUS"]
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|v| v == "1"))
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            let p = dir.join(tool);
            p.is_file()
        })
    })
}

/// The jar: `$PBN_VERIFIER_JAR`, else `tools/verifier/PbnJVeri.jar` beside
/// `$PBN_CORPUS`, else `<repo>/../shared/tools/verifier/PbnJVeri.jar`.
pub fn jar_path() -> PathBuf {
    if let Some(p) = std::env::var_os("PBN_VERIFIER_JAR") {
        return PathBuf::from(p);
    }
    if let Some(c) = std::env::var_os("PBN_CORPUS") {
        let p = Path::new(&c).join("../tools/verifier/PbnJVeri.jar");
        if p.is_file() {
            return p;
        }
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tools/verifier/PbnJVeri.jar")
}

impl Verifier {
    /// The verifier, when the jar, `java` and `xvfb-run` are all there;
    /// else a visible skip, or a failure under `PBN_REQUIRE_SHARED=1` /
    /// `PBN_REQUIRE_CORPUS=1`.
    pub fn find() -> Option<Verifier> {
        let jar = jar_path();
        let mut missing = Vec::new();
        if !jar.is_file() {
            missing.push(format!("{} (set PBN_VERIFIER_JAR)", jar.display()));
        }
        for tool in ["java", "xvfb-run", "xauth"] {
            if !on_path(tool) {
                missing.push(tool.to_string());
            }
        }
        if missing.is_empty() {
            return Some(Verifier { jar });
        }
        let reason = format!(
            "reference verifier not runnable, missing {} (run .ci/install-verifier.sh)",
            missing.join(", ")
        );
        if require_shared() {
            panic!("{reason}: PBN_REQUIRE_SHARED=1 / PBN_REQUIRE_CORPUS=1 make this a failure");
        }
        crate::skips::skip(&reason);
        None
    }

    /// Verifies every job (PBN 2.1 rules, `-21 -v`), one report per job in
    /// the same order. Panics when the verifier cannot be started at all.
    pub fn run(&self, jobs: &[Job]) -> Vec<Report> {
        let dir = scratch_dir("verifier-run");
        // Two workers, the biggest files first, each to the lighter worker.
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        let size = |i: usize| std::fs::metadata(&jobs[i].input).map_or(0, |m| m.len());
        order.sort_by_key(|&i| std::cmp::Reverse(size(i)));
        let mut lists = [String::new(), String::new()];
        let mut load = [0u64; 2];
        for i in order {
            let w = if load[0] <= load[1] { 0 } else { 1 };
            load[w] += size(i) + 20_000;
            let input = std::fs::canonicalize(&jobs[i].input)
                .unwrap_or_else(|e| panic!("{}: {e}", jobs[i].input.display()));
            lists[w].push_str(&format!(
                "{i}\n{}\n{}\n",
                u8::from(jobs[i].export),
                input.display()
            ));
        }
        let mut list_paths = Vec::new();
        for (w, list) in lists.iter().enumerate() {
            let p = dir.join(format!("jobs{w}.txt"));
            std::fs::write(&p, list).unwrap();
            list_paths.push(p);
        }
        let script = dir.join("run.sh");
        std::fs::write(&script, RUN_SH).unwrap();
        let batch = dir.join("VerifierBatch.java");
        std::fs::write(&batch, BATCH_JAVA).unwrap();
        let out = Command::new("xvfb-run")
            .arg("-a")
            .arg("sh")
            .arg(&script)
            .arg(&self.jar)
            .arg(&dir)
            .arg(&batch)
            .args(&list_paths)
            .current_dir(&dir)
            .output()
            .unwrap_or_else(|e| panic!("xvfb-run: {e}"));
        assert!(
            out.status.success(),
            "xvfb-run failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let reports = jobs
            .iter()
            .enumerate()
            .map(|(i, job)| {
                let log = std::fs::read(dir.join(format!("{i}.log"))).unwrap_or_else(|e| {
                    // The end of what the file's run and its JVM said.
                    let said: Vec<String> = [
                        format!("{i}.out"),
                        "jobs0.txt.out".into(),
                        "jobs1.txt.out".into(),
                    ]
                    .iter()
                    .map(|f| {
                        let text = latin1(&std::fs::read(dir.join(f)).unwrap_or_default());
                        let tail: Vec<char> = text.chars().rev().take(2000).collect();
                        tail.into_iter().rev().collect()
                    })
                    .collect();
                    let said = said.join("\n");
                    panic!(
                        "the verifier wrote no report for {}: {e}\n{said}",
                        job.input.display()
                    )
                });
                let log = latin1(&log);
                let input = latin1(&std::fs::read(&job.input).unwrap());
                let mut report = parse_log(&log, &input);
                if job.export {
                    report.export = std::fs::read(dir.join(format!("{i}.exp")))
                        .ok()
                        .map(|b| latin1(&b));
                }
                report
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        reports
    }
}

/// One JVM per job list (`index`, `export?`, `path` lines), running
/// `VerifierBatch.java` (source-file mode: a JRE suffices), which gives
/// each file a fresh class loader so that the verifier's static state
/// starts anew, as in a JVM of its own; the JVM flags shorten its start.
const RUN_SH: &str = r#"jar=$1; dir=$2; batch=$3; shift 3
for list in "$@"; do
  java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "$batch" "$jar" "$dir" "$list" \
    >"$list.out" 2>&1 </dev/null &
done
wait
"#;

/// The batch driver run by [`RUN_SH`].
const BATCH_JAVA: &str = include_str!("VerifierBatch.java");

/// A fresh directory under the system's temporary directory.
pub fn scratch_dir(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "pbn-{what}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// The verifier reads and writes bytes as ISO 8859-1.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn game_header(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("% =")?.trim_start_matches('=');
    let rest = rest.strip_prefix(" game ")?;
    let (n, tail) = rest.split_once(' ')?;
    if !tail.chars().all(|c| c == '=') {
        return None;
    }
    n.parse().ok()
}

fn is_caret(line: &str) -> bool {
    line.contains('^') && line.chars().all(|c| c == '^' || c == ' ')
}

fn finding(line: &str) -> Option<(char, &str)> {
    let mut chars = line.chars();
    let kind = chars.next()?;
    let message = line.get(1..)?.strip_prefix(": ")?;
    matches!(kind, 'E' | 'S' | 'W' | 'R').then_some((kind, message))
}

/// Reads a `-v` report of `input` (both as text): games with their first
/// input line, findings with their offending line.
///
/// The echo is walked along the input: a log line equal to the next input
/// line (ignoring trailing white space) is that line, even when it looks
/// like a header or a finding; a header starts a game at the next input
/// line; a finding belongs to the last echoed line.
pub fn parse_log(log: &str, input: &str) -> Report {
    let lines: Vec<&str> = input.lines().map(str::trim_end).collect();
    let mut next = 0usize;
    let mut games: Vec<Game> = Vec::new();
    for l in log.lines() {
        let l = l.trim_end();
        if lines.get(next).is_some_and(|i| *i == l) {
            next += 1;
            continue;
        }
        if let Some(n) = game_header(l) {
            if games.last().is_none_or(|g| g.number != n) {
                games.push(Game {
                    number: n,
                    first_line: next,
                    findings: Vec::new(),
                });
            }
            continue;
        }
        if is_caret(l) {
            continue;
        }
        if let Some((kind, message)) = finding(l) {
            if games.is_empty() {
                games.push(Game {
                    number: 0,
                    first_line: 0,
                    findings: Vec::new(),
                });
            }
            let line = next.checked_sub(1);
            games.last_mut().unwrap().findings.push(Finding {
                kind,
                message: message.to_string(),
                line,
            });
            continue;
        }
        // An echo that differs from the input (a line the verifier
        // rewrote): resynchronise on the next few input lines.
        if let Some(k) = (next..lines.len().min(next + 4)).find(|&k| lines[k] == l) {
            next = k + 1;
        }
    }
    Report {
        games,
        export: None,
        log: log.to_string(),
    }
}

/// The games of an export-format file (to compare two exports game by
/// game): runs of non-blank lines, `%` lines left out.
pub fn export_blocks(text: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for line in text.lines() {
        if line.starts_with('%') {
            continue;
        }
        if line.trim().is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(line);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The differing runs of lines of two games, `a` and `b`: (a's lines,
/// b's lines), by a line diff.
pub fn line_differences<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<(Vec<&'a str>, Vec<&'a str>)> {
    let diff = similar::TextDiff::configure().diff_slices(a, b);
    diff.ops()
        .iter()
        .filter_map(|op| {
            let (o, t) = match *op {
                similar::DiffOp::Equal { .. } => return None,
                similar::DiffOp::Delete {
                    old_index, old_len, ..
                } => (&a[old_index..old_index + old_len], &b[0..0]),
                similar::DiffOp::Insert {
                    new_index, new_len, ..
                } => (&a[0..0], &b[new_index..new_index + new_len]),
                similar::DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => (
                    &a[old_index..old_index + old_len],
                    &b[new_index..new_index + new_len],
                ),
            };
            Some((o.to_vec(), t.to_vec()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_games_and_findings_on_input_lines() {
        let input = "% PBN 2.1\n[Event \"a\"]\n[Board \"x\"]\n\nE: odd\n[Event \"b\"]\n";
        let log = "% ==================== game 1 ====================\n\
                   % ==================== game 1 ====================\n\
                   % PBN 2.1\n[Event \"a\"]\n[Board \"x\"]\n       ^^^\nE: Bad tag value\n\n\
                   % ==================== game 2 ====================\n\
                   % ==================== game 2 ====================\n\
                   E: odd\n[Event \"b\"]\n";
        let r = parse_log(log, input);
        assert_eq!(r.games.len(), 2);
        assert_eq!(r.games[0].first_line, 0);
        assert_eq!(
            r.games[0].findings,
            [Finding {
                kind: 'E',
                message: "Bad tag value".into(),
                line: Some(2)
            }]
        );
        assert_eq!(r.games[1].number, 2);
        assert_eq!(r.games[1].first_line, 4);
        assert!(
            r.games[1].findings.is_empty(),
            "an input line is no finding"
        );
        assert_eq!(r.game_of_line(3), Some(0));
        assert_eq!(r.game_of_line(5), Some(1));
    }

    #[test]
    fn headers_carets_and_findings_are_recognised() {
        assert_eq!(game_header("% ========== game 12 =========="), Some(12));
        assert_eq!(game_header("% game 12"), None);
        assert!(is_caret("   ^^^ "));
        assert!(!is_caret("    "));
        assert_eq!(finding("S: Bad deal"), Some(('S', "Bad deal")));
        assert_eq!(finding("X: no"), None);
        assert_eq!(finding("E:no"), None);
    }
}
