"""A trained model per training subset, and the mapping that picks one for each test subset.

Like TakeLab's STS 2012 runs: MSRpar, MSRvid and SMTeuroparl each get their own model, a
surprise subset is mapped to a related one, and any other subset falls back to ``fallback``.
A single-model regime is the same object with only the fallback.
"""
from __future__ import annotations

from semsts.features.scorers import NonFiniteScore

from . import run
from .base import PairError
from .run import at_pair, onto_score_range, system_score_range


def pick_model(subset: str, names, mapping: dict, fallback: str) -> str:
    """Which of the models ``names`` scores ``subset``: the mapping's, the one of that name, or ``fallback``."""
    if subset in mapping:
        return mapping[subset]
    return subset if subset in names else fallback


class SubsetModels:
    """``models``: name → fitted system; ``mapping``: test subset → model name."""

    def __init__(self, models: dict, mapping: dict | None = None, fallback: str = "all"):
        if fallback not in models:
            raise ValueError(f"fallback model {fallback!r} is not among {sorted(models)}")
        missing = sorted({m for m in (mapping or {}).values() if m not in models})
        if missing:
            raise ValueError(f"mapping names models that are not there: {missing}")
        self.models = dict(models)
        self.mapping = dict(mapping or {})
        self.fallback = fallback

    def model_name(self, subset: str) -> str:
        return pick_model(subset, self.models, self.mapping, self.fallback)

    def for_subset(self, subset: str):
        return self.models[self.model_name(subset)]

    def predict(self, pairs):
        """Scores from the fallback model, for pairs of no known subset."""
        return self.models[self.fallback].predict(pairs)


def predict_subsets(models: SubsetModels, dataset) -> list:
    """``(subset, scores)`` for every subset of ``dataset``, each scored by its mapped model (all at once)."""
    predicted = predict_all(models, list(dataset))
    return [(sub, predicted[id(sub)]) for sub in dataset]


def predict_all(models: SubsetModels, subsets) -> dict:
    """``id(subset) -> scores`` on each subset's range, as :func:`predict_subset` gives them, each model predicting
    the pairs of all the subsets it scores in one call, each distinct pair once: a regression's prediction of a
    pair does not depend on the others, and one call of thousands of pairs keeps every worker busy where one
    call per subset (STS 2015's five of 1,500-2,000) would not. A bad pair is a FormatError at its subset's line."""
    groups: dict = {}
    for sub in subsets:
        groups.setdefault(models.model_name(sub.name), []).append(sub)
    out = {}
    for name, group in groups.items():
        model = models.models[name]
        pairs = [tuple(p) for sub in group for p in sub.pairs]  # hashable, whatever sequence a subset holds
        distinct = list(dict.fromkeys(pairs))
        try:
            scores = model.predict(distinct)
        except PairError as exc:  # the first copy of the pair, at its subset's line
            at = pairs.index(distinct[exc.index])
            for sub in group:
                if at < len(sub.pairs):
                    raise sub.pair_error(at, exc.message) from None
                at -= len(sub.pairs)
            raise
        except NonFiniteScore as exc:  # a pair scorer's feature
            raise at_pair(exc, group) from None
        row = {pair: i for i, pair in enumerate(distinct)}
        scores = scores[[row[p] for p in pairs]] if pairs else scores
        start = 0
        for sub in group:
            out[id(sub)] = onto_score_range(sub, scores[start:start + len(sub.pairs)], system_score_range(model))
            start += len(sub.pairs)
    return out


def write_outputs(models: SubsetModels, dataset, out_dir, *, name: str = "regression",
                  model_sha256: str | None = None) -> list:
    """One official output file per subset of ``dataset`` in ``out_dir`` (with its run record); the paths written.
    Every subset is predicted at once (:func:`predict_all`), once the run owns ``out_dir``."""
    subsets, predicted = list(dataset), {}

    def predict(sub):
        if not predicted:
            predicted.update(predict_all(models, subsets))
        return predicted[id(sub)], None
    return run.write_outputs(dataset, out_dir, predict, name=name, model_sha256=model_sha256)
