"""The similarity maths the feature families share: clipped word-vector cosines, weighted means, safe ratios and
set overlaps (containment, Jaccard, Dice)."""
from __future__ import annotations

import numpy as np

from .blas_free import cross_dots, dot

MATCHED = 0.5  # in the aligning families, a best similarity below this leaves a word unmatched


def clipped_cosines(la, lb, va: np.ndarray, vb: np.ndarray) -> np.ndarray:
    """Cosines of the unit (or zero) word vectors ``va`` (rows, words ``la``) and ``vb`` (columns,
    words ``lb``), negatives cut to 0 and the same word on both sides set to 1."""
    sims = np.clip(cross_dots(va, vb), 0.0, 1.0)
    sims[np.equal.outer(np.asarray(la, dtype=object), np.asarray(lb, dtype=object))] = 1.0
    return sims


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    """Mean of ``values`` weighted by ``weights`` (e.g. best matches by information content), 0 if no weight."""
    return ratio(dot(values, weights), float(weights.sum()))


def ratio(num: float, den: float) -> float:
    """``num / den``, 0 when the denominator is 0 (two empty sides share nothing)."""
    return num / den if den else 0.0


def overlap_scores(a: set, b: set) -> list[float]:
    """Containment of a in b, of b in a, Jaccard and Dice of two sets; 1.0 for two empty sets."""
    if not a and not b:
        return [1.0, 1.0, 1.0, 1.0]
    common = len(a & b)
    return [ratio(common, len(a)), ratio(common, len(b)),
            ratio(common, len(a) + len(b) - common), ratio(2 * common, len(a) + len(b))]


OVERLAP_NAMES = ("contain_ab", "contain_ba", "jaccard", "dice")
