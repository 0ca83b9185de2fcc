"""The papers' random baseline: seeded uniform scores over the task's range."""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .base import PairRegressor


class RandomBaseline(PairRegressor):
    """Uniform scores in ``[low, high]``; the same seed and input give the same scores."""

    _parameter_constraints = {"seed": [Interval(Integral, 0, None, closed="left"), None],
                              "low": [Interval(Real, None, None, closed="neither")],
                              "high": [Interval(Real, None, None, closed="neither")]}

    def __init__(self, seed: int = 0, low: float = 0.0, high: float = 5.0):
        self.seed = seed
        self.low = low
        self.high = high

    def _predict(self, pairs):
        return np.random.default_rng(self.seed).uniform(self.low, self.high, size=len(pairs))
