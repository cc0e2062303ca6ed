//! Runs the tree-sitter corpus tests in `test/corpus/**/*.txt` without the
//! tree-sitter CLI, so that `cargo test -p tree-sitter-pbn` checks the grammar
//! on any machine with a C compiler.
//!
//! The file format and the comparison follow `tree-sitter test` (CLI 0.27):
//!
//! * A test starts with a header: a line of three or more `=`, the test name
//!   (one or more lines), optional attribute lines (`:skip`, `:error`,
//!   `:fail-fast`, `:platform(os)`, `:language(name)`, `:cst`) and a closing
//!   line of three or more `=`. If the first `=` line of a file carries a
//!   suffix (`===|||`), every delimiter line of that file must carry it.
//! * The input runs up to the longest line of three or more `-` (with the same
//!   suffix; on a tie the last one). One trailing `\n` and then one `\r` are
//!   removed from the input.
//! * The expected s-expression follows. Lines whose first non-blank character
//!   is `;` are comments. White space is normalised before comparing.
//! * The actual tree is `root_node().to_sexp()`. Field names (`name: (`) are
//!   stripped from it unless the expected output contains at least one.
//! * `:error` only requires the tree to contain an ERROR or MISSING node.
//!
//! Every failure is reported at once, each with the expected and the actual
//! tree pretty-printed and a line diff.
//!
//! Environment variables:
//!
//! * `PBN_CORPUS_FILTER=text` runs only the cases whose `file: name` contains
//!   `text` (the minimum case count is then not checked).
//! * `PBN_CORPUS_UPDATE=1` rewrites the expected output of every failing case
//!   with the actual tree, like `tree-sitter test --update`, except that trees
//!   with ERROR or MISSING nodes are written too. Review the diff by hand.
//! * `PBN_CORPUS_SHOW_FIELDS=1` compares (and writes) field names even for
//!   cases whose expected output has none, like `--show-fields`.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use tree_sitter::Parser;

/// The corpus must not silently shrink: fewer cases than this fails the run.
const MIN_CASES: usize = 60;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test")
        .join("corpus")
}

// ---------------------------------------------------------------------------
// Corpus file format
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expectation {
    Pass,
    Error,
    Skip,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Attributes {
    expectation: Expectation,
    /// False when a `:platform(...)` attribute names other systems only.
    platform: bool,
    cst: bool,
    languages: Vec<String>,
}

#[derive(Debug, Clone)]
struct Case {
    name: String,
    /// 1-based line of the opening `===` line.
    line: usize,
    input: Vec<u8>,
    /// Normalised expected s-expression.
    expected: String,
    has_fields: bool,
    attributes: Attributes,
    /// Index of the first line after the `---` divider (expected output).
    output_start: usize,
    /// Index one past the last line of the expected output.
    output_end: usize,
}

#[derive(Debug, Default)]
struct ParsedFile {
    cases: Vec<Case>,
    /// Headers that were found but whose body has no `---` divider.
    problems: Vec<String>,
}

/// A line of three or more `c`, then an optional suffix. Returns the number
/// of delimiter characters and the suffix (without the line end).
fn delimiter_line(line: &str, c: char) -> Option<(usize, &str)> {
    let len = line.len() - line.trim_start_matches(c).len();
    if len < 3 {
        return None;
    }
    Some((len, line[len..].trim_end_matches(['\r', '\n'])))
}

fn suffix_matches(first_suffix: Option<&str>, suffix: &str) -> bool {
    match first_suffix {
        None => suffix.is_empty(),
        Some(first) => !suffix.is_empty() && first == suffix,
    }
}

struct Header {
    name: String,
    line: usize,
    attributes: Attributes,
    body_start: usize,
}

/// Parses the header that opens at `lines[start]`, if any.
fn parse_header(lines: &[&str], first_suffix: Option<&str>, start: usize) -> Option<Header> {
    let (_, suffix) = delimiter_line(lines[start], '=')?;
    if !suffix_matches(first_suffix, suffix) {
        return None;
    }
    let mut name = String::new();
    let mut seen_marker = false;
    let (mut skip, mut error, mut cst) = (false, false, false);
    let mut platform: Option<bool> = None;
    let mut languages = Vec::new();
    let mut i = start + 1;
    while i < lines.len() {
        if let Some((_, s)) = delimiter_line(lines[i], '=') {
            if suffix_matches(first_suffix, s) {
                break;
            }
        }
        let trimmed = lines[i].trim();
        // A blank line in the name region: this `===` was part of a test body.
        if trimmed.is_empty() && !seen_marker {
            return None;
        }
        let arg = |prefix: &str| {
            trimmed
                .strip_prefix(prefix)
                .and_then(|s| s.strip_suffix(')'))
                .map(str::trim)
        };
        match trimmed.split('(').next().unwrap_or("") {
            ":skip" => (seen_marker, skip) = (true, true),
            ":error" => (seen_marker, error) = (true, true),
            ":fail-fast" => seen_marker = true,
            ":cst" => (seen_marker, cst) = (true, true),
            ":platform" => {
                if let Some(os) = arg(":platform(") {
                    seen_marker = true;
                    platform = Some(platform.unwrap_or(false) || os == std::env::consts::OS);
                }
            }
            ":language" => {
                if let Some(lang) = arg(":language(") {
                    seen_marker = true;
                    languages.push(lang.to_owned());
                }
            }
            _ if !seen_marker => name.push_str(lines[i]),
            _ => {}
        }
        i += 1;
    }
    if i >= lines.len() {
        return None; // no closing `===` line
    }
    let expectation = if skip {
        Expectation::Skip
    } else if error {
        Expectation::Error
    } else {
        Expectation::Pass
    };
    Some(Header {
        name: name.trim_end().to_owned(),
        line: start + 1,
        attributes: Attributes {
            expectation,
            platform: platform.unwrap_or(true),
            cst,
            languages,
        },
        body_start: i + 1,
    })
}

/// Removes comment lines, collapses white space and drops the space before
/// `)`. Also tells whether the expected output names fields.
fn normalize_expected(raw: &str) -> (String, bool) {
    let mut out = String::with_capacity(raw.len());
    let mut prev_space = false;
    for line in raw.lines() {
        if line.trim_start().starts_with(';') {
            continue;
        }
        for ch in line.chars() {
            if ch.is_whitespace() {
                if !prev_space && !out.is_empty() {
                    out.push(' ');
                    prev_space = true;
                }
            } else {
                if ch == ')' && prev_space {
                    out.pop();
                }
                out.push(ch);
                prev_space = false;
            }
        }
        if !out.is_empty() && !prev_space {
            out.push(' ');
            prev_space = true;
        }
    }
    let out = out.trim_end().to_owned();
    let has_fields = out.contains(": (");
    (out, has_fields)
}

fn build_case(
    lines: &[&str],
    first_suffix: Option<&str>,
    header: Header,
    body_end: usize,
    problems: &mut Vec<String>,
) -> Option<Case> {
    let body = &lines[header.body_start..body_end];
    let mut divider: Option<usize> = None;
    let mut best = 0;
    for (j, line) in body.iter().enumerate() {
        if let Some((len, suffix)) = delimiter_line(line, '-') {
            if suffix_matches(first_suffix, suffix) && len + suffix.len() >= best {
                best = len + suffix.len();
                divider = Some(j);
            }
        }
    }
    let Some(divider) = divider else {
        problems.push(format!(
            "line {}: test {:?} has no `---` line between its input and its expected tree",
            header.line, header.name
        ));
        return None;
    };
    let mut input: Vec<u8> = body[..divider].iter().flat_map(|l| l.bytes()).collect();
    if input.last() == Some(&b'\n') {
        input.pop();
    }
    if input.last() == Some(&b'\r') {
        input.pop();
    }
    let raw_expected: String = body[divider + 1..].concat();
    let (expected, has_fields) = if header.attributes.cst {
        (raw_expected.trim().to_owned(), false)
    } else {
        normalize_expected(&raw_expected)
    };
    Some(Case {
        name: header.name,
        line: header.line,
        input,
        expected,
        has_fields,
        attributes: header.attributes,
        output_start: header.body_start + divider + 1,
        output_end: body_end,
    })
}

fn parse_corpus(content: &str) -> ParsedFile {
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let first_suffix = lines.iter().find_map(|l| match delimiter_line(l, '=') {
        Some((_, s)) if !s.is_empty() => Some(s.to_owned()),
        _ => None,
    });
    let first_suffix = first_suffix.as_deref();
    let mut parsed = ParsedFile::default();
    let mut pending: Option<Header> = None;
    let mut i = 0;
    while i < lines.len() {
        let Some(header) = parse_header(&lines, first_suffix, i) else {
            i += 1;
            continue;
        };
        let opening = i;
        i = header.body_start;
        if let Some(prev) = pending.take() {
            if let Some(case) =
                build_case(&lines, first_suffix, prev, opening, &mut parsed.problems)
            {
                parsed.cases.push(case);
            }
        }
        pending = Some(header);
    }
    if let Some(prev) = pending {
        if let Some(case) = build_case(
            &lines,
            first_suffix,
            prev,
            lines.len(),
            &mut parsed.problems,
        ) {
            parsed.cases.push(case);
        }
    }
    parsed
}

// ---------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------

/// Replaces ` name: (` with ` (`, as the CLI does for expectations without
/// field names.
fn strip_fields(sexp: &str) -> String {
    let mut out = String::with_capacity(sexp.len());
    let mut rest = sexp;
    while let Some(pos) = rest.find(": (") {
        if let Some(space) = rest[..pos].rfind(' ') {
            let word = &rest[space + 1..pos];
            if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                out.push_str(&rest[..=space]);
                out.push('(');
                rest = &rest[pos + 3..];
                continue;
            }
        }
        out.push_str(&rest[..pos + 3]);
        rest = &rest[pos + 3..];
    }
    out.push_str(rest);
    out
}

fn new_parser() -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_pbn::LANGUAGE.into())
        .expect("load the PBN grammar");
    parser
}

enum Outcome {
    Passed,
    Skipped,
    Failed { actual: String, message: String },
}

fn run_case(parser: &mut Parser, case: &Case, show_fields: bool) -> Outcome {
    let attrs = &case.attributes;
    if attrs.expectation == Expectation::Skip || !attrs.platform {
        return Outcome::Skipped;
    }
    if attrs.cst {
        return Outcome::Failed {
            actual: String::new(),
            message: "`:cst` tests are not supported by this harness".to_owned(),
        };
    }
    if let Some(lang) = attrs
        .languages
        .iter()
        .find(|l| !l.is_empty() && *l != "pbn")
    {
        return Outcome::Failed {
            actual: String::new(),
            message: format!("unknown language {lang:?} (only `pbn` is available)"),
        };
    }
    let Some(tree) = parser.parse(&case.input, None) else {
        return Outcome::Failed {
            actual: String::new(),
            message: "the parser returned no tree".to_owned(),
        };
    };
    let root = tree.root_node();
    let with_fields = show_fields || case.has_fields;
    let sexp = root.to_sexp();
    let actual = if with_fields {
        sexp
    } else {
        strip_fields(&sexp)
    };
    match attrs.expectation {
        Expectation::Error if root.has_error() => Outcome::Passed,
        Expectation::Error => Outcome::Failed {
            message: "expected an ERROR or MISSING node (`:error`), but the tree has none"
                .to_owned(),
            actual,
        },
        _ if actual == case.expected => Outcome::Passed,
        _ => {
            let expected = pretty_sexp(&case.expected);
            let pretty = pretty_sexp(&actual);
            let mut message = String::new();
            let _ = writeln!(message, "expected:\n{}", indent(&expected));
            let _ = writeln!(message, "actual:\n{}", indent(&pretty));
            let _ = write!(
                message,
                "diff (- expected, + actual):\n{}",
                line_diff(&expected, &pretty)
            );
            Outcome::Failed { actual, message }
        }
    }
}

/// Pretty-prints an s-expression one node a line, field names before their
/// node, like `tree-sitter test --update`. Quoted atoms such as
/// `(UNEXPECTED '%')` or `(MISSING "]")` are kept intact, so that the output
/// normalises back to the same string.
fn pretty_sexp(sexp: &str) -> String {
    let mut out = String::with_capacity(sexp.len() * 2);
    let mut depth = 0usize;
    let mut after_field = false;
    let mut chars = sexp.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '(' => {
                if !out.is_empty() && !after_field {
                    out.push('\n');
                    out.push_str(&"  ".repeat(depth));
                }
                after_field = false;
                out.push('(');
                depth += 1;
                // The node kind follows the parenthesis directly.
                while let Some(&k) = chars.peek() {
                    if k.is_whitespace() || k == '(' || k == ')' {
                        break;
                    }
                    out.push(k);
                    chars.next();
                }
            }
            ')' => {
                out.push(')');
                depth = depth.saturating_sub(1);
            }
            '\'' | '"' => {
                // A quoted atom: up to the next quote that ends the atom.
                out.push(' ');
                out.push(c);
                let mut first = true;
                while let Some(k) = chars.next() {
                    out.push(k);
                    let ends = matches!(chars.peek(), None | Some(')') | Some(' '));
                    if k == c && !first && ends {
                        break;
                    }
                    first = false;
                }
            }
            _ => {
                let mut atom = String::from(c);
                while let Some(&k) = chars.peek() {
                    if k.is_whitespace() || k == '(' || k == ')' {
                        break;
                    }
                    atom.push(k);
                    chars.next();
                }
                if atom.ends_with(':') {
                    out.push('\n');
                    out.push_str(&"  ".repeat(depth));
                    out.push_str(&atom);
                    out.push(' ');
                    after_field = true;
                } else {
                    out.push(' ');
                    out.push_str(&atom);
                }
            }
        }
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// A minimal line diff (longest common subsequence), enough for trees of a
/// few hundred lines.
fn line_diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            let _ = writeln!(out, "      {}", a[i]);
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "    - {}", a[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "    + {}", b[j]);
            j += 1;
        }
    }
    out
}

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = fs::read_dir(&d).unwrap_or_else(|e| panic!("read {}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            let hidden = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'));
            if hidden {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "txt") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Writes the actual trees of the failed cases back into the file.
fn update_file(path: &Path, content: &str, updates: &[(&Case, String)]) {
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let mut out = String::with_capacity(content.len());
    let mut next = 0;
    for (case, actual) in updates {
        out.extend(lines[next..case.output_start].iter().copied());
        out.push('\n');
        out.push_str(&pretty_sexp(actual));
        out.push('\n');
        if case.output_end < lines.len() {
            out.push('\n');
        }
        next = case.output_end;
    }
    out.extend(lines[next..].iter().copied());
    fs::write(path, out).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

#[test]
fn corpus() {
    let dir = corpus_dir();
    let filter = std::env::var("PBN_CORPUS_FILTER")
        .ok()
        .filter(|f| !f.is_empty());
    let update = env_flag("PBN_CORPUS_UPDATE");
    let show_fields = env_flag("PBN_CORPUS_SHOW_FIELDS");
    let files = corpus_files(&dir);
    assert!(!files.is_empty(), "no corpus files in {}", dir.display());

    let mut parser = new_parser();
    let mut total = 0;
    let mut passed = 0;
    let mut skipped = 0;
    let mut failures = Vec::new();
    let mut problems = Vec::new();
    let mut per_file = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let content =
            fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        let parsed = parse_corpus(&content);
        problems.extend(parsed.problems.iter().map(|p| format!("{rel}: {p}")));
        if parsed.cases.is_empty() {
            problems.push(format!("{rel}: no test cases found"));
        }
        per_file.push((rel.clone(), parsed.cases.len()));
        let mut updates = Vec::new();
        for case in &parsed.cases {
            let id = format!("{rel}: {}", case.name);
            if filter.as_deref().is_some_and(|f| !id.contains(f)) {
                continue;
            }
            total += 1;
            match run_case(&mut parser, case, show_fields) {
                Outcome::Passed => passed += 1,
                Outcome::Skipped => skipped += 1,
                Outcome::Failed { actual, message } => {
                    failures.push(format!("{rel}:{} {:?}\n{message}", case.line, case.name));
                    if update && !actual.is_empty() {
                        updates.push((case, actual));
                    }
                }
            }
        }
        if !updates.is_empty() {
            update_file(path, &content, &updates);
            eprintln!("updated {} case(s) in {rel}", updates.len());
        }
    }

    eprintln!("corpus cases per file:");
    for (file, n) in &per_file {
        eprintln!("  {file:<24} {n}");
    }
    eprintln!(
        "{total} case(s): {passed} passed, {skipped} skipped, {} failed",
        failures.len()
    );

    let mut report = String::new();
    for (i, failure) in failures.iter().enumerate() {
        let _ = writeln!(report, "\n[{}/{}] {failure}", i + 1, failures.len());
    }
    for problem in &problems {
        let _ = writeln!(report, "\n{problem}");
    }
    if filter.is_none() && total < MIN_CASES {
        let _ = writeln!(
            report,
            "\nonly {total} corpus cases found in {} (at least {MIN_CASES} expected): \
             did corpus files vanish?",
            dir.display()
        );
    }
    if update && !failures.is_empty() {
        eprintln!("{report}");
        eprintln!("PBN_CORPUS_UPDATE: expectations rewritten; review the diff and rerun");
        return;
    }
    assert!(report.is_empty(), "corpus test failures:\n{report}");
}

// ---------------------------------------------------------------------------
// Tests of the harness itself
// ---------------------------------------------------------------------------

#[test]
fn parses_the_cli_file_format() {
    let content = "\
==================
First test
==================
[Board \"1\"]
---

; a comment line
(document
  (game (tag_pair name: (tag_name) value: (string))))

=====
Second
test
:error
=====
---
----

(document)

===
Skipped
:skip
:platform(no-such-os)
===
x
---
";
    let parsed = parse_corpus(content);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    assert_eq!(parsed.cases.len(), 3);

    let first = &parsed.cases[0];
    assert_eq!(first.name, "First test");
    assert_eq!(first.line, 1);
    assert_eq!(first.input, b"[Board \"1\"]");
    assert_eq!(
        first.expected,
        "(document (game (tag_pair name: (tag_name) value: (string))))"
    );
    assert!(first.has_fields);
    assert_eq!(first.attributes.expectation, Expectation::Pass);

    // A name may span lines; the longest divider wins, so `---` is input.
    let second = &parsed.cases[1];
    assert_eq!(second.name, "Second\ntest");
    assert_eq!(second.input, b"---");
    assert_eq!(second.attributes.expectation, Expectation::Error);
    assert!(!second.has_fields);

    let third = &parsed.cases[2];
    assert_eq!(third.attributes.expectation, Expectation::Skip);
    assert!(!third.attributes.platform);
    assert_eq!(third.expected, "");
}

#[test]
fn parses_suffixed_delimiters_and_crlf_input() {
    let content = "===|||\nCRLF\n===|||\n[Board \"1\"]\r\n\r\n===\n---\n---|||\n(document)\n";
    let parsed = parse_corpus(content);
    assert_eq!(parsed.cases.len(), 1, "{:?}", parsed.problems);
    let case = &parsed.cases[0];
    // `===` and `---` without the suffix are input; one "\n" then one "\r"
    // are stripped from the end.
    assert_eq!(case.input, b"[Board \"1\"]\r\n\r\n===\n---");
    assert_eq!(case.expected, "(document)");
}

#[test]
fn reports_a_missing_divider() {
    let parsed = parse_corpus("===\nno divider\n===\n[Board \"1\"]\n");
    assert!(parsed.cases.is_empty());
    assert_eq!(parsed.problems.len(), 1);
}

#[test]
fn strips_field_names_like_the_cli() {
    assert_eq!(
        strip_fields("(tag_pair name: (tag_name) value: (string))"),
        "(tag_pair (tag_name) (string))"
    );
    assert_eq!(strip_fields("(MISSING \"]\")"), "(MISSING \"]\")");
}

#[test]
fn a_wrong_expectation_fails() {
    let content =
        "===\nwrong\n===\n[Board \"1\"]\n---\n(document (game (tag_pair (tag_name) (nag))))\n\
                   ===\nno error\n:error\n===\n[Board \"1\"]\n---\n";
    let parsed = parse_corpus(content);
    let mut parser = new_parser();
    for case in &parsed.cases {
        match run_case(&mut parser, case, false) {
            Outcome::Failed { .. } => {}
            _ => panic!("case {:?} should fail", case.name),
        }
    }
    let right =
        "===\nright\n===\n[Board \"1\"]\n---\n(document (game (tag_pair (tag_name) (string))))\n";
    let parsed = parse_corpus(right);
    assert!(matches!(
        run_case(&mut parser, &parsed.cases[0], false),
        Outcome::Passed
    ));
}

#[test]
fn diff_marks_changed_lines() {
    let diff = line_diff("(a\n  (b)\n  (c))", "(a\n  (b)\n  (d))");
    assert!(diff.contains("    -   (c))"), "{diff}");
    assert!(diff.contains("    +   (d))"), "{diff}");
    assert!(diff.contains("        (b)"), "{diff}");
}

#[test]
fn pretty_printing_round_trips() {
    let sexp = "(document (game (tag_pair name: (tag_name) value: (unterminated_string) \
                (MISSING \"]\"))) (ERROR (UNEXPECTED '%') (invalid_call) (UNEXPECTED '.')) \
                (ERROR (UNEXPECTED ''')))";
    let pretty = pretty_sexp(sexp);
    assert_eq!(normalize_expected(&pretty).0, sexp, "{pretty}");
    assert!(pretty.contains("\n      name: (tag_name)\n"), "{pretty}");
}
