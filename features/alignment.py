"""Word alignment by the better of WordNet path similarity and gloss-space cosine, and what it
leaves unmatched: the information content of the words with no counterpart on the other side.
"""
from __future__ import annotations

import math

import numpy as np

from .base import PairFeatures, ratio
from .gloss_features import similarity_matrix
from .weighted import information_content
from .wordnet_access import word_similarity
from .wordnet_features import harmonic

MATCHED = 0.5  # a best similarity below this leaves the word unmatched


class Alignment(PairFeatures):
    """Aligned similarity both ways (harmonic, IC-weighted), the unmatched words' IC mass (log, the
    smaller and the larger side) and the share of words and of IC that found a match."""

    def _names(self):
        return ["aligned_harmonic", "ic_aligned_harmonic", "log_unmatched_ic_min", "log_unmatched_ic_max",
                "matched_share", "matched_ic_share"]

    def _row(self, a, b):
        la, lb = sorted(set(a.content)), sorted(set(b.content))
        if not la or not lb:
            same = float(la == lb)
            return [same, same, 0.0, math.log1p(sum(map(information_content, la + lb))), same, same]
        gloss, _, _ = similarity_matrix(la, lb)
        wordnet = np.asarray([[word_similarity(w, v) for v in lb] for w in la])
        sims = np.maximum(gloss, wordnet)
        ma, mb = sims.max(axis=1), sims.max(axis=0)
        wa = np.asarray([information_content(w) for w in la])
        wb = np.asarray([information_content(w) for w in lb])
        ua, ub = float(wa[ma < MATCHED].sum()), float(wb[mb < MATCHED].sum())
        return [harmonic(float(ma.mean()), float(mb.mean())),
                harmonic(ratio(float(ma @ wa), float(wa.sum())), ratio(float(mb @ wb), float(wb.sum()))),
                math.log1p(min(ua, ub)), math.log1p(max(ua, ub)),
                1.0 - ratio(int((ma < MATCHED).sum() + (mb < MATCHED).sum()), len(la) + len(lb)),
                1.0 - ratio(ua + ub, float(wa.sum() + wb.sum()))]
