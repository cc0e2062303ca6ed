#!/usr/bin/env bash
# Installs Emacs (with eglot) and Vim (with ALE) from Debian for the editor
# tests, if they are missing:
#   emacs-nox elpa-eglot vim-nox vim-ale
set -euo pipefail

missing=()
command -v emacs >/dev/null 2>&1 || missing+=(emacs-nox)
[[ -d /usr/share/emacs/site-lisp/elpa-src ]] && compgen -G '/usr/share/emacs/site-lisp/elpa-src/eglot-*' >/dev/null \
  || missing+=(elpa-eglot)
# vim-nox: a full vim with +eval/+job/+timers (vim-tiny cannot run ALE)
dpkg -s vim-nox >/dev/null 2>&1 || missing+=(vim-nox)
[[ -d /usr/share/vim-ale ]] || dpkg -s vim-ale >/dev/null 2>&1 || missing+=(vim-ale)

if ((${#missing[@]} == 0)); then
  echo "emacs/eglot and vim/ALE already installed" >&2
  exit 0
fi

SUDO=
if [[ $(id -u) != 0 ]]; then SUDO=sudo; fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
emacs --version | head -n1 >&2
vim --version | head -n1 >&2
