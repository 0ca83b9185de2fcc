"""The official STS 2012/2013 baseline: cosine of binary whitespace-token vectors."""
from __future__ import annotations

import math
import re

import numpy as np

from semsts.core.stats import checked_range

from .base import PairRegressor, instance_of, rescale

_WHITESPACE = re.compile(r"\s+")


def not_2017_baseline(system: str, subsets) -> str:
    """The note ``sts run`` and ``sts bench`` give when token-cosine scores SemEval-2017 tracks (``subsets``: their
    names), empty otherwise: its figures there are not the 2017 paper's baseline row."""
    from semsts.corpora.kinds import STS2017_TRACKS
    if system != "token-cosine" or not any(name in STS2017_TRACKS for name in subsets):
        return ""
    return ("token-cosine on SemEval-2017 tracks is not the 2017 paper's baseline: that baseline's tokenisation is "
            "not confirmed, and on the cross-lingual tracks it compared machine translations into English, which "
            "cannot run here (docs/systems.md); its figures are not the paper's")


def whitespace_tokens(text: str) -> list[str]:
    """Split at runs of white space as the organizers' Perl ``split /\\s+/`` did.

    Like Perl, a leading space yields an empty first token and trailing empties are dropped;
    this is what reproduces the published surprise.OnWN figure (.5864, not .5868).
    """
    tokens = _WHITESPACE.split(text)
    while tokens and tokens[-1] == "":
        tokens.pop()
    return tokens


def token_cosine(a: str, b: str) -> float:
    """Split at white space, 1 per distinct token, cosine of the two vectors (0 if either is empty)."""
    ta, tb = set(whitespace_tokens(a)), set(whitespace_tokens(b))
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / math.sqrt(len(ta) * len(tb))


def token_cosine_many(pairs) -> np.ndarray:
    """Batched :func:`token_cosine` over ``(a, b)`` pairs."""
    return np.fromiter((token_cosine(a, b) for a, b in pairs), dtype=float, count=len(pairs))


class TokenCosine(PairRegressor):
    """Token cosine put on ``score_range``, the range its scores live in (cosine × 5 on (0, 5)); learns nothing."""

    param_rules = {"score_range": instance_of(tuple, list)}

    def __init__(self, score_range=(0.0, 5.0)):
        self.score_range = score_range

    def _fit(self, pairs, y) -> None:
        checked_range(self.score_range)  # a bad range is refused at fit, not at the first predict

    def _predict(self, pairs):
        return rescale(token_cosine_many(pairs), (0.0, 1.0), checked_range(self.score_range))
