"""Cached scores of a user's pair scorer, kept per pair, by contract: only for a scorer that declares its version
(its ``cache_version`` attribute, or ``--cache-version V``), as :mod:`semsts.features.embedding_cache` keeps
embeddings; any other scorer is computed afresh each run.

One store for each scorer identity (its spec and declared version) holds each pair's SHA-256 and its score, sorted.
A run scores only the pairs its scorer's store lacks, whatever dataset, command or model feature scored the others,
and merges them in: the store is written whole to a temporary file and renamed over the old one
(:func:`semsts.corpora.derived_cache.save_array`), so a crash or two runs writing at once leave one whole store,
never a mixture; a store that cannot be read is said in a note and replaced by the next write.
"""
from __future__ import annotations

import numpy as np

from semsts.core.progress import from_cache
from semsts.corpora.derived_cache import entry_path, load_array, save_array
from semsts.corpora.paths import cache_root

from .embedding_cache import declared_version, texts_hash
from .scorers import load_scorer, score_pairs

CACHE = "pair-score cache"
ROW = np.dtype([("pair", "S32"), ("score", "<f8")])  # a store's row: the pair's SHA-256 and its score


def scores_folder():
    return cache_root() / "pair-scores"


def store_path(identity: str):
    """The store of the scorer ``identity`` (named by a hash of it: a spec holds characters no file name should)."""
    return entry_path(scores_folder(), "pair-scores", {"scorer": identity}, ".npy")


def scorer_version(spec: str, score=None) -> str | None:
    """The version the scorer ``spec`` names (``score``, else imported) declares, as a model card records it:
    ``version:V`` for its ``cache_version``; None when it declares none."""
    declared = getattr(load_scorer(spec) if score is None else score, "cache_version", None)
    return None if declared is None else f"version:{declared}"


def pair_hash(pair) -> bytes:
    """The SHA-256 over the SHA-256 of each of the pair's two texts, in order (:func:`texts_hash`, as bytes)."""
    return bytes.fromhex(texts_hash(pair))


def cached_scores(score, pairs: list, batch_size=None, *, spec=None, version=None) -> np.ndarray:
    """:func:`semsts.features.scorers.score_pairs` of ``pairs`` (distinct), each pair's score read from the store of
    the scorer ``spec`` names when it declares its version (``version``, else its ``cache_version``) and the store
    holds the pair; the others scored, ``batch_size`` a call, and kept (no spec, no version: all scored, none kept)."""
    declared = None
    if pairs and isinstance(spec, str):
        declared = declared_version(spec, score, version, what="scorer", values="scores")
    if declared is None:
        return score_pairs(score, pairs, batch_size)
    path = store_path(f"{spec}@version:{declared}")
    keys = np.array([pair_hash(pair) for pair in pairs], dtype="S32")
    stored = load_array(path)
    stored = np.zeros(0, dtype=ROW) if stored is None or stored.dtype != ROW else stored
    where = np.minimum(np.searchsorted(stored["pair"], keys), max(len(stored) - 1, 0))
    hit = stored["pair"][where] == keys if len(stored) else np.zeros(len(keys), dtype=bool)
    values = np.zeros(len(pairs))
    values[hit] = stored["score"][where[hit]]
    todo = np.flatnonzero(~hit)
    written = False
    if len(todo):
        values[todo] = score_pairs(score, [pairs[i] for i in todo], batch_size)
        rows = np.concatenate([np.rec.fromarrays([keys[todo], values[todo]], dtype=ROW).view(np.ndarray), stored])
        written = save_array(path, rows[np.unique(rows["pair"], return_index=True)[1]])  # sorted, ours first
    if written or len(todo) < len(pairs):
        from_cache(len(pairs) - len(todo), len(pairs), scores_folder(), unit="pair scores", cache=CACHE)
    return values
