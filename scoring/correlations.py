"""The correlations every STS figure is made of: Pearson (optionally weighted), Spearman, the ALLnorm map."""
from __future__ import annotations

import math

import numpy as np


def pearson(x, y, *, weights=None) -> float:
    """Pearson's r (weighted when ``weights`` is given); NaN when either side is constant.

    The weighted form is the one the 2012 and 2013 task papers use for confidences
    (weighted means, covariances and variances with the same weights).
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) != len(y):
        raise ValueError(f"{len(x)} system scores but {len(y)} gold scores")
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    if len(x) < 2 or not np.sum(w) > 0:
        return math.nan
    mx, my = np.average(x, weights=w), np.average(y, weights=w)
    dx, dy = x - mx, y - my
    sxx, syy = np.sum(w * dx * dx), np.sum(w * dy * dy)
    if sxx <= 0 or syy <= 0:
        return math.nan
    return float(np.clip(np.sum(w * dx * dy) / math.sqrt(sxx * syy), -1.0, 1.0))


def spearman(x, y) -> float:
    """Spearman's rho: Pearson of average ranks."""
    from scipy.stats import rankdata
    return pearson(rankdata(x), rankdata(y))


def least_squares_map(system, gold) -> np.ndarray:
    """The system scores mapped onto the gold by the least-squares line (ALLnorm's step)."""
    x, y = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
    if not len(x):  # a subset with no scored pair: nothing to map (and no numpy warning)
        return x.copy()
    vx = np.var(x)
    if vx == 0:
        return np.full_like(x, y.mean())
    beta1 = np.mean((x - x.mean()) * (y - y.mean())) / vx
    return beta1 * x + (y.mean() - beta1 * x.mean())


def is_finite(value) -> bool:
    """A float that is a number (not None, not NaN)."""
    return isinstance(value, float) and math.isfinite(value)
