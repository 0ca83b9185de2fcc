"""The CLSS 2014 string baselines (longest common substring, Greedy String Tiling) and their shared estimator.

Each scores a pair by a [0, 1] similarity of :mod:`semsts.features.strings`; word2sense items are scored on WordNet glosses.
"""
from __future__ import annotations

import numpy as np

from semsts.features.strings.gst import gst_similarity_many
from semsts.features.strings.lcs import lcs_similarity_many

from .base import BOOLEAN, PairRegressor, check_pairs, int_from
from .word2sense import is_word2sense, word2sense_confidence, word2sense_scores


class StringBaseline(PairRegressor):
    """Unsupervised; the runner maps the [0, 1] scores onto the task range (Pearson does not change).

    Subclasses give ``similarity_many(pairs)``. Word2sense input (``lemma#pos``, sense key) is
    scored on WordNet glosses and carries a confidence; the two class attributes below say how
    the word is looked up and what a word not in WordNet scores (see :mod:`semsts.baselines.word2sense`).
    """

    score_range = (0.0, 1.0)
    morphological_lookup = False
    unknown_word_score = 0.0  # a word not in WordNet: one fixed score on [0, 1]

    def similarity_many(self, pairs) -> np.ndarray:
        raise NotImplementedError

    def _predict(self, pairs):
        if is_word2sense(pairs):
            return word2sense_scores(pairs, self.similarity_many, self.morphological_lookup, self.unknown_word_score)
        return self.similarity_many(pairs)

    def predict_confidence(self, X):
        """Confidence in [0, 100] per pair for word2sense input, None for text pairs."""
        pairs = check_pairs(X)
        return word2sense_confidence(pairs, self.morphological_lookup) if is_word2sense(pairs) else None


class LCSBaseline(StringBaseline):
    """The official SemEval-2014 Task 3 baseline: case-sensitive character LCS normalized by the mean of the
    two lengths (Clough and Stevenson 2011).

    word2sense: the word's senses are those whose lemma is the word in any case; a word not in
    WordNet scores 0.09 (0.36 on the task's 0-4), a reconstruction fitted to Table 5 (README).
    """

    unknown_word_score = 0.09

    def similarity_many(self, pairs):
        return lcs_similarity_many(pairs)


class GSTBaseline(StringBaseline):
    """The Task 3 GST baseline: case-insensitive character tiles of at least ``min_match`` (the task: 6),
    coverage of the first (larger) item; ``symmetric`` for 2·cov/(|a|+|b|).

    word2sense: the word is looked up with WordNet's morphy, and a word not in WordNet scores 0.
    """

    morphological_lookup = True

    param_rules = {"min_match": int_from(1), "symmetric": BOOLEAN}

    def __init__(self, min_match: int = 6, symmetric: bool = False):
        self.min_match = min_match
        self.symmetric = symmetric

    def similarity_many(self, pairs):
        return gst_similarity_many(pairs, self.min_match, self.symmetric)
