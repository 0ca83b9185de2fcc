"""The shared shape of a feature family: a stateless-by-default transformer from pairs to floats."""
from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from .exact import cross_dots, dot
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


MATCHED = 0.5  # in the aligning families, a best similarity below this leaves a word unmatched
# A pair's WordNet table that two families read in turn (WordNet overlap, then alignment)
# is shared through a memo of a chunk's pairs (1,024), for pairs of up to 32 x 32 lemmas: a few MB at most.
SHARED_PAIRS, SHARED_CELLS = 1 << 10, 1 << 10


def clipped_cosines(la, lb, va: np.ndarray, vb: np.ndarray) -> np.ndarray:
    """Cosines of the unit (or zero) word vectors ``va`` (rows, words ``la``) and ``vb`` (columns,
    words ``lb``), negatives cut to 0 and the same word on both sides set to 1."""
    sims = np.clip(cross_dots(va, vb), 0.0, 1.0)
    sims[np.equal.outer(np.asarray(la, dtype=object), np.asarray(lb, dtype=object))] = 1.0
    return sims


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    """Mean of ``values`` weighted by ``weights`` (e.g. best matches by information content), 0 if no weight."""
    return ratio(dot(values, weights), float(weights.sum()))


def ratio(num: float, den: float) -> float:
    """``num / den``, 0 when the denominator is 0 (two empty sides share nothing)."""
    return num / den if den else 0.0


def overlap_scores(a: set, b: set) -> list[float]:
    """Containment of a in b, of b in a, Jaccard and Dice of two sets; 1.0 for two empty sets."""
    if not a and not b:
        return [1.0, 1.0, 1.0, 1.0]
    common = len(a & b)
    return [ratio(common, len(a)), ratio(common, len(b)),
            ratio(common, len(a) + len(b) - common), ratio(2 * common, len(a) + len(b))]


OVERLAP_NAMES = ("contain_ab", "contain_ba", "jaccard", "dice")
