//! `pbn-bench scaling`: does `pbn check` stay linear on what the fuzzers
//! found? The hostile shapes (`pbn-bench hostile`) are the ones a person
//! thought of; a fuzz corpus holds thousands of odd inputs nobody wrote.
//! Each sampled input is repeated 4 and 64 times, once joined by blank
//! lines (more games) and once by single line ends (a longer game, when
//! the input has no blank line), and `check_text` is timed on both; k is
//! the exponent of time ∝ size^k between them (1 = linear). The inputs
//! with the largest k are measured again at 16 and 256 copies, with more
//! runs, to tell noise from growth.

use super::*;

/// Above this exponent an input is reported as super-linear.
const SUPER_LINEAR: f64 = 1.3;
/// How many of the largest exponents are measured again.
const RECHECK: usize = 10;

struct Case {
    file: String,
    joiner: &'static str,
    k: f64,
    ms_large: f64,
    bytes_large: usize,
}

fn repeated(input: &[u8], joiner: &str, copies: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity((input.len() + joiner.len()) * copies);
    for _ in 0..copies {
        out.extend_from_slice(input);
        out.extend_from_slice(joiner.as_bytes());
    }
    out
}

/// Median milliseconds of `check_text` on `bytes`: short runs repeated for
/// 100 ms in all, at most 100 times.
fn time(bytes: &[u8], reps: usize) -> f64 {
    timing::check_ms(bytes, reps, Duration::from_millis(100), 100)
}

fn case(
    file: &str,
    input: &[u8],
    joiner: &'static str,
    copies: (usize, usize),
    reps: usize,
) -> Case {
    let small = repeated(input, joiner, copies.0);
    let large = repeated(input, joiner, copies.1);
    let (ms_small, ms_large) = (time(&small, reps), time(&large, reps));
    let k = timing::exponent((small.len(), ms_small), (large.len(), ms_large)).unwrap_or(0.0);
    Case {
        file: file.to_string(),
        joiner,
        k,
        ms_large,
        bytes_large: large.len(),
    }
}

fn joiner_name(j: &str) -> &'static str {
    if j == "\n\n" {
        "blank line (more games)"
    } else {
        "line end (longer games)"
    }
}

pub fn run(args: &Args) -> Result<String, String> {
    let dir = args
        .corpus
        .clone()
        .unwrap_or_else(|| repo_root().join("fuzz/corpus/parse_check"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| {
            format!(
                "{}: {e} (fuzz/run.sh parse_check makes this corpus; --corpus DIR names another)",
                dir.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let total = files.len();
    let want = args
        .sample
        .unwrap_or(if args.quick { 50 } else { 2_000 })
        .max(1);
    let step = total.div_ceil(want).max(1);
    let sample: Vec<&PathBuf> = files.iter().step_by(step).collect();
    let reps = args.reps.unwrap_or(3);
    let mut cases = Vec::new();
    for (i, path) in sample.iter().enumerate() {
        if i % 200 == 0 {
            eprintln!("  {i} of {} inputs", sample.len());
        }
        let input = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if input.len() < 16 {
            continue;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for joiner in ["\n\n", "\n"] {
            cases.push(case(&name, &input, joiner, (4, 64), reps));
        }
    }
    if cases.is_empty() {
        return Err(format!("no input of 16 bytes or more in {}", dir.display()));
    }
    cases.sort_by(|a, b| b.k.total_cmp(&a.k));
    let ks: Vec<f64> = cases.iter().map(|c| c.k).collect();
    let pct = |p: f64| ks[((1.0 - p) * (ks.len() - 1) as f64).round() as usize];
    // The largest exponents again, at 16 and 256 copies, with more runs.
    let mut again = Vec::new();
    for c in cases.iter().take(RECHECK) {
        let input = std::fs::read(dir.join(&c.file)).map_err(|e| format!("{}: {e}", c.file))?;
        again.push((c, case(&c.file, &input, c.joiner, (16, 256), reps.max(5))));
    }
    let confirmed: Vec<&(&Case, Case)> = again.iter().filter(|(_, b)| b.k > SUPER_LINEAR).collect();

    let mut out = String::new();
    out += "## Fuzz corpus inputs repeated: does `pbn check` stay linear?\n\n";
    out += &report::provenance(&args.argv);
    out += &format!(
        "{} of the {total} inputs of `{}` (every {step}th, 16 bytes or more), each repeated 4 and 64 times, \
         joined by a blank line (more games) and by a line end (a longer game where the input has no blank line): \
         {} cases. `check_text` (decode included), median of {reps} runs or more (short ones repeated for 100 ms in all); k = exponent of time ∝ size^k from 4 to 64 copies.\n\n",
        sample.len(),
        dir.strip_prefix(repo_root()).unwrap_or(&dir).display(),
        cases.len()
    );
    out += &format!(
        "k: largest {:.2}, 99th percentile {:.2}, median {:.2}, smallest {:.2}.\n\n",
        ks[0],
        pct(0.99),
        pct(0.5),
        ks[ks.len() - 1]
    );
    out += &format!(
        "The {RECHECK} largest, measured again at 16 and 256 copies ({} runs each):\n\n",
        reps.max(5)
    );
    out += "| input | joined by | k (4→64) | k (16→256) | ms at 256 copies | size at 256 copies |\n|---|---|---:|---:|---:|---:|\n";
    for (a, b) in &again {
        out += &format!(
            "| `{}` | {} | {:.2} | {:.2} | {:.1} | {} |\n",
            a.file,
            joiner_name(a.joiner),
            a.k,
            b.k,
            b.ms_large,
            report::size(b.bytes_large)
        );
    }
    out.push('\n');
    if confirmed.is_empty() {
        out += &format!("None grows faster than size^{SUPER_LINEAR} when measured again.\n");
    } else {
        let names: Vec<String> = confirmed
            .iter()
            .map(|(a, b)| format!("`{}` ({}, k = {:.2})", a.file, joiner_name(a.joiner), b.k))
            .collect();
        out += &format!("Super-linear when measured again: {}.\n", names.join(", "));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_joins_copies() {
        assert_eq!(repeated(b"ab", "\n", 3), b"ab\nab\nab\n");
    }
}
