"""Distributional similarity learned in ``fit`` from the training text, no download needed.

IDF-weighted bag-of-words cosine (lemmas and character n-grams) and LSA: a truncated SVD of
the lemma TF-IDF matrix of every distinct training sentence, compared by cosine (the
loadings kept in float16: cosines need no more, and model files stay small).
"""
from __future__ import annotations

import copy
import re
import weakref
from itertools import chain

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfTransformer, TfidfVectorizer
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


GRAM_WORDS = 1 << 17  # words whose n-gram columns are kept, per vectorizer
WHITESPACE_RUNS = re.compile(r"\s\s+")  # what scikit-learn's char_wb analyzer turns into one space first
_grams: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_weighting: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def tfidf(vectorizer: TfidfVectorizer, docs: list):
    """``vectorizer.transform(docs)``, the same matrix to the bit (``tests/test_features.py`` compares the two on
    every row), through public API only: the documents' tokens (a ``char_wb`` vectorizer's n-grams a word at a time,
    each word's columns looked up once and kept; an analyzer function's tokens) counted in numpy, then weighted by a
    :class:`TfidfTransformer` holding the vectorizer's settings and ``idf_``. scikit-learn's own loop looks up every
    n-gram of every text in Python, about three times as slow (``benchmarks/RESULTS.md``)."""
    if not docs or vectorizer.binary or not (callable(vectorizer.analyzer) or vectorizer.analyzer == "char_wb"):
        return vectorizer.transform(docs)
    vocabulary = vectorizer.vocabulary_
    if callable(vectorizer.analyzer):
        columns = [[vocabulary[t] for t in vectorizer.analyzer(vectorizer.decode(doc)) if t in vocabulary] for doc in docs]
    else:
        known = _grams.setdefault(vectorizer, {})
        preprocess, (lo, hi) = vectorizer.build_preprocessor(), vectorizer.ngram_range
        columns = []
        for doc in docs:
            found: list = []
            for word in WHITESPACE_RUNS.sub(" ", preprocess(vectorizer.decode(doc))).split():
                grams = known.get(word)
                if grams is None:
                    if len(known) >= GRAM_WORDS:  # bounded: a user's data may hold any number of words
                        known.clear()
                    grams = known[word] = [vocabulary[g] for g in wb_grams(word, lo, hi) if g in vocabulary]
                found += grams
            columns.append(found)
    if vectorizer not in _weighting:
        weighting = TfidfTransformer(norm=vectorizer.norm, use_idf=vectorizer.use_idf, smooth_idf=vectorizer.smooth_idf,
                                     sublinear_tf=vectorizer.sublinear_tf)
        if vectorizer.use_idf:
            weighting.idf_ = vectorizer.idf_
        _weighting[vectorizer] = weighting
    return _weighting[vectorizer].transform(counts(columns, len(vocabulary), vectorizer.dtype), copy=False)


def wb_grams(word: str, lo: int, hi: int) -> list:
    """scikit-learn's ``char_wb`` n-grams of one word: of `` word ``, each length once it fits, else the whole once."""
    padded = f" {word} "
    out = []
    for n in range(lo, hi + 1):
        if len(padded) <= n:
            out.append(padded)
            break
        out += [padded[i:i + n] for i in range(len(padded) - n + 1)]
    return out


def counts(columns: list, width: int, dtype):
    """The count matrix of documents given as lists of their tokens' columns, as scikit-learn's ``CountVectorizer``
    builds it (``intc`` counts, int32 indices unless more are needed, indices sorted within each row)."""
    lengths = np.fromiter(map(len, columns), dtype=np.int64, count=len(columns))
    keys = np.repeat(np.arange(len(columns), dtype=np.int64), lengths) * width + \
        np.fromiter(chain.from_iterable(columns), dtype=np.int64, count=int(lengths.sum()))
    found, repeats = np.unique(keys, return_counts=True)
    rows, cols = np.divmod(found, width)
    indptr = np.searchsorted(rows, np.arange(len(columns) + 1))
    index = np.int32 if len(found) <= np.iinfo(np.int32).max else np.int64
    matrix = sp.csr_array((repeats.astype(np.intc), cols.astype(index), indptr.astype(index)),
                          shape=(len(columns), width), dtype=dtype)
    matrix.sort_indices()
    return matrix


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
        matrix = tfidf(self.words_, texts)
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
        wa, wb = tfidf(self.words_, left), tfidf(self.words_, right)
        ca, cb = tfidf(self.chars_, left), tfidf(self.chars_, right)
        loadings = self.lsa_.T.astype(np.float64)
        la, lb = unit_rows(wa @ loadings), unit_rows(wb @ loadings)
        return np.column_stack([rowwise_cosine(wa, wb), rowwise_cosine(ca, cb), rowwise_cosine(la, lb)])
