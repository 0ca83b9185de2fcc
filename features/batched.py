"""A chunk's word-by-word arithmetic in a few numpy calls, bit for bit what the families do pair by pair.

A family's per-pair reductions (a side's mean vector, a best-match mean, an IC-weighted dot) run here over
every pair of a chunk at once, stacked by length: numpy reduces each row of a stacked array exactly as it
reduces that row alone, while padding the rows to one length would change its summation order. The cells of
all the pairs' similarity tables are one flat array, each pair's table row-major within it.
``tests/test_batched.py`` checks every family against a one-pair reference.
"""
from __future__ import annotations

import math

import numpy as np

from .blas_free import products

BLOCK = 1 << 16  # vector elements of the tables' cells multiplied at once: 512 KB, within a core's cache


class Sides:
    """One side of many pairs, flattened: pair ``p``'s rows of a per-word array are ``starts[p]:starts[p] + lengths[p]``."""

    def __init__(self, lengths: np.ndarray, words: list | None = None):
        self.lengths = np.asarray(lengths, dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)[:-1]]).astype(np.int64)
        self.words = words
        self._groups = None

    @classmethod
    def of(cls, sides: list) -> Sides:
        """The sides (lists of words) of the pairs, their words in one list."""
        return cls(np.fromiter(map(len, sides), dtype=np.int64, count=len(sides)), [w for side in sides for w in side])

    def distinct(self) -> tuple[Sides, np.ndarray, np.ndarray]:
        """Each pair's distinct words, in the order they first come, as :class:`Sides` (with their words); where
        each is in ``words`` (its first place); and for every word, the place of its distinct word in those Sides."""
        firsts, places, lengths = [], np.empty(len(self.words), dtype=np.int64), []
        for start, length in zip(self.starts.tolist(), self.lengths.tolist()):
            seen: dict = {}
            for k in range(start, start + length):
                place = seen.get(self.words[k])
                if place is None:
                    place = seen[self.words[k]] = len(seen)
                    firsts.append(k)
                places[k] = len(firsts) - len(seen) + place
            lengths.append(len(seen))
        return Sides(np.asarray(lengths, dtype=np.int64), [self.words[k] for k in firsts]), np.asarray(firsts, dtype=np.int64), places

    def groups(self) -> list:
        """``(length, pair indices)`` for each length among the pairs (empty sides left out)."""
        if self._groups is None:
            order = np.argsort(self.lengths, kind="stable")
            bounds = np.flatnonzero(np.diff(self.lengths[order])) + 1
            self._groups = [(int(self.lengths[g[0]]), g) for g in np.split(order, bounds) if len(g) and self.lengths[g[0]]]
        return self._groups

    def stacked(self, flat: np.ndarray, pairs: np.ndarray, length: int) -> np.ndarray:
        """The rows of ``flat`` (one per word) of ``pairs``, all ``length`` long, as a ``(pairs, length, ...)`` array."""
        return flat[self.starts[pairs][:, None] + np.arange(length)]

    def reduced(self, flat: np.ndarray, reduce, width: tuple = ()) -> np.ndarray:
        """``reduce(stack)`` of each length's stack of the pairs' rows of ``flat``, one result per pair (of shape
        ``width``; zeros for an empty side): ``lambda s: s.sum(axis=1)`` gives each pair's ``flat[rows].sum(axis=0)``."""
        out = np.zeros((len(self.lengths), *width))
        for length, pairs in self.groups():
            out[pairs] = reduce(self.stacked(flat, pairs, length))
        return out

    def masked_sums(self, values: np.ndarray, keep: np.ndarray) -> np.ndarray:
        """Each pair's ``values[rows][keep[rows]].sum()`` (0.0 where none is kept)."""
        counts = np.zeros(len(self.lengths), dtype=np.int64)
        nonempty = self.lengths > 0
        if nonempty.any():
            counts[nonempty] = np.add.reduceat(keep.astype(np.int64), self.starts[nonempty])
        return Sides(counts).reduced(values[keep], lambda s: s.sum(axis=1))


class Tables:
    """The cells of each pair's ``len(a) x len(b)`` table, row-major per pair, all pairs in one flat array."""

    def __init__(self, a: Sides, b: Sides):
        self.a, self.b = a, b
        m, n = a.lengths, b.lengths
        cells = m * n
        self.size = int(cells.sum())
        self.starts = np.concatenate([[0], np.cumsum(cells)[:-1]]).astype(np.int64)
        index = np.int32 if max(self.size, int(m.sum()), int(n.sum())) < 2 ** 31 else np.int64
        pair = np.repeat(np.arange(len(m), dtype=index), cells)
        offset = self.starts.astype(index)[pair]  # where each cell's pair starts
        i, j = np.divmod(np.arange(self.size, dtype=index) - offset, n.astype(index)[pair])
        self.rows, self.cols = a.starts.astype(index)[pair] + i, b.starts.astype(index)[pair] + j  # its two words
        self._by_column = offset + j * m.astype(index)[pair] + i  # where a cell goes in the column-major order
        del pair, offset, i, j
        self._row_starts = np.repeat(self.starts, m) + (np.arange(int(m.sum())) - np.repeat(a.starts, m)) * np.repeat(n, m)
        self._col_starts = np.repeat(self.starts, n) + (np.arange(int(n.sum())) - np.repeat(b.starts, n)) * np.repeat(m, n)

    def dots(self, va: np.ndarray, vb: np.ndarray) -> np.ndarray:
        """Each cell's ``products(va[row], vb[col]).sum()`` (:func:`semsts.features.blas_free.products`; the vectors in
        float64 first, exactly; the cells in blocks that stay in the CPU's cache)."""
        va, vb = np.asarray(va, dtype=np.float64), np.asarray(vb, dtype=np.float64)
        out = np.empty(self.size)
        cells = max(1, BLOCK // max(1, va.shape[1]))
        for s in range(0, self.size, cells):
            block = va[self.rows[s:s + cells]]
            block *= vb[self.cols[s:s + cells]]
            out[s:s + cells] = block.sum(axis=-1)
        return out

    def row_max(self, cells: np.ndarray) -> np.ndarray:
        """Each word of side a: its best cell (``table.max(axis=1)``), in the order of ``a.words``."""
        return np.maximum.reduceat(cells, self._row_starts) if self.size else np.zeros(0)

    def col_max(self, cells: np.ndarray) -> np.ndarray:
        """Each word of side b: its best cell (``table.max(axis=0)``), in the order of ``b.words``."""
        if not self.size:
            return np.zeros(0)
        by_column = np.empty_like(cells)
        by_column[self._by_column] = cells
        return np.maximum.reduceat(by_column, self._col_starts)


def same_words(tables: Tables) -> np.ndarray:
    """Which cells pair a word with the same word (a family's similarity is 1 there, whatever its vectors say)."""
    ids: dict = {}
    a = np.asarray([ids.setdefault(w, len(ids)) for w in tables.a.words], dtype=np.int64)
    b = np.asarray([ids.setdefault(w, len(ids)) for w in tables.b.words], dtype=np.int64)
    return a[tables.rows] == b[tables.cols]


def cosines(x: np.ndarray, y: np.ndarray) -> list[float]:
    """The cosine of each row of ``x`` with the same row of ``y`` (0 where either is zero), without BLAS."""
    xx, yy, xy = (products(p, q).sum(axis=1).tolist() for p, q in ((x, x), (y, y), (x, y)))
    out = []
    for dxx, dyy, dxy in zip(xx, yy, xy):
        norm = math.sqrt(dxx) * math.sqrt(dyy)
        out.append(dxy / norm if norm else 0.0)
    return out


MAX_CELLS = 1 << 18  # table cells laid out at once: a chunk of long texts goes through in parts of about 10 MB


def in_parts(rows_of, sides: list, width: int) -> np.ndarray:
    """``rows_of(part)`` for consecutive parts of ``sides`` (pairs of word lists) whose tables hold at most
    :data:`MAX_CELLS` cells (a larger pair alone), stacked: the same rows as one call, in bounded memory."""
    out, part, cells = [], [], 0
    for la, lb in sides:
        size = len(la) * len(lb)
        if part and cells + size > MAX_CELLS:
            out.append(rows_of(part))
            part, cells = [], 0
        part.append((la, lb))
        cells += size
    if part:
        out.append(rows_of(part))
    return np.concatenate(out) if out else np.zeros((0, width))


def split_empty_sides(sides: list, width: int, one_sided, aligned_rows) -> np.ndarray:
    """Each pair's row of ``width`` values: ``one_sided(la, lb)`` for a pair with an empty side (no table to align),
    and for the pairs whose two sides both hold words, in their order, ``aligned_rows(pairs)`` by :func:`in_parts`."""
    rows = np.empty((len(sides), width))
    full = []
    for i, (la, lb) in enumerate(sides):
        if la and lb:
            full.append(i)
        else:
            rows[i] = one_sided(la, lb)
    if full:
        rows[full] = in_parts(aligned_rows, [sides[i] for i in full], width)
    return rows
