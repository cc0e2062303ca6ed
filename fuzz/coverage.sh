#!/usr/bin/env bash
# Source coverage of one fuzz target's corpus: which lines of the project's
# Rust code the kept inputs reach (see ROBUSTNESS.md, "Where coverage stops").
#
#   fuzz/coverage.sh TARGET [REPORT-DIR [CORPUS-DIR]]
#
# Needs `rustup component add llvm-tools` (llvm-cov and llvm-profdata of the
# toolchain's own LLVM). Runs a frozen copy of CORPUS-DIR (default
# $PBN_FUZZ_CORPUS_DIR/TARGET or fuzz/corpus/TARGET, as for fuzz/run.sh; a
# running fuzzer may delete inputs while it reduces
# them) through a build with
# -Cinstrument-coverage (`cargo fuzz coverage`), then writes to REPORT-DIR
# (default fuzz/coverage/TARGET):
#   report.txt   per-file regions, functions and lines (llvm-cov report)
#   missed.txt   every line of server/src never executed, with its source
#   TARGET.lcov  the same in lcov form
#   TARGET.json  regions and counts (llvm-cov export): fuzz/covdiff.py OLD NEW
#                compares two reports, e.g. of the corpus before and after a
#                session
set -euo pipefail
cd "$(dirname "$0")"
usage="usage: fuzz/coverage.sh TARGET [REPORT-DIR [CORPUS-DIR]]"
target=${1:?$usage}
out=$(realpath -m "${2:-coverage/$target}")
corpus=$(realpath -m "${3:-${PBN_FUZZ_CORPUS_DIR:-corpus}/$target}")
bin_dir=$(dirname "$(find "$(rustc --print sysroot)/lib/rustlib" -name llvm-cov -type f | head -1)")
if [ ! -x "$bin_dir/llvm-cov" ]; then
  echo "llvm-cov of the toolchain not found: rustup component add llvm-tools" >&2
  exit 2
fi
[ -d "$corpus" ] || { echo "no corpus $corpus: run fuzz/run.sh $target first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
frozen="$work/corpus"
cp -r "$corpus" "$frozen"
target_dir=${PBN_FUZZ_COVERAGE_DIR:-target-coverage}
cargo fuzz coverage --release --debug-assertions --sanitizer none \
  --target-dir "$target_dir" "$target" "$frozen" > "$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log" >&2; exit 1; }
mkdir -p "$out"
# cargo fuzz builds for the host triple explicitly
host=$(rustc -vV | sed -n 's/^host: //p')
bin="$target_dir/$host/release/$target"
profile="coverage/$target/coverage.profdata"
skip='(\.cargo|/rustc/|/fuzz/)'
"$bin_dir/llvm-cov" report "$bin" -instr-profile="$profile" --ignore-filename-regex="$skip" > "$out/report.txt"
"$bin_dir/llvm-cov" export "$bin" -instr-profile="$profile" --ignore-filename-regex="$skip" -format=lcov > "$out/$target.lcov"
"$bin_dir/llvm-cov" export "$bin" -instr-profile="$profile" --ignore-filename-regex="$skip" -format=text > "$out/$target.json"
python3 - "$out/$target.lcov" > "$out/missed.txt" <<'EOF'
import collections, sys
miss, cur = collections.defaultdict(list), None
for line in open(sys.argv[1]):
    if line.startswith("SF:"):
        cur = line[3:].strip()
    elif line.startswith("DA:") and "/server/src/" in cur:
        n, count = line[3:].split(",")[:2]
        if int(count) == 0:
            miss[cur].append(int(n))
for path in sorted(miss):
    src = open(path, encoding="utf-8").read().splitlines()
    print(f"== {path[path.index('/server/src/') + 1:]}: {len(miss[path])} lines")
    prev = -2
    for n in sorted(miss[path]):
        if n > prev + 1:
            print("   --")
        print(f"   {n:5} {src[n - 1]}")
        prev = n
EOF
grep -E '^(Filename|TOTAL)' "$out/report.txt" | cut -c1-60
echo "reports in $out (report.txt, missed.txt, $target.lcov, $target.json)"
