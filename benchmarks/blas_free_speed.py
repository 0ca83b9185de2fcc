"""Featurization speed with BLAS-free arithmetic (features/blas_free.py) against the code before it.

Checks out BASE (default: ec4121e, the last commit whose features used BLAS) into a temporary git
worktree, then alternates fresh processes of the two trees: each fits the ``all`` feature set on
the demo training pairs, warms up (WordNet, GloVe, the gloss space), and times featurizing the
STS Benchmark dev and test sets (2,879 pairs) in one process, one job. Medians of ROUNDS runs each.

    python benchmarks/blas_free_speed.py [--base REV] [--rounds N] [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import results  # noqa: E402  (benchmarks/results.py: --write)

RUN = """
import time, corpora
from semsts.features.featurizer import PairFeaturizer
train = corpora.load("demo-train")
featurizer = PairFeaturizer("all").fit(train.pairs)
featurizer.transform(train.pairs[:50])
pairs = corpora.load("stsb-dev").pairs + corpora.load("stsb-test").pairs
start = time.perf_counter()
featurizer.transform(pairs)
print(len(pairs), time.perf_counter() - start)
"""


def timed(tree: Path, env: dict) -> tuple[int, float]:
    done = subprocess.run([sys.executable, "-c", RUN], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"error: featurizing in {tree} failed:\n{done.stderr[-2000:]}")
    n, seconds = done.stdout.split()[-2:]
    return int(n), float(seconds)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default="ec4121e", help="the revision to compare against")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data-dir", default=os.environ.get("STS_DATA"))
    results.add_write_flag(parser, "blas-free-speed")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    env = {**os.environ, **({"STS_DATA": str(Path(args.data_dir).resolve())} if args.data_dir else {})}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            times = {"before": [], "after": []}
            for round_ in range(args.rounds):
                for label, tree in (("before", base), ("after", ROOT)):
                    n, seconds = timed(tree, env)
                    times[label].append(seconds)
                    print(f"round {round_ + 1} {label:6}: {n} pairs in {seconds:.2f} s", file=sys.stderr)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True)
    before, after = statistics.median(times["before"]), statistics.median(times["after"])
    print(f"| featurizing {n} pairs (`all`, one job) | before ({args.base}) | after | change |")
    print("|---|---|---|---|")
    print(f"| median of {args.rounds} | {before:.2f} s | {after:.2f} s | {100 * (after / before - 1):+.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
