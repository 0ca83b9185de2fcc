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
import resource
import subprocess
import sys
import time

REGIMES = {"sts2012": 5342, "stsb": 8628}


def one(regime: str, n_jobs: int, data_dir) -> dict:
    """Train ``regime`` and predict its test set in this process; time and peak memory."""
    start = time.perf_counter()
    import corpora
    from baselines.recipes import RECIPES, train_recipe
    from baselines.subset_models import predict_subsets
    recipe = RECIPES[regime]
    models, _ = train_recipe(recipe, data_dir, n_jobs=n_jobs)
    predict_subsets(models, corpora.load(recipe.test, data_dir))
    seconds = time.perf_counter() - start
    from joblib.externals.loky import get_reusable_executor
    get_reusable_executor().shutdown(wait=True)  # reap the workers so that their peak memory is counted
    return {"regime": regime, "pairs": REGIMES[regime], "n_jobs": n_jobs, "seconds": round(seconds, 1),
            "peak_mb_main": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "peak_mb_largest_worker": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024}


def gloss_build() -> dict:
    start = time.perf_counter()
    from features.gloss_space import build
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
    print(f"{'regime':8} {'pairs':>5} {'jobs':>4} {'seconds':>8} {'peak MB main':>12} {'largest worker':>14}")
    print("(peak resident memory; with 2 jobs the total is main + 2 workers at most)")
    for extra in runs:
        done = subprocess.run(base + extra, check=True, capture_output=True, text=True)
        r = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{r['regime']:8} {r['pairs']:>5} {r['n_jobs']:>4} {r['seconds']:>8} {r['peak_mb_main']:>12} "
              f"{r['peak_mb_largest_worker']:>14}", flush=True)
    if args.gloss:
        print(json.dumps(gloss_build()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
