#!/usr/bin/env bash
# Builds the extension into a .vsix (`npm run package`, which runs it with bash).
#
#   scripts/package.sh [-o OUT.vsix] [--bundle PATH/TO/pbn | --build]
#
# --bundle copies that pbn binary into server/ and packages a platform
# .vsix (`vsce package --target linux-x64`, darwin-arm64, …: the platform
# this runs on, which must be the binary's) that works without pbn on PATH;
# the default name is then pbn-<target>.vsix. --build first runs
# `cargo build --release -p pbn` and bundles target/release/pbn (or
# $CARGO_TARGET_DIR/release/pbn). Without either, server/ is removed and the
# .vsix (pbn.vsix) needs pbn.server.path or pbn on PATH. server/ is removed
# again afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
out=
bundle=
build=0
usage() { echo "usage: $0 [-o OUT.vsix] [--bundle PATH/TO/pbn | --build]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --bundle) [ $# -ge 2 ] || usage; bundle=$2; shift 2 ;;
    --build) build=1; shift ;;
    -h|--help) usage ;;
    *) usage ;;
  esac
done
if [ "$build" = 1 ]; then
  [ -z "$bundle" ] || usage
  (cd ../.. && cargo build --release -p pbn)
  bundle="${CARGO_TARGET_DIR:-../../target}/release/pbn"
fi
[ -x node_modules/.bin/vsce ] || npm ci --no-audit --no-fund

# The VS Code platform name of this machine (vsce --target).
target=
if [ -n "$bundle" ]; then
  [ -f "$bundle" ] || { echo "$0: no pbn binary at $bundle" >&2; exit 1; }
  case "$(node -p 'process.platform + "-" + process.arch')" in
    linux-x64) target=linux-x64 ;;
    linux-arm64) target=linux-arm64 ;;
    linux-arm) target=linux-armhf ;;
    darwin-x64) target=darwin-x64 ;;
    darwin-arm64) target=darwin-arm64 ;;
    win32-x64) target=win32-x64 ;;
    win32-arm64) target=win32-arm64 ;;
    *) echo "$0: no VS Code platform for $(node -p 'process.platform + "-" + process.arch')" >&2; exit 1 ;;
  esac
  # musl-based Linux (Alpine) has its own VS Code platforms.
  if [ "${target%%-*}" = linux ] && ldd --version 2>&1 | grep -qi musl; then
    target="alpine-${target#linux-}"
  fi
fi

rm -rf server
# The binary is in the .vsix: do not leave it for a later unbundled package.
trap 'rm -rf server' EXIT
if [ -n "$bundle" ]; then
  mkdir -p server
  exe=pbn
  case $target in win32-*) exe=pbn.exe ;; esac
  cp "$bundle" "server/$exe"
  chmod +x "server/$exe"
  out=${out:-pbn-$target.vsix}
  set -- --target "$target"
else
  out=${out:-pbn.vsix}
  set --
fi
# vsce runs the vscode:prepublish script (tsc) first.
node_modules/.bin/vsce package --allow-missing-repository --skip-license "$@" -o "$out"
echo "$out"
