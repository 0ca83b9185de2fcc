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
from wordfreq import word_frequency

from semsts.corpora.word_vectors import unit_vectors

from .base import MATCHED, PairFeatures, clipped_cosines, weighted_mean
from .exact import cosine, weighted_sum
from .weighted import information_content
from .wordnet_features import harmonic

SIF_A = 1e-3


@lru_cache(maxsize=1 << 17)  # per word, bounded
def sif_weight(word: str) -> float:
    return SIF_A / (SIF_A + word_frequency(word, "en"))


def aligned_cosines(la: list, lb: list) -> np.ndarray:
    """GloVe cosines between the words of ``la`` (rows) and ``lb`` (columns): 1 for the same word,
    negatives cut to 0, 0 for a word GloVe does not know."""
    return clipped_cosines(la, lb, unit_vectors(la), unit_vectors(lb))


class EmbeddingSimilarity(PairFeatures):
    """Five measures on words and five on content lemmas (see the module docstring)."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    LEVELS = ("words", "content")
    MEASURES = ("mean_cosine", "sif_cosine", "aligned_harmonic", "ic_aligned_harmonic", "log_unaligned_ic")

    def _names(self):
        return [f"{level}_{m}" for level in self.LEVELS for m in self.MEASURES]

    def _row(self, a, b):
        row = []
        for level in self.LEVELS:
            la, lb = list(getattr(a, level)), list(getattr(b, level))
            if not la or not lb:
                same = float(la == lb)
                row += [same] * 4 + [math.log1p(math.fsum(map(information_content, la + lb)))]
                continue
            va, vb = unit_vectors(la), unit_vectors(lb)
            sa = weighted_sum([sif_weight(w) for w in la], va)
            sb = weighted_sum([sif_weight(w) for w in lb], vb)
            sims = clipped_cosines(la, lb, va, vb)
            ma, mb = sims.max(axis=1), sims.max(axis=0)
            wa = np.asarray([information_content(w) for w in la])
            wb = np.asarray([information_content(w) for w in lb])
            row += [cosine(va.mean(axis=0), vb.mean(axis=0)), cosine(sa, sb),
                    harmonic(float(ma.mean()), float(mb.mean())),
                    harmonic(weighted_mean(ma, wa), weighted_mean(mb, wb)),
                    math.log1p(float(wa[ma < MATCHED].sum() + wb[mb < MATCHED].sum()))]
        return row
