#!/usr/bin/env python3
"""Which Rust edges the inputs of one corpus add to another, and where they are.

    python3 fuzz/newedges.py TARGET OLD_DIR NEW_DIR [--binary PATH] [--keep DIR]

A campaign's edge count (`cov:`, see ROBUSTNESS.md) says how many
instrumented blocks of the Rust code have run, not which. This runs every
input of OLD_DIR and then of NEW_DIR through the fuzz build of TARGET
(`fuzz/run.sh --build TARGET` first; by default the binary is found where
run.sh builds it, as `stability.py` finds it, under $PBN_FUZZ_TARGET_DIR
or fuzz/target) with libFuzzer's `-merge=1` and a control file, which lists for each input the blocks no
input before it had run. The blocks first run by an input of NEW_DIR are
looked up in the binary's table of instrumented blocks (`__sancov_pcs`,
whose entries a position-independent binary holds as relocations) and
named with `llvm-symbolizer`, inlined frames included. Each is printed
with its chain of frames, innermost first, and classed by the source file
of the innermost frame: the project's own code (`server/`, `tests/`), or
the standard library or a dependency inlined into it (integer parsing,
sorting, UTF-8 decoding, memchr, deallocation).

The directories are not changed: OLD_DIR's inputs are hard-linked (or
copied) into a scratch directory that the merge writes to. Typical use,
after a session, on copies of the corpus taken before and after it:

    python3 fuzz/newedges.py parse_check /tmp/before /tmp/after
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from stability import MAX_LEN, binary as fuzz_build

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent


def section(binary, name):
    """(address, size) of a section, from `readelf -S`."""
    out = subprocess.run(["readelf", "-S", "-W", str(binary)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        fields = line.replace("[ ", "[").split()
        if name in fields:
            i = fields.index(name)
            return int(fields[i + 2], 16), int(fields[i + 4], 16)
    sys.exit(f"newedges: {binary} has no {name} section (not a libFuzzer build with a PC table?)")


def pc_table(binary):
    """Block index → address: the table's entries are (pc, flags) pairs;
    in a position-independent binary the pc is the addend of a
    R_X86_64_RELATIVE relocation at the entry, not the section's bytes."""
    start, size = section(binary, "__sancov_pcs")
    n = size // 16
    pcs = [None] * n
    out = subprocess.run(["readelf", "-r", "-W", str(binary)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and "RELATIVE" in f[2]:
            try:
                off = int(f[0], 16)
            except ValueError:
                continue
            if start <= off < start + 16 * n and (off - start) % 16 == 0:
                pcs[(off - start) // 16] = int(f[3], 16)
    if any(p is None for p in pcs):
        # Not position-independent: the addresses are the section's bytes.
        data = subprocess.run(["objcopy", "-O", "binary", "--only-section=__sancov_pcs", str(binary), "/dev/stdout"],
                              capture_output=True, check=True).stdout
        pcs = [int.from_bytes(data[16 * i:16 * i + 8], "little") for i in range(n)]
    return pcs


def symbolize(binary, addrs):
    out = subprocess.run(["llvm-symbolizer", f"--obj={binary}", "--inlining=true", "--output-style=JSON"],
                         input="\n".join(hex(a) for a in addrs), capture_output=True, text=True, check=True).stdout
    return [json.loads(line)["Symbol"] for line in out.splitlines() if line.strip()]


def where(path):
    if path.startswith(str(ROOT / "server")) or path.startswith(str(ROOT / "tests")):
        return "project"
    if "/library/" in path or "/rust/deps/" in path:
        return "std"
    m = re.search(r"registry/src/[^/]+/([^/]+)/", path)
    return f"dependency {m.group(1)}" if m else "other"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("target", choices=["parse_check", "fmt", "incremental_reparse"])
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--binary", type=Path, help="the fuzz build (default: where fuzz/run.sh --build puts it)")
    p.add_argument("--keep", type=Path, help="keep the scratch directory (control file, merge log) here")
    args = p.parse_args()
    binary = args.binary or fuzz_build(args.target)
    if not binary.is_file():
        sys.exit(f"newedges: no fuzz build at {binary}: fuzz/run.sh --build {args.target}")
    for d in (args.old, args.new):
        if not d.is_dir():
            sys.exit(f"newedges: {d} is not a directory")
    for tool in ("readelf", "llvm-symbolizer"):
        if not shutil.which(tool):
            sys.exit(f"newedges: {tool} not found")

    scratch = Path(tempfile.mkdtemp(prefix="pbn-newedges-"))
    try:
        first = scratch / "old"
        first.mkdir()
        for f in args.old.iterdir():
            if f.is_file():
                try:
                    os.link(f, first / f.name)
                except OSError:
                    shutil.copyfile(f, first / f.name)
        ctl = scratch / "merge.ctl"
        print(f"newedges: running {sum(1 for _ in first.iterdir())} old and "
              f"{sum(1 for f in args.new.iterdir() if f.is_file())} new inputs through {binary.name} …", file=sys.stderr)
        with open(scratch / "merge.log", "w") as log:
            rc = subprocess.run([str(binary), "-merge=1", f"-merge_control_file={ctl}", "-timeout=10", "-rss_limit_mb=2048",
                                 f"-max_len={MAX_LEN}", str(first), str(args.new)], stdout=log, stderr=subprocess.STDOUT).returncode
        if rc != 0:
            sys.exit(f"newedges: the merge failed (exit {rc}); see {scratch / 'merge.log'}")
        lines = ctl.read_text().split("\n")
        nfiles, nfirst = int(lines[0]), int(lines[1])
        names = lines[2:2 + nfiles]
        new = []
        for line in lines[2 + nfiles:]:
            if line.startswith("COV "):
                f = line.split()
                i = int(f[1])
                if i >= nfirst:
                    new += [(Path(names[i]).name, int(x)) for x in f[2:]]
        pcs = pc_table(binary)
        symbols = symbolize(binary, [pcs[idx] for _, idx in new])
        kinds = collections.Counter()
        for (name, idx), frames in zip(new, symbols):
            kind = where(frames[0]["FileName"])
            kinds[kind] += 1
            chain = " <- ".join(f"{fr['FunctionName']} ({Path(fr['FileName']).name}:{fr['Line']})" for fr in frames)
            print(f"{kind:<12} {name[:12]}  {chain}")
        total = sum(kinds.values())
        print(f"\n{total} edges first run by an input of {args.new}: "
              + (", ".join(f"{n} in {k} code" for k, n in kinds.most_common()) or "none"))
    finally:
        if args.keep:
            shutil.copytree(scratch, args.keep, dirs_exist_ok=True)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
