#!/usr/bin/env python3
"""Is a fuzz target's coverage a function of its input alone? (ROBUSTNESS.md,
"Stable coverage")

    python3 fuzz/stability.py [TARGET…] [--runs N] [--corpus DIR] [--shuffle] [--no-build]

Replays one corpus N times (default 3) through each target (default: all
three) with `-runs=0`, no mutation, and compares the Rust edge counts
(`cov:`) libFuzzer reports and, with `-print_coverage=1`, the covered edges
of every function. Any difference is a nondeterministic edge: threads,
random hash seeds, time, or state carried from one input to the next. Such
edges are found by chance, so a campaign never stops "finding" them, and
an input credited with one does not reproduce it. The functions that
differ are named with llvm-symbolizer (or addr2line) and their lines.

The corpus is, by default, a fresh set of seeds (fuzz/seed_corpus.py --out
into a temporary directory), so the result does not depend on a kept
corpus. libFuzzer shuffles the corpus at start, as a campaign does; this
tool passes `-shuffle=0` unless --shuffle is given, so that the order is
the same in every replay. With --shuffle, replay K has `-seed=K`: each
replay has its own order, and a run of this tool is reproducible. Either
way a difference in the Rust edges (`cov`, and the edges of each function)
fails. `ft` (features: also the C edges of tree-sitter and hit counts) is
shown, not compared: tree-sitter's parser, reused from one input to the
next, keeps buffers whose state changes a few C features with the order.
What the properties reset before each input (fuzz builds only: the piece
ids, tests/src/fuzz.rs `fresh_execution`) is what keeps `cov` equal under
--shuffle.

Builds the targets first with `fuzz/run.sh --build` (the build a fuzzing
run uses, in $PBN_FUZZ_TARGET_DIR or fuzz/target) unless --no-build. Exit status: 0 when every replay of every target has
the same edges, 1 when one differs, 2 on a usage or build error.

Example:
    python3 fuzz/stability.py fmt --runs 8
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
TARGETS = ("parse_check", "fmt", "incremental_reparse")
MAX_LEN = 4096  # the longest input, as fuzz/run.sh passes it to libFuzzer (-max_len)
DONE = re.compile(r"^#\d+\s+DONE\s+cov: (\d+) ft: (\d+)", re.M)
FUNC = re.compile(r"^(?:UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) (0x[0-9a-f]+)", re.M)


def target_dir():
    """Where fuzz/run.sh builds: $PBN_FUZZ_TARGET_DIR (relative to fuzz/) or fuzz/target."""
    return (FUZZ / (os.environ.get("PBN_FUZZ_TARGET_DIR") or "target")).resolve()


def binary(target):
    host = re.search(r"^host: (\S+)", subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout, re.M)
    return target_dir() / host.group(1) / "release" / target


def build(targets):
    """Builds the targets as a fuzzing run does: fuzz/run.sh --build."""
    if subprocess.run([str(FUZZ / "run.sh"), "--build", *targets]).returncode != 0:
        sys.exit(f"stability.py: building {' '.join(targets)} failed")


def run_once(exe, corpus, shuffle, seed):
    p = subprocess.run(
        [str(exe), "-runs=0", f"-max_len={MAX_LEN}", "-timeout=10", "-rss_limit_mb=2048", "-print_coverage=1",
         f"-shuffle={int(shuffle)}", f"-seed={seed}", str(corpus)],
        capture_output=True, text=True, errors="replace")
    text = p.stdout + p.stderr
    done = DONE.search(text)
    if p.returncode != 0 or not done:
        tail = "\n".join(text.splitlines()[-15:])
        sys.exit(f"stability.py: {exe.name} did not replay the corpus (exit {p.returncode}):\n{tail}")
    funcs = {m.group(3): int(m.group(1)) for m in FUNC.finditer(text)}
    if not funcs:
        sys.exit(f"stability.py: {exe.name} printed no coverage; is fuzz/symbolize.c linked (fuzz/build.rs)?")
    return int(done.group(1)), int(done.group(2)), funcs


def symbolize(exe, offsets):
    """offset → 'function (file:line)', by llvm-symbolizer or addr2line."""
    if not offsets:
        return {}
    if shutil.which("llvm-symbolizer"):
        out = subprocess.run(["llvm-symbolizer", f"--obj={exe}", *offsets], capture_output=True, text=True).stdout
        blocks = [b.splitlines() for b in out.strip().split("\n\n")]
    elif shutil.which("addr2line"):
        out = subprocess.run(["addr2line", "-f", "-C", "-e", str(exe), *offsets], capture_output=True, text=True).stdout
        lines = out.splitlines()
        blocks = [lines[i:i + 2] for i in range(0, len(lines), 2)]
    else:
        return {o: o for o in offsets}
    named = {}
    for o, b in zip(offsets, blocks):
        fn = re.sub(r"::h[0-9a-f]{16}$", "", b[0]) if b else "?"
        where = b[1] if len(b) > 1 else "?"
        named[o] = f"{fn} ({where})"
    return named


def check(target, corpus, runs, shuffle):
    exe = binary(target)
    if not exe.is_file():
        sys.exit(f"stability.py: no {exe}; build it first (or drop --no-build)")
    results = [run_once(exe, corpus / target, shuffle, seed) for seed in range(1, runs + 1)]
    covs = [r[0] for r in results]
    fts = [r[1] for r in results]
    inputs = len(os.listdir(corpus / target))
    print(f"{target}: {inputs} inputs, {runs} replays{' (shuffled)' if shuffle else ''}: "
          f"cov {' '.join(map(str, covs))}; ft {' '.join(map(str, fts))}")
    keys = sorted(set().union(*(r[2] for r in results)), key=lambda k: int(k, 16))
    differ = [k for k in keys if len({r[2].get(k, 0) for r in results}) > 1]
    names = symbolize(exe, differ)
    for k in differ:
        print(f"  edges {' '.join(str(r[2].get(k, 0)) for r in results)}: {names.get(k, k)}")
    stable = len(set(covs)) == 1 and not differ
    print(f"  {'stable' if stable else 'UNSTABLE: the same inputs reached different edges'}")
    return stable


def main():
    ap = argparse.ArgumentParser(
        description="Replays one corpus several times through each fuzz target and compares the edges reached.",
        epilog="example: python3 fuzz/stability.py fmt --runs 8")
    ap.add_argument("targets", nargs="*", metavar="TARGET", help=f"default: all ({', '.join(TARGETS)})")
    ap.add_argument("--runs", type=int, default=3, help="replays per target (default 3)")
    ap.add_argument("--corpus", type=Path, help="a directory with a subdirectory per target (default: fresh seeds)")
    ap.add_argument("--shuffle", action="store_true", help="let libFuzzer shuffle the corpus, as a campaign does (replay K: -seed=K)")
    ap.add_argument("--no-build", action="store_true", help="use the targets as built")
    a = ap.parse_args()
    targets = a.targets or list(TARGETS)
    bad = [t for t in targets if t not in TARGETS]
    if bad or a.runs < 2:
        ap.error(f"unknown target {bad[0]}" if bad else "--runs must be at least 2")
    if not a.no_build:
        build(targets)
    with tempfile.TemporaryDirectory(prefix="pbn-stability-") as tmp:
        corpus = a.corpus
        if corpus is None:
            corpus = Path(tmp)
            seeded = subprocess.run([sys.executable, str(FUZZ / "seed_corpus.py"), "--out", tmp], capture_output=True, text=True)
            if seeded.returncode != 0:
                sys.exit(f"stability.py: seeding failed:\n{seeded.stderr}")
        missing = [t for t in targets if not (corpus / t).is_dir()]
        if missing:
            sys.exit(f"stability.py: no {corpus / missing[0]}")
        stable = [check(t, corpus, a.runs, a.shuffle) for t in targets]
    sys.exit(0 if all(stable) else 1)


if __name__ == "__main__":
    main()
