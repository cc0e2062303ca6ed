#!/usr/bin/env python3
"""What a fuzz session added to source coverage (see ROBUSTNESS.md, "Where
coverage stops").

    fuzz/covdiff.py OLD-REPORT-DIR NEW-REPORT-DIR

Both directories are written by `fuzz/coverage.sh TARGET REPORT-DIR
[CORPUS-DIR]` for the same target and the same code, for example on the
corpus kept before a session and on the corpus after it. Reads their
`TARGET.json` (`llvm-cov export`) and prints how many code regions and
lines of the project's Rust code each corpus runs, then every region and
line the new corpus runs that the old one did not (and the reverse), with
its source.

libFuzzer's `cov:` counts edges between basic blocks: it can grow while no
new line or region runs (a known block reached from another one). This
tells the two apart.
"""
import json
import os
import re
import signal
import sys

# Piped into head or less: end quietly when the reader stops reading.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)

ROOTS = re.compile(r"/((?:server|tests|tree-sitter-pbn)/.*)$")


def load(report_dir):
    if not os.path.isdir(report_dir):
        sys.exit(f"{report_dir}: no such report directory (fuzz/coverage.sh TARGET REPORT-DIR writes one)")
    names = [n for n in os.listdir(report_dir) if n.endswith(".json")]
    if len(names) != 1:
        sys.exit(f"{report_dir}: expected one TARGET.json from fuzz/coverage.sh, found {names}")
    data = json.load(open(os.path.join(report_dir, names[0])))["data"][0]
    regions, lines, sources = {}, {}, {}
    for function in data["functions"]:
        files = function["filenames"]
        for start, col, end, end_col, count, file_id, _, kind in function["regions"]:
            if kind != 0:  # code regions only (not expansions, gaps, skipped)
                continue
            match = ROOTS.search(files[file_id])
            if not match:
                continue
            path = match.group(1)
            sources.setdefault(path, files[file_id])
            # a generic function is one entry per instantiation: covered if any ran
            key = (path, start, col, end, end_col)
            regions[key] = regions.get(key, 0) + count
            for line in range(start, end + 1):
                lines[(path, line)] = lines.get((path, line), 0) + count
    return regions, lines, sources


def source_line(sources, path, line, cache={}):
    if path not in cache:
        try:
            cache[path] = open(sources[path], encoding="utf-8").read().splitlines()
        except OSError:
            cache[path] = []
    text = cache[path]
    return text[line - 1].strip() if 0 < line <= len(text) else ""


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    old_regions, old_lines, sources = load(sys.argv[1])
    new_regions, new_lines, new_sources = load(sys.argv[2])
    sources.update(new_sources)
    if set(old_regions) != set(new_regions):
        print("warning: the two reports are of different code; compare reports of one build", file=sys.stderr)
    for name, old, new in (("regions", old_regions, new_regions), ("lines", old_lines, new_lines)):
        run_old = {k for k, v in old.items() if v}
        run_new = {k for k, v in new.items() if v}
        print(f"{name}: {len(run_old)} of {len(old)} run before, {len(run_new)} of {len(new)} after; "
              f"{len(run_new - run_old)} newly run, {len(run_old - run_new)} no longer run")
    for title, a, b in (("newly run", old_regions, new_regions), ("no longer run", new_regions, old_regions)):
        by_line = {}
        for path, start, col, _, _ in (k for k, v in b.items() if v and not a.get(k)):
            by_line.setdefault((path, start), []).append(col)
        if by_line:
            print(f"\nregions {title}, by the line they start on (path:line:columns):")
        for (path, line), cols in sorted(by_line.items()):
            where = f"{path}:{line}:{','.join(map(str, sorted(cols)))}"
            print(f"  {where:48} {source_line(sources, path, line)}")


if __name__ == "__main__":
    main()
