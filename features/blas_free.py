"""Vector arithmetic whose bits do not depend on the BLAS library, its version or the CPU.

A BLAS kernel sums in an order of its own (one per CPU family and library release), so the same
cosine can differ in its last bits between two machines, and a best match or a threshold that
reads it can then flip. Here every product is elementwise in float64 (exact for float32 inputs,
correctly rounded otherwise) and every sum is one of numpy's fixed-order reductions. (Python's own
``sum`` of floats is no better: 3.12 made it compensated, so the families sum lists with ``math.fsum``.)
"""
from __future__ import annotations

import math

import numpy as np


def products(x, y) -> np.ndarray:
    return np.multiply(x, y, dtype=np.float64)


def dot(x: np.ndarray, y: np.ndarray) -> float:
    return float(products(x, y).sum())


def cosine(x: np.ndarray, y: np.ndarray) -> float:
    """Cosine of two vectors, 0 when either is zero."""
    norm = math.sqrt(dot(x, x)) * math.sqrt(dot(y, y))
    return dot(x, y) / norm if norm else 0.0


BLOCK = 1 << 20  # elements of the products held at once: cross_dots of two long texts stays in a few MB


def cross_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T``: the dot product of every row of ``a`` with every row of ``b`` (in blocks of rows of ``a``,
    so memory stays bounded; each entry is the same whatever the blocks)."""
    rows = max(1, BLOCK // max(1, b.shape[0] * b.shape[1]))
    if a.shape[0] <= rows:
        return products(a[:, None, :], b[None, :, :]).sum(axis=-1)
    return np.vstack([products(a[i:i + rows, None, :], b[None, :, :]).sum(axis=-1) for i in range(0, a.shape[0], rows)])


def row_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dot product of row i of ``a`` with row i of ``b``."""
    return products(a, b).sum(axis=-1)


def weighted_sum(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``weights @ rows``: the rows of ``rows`` added up, each times its weight."""
    return products(np.asarray(weights)[:, None], rows).sum(axis=0)


def unit_rows(a: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length (a zero row stays zero), in float64."""
    norms = np.sqrt(row_dots(a, a))
    return np.asarray(a, dtype=np.float64) / np.where(norms > 0, norms, 1.0)[:, None]
