"""Word alignment by the best of WordNet path similarity, gloss-space cosine and GloVe cosine, and
what it leaves unmatched: the information content of the words with no counterpart on the other
side, and the worst-aligned words (one unmatched name or verb can make two near-copies unrelated).
"""
from __future__ import annotations

import math

import numpy as np

from .base import MATCHED, PairFeatures, ratio, weighted_mean
from .embedding import aligned_cosines
from .gloss_features import similarity_matrix
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

    def _row(self, a, b):
        la, lb = sorted(set(a.content)), sorted(set(b.content))
        if not la or not lb:
            same = float(la == lb)
            return [same, same, 0.0, math.log1p(math.fsum(map(information_content, la + lb))), same, same,
                    same, same, same, same, 0.0, max(map(information_content, la + lb), default=0.0),
                    float(len(la + lb))]
        gloss, _, _ = similarity_matrix(la, lb)
        wordnet = np.asarray(similarity_table(la, lb))
        sims = np.maximum(np.maximum(gloss, wordnet), aligned_cosines(la, lb))
        ma, mb = sims.max(axis=1), sims.max(axis=0)
        wa = np.asarray([information_content(w) for w in la])
        wb = np.asarray([information_content(w) for w in lb])
        ua, ub = float(wa[ma < MATCHED].sum()), float(wb[mb < MATCHED].sum())
        unmatched = int((ma < MATCHED).sum() + (mb < MATCHED).sum())
        return [harmonic(float(ma.mean()), float(mb.mean())),
                harmonic(weighted_mean(ma, wa), weighted_mean(mb, wb)),
                math.log1p(min(ua, ub)), math.log1p(max(ua, ub)),
                1.0 - ratio(unmatched, len(la) + len(lb)),
                1.0 - ratio(ua + ub, float(wa.sum() + wb.sum())),
                *sorted((float(ma.min()), float(mb.min()))),
                *sorted((float(np.sort(ma)[:2].mean()), float(np.sort(mb)[:2].mean()))),
                *sorted((float((wa * (1 - ma)).max()), float((wb * (1 - mb)).max()))),
                float(unmatched)]
