"""The papers' random baseline: seeded uniform scores over the task's range."""
from __future__ import annotations

import numpy as np

from .base import NONE, PairRegressor, either, int_from, real_in


class RandomBaseline(PairRegressor):
    """Uniform scores in ``[low, high]``; the same seed and input give the same scores."""

    param_rules = {"seed": either(int_from(0), NONE), "low": real_in(), "high": real_in()}

    def __init__(self, seed: int = 0, low: float = 0.0, high: float = 5.0):
        self.seed = seed
        self.low = low
        self.high = high

    def _predict(self, pairs):
        return np.random.default_rng(self.seed).uniform(self.low, self.high, size=len(pairs))
