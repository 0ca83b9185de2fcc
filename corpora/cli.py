"""``sts data …`` / ``python -m corpora …``: list, fetch and verify datasets."""
from __future__ import annotations

import argparse
import sys

from . import datasets
from .errors import DatasetNotFound, FormatError
from .paths import data_root


def cmd_list(args) -> int:
    root = data_root(args.data_dir)
    print(f"data root: {root}")
    for name in datasets.dataset_names():
        spec = datasets.spec(name)
        try:
            ds = datasets.load(name, args.data_dir)
        except DatasetNotFound:
            print(f"{name:16} absent   {spec.description}")
            continue
        except FormatError as exc:
            print(f"{name:16} INVALID  {exc}")
            continue
        subs = ", ".join(f"{s.name} ({len(s)})" for s in ds)
        print(f"{name:16} present  {sum(len(s) for s in ds):6d} pairs: {subs}")
        for note in ds.notes:
            print(f"{'':16} note: {note}")
    return 0


def cmd_wordnet(args) -> int:
    from . import wordnet
    src = wordnet.source()
    print(f"WordNet {wordnet.version()} from {src.kind}: {src.origin}")
    if src.root != src.origin:
        print(f"NLTK reads it from: {src.root}")
    return 0


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="python -m corpora", description="Datasets and the data root.")
    parser.add_argument("--data-dir", help="data root (default: $STS_DATA, else the per-user cache)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="every dataset, its subsets, pair counts and whether it is present")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("wordnet", help="find WordNet 3.0 (NLTK data, Debian packages or $WORDNET_DIR), say which")
    p.set_defaults(func=cmd_wordnet)
    return parser


def main(argv=None, prog: str | None = None) -> int:
    parser = build_parser()
    if prog:
        parser.prog = prog
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (DatasetNotFound, FormatError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
