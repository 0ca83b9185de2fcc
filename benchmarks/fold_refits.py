"""The regression's CV refits of the families that learn from text (LSA, IDF): one worker against two.

Each fold of a multi-domain regime refits the distributional family on the fold's training pairs and featurizes
every pair again (``baselines.model_search.fold_matrices``); the folds run through joblib, on the workers the
command's ``--n-jobs`` gives (before issue 47's change, each fold in turn in the command's process: what one
worker does now). This times that step alone on a regime's training pairs (featurized once, untimed),
under ``run_settings(n_jobs=1)`` and ``run_settings(n_jobs=2)`` in one run, and compares the fold matrices
(they must be identical, bit for bit).

    python benchmarks/fold_refits.py [--regime sts2014] [--data-dir DIR] [--write [SECTION]]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

from semsts import corpora
from semsts.baselines.model_search import fold_matrices
from semsts.baselines.regimes import REGIMES, domain_folds, select
from semsts.baselines.regression import FeatureRegression
from semsts.core.run_settings import run_settings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regime", default="sts2014", choices=[n for n, r in REGIMES.items() if r.domain_cv])
    parser.add_argument("--data-dir")
    results.add_write_flag(parser, "fold-refits")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    regime = REGIMES[args.regime]
    pairs, _, domains, _ = select(corpora.resolve_all(regime.train, args.data_dir), ())
    with run_settings(n_jobs=2):
        featurizer = FeatureRegression(**regime.params).build_featurizer().fit(pairs)
        features = featurizer.transform(pairs)
    folds = domain_folds(domains)[0]
    print("| regime | pairs | folds | workers | seconds | fold matrices |")
    print("|---|---:|---:|---:|---:|---|")
    matrices = {}
    for workers in (1, 2):
        with run_settings(n_jobs=workers):
            start = time.perf_counter()
            matrices[workers] = fold_matrices(featurizer, pairs, features, folds)
            seconds = time.perf_counter() - start
        same = ("" if workers == 1 else
                "identical" if all(np.array_equal(a, b) for (_, _, a), (_, _, b) in zip(matrices[1], matrices[2]))
                else "DIFFER")
        print(f"| {args.regime} | {len(pairs):,} | {folds.get_n_splits()} | {workers} | {seconds:.1f} | {same} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
