"""What the scorer adds to the shared statistics (:mod:`semsts.core.stats`, re-exported here): the ALLnorm map,
and the ranks and correlations of resamples drawn as rows (the bench's intervals)."""
from __future__ import annotations

import math

import numpy as np

from semsts.core.stats import pearson, pearson_rows, spearman  # noqa: F401 - the scorer's API names them here


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


def dense_codes(values) -> np.ndarray:
    """Each value's dense rank (0 for the smallest, ties share one): a resample ranked from these codes needs no sort."""
    return np.unique(np.asarray(values, dtype=float), return_inverse=True)[1].ravel()


def rank_rows(codes) -> np.ndarray:
    """Average ranks (as ``scipy.stats.rankdata`` gives them) within each row of ``codes``, dense codes of the
    values (:func:`dense_codes`) drawn into resamples: counting the codes of each row ranks it exactly."""
    codes = np.asarray(codes, dtype=np.intp)
    rows = codes.shape[0]
    m = int(codes.max()) + 1 if codes.size else 1
    cells = codes + np.arange(rows)[:, None] * m  # each code's cell in the rows' counts, laid end to end
    counts = np.bincount(cells.ravel(), minlength=rows * m).reshape(rows, m)
    ranks = np.cumsum(counts, axis=1) - counts + (counts + 1) / 2
    return ranks.ravel()[cells]  # each value's rank, gathered by its cell (take_along_axis builds its index anew)


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
