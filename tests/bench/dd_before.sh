#!/bin/sh
# Builds tests/bench/dd_before.rs against the core of commit f48a19f (the
# last one with dds-bridge, C++ DDS) and prints the binary's path, for
# `PBN_BENCH_DD_BEFORE=$(tests/bench/dd_before.sh) pbn-bench dd`.
# Needs a C++ compiler and libclang-dev. SRC and CARGO_TARGET_DIR
# (defaults below) say where the source goes and where it is built.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
src=${SRC:-/tmp/pbn-dd-before}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$src/target}
if [ ! -f "$src/Cargo.toml" ]; then
    mkdir -p "$src"
    git -C "$repo" archive f48a19f | tar -x -C "$src"
fi
mkdir -p "$src/server/core/examples"
cp "$repo/tests/bench/dd_before.rs" "$src/server/core/examples/dd_before.rs"
(cd "$src" && cargo build --release --locked -q -p pbn-core --example dd_before >&2)
echo "$CARGO_TARGET_DIR/release/examples/dd_before"
