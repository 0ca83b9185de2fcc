"""Shared estimator of the string baselines: a [0, 1] similarity per pair, WordNet glosses for word2sense."""
from __future__ import annotations

import numpy as np

from .base import PairRegressor, check_pairs
from .word2sense import is_word2sense, word2sense_confidence, word2sense_scores


class StringBaseline(PairRegressor):
    """Unsupervised; the runner maps the [0, 1] scores onto the task range (Pearson does not change).

    Subclasses give ``similarity_many(pairs)``. Word2sense input (``lemma#pos``, sense key) is
    scored on WordNet glosses and carries a confidence; the two class attributes below say how
    the word is looked up and what a word not in WordNet scores (see :mod:`baselines.word2sense`).
    """

    score_range = (0.0, 1.0)
    morphological_lookup = False
    unknown_word_mean = True

    def similarity_many(self, pairs) -> np.ndarray:
        raise NotImplementedError

    def _predict(self, pairs):
        if is_word2sense(pairs):
            return word2sense_scores(pairs, self.similarity_many, self.morphological_lookup, self.unknown_word_mean)
        return self.similarity_many(pairs)

    def predict_confidence(self, X):
        """Confidence in [0, 100] per pair for word2sense input, None for text pairs."""
        pairs = check_pairs(X)
        return word2sense_confidence(pairs, self.morphological_lookup) if is_word2sense(pairs) else None
