"""Length and length-difference features: long pairs and lopsided pairs score differently."""
from __future__ import annotations

import math

from .base import PairFeatures
from .similarity import ratio


class Lengths(PairFeatures):
    """Token and content-word counts of both sides (sorted), their differences and ratios."""

    def _names(self):
        return ["log_words_min", "log_words_max", "words_absdiff_rel", "content_ratio",
                "chars_ratio", "log_content_absdiff"]

    def _row(self, a, b):
        wa, wb = sorted((len(a.words), len(b.words)))
        ca, cb = len(a.content), len(b.content)
        la, lb = sorted((len(a.text), len(b.text)))
        return [math.log1p(wa), math.log1p(wb), ratio(wb - wa, wb),
                ratio(min(ca, cb), max(ca, cb)) if ca or cb else 1.0,
                ratio(la, lb) if lb else 1.0, math.log1p(abs(ca - cb))]
