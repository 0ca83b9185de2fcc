"""The official SemEval-2014 Task 3 baseline: longest common substring over the mean length."""
from __future__ import annotations

from features.lcs import lcs_similarity_many

from .string_baseline import StringBaseline


class LCSBaseline(StringBaseline):
    """Case-sensitive character LCS normalized by the mean of the two lengths (Clough and Stevenson 2011)."""

    def similarity_many(self, pairs):
        return lcs_similarity_many(pairs)
