"""Word meaning from WordLlama's static vectors (:mod:`semsts.corpora.wordllama`): BERTScore's greedy
matching with static vectors in place of contextual ones, and SIF sentence vectors with their common
component removed.

A word's vector is the mean of its Llama 2 tokens' rows, so no word is out of vocabulary. Case is kept on
the ``words`` level (Llama's vocabulary is cased) and lemmas are compared on the ``content`` level.
"""
from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from semsts.corpora.wordllama import word_vectors

from .base import PairFeatures, text_input_tags
from .batched import Sides, split_empty_sides
from .blas_free import products, row_dots
from .embedding import best_matches, sif_weight
from .encoders import first_component
from .text import is_word
from .weighted import information_content
from .wordnet_features import harmonic

LEVELS = ("words", "content")


def level_words(analysis, level: str) -> list:
    """The words a level reads: word tokens with their case (``words``), or content lemmas (``content``)."""
    if level == "words":
        return [t for t in analysis.tokens if is_word(t)]
    return list(analysis.content)


def _ic(words) -> np.ndarray:
    return np.asarray([information_content(w.lower()) for w in words], dtype=float)


def _scores(p: float, r: float, ic_p: float, ic_r: float) -> list:
    """The two sides' matching in either order (a pair has no first side): smaller, larger, harmonic mean."""
    return [min(p, r), max(p, r), harmonic(p, r), min(ic_p, ic_r), max(ic_p, ic_r), harmonic(ic_p, ic_r)]


class StaticAlignment(PairFeatures):
    """BERTScore with static vectors: each word's best cosine to a word of the other side (negatives cut to 0,
    the same word 1), averaged over each side plainly and weighted by information content; per level the
    smaller and larger side's figure and their harmonic mean (BERTScore's F), plain then IC-weighted."""

    reads_head = True  # quadratic in the text: reads each side's first 5,000 characters (text.MAX_CHARS)
    MEASURES = ("min", "max", "f", "ic_min", "ic_max", "ic_f")

    def _names(self):
        return [f"{level}_{m}" for level in LEVELS for m in self.MEASURES]

    def transform(self, X):
        analyses = self.analyses(X)
        out = np.empty((len(analyses), len(self._names())))
        width = len(self.MEASURES)
        for k, level in enumerate(LEVELS):
            sides = [(level_words(a, level), level_words(b, level)) for a, b in analyses]
            out[:, width * k:width * (k + 1)] = split_empty_sides(sides, width, _one_sided, _level_rows)
        return out

def _one_sided(la, lb) -> list:
    """The measures of a pair with an empty side: every one 1 for two empty sides, else 0."""
    return [float(la == lb)] * len(StaticAlignment.MEASURES)


def _level_rows(sides: list) -> np.ndarray:
    """:class:`StaticAlignment`'s measures of one level for each pair ``(words of a, words of b)``, both sides
    with words, a chunk at once."""
    rows = np.empty((len(sides), len(StaticAlignment.MEASURES)))
    a, b = Sides.of([la for la, _ in sides]), Sides.of([lb for _, lb in sides])
    ma, mb = best_matches(a, b, word_vectors(a.words, unit=True), word_vectors(b.words, unit=True))
    wa, wb = _ic(a.words), _ic(b.words)
    sums, means = (lambda x: x.sum(axis=1)), (lambda x: x.mean(axis=1))
    mean_a, mean_b = a.reduced(ma, means), b.reduced(mb, means)
    dot_a, dot_b = a.reduced(products(ma, wa), sums), b.reduced(products(mb, wb), sums)
    ic_a, ic_b = a.reduced(wa, sums), b.reduced(wb, sums)
    for k in range(len(sides)):
        rows[k] = _scores(float(mean_a[k]), float(mean_b[k]),
                          float(dot_a[k]) / float(ic_a[k]) if ic_a[k] else 0.0,
                          float(dot_b[k]) / float(ic_b[k]) if ic_b[k] else 0.0)
    return rows


SIF_WORDS = 1 << 12  # words whose vectors are weighed at once: about 8 MB of 256-dimensional rows


def sif_vectors(sides: list) -> np.ndarray:
    """SIF's weighted mean of each list of words' vectors (``a / (a + p(w))``, Arora et al. 2017; zeros for no word),
    as rows, a stack of sides of one length at once, in parts of about :data:`SIF_WORDS` words (a longer side alone):
    each row is reduced alone (:mod:`.batched`), so the parts give the bits of one call in bounded memory (a chunk of
    long texts, or a model's training texts, held hundreds of MB of weighed vectors at once)."""
    out = np.zeros((len(sides), word_vectors([]).shape[1]))
    start = 0
    while start < len(sides):
        stop, words = start + 1, len(sides[start])
        while stop < len(sides) and words + len(sides[stop]) <= SIF_WORDS:
            words += len(sides[stop])
            stop += 1
        out[start:stop] = _sif_part(sides[start:stop])
        start = stop
    return out


def _sif_part(sides: list) -> np.ndarray:
    s = Sides.of(sides)
    weights = np.asarray([sif_weight(w.lower()) / n for side in sides for w in side for n in (len(side),)], dtype=float)
    width = (word_vectors([]).shape[1],)
    return s.reduced(products(weights[:, None], word_vectors(s.words)), lambda x: x.sum(axis=1), width)


def removed_cosines(a: np.ndarray, b: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Row i: the cosine of ``a[i]`` and ``b[i]`` once their projections on the unit vector ``u`` are removed."""
    ra = a - products(a, u).sum(axis=-1)[:, None] * u
    rb = b - products(b, u).sum(axis=-1)[:, None] * u
    norms = np.sqrt(row_dots(ra, ra)) * np.sqrt(row_dots(rb, rb))
    dots = row_dots(ra, rb)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


class StaticSIF(PairFeatures):
    """Cosine of the two sides' SIF vectors after removing their projection on the first singular vector of the
    training texts' SIF vectors (Arora et al. 2017's common component, fitted in ``fit``), per level."""

    learns_from_text = True  # refitted inside each CV fold (baselines.model_search.fold_matrices)

    def _names(self):
        return [f"{level}_sif_cosine" for level in LEVELS]

    def __sklearn_tags__(self):
        return text_input_tags(super().__sklearn_tags__(), requires_fit=True)

    def fit(self, X, y=None):
        texts = sorted({t for pair in X for t in pair})
        if not texts:
            raise ValueError("StaticSIF fits its common component on text pairs: got none")
        analyses = [a for a, _ in self.analyses([(t, t) for t in texts])]
        self.components_ = np.stack([first_component(sif_vectors([level_words(a, level) for a in analyses]))
                                     for level in LEVELS])
        return self

    def transform(self, X):
        check_is_fitted(self, "components_")
        pairs = [tuple(p) for p in X]
        texts = list(dict.fromkeys(t for pair in pairs for t in pair))
        row = {t: i for i, t in enumerate(texts)}
        analyses = [a for a, _ in self.analyses([(t, t) for t in texts])]
        out = np.empty((len(pairs), len(LEVELS)))
        for k, (level, u) in enumerate(zip(LEVELS, self.components_)):
            vectors = sif_vectors([level_words(a, level) for a in analyses])
            out[:, k] = removed_cosines(vectors[[row[a] for a, _ in pairs]], vectors[[row[b] for _, b in pairs]], u)
        return out
