"""The aggregates that turn per-subset figures into one figure per dataset; each is computed here and nowhere else.

Each has one name, the one the published tables' rules use (:data:`semsts.corpora.reports.RULES`):

- ``pooled``: one correlation over the scored pairs of every subset together (STS 2012's ALL, SimCSE's
  and MTEB's "all");
- ``normalized``: each subset's predictions first mapped onto its gold by least squares, then pooled
  (STS 2012's ALLnorm, which the paper prints as ALLnrm);
- ``weighted``: the subsets' correlations weighted by their scored pairs (the official Mean of
  2012-2016, SentEval's ``wmean``);
- ``mean``: their plain mean (SentEval's ``mean``, TYPED's mean of the eight types);
- ``sum``: their sum (CLSS 2014's official score).

Sums are exact (``math.fsum``), so a figure does not depend on the order of the subsets. A figure
that needs an undefined correlation (NaN) is NaN.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from semsts.core.stats import pearson

from .correlations import least_squares_map, least_squares_map_rows

NAMES = ("pooled", "normalized", "weighted", "mean", "sum")
Correlation = Callable[[np.ndarray, np.ndarray], float]
_NEEDS_PAIRS = "the aggregate {!r} needs the pairs, not only each subset's figure; of figures: weighted, mean, sum"


@dataclass(frozen=True)
class SubsetScore:
    """One subset's (or TYPED type's) correlation ``r`` over its ``n`` scored pairs: the one shape per-subset scores
    travel in through the scorer (``n`` None where it is not known: a published figure whose size is not given)."""

    name: str
    r: float
    n: int | None = None


def pooled(parts: Sequence[tuple], correlation: Correlation = pearson) -> float:
    """One correlation over ``parts``' ``(prediction, gold)`` scored pairs together."""
    return correlation(np.concatenate([p for p, _ in parts]), np.concatenate([g for _, g in parts]))


def normalized(parts: Sequence[tuple], correlation: Correlation = pearson) -> float:
    """Each part's predictions mapped onto its gold by least squares, then :func:`pooled`."""
    return pooled([(least_squares_map(p, g), g) for p, g in parts], correlation)


def weighted(values, sizes) -> float:
    """The mean of ``values`` weighted by ``sizes``; NaN when any value is, or there are none."""
    values, sizes = [float(v) for v in values], [float(s) for s in sizes]
    if not values or any(math.isnan(v) for v in values):
        return math.nan
    return math.fsum(v * s for v, s in zip(values, sizes)) / math.fsum(sizes)


def mean(values) -> float:
    """The plain mean of ``values``; NaN when any value is, or there are none."""
    values = [float(v) for v in values]
    return weighted(values, [1.0] * len(values))


def total(values) -> float:
    """The sum of ``values`` (the ``sum`` aggregate); NaN when any value is."""
    return math.fsum(float(v) for v in values)


def of_figures(name: str, values, sizes=None) -> float:
    """The aggregate ``name`` (``weighted``, ``mean`` or ``sum``) of per-subset figures."""
    if name == "weighted":
        return weighted(values, sizes)
    if name == "mean":
        return mean(values)
    if name == "sum":
        return total(values)
    raise ValueError(_NEEDS_PAIRS.format(name))


def of_scores(name: str, scores: Sequence[SubsetScore]) -> float:
    """:func:`of_figures` of per-subset scores: their ``r``, weighted by their ``n`` for ``weighted``."""
    return of_figures(name, [s.r for s in scores], [s.n for s in scores] if name == "weighted" else None)


def of_parts(name: str, parts: Sequence[tuple], correlation: Correlation = pearson) -> float:
    """The aggregate ``name`` (one of :data:`NAMES`) over ``(prediction, gold)`` scored pairs per subset."""
    if name == "pooled":
        return pooled(parts, correlation)
    if name == "normalized":
        return normalized(parts, correlation)
    if name not in NAMES:
        raise ValueError(f"unknown aggregate {name!r}; known: {', '.join(NAMES)}")
    return of_figures(name, [correlation(p, g) for p, g in parts], [len(g) for _, g in parts])


def of_resamples(name: str, parts: Sequence[tuple], correlation) -> np.ndarray:
    """The aggregate ``name`` of many resamples at once: ``parts`` are ``(prediction, gold)`` arrays of shape
    ``(resamples, pairs of the part)``, ``correlation`` a row-wise one (:func:`semsts.core.stats.pearson_rows`);
    one figure per resample. A part keeps its size in every resample (resampled within itself), so its weight too."""
    if name == "pooled":
        return correlation(np.concatenate([p for p, _ in parts], axis=1), np.concatenate([g for _, g in parts], axis=1))
    if name == "normalized":
        return of_resamples("pooled", [(least_squares_map_rows(p, g), g) for p, g in parts], correlation)
    values = np.array([correlation(p, g) for p, g in parts])  # (parts, resamples); NaN spreads to the figure
    return of_figure_rows(name, values, [g.shape[1] for _, g in parts])


def of_figure_rows(name: str, values, sizes) -> np.ndarray:
    """:func:`of_figures` of many resamples at once: ``values`` holds each part's figures, ``(parts, resamples)``."""
    values = np.asarray(values, dtype=float)
    if name == "sum":
        return values.sum(axis=0)
    if name not in ("weighted", "mean"):
        raise ValueError(_NEEDS_PAIRS.format(name))
    sizes = np.array(sizes if name == "weighted" else [1] * len(values), dtype=float)
    return (sizes[:, None] * values).sum(axis=0) / sizes.sum()  # not a BLAS product: the same bits on every CPU
