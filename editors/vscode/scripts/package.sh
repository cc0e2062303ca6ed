#!/usr/bin/env bash
# Builds the extension into editors/vscode/pbn.vsix (or the path given with -o).
#   scripts/package.sh [-o OUT.vsix] [--bundle PATH/TO/pbn]
# --bundle copies a pbn binary into server/ so that the .vsix carries it (the
# extension uses it when pbn.server.path is not set); without it, server/ is
# packaged as it is (absent normally).
set -euo pipefail
cd "$(dirname "$0")/.."
out=pbn.vsix
bundle=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift 2 ;;
    --bundle) bundle=$2; shift 2 ;;
    *) echo "usage: $0 [-o OUT.vsix] [--bundle PATH/TO/pbn]" >&2; exit 2 ;;
  esac
done
[ -x node_modules/.bin/vsce ] || npm ci --no-audit --no-fund
if [ -n "$bundle" ]; then
  rm -rf server
  mkdir -p server
  cp "$bundle" server/
  chmod +x server/*
fi
# vsce runs the vscode:prepublish script (tsc) first.
exec node_modules/.bin/vsce package --allow-missing-repository --skip-license -o "$out"
