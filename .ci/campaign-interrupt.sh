#!/usr/bin/env bash
# fuzz/campaign.py must stop its fuzzer when it is itself stopped (Ctrl-C or
# SIGTERM), and still write its log and summary. The fuzzer runs in a session
# of its own, so nothing else would stop it; and a shell starts background jobs
# with SIGINT ignored, which is how four fuzzers once ran on two cores for an
# hour (ROBUSTNESS.md, "Tools"). Started here the way that happened: in the
# background of a non-interactive shell.
#
# For each of SIGINT and SIGTERM: a short incremental_reparse campaign from
# the seeds, the signal once the corpus is loaded, then expect exit status
# 128 + the signal, "interrupted" in the log and the summary, and no process
# left in the fuzzer's session. About 15 s each.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
session=""
camp=""
cleanup() {
  [ -n "$camp" ] && kill -KILL "$camp" 2>/dev/null || true
  [ -n "$session" ] && pkill -KILL -s "$session" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: campaign.py and SIG$1: $2" >&2; sed 's/^/  | /' "$tmp/$1.out" >&2 || true; exit 1; }

for sig in INT TERM; do
  log="$tmp/$sig.log"
  PBN_FUZZ_CORPUS_DIR="$tmp/corpus-$sig" python3 fuzz/campaign.py run incremental_reparse \
    --from-seeds --max 600 --log "$log" >"$tmp/$sig.out" 2>&1 &
  camp=$!
  for _ in $(seq 600); do
    grep -q INITED "$log" 2>/dev/null && break
    kill -0 "$camp" 2>/dev/null || break
    sleep 0.5
  done
  grep -q INITED "$log" 2>/dev/null || fail "$sig" "the corpus was never loaded (no INITED line in the log)"
  # The fuzzer's session: campaign.py starts fuzz/run.sh with
  # start_new_session, so the session id is run.sh's pid.
  session=$(pgrep -P "$camp" | head -n1)
  [ -n "$session" ] || fail "$sig" "no fuzzer process under campaign.py"
  sleep 2
  kill -"$sig" "$camp"
  for _ in $(seq 120); do
    kill -0 "$camp" 2>/dev/null || break
    sleep 0.5
  done
  kill -0 "$camp" 2>/dev/null && fail "$sig" "campaign.py still running 60 s after the signal"
  status=0
  wait "$camp" || status=$?
  want=$((128 + $(kill -l "$sig")))
  [ "$status" -eq "$want" ] || fail "$sig" "exit status $status, expected $want"
  grep -q "campaign: interrupted by signal" "$log" || fail "$sig" "the log does not say it was interrupted"
  grep -q "interrupted (Ctrl-C or a kill)" "$tmp/$sig.out" || fail "$sig" "the summary does not say it was interrupted"
  sleep 1
  if pgrep -s "$session" >/dev/null; then
    pgrep -a -s "$session" >&2
    fail "$sig" "processes of the fuzzer's session are still running"
  fi
  session=""
  camp=""
  echo "SIG$sig: campaign.py exited $status, log and summary say interrupted, no fuzzer left"
done
