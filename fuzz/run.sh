#!/usr/bin/env bash
# Runs one fuzz target on the stable toolchain (see fuzz/README.md).
#
#   fuzz/run.sh TARGET [SECONDS] [more libFuzzer flags…]
#   fuzz/run.sh --build TARGET…     (only build them, as a run would)
#
# Seeds fuzz/corpus/TARGET (gitignored) from the shared corpus
# ($PBN_CORPUS or ../shared/corpus), the fixtures, the fuzz regression
# fixtures and every code's examples first. Exits non-zero if the target
# finds a crash, a property failure (a panic), a timeout (10 s) or an
# out-of-memory input; the input is saved under fuzz/artifacts/TARGET/.
# Build dir: $PBN_FUZZ_TARGET_DIR, else $CARGO_TARGET_DIR/fuzz, else
# fuzz/target (gitignored). Corpus dir: $PBN_FUZZ_CORPUS_DIR/TARGET or
# fuzz/corpus/TARGET (gitignored).
set -euo pipefail
cd "$(dirname "$0")"
usage="usage: fuzz/run.sh TARGET [SECONDS] [libFuzzer flags…] | fuzz/run.sh --build TARGET…"
# Stable Rust: `--sanitizer none` drops the `-Zsanitizer` flag, the only
# nightly one.
target_dir=${PBN_FUZZ_TARGET_DIR:-${CARGO_TARGET_DIR:+$CARGO_TARGET_DIR/fuzz}}
build_flags=(--release --debug-assertions --sanitizer none --target-dir "${target_dir:-target}")
if [ "${1:-}" = --build ]; then
  shift
  [ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
  for t in "$@"; do cargo fuzz build "${build_flags[@]}" "$t"; done
  exit 0
fi
target=${1:?$usage}
seconds=${2:-60}
shift $(( $# < 2 ? $# : 2 ))
# Adds any missing seed (new fixtures, new codes) to the target's corpus,
# also to one kept from earlier runs; inputs are named by their SHA-1.
corpus_dir=$(realpath -m "${PBN_FUZZ_CORPUS_DIR:-corpus}")
python3 seed_corpus.py ${PBN_CORPUS:+"$PBN_CORPUS"} --out "$corpus_dir"
exec cargo fuzz run "${build_flags[@]}" "$target" "$corpus_dir/$target" -- \
  -max_total_time="$seconds" -max_len=4096 -dict=pbn.dict -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$@"
