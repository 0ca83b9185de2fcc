"""Common-substring features (DKPro): longest common substring and subsequence, Greedy String Tiling.

Reuses the CLSS string functions (:mod:`semsts.features.strings.lcs`, :mod:`semsts.features.strings.gst`); GST uses min match 3
like DKPro, on characters and, with min match 2, on lemma sequences.
"""
from __future__ import annotations

import numpy as np
from rapidfuzz import distance, process

from .base import PairFeatures
from .edit import as_symbols
from .strings.gst import gst_similarity_many, gst_similarity_ways
from .strings.lcs import lcs_similarity_many


class CommonSubstrings(PairFeatures):
    """LCS substring and subsequence over the mean length, GST coverage both ways and symmetric."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    def _names(self):
        return ["lcs_substring", "lcs_subsequence", "gst3_ab", "gst3_ba", "gst3_symmetric",
                "word_gst2_symmetric"]

    def transform(self, X):
        if not len(X):
            return np.zeros((0, len(self._names())))
        analyses = self.analyses(X)
        chars = [(" ".join(a.words), " ".join(b.words)) for a, b in analyses]
        words = [as_symbols(a.lemmas, b.lemmas) for a, b in analyses]
        subsequence = process.cpdist([a for a, _ in chars], [b for _, b in chars],
                                     scorer=distance.LCSseq.normalized_similarity, dtype=np.float64)
        return np.column_stack([
            lcs_similarity_many(chars), np.asarray(subsequence, dtype=float),
            gst_similarity_ways(chars, 3), gst_similarity_many(words, 2, symmetric=True)])
