"""The SemEval-2014 Task 3 GST baseline: Greedy String Tiling coverage of the first (larger) item."""
from __future__ import annotations

from features.gst import gst_similarity_many

from .string_baseline import StringBaseline


class GSTBaseline(StringBaseline):
    """Case-insensitive character tiles of at least ``min_match`` (the task: 6); ``symmetric`` for 2·cov/(|a|+|b|).

    word2sense: the word is looked up with WordNet's morphy, and a word not in WordNet scores 0.
    """

    morphological_lookup = True

    def __init__(self, min_match: int = 6, symmetric: bool = False):
        self.min_match = min_match
        self.symmetric = symmetric

    def similarity_many(self, pairs):
        return gst_similarity_many(pairs, self.min_match, self.symmetric)
