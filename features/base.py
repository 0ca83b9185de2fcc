"""The shared shape of a feature family: a stateless-by-default transformer from pairs to floats."""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from .text import analyse, head


class PairFeatures(TransformerMixin, BaseEstimator):
    """Base for families: ``transform(pairs)`` gives an ``(n_pairs, n_features)`` float matrix.

    Subclasses list their columns in ``_names()`` and compute one row in ``_row(a, b)`` from the
    cached analyses of the two texts (see :mod:`semsts.features.text`), or override ``transform``.
    A family whose work grows faster than the texts sets ``reads_head``: it reads each side's :func:`head`.
    """

    reads_head = False

    def fit(self, X, y=None):
        return self

    def __sklearn_tags__(self):
        """Input: a sequence of ``(text_a, text_b)`` string pairs, not a 2-D numeric array; a family learns
        nothing by default, so ``transform`` needs no ``fit`` (a family that learns says ``requires_fit``)."""
        return text_input_tags(super().__sklearn_tags__(), requires_fit=False)

    def _names(self) -> list[str]:
        raise NotImplementedError

    def _row(self, a, b) -> list[float]:
        raise NotImplementedError

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        prefix = type(self).__name__.lower()
        return np.asarray([f"{prefix}__{name}" for name in self._names()], dtype=object)

    def analyses(self, X) -> list:
        """The analyses of each pair's two sides (of their heads, for a family that ``reads_head``)."""
        cut = head if self.reads_head else str
        return [(analyse(cut(a)), analyse(cut(b))) for a, b in X]

    def transform(self, X) -> np.ndarray:
        rows = [self._row(a, b) for a, b in self.analyses(X)]
        return np.asarray(rows, dtype=float).reshape(len(rows), len(self._names()))


def text_input_tags(tags, *, requires_fit: bool):
    """scikit-learn tags of a transformer of texts (strings, not a 2-D numeric array), fitted or not before use."""
    tags.input_tags.two_d_array = False
    tags.input_tags.string = True
    tags.requires_fit = requires_fit
    return tags
