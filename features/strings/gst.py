"""Greedy String Tiling (Wise 1996) on lower-cased characters, as DKPro Similarity scores it.

Exact and fast: the tiles can only come from maximal diagonal runs of equal characters at
least ``min_match`` long, found once through an index of ``min_match``-character windows;
each greedy round then only splits those runs at the marked characters. The tiles, and their
order, are those of Wise's quadratic scan (:func:`features.strings.reference.gst_tiles_wise`).
"""
from __future__ import annotations

import numpy as np

from .runs import diagonal_runs


def _free_parts(run, mark_a: bytearray, mark_b: bytearray, k: int):
    """The parts of a run with neither side marked, at least ``k`` long, as ``(i, j, length)``."""
    i, j, n = run
    side_a, side_b = mark_a[i:i + n], mark_b[j:j + n]
    if 1 not in side_a and 1 not in side_b:
        return [run]
    both = bytes(x | y for x, y in zip(side_a, side_b))
    parts, offset = [], 0
    for piece in both.split(b"\x01"):
        if len(piece) >= k:
            parts.append((i + offset, j + offset, len(piece)))
        offset += len(piece) + 1
    return parts


def gst_tiles(a: str, b: str, min_match: int = 6) -> list[tuple[int, int, int]]:
    """Greedy String Tiling tiles ``(start in a, start in b, length)``, each at least ``min_match`` long.

    Each round takes the longest unmarked common substrings, in order of their start in ``a`` then
    ``b``, and keeps each one that no tile of the round already overlaps.
    """
    if min_match < 1:
        raise ValueError(f"min_match must be at least 1, got {min_match}")
    runs = diagonal_runs(a, b, min_match)
    mark_a, mark_b = bytearray(len(a)), bytearray(len(b))
    tiles = []
    while runs:
        best, found, alive = min_match, [], []
        for run in runs:
            parts = _free_parts(run, mark_a, mark_b, min_match)
            if parts:
                alive.append(run)
            for i, j, n in parts:
                if n > best:
                    best, found = n, [(i, j)]
                elif n == best:
                    found.append((i, j))
        if not found:
            break
        for i, j in sorted(found):
            if 1 not in mark_a[i:i + best] and 1 not in mark_b[j:j + best]:
                mark_a[i:i + best] = mark_b[j:j + best] = b"\x01" * best
                tiles.append((i, j, best))
        runs = alive
    return tiles


def gst_coverage(a: str, b: str, min_match: int = 6) -> int:
    """Characters of ``a`` (equally, of ``b``) covered by the tiles."""
    return sum(n for _, _, n in gst_tiles(a, b, min_match))


def gst_similarity(a: str, b: str, min_match: int = 6, symmetric: bool = False) -> float:
    """Tile coverage over the length of ``a`` (DKPro), or over the mean length when ``symmetric``.

    Case-insensitive. The symmetric form tiles the larger text against the smaller whatever
    the argument order, so it is exactly symmetric. Empty texts score 0.
    """
    a, b = a.lower(), b.lower()
    if not a or not b:
        return 0.0
    if symmetric:
        if (len(b), b) > (len(a), a):
            a, b = b, a
        return 2.0 * gst_coverage(a, b, min_match) / (len(a) + len(b))
    return gst_coverage(a, b, min_match) / len(a)


def gst_similarity_many(pairs, min_match: int = 6, symmetric: bool = False) -> np.ndarray:
    """Batched :func:`gst_similarity` over ``(a, b)`` pairs."""
    return np.fromiter((gst_similarity(a, b, min_match, symmetric) for a, b in pairs),
                       dtype=float, count=len(pairs))
