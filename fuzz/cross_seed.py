#!/usr/bin/env python3
"""Turns the inputs of a `parse_check` corpus into `incremental_reparse` inputs.

    python3 fuzz/cross_seed.py SRC_DIR OUT_DIR

`incremental_reparse` re-checks its text with the whole checker (see
tests/src/fuzz.rs), so most of the Rust edges it can reach are the
checker's, which `parse_check` reaches directly from its bytes, while
`incremental_reparse` has to reach them through its own input layout. Each
input of SRC_DIR (any bytes, as `parse_check` reads them) becomes an
initial text without edits, in the layout of
tests/src/fuzz.rs::decode_incremental: a mode byte (the piece size and
tree cache budget of the language server's forest, taken from the input's
hash so they vary), the text's length and the text. Half of them get one
byte more after the text, too few for an edit, so that the export rules
(on for inputs of even length) are on for half of them. Inputs longer than
the target's `-max_len` less those bytes are skipped.

OUT_DIR is created; feed it to a merge (`-merge=1 CORPUS OUT_DIR`) so that
only the inputs that add coverage join the corpus (ROBUSTNESS.md, "Cross-
seeding `incremental_reparse`").
"""
import hashlib
import sys
from pathlib import Path

from seed_corpus import incremental_header, write_input
from stability import MAX_LEN


def convert(data: bytes) -> bytes | None:
    h = hashlib.sha1(data).digest()
    out = incremental_header(h[0], data)
    if h[1] & 1:
        out += b"\0"
    return out if len(out) <= MAX_LEN else None


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: cross_seed.py SRC_DIR OUT_DIR")
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    written = skipped = 0
    for f in sorted(src.iterdir()):
        if not f.is_file():
            continue
        converted = convert(f.read_bytes())
        if converted is None:
            skipped += 1
            continue
        write_input(out, converted)
        written += 1
    print(f"cross_seed: {written} inputs written to {out}, {skipped} too long skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
