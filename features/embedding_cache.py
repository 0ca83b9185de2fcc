"""Cached embeddings of a user's encoder: computed once per encoder and texts, verified when read.

Only an encoder named by a spec ``package.module:function`` is cached (a callable handed over in Python
may be a closure whose behaviour its name does not pin). Its identity is the spec plus a version: the
callable's ``cache_version`` attribute when it declares one, else the SHA-256 of its module's file, so
editing the module invalidates its entries. Each call's texts are keyed by their content hashes, in order. The arrays
live in the per-user cache through :func:`semsts.corpora.derived.cached_arrays`, which verifies every
file against its manifest when read: a damaged entry is recomputed with a note, never used.
"""
from __future__ import annotations

import hashlib
import sys

from semsts.corpora.derived import cached_arrays, file_sha256
from semsts.corpora.paths import cache_root

from .encoders import ENCODERS, SIF, embed


def cache_folder():
    return cache_root() / "embeddings"


def identity(spec, encode) -> str | None:
    """The cache identity of the encoder ``spec`` names (``encode``, resolved), or None for one that is not
    cached: anything but a ``package.module:function`` spec, the built-in encoders (fast, and SIF is fitted
    on the very texts it embeds), and one whose module file cannot be read."""
    if not isinstance(spec, str) or spec in ENCODERS or ":" not in spec or isinstance(encode, SIF) \
            or hasattr(encode, "for_sentences"):
        return None
    declared = getattr(encode, "cache_version", None)
    if declared is not None:
        return f"{spec}@version:{declared}"
    module = sys.modules.get(spec.partition(":")[0])
    path = getattr(module, "__file__", None)
    try:
        return f"{spec}@file-sha256:{file_sha256(path)}" if path else None
    except OSError:
        return None


def texts_hash(texts) -> str:
    """One SHA-256 over each text's SHA-256, in order."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode("utf-8")).digest())
    return digest.hexdigest()


def cached_embed(encode, texts: list[str], batch_size: int, *, spec=None):
    """:func:`semsts.features.encoders.embed`, read from the per-user cache when an entry for the encoder
    ``spec`` names and these texts is there and verifies, else computed and stored (no spec: computed)."""
    who = identity(spec, encode) if texts else None
    if who is None:
        return embed(encode, texts, batch_size)
    key = {"encoder": who, "texts": texts_hash(texts), "n": len(texts)}
    arrays, _ = cached_arrays(cache_folder(), "embeddings", key,
                              lambda: {"vectors": embed(encode, texts, batch_size)})
    return arrays["vectors"]
