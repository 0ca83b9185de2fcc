"""Word vectors from WordNet's own text: LSA over the glosses, examples and lemma names of every synset.

A distributional space that needs no download. A truncated SVD gives other last bits under other
BLAS kernels and library releases, and a model's trees can split on them, so the space built from
Debian's WordNet 3.0 ships with the suite (``data/``, float16, named by its SHA-256 in model cards): every machine
whose WordNet has the same content uses the same bits. With another WordNet (NLTK's copy, a
``WORDNET_DIR``) it is built once (about a minute) and kept in the per-user cache
(:mod:`semsts.corpora.derived_cache`: keyed by WordNet's content and the build parameters, verified when read).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from semsts.corpora.derived_cache import cached_arrays, content_hash, key_hash
from semsts.corpora.paths import cache_root
from semsts.corpora.wordnet import content_sha256 as wordnet_sha256
from semsts.corpora.wordnet import wordnet

from .text import analysis

DIMENSIONS = 150
VERSION = 2  # 2: float16 vectors
SHIPPED = Path(__file__).parent / "data" / "wordnet_gloss_lsa.npz"
SHIPPED_SHA256 = "b7ee3111be0f21cf91581a3a84b00f2e5d061ef75791e0fa9df23a3a6f646704"
SHIPPED_DIGEST = content_hash({"shipped": SHIPPED_SHA256})  # what a model card records of the shipped space


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
    docs = [analysis(synset_text(s)).lemmas for s in (progress(synsets) if progress else synsets)]
    vectorizer = TfidfVectorizer(analyzer=lambda doc: doc, min_df=2, sublinear_tf=True)
    matrix = vectorizer.fit_transform(docs)
    svd = TruncatedSVD(n_components=dimensions, random_state=0).fit(matrix)
    vectors = (svd.components_.T * svd.singular_values_).astype(np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return list(vectorizer.get_feature_names_out()), vectors.astype(np.float16)


def _key(dimensions: int) -> dict:
    return {"wordnet": wordnet_sha256(), "dimensions": dimensions, "version": VERSION}


def _shipped_fits(dimensions: int) -> bool:
    """Whether the shipped space was built from this WordNet with these parameters (its key alone read)."""
    if dimensions != DIMENSIONS or not SHIPPED.is_file():
        return False
    with np.load(SHIPPED, allow_pickle=False) as data:
        return str(data["key"]) == key_hash(_key(dimensions))  # else another WordNet: build from it


def _shipped(dimensions: int) -> tuple[dict, str] | None:
    """The shipped space, if it was built from this WordNet with these parameters."""
    if not _shipped_fits(dimensions):
        return None
    with np.load(SHIPPED, allow_pickle=False) as data:
        arrays = {"vocabulary": data["vocabulary"], "vectors": data["vectors"]}
    return arrays, SHIPPED_DIGEST


@lru_cache(maxsize=2)
def _cached(dimensions: int) -> tuple[dict, np.ndarray, str]:
    shipped = _shipped(dimensions)
    if shipped is not None:
        arrays, digest = shipped
        return {w: i for i, w in enumerate(arrays["vocabulary"].tolist())}, arrays["vectors"], digest

    def build_arrays():
        vocabulary, vectors = build(dimensions=dimensions)
        return {"vocabulary": np.asarray(vocabulary), "vectors": vectors}
    arrays, digest = cached_arrays(cache_root() / "features", "wordnet_gloss_lsa", _key(dimensions), build_arrays)

    vocabulary, vectors = arrays["vocabulary"].tolist(), arrays["vectors"]
    return {w: i for i, w in enumerate(vocabulary)}, vectors, digest


def is_built(*, dimensions: int = DIMENSIONS) -> bool:
    """Whether this WordNet's gloss space is shipped or cached (else first use builds it, about a minute)."""
    return _shipped_fits(dimensions) or (cache_root() / "features" / f"wordnet_gloss_lsa_{key_hash(_key(dimensions))}.json").is_file()


def gloss_space(*, dimensions: int = DIMENSIONS) -> tuple[dict, np.ndarray]:
    """``(word → row, vectors)``, read from the cache (verified) or built and cached on first use."""
    index, vectors, _ = _cached(dimensions)
    return index, vectors


def content_sha256(*, dimensions: int = DIMENSIONS) -> str:
    """The SHA-256 of the gloss space in use (a model card records it: the space is built on each machine); the
    shipped space's without loading it (a command whose workers featurize need not hold it)."""
    return SHIPPED_DIGEST if _shipped_fits(dimensions) else _cached(dimensions)[2]
