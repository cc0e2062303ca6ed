//! Hostile inputs, each a test (issue 7): the shapes of `pbn_tests::hostile`
//! at the sizes the issue names (a 1 MB line, a 10 MB comment, 100k games,
//! 200k chained `#` values, 100k notes, a tag name of 100k characters, NUL
//! and control bytes, invalid UTF-8, files that are not PBN) and a few more.
//!
//! Each one is:
//! - run in process through the checker (import and export rules), the
//!   lowering, `pbn dump` and the formatter: no panic, and the piecewise
//!   check (`check_text`) equals the whole one (`check_whole`), limits on
//!   repeated diagnostics included;
//! - checked by the `pbn check` binary: it exits with 0 or 1 (no panic, no
//!   abort), every line it prints is short (a diagnostic quotes at most a
//!   few dozen characters of the file and shows a window of the source
//!   line), and its output is a snapshot (`snapshots/hostile__NAME.snap`):
//!   the diagnostics must stay clear;
//! - bounded in memory: the peak resident memory of `pbn check`, as its
//!   `--timings` reports it (VmHWM on Linux; deterministic enough to bound,
//!   unlike time), is at most the shape's `peak_mb`.
//!   (Not `ru_maxrss` from `wait4`: on Linux it also holds the memory of
//!   this test process, which the child was forked from.)
//!   Where the shape has a `fmt_peak_mb`, so is that of `pbn fmt -` (its
//!   VmHWM read while it writes: see [`pbn_fmt_peak_kb`]).
//!
//! And the language server takes every shape (one session, all of them):
//! it publishes the codes `pbn check` finds, also after an edit, and
//! formats.
//!
//! Time is not asserted (no timed assertions in tests): `pbn-bench hostile`
//! measures every shape at growing sizes and writes how time and memory
//! grow to BENCHMARKS.md.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use pbn_core::checker::{check_text, CheckOptions};
use pbn_core::reference::check_whole;
use pbn_core::text::decode;
use pbn_tests::binary::pbn_binary;
use pbn_tests::hostile::by_name;

/// The longest line `pbn check` may print.
const MAX_LINE: usize = 300;

fn in_process(name: &str, bytes: &[u8]) {
    let source = decode(bytes);
    for export in [false, true] {
        let opts = CheckOptions {
            export,
            ..Default::default()
        };
        let piecewise = check_text(&source, &opts);
        // The per-file and per-game limits are the same, piece by piece
        // (`pbn check`, the language server) or on the whole document.
        let whole = check_whole(&source, &opts);
        assert!(
            piecewise.diagnostics == whole.diagnostics,
            "{name}: check_text and check_whole differ (export {export})"
        );
    }
    let tree = pbn_core::syntax::parse_pieces(&source.text);
    let doc = pbn_core::model::lower(&tree, &source.text);
    let _ = pbn_core::model::dump::dump(&doc, &source.text);
    let _ = pbn_core::format::format(&source, &pbn_core::format::FormatOptions::default());
}

struct Cli {
    /// Exit code, or `None` when a signal ended the process.
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn pbn_check(path: &Path) -> Cli {
    let mut child = Command::new(pbn_binary())
        .args(["check", "--color", "never", "--timings"])
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pbn check");
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        out_pipe.read_to_end(&mut v).map(|_| v)
    });
    let mut err = Vec::new();
    err_pipe.read_to_end(&mut err).expect("read stderr");
    let out = out.join().unwrap().expect("read stdout");
    let code = child.wait().expect("wait for pbn check").code();
    Cli {
        code,
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// The peak resident memory in kB of `pbn fmt -` on the file at `path`
/// (`None` where `/proc` does not tell it), with its exit code. `pbn fmt`
/// has no `--timings`: its VmHWM is read after each chunk of output this
/// process reads, while it is still writing (blocked on the full pipe, its
/// formatting done: one huge game is written when it is all formatted).
/// What it allocates after its last write is not seen, so the reading is
/// never above the true peak.
fn pbn_fmt_peak_kb(path: &Path) -> (Option<i32>, Option<u64>) {
    let mut child = Command::new(pbn_binary())
        .args(["fmt", "-"])
        .stdin(std::fs::File::open(path).expect("open the input"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run pbn fmt -");
    let status = format!("/proc/{}/status", child.id());
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; 1 << 16];
    let mut peak = None;
    while out.read(&mut buf).expect("read pbn fmt's output") > 0 {
        if let Some(kb) = std::fs::read_to_string(&status)
            .ok()
            .and_then(|s| pbn_tests::hostile::status_hwm_kb(&s))
        {
            peak = Some(peak.unwrap_or(0).max(kb));
        }
    }
    let code = child.wait().expect("wait for pbn fmt").code();
    (code, peak)
}

fn hostile(name: &str) {
    let shape = by_name(name);
    let bytes = shape.input();
    let what = shape.describe(shape.n.unwrap_or(0));

    let result = std::panic::catch_unwind(|| in_process(name, &bytes));
    assert!(result.is_ok(), "{name} ({what}): panic in process");

    let path = std::env::temp_dir().join(format!("pbn-hostile-{}-{name}.pbn", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let cli = pbn_check(&path);
    let fmt = shape.fmt_peak_mb.map(|mb| (mb, pbn_fmt_peak_kb(&path)));
    let _ = std::fs::remove_file(&path);

    if let Some((limit_mb, (code, peak))) = fmt {
        assert!(
            matches!(code, Some(0 | 1)),
            "{name} ({what}): pbn fmt - ended with {code:?}"
        );
        match peak {
            Some(kb) => {
                assert!(
                    kb >> 10 <= limit_mb,
                    "{name} ({what}, {} bytes): pbn fmt peaked at {} MB, more than {limit_mb} MB",
                    bytes.len(),
                    kb >> 10
                );
                eprintln!("{name}: pbn fmt peak {} MB (limit {limit_mb} MB)", kb >> 10);
            }
            None => eprintln!("{name}: pbn fmt's peak memory not measured on this system"),
        }
    }

    assert!(
        matches!(cli.code, Some(0 | 1)),
        "{name} ({what}): pbn check ended with {:?}\nstderr: {}",
        cli.code,
        cli.stderr
    );
    let stats = cli.stderr.trim_end();
    assert!(
        stats.starts_with("pbn check: 1 file, ") && !stats.contains('\n'),
        "{name}: pbn check wrote more than its --timings line to stderr: {stats}"
    );
    for (i, line) in cli.stdout.lines().enumerate() {
        let n = line.chars().count();
        assert!(
            n <= MAX_LINE,
            "{name} ({what}): output line {} has {n} characters: {}…",
            i + 1,
            line.chars().take(120).collect::<String>()
        );
    }
    if let Some(rss) = pbn_tests::hostile::stats_peak_kb(stats).map(|kb| kb * 1024) {
        let limit = shape.peak_mb << 20;
        assert!(
            rss <= limit,
            "{name} ({what}, {} bytes): pbn check peaked at {} MB, more than {} MB",
            bytes.len(),
            rss >> 20,
            limit >> 20
        );
        eprintln!(
            "{name}: {} bytes, peak {} MB (limit {} MB)",
            bytes.len(),
            rss >> 20,
            limit >> 20
        );
    } else {
        eprintln!("{name}: peak memory not measured on this system ({stats})");
    }
    let report = cli.stdout.replace(&path.display().to_string(), "INPUT.pbn");
    insta::assert_snapshot!(name, format!("{what} ({} bytes)\n\n{report}", bytes.len()));
}

macro_rules! hostile_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                hostile(stringify!($name));
            }
        )*

        #[test]
        fn every_shape_has_a_test() {
            let tested = [$(stringify!($name)),*];
            for shape in pbn_tests::hostile::HOSTILE {
                assert!(tested.contains(&shape.name), "no test for the hostile input {}", shape.name);
            }
        }
    };
}

hostile_tests!(
    long_line,
    long_comment,
    many_games,
    chained_hash,
    many_notes,
    long_tag_name,
    control_bytes,
    invalid_utf8,
    not_pbn_prose,
    not_pbn_binary,
    unterminated_comments,
    empty,
    bom_and_cr,
    long_auction,
    long_play,
    many_note_references,
    brackets,
    nul_bytes,
    auction_line,
    play_line,
    tags_on_one_line,
    utf16,
);

/// The language server on every shape: it publishes the diagnostics `pbn
/// check` finds in the same text (the same codes, as many), survives a
/// one-character edit at the end and a formatting request, and shuts down
/// cleanly after all of them.
#[test]
fn the_language_server_takes_every_shape() {
    use pbn_tests::lsp_client::LspClient;
    use serde_json::json;
    let mut c = LspClient::spawn();
    c.initialize(&["utf-16"]);
    for (i, shape) in pbn_tests::hostile::HOSTILE.iter().enumerate() {
        let text = decode(&shape.input()).text;
        let uri = format!("file:///tmp/pbn-hostile/{}.pbn", shape.name);
        let codes = |text: &str| {
            let mut v: Vec<String> = check_text(
                &pbn_core::text::SourceText::from_text(text.to_owned()),
                &CheckOptions::default(),
            )
            .diagnostics
            .iter()
            .map(|d| d.code.code.to_string())
            .collect();
            v.sort();
            v
        };
        let published = |diags: Vec<serde_json::Value>| {
            let mut v: Vec<String> = diags
                .iter()
                .map(|d| d["code"].as_str().unwrap_or("?").to_string())
                .collect();
            v.sort();
            v
        };
        let version = 10 * i as i64;
        c.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "pbn", "version": version, "text": text}}));
        assert_eq!(
            published(c.diagnostics(&uri, version)),
            codes(&text),
            "{}: on open",
            shape.name
        );

        // Append one character at the end of the document (LSP lines end
        // at CR LF, CR or LF).
        let last_break = text.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let line = text
            .match_indices(['\n', '\r'])
            .filter(|&(i, m)| !(m == "\r" && text[i + 1..].starts_with('\n')))
            .count();
        let end = json!({"line": line, "character": text[last_break..].encode_utf16().count()});
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version + 1}, "contentChanges": [{"range": {"start": end, "end": end}, "text": "x"}]}),
        );
        let edited = format!("{text}x");
        // Asked for: diagnostics that did not change are not published
        // again.
        let pulled = c.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        );
        assert_eq!(
            published(
                pulled["result"]["items"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            ),
            codes(&edited),
            "{}: after an edit",
            shape.name
        );

        let fmt = c.request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
        );
        assert!(
            fmt.get("error").is_none(),
            "{}: formatting failed: {fmt}",
            shape.name
        );
        c.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
    }
    assert_eq!(c.shutdown(), Some(0));
}
