"""WordNet-augmented word overlap and aligned word similarity (TakeLab, Mihalcea et al. 2006).

Each content lemma of one text is matched to its most similar lemma of the other by WordNet
path similarity; the best matches are averaged, plain and weighted by information content.
"""
from __future__ import annotations

import math
from functools import lru_cache

from semsts.corpora.wordnet import word_similarity

from .base import SHARED_CELLS, SHARED_PAIRS, PairFeatures, ratio
from .weighted import information_content


def similarity_table(left, right) -> tuple[tuple[float, ...], ...]:
    """WordNet similarity of every lemma of ``left`` (rows) to every lemma of ``right`` (columns); a sentence
    pair's table is computed once for the families that read it (WordNet overlap, then alignment)."""
    if len(left) * len(right) > SHARED_CELLS:
        return _table(left, right)
    return _shared_table(tuple(left), tuple(right))


def _table(left, right) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(word_similarity(w, v) for v in right) for w in left)


@lru_cache(maxsize=SHARED_PAIRS)
def _shared_table(left: tuple, right: tuple) -> tuple[tuple[float, ...], ...]:
    return _table(left, right)


def best_matches(left, right) -> tuple[list[float], list[float]]:
    """Each lemma's best WordNet similarity to any lemma of the other side: ``left``'s, then ``right``'s."""
    table = similarity_table(left, right)
    return ([max(row, default=0.0) for row in table],
            [max(column) for column in zip(*table)] if left else [0.0] * len(right))


def harmonic(x: float, y: float) -> float:
    return ratio(2 * x * y, x + y)


class WordNetOverlap(PairFeatures):
    """Best-match similarity both ways and their harmonic mean, plain and IC-weighted, plus the
    share of lemmas with a synonym (similarity 1) on the other side.
    """

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    def _names(self):
        return ["augmented_ab", "augmented_ba", "augmented_harmonic",
                "ic_aligned_ab", "ic_aligned_ba", "ic_aligned_harmonic", "synonym_share"]

    def _row(self, a, b):
        la, lb = sorted(set(a.content)), sorted(set(b.content))
        if not la and not lb:
            return [1.0] * 7
        ma, mb = best_matches(la, lb)
        ab, ba = ratio(math.fsum(ma), len(la)), ratio(math.fsum(mb), len(lb))
        wa = [information_content(w) for w in la]
        wb = [information_content(w) for w in lb]
        iab = ratio(math.fsum(m * w for m, w in zip(ma, wa)), math.fsum(wa))
        iba = ratio(math.fsum(m * w for m, w in zip(mb, wb)), math.fsum(wb))
        synonyms = sum(m == 1.0 for m in ma) + sum(m == 1.0 for m in mb)
        return [ab, ba, harmonic(ab, ba), iab, iba, harmonic(iab, iba), ratio(synonyms, len(la) + len(lb))]
