"""Gradient boosting held to the direction each feature points in on the training data.

Most features are similarities: more overlap should never lower the predicted score. Boosting
trees fitted on a few domains learn non-monotone quirks of those domains; constraining every
feature whose training correlation with the gold score is clearly signed (``|r| > threshold``)
to move the prediction in that direction only keeps the model sensible on a new domain.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.utils.validation import check_is_fitted, validate_data

from .base import NONE, check_params, either, instance_of, int_from, real_in


def correlation_signs(X, y, threshold: float) -> np.ndarray:
    """+1 / -1 for columns whose Pearson r with ``y`` is above ``threshold`` / below ``-threshold``, else 0."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    xc, yc = X - X.mean(axis=0), y - y.mean()
    den = np.sqrt((xc ** 2).sum(axis=0) * (yc ** 2).sum())
    r = np.divide(xc.T @ yc, den, out=np.zeros(X.shape[1]), where=den > 0)
    return np.where(r > threshold, 1, np.where(r < -threshold, -1, 0)).astype(int)


class MonotoneGBR(RegressorMixin, BaseEstimator):
    """``HistGradientBoostingRegressor`` with monotonic constraints from the training correlations."""

    param_rules = {
        "learning_rate": real_in(0, open_low=True), "max_leaf_nodes": int_from(2), "max_iter": int_from(1),
        "min_samples_leaf": int_from(1), "threshold": real_in(0, 1),
        "random_state": either(int_from(0), instance_of(np.random.RandomState), NONE)}

    def __init__(self, learning_rate: float = 0.05, max_leaf_nodes: int = 15, max_iter: int = 300,
                 min_samples_leaf: int = 20, threshold: float = 0.2, random_state=None):
        self.learning_rate = learning_rate
        self.max_leaf_nodes = max_leaf_nodes
        self.max_iter = max_iter
        self.min_samples_leaf = min_samples_leaf
        self.threshold = threshold
        self.random_state = random_state

    def fit(self, X, y):
        check_params(self)
        X, y = validate_data(self, X, y, y_numeric=True)
        self.monotonic_cst_ = correlation_signs(X, y, self.threshold)
        self.model_ = HistGradientBoostingRegressor(
            learning_rate=self.learning_rate, max_leaf_nodes=self.max_leaf_nodes, max_iter=self.max_iter,
            min_samples_leaf=self.min_samples_leaf, monotonic_cst=self.monotonic_cst_,
            random_state=self.random_state).fit(X, y)
        self.n_iter_ = self.model_.n_iter_
        return self

    def predict(self, X):
        check_is_fitted(self, "model_")
        return self.model_.predict(validate_data(self, X, reset=False))
