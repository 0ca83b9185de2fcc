"""The 95% interval of each kind of figure, chosen in this one place for ``sts eval``, ``sts compare`` and
``sts bench``, with the words each output prints to name it.

- **one Pearson over pairs** (a subset's; a pooled ALL; the Mean or Pearson of a dataset of one subset):
  Fisher z, ``tanh(atanh(r) ± 1.96 / sqrt(n - 3))``;
- **a mean, size-weighted mean or sum of subsets' Pearsons** (a task's Mean, SentEval's Pearson mean and
  wmean): each subset's Fisher z variance ``1 / (n_i - 3)`` carried to the aggregate by the delta method, the
  interval taken on Fisher's z of the mean (with one subset, exactly the Fisher z interval above);
- **every other figure** (Spearman, SimCSE's and MTEB's figures x 100, ALLnorm, SimCSE's Avg., MTEB's mean) and
  **every difference between two runs**: the percentile interval of the bootstrap over pairs resampled within each
  subset (``sts bench``, whose rows carry their predictions; ``compare``'s paired tests).
"""
from __future__ import annotations

import math

from .significance import aggregate_ci, fisher_ci

FISHER = "Fisher z, tanh(atanh(r) ± 1.96 / sqrt(n - 3))"
DELTA = "Fisher z of each subset's Pearson (variance 1 / (n - 3)), carried to the aggregate by the delta method"
BOOTSTRAP = "percentile interval of the bootstrap over pairs resampled within each subset"
CLOSED_FORM_RULES = ("pooled", "weighted", "mean", "sum")  # the aggregates of Pearsons with an interval above


def method(rule: str, subsets: int = 2) -> str:
    """The words naming the interval of a figure made by ``rule`` (:data:`semsts.corpora.reports.RULES`) over
    ``subsets`` subsets (over one, every Pearson aggregate is that subset's Pearson: Fisher z)."""
    if rule == "pooled" or (rule in CLOSED_FORM_RULES and subsets == 1):
        return FISHER
    return DELTA if rule in CLOSED_FORM_RULES else BOOTSTRAP


def figure_interval(rule: str, value: float | None, scores, n_total: int | None = None):
    """The 95% interval of a Pearson figure made by ``rule``: ``value`` pooled over ``n_total`` pairs, or the
    aggregate of ``scores`` (each subset's :class:`~semsts.scoring.aggregates.SubsetScore`); None where it has no closed form (ALLnorm, a
    given figure) or no value."""
    if value is None or not math.isfinite(value):
        return None
    if rule == "pooled":
        return fisher_ci(value, n_total)
    if rule in CLOSED_FORM_RULES:
        return aggregate_ci(list(scores), rule)
    return None
