"""The official SemEval-2014 Task 3 baseline: longest common substring over the mean length."""
from __future__ import annotations

from features.lcs import lcs_similarity_many

from .string_baseline import StringBaseline


class LCSBaseline(StringBaseline):
    """Case-sensitive character LCS normalized by the mean of the two lengths (Clough and Stevenson 2011).

    word2sense: the word's senses are those whose lemma is the word in any case; a word not in
    WordNet scores 0.09 (0.36 on the task's 0-4), a reconstruction fitted to Table 5 (README).
    """

    unknown_word_score = 0.09

    def similarity_many(self, pairs):
        return lcs_similarity_many(pairs)
