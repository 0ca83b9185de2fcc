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


def printed_rank(value: float | None, ranked_values) -> int | None:
    """The rank a figure of ours takes among published figures of two decimals, compared as printed (rounded to 2):
    the rank a published table's rank column shows and the sentence under it says; None when it is undefined."""
    if value is None or not math.isfinite(value):
        return None
    return placed_rank(round(value, 2), ranked_values, digits=2)


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


TOP, AROUND = 3, 2  # the rows a readable table keeps beside ours: the top ones, and those on each side of ours


def kept(n: int, centres, *, top: int = TOP, around: int = AROUND) -> set:
    """The positions a readable table of ``n`` rows keeps: the ``top`` first and ``around`` on each side of each of
    ``centres`` (the rows of ours)."""
    return set(range(min(top, n))) | {k for i in centres for k in range(max(0, i - around), min(n, i + around + 1))}


def ranked_view(header, published, ours, *, top: int = TOP, around: int = AROUND) -> tuple[list, list, list, dict]:
    """A long published table cut to what a reader needs: every row ranked by one figure (published ``(cells,
    value)``, ours ``(lines, value)``, ``lines`` the row and its interval line), ours placed at the rank their
    figure (rounded to 2 decimals, as printed) would take among the published rows; kept: the ``top`` rows, ours and
    ``around`` published rows on each side of each of ours that has the figure (one without it is not ranked: it
    comes last, alone, not beside the lowest published rows). Returns the header with a rank column, the body, which
    body lines are ours, and the lines standing for the rows left out (body position -> text)."""
    values = [v for _, v in published]
    ours = [(lines, v if v is not None and math.isfinite(v) else None) for lines, v in ours]  # undefined: not ranked
    merged = [(v if v is not None else -math.inf, 0, i, "-" if v is None else str(placed_rank(v, values)), cells)
              for i, (cells, v) in enumerate(published)]
    for j, (lines, v) in enumerate(ours):
        rank = printed_rank(v, values)
        merged.append((round(v, 2) if v is not None else -math.inf, 1, j, "-" if rank is None else str(rank), lines))
    merged.sort(key=lambda m: (-m[0], m[1], m[2]))
    mine = [k for k, m in enumerate(merged) if m[1] == 1]
    ranked = [k for k in mine if merged[k][0] != -math.inf]  # a row of ours without the figure has no neighbours
    keep = kept(len(merged), ranked, top=top, around=around) | set(mine)
    body, is_ours, gaps, left_out = [], [], {}, []

    def gap():
        if left_out:
            ranks = [int(r) for r in left_out if r != "-"]
            span = (f" (ranks {min(ranks)}-{max(ranks)})" if len(set(ranks)) > 1 else
                    f" (rank {ranks[0]})" if ranks else "")
            gaps[len(body)] = (f"… {len(left_out)} published row{'s' if len(left_out) > 1 else ''} left out{span}; "
                               "--all shows every row")
            left_out.clear()
    for k, (_, order, _, rank, cells) in enumerate(merged):
        if k not in keep:
            left_out.append(rank)
            continue
        gap()
        lines = cells if order else [cells]
        for n, line in enumerate(lines):
            body.append([rank if n == 0 else "", *line])
            is_ours.append(bool(order))
    gap()
    return ["rank", *header], body, is_ours, gaps
