"""An encoder's view of a pair as features for the regression: cosine and a few simple derivatives.

``encode`` is a callable ``encode(list[str]) -> (n, d) array`` or a spec (``glove-mean``, ``sif``,
``package.module:function``; see :mod:`semsts.features.encoders`). An encoder that adapts to the texts it
sees (SIF's removed component) is fitted in ``fit`` on the training texts and then kept, so a
transform does not depend on how the pairs are chunked; such a family ``learns_from_text`` and
is refitted inside each cross-validation fold.
"""
from __future__ import annotations

import numpy as np

from semsts.core.errors import InvalidValue

from .base import PairFeatures
from .encoders import BATCH_SIZE, SIF, embed, fitted, resolve, row_cosines


class EncoderFeatures(PairFeatures):
    """Cosine of the two embeddings, L1 distance of the unit embeddings, Euclidean distance of the
    raw embeddings and the ratio of the smaller norm to the larger (1 for two zero vectors)."""

    def __init__(self, encode=None, *, batch_size: int = BATCH_SIZE):
        self.encode = encode
        self.batch_size = batch_size

    def _names(self):
        return ["cosine", "unit_l1", "euclidean", "norm_ratio"]

    @property
    def learns_from_text(self) -> bool:
        return self.encode is not None and hasattr(resolve(self.encode), "for_sentences")

    def fit(self, X, y=None):
        if self.encode is None:
            raise InvalidValue("EncoderFeatures needs an encoder: encode=callable or a spec "
                               "('glove-mean', 'sif', 'wordllama', package.module:function)")
        self.encoder_ = fitted(resolve(self.encode), list(dict.fromkeys(t for pair in X for t in pair)))
        return self

    def __getstate__(self):
        """A saved model keeps a spec, not the function it names: the function is looked up again when the
        model is used, so a model file holds data only (a fitted SIF, with its component, is data)."""
        state = super().__getstate__()
        if isinstance(self.encode, str) and not isinstance(state.get("encoder_"), SIF):
            state.pop("encoder_", None)
        return state

    def transform(self, X) -> np.ndarray:
        pairs = [tuple(p) for p in X]
        texts = list(dict.fromkeys(t for pair in pairs for t in pair))
        if not pairs:
            return np.zeros((0, len(self._names())))
        encoder = self.encoder_ if hasattr(self, "encoder_") else resolve(self.encode)
        vectors = embed(encoder, texts, self.batch_size)
        row = {t: i for i, t in enumerate(texts)}
        a, b = vectors[[row[p[0]] for p in pairs]], vectors[[row[p[1]] for p in pairs]]
        na, nb = np.linalg.norm(a, axis=1), np.linalg.norm(b, axis=1)
        ua = np.divide(a, na[:, None], out=np.zeros_like(a), where=na[:, None] > 0)
        ub = np.divide(b, nb[:, None], out=np.zeros_like(b), where=nb[:, None] > 0)
        big, small = np.maximum(na, nb), np.minimum(na, nb)
        ratio = np.divide(small, big, out=np.ones_like(big), where=big > 0)
        return np.column_stack([row_cosines(a, b), np.abs(ua - ub).sum(axis=1), np.linalg.norm(a - b, axis=1), ratio])
