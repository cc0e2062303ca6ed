//! `pbn-bench`: benchmarks of the PBN tooling, written into BENCHMARKS.md.
//!
//! Each subcommand measures one thing and rewrites its own section of
//! BENCHMARKS.md (repo root), delimited by `<!-- bench:NAME:start -->` and
//! `<!-- bench:NAME:end -->`; text outside the markers is left alone. To add
//! a benchmark: write a `fn NAME(args: &Args) -> Result<String, String>`
//! returning the section's markdown, and add it to [`SUBCOMMANDS`].
//!
//! This is a binary, not a test: timings are reported, never asserted.
//! Run it in release mode:
//!
//! ```text
//! cargo run --release -p pbn-tests --bin pbn-bench -- parse [--full] [--ablation]
//! cargo run --release -p pbn-tests --bin pbn-bench -- parse --quick   # CI smoke run
//! cargo run --release -p pbn-tests --bin pbn-bench -- check [--budget S] [--pbn PATH] [--python PATH]
//! cargo run --release -p pbn-tests --bin pbn-bench -- check --quick   # CI smoke run
//! cargo run --release -p pbn-tests --bin pbn-bench -- fmt [--games N]
//! cargo run --release -p pbn-tests --bin pbn-bench -- lsp [--games N] [--budget S] [--pbn PATH] [--perf DIR]
//! cargo run --release -p pbn-tests --bin pbn-bench -- lsp --quick     # CI smoke run
//! cargo run --release -p pbn-tests --bin pbn-bench -- lsp-clean [--games N]
//! cargo run --release -p pbn-tests --bin pbn-bench -- dd [--games N] [--sample N] [--python PATH]
//! cargo run --release -p pbn-tests --bin pbn-bench -- dd --quick      # CI smoke run (no endplay)
//! cargo run --release -p pbn-tests --bin pbn-bench -- hostile [--big]  # --big: 50 MB shapes, slow
//! cargo run --release -p pbn-tests --bin pbn-bench -- shown --no-write   # diagnostics on open
//! cargo run --release -p pbn-tests --bin pbn-bench -- lsp-quiet   # bytes per keystroke, screenful
//! ```
//!
//! Larger subcommands live in `tests/src/bench/NAME.rs`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use pbn_tests::gen::{generate, GenOptions};

type Subcommand = fn(&Args) -> Result<String, String>;

/// `(name, summary, run)`. `name` is also the BENCHMARKS.md section name.
const SUBCOMMANDS: &[(&str, &str, Subcommand)] = &[
    (
        "parse",
        "tree-sitter-pbn parse throughput on one core (MB/s)",
        parse::run,
    ),
    (
        "check",
        "pbn check (in-process and CLI) against the bare parse, endplay and wc -l",
        check::run,
    ),
    (
        "fmt",
        "pbn fmt (in-process and CLI) against endplay load + write",
        fmt::run,
    ),
    (
        "lsp",
        "pbn lsp over stdio: open, edits, hover, completion, formatting, memory",
        lsp::run,
    ),
    (
        "lsp-clean",
        "the same on files without diagnostics: does an edit's cost grow with the file?",
        lsp::run_clean,
    ),
    (
        "dd",
        "double-dummy tables of 1,000 random deals against endplay's calc_all_tables",
        dd::run,
    ),
    (
        "hostile",
        "pbn check on the hostile inputs at growing sizes: time exponent, peak memory",
        hostile::run,
    ),
    (
        "lsp-quiet",
        "what the language server sends when little changed; screenful tokens; code-action lists",
        lsp_quiet::run,
    ),
    (
        "shown",
        "diagnostics shown on open, each listed and grouped (file-wide patterns)",
        shown::run,
    ),
    (
        "scaling",
        "pbn check on fuzz corpus inputs repeated 4 and 64 times: does it stay linear?",
        scaling::run,
    ),
];

#[path = "../bench/check.rs"]
mod check;
#[path = "../bench/dd.rs"]
mod dd;
#[path = "../bench/fmt.rs"]
mod fmt;
#[path = "../bench/hostile.rs"]
mod hostile;
#[path = "../bench/lsp.rs"]
mod lsp;
#[path = "../bench/lsp_quiet.rs"]
mod lsp_quiet;
#[path = "../bench/scaling.rs"]
mod scaling;
#[path = "../bench/shown.rs"]
mod shown;

/// Parse throughput target (MB/s, one core).
const PARSE_TARGET_MB_S: f64 = 9.0;

fn help() -> String {
    let mut s = String::from(
        "pbn-bench: benchmarks of the PBN tooling; results go to BENCHMARKS.md\n\n\
         USAGE:\n    pbn-bench <SUBCOMMAND> [OPTIONS]\n\nSUBCOMMANDS:\n",
    );
    for (name, summary, _) in SUBCOMMANDS {
        s += &format!("    {name:<10} {summary}\n");
    }
    s += "\nOPTIONS:\n\
         \x20   --quick          tiny sizes, 2 repetitions, BENCHMARKS.md untouched (CI smoke run)\n\
         \x20   --full           also the largest size (parse: 100k games)\n\
         \x20   --big            hostile: every shape at 50 MB instead (check, fmt, dump: peak\n\
         \x20                    memory and wall time; slow; BENCHMARKS.md untouched)\n\
         \x20   --big-mb N       hostile --big: every shape at N MB instead of 50 (implies --big)\n\
         \x20   --only NAME      hostile: only the shapes whose name contains NAME\n\
         \x20   --games N        check: the largest size (default 20000; also 1000 and 2000 run);\n\
         \x20                    lsp, lsp-clean: the largest size (default 100000; also 1000 and 20000 run);\n\
         \x20                    dd: the number of deals (default 1000)\n\
         \x20   --perf DIR       lsp: record the server with `perf record` during its edits into DIR\n\
         \x20   --budget S       check, lsp: skip a measurement whose run at a size is estimated to take\n\
         \x20                    more than S seconds, and report the estimate (default 120; 0: no limit)\n\
         \x20   --pbn PATH       check: the pbn CLI to time (default: $PBN_BIN, else built with\n\
         \x20                    `cargo build --release -p pbn` in this binary's target directory)\n\
         \x20   --python PATH    check: a Python with endplay (default: $PBN_BENCH_PYTHON, else\n\
         \x20                    <repo>/.venv/bin/python, created with `pip install endplay` if missing)\n\
         \x20   --detail         check: also the time of each stage; lsp: also what the\n\
         \x20                    server keeps in memory, by structure\n\
         \x20   --ablation       parse: also time the 20k file with comments, notes and\n\
         \x20                    NAGs stripped, to isolate their cost\n\
         \x20   --reps N         repetitions per measurement (default: by size)\n\
         \x20   --seed S         generator seed (default 1)\n\
         \x20   --no-write       print the section, do not update BENCHMARKS.md\n\
         \x20   --out FILE       the markdown file to update (default: <repo>/BENCHMARKS.md)\n\
         \x20   --dump DIR       also write every input file to DIR (for perf, callgrind, ...);\n\
         \x20                    check: keep its input files there\n\
         \x20   --corpus DIR     scaling: the fuzz corpus to sample (default fuzz/corpus/parse_check)\n\
         \x20   --sample N       scaling: how many of its inputs (default 2000); dd: the deals\n\
         \x20                    solved on one thread (default 300)\n\
         \x20   -h, --help       print this help\n";
    s
}

/// Options shared by all subcommands.
#[derive(Debug, Clone)]
struct Args {
    subcommand: String,
    quick: bool,
    full: bool,
    big: bool,
    /// `hostile --big`: the size of every shape, MB (default 50).
    big_mb: Option<usize>,
    /// `hostile`: only the shapes whose name contains this.
    only: Option<String>,
    ablation: bool,
    /// check: also the stage rows; lsp: also what the server keeps in memory.
    detail: bool,
    reps: Option<usize>,
    seed: u64,
    /// `check`: the largest size.
    games: Option<usize>,
    /// `check`: seconds one run may be estimated to take (0: no limit).
    budget: f64,
    /// `check`: the pbn CLI to time.
    pbn_bin: Option<PathBuf>,
    /// `check`: a Python interpreter that can import endplay.
    python: Option<PathBuf>,
    /// `lsp`: record the server with `perf record` during its edits.
    perf: Option<PathBuf>,
    write: bool,
    out: PathBuf,
    /// Also write every input to this directory (for external profilers).
    dump: Option<PathBuf>,
    /// `scaling`: the fuzz corpus to sample.
    corpus: Option<PathBuf>,
    /// `scaling`: how many of its inputs.
    sample: Option<usize>,
    /// The command line as given, for the report.
    argv: Vec<String>,
}

/// The repository root (the parent of the `tests` crate).
fn repo_root() -> PathBuf {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    tests.parent().map(PathBuf::from).unwrap_or(tests)
}

fn parse_args(argv: Vec<String>) -> Result<Option<Args>, String> {
    let mut args = Args {
        subcommand: String::new(),
        quick: false,
        full: false,
        big: false,
        big_mb: None,
        only: None,
        ablation: false,
        detail: false,
        reps: None,
        seed: 1,
        games: None,
        budget: 120.0,
        pbn_bin: None,
        python: None,
        perf: None,
        write: true,
        out: repo_root().join("BENCHMARKS.md"),
        dump: None,
        corpus: None,
        sample: None,
        argv: argv.clone(),
    };
    let mut it = argv.into_iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--quick" => args.quick = true,
            "--full" => args.full = true,
            "--big" => args.big = true,
            "--big-mb" => {
                let v = value("--big-mb")?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("--big-mb: not a size: {v}"))?;
                args.big = true;
                args.big_mb = Some(n.max(1));
            }
            "--only" => args.only = Some(value("--only")?),
            "--ablation" => args.ablation = true,
            "--detail" => args.detail = true,
            "--no-write" => args.write = false,
            "--reps" => {
                let v = value("--reps")?;
                let n: usize = v.parse().map_err(|_| format!("--reps: not a count: {v}"))?;
                args.reps = Some(n.max(1));
            }
            "--seed" => {
                let v = value("--seed")?;
                args.seed = v
                    .parse()
                    .map_err(|_| format!("--seed: not an integer: {v}"))?;
            }
            "--games" => {
                let v = value("--games")?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("--games: not a count: {v}"))?;
                args.games = Some(n.max(1));
            }
            "--budget" => {
                let v = value("--budget")?;
                let b: f64 = v
                    .parse()
                    .map_err(|_| format!("--budget: not a number of seconds: {v}"))?;
                args.budget = b.max(0.0);
            }
            "--pbn" => args.pbn_bin = Some(PathBuf::from(value("--pbn")?)),
            "--python" => args.python = Some(PathBuf::from(value("--python")?)),
            "--perf" => args.perf = Some(PathBuf::from(value("--perf")?)),
            "--out" => args.out = PathBuf::from(value("--out")?),
            "--dump" => args.dump = Some(PathBuf::from(value("--dump")?)),
            "--corpus" => args.corpus = Some(PathBuf::from(value("--corpus")?)),
            "--sample" => {
                let v = value("--sample")?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("--sample: not a count: {v}"))?;
                args.sample = Some(n.max(1));
            }
            s if !s.starts_with('-') && args.subcommand.is_empty() => {
                args.subcommand = s.to_string()
            }
            other => return Err(format!("unknown argument: {other}")),
        }
    }
    if args.subcommand.is_empty() {
        return Err("missing subcommand".into());
    }
    if args.quick || args.big {
        args.write = false;
    }
    Ok(Some(args))
}

fn main() -> ExitCode {
    // The allocator setup of the `pbn` binary, so that in-process times
    // are those of the CLI.
    pbn::alloc::init();
    if let Some(file) = std::env::var_os(dd::ONE_THREAD_CHILD) {
        return dd::one_thread_child(&file);
    }
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(argv) {
        Ok(Some(a)) => a,
        Ok(None) => {
            print!("{}", help());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("pbn-bench: {e}\n\n{}", help());
            return ExitCode::from(2);
        }
    };
    let Some(&(name, _, run)) = SUBCOMMANDS.iter().find(|(n, _, _)| *n == args.subcommand) else {
        eprintln!(
            "pbn-bench: unknown subcommand {}\n\n{}",
            args.subcommand,
            help()
        );
        return ExitCode::from(2);
    };
    if cfg!(debug_assertions) {
        eprintln!("pbn-bench: warning: this is a debug build; run with --release for real numbers");
    }
    match run(&args) {
        Ok(body) => {
            println!("{body}");
            if args.write {
                if let Err(e) = report::update_file(&args.out, name, &body) {
                    eprintln!("pbn-bench: cannot update {}: {e}", args.out.display());
                    return ExitCode::FAILURE;
                }
                eprintln!(
                    "pbn-bench: updated section `{name}` of {}",
                    args.out.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pbn-bench {name}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Timing helpers.
mod timing {
    use super::*;

    /// Best and median of a set of measurements.
    #[derive(Debug, Clone, Copy)]
    pub struct Summary {
        pub best: Duration,
        pub median: Duration,
        pub reps: usize,
    }

    /// Runs `f` `reps` times (after one untimed warm-up run done by the
    /// caller) and summarises the durations `f` reports.
    pub fn measure(reps: usize, mut f: impl FnMut() -> Duration) -> Summary {
        let mut ds: Vec<Duration> = (0..reps.max(1)).map(|_| f()).collect();
        ds.sort();
        let n = ds.len();
        let median = if n % 2 == 1 {
            ds[n / 2]
        } else {
            (ds[n / 2 - 1] + ds[n / 2]) / 2
        };
        Summary {
            best: ds[0],
            median,
            reps: n,
        }
    }

    /// Median milliseconds of `check_text` on `bytes` (decode included,
    /// import rules), after one untimed run; a short run is repeated
    /// `reps` times or for `min_total` in all, whichever is more, at most
    /// `max_reps` times (one millisecond measured 3 times is mostly noise).
    pub fn check_ms(bytes: &[u8], reps: usize, min_total: Duration, max_reps: usize) -> f64 {
        let opts = pbn_core::checker::CheckOptions::default();
        let once = || {
            let t = Instant::now();
            let r = pbn_core::checker::check_text(&pbn_core::text::decode(bytes), &opts);
            let d = t.elapsed();
            drop(r);
            d
        };
        let first = once();
        let reps = reps
            .max((min_total.as_secs_f64() / first.as_secs_f64().max(1e-6)).ceil() as usize)
            .min(max_reps);
        measure(reps, once).median.as_secs_f64() * 1e3
    }

    /// k of time ∝ size^k between (bytes, ms) points `a` and `b`; `None`
    /// when a time is zero or `b` is not larger.
    pub fn exponent(a: (usize, f64), b: (usize, f64)) -> Option<f64> {
        (a.1 > 0.0 && b.1 > 0.0 && b.0 > a.0)
            .then(|| (b.1 / a.1).ln() / (b.0 as f64 / a.0 as f64).ln())
    }

    /// Megabytes (10^6 bytes) per second.
    pub fn mb_per_s(bytes: usize, d: Duration) -> f64 {
        bytes as f64 / 1e6 / d.as_secs_f64()
    }
}

/// Writing the report: machine description and marked-section replacement.
mod report {
    use std::path::Path;

    pub fn start_marker(name: &str) -> String {
        format!("<!-- bench:{name}:start -->")
    }

    pub fn end_marker(name: &str) -> String {
        format!("<!-- bench:{name}:end -->")
    }

    /// Replaces the body between the `name` markers of `doc` with `body`, or
    /// appends a new marked section when `doc` has none. Text outside the
    /// markers, other sections included, is kept byte for byte.
    pub fn replace_section(doc: &str, name: &str, body: &str) -> String {
        let (start, end) = (start_marker(name), end_marker(name));
        let body = body.trim_matches('\n');
        if let Some(s) = doc.find(&start) {
            if let Some(e_rel) = doc[s + start.len()..].find(&end) {
                let e = s + start.len() + e_rel;
                return format!("{}{start}\n{body}\n{}", &doc[..s], &doc[e..]);
            }
        }
        let mut out = doc.to_string();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.is_empty() && !out.ends_with("\n\n") {
            out.push('\n');
        }
        out += &format!("{start}\n{body}\n{end}\n");
        out
    }

    const PREAMBLE: &str = "# Benchmarks\n\n\
        Written by `pbn-bench` (`tests/src/bin/pbn-bench.rs`). Each section between\n\
        `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` is regenerated by\n\
        `cargo run --release -p pbn-tests --bin pbn-bench -- NAME`; edit only outside\n\
        the markers. Inputs come from the deterministic generator\n\
        (`tests/src/gen.rs`, also `pbn-gen`). MB = 10^6 bytes.\n";

    /// Rewrites the `name` section of the markdown file at `path`, creating
    /// the file (with a short preamble) when it does not exist.
    pub fn update_file(path: &Path, name: &str, body: &str) -> std::io::Result<()> {
        let doc = match std::fs::read_to_string(path) {
            Ok(d) => d,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => PREAMBLE.to_string(),
            Err(e) => return Err(e),
        };
        std::fs::write(path, replace_section(&doc, name, body))
    }

    /// CPU model and core count, from /proc/cpuinfo.
    pub fn machine() -> String {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let model = info
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == "model name").then(|| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown CPU".into());
        let logical = info.lines().filter(|l| l.starts_with("processor")).count();
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(logical);
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| "?".into());
        format!("{model}, {cores} cores available ({logical} logical CPUs); load average {load} at start")
    }

    /// The git commit of the working tree, marked `+dirty` with local changes.
    pub fn commit() -> String {
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
        match git(&["rev-parse", "--short", "HEAD"]) {
            Some(h) => {
                let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                    .is_some_and(|s| !s.is_empty());
                if dirty {
                    format!("{h}+dirty")
                } else {
                    h
                }
            }
            None => "unknown".into(),
        }
    }

    /// Current UTC time as `YYYY-MM-DD HH:MM UTC`.
    pub fn utc_now() -> String {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (y, m, d) = civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
            rem / 3600,
            rem % 3600 / 60
        )
    }

    /// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
    /// (H. Hinnant's algorithm).
    pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
        let z = z + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let y = yoe + era * 400 + i64::from(m <= 2);
        (y, m, d)
    }

    /// When, on which commit and machine, and with which command a section
    /// was measured: its first paragraphs.
    pub fn provenance(argv: &[String]) -> String {
        format!(
            "{}; commit {}; {}.\n\nCommand: `{}`\n\n",
            utc_now(),
            commit(),
            machine(),
            command(argv)
        )
    }

    /// The command that reproduces a run.
    pub fn command(argv: &[String]) -> String {
        let mut s = String::from("cargo run --release -p pbn-tests --bin pbn-bench --");
        for a in argv {
            s.push(' ');
            s.push_str(&portable(a));
        }
        s
    }

    /// A path as any reader can type it, not this machine's: a built `pbn`
    /// as `target/release/pbn`, any other absolute path by its file name
    /// (a program on the PATH, such as `python3`). Other text as it is.
    pub fn portable(a: &str) -> String {
        let path = std::path::Path::new(a);
        if !path.is_absolute() {
            return a.to_owned();
        }
        match path.file_name().and_then(|n| n.to_str()) {
            Some("pbn") => "target/release/pbn".to_owned(),
            Some(name) => name.to_owned(),
            None => a.to_owned(),
        }
    }

    /// Bytes as a short human size.
    pub fn size(bytes: usize) -> String {
        if bytes >= 1_000_000 {
            format!("{:.1} MB", bytes as f64 / 1e6)
        } else {
            format!("{:.0} kB", bytes as f64 / 1e3)
        }
    }
}

/// `parse`: tree-sitter-pbn parse throughput.
mod parse {
    use super::*;
    use timing::{mb_per_s, measure, Summary};

    struct Row {
        label: String,
        games: usize,
        bytes: usize,
        nodes: usize,
        has_error: bool,
        t: Summary,
    }

    fn parser() -> tree_sitter::Parser {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_pbn::LANGUAGE.into())
            .expect("tree-sitter-pbn ABI");
        p
    }

    fn count_nodes(tree: &tree_sitter::Tree) -> usize {
        let mut cursor = tree.walk();
        let mut n = 0;
        loop {
            n += 1;
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            loop {
                if !cursor.goto_parent() {
                    return n;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }

    /// Times `reps` rounds over all `inputs` (label, games, text). Each
    /// input gets one untimed warm-up parse (which also counts nodes and
    /// checks for errors); the timed parses are interleaved round-robin so
    /// that a burst of load from other processes hits every input alike.
    /// Only `Parser::parse` is timed, not dropping the tree.
    fn bench(inputs: &[(String, usize, &str)], reps: usize) -> Vec<Row> {
        let mut p = parser();
        let mut rows: Vec<(Row, Vec<Duration>)> = inputs
            .iter()
            .map(|(label, games, text)| {
                let tree = p.parse(text, None).expect("parse");
                let nodes = count_nodes(&tree);
                let has_error = tree.root_node().has_error();
                drop(tree);
                let t = Summary {
                    best: Duration::ZERO,
                    median: Duration::ZERO,
                    reps: 0,
                };
                (
                    Row {
                        label: label.clone(),
                        games: *games,
                        bytes: text.len(),
                        nodes,
                        has_error,
                        t,
                    },
                    Vec::new(),
                )
            })
            .collect();
        for _ in 0..reps.max(1) {
            for ((_, _, text), (_, times)) in inputs.iter().zip(rows.iter_mut()) {
                let start = Instant::now();
                let tree = p.parse(text, None).expect("parse");
                times.push(start.elapsed());
                drop(tree);
            }
        }
        rows.into_iter()
            .map(|(mut row, times)| {
                let mut it = times.into_iter();
                row.t = measure(reps, || it.next().unwrap());
                eprintln!(
                    "  {:<28} {:>10} {:>8.2} MB/s best {:>8.2} MB/s median ({} reps){}",
                    row.label,
                    report::size(row.bytes),
                    mb_per_s(row.bytes, row.t.best),
                    mb_per_s(row.bytes, row.t.median),
                    row.t.reps,
                    if row.has_error { "  HAS ERRORS" } else { "" }
                );
                row
            })
            .collect()
    }

    /// Writes an input to `--dump DIR`, named after its label.
    fn dump(args: &Args, label: &str, text: &str) -> Result<(), String> {
        let Some(dir) = &args.dump else { return Ok(()) };
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let name: String = label
            .chars()
            .filter_map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' => Some(c),
                ' ' | '-' => Some('-'),
                _ => None,
            })
            .collect();
        let path = dir.join(format!("parse-{}.pbn", name.trim_matches('-')));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    fn default_reps(games: usize) -> usize {
        match games {
            0..=2_000 => 20,
            2_001..=30_000 => 7,
            _ => 3,
        }
    }

    pub fn run(args: &Args) -> Result<String, String> {
        let sizes: Vec<usize> = if args.quick {
            vec![50]
        } else if args.full {
            vec![1_000, 20_000, 100_000]
        } else {
            vec![1_000, 20_000]
        };
        let reps = |g| {
            args.reps
                .unwrap_or(if args.quick { 2 } else { default_reps(g) })
        };
        let opts = GenOptions::default();
        eprintln!("pbn-bench parse: sizes {sizes:?} games, seed {}", args.seed);
        let mut rows = Vec::new();
        for &g in &sizes {
            let text = generate(g, args.seed, &opts);
            let label = format!("{g} games");
            dump(args, &label, &text)?;
            rows.extend(bench(&[(label, g, &text)], reps(g)));
        }
        let mut ablation = Vec::new();
        if args.ablation {
            let g = if args.quick { 50 } else { 20_000 };
            let text = generate(g, args.seed, &opts);
            let no_brace = strip::brace_comments(&text);
            let no_comments = strip::semicolon_comments(&no_brace);
            let no_notes = strip::notes(&no_comments);
            let bare = strip::nags(&no_notes);
            let inputs: Vec<(String, usize, &str)> = [
                ("as generated", &text),
                ("without {} comments", &no_brace),
                ("without any comments", &no_comments),
                ("... and without notes", &no_notes),
                ("... and without NAGs", &bare),
            ]
            .into_iter()
            .map(|(label, t)| (label.to_string(), g, t.as_str()))
            .collect();
            for (label, _, t) in &inputs {
                dump(args, &format!("{g} {label}"), t)?;
            }
            ablation = bench(&inputs, reps(g));
        }
        if rows.iter().chain(&ablation).any(|r| r.has_error) {
            return Err(
                "a generated file parsed with errors; the numbers would be meaningless".into(),
            );
        }

        // The verdict uses the median of the largest file.
        let big = rows.last().unwrap();
        let verdict_mb_s = mb_per_s(big.bytes, big.t.median);
        let met = verdict_mb_s >= PARSE_TARGET_MB_S;

        let mut md = String::new();
        md += "## Parse throughput (tree-sitter-pbn)\n\n";
        md += &format!("- Machine: {}\n", report::machine());
        md += &format!("- Command: `{}`\n", report::command(&args.argv));
        md += &format!(
            "- Date: {}; commit {}\n",
            report::utc_now(),
            report::commit()
        );
        md += &format!(
            "- Input: `pbn_tests::gen::generate(N, seed {}, default options)`: realistic export-format \
             games with auction, play, notes, NAGs, comments and tables (LF)\n",
            args.seed
        );
        md += "- Method: one `tree_sitter::Parser` on one thread, full (non-incremental) parse of the \
               in-memory file; one untimed warm-up, then N timed parses; dropping the tree is not timed\n\n";
        md += &table(&rows);
        md += &if args.quick {
            format!("\nTarget: >= {PARSE_TARGET_MB_S} MB/s on one core: not judged in a `--quick` smoke run.\n")
        } else {
            format!(
                "\nTarget: >= {PARSE_TARGET_MB_S} MB/s on one core (median, {} file): **{}** ({:.2} MB/s).\n",
                big.label,
                if met { "met" } else { "missed" },
                verdict_mb_s
            )
        };
        if !ablation.is_empty() {
            md += &format!(
                "\nAblation (`--ablation`): the same {}-game file with parts stripped (the text is \
                 edited, not regenerated, so the games are the same), timed round-robin; µs/game \
                 isolates what each part costs. Wall-clock differences of a few percent are noise on a \
                 shared machine; for exact attribution count instructions (`--dump DIR`, then \
                 `valgrind --tool=callgrind`).\n\n",
                ablation[0].games
            );
            md += &table(&ablation);
        }
        Ok(md)
    }

    fn table(rows: &[Row]) -> String {
        let mut md = String::from(
            "| input | games | size | nodes | reps | best MB/s | median MB/s | median ms | µs/game |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        for r in rows {
            md += &format!(
                "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} | {:.1} |\n",
                r.label,
                r.games,
                report::size(r.bytes),
                r.nodes,
                r.t.reps,
                mb_per_s(r.bytes, r.t.best),
                mb_per_s(r.bytes, r.t.median),
                r.t.median.as_secs_f64() * 1e3,
                r.t.median.as_secs_f64() * 1e6 / r.games as f64,
            );
        }
        md
    }
}

/// Text transforms on generated files (whose structure is regular: no `{`,
/// `}` or `;` inside tag values except `;` in table column lists, no `"`
/// in comments) used by the ablation runs.
mod strip {
    /// Removes `{...}` comments; a line left blank by it is removed too, so
    /// that no game break appears.
    pub fn brace_comments(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut in_comment = false;
        for line in text.split_inclusive('\n') {
            let (content, eol) = split_eol(line);
            let mut kept = String::new();
            let mut in_string = false;
            for ch in content.chars() {
                match (in_comment, ch) {
                    (true, '}') => in_comment = false,
                    (true, _) => {}
                    (false, '"') => {
                        in_string = !in_string;
                        kept.push(ch)
                    }
                    (false, '{') if !in_string => in_comment = true,
                    (false, _) => kept.push(ch),
                }
            }
            let kept = kept.trim_end();
            if kept.trim().is_empty() && !content.trim().is_empty() {
                continue;
            }
            out += &collapse_spaces(kept);
            out += eol;
        }
        out
    }

    /// Removes `;` comments (outside strings).
    pub fn semicolon_comments(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            let (content, eol) = split_eol(line);
            let mut in_string = false;
            let mut cut = content.len();
            for (i, ch) in content.char_indices() {
                match ch {
                    '"' => in_string = !in_string,
                    ';' if !in_string => {
                        cut = i;
                        break;
                    }
                    _ => {}
                }
            }
            let kept = content[..cut].trim_end();
            if kept.is_empty() && !content.trim().is_empty() {
                continue;
            }
            out += kept;
            out += eol;
        }
        out
    }

    /// Removes `[Note ...]` lines and `=n=` note references.
    pub fn notes(text: &str) -> String {
        filter_tokens(
            text,
            |l| l.starts_with("[Note "),
            |w| w.len() > 2 && w.starts_with('=') && w.ends_with('='),
        )
    }

    /// Removes `$n` NAGs.
    pub fn nags(text: &str) -> String {
        filter_tokens(text, |_| false, |w| w.starts_with('$'))
    }

    fn filter_tokens(
        text: &str,
        drop_line: impl Fn(&str) -> bool,
        drop_word: impl Fn(&str) -> bool,
    ) -> String {
        let mut out = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            let (content, eol) = split_eol(line);
            if drop_line(content) {
                continue;
            }
            if content.starts_with('[') || content.starts_with('%') || content.contains('"') {
                out += line;
                continue;
            }
            let kept: Vec<&str> = content.split(' ').filter(|w| !drop_word(w)).collect();
            out += &kept.join(" ");
            out += eol;
        }
        out
    }

    fn split_eol(line: &str) -> (&str, &str) {
        let content = line.trim_end_matches(['\n', '\r']);
        (content, &line[content.len()..])
    }

    fn collapse_spaces(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let mut prev_space = false;
        let mut in_string = false;
        for ch in s.chars() {
            if ch == '"' {
                in_string = !in_string;
            }
            if ch == ' ' && prev_space && !in_string {
                continue;
            }
            prev_space = ch == ' ';
            out.push(ch);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::report::*;
    use super::strip;

    #[test]
    fn replace_existing_section_keeps_the_rest() {
        let doc = "# B\n\nintro\n<!-- bench:parse:start -->\nold\nlines\n<!-- bench:parse:end -->\ntail\n\
                   <!-- bench:fmt:start -->\nfmt\n<!-- bench:fmt:end -->\n";
        let new = replace_section(doc, "parse", "new body\n");
        assert_eq!(
            new,
            "# B\n\nintro\n<!-- bench:parse:start -->\nnew body\n<!-- bench:parse:end -->\ntail\n\
             <!-- bench:fmt:start -->\nfmt\n<!-- bench:fmt:end -->\n"
        );
        // Idempotent.
        assert_eq!(replace_section(&new, "parse", "new body"), new);
        // Other sections are independent.
        let f = replace_section(&new, "fmt", "F");
        assert!(f.contains("<!-- bench:fmt:start -->\nF\n<!-- bench:fmt:end -->"));
        assert!(f.contains("new body"));
    }

    #[test]
    fn append_missing_section() {
        assert_eq!(
            replace_section("", "lsp", "x"),
            "<!-- bench:lsp:start -->\nx\n<!-- bench:lsp:end -->\n"
        );
        assert_eq!(
            replace_section("# B\nintro", "lsp", "x"),
            "# B\nintro\n\n<!-- bench:lsp:start -->\nx\n<!-- bench:lsp:end -->\n"
        );
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn stripping() {
        let t = "[Note \"1:x\"]\n{\nmulti\n}\n1C =1= $2 {hi} Pass ; c\n[ScoreTable \"A;B\"]\n";
        let b = strip::brace_comments(t);
        assert_eq!(
            b,
            "[Note \"1:x\"]\n1C =1= $2 Pass ; c\n[ScoreTable \"A;B\"]\n"
        );
        let s = strip::semicolon_comments(&b);
        assert_eq!(s, "[Note \"1:x\"]\n1C =1= $2 Pass\n[ScoreTable \"A;B\"]\n");
        assert_eq!(
            strip::nags(&strip::notes(&s)),
            "1C Pass\n[ScoreTable \"A;B\"]\n"
        );
    }
}
