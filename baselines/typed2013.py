"""Systems for the *SEM 2013 TYPED pilot: one score per similarity type, an (n, 8) array per predict."""
from __future__ import annotations

import numpy as np

from semsts.core.errors import InvalidValue
from semsts.corpora import FormatError
from semsts.corpora.typed2013 import parse_record

from .base import PairRegressor, check_pairs, check_params


class TypedPairRegressor(PairRegressor):
    """Base for TYPED systems: pairs are Europeana record texts, ``predict`` gives ``(n, 8)`` scores
    in the column order of ``corpora.typed2013.TYPES``; ``y`` for ``fit`` is ``(n, 8)`` or None.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True  # eight scores per pair
        tags.target_tags.single_output = False
        return tags

    def fit(self, X, y=None):
        check_params(self)  # a bad parameter is named before the records are read
        self._check_records(X)
        return super().fit(X, y)

    def predict(self, X) -> np.ndarray:
        self._check_records(X)
        return super().predict(X)

    def _check_records(self, X) -> None:
        """Refuse sentence pairs: a TYPED system reads record texts (``FIELD:<TAB>value`` lines)."""
        for i, pair in enumerate(check_pairs(X)):
            for text in pair:
                try:
                    parse_record(text)
                except FormatError as exc:
                    raise InvalidValue(f"{type(self).__name__} is a TYPED system: it scores pairs of Europeana "
                                       f"records (typed2013-train/-test), but X[{i}] holds a text that is not a "
                                       f"record ({exc.message})") from None


def is_typed(system) -> bool:
    """Whether ``system`` scores the eight TYPED types rather than one similarity."""
    return isinstance(system, TypedPairRegressor)
