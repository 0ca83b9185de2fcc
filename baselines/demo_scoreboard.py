"""The demo scoreboard: every registered system fitted on the shipped demo data and scored on demo-test.

The correlations come from the caller (``sts demo`` passes the scorer's), so this package never imports the scorer.
"""
from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

from semsts import corpora
from semsts.core.errors import InvalidValue, Unavailable

from .registry import make_system, system_names
from .run import predict_subsets, training_pairs
from .typed2013 import is_typed


class DemoRow(NamedTuple):
    """One line of the demo scoreboard; ``error`` says why a system could not be scored."""

    system: str
    pearson: float = math.nan
    spearman: float = math.nan
    n: int = 0
    error: str = ""


def demo_systems() -> list[str]:
    """The registered systems ``sts demo`` runs: all but the TYPED ones, which score record pairs."""
    return [n for n in system_names() if not is_typed(make_system(n))]


def demo_scoreboard(systems=None, *, scorer: Callable, progress: Callable | None = None) -> list[DemoRow]:
    """Fit each system on demo-train, score it on demo-test; best Pearson first.

    ``scorer(system, gold)`` gives ``(pearson, spearman)``; ``progress`` wraps the iterable of system
    names (the CLI passes a tqdm bar). A system that fails to fit or predict (e.g. a resource it
    needs is absent) gets a row with the reason.
    """
    train, test = corpora.load("demo-train"), corpora.load("demo-test")
    pairs, gold = training_pairs([train])
    (sub,) = test.subsets
    scored = ~np.isnan(sub.gold)
    names = list(systems or demo_systems())
    rows = []
    for name in progress(names) if progress else names:
        try:
            scores, _ = predict_subsets(make_system(name).fit(pairs, gold), [sub])[id(sub)]
        except Exception as exc:  # any failure of one system is reported, not fatal
            rows.append(DemoRow(name, error=f"{_error_name(exc)}: {exc}"))
            continue
        rows.append(DemoRow(name, *scorer(scores[scored], sub.gold[scored]), int(scored.sum())))
    return sorted(rows, key=lambda r: (bool(r.error), -r.pearson if math.isfinite(r.pearson) else math.inf, r.system))


def _error_name(exc) -> str:
    """The name a failed row gives its error: the builtin's for the library's generic :class:`InvalidValue` and
    :class:`Unavailable` (the ValueError and RuntimeError it raised before they existed), else the class's own."""
    for generic, builtin in ((InvalidValue, ValueError), (Unavailable, RuntimeError)):
        if type(exc) is generic:
            return builtin.__name__
    return type(exc).__name__
