"""The statistics every layer shares: Pearson (weighted, row-wise, and a numpy-free twin) and Spearman, and the one
check of a score range (:func:`checked_range`).

numpy is imported inside the functions that use it, so that :func:`pearson_plain` (``python evaluate.py GOLD SYS``)
imports nothing heavy. One rule for every Pearson here: NaN (undefined) when there are fewer than two points or
either side is constant (all its values equal, checked exactly: not by a variance that rounding leaves above 0).
"""
from __future__ import annotations

import math


def checked_range(score_range, what: str = "score_range") -> tuple[float, float]:
    """``score_range`` as ``(low, high)`` floats: two finite numbers, low < high, and ``high - low`` finite (a wider
    range overflows any map onto another); else an InvalidValue naming ``what`` (a scorer's, a file's …)."""
    from .errors import InvalidValue
    try:
        lo, hi = (float(v) for v in score_range)
    except (TypeError, ValueError, OverflowError):
        lo = hi = math.nan
    if not (lo < hi and math.isfinite(hi - lo)):
        raise InvalidValue(f"{what} must be two finite numbers, low < high, whose difference is a finite float; "
                           f"got {score_range!r:.60}")
    return lo, hi


def _usable(sxx, syy) -> bool:
    """Whether sqrt(sxx * syy) is a usable denominator; else (scores near 1e-117 or 1e200: the squares or their
    product under- or overflow) the deviations are scaled by their largest size first, which changes no r."""
    tiny = 2.2250738585072014e-308  # the smallest normal float: below it, squares lose their precision
    return math.isfinite(sxx) and math.isfinite(syy) and sxx >= tiny and syy >= tiny and tiny <= sxx * syy < math.inf


def pearson(x, y, *, weights=None) -> float:
    """Pearson's r (weighted when ``weights`` is given); NaN for fewer than two points, weights that do not sum
    above 0, or a constant side (all its values equal).

    The weighted form is the one the 2012 and 2013 task papers use for confidences
    (weighted means, covariances and variances with the same weights).
    """
    import numpy as np
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) != len(y):
        raise ValueError(f"{len(x)} system scores but {len(y)} gold scores")
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    if len(x) < 2 or not np.sum(w) > 0 or x.min() == x.max() or y.min() == y.max():
        return math.nan
    mx, my = np.average(x, weights=w), np.average(y, weights=w)
    dx, dy = x - mx, y - my
    with np.errstate(over="ignore", under="ignore"):
        sxx, syy = np.sum(w * dx * dx), np.sum(w * dy * dy)
        if not _usable(float(sxx), float(syy)):
            dx, dy = dx / np.abs(dx).max(), dy / np.abs(dy).max()
            sxx, syy = np.sum(w * dx * dx), np.sum(w * dy * dy)
    if sxx <= 0 or syy <= 0:  # all the weight on one value, or differences too small to square
        return math.nan
    return float(np.clip(np.sum(w * dx * dy) / math.sqrt(sxx * syy), -1.0, 1.0))


def spearman(x, y) -> float:
    """Spearman's rho: Pearson of average ranks."""
    from scipy.stats import rankdata
    return pearson(rankdata(x), rankdata(y))


def pearson_rows(x, y):
    """Pearson's r of each row of ``x`` against the same row of ``y`` (2-D arrays, one resample a row);
    NaN for a row where either side is constant, as :func:`pearson` gives it."""
    import numpy as np
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"{x.shape} system scores but {y.shape} gold scores")
    if x.shape[1] < 2:
        return np.full(x.shape[0], math.nan)
    dx, dy = x - x.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore", under="ignore"):
        sxx, syy = (dx * dx).sum(axis=1), (dy * dy).sum(axis=1)  # plain sums, not BLAS: the same bits on every CPU
        product = sxx * syy
        tiny = np.finfo(float).tiny
        odd = ~((sxx >= tiny) & (syy >= tiny) & (product >= tiny) & np.isfinite(product))  # as _usable: scaled first
        if odd.any():
            dx, dy = dx.copy(), dy.copy()
            dx[odd] /= np.abs(dx[odd]).max(axis=1, keepdims=True)
            dy[odd] /= np.abs(dy[odd]).max(axis=1, keepdims=True)
            sxx[odd], syy[odd] = (dx[odd] * dx[odd]).sum(axis=1), (dy[odd] * dy[odd]).sum(axis=1)
        r = (dx * dy).sum(axis=1) / np.sqrt(sxx * syy)
    constant = (x.min(axis=1) == x.max(axis=1)) | (y.min(axis=1) == y.max(axis=1))
    r[(sxx <= 0) | (syy <= 0) | constant] = math.nan
    return np.clip(r, -1.0, 1.0)


def pearson_plain(x: list[float], y: list[float]) -> float:
    """:func:`pearson` without numpy, in exactly rounded sums (``math.fsum``), for ``python evaluate.py GOLD SYS``
    to start as fast as correlation.pl; NaN by the same rule (fewer than two points, a constant side)."""
    n = len(x)
    if n < 2 or min(x) == max(x) or min(y) == max(y):
        return math.nan
    mx, my = math.fsum(x) / n, math.fsum(y) / n
    dx, dy = [v - mx for v in x], [v - my for v in y]
    try:
        sxx, syy = math.fsum(d * d for d in dx), math.fsum(d * d for d in dy)
    except OverflowError:
        sxx = syy = math.inf
    if not _usable(sxx, syy):
        big_x, big_y = max(abs(d) for d in dx), max(abs(d) for d in dy)
        dx, dy = [d / big_x for d in dx], [d / big_y for d in dy]  # both above 0: neither side is constant
        sxx, syy = math.fsum(d * d for d in dx), math.fsum(d * d for d in dy)
    if sxx <= 0 or syy <= 0:
        return math.nan
    return max(-1.0, min(1.0, math.fsum(a * b for a, b in zip(dx, dy)) / math.sqrt(sxx * syy)))
