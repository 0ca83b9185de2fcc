"""Intervals and significance tests of correlations: Fisher z, Williams, the paired bootstrap."""
from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

from semsts.core.stats import pearson

Z95 = 1.959963984540054
ALPHA = 0.05
MAX_RESAMPLES = 100_000  # 1e9 would take days; 1e5 already pins a p-value to about 0.002
_R_MAX = 0.9999999999  # keeps atanh finite for |r| = 1


def _fisher_z(r: float) -> float:
    return math.atanh(min(max(r, -_R_MAX), _R_MAX))


def fisher_ci(r: float, n: int, *, level: float = 0.95) -> tuple[float, float]:
    """Fisher-z confidence interval of a Pearson r on n pairs: tanh(atanh(r) ± q / sqrt(n - 3)).

    The 2012 task paper's interval analysis: r = .8239 on 3108 pairs gives [.8123, .8349].
    NaNs when r is undefined or n <= 3.
    """
    if not math.isfinite(r) or n <= 3:
        return (math.nan, math.nan)
    from scipy.stats import norm
    z, se = _fisher_z(r), 1.0 / math.sqrt(n - 3)
    q = norm.ppf(0.5 + level / 2)
    return (math.tanh(z - q * se), math.tanh(z + q * se))


def fisher_z_test(r1: float, n1: int, r2: float, n2: int | None = None) -> tuple[float, float]:
    """One-tailed Fisher-z test that r1 > r2; returns ``(z, p)``.

    The *SEM 2013 paper's significance test between runs (Press et al. 2002, Numerical Recipes
    eq. 14.5.10): z = (atanh r1 - atanh r2) / sqrt(1/(n1-3) + 1/(n2-3)), p = P(Z >= z). It treats
    the two correlations as independent; for two runs scored on the same gold, where they are
    not, :func:`williams_test` is the sharper test. ``n2`` defaults to ``n1``.
    """
    from scipy.stats import norm
    n2 = n1 if n2 is None else n2
    if not (math.isfinite(r1) and math.isfinite(r2)) or min(n1, n2) <= 3:
        return (math.nan, math.nan)
    z = (_fisher_z(r1) - _fisher_z(r2)) / math.sqrt(1.0 / (n1 - 3) + 1.0 / (n2 - 3))
    return (float(z), float(norm.sf(z)))


def williams_test(r12: float, r13: float, r23: float, n: int) -> tuple[float, float]:
    """Williams' test that r12 > r13 when both share variable 1; returns ``(t, p)``, one-tailed.

    Variable 1 is the gold, 2 and 3 two systems: r12, r13 their Pearsons with the gold, r23 the
    Pearson between the systems. Williams' T2 as Steiger (1980, "Tests for comparing elements of
    a correlation matrix", Psychological Bulletin 87) recommends it, with n - 3 degrees of freedom:
    t = (r12 - r13) sqrt((n-1)(1+r23) / (2 |R| (n-1)/(n-3) + rbar^2 (1-r23)^3)),
    |R| = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23, rbar = (r12 + r13) / 2.
    """
    from scipy.stats import t as student_t
    if not all(math.isfinite(v) for v in (r12, r13, r23)) or n <= 3:
        return (math.nan, math.nan)
    det = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    rbar = (r12 + r13) / 2
    denom = 2 * det * (n - 1) / (n - 3) + rbar ** 2 * (1 - r23) ** 3
    if denom <= 0:
        return (math.nan, math.nan)
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23) / denom)
    return (float(t), float(student_t.sf(t, n - 3)))


class BootstrapResult(NamedTuple):
    """A paired bootstrap of ``metric(a, gold) - metric(b, gold)``."""

    difference: float  # on the full sample
    ci: tuple  # percentile interval of the resampled differences
    p_value: float  # share of resamples in which a does not beat b (one-tailed, a > b)
    n_resamples: int
    seed: int


def paired_bootstrap(gold, system_a, system_b, *, n_resamples: int = 1000, seed: int = 0,
                     level: float = 0.95, metric: Callable = pearson) -> BootstrapResult:
    """Paired bootstrap (Efron & Tibshirani 1993; Koehn 2004) of the gap between two systems.

    Pairs are resampled with replacement, the same indices for both systems; the p-value is the
    share of resamples where ``metric(a) - metric(b) <= 0``. Deterministic for a given seed.
    Resamples where a metric is undefined (a constant resample) are left out of the CI and p.
    """
    gold = np.asarray(gold, dtype=float)
    a, b = np.asarray(system_a, dtype=float), np.asarray(system_b, dtype=float)
    if not len(gold) == len(a) == len(b):
        raise ValueError(f"gold, a and b differ in length: {len(gold)}, {len(a)}, {len(b)}")
    diffs = np.empty(n_resamples)
    for i, (idx,) in enumerate(resample_indices([len(gold)], n_resamples, seed, chunk=1)):
        idx = idx[0]
        diffs[i] = metric(a[idx], gold[idx]) - metric(b[idx], gold[idx])
    observed = float(metric(a, gold) - metric(b, gold))
    return BootstrapResult(observed, percentile_ci(diffs, level), bootstrap_p(diffs), n_resamples, seed)


def resample_indices(sizes, n_resamples: int, seed: int, *, chunk: int | None = None):
    """Bootstrap resamples of pairs, stratified: each stratum (a subset) resampled with replacement within itself.

    Yields, per chunk of at most ``chunk`` resamples, one ``(resamples, size)`` array of indices per stratum.
    The draws are made resample by resample, stratum by stratum, from ``numpy.random.default_rng(seed)``, so
    the chunking never changes them; with one stratum they are the indices :func:`paired_bootstrap` uses.
    """
    sizes = [int(n) for n in sizes]
    rng = np.random.default_rng(seed)
    chunk = max(1, int(chunk or n_resamples))
    for start in range(0, n_resamples, chunk):
        count = min(chunk, n_resamples - start)
        out = [np.empty((count, n), dtype=np.intp) for n in sizes]
        for i in range(count):
            for k, n in enumerate(sizes):
                if n:
                    out[k][i] = rng.integers(0, n, size=n)
        yield out


def percentile_ci(values, level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of resampled values (NaN ones left out; NaNs when none is left)."""
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if not len(values):
        return (math.nan, math.nan)
    tail = (1 - level) / 2
    lo, hi = np.quantile(values, [tail, 1 - tail])
    return (float(lo), float(hi))


def bootstrap_p(diffs, *, two_sided: bool = False) -> float:
    """The bootstrap p-value of resampled differences a - b (NaN ones left out): one-tailed (a > b), the share
    of resamples where a does not beat b; two-sided, twice the smaller share on either side of 0, at most 1."""
    diffs = np.asarray(diffs, dtype=float)
    diffs = diffs[np.isfinite(diffs)]
    if not len(diffs):
        return math.nan
    if not two_sided:
        return float(np.mean(diffs <= 0))
    return float(min(1.0, 2 * min(np.mean(diffs <= 0), np.mean(diffs >= 0))))


def aggregate_ci(scores, rule: str, *, level: float = 0.95) -> tuple[float, float]:
    """Interval of a size-weighted mean, plain mean or sum of Pearsons (``scores``: each subset's
    :class:`~semsts.scoring.aggregates.SubsetScore`), always inside the figure's range.

    The subsets are independent samples, each r with Fisher's variance var(atanh r) = 1 / (n - 3), so
    var(r) ~ (1 - r^2)^2 / (n - 3) (the delta method); the interval is taken on Fisher's z of the mean, as
    Fisher's interval of one r is, so it stays inside [-1, 1] (a sum: inside [-k, k]) where a plain normal
    interval reached 1.036. One subset: exactly :func:`fisher_ci` (the same figure, the same interval).
    NaNs when a subset has 3 pairs or fewer, as :func:`fisher_ci`.
    """
    from scipy.stats import norm
    rs, ns = np.asarray([s.r for s in scores], dtype=float), np.asarray([s.n for s in scores], dtype=float)
    if len(rs) == 0 or not np.isfinite(rs).all() or (ns <= 3).any():
        return (math.nan, math.nan)
    w = {"sum": np.ones_like(rs), "weighted": ns / ns.sum()}.get(rule, np.ones_like(rs) / len(rs))
    scale = float(w.sum())  # 1 for a mean, k for a sum of k
    mean = float(np.sum(w * rs)) / scale
    sd = math.sqrt(float(np.sum(w ** 2 * (1 - rs ** 2) ** 2 / (ns - 3)))) / scale
    if abs(mean) >= 1 or sd == 0:
        return (mean * scale, mean * scale)
    half = float(norm.ppf(0.5 + level / 2)) * sd / (1 - mean ** 2)
    z = math.atanh(mean)
    return (math.tanh(z - half) * scale, math.tanh(z + half) * scale)
