"""Distributional similarity learned in ``fit`` from the training text, no download needed.

IDF-weighted bag-of-words cosine (lemmas and character n-grams) and LSA: a truncated SVD of
the lemma TF-IDF matrix of every distinct training sentence, compared by cosine (the
loadings kept in float16: cosines need no more, and model files stay small).
"""
from __future__ import annotations

import copy

import numpy as np
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.utils.validation import check_is_fitted

from .base import PairFeatures, text_input_tags
from .blas_free import row_dots, unit_rows
from .text import analyse


def lemma_tokens(text: str) -> tuple:
    """The analyzer of the word vectorizers: the cached lemmas of the text."""
    return analyse(text).lemmas


def char_text(text: str) -> str:
    return " ".join(analyse(text).words)


VECTORIZERS, PACKED = ("words_", "chars_"), "vocabularies_packed"


def vocabulary_terms(vocabulary) -> list | None:
    """A fitted vectorizer's terms in the order of their columns (``vocabulary_`` maps them to 0..n-1), or None."""
    if not isinstance(vocabulary, dict) or sorted(vocabulary.values()) != list(range(len(vocabulary))):
        return None
    return sorted(vocabulary, key=vocabulary.__getitem__)


def pack_terms(terms: list) -> tuple[np.ndarray, np.ndarray]:
    """Terms as one array of their UTF-8 bytes and one of where each ends (any string, no separator needed)."""
    encoded = [t.encode("utf-8", "surrogatepass") for t in terms]
    return np.frombuffer(b"".join(encoded), dtype=np.uint8).copy(), np.cumsum([len(e) for e in encoded], dtype=np.int64)


def unpack_terms(data: np.ndarray, ends: np.ndarray) -> list:
    """The terms :func:`pack_terms` packed."""
    blob, bounds = np.asarray(data, dtype=np.uint8).tobytes(), [0, *np.asarray(ends, dtype=np.int64).tolist()]
    return [blob[a:b].decode("utf-8", "surrogatepass") for a, b in zip(bounds, bounds[1:])]


def rowwise_cosine(a, b) -> np.ndarray:
    """Cosine of row i of a with row i of b (rows already L2-normalized), sparse or dense."""
    if hasattr(a, "multiply"):
        return np.asarray(a.multiply(b).sum(axis=1), dtype=float).ravel()
    return row_dots(a, b)


class Distributional(PairFeatures):
    """Cosines of lemma TF-IDF, character n-gram TF-IDF and LSA vectors fitted on the training text."""

    learns_from_text = True  # refitted inside each CV fold (baselines.model_search.fold_matrices)

    def __init__(self, n_components: int = 100, random_state: int = 0):
        self.n_components = n_components
        self.random_state = random_state

    def _names(self):
        return ["idf_cosine", "char_idf_cosine", "lsa_cosine"]

    def __sklearn_tags__(self):
        return text_input_tags(super().__sklearn_tags__(), requires_fit=True)

    def fit(self, X, y=None):
        texts = sorted({t for pair in X for t in pair})
        self.words_ = TfidfVectorizer(analyzer=lemma_tokens, sublinear_tf=True).fit(texts)
        self.chars_ = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True,
                                      preprocessor=char_text).fit(texts)
        matrix = self.words_.transform(texts)
        k = max(1, min(self.n_components, matrix.shape[1] - 1, len(texts) - 1))
        svd = TruncatedSVD(n_components=k, random_state=self.random_state).fit(matrix)
        self.lsa_ = svd.components_.astype(np.float16)  # term loadings; float16 keeps model files small
        return self

    def __getstate__(self):
        """The fitted vectorizers' vocabularies (tens of thousands of terms) as arrays (see :func:`pack_terms`):
        a model file's schema then holds two arrays, not a node per term (loading took 0.8 s, now 0.02 s)."""
        state = dict(super().__getstate__())  # a copy: object.__getstate__ gives the live __dict__
        packed = {}
        for name in VECTORIZERS:
            vectorizer = state.get(name)
            terms = vocabulary_terms(getattr(vectorizer, "vocabulary_", None))
            if terms is not None:
                state[name] = copy.copy(vectorizer)
                del state[name].vocabulary_
                packed[name] = pack_terms(terms)
        if packed:
            state[PACKED] = packed
        return state

    def __setstate__(self, state):
        state = dict(state)
        for name, (data, ends) in state.pop(PACKED, {}).items():
            state[name].vocabulary_ = {term: i for i, term in enumerate(unpack_terms(data, ends))}
        super().__setstate__(state)

    def transform(self, X):
        check_is_fitted(self, "lsa_")
        left, right = [a for a, _ in X], [b for _, b in X]
        if not left:
            return np.zeros((0, len(self._names())))
        wa, wb = self.words_.transform(left), self.words_.transform(right)
        ca, cb = self.chars_.transform(left), self.chars_.transform(right)
        loadings = self.lsa_.T.astype(np.float64)
        la, lb = unit_rows(wa @ loadings), unit_rows(wb @ loadings)
        return np.column_stack([rowwise_cosine(wa, wb), rowwise_cosine(ca, cb), rowwise_cosine(la, lb)])
