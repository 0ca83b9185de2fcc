"""Sentence encoders as systems: a pair scores the cosine of its two texts' embeddings.

``encode`` is any callable ``encode(list[str]) -> (n, d) array`` or a spec naming one (a built-in
encoder, ``glove-mean``, ``sif``, ``wordllama`` or ``minilm``, or ``package.module:function``; see :mod:`semsts.features.encoders`).
Each predict encodes every distinct text once, ``batch_size`` texts per call, and checks what
the encoder returns. Cosines lie in [-1, 1] (``score_range``); the runner maps them onto the task's
range as it does for every system (``2.5 + 2.5 cos`` on STS's [0, 5]), which Pearson and Spearman
do not see. A zero embedding has cosine 0 with anything.
"""
from __future__ import annotations

import numpy as np

from semsts.core.errors import InvalidValue
from semsts.features.embedding_cache import cached_embed
from semsts.features.encoders import BATCH_SIZE, resolve, row_cosines
from semsts.features.errors import FailedOnEmptyText, NonFiniteEmbedding

from .base import BOOLEAN, CALLABLE, NONE, PairError, PairRegressor, either, instance_of, int_from


def cosine_scores(encode, pairs, batch_size: int = BATCH_SIZE, *, cache_spec=None, cache_version=None) -> np.ndarray:
    """The cosine of each pair's two embeddings, every distinct text encoded once (with ``cache_spec``, the spec
    naming ``encode``, embeddings are read from and kept in the per-user cache when the encoder declares its version,
    ``cache_version`` or its own: see :mod:`semsts.features.embedding_cache`).

    A non-finite embedding, or the encoder failing on a batch with an empty text, is a PairError at the first pair
    holding that text (the runner reports the input file's line).
    """
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    try:
        vectors = np.asarray(cached_embed(encode, texts, batch_size, spec=cache_spec, version=cache_version))
    except (NonFiniteEmbedding, FailedOnEmptyText) as exc:
        index = next(i for i, pair in enumerate(pairs) if exc.text in pair)
        raise PairError(index, str(exc)) from None
    row = {t: i for i, t in enumerate(texts)}
    a = vectors[[row[p[0]] for p in pairs]] if pairs else vectors[:0]
    b = vectors[[row[p[1]] for p in pairs]] if pairs else vectors[:0]
    return row_cosines(a, b)


class EncoderSimilarity(PairRegressor):
    """Cosine of the two texts' embeddings from ``encode``; learns nothing (``fit`` checks the encoder)."""

    score_range = (-1.0, 1.0)

    param_rules = {"encode": either(CALLABLE, instance_of(str), NONE), "batch_size": int_from(1),
                   "cache": either(BOOLEAN, instance_of(str))}

    def __init__(self, encode=None, *, batch_size: int = BATCH_SIZE, cache: bool | str = True):
        self.encode = encode
        self.batch_size = batch_size
        self.cache = cache

    def _fit(self, pairs, y) -> None:
        if self.encode is None:
            raise InvalidValue("EncoderSimilarity needs an encoder: encode=callable or a spec "
                               "('glove-mean', 'sif', 'wordllama', 'minilm', package.module:function)")
        self.encoder_ = resolve(self.encode)

    def _predict(self, pairs):
        return cosine_scores(self.encoder_, pairs, self.batch_size, cache_spec=self.encode if self.cache else None,
                             cache_version=self.cache)


class GloveMean(EncoderSimilarity):
    """``glove-mean``: cosine of the mean GloVe 6B 50d vectors of the two texts."""

    def __init__(self, encode="glove-mean", *, batch_size: int = BATCH_SIZE):
        super().__init__(encode, batch_size=batch_size)


class SIFSimilarity(EncoderSimilarity):
    """``sif``: cosine of SIF embeddings, the common component fitted on the texts of each predict."""

    def __init__(self, encode="sif", *, batch_size: int = BATCH_SIZE):
        super().__init__(encode, batch_size=batch_size)


class WordLlamaMean(EncoderSimilarity):
    """``wordllama``: cosine of the mean WordLlama (``l2_supercat_256``) vectors of the two texts' Llama 2 tokens."""

    def __init__(self, encode="wordllama", *, batch_size: int = BATCH_SIZE):
        super().__init__(encode, batch_size=batch_size)
