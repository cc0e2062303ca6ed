#!/bin/sh
# Rebuilds ../vendor/codemirror.js from the versions pinned in
# package-lock.json (needs npm; building the page does not).
set -eu
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
mkdir -p ../vendor
./node_modules/.bin/esbuild entry.js --bundle --minify --format=esm \
  --legal-comments=eof --outfile=../vendor/codemirror.js
