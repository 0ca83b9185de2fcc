"""The one interface every system shares: a scikit-learn regressor over text pairs."""
from __future__ import annotations

from typing import Sequence

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin


class PairError(ValueError):
    """Pair ``index`` (0-based) of the input cannot be used; the runner turns it into file:line."""

    def __init__(self, index: int, message: str):
        self.index = index
        self.message = message
        super().__init__(f"pair {index + 1}: {message}")


def check_pairs(X) -> list[tuple[str, str]]:
    """Accept any sequence of ``(text_a, text_b)``; refuse anything else with a clear message."""
    if isinstance(X, np.ndarray) and X.ndim == 2 and X.shape[1] == 2:
        X = X.tolist()
    pairs = []
    for i, pair in enumerate(X):
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"X[{i}] must be a (text_a, text_b) pair, got {pair!r:.80}")
        a, b = pair
        if not isinstance(a, str) or not isinstance(b, str):
            raise ValueError(f"X[{i}] must hold two strings, got {type(a).__name__} and {type(b).__name__}")
        pairs.append((a, b))
    return pairs


def check_training(X, y) -> tuple[list, np.ndarray | None]:
    """Pairs and their gold scores as ``fit`` takes them: as many scores as pairs, all finite."""
    pairs = check_pairs(X)
    if y is not None:
        y = np.asarray(y, dtype=float)
        if len(y) != len(pairs):
            raise ValueError(f"X has {len(pairs)} pairs but y has {len(y)} scores")
        if not np.isfinite(y).all():
            raise ValueError("y holds NaN or inf; drop unscored pairs before fitting")
    return pairs, y


class PairRegressor(RegressorMixin, BaseEstimator):
    """Base for systems: ``fit(X, y)`` returns self, ``predict(X)`` gives one score per pair.

    Subclasses implement ``_fit(pairs, y)`` (optional) and ``_predict(pairs)``; scores are
    mapped into ``score_range`` by the subclass or by ``clip``.
    """

    score_range: tuple[float, float] = (0.0, 5.0)

    def fit(self, X, y=None):
        pairs, y = check_training(X, y)
        self._fit(pairs, y)
        self.n_pairs_fit_ = len(pairs)
        return self

    def _fit(self, pairs, y) -> None:
        """Unsupervised systems learn nothing by default."""

    def predict(self, X) -> np.ndarray:
        if not hasattr(self, "n_pairs_fit_"):
            from sklearn.exceptions import NotFittedError
            raise NotFittedError(f"{type(self).__name__} is not fitted yet; call fit first")
        scores = np.asarray(self._predict(check_pairs(X)), dtype=float)
        if not np.isfinite(scores).all():
            raise ValueError(f"{type(self).__name__} produced NaN or inf scores")
        return scores

    def _predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        raise NotImplementedError

    def __sklearn_tags__(self):
        """Input: a list of text pairs (not a 2-D numeric array); y is optional unless a subclass needs it."""
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        tags.target_tags.required = False
        return tags
