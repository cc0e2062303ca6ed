//! `pbn-bench hostile`: how the time and memory of `pbn check` grow with
//! the size of each hostile input (`pbn_tests::hostile`, the shapes of
//! `tests/tests/hostile.rs`). The tests bound the memory at one size and
//! never time anything; this measures every shape at a quarter of the
//! tests' size, at it and at four times it, and gives the exponent k of
//! time ∝ size^k between them: about 1 is linear, 2 quadratic.
//!
//! - time: `check_text` in process (decode included, import rules), the
//!   median of several runs after one untimed run;
//! - memory: the peak resident memory of the `pbn check` binary on the
//!   same input, as its `--timings` reports it (VmHWM).
//!
//! `--big`: every shape at [`BIG_BYTES`] instead, in a temporary directory
//! deleted after; for `pbn check`, `pbn fmt -` and `pbn dump` the peak
//! resident memory (the child's `VmHWM`), its multiple of the input and
//! the wall time. Slow; printed, not written to BENCHMARKS.md.

use super::*;
use std::path::Path;
use std::process::{Command, Stdio};
use timing::check_ms;

use pbn_tests::hostile::{Hostile, HOSTILE};

/// Sizes measured, as multiples of the tests' size (numerator,
/// denominator).
const FACTORS: [(usize, usize); 3] = [(1, 4), (1, 1), (4, 1)];
/// `--quick`: tiny sizes.
const QUICK_FACTORS: [(usize, usize); 2] = [(1, 64), (1, 16)];
/// The smallest base size: shapes whose tests use one copy of a game
/// (`control_bytes`, `invalid_utf8`) are measured from 1,000 copies.
const MIN_BASE: usize = 1_000;
/// Short measurements are repeated until they take this long in all…
const MIN_TOTAL: Duration = Duration::from_millis(300);
/// …but at most this many times.
const MAX_REPS: usize = 300;
/// Above this exponent a step is marked super-linear.
const SUPER_LINEAR: f64 = 1.3;

struct Point {
    bytes: usize,
    ms: f64,
    peak_mb: Option<f64>,
}

fn peak_mb(bin: &Path, input: &Path) -> Result<Option<f64>, String> {
    let out = Command::new(bin)
        .args(["check", "--color", "never", "--timings"])
        .arg(input)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("run {}: {e}", bin.display()))?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        return Err(format!(
            "pbn check {} ended with {:?}",
            input.display(),
            out.status
        ));
    }
    let kb = pbn_tests::hostile::stats_peak_kb(&String::from_utf8_lossy(&out.stderr));
    Ok(kb.map(|kb| kb as f64 * 1024.0 / 1e6))
}

fn measure_point(
    shape: &Hostile,
    n: usize,
    reps: usize,
    bin: &Path,
    dir: &Path,
) -> Result<Point, String> {
    let bytes = (shape.make)(n);
    let path = dir.join(format!("{}-{n}.pbn", shape.name));
    std::fs::write(&path, &bytes).map_err(|e| format!("write {}: {e}", path.display()))?;
    let peak = peak_mb(bin, &path);
    let _ = std::fs::remove_file(&path);
    let ms = check_ms(&bytes, reps, MIN_TOTAL, MAX_REPS);
    Ok(Point {
        bytes: bytes.len(),
        ms,
        peak_mb: peak?,
    })
}

/// k of time ∝ bytes^k between two points.
fn exponent(a: &Point, b: &Point) -> Option<f64> {
    timing::exponent((a.bytes, a.ms), (b.bytes, b.ms))
}

fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// `--big`: the size of every shape (`--big-mb` changes it).
const BIG_BYTES: usize = 50_000_000;
/// `--big`: a run taking longer is stopped and reported as such.
const BIG_TIMEOUT: Duration = Duration::from_secs(300);

/// One run of the `pbn` binary with `input` on stdin (`-` among `args`) or
/// as a path: its peak resident memory in kB (its `VmHWM`, else its
/// `ru_maxrss` from `wait4`) and wall time.
fn run_peak(bin: &Path, args: &[&str], input: &Path) -> Result<(u64, Duration), String> {
    let stdin = if args.contains(&"-") {
        let f = std::fs::File::open(input).map_err(|e| format!("open {}: {e}", input.display()))?;
        Stdio::from(f)
    } else {
        Stdio::null()
    };
    let mut cmd = Command::new(bin);
    cmd.args(args);
    if !args.contains(&"-") {
        cmd.arg(input);
    }
    let start = Instant::now();
    let child = cmd
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("run {}: {e}", bin.display()))?;
    let mut child = child;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills in; the child is
    // ours and not waited for elsewhere (`Child` does not wait on drop).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // The child's `ru_maxrss` counts this process's memory copied by the
    // fork before the exec; its `VmHWM` after the exec does not, so it is
    // read as the child runs (every 20 ms: a peak in its last 20 ms can be
    // missed, and a run shorter than that is under-read; the 50 MB runs
    // take seconds).
    let status_path = format!("/proc/{pid}/status");
    let mut hwm_kb = None;
    let r = loop {
        if let Some(kb) = std::fs::read_to_string(&status_path)
            .ok()
            .and_then(|s| pbn_tests::hostile::status_hwm_kb(&s))
        {
            hwm_kb = Some(hwm_kb.unwrap_or(0).max(kb));
        }
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r != 0 {
            break r;
        }
        if start.elapsed() > BIG_TIMEOUT {
            let _ = child.kill();
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            return Err(format!("over {} s, stopped", BIG_TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let wall = start.elapsed();
    if r != pid {
        return Err(format!(
            "wait for pbn {}: {}",
            args.join(" "),
            std::io::Error::last_os_error()
        ));
    }
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    if !matches!(code, Some(0..=2)) {
        return Err(format!(
            "pbn {} {} ended with status {status:#x}",
            args.join(" "),
            input.display()
        ));
    }
    Ok((hwm_kb.unwrap_or(usage.ru_maxrss.max(0) as u64), wall))
}

fn run_big(args: &Args, bin: &Path, dir: &Path) -> Result<String, String> {
    const COMMANDS: [(&str, &[&str]); 3] = [
        ("check", &["check", "--color", "never"]),
        ("fmt", &["fmt", "-"]),
        ("dump", &["dump"]),
    ];
    let mut out = String::new();
    let big_bytes = args.big_mb.map_or(BIG_BYTES, |mb| mb * 1_000_000);
    out += &format!("## Hostile inputs at {} MB\n\n", big_bytes / 1_000_000);
    out += &report::provenance(&args.argv);
    out += "Each shape of `tests/src/hostile.rs` at about that size. Per command: peak resident memory (MB), \
            its multiple of the input, wall time (s); `fmt -` writes to /dev/null, as does `dump`.\n\n";
    out += "| input | size | check MB · × · s | fmt MB · × · s | dump MB · × · s |\n|---|---:|---|---|---|\n";
    for shape in selected(args) {
        let Some(n) = shape.n else { continue };
        // The size that makes about BIG_BYTES, from the bytes per unit at
        // the tests' size.
        let n = n.max(MIN_BASE);
        let per = (shape.make)(n).len().max(1) as f64 / n as f64;
        let big = ((big_bytes as f64 / per) as usize).max(1);
        eprintln!("  {} ({big})", shape.name);
        let bytes = (shape.make)(big);
        let len = bytes.len();
        let path = dir.join(format!("{}.pbn", shape.name));
        std::fs::write(&path, &bytes).map_err(|e| format!("write {}: {e}", path.display()))?;
        drop(bytes);
        let mut cells = Vec::new();
        for (_, cmd) in COMMANDS {
            let cell = match run_peak(bin, cmd, &path) {
                Ok((kb, wall)) => {
                    let mb = kb as f64 * 1024.0 / 1e6;
                    format!(
                        "{mb:.0} · {:.0}× · {:.1}",
                        mb / (len as f64 / 1e6),
                        wall.as_secs_f64()
                    )
                }
                Err(e) => format!("failed: {e}"),
            };
            cells.push(cell);
        }
        let _ = std::fs::remove_file(&path);
        out += &format!(
            "| `{}` | {} | {} |\n",
            shape.name,
            report::size(len),
            cells.join(" | ")
        );
    }
    Ok(out)
}

pub fn run(args: &Args) -> Result<String, String> {
    let bin = check::pbn_binary(args)?;
    if args.big {
        let dir =
            std::env::temp_dir().join(format!("pbn-bench-hostile-big-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
        let r = run_big(args, &bin, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        return r;
    }
    let dir = std::env::temp_dir().join(format!("pbn-bench-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    let factors: &[(usize, usize)] = if args.quick { &QUICK_FACTORS } else { &FACTORS };
    let reps = args.reps.unwrap_or(if args.quick { 2 } else { 5 });
    let mut rows = Vec::new();
    let mut flagged = Vec::new();
    // The binary's own memory: its peak on an empty file.
    let empty = dir.join("empty.pbn");
    std::fs::write(&empty, b"").map_err(|e| format!("write {}: {e}", empty.display()))?;
    let base_mb = peak_mb(&bin, &empty)?.unwrap_or(0.0);
    for shape in selected(args) {
        let Some(n) = shape.n else { continue };
        let n = n.max(MIN_BASE);
        eprintln!("  {}", shape.name);
        let mut points = Vec::new();
        for &(num, den) in factors {
            let size = (n * num / den).max(1);
            points.push(measure_point(shape, size, reps, &bin, &dir)?);
        }
        let times: Vec<String> = points
            .iter()
            .map(|p| format!("{} ({})", ms(p.ms), report::size(p.bytes)))
            .collect();
        let ks: Vec<String> = points
            .windows(2)
            .map(|w| match exponent(&w[0], &w[1]) {
                Some(k) if k > SUPER_LINEAR => {
                    flagged.push(format!("`{}` (k = {k:.2})", shape.name));
                    format!("**{k:.2}**")
                }
                Some(k) => format!("{k:.2}"),
                None => "–".into(),
            })
            .collect();
        let peaks: Vec<String> = points
            .iter()
            .map(|p| p.peak_mb.map_or("?".into(), |m| format!("{m:.0}")))
            .collect();
        let last = points.last().expect("at least one size");
        let per_mb = last.peak_mb.map_or("?".into(), |m| {
            format!("{:.0}", (m - base_mb).max(0.0) / (last.bytes as f64 / 1e6))
        });
        rows.push(format!(
            "| `{}` | {} | {} | {} | {} | {} |",
            shape.name,
            shape.describe(n),
            times.join(" · "),
            ks.join(" · "),
            peaks.join(" · "),
            per_mb
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let sizes: Vec<String> = factors
        .iter()
        .map(|&(a, b)| {
            if b == 1 {
                format!("×{a}")
            } else {
                format!("×{a}/{b}")
            }
        })
        .collect();
    let mut out = String::new();
    out += "## Hostile inputs: growth of `pbn check`\n\n";
    out += &report::provenance(&args.argv);
    out += &format!(
        "Each shape of `tests/src/hostile.rs` at {} the size its test uses (`tests/tests/hostile.rs`; at least {MIN_BASE} copies of the game for the shapes tested with one). \
         Time: `check_text` in process (decode included), median of {reps} runs or more (short ones repeated for {} ms in all), ms (input size). \
         k: exponent of time ∝ size^k from one size to the next (1 = linear, 2 = quadratic; above {SUPER_LINEAR} in bold). \
         Peak: resident memory of the `pbn check` binary (`--timings`), MB, at each size; per MB: at the largest size, \
         MB of memory beyond the binary's own ({base_mb:.0} MB, its peak on an empty file) per MB of input.\n\n",
        sizes.join(", "),
        MIN_TOTAL.as_millis()
    );
    out += "| input | at the tests' size | ms at each size | k | peak MB | MB per MB |\n|---|---|---|---|---|---:|\n";
    for r in &rows {
        out += r;
        out.push('\n');
    }
    out.push('\n');
    if flagged.is_empty() {
        out += &format!("No step grows faster than size^{SUPER_LINEAR}: every shape is checked in linear time.\n");
    } else {
        out += &format!("Super-linear steps: {}.\n", flagged.join(", "));
    }
    Ok(out)
}

/// The shapes `--only` selects (all without it).
fn selected(args: &Args) -> impl Iterator<Item = &'static Hostile> + '_ {
    HOSTILE
        .iter()
        .filter(move |s| args.only.as_deref().is_none_or(|o| s.name.contains(o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponent_of_linear_and_quadratic() {
        let p = |bytes, ms| Point {
            bytes,
            ms,
            peak_mb: None,
        };
        assert!((exponent(&p(1000, 1.0), &p(4000, 4.0)).unwrap() - 1.0).abs() < 1e-9);
        assert!((exponent(&p(1000, 1.0), &p(4000, 16.0)).unwrap() - 2.0).abs() < 1e-9);
        assert!(exponent(&p(1000, 0.0), &p(4000, 1.0)).is_none());
    }
}
