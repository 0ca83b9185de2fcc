"""Pair scorers as systems: a pair scores what the user's ``score(list[tuple[str, str]]) -> list[float]`` gives it.

``scorer`` is a callable or a spec ``package.module:function`` naming one (:mod:`semsts.features.scorers`). Each
distinct pair is scored once, ``batch_size`` pairs a call; with a spec and a declared version (``cache``, a str, or
the scorer's ``cache_version``), the scores are kept in the per-user cache (:mod:`semsts.features.pair_score_cache`,
per pair). A scorer's scale is its own. The runner maps a system's scores onto the task's range linearly from the
range they live in: here ``score_range_``, learned at ``fit``: the scorer's declared ``score_range`` when it has one
(a score outside it is an error, never clipped), else the lowest and highest score it gave the pairs ``fit`` saw,
which are the pairs ``sts run`` and ``sts bench`` then predict (one affine map, fitted without gold: no Pearson nor
Spearman, pooled or not, sees it), and its scores are written with every digit (one outlier setting the range,
said in a note, leaves the others their order). A scorer giving every pair one score has them all at the range's
middle.
"""
from __future__ import annotations

import warnings

import numpy as np

from semsts.core.errors import InvalidValue, Note
from semsts.features.errors import NonFiniteScore
from semsts.features.pair_score_cache import cached_scores
from semsts.features.scorers import declared_range, resolve_scorer, scorer_name

from .base import BOOLEAN, CALLABLE, NONE, PairError, PairRegressor, either, instance_of, int_from


def pair_scores(score, pairs, batch_size=None, *, cache_spec=None, cache_version=None) -> np.ndarray:
    """The scorer's score of each pair, every distinct pair scored once (with ``cache_spec``, the spec naming
    ``score``, read from and kept in the per-user cache, per pair, when the scorer declares its version,
    ``cache_version`` or its own). A NaN, a non-number or a score outside the range
    the scorer declares is a PairError at the first pair holding it (the runner reports the input file's line)."""
    distinct = list(dict.fromkeys(tuple(p) for p in pairs))
    try:
        values = np.asarray(cached_scores(score, distinct, batch_size, spec=cache_spec, version=cache_version), dtype=float)
    except NonFiniteScore as exc:
        index = next(i for i, pair in enumerate(pairs) if tuple(pair) == exc.pair)
        raise PairError(index, str(exc)) from None
    row = {p: i for i, p in enumerate(distinct)}
    return values[[row[tuple(p)] for p in pairs]] if pairs else np.zeros(0)


OUTLIER = 1000  # a score setting the range of the others this many times over is said in a note


def note_outlier(score, pairs, scores) -> None:
    """A note naming the pair whose score alone sets the range the others are mapped from (the highest or the lowest,
    :data:`OUTLIER` times as far from the others as they spread): its scale leaves them a sliver of the task's range,
    written with every digit (:func:`semsts.baselines.run.write_outputs`) so that their order and correlations stay."""
    if len(scores) < 3:
        return
    order = np.argsort(scores, kind="stable")
    low, second, next_high, high = (float(v) for v in scores[order[[0, 1, -2, -1]]])
    for alone, others in ((order[-1], (low, next_high)), (order[0], (second, high))):
        if high - low > OUTLIER * (others[1] - others[0]):
            a, b = pairs[alone]
            warnings.warn(Note(f"scorer {scorer_name(score)} gave the pair ({a!r:.60}, {b!r:.60}) {scores[alone]:g}, "
                               f"far beyond its other scores (within [{others[0]:g}, {others[1]:g}]): they are mapped "
                               f"onto the task's range from [{low:g}, {high:g}] and written with every digit, "
                               "which keeps their order"), stacklevel=2)
            return


class PairScorer(PairRegressor):
    """The user's pair scorer ``scorer`` as a system; ``fit`` learns the range its scores live in (``score_range_``)."""

    param_rules = {"scorer": either(CALLABLE, instance_of(str), NONE), "batch_size": either(int_from(1), NONE),
                   "cache": either(BOOLEAN, instance_of(str))}

    def __init__(self, scorer=None, *, batch_size=None, cache: bool | str = True):
        self.scorer = scorer
        self.batch_size = batch_size
        self.cache = cache

    def _fit(self, pairs, y) -> None:
        if self.scorer is None:
            raise InvalidValue("PairScorer needs a scorer: scorer=callable or a spec package.module:function")
        self.scorer_ = resolve_scorer(self.scorer)
        declared = declared_range(self.scorer_)
        self.declared_ = declared is not None
        scores = self._scores(pairs)  # each distinct pair once, in one call: what sts run and sts bench then predict
        self._seen = dict(zip((tuple(p) for p in pairs), scores.tolist()))  # predicting them scores nothing again
        if declared is not None:
            self.score_range_ = declared
            return
        lo, hi = (float(scores.min()), float(scores.max())) if len(scores) else (0.0, 1.0)
        pad = max(1.0, 2 * float(np.spacing(abs(lo))))  # one score for all: the middle of a range about it (1e17 + 1
        self.score_range_ = (lo, hi) if lo < hi else (lo - pad, lo + pad)  # is 1e17: a pad of 1 would leave no range)
        note_outlier(self.scorer_, pairs, scores)

    def _scores(self, pairs) -> np.ndarray:
        return pair_scores(self.scorer_, pairs, self.batch_size, cache_spec=self.scorer if self.cache else None,
                           cache_version=self.cache)

    def _predict(self, pairs):
        seen = getattr(self, "_seen", {})
        todo = [p for p in dict.fromkeys(pairs) if p not in seen]
        fresh = dict(zip(todo, self._scores(todo).tolist())) if todo else {}
        return np.array([seen[p] if p in seen else fresh[p] for p in pairs], dtype=float)

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_seen", None)  # a cache of this process's work, not what the system learned
        return state
