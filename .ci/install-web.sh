#!/usr/bin/env bash
# Installs what the web page's build and its Chromium test
# (tests/tests/web_chromium.rs) need: clang and lld (tree-sitter's C code
# for wasm32), the rustup target wasm32-unknown-unknown, wasm-bindgen-cli
# of the version web/pbn-wasm pins (compiled once into
# .ci/cache/wasm-bindgen-<version>), Debian's chromium and playwright-core
# (npm ci in web/test). Idempotent: a second run only checks. Prints the
# path of wasm-bindgen as its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
say() { printf '[install-web] %s\n' "$*" >&2; }
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

need=()
command -v clang >/dev/null || need+=(clang)
command -v wasm-ld >/dev/null || need+=(lld)
[ -x /usr/bin/chromium ] || need+=(chromium fonts-liberation)
if [ ${#need[@]} -gt 0 ]; then
  say "apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q -o DPkg::Lock::Timeout=600 >/dev/null
  apt-get install -y -q -o DPkg::Lock::Timeout=600 "${need[@]}" >/dev/null
fi
say "$(clang --version | head -n1); $(wasm-ld --version)"

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown >&2
fi

version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' web/pbn-wasm/Cargo.toml)
prefix="$ROOT/.ci/cache/wasm-bindgen-$version"
bin="$prefix/bin/wasm-bindgen"
if "$bin" --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  say "wasm-bindgen-cli $version: cached in ${prefix#"$ROOT"/}"
else
  say "cargo install wasm-bindgen-cli $version (a few minutes, once)"
  # Not --locked: its lock file names a webpki-roots release some
  # registry mirrors lack; the CLI's own version is pinned.
  cargo install wasm-bindgen-cli --version "$version" --root "$prefix" >&2
fi

stamp="$ROOT/web/test/node_modules/.pbn-lock.sha256"
want=$(sha256sum web/test/package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  say "web/test/node_modules: up to date"
else
  say "npm ci in web/test"
  (cd web/test && npm ci --no-audit --no-fund --loglevel=error >&2)
  echo "$want" >"$stamp"
fi
echo "$bin"
