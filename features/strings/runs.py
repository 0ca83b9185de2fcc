"""Common runs of characters: the k-character windows of a text and the maximal diagonal runs of two texts.

Shared by the longest common substring and Greedy String Tiling; the work is in C-level slicing,
sets and dicts, not in a quadratic Python loop.
"""
from __future__ import annotations


def windows(text: str, k: int):
    """Every k-character substring of ``text``, in order (an iterator of C-level map and slice)."""
    return map(text.__getitem__, map(slice, range(len(text) - k + 1), range(k, len(text) + 1)))


def diagonal_runs(a: str, b: str, k: int) -> list[tuple[int, int, int]]:
    """``(i, j, length)`` of every maximal run ``a[i+t] == b[j+t]`` at least ``k`` long, by ``i`` then ``j``."""
    index: dict[str, list[int]] = {}
    for j, window in enumerate(windows(b, k)):
        index.setdefault(window, []).append(j)
    if index.keys().isdisjoint(windows(a, k)):
        return []
    runs = []
    for i, window in enumerate(windows(a, k)):
        starts = index.get(window)
        if starts is None:
            continue
        for j in starts:
            if i and j and a[i - 1] == b[j - 1]:
                continue  # inside a run that started earlier
            n = k
            while i + n < len(a) and j + n < len(b) and a[i + n] == b[j + n]:
                n += 1
            runs.append((i, j, n))
    return runs
