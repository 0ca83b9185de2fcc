"""Named training regimes of the regression system, as the task papers describe them.

``sts2012``: per-subset models like TakeLab (MSRpar, MSRvid, SMTeuroparl from their own training
data; SMTnews scored by the SMTeuroparl model, OnWN and anything else by the all-data model).
``sts2013``: one model on all STS 2012 data, train and test (the 2013 paper's DKPro/TakeLab runs).
``stsb``: trained on stsb-train, hyperparameters chosen on stsb-dev.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from sklearn.model_selection import PredefinedSplit

from semsts import corpora
from semsts.core.errors import InvalidValue
from semsts.core.progress import announce

from .model_search import fold_matrices, search
from .regression import FeatureRegression
from .run import at_lines, training_pairs, training_rows, training_task_range
from .subset_models import SubsetModels


@dataclass(frozen=True)
class Regime:
    """Training datasets, sub-models (name → training subsets; empty = all), mapping, dev and test sets."""

    name: str
    train: tuple
    test: str | None = None
    sub_models: dict = field(default_factory=lambda: {"all": ()})
    mapping: dict = field(default_factory=dict)
    dev: str | None = None
    domain_cv: bool = False  # tune multi-subset models on folds of whole subsets held out (new domains ahead)
    params: dict = field(default_factory=dict)  # FeatureRegression parameters of this regime


STS2012_SUBSETS = ("MSRpar", "MSRvid", "SMTeuroparl")
FALLBACK = "all"  # the sub-model that scores every test subset no mapping or name gives to another
REGIMES = {
    "sts2012": Regime("sts2012", ("sts2012-train",), "sts2012-test",
                      {**{s: (s,) for s in STS2012_SUBSETS}, "all": ()},
                      {"surprise.SMTnews": "SMTeuroparl", "surprise.OnWN": "all"}, domain_cv=True),
    # regressor chosen by leave-one-domain-out CV on the 2012 data (all features):
    # ensemble .627, svr+gbr .626, gbr .616, rf .616, gbr-mono .601, svr .598
    "sts2013": Regime("sts2013", ("sts2012-train", "sts2012-test"), "sts2013-test", domain_cv=True,
                      params={"regressor": "ensemble"}),
    "stsb": Regime("stsb", ("stsb-train",), "stsb-test", dev="stsb-dev"),
}
# Time travel: each year's test predicted from the English STS data released before it (as the task's teams trained),
# one model tuned on folds of whole domains held out (domain_folds); never that year's gold or a later year's. 2017
# (track 5, English) trains on 2012-2016 only: no pair of STS-B (its dev and test splits hold 2017's pairs) nor of SICK.
RELEASED = ("sts2012-train", "sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test",
            "sts2017-test")


def time_travel(year: int, **params) -> Regime:
    """The regime ``sts{year}``: trained on every dataset of :data:`RELEASED` before ``sts{year}-test``."""
    test = f"sts{year}-test"
    return Regime(f"sts{year}", RELEASED[:RELEASED.index(test)], test, domain_cv=True, params=params)


REGIMES.update({f"sts{year}": time_travel(year, regressor="ensemble") for year in (2014, 2015, 2016, 2017)})


def regime_names() -> list[str]:
    return list(REGIMES)


def custom_regime(train: list[str], *, test: str | None = None) -> Regime:
    """One model on the user's own training datasets."""
    return Regime("custom", tuple(train), test)


def select(datasets, subsets: tuple) -> tuple[list, np.ndarray, np.ndarray, list]:
    """Scored pairs, gold and domain of each pair (its subset's name without ``surprise.``) of the
    named subsets of ``datasets`` (all subsets when ``subsets`` is empty), and those datasets."""
    if subsets:
        datasets = [corpora.Dataset(ds.name, ds.kind, tuple(s for s in ds if s.name in subsets)) for ds in datasets]
        found = {s.name for ds in datasets for s in ds}
        if found != set(subsets):
            raise InvalidValue(f"training subsets {sorted(set(subsets) - found)} are not in the training data")
    pairs, gold = training_pairs(datasets)
    domains = [sub.name.removeprefix("surprise.") for ds in datasets for sub in ds
               for g in sub.gold if not np.isnan(g)]
    return pairs, gold, np.asarray(domains), datasets


MAX_DOMAIN_FOLDS = 5  # beyond it, domains share folds: each CV fold fits the whole ensemble once


def domain_folds(domains: np.ndarray, max_folds: int = MAX_DOMAIN_FOLDS) -> tuple[PredefinedSplit, list[list[str]]]:
    """CV folds that each hold out whole domains, as a new test subset would be, and the domains of each fold.

    Up to ``max_folds`` domains: one fold a domain (leave one domain out), in the order of their names. More: the
    domains are dealt, the largest first (ties by name), each to the fold that holds the fewest pairs so far (the
    first such fold), so that ``max_folds`` folds of about equal size hold every domain out once (GroupKFold's
    greedy rule, written out so that the folds cannot change with a scikit-learn release).
    ``domains``: one name a pair, shape ``(n_pairs,)``.
    """
    names, counts = np.unique(domains, return_counts=True)
    if len(names) <= max_folds:
        groups = [[str(name)] for name in names]
    else:
        groups, sizes = [[] for _ in range(max_folds)], [0] * max_folds
        for name, count in sorted(zip(names.tolist(), counts.tolist()), key=lambda item: (-item[1], item[0])):
            lightest = sizes.index(min(sizes))
            groups[lightest].append(name)
            sizes[lightest] += count
    fold_of = {name: f for f, group in enumerate(groups) for name in group}
    return PredefinedSplit(np.asarray([fold_of[d] for d in domains])), [sorted(group) for group in groups]


def train_regime(regime: Regime, *, data_dir=None, columns=None, **params) -> tuple[SubsetModels, dict]:
    """Fit every sub-model of ``regime``; returns the models and the card's training section.

    ``params`` go to every :class:`FeatureRegression` (feature_set, regressor, …); ``columns`` to the
    training files that are plain tables (see :func:`semsts.corpora.resolve_all`).
    """
    datasets = corpora.resolve_all(regime.train, data_dir, columns=columns)
    for ds in datasets:
        ds.require_gold()
    params = {**regime.params, **params}
    if params.get("score_range") is None:  # the models predict on their training gold's scale
        params["score_range"] = training_task_range(datasets)
    models, info = {}, {}
    dev = corpora.load(regime.dev, data_dir) if regime.dev else None
    for name, subsets in regime.sub_models.items():
        pairs, gold, domains, chosen = select(datasets, subsets)
        announce(f"sub-model {name}: {len(pairs)} pairs")
        system = FeatureRegression(**params)
        entry = {"subsets": list(subsets) or "all", "pairs": len(pairs), "cv": f"{system.cv} shuffled folds"}
        if regime.domain_cv and len(set(domains)) > 1:
            folds, groups = domain_folds(domains)
            system.set_params(cv=folds)
            one_each = all(len(g) == 1 for g in groups)
            entry["cv"] = (f"leave one domain out ({', '.join(g[0] for g in groups)})" if one_each
                           else f"{len(groups)} folds of whole domains ({'; '.join(', '.join(g) for g in groups)})")
        with at_lines(*training_rows([*chosen, dev] if dev else chosen)):  # a pair's error names its file and line
            if dev:
                best, entry["dev_pearson"], featurizer, features = tune_on_dev(system, pairs, gold, dev)
                entry["cv"] = f"{regime.dev} (grid searched there; no CV on the training pairs)"
                system.set_params(param_grid={k.removeprefix("regress__"): [v] for k, v in best.items()})
                system.fit_featurized(pairs, gold, featurizer, features)
            else:
                system.fit(pairs, gold)
                entry["cv_pearson"] = system.cv_score_
                if system.cv_score_ is None and hasattr(system, "cv_smallest_fold_"):
                    entry["cv_note"] = (f"held-out folds of {system.cv_smallest_fold_} pairs: too few for a CV figure "
                                        f"(the grid was still searched on them)")
        entry["best_params"] = _plain(system.best_params_)
        models[name], info[name] = system, entry
    card = {"regime": regime.name, "training_data": {"datasets": list(regime.train), "dev": regime.dev,
                                                     "sub_models": info, "mapping": regime.mapping,
                                                     "fallback": FALLBACK},
            "params": _plain(FeatureRegression(**params).get_params())}
    return SubsetModels(models, regime.mapping, FALLBACK).fit(), card


def tune_on_dev(system: FeatureRegression, pairs, gold, dev: corpora.Dataset) -> tuple:
    """The grid point with the best Pearson on ``dev`` when fitted on ``pairs`` (never on test data),
    that Pearson, and the featurizer fitted on ``pairs`` with its matrix of ``pairs`` (for the final fit)."""
    dev_pairs, dev_gold = training_pairs([dev])
    announce(f"fitting the {system.feature_set} features on {len(pairs)} pairs (loads WordNet, word vectors, gloss space)")
    featurizer = system.build_featurizer().fit(pairs)
    announce(f"featurizing {len(pairs)} training and {len(dev_pairs)} dev pairs")
    features = featurizer.transform(list(pairs) + list(dev_pairs))
    model, grid = system.build_model()
    folds = PredefinedSplit(np.r_[np.full(len(pairs), -1), np.zeros(len(dev_pairs))])
    fold_data = fold_matrices(featurizer, list(pairs) + list(dev_pairs), features, folds,
                              fitted_on=np.arange(len(pairs)))
    best, score = search(model, grid, fold_data, np.r_[gold, dev_gold])
    return best, score, featurizer, features[:len(pairs)]


def _plain(value):
    """JSON-safe copy of parameters (tuples to lists, numpy scalars to Python numbers)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value
