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


def pearson_rows(x, y) -> np.ndarray:
    """Pearson's r of each row of ``x`` against the same row of ``y`` (2-D arrays, one resample a row);
    NaN for a row where either side is constant, as :func:`pearson` gives it."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"{x.shape} system scores but {y.shape} gold scores")
    if x.shape[1] < 2:
        return np.full(x.shape[0], math.nan)
    dx, dy = x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    sxx, syy = (dx * dx).sum(axis=1), (dy * dy).sum(axis=1)  # plain sums, not BLAS: the same bits on every CPU
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (dx * dy).sum(axis=1) / np.sqrt(sxx * syy)
    r[(sxx <= 0) | (syy <= 0)] = math.nan
    return np.clip(r, -1.0, 1.0)


def dense_codes(values) -> np.ndarray:
    """Each value's dense rank (0 for the smallest, ties share one): a resample ranked from these codes needs no sort."""
    return np.unique(np.asarray(values, dtype=float), return_inverse=True)[1].ravel()


def rank_rows(codes) -> np.ndarray:
    """Average ranks (as ``scipy.stats.rankdata`` gives them) within each row of ``codes``, dense codes of the
    values (:func:`dense_codes`) drawn into resamples: counting the codes of each row ranks it exactly."""
    codes = np.asarray(codes, dtype=np.intp)
    rows = codes.shape[0]
    m = int(codes.max()) + 1 if codes.size else 1
    counts = np.bincount((codes + np.arange(rows)[:, None] * m).ravel(), minlength=rows * m).reshape(rows, m)
    ranks = np.cumsum(counts, axis=1) - counts + (counts + 1) / 2
    return np.take_along_axis(ranks, codes, axis=1)


def spearman_rows(x_codes, y_codes) -> np.ndarray:
    """Spearman's rho of each row, from dense codes (:func:`dense_codes`) of the values: Pearson of average ranks."""
    return pearson_rows(rank_rows(x_codes), rank_rows(y_codes))


def least_squares_map_rows(system, gold) -> np.ndarray:
    """:func:`least_squares_map` of each row (a constant row is mapped onto its gold's mean)."""
    x, y = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
    if not x.shape[1]:
        return x.copy()
    mx, my = x.mean(axis=1, keepdims=True), y.mean(axis=1, keepdims=True)
    vx = np.mean((x - mx) ** 2, axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        beta1 = np.where(vx == 0, 0.0, np.mean((x - mx) * (y - my), axis=1, keepdims=True) / np.where(vx == 0, 1, vx))
    return beta1 * x + (my - beta1 * mx)
