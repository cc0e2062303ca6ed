#!/usr/bin/env python3
"""Times endplay's PBN reader on one file, for `pbn-bench check`.

Usage: endplay_load.py FILE [--reps N]

Each repetition opens FILE and calls `endplay.parsers.pbn.load(f)`; only
that call is timed (time.perf_counter), not the interpreter start, the
import of endplay or opening the file. Prints one JSON object on stdout:

    {"seconds": [...], "boards": 20000, "played": 19200,
     "endplay": "0.5.12", "python": "3.11.7"}

`boards` counts the boards read and `played` those with a play history,
so that the caller can confirm endplay read every game, play included.
Exit status 2 when endplay cannot be imported, 1 when the load fails; the
reason is on stderr and in a JSON object {"error": "..."} on stdout.
"""

import json
import platform
import sys
import time


def fail(status: int, message: str) -> None:
    print(json.dumps({"error": message}))
    print(f"endplay_load.py: {message}", file=sys.stderr)
    sys.exit(status)


def main() -> None:
    args = sys.argv[1:]
    reps = 1
    if "--reps" in args:
        i = args.index("--reps")
        try:
            reps = max(1, int(args[i + 1]))
        except (IndexError, ValueError):
            fail(1, "--reps needs a count")
        del args[i : i + 2]
    if len(args) != 1:
        fail(1, "usage: endplay_load.py FILE [--reps N]")
    path = args[0]

    try:
        import endplay
        from endplay.parsers import pbn
    except Exception as e:  # ImportError, or a broken install
        fail(2, f"cannot import endplay: {e!r}")

    seconds = []
    boards = []
    for _ in range(reps):
        # ASCII files (the generator writes ASCII); endplay reads text.
        with open(path, encoding="utf-8") as f:
            start = time.perf_counter()
            try:
                boards = pbn.load(f)
            except Exception as e:
                fail(1, f"endplay.parsers.pbn.load failed: {e!r}")
            seconds.append(time.perf_counter() - start)
        if len(seconds) < reps:
            del boards  # do not keep two copies alive

    print(
        json.dumps(
            {
                "seconds": seconds,
                "boards": len(boards),
                "played": sum(1 for b in boards if len(b.play) > 0),
                "endplay": getattr(endplay, "__version__", "?"),
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
