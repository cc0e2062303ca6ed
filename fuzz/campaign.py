#!/usr/bin/env python3
"""Fuzz campaigns that end when coverage stops growing (see ROBUSTNESS.md).

    python3 fuzz/campaign.py run TARGET [--max SECONDS] [--flat SECONDS] [--log FILE] [--from-seeds] [-- libFuzzer flags…]
    python3 fuzz/campaign.py summary LOG…

`run` runs `fuzz/run.sh TARGET` (which seeds the corpus first and, unless
--from-seeds, restores the corpus kept in the repository, fuzz/kept/TARGET.pack:
see fuzz/kept.py) and writes
every line libFuzzer prints, prefixed by the Unix time, to the log (default
fuzz/logs/TARGET-YYYYmmdd-HHMM.log, gitignored). It stops the fuzzer with
SIGINT, as Ctrl-C would, once the Rust edge count (`cov:`) has not grown for
--flat seconds (default 1800) after the corpus was loaded, or after --max
seconds (default 14400) in all. Ctrl-C (SIGINT) or SIGTERM to campaign.py
stops the fuzzer the same way (exit status 128 + the signal). A finding (crash, failed property, timeout,
out of memory) ends it too; the exit status is the fuzzer's (0 on a
plateau). Then it prints the summary.

`summary` reads such logs: the table row of ROBUSTNESS.md ("Results") and
the Rust edges gained in each ten minutes after loading.
"""
import argparse
import datetime
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
STEP = 600
STAT = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+)(?: corp: (\d+))?")
PLATEAU = "campaign: stopping, no new Rust edge for"
INTERRUPTED = "campaign: interrupted by signal"


def parse(path):
    """The log's events: (time, executions, kind, cov, ft, corpus)."""
    events, lines = [], []
    for raw in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        stamp, _, line = raw.partition(" ")
        if not stamp.isdigit():
            continue
        t = int(stamp)
        lines.append((t, line))
        m = STAT.match(line)
        if m:
            corp = int(m.group(5)) if m.group(5) else None
            events.append((t, int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)), corp))
    return lines, events


def end_reason(lines):
    text = "\n".join(line for _, line in lines)
    if PLATEAU in text:
        secs = re.search(re.escape(PLATEAU) + r" (\d+) s", text).group(1)
        return f"stopped on a plateau: no new Rust edge for {secs} s"
    for needle, why in (("deadly signal", "stopped by a finding (crash or failed property)"),
                        ("panicked at", "stopped by a finding (failed property)"),
                        ("ERROR: libFuzzer: timeout", "stopped by a finding (timeout)"),
                        ("out-of-memory", "stopped by a finding (out of memory)")):
        if needle in text:
            return why
    if INTERRUPTED in text:
        return "interrupted (Ctrl-C or a kill)"
    if re.search(r"^Done \d+ runs", text, re.M):
        return "ran to the end"
    return "still running, or interrupted"


def last_growth(events, index):
    """Time at which the value at `index` last increased."""
    best, when = -1, None
    for e in events:
        if e[index] > best:
            best, when = e[index], e[0]
    return when


def summary(path):
    lines, events = parse(path)
    if not lines or not events:
        return f"{path}: no libFuzzer statistics in it"
    name = Path(path).name.split("-")[0]
    # cargo fuzz prints "Running `…/release/TARGET -artifact_prefix=…`"
    m = re.search(r"Running:? `?\S*/(\w+) -", "\n".join(line for _, line in lines))
    target = m.group(1) if m else name
    start, end = lines[0][0], lines[-1][0]
    inited = next((e[0] for e in events if e[2] == "INITED"), events[0][0])
    execs = max(e[1] for e in events)
    for _, line in lines:
        s = re.match(r"stat::number_of_executed_units: (\d+)", line)
        if s:
            execs = int(s.group(1))
    last = events[-1]
    corpus = next((e[5] for e in reversed(events) if e[5] is not None), "")
    cov_at, ft_at = last_growth(events, 3), last_growth(events, 4)
    before = [e for e in events if e[0] <= end - STEP]
    recent = f"+{last[3] - before[-1][3]} / +{last[4] - before[-1][4]}" if before else ""
    fuzz_secs = max(1, end - inited)
    rate = round((execs - next(e[1] for e in events if e[0] >= inited)) / fuzz_secs)
    when = datetime.datetime.fromtimestamp(start, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
    row = (f"| `{target}` | {when} | {end - start} | {execs} | {rate} | {last[3]} | {last[4]} | {corpus} "
           f"| {cov_at - start} | {ft_at - start} | {recent} | {end_reason(lines)} |")
    gains, t, prev = [], inited, next(e[3] for e in events if e[0] >= inited)
    while t < end:
        now = max((e[3] for e in events if e[0] <= t + STEP), default=prev)
        partial = f" (last {end - t} s)" if t + STEP > end else ""
        gains.append(f"+{now - prev}{partial}")
        prev, t = now, t + STEP
    return (f"{row}\n  loading took {inited - start} s; Rust edges gained per {STEP // 60} minutes after it: "
            f"{', '.join(gains)}; cov last grew {end - cov_at} s before the end")


def run(args):
    logs = FUZZ / "logs"
    logs.mkdir(exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M")
    log_path = Path(args.log) if args.log else logs / f"{args.target}-{stamp}.log"
    cmd = ["bash", str(FUZZ / "run.sh"), args.target, str(args.max), "-print_final_stats=1", *args.flags]
    env = dict(os.environ, PBN_FUZZ_KEPT="0" if args.from_seeds else "1")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    lines = queue.Queue()

    def read():
        for raw in proc.stdout:
            lines.put(raw.decode("utf-8", errors="replace").rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    # Ctrl-C or a kill stops the fuzzer as a plateau would (it runs in a
    # session of its own, so it gets no signal from the terminal), and the
    # log and the summary are still written. Installed explicitly: a shell
    # starts background jobs with SIGINT ignored.
    interrupted = []

    def forward(signum, _frame):
        if not interrupted:
            log.write(f"{int(time.time())} {INTERRUPTED} {signum}\n")
            log.flush()
        interrupted.append(signum)
        try:
            os.killpg(proc.pid, signal.SIGINT)
        except ProcessLookupError:
            pass

    inited, cov, grew, stopping = None, -1, None, False
    print(f"campaign: {args.target}, at most {args.max} s, stops after {args.flat} s without a new Rust edge; log {log_path}",
          file=sys.stderr)
    with open(log_path, "w", encoding="utf-8") as log:
        signal.signal(signal.SIGINT, forward)
        signal.signal(signal.SIGTERM, forward)
        while True:
            try:
                line = lines.get(timeout=5)
            except queue.Empty:
                line = ""
            if line is None:
                break
            now = int(time.time())
            if line:
                log.write(f"{now} {line}\n")
                log.flush()
                m = STAT.match(line)
                if m:
                    if m.group(2) == "INITED":
                        inited = now
                        print(f"campaign: corpus loaded, cov {m.group(3)}", file=sys.stderr)
                    if int(m.group(3)) > cov:
                        cov, grew = int(m.group(3)), now
            if inited and not stopping and now - max(grew, inited) >= args.flat:
                msg = f"{PLATEAU} {now - max(grew, inited)} s (cov {cov})"
                log.write(f"{now} {msg}\n")
                print(msg, file=sys.stderr)
                os.killpg(proc.pid, signal.SIGINT)
                stopping = True
        status = proc.wait()
    if not parse(log_path)[1]:  # no statistics: the build or the seeding failed
        tail = log_path.read_text(encoding="utf-8").splitlines()[-20:]
        print("\n".join(line.partition(" ")[2] for line in tail), file=sys.stderr)
    print(summary(log_path))
    if interrupted:
        print(f"campaign: interrupted (signal {interrupted[0]}), the fuzzer was stopped", file=sys.stderr)
        return 128 + interrupted[0]
    return 0 if stopping else status


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="fuzz TARGET until cov stops growing",
                       usage="campaign.py run TARGET [--max SECONDS] [--flat SECONDS] [--log FILE] [--from-seeds] [-- libFuzzer flags…]",
                       epilog="example: python3 fuzz/campaign.py run parse_check --max 7200 -- -seed=1")
    r.add_argument("target", choices=["parse_check", "fmt", "incremental_reparse"])
    r.add_argument("--max", type=int, default=14400, help="seconds in all, loading included (default 14400)")
    r.add_argument("--flat", type=int, default=1800, help="seconds without a new Rust edge that end it (default 1800)")
    r.add_argument("--log", help="log file (default fuzz/logs/TARGET-DATE.log)")
    r.add_argument("--from-seeds", action="store_true",
                   help="do not restore the kept corpus (fuzz/kept/TARGET.pack) first")
    s = sub.add_parser("summary", help="table row and curve of campaign logs")
    s.add_argument("logs", nargs="+")
    # libFuzzer flags start with "-", so they are split off at "--" by hand:
    # argparse's subcommands would take them for options of their own.
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args, flags = p.parse_args(argv[:cut]), argv[cut + 1:]
    if flags and args.cmd != "run":
        p.error("libFuzzer flags after -- go with run only")
    args.flags = flags
    if args.cmd == "run":
        sys.exit(run(args))
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: end quietly
    for path in args.logs:
        if not Path(path).is_file():
            sys.exit(f"campaign.py: no log {path}")
        print(summary(path))


main()
