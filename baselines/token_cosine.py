"""The official STS 2012/2013 baseline: cosine of binary whitespace-token vectors."""
from __future__ import annotations

import math
import re
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .base import PairRegressor

_WHITESPACE = re.compile(r"\s+")


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
    """Token cosine scaled onto the task's range (cosine × 5 for STS); learns nothing."""

    _parameter_constraints = {"scale": [Interval(Real, 0, None, closed="neither")]}

    def __init__(self, scale: float = 5.0):
        self.scale = scale

    def _predict(self, pairs):
        return token_cosine_many(pairs) * self.scale
