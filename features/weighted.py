"""Information-content-weighted word overlap (TakeLab's "weighted word overlap").

Word frequencies come from ``wordfreq`` instead of TakeLab's Google Books counts:
``ic(w) = -ln f(w)``, with unseen words given the frequency of a very rare word.
"""
from __future__ import annotations

import math
from functools import lru_cache

from semsts.core.extras import need

from .base import PairFeatures
from .similarity import ratio

RARE = 1e-8


def word_frequency(word: str, lang: str = "en") -> float:
    """``wordfreq``'s frequency of ``word`` (imported on first use: it comes with the ``reference`` extra)."""
    return _wordfreq().word_frequency(word, lang)


@lru_cache(maxsize=1)
def _wordfreq():
    return need("wordfreq", "reference", "the reference system's and SIF's word frequencies")


@lru_cache(maxsize=1 << 17)  # per word, bounded
def information_content(word: str) -> float:
    """``-ln`` of the word's frequency in English; rare and unknown words weigh most."""
    return -math.log(max(word_frequency(word, "en"), RARE))


def weighted_containment(a: set, b: set) -> float:
    """Share of b's information content that a covers (``fsum``: exact whatever the set's order,
    which changes with each process's string hashing)."""
    return ratio(math.fsum(information_content(w) for w in a & b), math.fsum(information_content(w) for w in b))


class WeightedOverlap(PairFeatures):
    """IC-weighted containment both ways and their harmonic mean, on words and on content lemmas."""

    def _names(self):
        return [f"{level}_{m}" for level in ("word", "content") for m in ("ab", "ba", "harmonic")]

    def _row(self, a, b):
        row = []
        for sa, sb in ((set(a.words), set(b.words)), (set(a.content), set(b.content))):
            if not sa and not sb:
                row.extend([1.0, 1.0, 1.0])
                continue
            ab, ba = weighted_containment(sb, sa), weighted_containment(sa, sb)
            row.extend([ab, ba, ratio(2 * ab * ba, ab + ba)])
        return row
