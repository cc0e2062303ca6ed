//! `pbn-bench fmt`: `pbn fmt` on a generated file of fully played games,
//! against endplay reading and writing the same games (issue target: at
//! least 10× faster), in one run.

use super::check::{endplay_copy, endplay_setup, pbn_binary, Endplay};
use super::*;
use std::process::{Command, Stdio};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

pub fn run(args: &Args) -> Result<String, String> {
    let games = if args.quick {
        200
    } else {
        args.games.unwrap_or(20_000)
    };
    let reps = if args.quick { 1 } else { 3 };
    let text = generate(games, 1, &GenOptions::default());
    let dir = std::env::temp_dir().join(format!("pbn-bench-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("games.pbn");
    std::fs::write(&file, &text).map_err(|e| e.to_string())?;
    let ep_file = dir.join("endplay.pbn");
    std::fs::write(&ep_file, endplay_copy(&text)).map_err(|e| e.to_string())?;

    // In process: decode + format.
    let mut inproc = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        let out = pbn_core::format::format(
            &pbn_core::text::decode(text.as_bytes()),
            &pbn_core::format::FormatOptions::default(),
        );
        inproc.push(t.elapsed().as_secs_f64());
        assert!(out.text.len() > text.len() / 2);
    }
    // The CLI, end to end.
    let pbn = pbn_binary(args)?;
    let mut cli = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        let st = Command::new(&pbn)
            .args(["fmt", "--stdout"])
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| e.to_string())?;
        cli.push(t.elapsed().as_secs_f64());
        if !st.success() {
            return Err(format!("pbn fmt failed: {st}"));
        }
    }
    let (inproc, cli) = (median(inproc), median(cli));
    let mb = text.len() as f64 / 1e6;
    let mut s = String::new();
    s += "## `pbn fmt` against endplay (load + write)\n\n";
    s += &format!("- Machine: {}\n", report::machine());
    s += &format!(
        "- Command: `{}`\n",
        report::command(&std::env::args().skip(1).collect::<Vec<_>>())
    );
    s += &format!(
        "- Date: {}; commit {}\n",
        report::utc_now(),
        report::commit()
    );
    s += &format!(
        "- Input: `pbn_tests::gen::generate({games}, seed 1, default options)`, {} ({} bytes); endplay reads and writes the same games without NAGs and comments (its reader cannot read them)\n",
        report::size(text.len()),
        text.len()
    );
    s += &format!("- Method: wall clock, median of {reps}; the CLI time includes process start, reading and writing to /dev/null; the endplay time is `load(f)` + `dump(boards, StringIO)` (`tests/bench/endplay_roundtrip.py`)\n\n");
    s += "| tool | median s | MB/s |\n|---|---:|---:|\n";
    s += &format!(
        "| `pbn fmt` in-process (decode + format) | {inproc:.2} | {:.1} |\n",
        mb / inproc
    );
    s += &format!(
        "| `pbn fmt --stdout FILE > /dev/null` | {cli:.2} | {:.1} |\n",
        mb / cli
    );
    let endplay = if args.quick {
        None
    } else {
        Some(endplay_setup(args))
    };
    match endplay {
        Some(Endplay::Ready {
            python, version, ..
        }) => {
            let script = report_root().join("tests/bench/endplay_roundtrip.py");
            let out = Command::new(&python)
                .arg(&script)
                .arg(&ep_file)
                .args(["--reps", &reps.to_string()])
                .output()
                .map_err(|e| e.to_string())?;
            let v: serde_json::Value =
                serde_json::from_slice(&out.stdout).map_err(|e| format!("endplay output: {e}"))?;
            let secs: Vec<f64> = v["seconds"]
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
                .unwrap_or_default();
            if secs.is_empty() {
                s += &format!("\nendplay {version}: not measured ({})\n", v["error"]);
            } else {
                let e = median(secs);
                s += &format!(
                    "| endplay {version} `load` + `dump` (Python) | {e:.2} | {:.1} |\n",
                    mb / e
                );
                let ratio = e / cli;
                s += &format!(
                    "\nTarget: endplay / pbn fmt ≥ 10× (CLI end to end): **{}**: {ratio:.2}× ({e:.2} s / {cli:.2} s); in-process {:.2}×. What limits it is what limits `pbn check` (see above): the parse (in pieces, on every core) and the lowering, which already take most of the budget, plus printing.\n",
                    if ratio >= 10.0 { "met" } else { "missed" },
                    e / inproc
                );
            }
        }
        Some(Endplay::Unavailable(why)) => s += &format!("\nendplay: not measured ({why})\n"),
        None => s += "\nTarget: not judged in a `--quick` smoke run.\n",
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(s)
}

fn report_root() -> std::path::PathBuf {
    repo_root()
}
