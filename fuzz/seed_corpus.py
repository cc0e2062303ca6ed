#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target>/ (gitignored) from the shared corpus of real
PBN files, the repository's own fixtures and the fuzz regression fixtures.

    python3 fuzz/seed_corpus.py [CORPUS_DIR] [--out DIR]
        CORPUS_DIR: the shared corpus (default ../shared/corpus)
        --out DIR: where the targets' directories go (default fuzz/corpus)

The shared corpus files are copied only into this transient, gitignored
directory: never commit them. Large files are cut into chunks of whole games
(about 2 KB) so that each run stays fast. `incremental_reparse` inputs are
encoded as tests/src/fuzz.rs::decode_incremental reads them: an initial
text plus a few deterministic edits.
"""
import hashlib
import os
import random
import struct
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
CHUNK = 2 * 1024
PIECES = [b"\n", b"\r\n", b"\n\n", b"{", b"}", b'"', b"[", b"]", b"%", b";", b" ", b"=1=", b"$3", b"Pass ", b"SA ", b"\r"]


def chunks(data: bytes):
    """Whole-game chunks of at most CHUNK bytes (one game may be longer)."""
    if len(data) <= 2 * CHUNK:
        yield data
        return
    sep = b"\r\n\r\n" if data.count(b"\r\n\r\n") > data.count(b"\n\n") else b"\n\n"
    cur = b""
    for game in data.split(sep):
        piece = game + sep
        if cur and len(cur) + len(piece) > CHUNK:
            yield cur
            cur = b""
        cur += piece
    if cur:
        yield cur


def parse_args(argv: list[str]) -> tuple[Path, Path]:
    """(CORPUS_DIR, --out DIR) from the command line, with their defaults."""
    args = list(argv)
    out = FUZZ / "corpus"
    if "--out" in args:
        i = args.index("--out")
        if i + 1 >= len(args):
            sys.exit("seed_corpus.py: --out needs a directory")
        out = Path(args[i + 1]).resolve()
        del args[i : i + 2]
    if len(args) > 1 or (args and args[0].startswith("-")):
        sys.exit("usage: seed_corpus.py [CORPUS_DIR] [--out DIR]")
    corpus = Path(args[0]) if args else ROOT.parent / "shared" / "corpus"
    return corpus, out


def write_input(d: Path, data: bytes):
    """One input into the corpus directory `d`, named by its SHA-1 as
    libFuzzer names them, so that seeding again adds nothing twice)."""
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def write(out: Path, target: str, data: bytes):
    write_input(out / target, data)


def incremental_header(mode: int, text: bytes) -> bytes:
    """The start of an `incremental_reparse` input, as
    tests/src/fuzz.rs::decode_incremental reads it: the mode byte, the
    initial text's length (u16, little-endian) and the text. Edits follow."""
    return bytes([mode]) + struct.pack("<H", len(text)) + text


def incremental_seed(text: bytes, rng: random.Random, mode: int) -> bytes:
    text = text[:2048]
    out = incremental_header(mode, text)
    length = len(text)
    for _ in range(rng.randint(1, 6)):
        start = rng.randrange(length + 1)
        delete = rng.choice([0, 0, 1, 2, 5])
        payload = rng.choice(PIECES)
        reparse = rng.random() < 0.5
        out += struct.pack("<HBB", start, delete, len(payload) | (0x80 if reparse else 0)) + payload
        length = max(0, length - delete) + len(payload)
    return out


def rust_string(src: str, i: int):
    """The value of the Rust string literal whose opening quote is at src[i],
    and the index after its closing quote."""
    out, i = [], i + 1
    simple = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'"}
    while src[i] != '"':
        c = src[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = src[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(chr(int(src[i + 2 : i + 4], 16)))
            i += 4
        elif e == "u":
            end = src.index("}", i)
            out.append(chr(int(src[i + 3 : end], 16)))
            i = end + 1
        elif e == "\n":  # a line continuation skips the line end and the indentation
            i += 2
            while src[i] in " \t\n\r":
                i += 1
        else:
            raise ValueError(f"unknown escape \\{e}")
    return "".join(out), i + 1


def code_examples():
    """The failing and passing example of every diagnostic code
    (`bad: "…"`, `good: "…"` in server/src/codes/*.rs): one small input
    per rule, including value formats random mutation rarely spells out."""
    out = []
    for p in sorted((ROOT / "server" / "src" / "codes").glob("*.rs")):
        src = p.read_text(encoding="utf-8")
        for key in ("bad: ", "good: "):
            at = src.find(key + '"')
            while at >= 0:
                text, end = rust_string(src, at + len(key))
                out.append(text.encode("utf-8"))
                at = src.find(key + '"', end)
    return out


def main():
    corpus, out = parse_args(sys.argv[1:])
    texts = []
    if corpus.is_dir():
        for p in sorted(corpus.rglob("*")):
            if p.is_file() and p.suffix.lower() == ".pbn":
                texts.extend(list(chunks(p.read_bytes()))[:40])
    elif os.environ.get("PBN_REQUIRE_CORPUS") == "1":
        sys.exit(f"no corpus at {corpus} and PBN_REQUIRE_CORPUS=1")
    else:
        print(f"warning: no corpus at {corpus}; seeding from the fixtures only", file=sys.stderr)
    for sub in ("check", "fmt"):
        for p in sorted((ROOT / "tests" / "fixtures" / sub).glob("*.pbn")):
            texts.append(p.read_bytes())
    texts.extend(code_examples())
    for t in texts:
        write(out, "parse_check", t)
        write(out, "fmt", t)
    rng = random.Random(7)
    for k, t in enumerate(texts):
        # bit 0: the point mode; bits 5-6: the tree cache budget, in turn
        # (tests/src/fuzz.rs forest_cache_budget)
        for mode in (0, 1 | (k % 4) << 5):
            write(out, "incremental_reparse", incremental_seed(t, rng, mode))
    # convert: the first byte picks the format read (0 RBN, 1 LIN, 2 PBN).
    conv = ROOT / "tests" / "fixtures" / "convert"
    for ext, pick in (("rbn", b"\x00"), ("lin", b"\x01"), ("pbn", b"\x02")):
        for p in sorted(conv.glob(f"*/*.{ext}")):
            write(out, "convert", pick + p.read_bytes())
    for t in texts[:200]:
        write(out, "convert", b"\x02" + t)
    for target in ("parse_check", "fmt", "incremental_reparse", "convert"):
        kept = ROOT / "tests" / "fixtures" / "fuzz" / target
        if kept.is_dir():
            for p in sorted(kept.iterdir()):
                if p.is_file():
                    write(out, target, p.read_bytes())
    for target in ("parse_check", "fmt", "incremental_reparse", "convert"):
        print(f"{target}: {len(os.listdir(out / target))} seeds in {out / target}")


if __name__ == "__main__":
    main()
