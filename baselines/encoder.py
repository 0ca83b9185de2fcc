"""Sentence encoders as systems: a pair scores the cosine of its two texts' embeddings.

``encode`` is any callable ``encode(list[str]) -> (n, d) array`` or a spec naming one (a built-in
encoder, ``glove-mean`` or ``sif``, or ``package.module:function``; see :mod:`features.encoders`).
Each predict encodes every distinct text once, ``batch_size`` texts per call, and checks what
the encoder returns. Cosines lie in [-1, 1] (``score_range``); the runner maps them onto the task's
range as it does for every system (``2.5 + 2.5 cos`` on STS's [0, 5]), which Pearson and Spearman
do not see. A zero embedding has cosine 0 with anything.
"""
from __future__ import annotations

import numpy as np

from features.encoders import encoder_name, load_encoder

from .base import PairError, PairRegressor

BATCH_SIZE = 512


def resolve(encode):
    """The callable ``encode`` names (a spec) or is; anything else is refused."""
    if isinstance(encode, str):
        return load_encoder(encode)
    if not callable(encode):
        raise ValueError(f"encode must be a callable encode(list[str]) -> (n, d) array or a spec "
                         f"('glove-mean', 'sif', package.module:function), got {type(encode).__name__}")
    return encode


def embed(encode, texts: list[str], batch_size: int) -> np.ndarray:
    """Embeddings of ``texts`` (row i for text i), ``batch_size`` texts per call of ``encode``.

    Each batch must come back as a numeric ``(len(batch), d)`` array with the same ``d`` throughout;
    a non-finite row is a ValueError naming its text (see :func:`cosine_scores` for pairs).
    """
    name = encoder_name(encode)
    if hasattr(encode, "for_sentences"):  # fitted on every text scored (SIF), then used batch by batch
        encode = encode.for_sentences(texts)
    parts, width = [], None
    for start in range(0, len(texts), batch_size):
        batch = texts[start:start + batch_size]
        out = encode(batch)
        try:
            array = np.asarray(out, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"encoder {name} returned {type(out).__name__}, not a numeric (n, d) array") from None
        if array.ndim != 2 or array.shape[0] != len(batch) or array.shape[1] == 0:
            raise ValueError(f"encoder {name} returned shape {array.shape} for {len(batch)} texts; "
                             f"expected ({len(batch)}, d) with d >= 1")
        if width is not None and array.shape[1] != width:
            raise ValueError(f"encoder {name} returned {array.shape[1]} dimensions after {width}")
        width = array.shape[1]
        parts.append(array)
    return np.concatenate(parts) if parts else np.zeros((0, 1))


def row_cosines(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Cosine of row i of ``x`` with row i of ``y``; 0 where either row is zero."""
    norms = np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1)
    dots = np.einsum("ij,ij->i", x, y)
    out = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
    return np.clip(out, -1.0, 1.0)


def cosine_scores(encode, pairs, batch_size: int = BATCH_SIZE) -> np.ndarray:
    """The cosine of each pair's two embeddings, every distinct text encoded once.

    A non-finite embedding is a PairError at the first pair holding its text (the runner reports
    the input file's line).
    """
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    vectors = embed(encode, texts, batch_size)
    bad = ~np.isfinite(vectors).all(axis=1)
    if bad.any():
        text = texts[int(np.argmax(bad))]
        index = next(i for i, pair in enumerate(pairs) if text in pair)
        raise PairError(index, f"encoder {encoder_name(encode)} gave a NaN or infinite embedding for {text!r:.80}")
    row = {t: i for i, t in enumerate(texts)}
    a = vectors[[row[p[0]] for p in pairs]] if pairs else vectors[:0]
    b = vectors[[row[p[1]] for p in pairs]] if pairs else vectors[:0]
    return row_cosines(a, b)


class EncoderSimilarity(PairRegressor):
    """Cosine of the two texts' embeddings from ``encode``; learns nothing (``fit`` checks the encoder)."""

    score_range = (-1.0, 1.0)

    def __init__(self, encode=None, *, batch_size: int = BATCH_SIZE):
        self.encode = encode
        self.batch_size = batch_size

    def _fit(self, pairs, y) -> None:
        if self.encode is None:
            raise ValueError("EncoderSimilarity needs an encoder: encode=callable or a spec "
                             "('glove-mean', 'sif', package.module:function)")
        if not (isinstance(self.batch_size, (int, np.integer)) and self.batch_size >= 1):
            raise ValueError(f"batch_size must be a whole number >= 1, got {self.batch_size!r}")
        self.encoder_ = resolve(self.encode)

    def _predict(self, pairs):
        return cosine_scores(self.encoder_, pairs, self.batch_size)


class GloveMean(EncoderSimilarity):
    """``glove-mean``: cosine of the mean GloVe 6B 50d vectors of the two texts."""

    def __init__(self, encode="glove-mean", *, batch_size: int = BATCH_SIZE):
        super().__init__(encode, batch_size=batch_size)


class SIFSimilarity(EncoderSimilarity):
    """``sif``: cosine of SIF embeddings, the common component fitted on the texts of each predict."""

    def __init__(self, encode="sif", *, batch_size: int = BATCH_SIZE):
        super().__init__(encode, batch_size=batch_size)
