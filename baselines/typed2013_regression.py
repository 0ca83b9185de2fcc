"""A TYPED regression variant, as the best TYPED systems did: per type, a regressor trained on that
type's gold over every type's similarities (TF-IDF cosines and item-set Jaccard overlaps)."""
from __future__ import annotations

import numpy as np
from sklearn.multioutput import MultiOutputRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

from semsts.core.errors import InvalidValue
from semsts.corpora.typed2013 import TYPES

from .base import NONE, either, with_methods
from .typed2013 import TypedPairRegressor
from .typed2013_tfidf import TypedTfidf


def jaccard(a, b) -> float:
    a, b = set(a), set(b)
    return len(a & b) / len(a | b) if a | b else 0.0


class TypedRegression(TypedPairRegressor):
    """Eight regressors (``estimator``, default a scaled RBF SVR) over 16 features per pair; needs y (n, 8)."""

    param_rules = {"fields": either(with_methods("transform"), NONE), "estimator": either(with_methods("fit", "predict"), NONE)}

    def __init__(self, fields=None, estimator=None):
        self.fields = fields
        self.estimator = estimator

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def features(self, pairs) -> np.ndarray:
        """``(n, 16)``: the eight TF-IDF cosines (IDF from the training records), then eight Jaccards."""
        items = self.tfidf_.items([text for pair in pairs for text in pair])
        overlap = [[jaccard(items[a][t], items[b][t]) for t in TYPES] for a, b in pairs]
        return np.hstack([self.tfidf_.predict(pairs), np.asarray(overlap, dtype=float).reshape(len(pairs), len(TYPES))])

    def _fit(self, pairs, y) -> None:
        if y is None or np.ndim(y) != 2 or np.shape(y)[1] != len(TYPES):
            raise InvalidValue(f"{type(self).__name__} learns from TYPED gold, y of shape (n, {len(TYPES)}): "
                               "train it on typed2013-train (sts run … --train typed2013-train)")
        self.tfidf_ = TypedTfidf(fields=self.fields, score_range=(0.0, 1.0)).fit(pairs)
        X = self.features(pairs)
        base = self.estimator if self.estimator is not None else make_pipeline(StandardScaler(), SVR())
        self.model_ = MultiOutputRegressor(base, n_jobs=1).fit(X, y)  # one clone of ``base`` per type, fitted here

    def _predict(self, pairs):
        if not pairs:
            return np.zeros((0, len(TYPES)))
        X = self.features(pairs)
        return np.clip(self.model_.predict(X), 0.0, 5.0)
