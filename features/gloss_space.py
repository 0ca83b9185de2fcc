"""Word vectors from WordNet's own text: LSA over the glosses, examples and lemma names of every synset.

A distributional space that needs no download: built once from WordNet 3.0 (about a minute),
then kept in the per-user cache as ``features/wordnet_gloss_lsa_*.npz`` keyed by the WordNet
source and the build parameters.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache

import numpy as np

import corpora
from corpora.paths import cache_root
from corpora.wordnet import source, wordnet

from .text import analyse

DIMENSIONS = 150
VERSION = 1


def synset_text(synset) -> str:
    names = " ".join(n.replace("_", " ") for n in synset.lemma_names())
    return " ".join([names, synset.definition(), *synset.examples()])


def _each_synset_once(keep: int = 5000):
    """All synsets, letting NLTK's reader keep no more than ``keep`` of them parsed at a time (it
    would otherwise hold all 117,659 for the rest of the process: about 400 MB)."""
    wn = wordnet()
    for i, synset in enumerate(wn.all_synsets(), 1):
        yield synset
        if i % keep == 0:
            for parsed in wn._synset_offset_cache.values():
                parsed.clear()


def build(*, dimensions: int = DIMENSIONS, progress=None) -> tuple[list, np.ndarray]:
    """Vocabulary and unit-length term vectors of a truncated SVD of the synset-by-lemma TF-IDF matrix."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer
    synsets = _each_synset_once()
    # analyse's per-text cache is for sentence pairs; 117k glosses seen once would only fill it
    docs = [analyse.__wrapped__(synset_text(s)).lemmas for s in (progress(synsets) if progress else synsets)]
    vectorizer = TfidfVectorizer(analyzer=lambda doc: doc, min_df=2, sublinear_tf=True)
    matrix = vectorizer.fit_transform(docs)
    svd = TruncatedSVD(n_components=dimensions, random_state=0).fit(matrix)
    vectors = (svd.components_.T * svd.singular_values_).astype(np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return list(vectorizer.get_feature_names_out()), vectors


def cache_file(*, dimensions: int = DIMENSIONS):
    key = json.dumps({"origin": source().origin, "dimensions": dimensions, "version": VERSION}, sort_keys=True)
    return cache_root() / "features" / f"wordnet_gloss_lsa_{hashlib.sha256(key.encode()).hexdigest()[:16]}.npz"


@lru_cache(maxsize=2)
def gloss_space(*, dimensions: int = DIMENSIONS) -> tuple[dict, np.ndarray]:
    """``(word → row, vectors)``, read from the cache or built and cached on first use."""
    path = cache_file(dimensions=dimensions)
    if not path.is_file():
        vocabulary, vectors = build(dimensions=dimensions)
        with corpora.atomic_open(path, "wb") as handle:
            np.savez(handle, vocabulary=np.asarray(vocabulary), vectors=vectors)
    with np.load(path) as data:
        vocabulary, vectors = data["vocabulary"].tolist(), data["vectors"]
    return {w: i for i, w in enumerate(vocabulary)}, vectors
