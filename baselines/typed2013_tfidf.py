"""The TYPED organizers' baseline: per type, the cosine of TF-IDF vectors of that type's items.

General compares the words of all fields, author those of dcCreator, subject and description
those of their fields; people, time, location and event compare what the extractors of
``features.typed2013`` find in all fields. IDF is learned in ``fit`` from the records given.
"""
from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from semsts.core.stats import checked_range
from semsts.corpora.typed2013 import TYPES
from semsts.features.typed2013 import TypedFields

from .base import NONE, either, instance_of, rescale, with_methods
from .typed2013 import TypedPairRegressor


def _identity(items):
    return items


class TypedTfidf(TypedPairRegressor):
    """Cosine of per-type TF-IDF vectors put on ``score_range``, the range its scores live in (× 5 on (0, 5));
    ``fields`` (a TypedFields) holds the extractors."""

    param_rules = {"fields": either(with_methods("transform"), NONE), "score_range": instance_of(tuple, list)}

    def __init__(self, fields=None, score_range=(0.0, 5.0)):
        self.fields = fields
        self.score_range = score_range

    def items(self, texts) -> dict:
        """``{record text: {type: items}}``, each distinct record extracted once."""
        distinct = list(dict.fromkeys(texts))
        fields = self.fields if self.fields is not None else TypedFields()
        return dict(zip(distinct, fields.transform(distinct)))

    def _fit(self, pairs, y) -> None:
        checked_range(self.score_range)  # a bad range is refused at fit, not at the first predict
        items = self.items([text for pair in pairs for text in pair])
        self.vectorizers_ = {}
        for kind in TYPES:
            docs = [found[kind] for found in items.values()]
            self.vectorizers_[kind] = (TfidfVectorizer(analyzer=_identity, lowercase=False).fit(docs)
                                       if any(docs) else None)

    def _predict(self, pairs):
        items = self.items([text for pair in pairs for text in pair])
        scores = np.zeros((len(pairs), len(TYPES)))
        for j, kind in enumerate(TYPES):
            vectorizer = self.vectorizers_[kind]
            if vectorizer is None or not pairs:
                continue
            a = vectorizer.transform([items[x][kind] for x, _ in pairs])
            b = vectorizer.transform([items[y][kind] for _, y in pairs])
            scores[:, j] = np.asarray(a.multiply(b).sum(axis=1)).ravel()
        return rescale(np.clip(scores, 0.0, 1.0), (0.0, 1.0), checked_range(self.score_range))
