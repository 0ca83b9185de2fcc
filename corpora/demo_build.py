"""Rebuild the shipped demo data: the CC BY-SA caption rows of the STS Benchmark, each split kept.

Run once by maintainers (``python -m semsts.corpora.demo_build STSB_DIR``); the rows are copied byte for byte.
"""
from __future__ import annotations

import sys
from pathlib import Path

from semsts.core.files import atomic_open

from .paths import demo_root

GENRE = "main-captions"
FILES = ("images", "track5.en-en")  # PASCAL VOC captions and SNLI: both CC BY-SA
SPLITS = ("train", "dev", "test")


def demo_rows(stsb_csv) -> list[bytes]:
    """The lines (with their ends) of an STS Benchmark file whose genre and file are CC BY-SA."""
    keep = []
    for line in Path(stsb_csv).read_bytes().splitlines(keepends=True):
        fields = line.split(b"\t", 2)
        if len(fields) > 2 and fields[0].decode() == GENRE and fields[1].decode() in FILES:
            keep.append(line)
    return keep


def build(stsb_dir, out_dir=None) -> dict[str, int]:
    """Write ``sts-SPLIT.csv`` for each split into ``out_dir``; returns rows per split."""
    out = Path(out_dir) if out_dir else demo_root()
    counts = {}
    for split in SPLITS:
        rows = demo_rows(Path(stsb_dir) / f"sts-{split}.csv")
        with atomic_open(out / f"sts-{split}.csv", "wb") as handle:
            handle.writelines(rows)
        counts[split] = len(rows)
    return counts


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m semsts.corpora.demo_build STSB_DIR   (the stsbenchmark folder of a data root)", file=sys.stderr)
        return 2
    for split, n in build(argv[0]).items():
        print(f"sts-{split}.csv: {n} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
