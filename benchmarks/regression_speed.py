"""Speed and memory of the regression system: featurize, fit (with its CV search) and predict.

Each run is a fresh Python process (cold start: imports, WordNet loading, data reading
included): the STS 2012 regime (per-subset models on sts2012-train, predictions for
sts2012-test: 5342 pairs) and STS Benchmark (stsb-train, tuned on stsb-dev, predictions for
stsb-test: 8628 pairs), each with --n-jobs 1 and 2. The WordNet-gloss space is read from the
per-user cache; building it (once, see features/gloss_space.py) is timed on its own with --gloss.

    python benchmarks/regression_speed.py [--data-dir DIR] [--gloss]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time

REGIMES = {"sts2012": 5342, "stsb": 8628}


def tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (from /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        out.append(todo.pop())
        todo.extend(children.get(out[-1], []))
    return out


def pss_kb(pid: int) -> int:
    """Proportional set size: private pages plus this process's share of pages shared with others."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("Pss:"))
    except (OSError, StopIteration):
        return 0


class TreeMemory(threading.Thread):
    """Samples the summed PSS of this process and its workers every ``interval`` s; keeps the peak.

    The sum of PSS counts a page shared by several processes (libraries, the memory-mapped GloVe
    matrix) once, which adding up each process's peak resident size does not."""

    def __init__(self, interval: float = 0.1):
        super().__init__(daemon=True)
        self.interval, self.peak_kb, self.done = interval, 0, threading.Event()

    def run(self):
        while not self.done.is_set():
            self.peak_kb = max(self.peak_kb, sum(pss_kb(p) for p in tree(os.getpid())))
            self.done.wait(self.interval)

    def stop(self) -> int:
        self.done.set()
        self.join()
        return self.peak_kb // 1024


def one(regime: str, n_jobs: int, data_dir) -> dict:
    """Train ``regime`` and predict its test set in this process; time and peak memory."""
    start = time.perf_counter()
    memory = TreeMemory()
    memory.start()
    from semsts import corpora
    from semsts.baselines.parallel import run_settings
    from semsts.baselines.recipes import RECIPES, train_recipe
    from semsts.baselines.subset_models import predict_subsets
    recipe = RECIPES[regime]
    with run_settings(n_jobs=n_jobs):
        models, _ = train_recipe(recipe, data_dir=data_dir)
        predict_subsets(models, corpora.load(recipe.test, data_dir))
    seconds = time.perf_counter() - start
    from joblib.externals.loky import get_reusable_executor
    get_reusable_executor().shutdown(wait=True)  # reap the workers so that their peak memory is counted
    peak_total = memory.stop()
    return {"regime": regime, "pairs": REGIMES[regime], "n_jobs": n_jobs, "seconds": round(seconds, 1),
            "peak_mb_main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "peak_mb_largest_worker": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024,
            "peak_mb_total_pss": peak_total}


def gloss_build() -> dict:
    start = time.perf_counter()
    from semsts.features.gloss_space import build
    vocabulary, _ = build()
    return {"gloss_space_build_seconds": round(time.perf_counter() - start, 1), "words": len(vocabulary),
            "peak_mb_main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--gloss", action="store_true", help="also time the one-off WordNet-gloss space build")
    parser.add_argument("--one", nargs=2, metavar=("REGIME", "N_JOBS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]), args.data_dir)))
        return 0
    base = [sys.executable, __file__] + (["--data-dir", args.data_dir] if args.data_dir else [])
    runs = [["--one", regime, str(n)] for regime in REGIMES for n in (1, 2)]
    print(f"{'regime':8} {'pairs':>5} {'jobs':>4} {'seconds':>8} {'peak MB main':>12} {'largest worker':>14} "
          f"{'all processes':>13}")
    print("(peak resident MB of the main process and of the largest worker; last column: peak of the summed "
          "proportional set size of the main process and its workers, sampled every 0.1 s)")
    for extra in runs:
        done = subprocess.run(base + extra, check=True, capture_output=True, text=True)
        r = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{r['regime']:8} {r['pairs']:>5} {r['n_jobs']:>4} {r['seconds']:>8} {r['peak_mb_main']:>12} "
              f"{r['peak_mb_largest_worker']:>14} {r['peak_mb_total_pss']:>13}", flush=True)
    if args.gloss:
        print(json.dumps(gloss_build()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
