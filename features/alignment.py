"""Word alignment by the best of WordNet path similarity, gloss-space cosine and GloVe cosine, and
what it leaves unmatched: the information content of the words with no counterpart on the other
side, and the worst-aligned words (one unmatched name or verb can make two near-copies unrelated).
"""
from __future__ import annotations

import math

import numpy as np

from semsts.corpora.word_vectors import unit_vectors

from .base import PairFeatures
from .batched import Sides, Tables, same_words, split_empty_sides
from .blas_free import products
from .gloss_features import gloss_cells
from .similarity import MATCHED, ratio
from .weighted import information_content
from .wordnet_features import harmonic, similarity_table


class Alignment(PairFeatures):
    """Aligned similarity both ways (harmonic, IC-weighted), the unmatched words' IC mass (log, the
    smaller and the larger side), the share of words and of IC that found a match, and the worst
    alignments: each side's lowest best-match and mean of its two lowest, and its largest
    ``ic * (1 - best match)`` (the smaller and the larger side each), and how many words are unmatched."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)

    def _names(self):
        return ["aligned_harmonic", "ic_aligned_harmonic", "log_unmatched_ic_min", "log_unmatched_ic_max",
                "matched_share", "matched_ic_share", "worst_min", "worst_max", "two_worst_min",
                "two_worst_max", "worst_ic_gap_min", "worst_ic_gap_max", "unmatched_count"]

    def transform(self, X):
        sides = [(sorted(set(a.content)), sorted(set(b.content))) for a, b in self.analyses(X)]
        return split_empty_sides(sides, len(self._names()), self._unmatched_side, _aligned_rows)

    @staticmethod
    def _unmatched_side(la, lb) -> list:
        same = float(la == lb)
        return [same, same, 0.0, math.log1p(math.fsum(map(information_content, la + lb))), same, same,
                same, same, same, same, 0.0, max(map(information_content, la + lb), default=0.0),
                float(len(la + lb))]

def _aligned_rows(sides: list) -> np.ndarray:
    """:class:`Alignment`'s rows of pairs whose two sides both have content lemmas, a chunk at once."""
    a, b = Sides.of([la for la, _ in sides]), Sides.of([lb for _, lb in sides])
    tables = Tables(a, b)
    glove = np.clip(tables.dots(unit_vectors(a.words), unit_vectors(b.words)), 0.0, 1.0)
    glove[same_words(tables)] = 1.0
    wordnet = np.concatenate([np.asarray(similarity_table(la, lb), dtype=float).ravel() for la, lb in sides])
    cells = np.maximum(np.maximum(gloss_cells(tables), wordnet), glove)
    ma, mb = tables.row_max(cells), tables.col_max(cells)
    wa = np.asarray([information_content(w) for w in a.words])
    wb = np.asarray([information_content(w) for w in b.words])
    sums = lambda x: x.sum(axis=1)  # noqa: E731
    two_worst = lambda x: np.sort(x, axis=1)[:, :2].mean(axis=1)  # noqa: E731
    mean_ma, mean_mb = a.reduced(ma, lambda x: x.mean(axis=1)), b.reduced(mb, lambda x: x.mean(axis=1))
    dot_a, dot_b = a.reduced(products(ma, wa), sums), b.reduced(products(mb, wb), sums)
    ic_a, ic_b = a.reduced(wa, sums), b.reduced(wb, sums)
    left_a, left_b = a.masked_sums(wa, ma < MATCHED), b.masked_sums(wb, mb < MATCHED)
    lost_a, lost_b = a.reduced((ma < MATCHED).astype(np.int64), sums), b.reduced((mb < MATCHED).astype(np.int64), sums)
    min_a, min_b = np.minimum.reduceat(ma, a.starts), np.minimum.reduceat(mb, b.starts)
    two_a, two_b = a.reduced(ma, two_worst), b.reduced(mb, two_worst)
    gap_a, gap_b = np.maximum.reduceat(wa * (1 - ma), a.starts), np.maximum.reduceat(wb * (1 - mb), b.starts)
    rows = []
    for k, (la, lb) in enumerate(sides):
        ua, ub = float(left_a[k]), float(left_b[k])
        unmatched = int(lost_a[k]) + int(lost_b[k])
        rows.append([harmonic(float(mean_ma[k]), float(mean_mb[k])),
                     harmonic(ratio(float(dot_a[k]), float(ic_a[k])), ratio(float(dot_b[k]), float(ic_b[k]))),
                     math.log1p(min(ua, ub)), math.log1p(max(ua, ub)),
                     1.0 - ratio(unmatched, len(la) + len(lb)),
                     1.0 - ratio(ua + ub, float(ic_a[k] + ic_b[k])),
                     *sorted((float(min_a[k]), float(min_b[k]))),
                     *sorted((float(two_a[k]), float(two_b[k]))),
                     *sorted((float(gap_a[k]), float(gap_b[k]))),
                     float(unmatched)])
    return np.asarray(rows, dtype=float)
