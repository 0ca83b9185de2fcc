"""A pair scorer's score as one more feature of the regression (``sts train --scorer SPEC``).

``scorer`` is a spec ``package.module:function`` or a callable ``score(list[tuple[str, str]]) -> list[float]`` (see
:mod:`semsts.features.scorers`); the regression's scaling takes its scale as it comes (up to :data:`MAX_SCORE`). A spec's scores are read from
and kept in the per-user pair-score cache, per pair, when the scorer declares its version (``cache``, a str, or its
``cache_version``: :mod:`semsts.features.pair_score_cache`). A saved
model keeps the spec, never the function: it is imported again only when the user names it again.
"""
from __future__ import annotations

import numpy as np

from semsts.core.errors import InvalidValue

from .base import PairFeatures
from .errors import NonFiniteScore
from .pair_score_cache import cached_scores
from .scorers import resolve_scorer, scorer_name

MAX_SCORE = 1e150  # a feature's largest size: the regression's scaling sums squares, which overflow past ~1e154


class ScorerFeatures(PairFeatures):
    """The scorer's score of the pair, each distinct pair scored once (``batch_size``: pairs per call, else the
    scorer's own ``batch_size`` or :data:`semsts.features.scorers.BATCH_SIZE`)."""

    def __init__(self, scorer=None, *, batch_size=None, cache: bool | str = True):
        self.scorer = scorer
        self.batch_size = batch_size
        self.cache = cache

    def _names(self):
        return ["score"]

    def fit(self, X, y=None):
        if self.scorer is None:
            raise InvalidValue("ScorerFeatures needs a scorer: scorer=callable or a spec package.module:function")
        resolve_scorer(self.scorer)  # a spec that cannot be imported is said now, before any featurizing
        return self

    def transform(self, X) -> np.ndarray:
        pairs = [tuple(p) for p in X]
        if not pairs:
            return np.zeros((0, 1))
        distinct = list(dict.fromkeys(pairs))
        spec = self.scorer if self.cache and isinstance(self.scorer, str) else None
        scores = np.asarray(cached_scores(resolve_scorer(self.scorer), distinct, self.batch_size, spec=spec,
                                          version=self.cache))
        big = np.flatnonzero(np.abs(scores) > MAX_SCORE)
        if len(big):
            raise NonFiniteScore(scorer_name(resolve_scorer(self.scorer)), distinct[big[0]], f"{scores[big[0]]:g}, "
                                 f"beyond ±{MAX_SCORE:g} (the regression scales a feature by its squares),")
        row = {p: i for i, p in enumerate(distinct)}
        return scores[[row[p] for p in pairs]].reshape(-1, 1)
