"""The similarity maths the feature families share: safe ratios and set overlaps (containment, Jaccard, Dice)."""
from __future__ import annotations

MATCHED = 0.5  # in the aligning families, a best similarity below this leaves a word unmatched


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
