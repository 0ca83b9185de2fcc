"""Ablation of the regression system: each feature family removed in turn.

STS 2012 regime scored on sts2012-test (ALL, ALLnorm, Mean), and a model trained on stsb-train
scored on stsb-dev (tuned by 5-fold CV on stsb-train here, so that dev stays unseen). The
hyperparameters are those the full system's CV chose, kept for every variant; features are
computed once and the removed family's columns dropped. The last row removes the three WordLlama families
at once: the lexical system of before (issue 35).

    python benchmarks/regression_ablation.py [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from joblib import parallel_config

from semsts import corpora, evaluate
from semsts.baselines.model_search import fold_matrices, make_folds, search
from semsts.baselines.regimes import FALLBACK, REGIMES, domain_folds, select
from semsts.baselines.regression import FeatureRegression
from semsts.baselines.subset_models import pick_model
from semsts.features.featurizer import PairFeaturizer
from semsts.features.sets import FAMILIES

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

WORDLLAMA = tuple(f for f in FAMILIES if f.startswith("wordllama_"))


def family_columns(names) -> dict:
    """Feature-name columns of each family (a union step is named after its family's steps)."""
    step_family = {step: family for family, steps in FAMILIES.items() for step, _ in steps}
    columns = {}
    for i, name in enumerate(names):
        columns.setdefault(step_family[name.split("__")[0]], []).append(i)
    return columns


class Prepared:
    """One training set featurized once: CV folds and test matrices, columns droppable per family."""

    def __init__(self, pairs, gold, domains, tests, cv):
        system = FeatureRegression()
        self.featurizer = PairFeaturizer("all").fit(pairs)  # every family, each dropped in turn
        self.features = self.featurizer.transform(pairs)
        folds = domain_folds(domains)[0] if cv == "domains" else make_folds(system.cv, system.random_state)
        self.folds = fold_matrices(self.featurizer, pairs, self.features, folds)
        self.gold = gold
        self.tests = {name: self.featurizer.transform(p) for name, p in tests.items()}
        self.model, grid = system.build_model()
        with parallel_config(n_jobs=2):
            self.params, _ = search(self.model, grid, self.folds, gold)
        self.columns = family_columns(self.featurizer.feature_names_)

    def predict(self, drop=None) -> dict:
        """Predictions of each test matrix without the family ``drop`` (a name, or a tuple of names)."""
        dropped = drop if isinstance(drop, tuple) else (drop,)
        keep = [i for f, cols in self.columns.items() if f not in dropped for i in cols]
        model = self.model.set_params(**self.params).fit(self.features[:, keep], self.gold)
        return {name: np.clip(model.predict(m[:, keep]), 0, 5) for name, m in self.tests.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    results.add_write_flag(parser, "regression-ablation")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    regime = REGIMES["sts2012"]
    train = [corpora.load(n, args.data_dir) for n in regime.train]
    test = corpora.load(regime.test, args.data_dir)
    prepared = {}
    for name, subsets in regime.sub_models.items():
        pairs, gold, domains = select(train, subsets)
        served = {s.name: s.pairs for s in test
                  if pick_model(s.name, regime.sub_models, regime.mapping, FALLBACK) == name}
        prepared[name] = Prepared(pairs, gold, domains, served, "domains" if len(set(domains)) > 1 else 5)
    stsb_pairs, stsb_gold, domains = select([corpora.load("stsb-train", args.data_dir)], ())
    dev = corpora.load("stsb-dev", args.data_dir)
    stsb = Prepared(stsb_pairs, stsb_gold, domains, {"dev": dev.pairs}, 5)
    print("| removed family | sts2012-test ALL | ALLnorm | Mean | stsb-dev Pearson |")
    print("|---|---|---|---|---|")
    for drop in [None, *FAMILIES, WORDLLAMA]:
        scores = {}
        for part in prepared.values():
            scores.update(part.predict(drop))
        result = evaluate.score_subsets([(s.name, scores[s.name], s.gold) for s in test])
        dev_r = evaluate.pearson(stsb.predict(drop)["dev"], dev.gold)
        label = " + ".join(drop) if isinstance(drop, tuple) else drop or "(none: full system)"
        print(f"| {label} | {result['all']:.4f} | {result['allnorm']:.4f} | "
              f"{result['mean']:.4f} | {dev_r:.4f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
