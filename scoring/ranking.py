"""Ranking maths of published tables: competition ranks, a new run's place, aggregates recomputed."""
from __future__ import annotations

import math

from semsts.corpora.leaderboards import Leaderboard, Row

from . import aggregates


def competition_ranks(values, *, digits: int = 9) -> list:
    """Ranks, higher is better, ties share the best rank ("1, 2, 2, 4"), as the papers rank.

    Values are compared rounded to ``digits`` so sums of printed figures tie when they should;
    None (or NaN) stays unranked.
    """
    return [placed_rank(v, values, digits=digits) for v in values]


def placed_rank(value: float | None, ranked_values, *, digits: int = 9) -> int | None:
    """The rank ``value`` would take among ``ranked_values`` without displacing them."""
    if value is None or not math.isfinite(value):
        return None
    v = round(value, digits)
    return 1 + sum(1 for w in ranked_values if w is not None and round(w, digits) > v)


def aggregate(board: Leaderboard, row: Row, measure: str, *, subsets=None, sizes=None) -> float | None:
    """``measure`` recomputed from the row's subset figures over ``subsets`` (default: all).

    None when the rule cannot (pooled or given measures, or a weighted/plain mean with a
    figure missing); a missing figure counts 0 in a sum, as the CLSS paper ranks.
    """
    rule = board.measures[measure]
    names = board.subsets if subsets is None else tuple(subsets)
    values = [row.scores.get(name) for name in names]
    if rule == "sum":
        return aggregates.total(v for v in values if v is not None)
    if rule not in ("weighted", "mean") or not names or any(v is None for v in values):
        return None
    sizes = board.sizes if sizes is None else sizes
    return aggregates.of_scores(rule, [aggregates.SubsetScore(name, v, sizes[name] if rule == "weighted" else None)
                                       for name, v in zip(names, values)])


def value(board: Leaderboard, row: Row, measure: str) -> float | None:
    """The printed figure of ``measure`` if the paper gives one, else its aggregate."""
    printed = row.scores.get(measure)
    return printed if printed is not None else aggregate(board, row, measure)


def common_task_rank(ours: dict, others, tasks) -> tuple[int | None, list]:
    """Where a row of per-task figures would rank among ``others`` (dicts of the same kind), each
    compared on the mean of the ``tasks`` both have: 1 + the number whose mean over those shared tasks
    is higher than ours over the same tasks. Returns the rank and, per other row, the tasks it was
    compared on (empty: no task in common, not counted)."""
    mine = [t for t in tasks if ours.get(t) is not None and math.isfinite(ours[t])]
    if not mine:
        return None, [() for _ in others]
    above, compared = 0, []
    for other in others:
        shared = tuple(t for t in mine if other.get(t) is not None)
        compared.append(shared)
        if shared and round(aggregates.mean([other[t] for t in shared]), 9) > \
                round(aggregates.mean([ours[t] for t in shared]), 9):
            above += 1
    return 1 + above, compared
