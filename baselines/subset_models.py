"""A trained model per training subset, and the mapping that picks one for each test subset.

Like TakeLab's STS 2012 runs: MSRpar, MSRvid and SMTeuroparl each get their own model, a
surprise subset is mapped to a related one, and any other subset falls back to ``fallback``.
A single-model regime is the same object with only the fallback.
"""
from __future__ import annotations

from . import run
from .run import predict_subset


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
    """``(subset, scores)`` for every subset of ``dataset``, each scored by its mapped model."""
    return [(sub, predict_subset(models.for_subset(sub.name), sub)[0]) for sub in dataset]


def write_outputs(models: SubsetModels, dataset, out_dir, *, name: str = "regression",
                  model_sha256: str | None = None) -> list:
    """One official output file per subset of ``dataset`` in ``out_dir`` (with its run record); the paths written."""
    return run.write_outputs(dataset, out_dir, lambda sub: models.for_subset(sub.name), name=name,
                             model_sha256=model_sha256)
