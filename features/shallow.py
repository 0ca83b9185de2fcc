"""Numbers, capitalized tokens and negation: cheap cues that a paraphrase changed a fact."""
from __future__ import annotations

import math

from .base import PairFeatures
from .similarity import overlap_scores, ratio


class NumberOverlap(PairFeatures):
    """TakeLab's number features: how many numbers, their overlap, and whether one set holds the other."""

    def _names(self):
        return ["log_count", "jaccard", "subset", "both_none"]

    def _row(self, a, b):
        na, nb = a.numbers, b.numbers
        return [math.log1p(len(na) + len(nb)), overlap_scores(na, nb)[2],
                float(na <= nb or nb <= na), float(not na and not nb)]


class CapitalOverlap(PairFeatures):
    """Capitalized tokens not at sentence start, a stand-in for named entities: overlap and count."""

    def _names(self):
        return ["contain_ab", "contain_ba", "jaccard", "log_count"]

    def _row(self, a, b):
        scores = overlap_scores(a.capitalized, b.capitalized)
        return scores[:3] + [math.log1p(len(a.capitalized) + len(b.capitalized))]


class NegationOverlap(PairFeatures):
    """Negation words on each side and whether exactly one side is negated."""

    def _names(self):
        return ["mismatch", "absdiff", "any"]

    def _row(self, a, b):
        ga, gb = a.negations, b.negations
        return [float((ga > 0) != (gb > 0)), float(abs(ga - gb)), float(ga > 0 or gb > 0)]


__all__ = ["CapitalOverlap", "NegationOverlap", "NumberOverlap", "ratio"]
