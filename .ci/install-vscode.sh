#!/usr/bin/env bash
# Installs what the VS Code end-to-end test (tests/tests/editor_vscode.rs)
# needs: Debian's chromium, the extension's node dependencies (npm ci in
# editors/vscode: TypeScript, vsce, vscode-tmgrammar-test, playwright-core)
# and code-server (npm, into .ci/cache/code-server-<version>).
# Idempotent: a second run only checks and returns in a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.100.3}" # 4.100.x runs on node 20
CACHE="$ROOT/.ci/cache"
CS_PREFIX="$CACHE/code-server-$CODE_SERVER_VERSION"
EXT="$ROOT/editors/vscode"

export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# node-gyp builds code-server's native modules against the local node headers
# (the network is closed, so it must not download them).
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node_api.h ]; then
  export npm_config_nodedir=/usr
fi

say() { printf '[install-vscode] %s\n' "$*"; }
t0=$(date +%s)

# --- Debian packages: chromium; libkrb5-dev for code-server's native
# `kerberos` module (node-gyp also needs make, g++ and python3); ripgrep
# stands in for the one @vscode/ripgrep would download -------------------
need=()
[ -x /usr/bin/chromium ] || need+=(chromium fonts-liberation)
[ -f /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v rg >/dev/null || need+=(ripgrep)
command -v unzip >/dev/null || need+=(unzip) # the e2e test looks into the .vsix
for tool in make g++ python3; do command -v "$tool" >/dev/null || need+=("$tool"); done
if [ ${#need[@]} -gt 0 ]; then
  say "apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Wait for another apt/dpkg instead of failing on its lock.
  apt-get update -q -o DPkg::Lock::Timeout=600 >/dev/null
  apt-get install -y -q -o DPkg::Lock::Timeout=600 "${need[@]}" >/dev/null
fi
say "chromium: $(/usr/bin/chromium --version 2>/dev/null)"

# --- the extension's node dependencies (npm ci) -------------------------
# Re-run npm ci only when package-lock.json changed since the last one.
stamp="$EXT/node_modules/.pbn-lock.sha256"
want=$(sha256sum "$EXT/package-lock.json" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$EXT/node_modules/playwright-core" ]; then
  say "editors/vscode/node_modules: up to date"
else
  say "npm ci in editors/vscode"
  (cd "$EXT" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" >"$stamp"
fi

# --- code-server (npm, cached) ------------------------------------------
CS_BIN="$CS_PREFIX/node_modules/.bin/code-server"
if [ -x "$CS_BIN" ] && [ -f "$CS_PREFIX/.complete" ]; then
  say "code-server $CODE_SERVER_VERSION: cached in ${CS_PREFIX#"$ROOT"/}"
else
  say "installing code-server $CODE_SERVER_VERSION into ${CS_PREFIX#"$ROOT"/} (takes a few minutes)"
  rm -rf "$CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  printf '{ "name": "code-server-cache", "private": true }\n' >"$CS_PREFIX/package.json"
  # VS Code's @vscode/ripgrep downloads rg from GitHub in its postinstall,
  # which the closed network refuses; it first looks in its download cache
  # ($TMPDIR/vscode-ripgrep-cache-<pkg version>/<asset>), so seed that with
  # Debian's rg. The names are those of code-server 4.100.3's pins
  # (@vscode/ripgrep 1.15.11, ripgrep v13.0.0-10); update them with it.
  export TMPDIR="$CACHE/tmp"
  rg_cache="$TMPDIR/vscode-ripgrep-cache-${RIPGREP_PKG_VERSION:-1.15.11}"
  rg_asset="ripgrep-${RIPGREP_VERSION:-v13.0.0-10}-$(uname -m)-unknown-linux-musl.tar.gz"
  mkdir -p "$rg_cache"
  rg_stage=$(mktemp -d)
  cp "$(command -v rg)" "$rg_stage/rg"
  tar czf "$rg_cache/$rg_asset" -C "$rg_stage" rg
  rm -rf "$rg_stage"
  # As root, npm needs unsafe-perm for code-server's postinstall (which runs
  # nested npm installs that build native modules); npm >= 11 also blocks
  # dependency install scripts unless allowed.
  (
    cd "$CS_PREFIX"
    export npm_config_unsafe_perm=true npm_config_yes=true
    export npm_config_dangerously_allow_all_scripts=true
    npm install --no-audit --no-fund --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION"
  )
  # The postinstall builds vscode's native modules; check that it worked.
  "$CS_BIN" --version >/dev/null
  touch "$CS_PREFIX/.complete"
fi
say "code-server: $("$CS_BIN" --version 2>/dev/null | head -1)"

say "done in $(($(date +%s) - t0)) s"
