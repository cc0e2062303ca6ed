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
//!   same input, as its `--stats` reports it (VmHWM).

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
        .args(["check", "--color", "never", "--stats"])
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

pub fn run(args: &Args) -> Result<String, String> {
    let bin = check::pbn_binary(args)?;
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
    for shape in HOSTILE {
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
         Peak: resident memory of the `pbn check` binary (`--stats`), MB, at each size; per MB: at the largest size, \
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
