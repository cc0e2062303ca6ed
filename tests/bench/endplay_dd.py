#!/usr/bin/env python3
"""endplay's double-dummy solver, for `pbn-bench dd` and the par fixture.

Usage:
    endplay_dd.py tables FILE [--reps N] [--threads T]
    endplay_dd.py par --seed S --count N

`tables`: FILE holds one PBN deal a line (`N:AKQ... ...`). Each repetition
solves them all with `endplay.dds.calc_all_tables` (DDS's batch solver on
every core, in chunks of 40: DDS's MAXNOOFTABLES, the most one call
takes when all five strains are solved; `--threads 1`: DDS's
`SetMaxThreads(1)` first, so on one thread); only those calls
are timed (time.perf_counter, and time.process_time for the CPU time of
every thread), after an untimed warm-up on the first 10 deals. Prints
one JSON object:

    {"seconds": [...], "cpu_seconds": [...], "deals": 1000, "tables": ["63b3c...", ...],
     "endplay": "0.5.12", "python": "3.11.7"}

`tables` holds each deal's 20 results as a DoubleDummyTricks value
(declarers N, S, E, W, each in NT, S, H, D, C; hexadecimal digits), so the
caller can check that both solvers agree.

`par`: N random deals from Python's `random.Random(S)` (a shuffled pack,
a random dealer and vulnerability) with endplay's table (`calc_dd_table`)
and `par` of each (DDS's DealerParBin: score for North-South, and every
par contract). Prints the JSON of tests/fixtures/dd/par_endplay.json:

    {"generator": "...", "deals": [{"deal": "N:...", "dealer": "E",
      "vulnerable": "NS", "table": "63b3c...", "score": -420,
      "contracts": ["E 4SX-1", ...]}, ...]}

A contract is `<declarer> <level><strain>[X]<result>` with the result
`=`, `+n` or `-n` (strain N for notrump), sorted.

Exit status 2 when endplay cannot be imported, 1 on bad arguments.
"""

import json
import platform
import random
import sys
import time


# DDS's MAXNOOFTABLES: CalcAllTables solves at most 40 deals a call when
# no strain is filtered out ("Too many DD tables requested" beyond).
CHUNK = 40


def fail(status: int, message: str) -> None:
    print(json.dumps({"error": message}))
    print(f"endplay_dd.py: {message}", file=sys.stderr)
    sys.exit(status)


def load():
    try:
        import endplay
        from endplay import dds, types
    except Exception as e:  # ImportError, or a broken install
        fail(2, f"cannot import endplay: {e!r}")
    return endplay, dds, types


def tables(args) -> None:
    reps = 1
    if "--reps" in args:
        i = args.index("--reps")
        try:
            reps = max(1, int(args[i + 1]))
        except (IndexError, ValueError):
            fail(1, "--reps needs a count")
        del args[i : i + 2]
    threads = 0
    if "--threads" in args:
        i = args.index("--threads")
        try:
            threads = max(0, int(args[i + 1]))
        except (IndexError, ValueError):
            fail(1, "--threads needs a count")
        del args[i : i + 2]
    if len(args) != 1:
        fail(1, "usage: endplay_dd.py tables FILE [--reps N] [--threads T]")
    endplay, dds, types = load()
    if threads:
        from endplay import _dds

        _dds.SetMaxThreads(threads)
    with open(args[0], encoding="utf-8") as f:
        deals = [types.Deal(line.strip()) for line in f if line.strip()]
    seconds = []
    cpu_seconds = []
    results = []
    # Untimed warm-up, as pbn-bench does for ours: DDS starts its threads
    # and memory on the first call.
    dds.calc_all_tables(deals[:10])
    for _ in range(reps):
        results = []
        t = time.perf_counter()
        c = time.process_time()
        for i in range(0, len(deals), CHUNK):
            try:
                results.extend(dds.calc_all_tables(deals[i : i + CHUNK]))
            except Exception as e:  # endplay's DDSError, or a bad deal
                fail(1, f"calc_all_tables on deals {i + 1}..: {e!r}")
        seconds.append(time.perf_counter() - t)
        cpu_seconds.append(time.process_time() - c)
    out = [dd_tricks(t, types) for t in results]
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu_seconds": cpu_seconds,
                "deals": len(deals),
                "tables": out,
                "endplay": getattr(endplay, "__version__", "?"),
                "python": platform.python_version(),
            }
        )
    )


def dd_tricks(table, types) -> str:
    """A table as a DoubleDummyTricks value (declarers N, S, E, W, each in
    NT, S, H, D, C; hexadecimal digits)."""
    P, D = types.Player, types.Denom
    order = [P.north, P.south, P.east, P.west]
    strains = [D.nt, D.spades, D.hearts, D.diamonds, D.clubs]
    return "".join(f"{table[s, p]:x}" for p in order for s in strains)


def contract_text(c, types) -> str:
    D = types.Denom
    strain = {D.nt: "N", D.spades: "S", D.hearts: "H", D.diamonds: "D", D.clubs: "C"}[
        c.denom
    ]
    x = {types.Penalty.passed: "", types.Penalty.doubled: "X"}.get(c.penalty, "XX")
    r = c.result
    result = "=" if r == 0 else (f"+{r}" if r > 0 else str(r))
    return f"{c.declarer.abbr} {c.level}{strain}{x}{result}"


def par(args) -> None:
    try:
        seed = int(args[args.index("--seed") + 1])
        count = int(args[args.index("--count") + 1])
    except (ValueError, IndexError):
        fail(1, "usage: endplay_dd.py par --seed S --count N")
    endplay, dds, types = load()
    rng = random.Random(seed)
    seats = "NESW"
    vuls = {"None": types.Vul.none, "NS": types.Vul.ns, "EW": types.Vul.ew, "All": types.Vul.both}
    out = []
    for _ in range(count):
        cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
        rng.shuffle(cards)
        hands = []
        for h in range(4):
            mine = set(cards[h * 13 : h * 13 + 13])
            hands.append(
                ".".join(
                    "".join(r for r in "AKQJT98765432" if s + r in mine) for s in "SHDC"
                )
            )
        dealer = rng.choice(seats)
        vul = rng.choice(list(vuls))
        deal = "N:" + " ".join(hands)
        table = dds.calc_dd_table(types.Deal(deal))
        p = dds.par(table, vuls[vul], types.Player.find(dealer))
        out.append(
            {
                "deal": deal,
                "dealer": dealer,
                "vulnerable": vul,
                "table": dd_tricks(table, types),
                "score": p.score,
                "contracts": sorted(contract_text(c, types) for c in p),
            }
        )
    print(
        json.dumps(
            {
                "generator": f"tests/bench/endplay_dd.py par --seed {seed} --count {count}"
                f" (endplay {getattr(endplay, '__version__', '?')})",
                "deals": out,
            },
            indent=1,
        )
    )


def main() -> None:
    args = sys.argv[1:]
    if not args or args[0] not in ("tables", "par"):
        fail(
            1,
            "usage: endplay_dd.py tables FILE [--reps N] [--threads T]"
            " | par --seed S --count N",
        )
    if args[0] == "tables":
        tables(args[1:])
    else:
        par(args[1:])


if __name__ == "__main__":
    main()
