#!/usr/bin/env bash
# Runs one fuzz target on the stable toolchain (see ROBUSTNESS.md).
#
#   fuzz/run.sh TARGET [SECONDS] [more libFuzzer flags…]
#   fuzz/run.sh --build TARGET…     (only build them, as a run would)
#
# Seeds fuzz/corpus/TARGET (gitignored) from the shared corpus, the fixtures
# and every code's examples first. Exits non-zero if the target finds a crash, a property
# failure (a panic), a timeout (10 s) or an out-of-memory input; the input is
# saved under fuzz/artifacts/TARGET/. Build dir: $PBN_FUZZ_TARGET_DIR or
# fuzz/target (gitignored). Corpus dir: $PBN_FUZZ_CORPUS_DIR/TARGET or
# fuzz/corpus/TARGET (gitignored). The work tree is laid anew each session,
# so a corpus meant to outlive it (a campaign to go on with next session on
# the same machine) goes outside it, e.g.
#   PBN_FUZZ_CORPUS_DIR=~/.cache/pbn-fuzz/corpus fuzz/campaign.py run fmt
# With PBN_FUZZ_KEPT=1 (campaign.py sets it) the corpus kept in the
# repository, fuzz/kept/TARGET.pack (fuzz/kept.py), is restored into it too,
# so that a campaign goes on where the last one, on any machine, stopped.
set -euo pipefail
cd "$(dirname "$0")"
usage="usage: fuzz/run.sh TARGET [SECONDS] [libFuzzer flags…] | fuzz/run.sh --build TARGET…"
# How a target is built, here only (fuzz/stability.py builds through
# --build). Stable Rust: `-s none` drops the `-Zsanitizer` flag, the only
# nightly one. gcc coverage of tree-sitter's C code (cc-cover.sh), counted
# by c_coverage.c.
export CC="$PWD/cc-cover.sh"
build_flags=(--release --debug-assertions --sanitizer none --target-dir "${PBN_FUZZ_TARGET_DIR:-target}")
if [ "${1:-}" = --build ]; then
  shift
  [ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
  for t in "$@"; do cargo fuzz build "${build_flags[@]}" "$t"; done
  exit 0
fi
target=${1:?$usage}
seconds=${2:-60}
shift $(( $# < 2 ? $# : 2 ))
# Adds any seed that is missing (new fixtures, new codes) to every target's
# corpus, also to one kept from earlier runs; seeds are named by their hash.
corpus_dir=$(realpath -m "${PBN_FUZZ_CORPUS_DIR:-corpus}")
python3 seed_corpus.py ${PBN_CORPUS:+"$PBN_CORPUS"} --out "$corpus_dir"
if [ "${PBN_FUZZ_KEPT:-0}" = 1 ]; then
  python3 kept.py unpack "$target" --out "$corpus_dir"
fi
exec cargo fuzz run "${build_flags[@]}" "$target" "$corpus_dir/$target" -- \
  -max_total_time="$seconds" -max_len=4096 -dict=pbn.dict -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$@"
