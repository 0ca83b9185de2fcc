"""Vector arithmetic whose bits do not depend on the BLAS library, its version or the CPU.

A BLAS kernel sums in an order of its own (one per CPU family and library release), so the same
cosine can differ in its last bits between two machines, and a best match or a threshold that
reads it can then flip. Here every product is elementwise in float64 (exact for float32 inputs,
correctly rounded otherwise) and every sum is one of numpy's fixed-order reductions. (Python's own
``sum`` of floats is no better: 3.12 made it compensated, so the families sum lists with ``math.fsum``.)
"""
from __future__ import annotations

import numpy as np


def products(x, y) -> np.ndarray:
    return np.multiply(x, y, dtype=np.float64)


def row_dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dot product of row i of ``a`` with row i of ``b``."""
    return products(a, b).sum(axis=-1)


def unit_rows(a: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length (a zero row stays zero), in float64."""
    norms = np.sqrt(row_dots(a, a))
    return np.asarray(a, dtype=np.float64) / np.where(norms > 0, norms, 1.0)[:, None]
