"""Sentence similarity in the WordNet-gloss LSA space (:mod:`semsts.features.gloss_space`).

The cosine of the IC-weighted sums of the content lemmas' vectors, and a best-match alignment:
each lemma's highest cosine to a lemma of the other side (1 for the same lemma), averaged.
"""
from __future__ import annotations

import numpy as np

from .base import PairFeatures
from .batched import Sides, Tables, cosines, same_words, split_empty_sides
from .blas_free import products
from .gloss_space import gloss_space
from .similarity import ratio
from .weighted import information_content
from .wordnet_features import harmonic


def gloss_vectors(words) -> np.ndarray:
    """The gloss-space vectors of ``words`` as float32 rows (exactly the space's float16), zeros for unknown words."""
    index, vectors = gloss_space()
    rows = np.asarray([index.get(w, -1) for w in words], dtype=np.int64)
    out = np.asarray(vectors[rows], dtype=np.float32).reshape(len(rows), vectors.shape[1])
    out[rows < 0] = 0.0
    return out


def gloss_cells(tables: Tables) -> np.ndarray:
    """Cosines between the lemmas of each pair of ``tables``, flat (see :class:`semsts.features.batched.Tables`): 1 for
    the same lemma, 0 for a lemma the space does not know, negative cosines cut to 0."""
    cells = np.clip(tables.dots(gloss_vectors(tables.a.words), gloss_vectors(tables.b.words)), 0.0, 1.0)
    cells[same_words(tables)] = 1.0
    return cells


class GlossSimilarity(PairFeatures):
    """Weighted-sum cosine, best-match alignment both ways (plain and IC-weighted) and their harmonic means."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    def _names(self):
        return ["sum_cosine", "aligned_ab", "aligned_ba", "aligned_harmonic", "ic_aligned_harmonic", "known_share"]

    def transform(self, X):
        sides = [(sorted(set(a.content)), sorted(set(b.content))) for a, b in self.analyses(X)]
        return split_empty_sides(sides, len(self._names()), _one_sided, _gloss_rows)

def _one_sided(la, lb) -> list:
    """The row of a pair with an empty side: every measure 1 for two empty sides, else 0."""
    return [float(la == lb)] * 5 + [1.0 if la == lb else 0.0]


def _gloss_rows(sides: list) -> np.ndarray:
    """:class:`GlossSimilarity`'s rows of pairs whose two sides both have content lemmas, a chunk at once."""
    a, b = Sides.of([la for la, _ in sides]), Sides.of([lb for _, lb in sides])
    tables = Tables(a, b)
    va, vb = gloss_vectors(a.words), gloss_vectors(b.words)
    cells = np.clip(tables.dots(va, vb), 0.0, 1.0)
    cells[same_words(tables)] = 1.0
    ma, mb = tables.row_max(cells), tables.col_max(cells)
    wa = np.asarray([information_content(w) for w in a.words], dtype=np.float32)
    wb = np.asarray([information_content(w) for w in b.words], dtype=np.float32)
    sums = lambda x: x.sum(axis=1)  # noqa: E731
    width = (va.shape[1],)
    sum_a, sum_b = a.reduced(products(wa[:, None], va), sums, width), b.reduced(products(wb[:, None], vb), sums, width)
    mean_ma, mean_mb = a.reduced(ma, lambda x: x.mean(axis=1)), b.reduced(mb, lambda x: x.mean(axis=1))
    dot_a, dot_b = a.reduced(products(ma, wa), sums), b.reduced(products(mb, wb), sums)
    ic_a, ic_b = a.reduced(wa, sums), b.reduced(wb, sums)  # float32 sums, as the reference's
    index = gloss_space()[0]
    sums_cosine = cosines(sum_a, sum_b)
    rows = []
    for k, (la, lb) in enumerate(sides):
        ab, ba = float(mean_ma[k]), float(mean_mb[k])
        ica, icb = ratio(float(dot_a[k]), float(ic_a[k])), ratio(float(dot_b[k]), float(ic_b[k]))
        known = sum(w in index for w in la + lb)
        rows.append([sums_cosine[k], ab, ba, harmonic(ab, ba), harmonic(ica, icb), known / (len(la) + len(lb))])
    return np.asarray(rows, dtype=float)
