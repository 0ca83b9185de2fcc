"""A trained model per training subset, and the mapping that picks one for each test subset.

Like TakeLab's STS 2012 runs: MSRpar, MSRvid and SMTeuroparl each get their own model, a
surprise subset is mapped to a related one, and any other subset falls back to ``fallback``.
A single-model regime is the same object with only the fallback.
"""
from __future__ import annotations

from sklearn.base import BaseEstimator


def pick_model(subset: str, names, mapping: dict, fallback: str) -> str:
    """Which of the models ``names`` scores ``subset``: the mapping's, the one of that name, or ``fallback``."""
    if subset in mapping:
        return mapping[subset]
    return subset if subset in names else fallback


class SubsetModels(BaseEstimator):
    """A scikit-learn meta-estimator over fitted systems: ``models`` (name → a system fitted on its own training
    subsets, as :func:`semsts.baselines.regimes.train_regime` fits them), ``mapping`` (test subset → model name)
    and ``fallback`` (the model of any other subset).

    The models are used as they are given, as scikit-learn's ``FrozenEstimator`` uses its estimator: ``fit``
    checks the mapping and refits nothing, and ``clone`` gives the object itself (a copy with unfitted models could
    not be fitted again: each was trained on its own subsets). The runner scores each test
    subset with its model (:func:`semsts.baselines.run.predict_subsets`); :meth:`predict` scores pairs of no
    known subset with the fallback.
    """

    def __init__(self, models: dict, mapping: dict | None = None, fallback: str = "all"):
        self.models = models
        self.mapping = mapping
        self.fallback = fallback

    def fit(self, X=None, y=None):
        """Check that ``fallback`` and every model ``mapping`` names are among ``models``; nothing is refitted."""
        if self.fallback not in self.models:
            raise ValueError(f"fallback model {self.fallback!r} is not among {sorted(self.models)}")
        missing = sorted({m for m in (self.mapping or {}).values() if m not in self.models})
        if missing:
            raise ValueError(f"mapping names models that are not there: {missing}")
        return self

    def __sklearn_is_fitted__(self) -> bool:
        return True  # its models come fitted

    def __sklearn_clone__(self):
        return self

    def model_name(self, subset: str) -> str:
        return pick_model(subset, self.models, self.mapping or {}, self.fallback)

    def for_subset(self, subset: str):
        return self.models[self.model_name(subset)]

    def predict(self, X):
        """Scores from the fallback model, for pairs of no known subset."""
        return self.models[self.fallback].predict(X)
