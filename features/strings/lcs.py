"""Longest common substring on characters, normalized by the mean length (the CLSS 2014 LCS baseline).

Exact and fast: common runs of 6 or more characters are enumerated through an index of
6-character windows; a shorter answer comes from a binary search over sets of k-character windows.
"""
from __future__ import annotations

import numpy as np

from .runs import diagonal_runs, windows

RUN = 6  # runs at least this long are enumerated directly; shorter answers come from a binary search


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common substring (contiguous characters, case-sensitive)."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return 0
    if b in a:
        return len(b)
    runs = diagonal_runs(a, b, RUN)
    if runs:
        return max(n for _, _, n in runs)
    lo, hi = 0, min(len(b), RUN) - 1  # a common substring of length lo exists; none longer than hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if set(windows(b, mid)).isdisjoint(windows(a, mid)):
            hi = mid - 1
        else:
            lo = mid
    return lo


def lcs_similarity(a: str, b: str) -> float:
    """LCS length over the mean of the two lengths, in [0, 1]; 0 when either text is empty."""
    if not a or not b:
        return 0.0
    return 2.0 * lcs_length(a, b) / (len(a) + len(b))


def lcs_similarity_many(pairs) -> np.ndarray:
    """Batched :func:`lcs_similarity` over ``(a, b)`` pairs."""
    return np.fromiter((lcs_similarity(a, b) for a, b in pairs), dtype=float, count=len(pairs))
