"""Cached embeddings, by contract: an encoder's embeddings are kept only when it declares the version of what it
computes (a pair scorer's scores are kept per pair by the same rule: :mod:`semsts.features.pair_score_cache`).

The built-in ``minilm`` declares its version (its pinned model files and the versions of the libraries that run
them); the other built-in encoders are fast and computed afresh. A user's encoder named by a spec
``package.module:function`` is cached when the callable has a ``cache_version`` attribute or the command names one
(``--cache-version V``): the user changes it when the embeddings change. Anything else (no version, a callable handed
over in Python) is computed afresh each run, so what no key sees (a model chosen by an environment variable, a
module it imports) can never serve stale figures. An entry is keyed by the spec, that version and the SHA-256 of
each text, in order, and is one ``.npy`` file written whole and renamed into place
(:func:`semsts.corpora.derived_cache.save_array`): a crash or two runs at once never leave a half-written entry,
and one that cannot be read is computed again with a note. ``joblib.Memory`` is not used: it keys a call on the
function's source and its pickled arguments, where the key here is a declared version, and the pair-score store
merges pairs into one file, which it does not do.
"""
from __future__ import annotations

import hashlib
import warnings

from semsts.core.errors import Note
from semsts.core.progress import from_cache
from semsts.corpora.derived_cache import entry_path, load_array, save_array
from semsts.corpora.paths import cache_root

from .encoders import ENCODERS, embed

CACHE = "embedding cache"


def cache_folder():
    return cache_root() / "embeddings"


def declared_version(spec, fn, version=None, *, what: str = "encoder", values: str = "embeddings") -> str | None:
    """The version the user declares for the ``what`` ``fn`` that ``spec`` names: ``version`` (a str, as
    ``--cache-version`` gives it) else ``fn.cache_version``; None when it has none, said in a note saying how to
    declare one (once: Python shows a warning once for each message and place)."""
    declared = version if isinstance(version, str) else getattr(fn, "cache_version", None)
    if declared is None:
        warnings.warn(Note(f"{what} {spec} declares no cache_version: its {values} are computed afresh, not cached "
                           "(give it a cache_version attribute, or pass --cache-version V, to cache them)"),
                      stacklevel=2)
    return None if declared is None else str(declared)


def identity(spec, encode, version=None) -> str | None:
    """The cache identity of the encoder ``spec`` names (``encode``, resolved), or None for one that is not cached:
    the built-in encoders but ``minilm``, a callable handed over without a spec, a user's encoder without a declared
    version (``version``, else its ``cache_version`` attribute)."""
    if isinstance(spec, str) and spec in ENCODERS:
        declared = getattr(ENCODERS[spec], "cache_version", None)
        return f"{spec}@version:{declared}" if declared is not None and encode is ENCODERS[spec] else None
    if not isinstance(spec, str) or ":" not in spec:
        return None
    declared = declared_version(spec, encode, version)
    return None if declared is None else f"{spec}@version:{declared}"


def texts_hash(texts) -> str:
    """One SHA-256 over each text's SHA-256, in order (a lone surrogate, as JSON may hold, hashes as well)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()


def cached_embed(encode, texts: list[str], batch_size: int, *, spec=None, version=None):
    """:func:`semsts.features.encoders.embed`, read from the per-user cache when the encoder ``spec`` names is
    cached (:func:`identity`, ``version`` a version the command declares) and an entry for these texts is there,
    else computed (and kept, when it is cached)."""
    who = identity(spec, encode, version) if texts else None
    if who is None:
        return embed(encode, texts, batch_size)
    path = entry_path(cache_folder(), "embeddings", {"encoder": who, "texts": texts_hash(texts), "n": len(texts)},
                      ".npy")
    found = load_array(path)
    if found is not None:
        from_cache(len(texts), len(texts), cache_folder(), unit="texts", cache=CACHE)
        return found
    values = embed(encode, texts, batch_size)
    if save_array(path, values):
        from_cache(0, len(texts), cache_folder(), unit="texts", cache=CACHE)
    return values
