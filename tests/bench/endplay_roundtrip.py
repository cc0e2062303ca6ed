#!/usr/bin/env python3
"""Times endplay reading and writing one PBN file, for `pbn-bench fmt`.

Usage: endplay_roundtrip.py FILE [--reps N]

Each repetition opens FILE, calls `endplay.parsers.pbn.load(f)` and writes
the boards back with `endplay.parsers.pbn.dump(boards, out)` into an
in-memory buffer; load and dump are timed together (time.perf_counter).
Prints one JSON object: {"seconds": [...], "boards": N, "bytes": M}.
Exit status 2 when endplay cannot be imported, 1 on any other failure.
"""

import io
import json
import sys
import time


def fail(status, message):
    print(json.dumps({"error": message}))
    print(f"endplay_roundtrip.py: {message}", file=sys.stderr)
    sys.exit(status)


def main():
    args = sys.argv[1:]
    reps = 1
    if "--reps" in args:
        i = args.index("--reps")
        reps = max(1, int(args[i + 1]))
        del args[i : i + 2]
    if len(args) != 1:
        fail(1, "usage: endplay_roundtrip.py FILE [--reps N]")
    try:
        from endplay.parsers import pbn
    except Exception as e:
        fail(2, f"cannot import endplay: {e!r}")
    seconds = []
    boards = []
    size = 0
    for _ in range(reps):
        with open(args[0], encoding="utf-8") as f:
            start = time.perf_counter()
            try:
                boards = pbn.load(f)
                out = io.StringIO()
                pbn.dump(boards, out)
            except Exception as e:
                fail(1, f"endplay load/dump failed: {e!r}")
            seconds.append(time.perf_counter() - start)
            size = len(out.getvalue())
    print(json.dumps({"seconds": seconds, "boards": len(boards), "bytes": size}))


if __name__ == "__main__":
    main()
