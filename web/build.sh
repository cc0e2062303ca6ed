#!/bin/sh
# Builds the page into web/dist/: the core compiled to WebAssembly
# (web/pbn-wasm), its JavaScript glue (wasm-bindgen-cli of the version
# web/pbn-wasm/Cargo.toml pins), the vendored CodeMirror bundle and the
# page's own files. Needs Rust with the wasm32-unknown-unknown target,
# clang and lld (tree-sitter's C code), and wasm-bindgen-cli (on PATH, or
# $WASM_BINDGEN). Serve web/dist/ with any static file server.
#
#   web/build.sh [OUT_DIR]     (default web/dist)
set -eu
web=$(cd "$(dirname "$0")" && pwd)
dist=$(mkdir -p "${1:-$web/dist}" && cd "${1:-$web/dist}" && pwd)
root=$(dirname "$web")
target=${CARGO_TARGET_DIR:-$root/target}
bindgen=${WASM_BINDGEN:-wasm-bindgen}
want=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' "$web/pbn-wasm/Cargo.toml")
have=$("$bindgen" --version 2>/dev/null | awk '{print $2}') || true
if [ "$have" != "$want" ]; then
  echo "error: wasm-bindgen-cli $want is needed (found: ${have:-none}):" >&2
  echo "  cargo install wasm-bindgen-cli --version $want   (or .ci/install-web.sh)" >&2
  exit 2
fi
cd "$root"
CARGO_TARGET_DIR=$target cargo build --release --locked -p pbn-wasm --target wasm32-unknown-unknown
rm -rf "$dist/pkg"
mkdir -p "$dist/pkg"
"$bindgen" --target web --no-typescript --out-dir "$dist/pkg" \
  "$target/wasm32-unknown-unknown/release/pbn_wasm.wasm"
cp "$web/index.html" "$web/app.js" "$web/worker.js" "$web/style.css" \
  "$web/vendor/codemirror.js" "$dist/"
echo "built $dist ($(du -sh "$dist" | cut -f1)); serve it: python3 -m http.server -d $dist"
