"""Seconds each feature family takes on one long pair, and in all (issue 23, case 7).

``python benchmarks/long_pairs.py [--sizes 5000 50000 1000000] [--json]``: two kinds of side, each of
the given length in characters: demo captions strung together (a long document of ordinary text), and
short WordNet lemmas drawn at random (as many distinct words as a text can hold: the worst case of the
aligning families). Each case runs in a fresh process (cold caches, as one pair in a new run).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write


def make_pair(kind: str, chars: int) -> tuple[str, str]:
    import random
    rng = random.Random(0)
    if kind == "captions":
        from semsts import corpora
        pool = [s for pair in corpora.load("demo-train").pairs for s in pair]
        pick = lambda: rng.choice(pool)  # noqa: E731
    else:
        from semsts.corpora.wordnet import wordnet
        pool = sorted({w for w in wordnet().all_lemma_names() if w.isalpha() and 2 <= len(w) <= 4})
        pick = lambda: " ".join(rng.choice(pool) for _ in range(10))  # noqa: E731
    sides = []
    for _ in range(2):
        parts, size = [], 0
        while size < chars:
            parts.append(pick())
            size += len(parts[-1]) + 1
        sides.append(" ".join(parts)[:chars])
    return sides[0], sides[1]


def one(kind: str, chars: int) -> dict:
    import warnings

    from semsts import corpora
    from semsts.features.sets import make_union
    union = make_union("all").fit(list(corpora.load("demo-train").pairs)[:200])
    pair = [make_pair(kind, chars)]
    seconds = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, step in union.transformer_list:
            start = time.perf_counter()
            step.transform(pair)
            seconds[name] = round(time.perf_counter() - start, 2)
    return {"kind": kind, "chars": chars, "seconds": seconds, "total": round(sum(seconds.values()), 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 50_000, 1_000_000])
    parser.add_argument("--kinds", nargs="+", default=["captions", "lemmas"], choices=["captions", "lemmas"])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    results.add_write_flag(parser, "long-pairs")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return 0
    rows = []
    for kind in args.kinds:
        for chars in args.sizes:
            out = subprocess.run([sys.executable, __file__, "--one", kind, str(chars)], capture_output=True, text=True,
                                 check=True)
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(f"{kind} {chars:,}: {rows[-1]['total']} s", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    families = list(rows[0]["seconds"])
    print(f"# {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
          f"{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}")
    print("| side | chars a side | " + " | ".join(families) + " | all |")
    print("|---|---:|" + "---:|" * (len(families) + 1))
    for row in rows:
        print(f"| {row['kind']} | {row['chars']:,} | " + " | ".join(f"{row['seconds'][f]:.2f}" for f in families)
              + f" | {row['total']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
