"""Greedy String Tiling (Wise 1996) on lower-cased characters, as DKPro Similarity scores it.

Exact and fast, in two phases. Tiles of :data:`LONG` characters or more can only come from maximal
diagonal runs of equal characters that long, few in any text, found once through an index of
windows and kept in buckets by length; each greedy round takes the longest bucket and only splits
its runs at the marked characters, so a run is looked at again only when a tile has cut it. The
shorter rounds (``min_match`` up to :data:`LONG` - 1), whose candidate runs grow with the product of
the lengths, each index the unmarked windows of that length instead: every equal pair of them is a
match of the round (nothing longer is left unmarked), and each window of ``b`` is passed over once.
The tiles, and their order, are those of Wise's quadratic scan
(:func:`semsts.features.strings.reference.gst_tiles_wise`).

Bounded: a pair whose windows match far more often than its length (long low-entropy texts)
is tiled on the longest prefixes whose matches stay within the bound (``lcs.too_many_matches``),
and a :class:`CappedPair` warning names the pair; its coverage is then a lower bound.
"""
from __future__ import annotations

import heapq
import re
import warnings
from collections import deque

import numpy as np

from semsts.core.errors import Note

from .lcs import too_many_matches, window_matches, work_limit
from .runs import diagonal_runs


class CappedPair(Note):
    """A pair too repetitive to tile whole in near-linear work was tiled on its prefixes."""


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


LONG = 8  # rounds of tiles this long or longer tile the enumerated runs; shorter rounds index the free windows


def gst_tiles(a: str, b: str, min_match: int = 6, runs: list | None = None) -> list[tuple[int, int, int]]:
    """Greedy String Tiling tiles ``(start in a, start in b, length)``, each at least ``min_match`` long.

    Each round takes the longest unmarked common substrings, in order of their start in ``a`` then
    ``b``, and keeps each one that no tile of the round already overlaps. ``runs``: the pair's
    ``diagonal_runs(a, b, max(min_match, LONG))`` if the caller has them.
    """
    if min_match < 1:
        raise ValueError(f"min_match must be at least 1, got {min_match}")
    long = max(min_match, LONG)
    mark_a, mark_b = bytearray(len(a)), bytearray(len(b))
    tiles = _tile_runs(diagonal_runs(a, b, long) if runs is None else runs, mark_a, mark_b, long)
    for length in range(long - 1, min_match - 1, -1):
        tiles += _tile_windows(a, b, length, mark_a, mark_b)
    return tiles


def _tile_runs(runs, mark_a: bytearray, mark_b: bytearray, long: int) -> list[tuple[int, int, int]]:
    """The greedy rounds of tiles at least ``long`` characters, from the maximal runs that long."""
    buckets: dict[int, list] = {}
    for run in runs:
        buckets.setdefault(run[2], []).append(run)
    lengths = [-n for n in buckets]
    heapq.heapify(lengths)
    tiles = []
    while lengths:
        best = -heapq.heappop(lengths)
        runs = buckets.pop(best, None)
        if not runs:
            continue
        found = []
        for run in runs:  # no run elsewhere is longer: a run's free parts are never longer than it
            for i, j, n in _free_parts(run, mark_a, mark_b, long):
                if n == best:
                    found.append((i, j))
                else:  # cut by a tile: wait in the bucket of its length
                    _wait(buckets, lengths, (i, j, n))
        skipped = []
        for i, j in sorted(found):
            if 1 not in mark_a[i:i + best] and 1 not in mark_b[j:j + best]:
                mark_a[i:i + best] = mark_b[j:j + best] = b"\x01" * best
                tiles.append((i, j, best))
            else:
                skipped.append((i, j, best))
        for run in skipped:  # overlapped a tile of this round: what is left of it waits
            for part in _free_parts(run, mark_a, mark_b, long):
                _wait(buckets, lengths, part)
    return tiles


def _tile_windows(a: str, b: str, length: int, mark_a: bytearray, mark_b: bytearray) -> list[tuple[int, int, int]]:
    """The greedy round of tiles ``length`` long, once no longer unmarked match is left: each unmarked window of
    ``a`` in order takes the first window of ``b`` equal to it that no tile covers yet. A window of ``b`` passed
    over is covered for the rest of the round, so it leaves its list: the round is linear in the texts."""
    index: dict[str, deque] = {}
    starts_b = _free_starts(mark_b, length)
    for j, window in zip(starts_b, _windows_at(b, starts_b, length)):
        if window in index:
            index[window].append(j)
        else:
            index[window] = deque((j,))
    tiles = []
    if not index:
        return tiles
    starts_a = _free_starts(mark_a, length)
    for i, window in [(i, w) for i, w in zip(starts_a, _windows_at(a, starts_a, length)) if w in index]:
        starts = index[window]
        if not starts or 1 in mark_a[i:i + length]:
            continue
        while starts and 1 in mark_b[starts[0]:starts[0] + length]:
            starts.popleft()
        if starts:
            j = starts.popleft()
            mark_a[i:i + length] = mark_b[j:j + length] = b"\x01" * length
            tiles.append((i, j, length))
    return tiles


def _free_starts(mark: bytearray, length: int) -> list[int]:
    """The starts of the windows of ``length`` with no marked character, in order."""
    starts = []
    for free in re.finditer(b"\x00{%d,}" % length, mark):
        starts.extend(range(free.start(), free.end() - length + 1))
    return starts


def _windows_at(text: str, starts: list[int], length: int):
    """``text[s:s + length]`` for each of ``starts`` (C-level map and slice)."""
    return map(text.__getitem__, map(slice, starts, [s + length for s in starts]))


def _wait(buckets: dict, lengths: list, run) -> None:
    if run[2] not in buckets:
        buckets[run[2]] = []
        heapq.heappush(lengths, -run[2])
    buckets[run[2]].append(run)


def bounded_prefixes(a: str, b: str, min_match: int) -> tuple[int, int]:
    """Lengths of the prefixes of ``a`` and ``b`` to tile: whole, unless their window matches exceed the bound."""
    if not too_many_matches(a, b, min_match):
        return len(a), len(b)
    limit = work_limit(a, b)
    share = min(1.0, (limit / window_matches(a, b, min_match)) ** 0.5)  # matches grow with the product of the lengths
    while True:
        na, nb = int(len(a) * share), int(len(b) * share)
        if window_matches(a[:na], b[:nb], min_match) <= limit:
            return na, nb
        share *= 0.8


def gst_coverage(a: str, b: str, min_match: int = 6) -> int:
    """Characters of ``a`` (equally, of ``b``) covered by the tiles; of the bounded prefixes for a repetitive pair."""
    na, nb = bounded_prefixes(a, b, min_match)
    if (na, nb) != (len(a), len(b)):
        warnings.warn(CappedPair(
            f"GST: the pair {a[:40]!r}… ({len(a):,} characters) / {b[:40]!r}… ({len(b):,} characters) repeats "
            f"too much to tile whole in bounded work (min match {min_match}); tiled on its first {na:,} and "
            f"{nb:,} characters, so its coverage is a lower bound"), stacklevel=2)
        a, b = a[:na], b[:nb]
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


def gst_similarity_ways(pairs, min_match: int = 6) -> np.ndarray:
    """``(n, 3)``: :func:`gst_similarity` of each pair as ``(a, b)``, as ``(b, a)`` and symmetric, each the same
    number as its own call gives; two tilings a pair, not three (the symmetric one is one of the others), on
    the common runs found once."""
    out = np.zeros((len(pairs), 3))
    for row, (a, b) in zip(out, pairs):
        a, b = a.lower(), b.lower()
        if not a or not b:
            continue
        if too_many_matches(a, b, min_match):  # tiled on bounded prefixes, each way by itself
            ab, ba = gst_coverage(a, b, min_match), gst_coverage(b, a, min_match)
        else:  # the runs of (b, a) are those of (a, b), each turned round, in their order (by start in b, then a)
            runs = diagonal_runs(a, b, max(min_match, LONG))
            ab = sum(n for _, _, n in gst_tiles(a, b, min_match, runs))
            ba = sum(n for _, _, n in gst_tiles(b, a, min_match, sorted((j, i, n) for i, j, n in runs)))
        row[:] = ab / len(a), ba / len(b), 2.0 * (ba if (len(b), b) > (len(a), a) else ab) / (len(a) + len(b))
    return out


def gst_similarity_many(pairs, min_match: int = 6, symmetric: bool = False) -> np.ndarray:
    """Batched :func:`gst_similarity` over ``(a, b)`` pairs."""
    return np.fromiter((gst_similarity(a, b, min_match, symmetric) for a, b in pairs),
                       dtype=float, count=len(pairs))
