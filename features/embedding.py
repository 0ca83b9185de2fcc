"""Sentence similarity in GloVe word-vector space (:mod:`semsts.corpora.word_vectors`): corpus-scale
distributional knowledge, standing in for the LSA over newswire and Wikipedia that TakeLab used.

On all words and on content lemmas: the cosine of mean vectors, the cosine of SIF-weighted sums
(Arora et al. 2017, ``a / (a + p(w))`` with ``wordfreq`` frequencies), best-match alignment both
ways (plain and IC-weighted harmonic means) and the IC mass of the words left unaligned.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from semsts.corpora.word_vectors import unit_vectors

from .base import PairFeatures
from .batched import Sides, Tables, cosines, same_words, split_empty_sides
from .blas_free import products
from .similarity import MATCHED, ratio
from .weighted import information_content, word_frequency
from .wordnet_features import harmonic

SIF_A = 1e-3


@lru_cache(maxsize=1 << 17)  # per word, bounded
def sif_weight(word: str) -> float:
    return SIF_A / (SIF_A + word_frequency(word, "en"))


class EmbeddingSimilarity(PairFeatures):
    """Five measures on words and five on content lemmas (see the module docstring)."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    LEVELS = ("words", "content")
    MEASURES = ("mean_cosine", "sif_cosine", "aligned_harmonic", "ic_aligned_harmonic", "log_unaligned_ic")

    def _names(self):
        return [f"{level}_{m}" for level in self.LEVELS for m in self.MEASURES]

    def transform(self, X):
        analyses = self.analyses(X)
        out = np.empty((len(analyses), len(self._names())))
        for k, level in enumerate(self.LEVELS):
            sides = [(list(getattr(a, level)), list(getattr(b, level))) for a, b in analyses]
            out[:, 5 * k:5 * k + 5] = split_empty_sides(sides, 5, _one_sided, _level_rows)
        return out

LONG_SIDES = 64  # tables of this many cells a word or more (sides of over ~128 words) are tried on distinct words
REPEATS = 2  # ... and aligned on them when that makes them this many times smaller


def best_matches(a: Sides, b: Sides, va: np.ndarray, vb: np.ndarray, distinct: bool = True) -> tuple:
    """Each word's best cosine (cut to [0, 1], 1 for the same word) to a word of the other side of its pair, side
    a's then side b's. Long sides repeat their words: their tables are those of each pair's distinct words, whose
    rows and columns give the same best values (a maximum over the same cells), in work per distinct word pair."""
    if distinct and int((a.lengths * b.lengths).sum()) >= LONG_SIDES * (len(a.words) + len(b.words)):
        (da, firsts_a, places_a), (db, firsts_b, places_b) = a.distinct(), b.distinct()
        if REPEATS * int((da.lengths * db.lengths).sum()) <= int((a.lengths * b.lengths).sum()):
            ma, mb = best_matches(da, db, va[firsts_a], vb[firsts_b], distinct=False)
            return ma[places_a], mb[places_b]
    tables = Tables(a, b)
    cells = np.clip(tables.dots(va, vb), 0.0, 1.0)
    cells[same_words(tables)] = 1.0
    return tables.row_max(cells), tables.col_max(cells)


def _one_sided(la, lb) -> list:
    """The five measures of a pair with an empty side: nothing aligned, the words' IC mass left unaligned."""
    same = float(la == lb)
    return [same] * 4 + [math.log1p(math.fsum(map(information_content, la + lb)))]


def _level_rows(sides: list) -> np.ndarray:
    """The five measures of each pair ``(words of a, words of b)``, both sides with words:
     a chunk at once."""
    rows = np.empty((len(sides), 5))
    a, b = Sides.of([la for la, _ in sides]), Sides.of([lb for _, lb in sides])
    va, vb = unit_vectors(a.words), unit_vectors(b.words)
    sif_a = np.asarray([sif_weight(w) for w in a.words])
    sif_b = np.asarray([sif_weight(w) for w in b.words])
    wa = np.asarray([information_content(w) for w in a.words])
    wb = np.asarray([information_content(w) for w in b.words])
    width = (va.shape[1],)
    mean_a, mean_b = (s.reduced(v, lambda x: x.mean(axis=1), width) for s, v in ((a, va), (b, vb)))
    sum_a, sum_b = (s.reduced(products(w[:, None], v), lambda x: x.sum(axis=1), width)
                    for s, w, v in ((a, sif_a, va), (b, sif_b, vb)))
    ma, mb = best_matches(a, b, va, vb)
    mean_ma, mean_mb = a.reduced(ma, lambda x: x.mean(axis=1)), b.reduced(mb, lambda x: x.mean(axis=1))
    dot_a, dot_b = a.reduced(products(ma, wa), lambda x: x.sum(axis=1)), b.reduced(products(mb, wb), lambda x: x.sum(axis=1))
    ic_a, ic_b = a.reduced(wa, lambda x: x.sum(axis=1)), b.reduced(wb, lambda x: x.sum(axis=1))
    left_a, left_b = a.masked_sums(wa, ma < MATCHED), b.masked_sums(wb, mb < MATCHED)
    means = cosines(mean_a, mean_b)
    sifs = cosines(sum_a, sum_b)
    for k in range(len(sides)):
        rows[k] = [means[k], sifs[k], harmonic(float(mean_ma[k]), float(mean_mb[k])),
                   harmonic(ratio(float(dot_a[k]), float(ic_a[k])), ratio(float(dot_b[k]), float(ic_b[k]))),
                   math.log1p(float(left_a[k] + left_b[k]))]
    return rows

