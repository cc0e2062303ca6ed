#!/usr/bin/env python3
"""Fuzz corpora that outlive the machine, without copying the shared corpus.

    python3 fuzz/kept.py pack TARGET [--corpus DIR] [--seeds DIR]
    python3 fuzz/kept.py unpack TARGET [--out DIR]
    python3 fuzz/kept.py check
    python3 fuzz/kept.py stats [TARGET…]

A campaign's corpus (`$PBN_FUZZ_CORPUS_DIR/TARGET`, see ROBUSTNESS.md) is
lost with the machine it ran on, and it cannot be committed as it is: most
of its inputs are chunks of the shared corpus (`../shared/corpus`) with a
few bytes mutated, and the shared files must never be copied into the
project. `pack` writes `fuzz/kept/TARGET.pack`, in which every input is an
edit script: runs of at least MIN_COPY bytes that occur in a shared file are
stored as (file, offset, length), everything else (what the fuzzer wrote,
and text of the project's own fixtures) as literal bytes. The seeds that
`seed_corpus.py` writes are left out, since every run writes them again.
`unpack` rebuilds the inputs from the pack and the shared corpus, checks
each against its SHA-1 (an input whose shared file changed or is missing is
skipped, and counted), and writes them into the corpus directory under the
names libFuzzer gives them (the SHA-1 of their content).

Without the shared corpus `unpack` restores only the inputs that need no
shared text. The pack names each shared file it refers to by path and
SHA-1.

Format (gzip, mtime 0, so equal corpora give equal files): the magic
b"PBNKEPT1", a varint count of shared files, each a varint-length UTF-8
path and its 20-byte SHA-1; a varint count of inputs, each its 20-byte SHA-1,
a varint count of pieces, and each piece a varint `n`: `n & 1` = a copy of
`n >> 1` bytes from file (varint) at offset (varint), else `n >> 1` literal
bytes that follow.
"""
import argparse
import gzip
import hashlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
KEPT = FUZZ / "kept"
TARGETS = ("parse_check", "fmt", "incremental_reparse")
MAGIC = b"PBNKEPT1"
# A shared run shorter than this stays literal: tag names and short values
# that every PBN file has in common, not a copy of one. No literal of a pack
# holds MIN_COPY bytes in a row that occur in a shared file (`check`).
MIN_COPY = 24


def shared_dir():
    return Path(os.environ.get("PBN_CORPUS") or ROOT.parent / "shared" / "corpus")


def shared_files():
    base = shared_dir()
    if not base.is_dir():
        return base, []
    files = sorted(p for p in base.rglob("*") if p.is_file() and p.suffix.lower() == ".pbn")
    return base, [(p.relative_to(base).as_posix(), p.read_bytes()) for p in files]


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def read_varint(f):
    n = shift = 0
    while True:
        b = f.read(1)
        if not b:
            raise ValueError("truncated pack")
        n |= (b[0] & 0x7F) << shift
        shift += 7
        if not b[0] & 0x80:
            return n


class Index:
    """Where each MIN_COPY-gram of the shared files first occurs."""

    def __init__(self, files):
        self.files = [data for _, data in files]
        self.grams = {}
        for fi, data in enumerate(self.files):
            for off in range(len(data) - MIN_COPY + 1):
                self.grams.setdefault(data[off : off + MIN_COPY], (fi, off))

    def shared_at(self, data, i):
        return self.grams.get(data[i : i + MIN_COPY])

    def pieces(self, data):
        """The input as copies and literals, left to right: wherever the next
        MIN_COPY bytes occur in a shared file, a copy, as long as it goes on
        matching there; so no literal holds a shared MIN_COPY-gram."""
        out, lit, i, n = [], bytearray(), 0, len(data)
        while i < n:
            hit = self.shared_at(data, i) if i + MIN_COPY <= n else None
            if hit is None:
                lit.append(data[i])
                i += 1
                continue
            fi, off = hit
            src, length = self.files[fi], MIN_COPY
            while i + length < n and off + length < len(src) and src[off + length] == data[i + length]:
                length += 1
            if lit:
                out.append(bytes(lit))
                lit = bytearray()
            out.append((fi, off, length))
            i += length
        if lit:
            out.append(bytes(lit))
        return out


def seed_names(seeds_dir):
    """Names of the inputs seed_corpus.py writes (their SHA-1), per target."""
    def names(base):
        return {t: set(os.listdir(base / t)) if (base / t).is_dir() else set() for t in TARGETS}

    if seeds_dir:
        return names(Path(seeds_dir))
    with tempfile.TemporaryDirectory(prefix="pbn-seeds-") as tmp:
        subprocess.run([sys.executable, str(FUZZ / "seed_corpus.py"), str(shared_dir()), "--out", tmp],
                       check=True, stdout=subprocess.DEVNULL)
        return names(Path(tmp))


def corpus_base(arg):
    return Path(arg or os.environ.get("PBN_FUZZ_CORPUS_DIR") or FUZZ / "corpus").expanduser().resolve()


def pack(args):
    base, files = shared_files()
    if not files:
        print(f"kept.py: warning: no shared corpus at {base}; every input is stored literally", file=sys.stderr)
    index = Index(files)
    corpus = corpus_base(args.corpus) / args.target
    if not corpus.is_dir():
        sys.exit(f"kept.py: no corpus at {corpus}")
    seeds = seed_names(args.seeds)[args.target]
    inputs = []
    for p in sorted(corpus.iterdir()):
        if p.name in seeds or not p.is_file():
            continue
        try:
            data = p.read_bytes()  # a running fuzzer may remove an input meanwhile
        except FileNotFoundError:
            continue
        inputs.append(data)
    used, body = {}, io.BytesIO()
    literal = copied = 0
    for data in inputs:
        body.write(hashlib.sha1(data).digest())
        pieces = index.pieces(data)
        body.write(varint(len(pieces)))
        for piece in pieces:
            if isinstance(piece, bytes):
                body.write(varint(len(piece) << 1))
                body.write(piece)
                literal += len(piece)
            else:
                fi, off, length = piece
                ref = used.setdefault(fi, len(used))
                body.write(varint(length << 1 | 1) + varint(ref) + varint(off))
                copied += length
    head = io.BytesIO()
    head.write(MAGIC)
    head.write(varint(len(used)))
    for fi, _ in sorted(used.items(), key=lambda kv: kv[1]):
        path, data = files[fi]
        raw = path.encode("utf-8")
        head.write(varint(len(raw)) + raw + hashlib.sha1(data).digest())
    head.write(varint(len(inputs)))
    KEPT.mkdir(exist_ok=True)
    out = KEPT / f"{args.target}.pack"
    tmp = out.with_suffix(".pack.tmp")
    with open(tmp, "wb") as raw_out, gzip.GzipFile(fileobj=raw_out, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(head.getvalue() + body.getvalue())
    tmp.replace(out)
    print(f"{args.target}: {len(inputs)} inputs (the seeds left out), {literal} literal and {copied} shared "
          f"bytes -> {out} ({out.stat().st_size} bytes)")


def read_pack(path):
    with gzip.open(path, "rb") as f:
        if f.read(len(MAGIC)) != MAGIC:
            raise ValueError(f"{path}: not a kept corpus")
        refs = []
        for _ in range(read_varint(f)):
            name = f.read(read_varint(f)).decode("utf-8")
            refs.append((name, f.read(20)))
        inputs = []
        for _ in range(read_varint(f)):
            digest = f.read(20)
            pieces = []
            for _ in range(read_varint(f)):
                n = read_varint(f)
                if n & 1:
                    pieces.append((read_varint(f), read_varint(f), n >> 1))
                else:
                    pieces.append(f.read(n >> 1))
            inputs.append((digest, pieces))
    return refs, inputs


def unpack(args):
    path = KEPT / f"{args.target}.pack"
    if not path.is_file():
        print(f"{args.target}: no kept corpus ({path})")
        return
    out = corpus_base(args.out) / args.target
    written, skipped = restore(args.target, out)
    note = f"; {skipped} skipped (a shared file they need is missing or changed under {shared_dir()})" if skipped else ""
    print(f"{args.target}: {written} kept inputs restored into {out}{note}")


def restore(target, out):
    """Writes the inputs of TARGET's pack into the directory `out`; returns
    how many were restored and how many could not be."""
    refs, inputs = read_pack(KEPT / f"{target}.pack")
    _, files = shared_files()
    by_name = {name: data for name, data in files}
    sources = []
    for name, digest in refs:
        data = by_name.get(name)
        sources.append(data if data is not None and hashlib.sha1(data).digest() == digest else None)
    out.mkdir(parents=True, exist_ok=True)
    written = skipped = 0
    for digest, pieces in inputs:
        parts = []
        for piece in pieces:
            if isinstance(piece, bytes):
                parts.append(piece)
            else:
                ref, off, length = piece
                src = sources[ref]
                if src is None:
                    parts = None
                    break
                parts.append(src[off : off + length])
        data = b"".join(parts) if parts is not None else None
        if data is None or hashlib.sha1(data).digest() != digest:
            skipped += 1
            continue
        name = digest.hex()
        if not (out / name).exists():
            (out / name).write_bytes(data)
        written += 1
    return written, skipped


def check(args):
    """Every pack restores whole from the shared corpus, and none of its
    literals holds a run of MIN_COPY bytes of a shared file."""
    base, files = shared_files()
    if not files:
        sys.exit(f"kept.py check: no shared corpus at {base}")
    index = Index(files)
    bad = 0
    for target in TARGETS:
        path = KEPT / f"{target}.pack"
        if not path.is_file():
            print(f"{target}: no kept corpus")
            continue
        refs, inputs = read_pack(path)
        copied = sum(1 for _, ps in inputs for p in ps if isinstance(p, bytes)
                     for i in range(len(p) - MIN_COPY + 1) if index.shared_at(p, i))
        with tempfile.TemporaryDirectory(prefix="pbn-kept-") as tmp:
            restored, skipped = restore(target, Path(tmp))
        print(f"{target}: {restored} of {len(inputs)} inputs restored, {skipped} not; "
              f"{copied} shared runs of {MIN_COPY} bytes in literals")
        bad += skipped + copied
    if bad:
        sys.exit("kept.py check: FAILED")


def stats(args):
    for target in args.targets or TARGETS:
        path = KEPT / f"{target}.pack"
        if not path.is_file():
            print(f"{target}: no kept corpus")
            continue
        refs, inputs = read_pack(path)
        lit = sum(len(p) for _, ps in inputs for p in ps if isinstance(p, bytes))
        cop = sum(p[2] for _, ps in inputs for p in ps if not isinstance(p, bytes))
        print(f"{target}: {len(inputs)} inputs, {lit} literal and {cop} shared bytes "
              f"from {len(refs)} shared files, {path.stat().st_size} bytes packed")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("pack", help="write fuzz/kept/TARGET.pack from a corpus",
                       epilog="example: python3 fuzz/kept.py pack fmt --corpus ~/.cache/pbn-fuzz/corpus")
    a.add_argument("target", choices=TARGETS)
    a.add_argument("--corpus", help="directory of the targets' corpora (default $PBN_FUZZ_CORPUS_DIR or fuzz/corpus)")
    a.add_argument("--seeds", help="a directory seed_corpus.py --out wrote (default: seed one afresh)")
    b = sub.add_parser("unpack", help="restore fuzz/kept/TARGET.pack into a corpus",
                       epilog="example: python3 fuzz/kept.py unpack fmt --out ~/.cache/pbn-fuzz/corpus")
    b.add_argument("target", choices=TARGETS)
    b.add_argument("--out", help="directory of the targets' corpora (default $PBN_FUZZ_CORPUS_DIR or fuzz/corpus)")
    sub.add_parser("check", help="every pack restores whole, and no literal copies shared text (CI)")
    c = sub.add_parser("stats", help="what the packs hold")
    c.add_argument("targets", nargs="*", metavar="TARGET")
    args = p.parse_args()
    if args.cmd == "stats" and set(args.targets) - set(TARGETS):
        p.error(f"unknown target; one of {', '.join(TARGETS)}")
    {"pack": pack, "unpack": unpack, "check": check, "stats": stats}[args.cmd](args)


main()
