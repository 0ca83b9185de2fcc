"""Sentence similarity in the WordNet-gloss LSA space (:mod:`semsts.features.gloss_space`).

The cosine of the IC-weighted sums of the content lemmas' vectors, and a best-match alignment:
each lemma's highest cosine to a lemma of the other side (1 for the same lemma), averaged.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .base import SHARED_CELLS, SHARED_PAIRS, PairFeatures, clipped_cosines, weighted_mean
from .batched import Tables, same_words
from .exact import cosine, weighted_sum
from .gloss_space import gloss_space
from .weighted import information_content
from .wordnet_features import harmonic


def similarity_matrix(la, lb) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cosines between the lemmas of ``la`` (rows) and ``lb`` (columns): 1 for the same lemma, 0
    for a lemma the space does not know, negative cosines cut to 0; and the two sides' vectors (read-only:
    a sentence pair's are computed once for the families that read them, gloss then alignment)."""
    if len(la) * len(lb) > SHARED_CELLS:
        return _matrix(la, lb)
    return _shared_matrix(tuple(la), tuple(lb))


@lru_cache(maxsize=SHARED_PAIRS)
def _shared_matrix(la: tuple, lb: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return _matrix(la, lb)


def gloss_vectors(words) -> np.ndarray:
    """The gloss-space vectors of ``words`` as float32 rows (exactly the space's float16), zeros for unknown words."""
    index, vectors = gloss_space()
    rows = np.asarray([index.get(w, -1) for w in words], dtype=np.int64)
    out = np.asarray(vectors[rows], dtype=np.float32).reshape(len(rows), vectors.shape[1])
    out[rows < 0] = 0.0
    return out


def gloss_cells(tables: Tables) -> np.ndarray:
    """The cells of :func:`similarity_matrix` of every pair of ``tables``, flat (see :class:`semsts.features.batched.Tables`)."""
    cells = np.clip(tables.dots(gloss_vectors(tables.a.words), gloss_vectors(tables.b.words)), 0.0, 1.0)
    cells[same_words(tables)] = 1.0
    return cells


def _matrix(la, lb) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    index, vectors = gloss_space()
    va = np.stack([vectors[index[w]] if w in index else np.zeros(vectors.shape[1], np.float32) for w in la])
    vb = np.stack([vectors[index[w]] if w in index else np.zeros(vectors.shape[1], np.float32) for w in lb])
    out = clipped_cosines(la, lb, va, vb), va, vb
    for array in out:
        array.setflags(write=False)
    return out


class GlossSimilarity(PairFeatures):
    """Weighted-sum cosine, best-match alignment both ways (plain and IC-weighted) and their harmonic means."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    def _names(self):
        return ["sum_cosine", "aligned_ab", "aligned_ba", "aligned_harmonic", "ic_aligned_harmonic", "known_share"]

    def _row(self, a, b):
        la, lb = sorted(set(a.content)), sorted(set(b.content))
        if not la or not lb:
            return [float(la == lb)] * 5 + [1.0 if la == lb else 0.0]
        sims, va, vb = similarity_matrix(la, lb)
        wa = np.asarray([information_content(w) for w in la], dtype=np.float32)
        wb = np.asarray([information_content(w) for w in lb], dtype=np.float32)
        ma, mb = sims.max(axis=1), sims.max(axis=0)
        ab, ba = float(ma.mean()), float(mb.mean())
        ica, icb = weighted_mean(ma, wa), weighted_mean(mb, wb)
        known = sum(w in gloss_space()[0] for w in la + lb)
        return [cosine(weighted_sum(wa, va), weighted_sum(wb, vb)), ab, ba, harmonic(ab, ba), harmonic(ica, icb), known / (len(la) + len(lb))]
