"""Word and character n-gram overlap: containment both ways, Jaccard and Dice (TakeLab, DKPro)."""
from __future__ import annotations

from .base import PairFeatures
from .similarity import OVERLAP_NAMES, overlap_scores

LEVELS = ("word", "lemma", "content", "char")


def word_ngrams(seq, n: int) -> set:
    return {tuple(seq[i:i + n]) for i in range(len(seq) - n + 1)}


def char_ngrams(text: str, n: int) -> set:
    return {text[i:i + n] for i in range(len(text) - n + 1)}


class NgramOverlap(PairFeatures):
    """Overlap of the n-gram sets of the two texts at one ``level``.

    ``word``, ``lemma`` and ``content`` use the lower-cased words, their lemmas, or the content
    lemmas; ``char`` uses the lower-cased text with white space squeezed.
    """

    def __init__(self, level: str = "word", ns=(1, 2, 3)):
        self.level = level
        self.ns = ns

    def _names(self):
        return [f"{self.level}{n}_{m}" for n in self.ns for m in OVERLAP_NAMES]

    def _units(self, analysis):
        if self.level == "char":
            return " ".join(analysis.words)
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {self.level!r}")
        return getattr(analysis, "words" if self.level == "word" else
                       "lemmas" if self.level == "lemma" else "content")

    def _row(self, a, b):
        ua, ub = self._units(a), self._units(b)
        grams = char_ngrams if self.level == "char" else word_ngrams
        row = []
        for n in self.ns:
            row.extend(overlap_scores(grams(ua, n), grams(ub, n)))
        return row
