"""Cached embeddings of a user's encoder: computed once per encoder and texts, checked against the encoder when read.

Only an encoder named by a spec ``package.module:function`` is cached (a callable handed over in Python
may be a closure whose behaviour its name does not pin). Its identity is the spec plus a version: the
callable's ``cache_version`` attribute when it declares one, else the SHA-256 of its module's file, so
editing the module invalidates its entries. Each call's texts are keyed by their content hashes, in order. The arrays
live in the per-user cache as :mod:`semsts.corpora.derived_cache` entries, whose files are verified against their
manifest when read. A key cannot see everything an encoder depends on (a module it imports, an environment
variable), nor a manifest signed again over other arrays, so before an entry is read a few of its texts, drawn anew
each run, are encoded again (one call): the entry must then hold floats of the shape the encoder gives,
finite, and agree with it on those texts. One that does not is recomputed with a note, never used.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import sys
import warnings

import numpy as np

from semsts.core.errors import Note
from semsts.core.progress import from_cache
from semsts.corpora.derived_cache import entry_path, file_sha256, read_entry, store_entry
from semsts.corpora.paths import cache_root

from .encoders import ENCODERS, SIF, embed, encoder_name

PROBE = 8  # texts encoded again to check an entry against the encoder as it is now
TOLERANCE = 1e-4  # of a row's norm: float32 encoders differ by far less between batches, a stale entry by far more


def cache_folder():
    return cache_root() / "embeddings"


def identity(spec, encode) -> str | None:
    """The cache identity of the encoder ``spec`` names (``encode``, resolved), or None for one that is not
    cached: anything but a ``package.module:function`` spec or ``minilm``, the other built-in encoders (fast, and
    SIF is fitted on the very texts it embeds), and one whose module file cannot be read."""
    if isinstance(spec, str) and spec in ENCODERS:  # built in: only a slow one declares a version (minilm)
        declared = getattr(ENCODERS[spec], "cache_version", None)
        return f"{spec}@version:{declared}" if declared is not None and encode is ENCODERS[spec] else None
    if not isinstance(spec, str) or ":" not in spec or isinstance(encode, SIF) or hasattr(encode, "for_sentences"):
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
    """One SHA-256 over each text's SHA-256, in order (a lone surrogate, as JSON may hold, hashes as well)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()


def probe_rows(n: int) -> list[int]:
    """The rows of up to :data:`PROBE` of ``n`` texts, drawn anew each run from the system's entropy: nobody who
    edits an entry can know which rows will be checked (the figures never depend on the draw)."""
    rng = np.random.default_rng(secrets.randbits(128))
    return sorted(rng.choice(n, size=min(n, PROBE), replace=False).tolist())


def agree(cached: np.ndarray, fresh: np.ndarray) -> bool:
    """Whether each row of ``cached`` lies within :data:`TOLERANCE` of the norm of the same row of ``fresh``."""
    gap = np.linalg.norm(cached - fresh, axis=1)
    return bool((gap <= TOLERANCE * np.linalg.norm(fresh, axis=1) + 1e-12).all())


def unusable(vectors, n: int, rows: list[int], sample: np.ndarray) -> str | None:
    """Why cached ``vectors`` cannot stand for an encoder's embeddings of ``n`` texts, whose ``rows`` it gives as
    ``sample`` now; None if they can."""
    if not isinstance(vectors, np.ndarray) or not np.issubdtype(vectors.dtype, np.floating):
        return f"{getattr(vectors, 'dtype', type(vectors).__name__)} values, not floats"
    if vectors.shape != (n, sample.shape[1]):
        return f"shape {vectors.shape}, where the encoder gives ({n}, {sample.shape[1]}) for these texts"
    if not np.isfinite(vectors).all():
        return "NaN or infinite values"
    if not agree(vectors[rows], sample):
        return "its rows differ from what the encoder gives for the same texts now"
    return None


def cached_embed(encode, texts: list[str], batch_size: int, *, spec=None):
    """:func:`semsts.features.encoders.embed`, read from the per-user cache when an entry for the encoder
    ``spec`` names and these texts is there and checks out, else computed and stored (no spec: computed)."""
    who = identity(spec, encode) if texts else None
    if who is None:
        return embed(encode, texts, batch_size)
    digest = texts_hash(texts)
    key = {"encoder": who, "texts": digest, "n": len(texts)}
    manifest = entry_path(cache_folder(), "embeddings", key)
    found = rows = sample = None
    if os.path.lexists(manifest):  # an entry to check: the probe first, which gives the width to expect
        rows = probe_rows(len(texts))
        sample = embed(encode, [texts[i] for i in rows], batch_size, shown=False)
        shape = (len(texts), sample.shape[1])

        def expect(name, stored, dtype):
            return None if (name, stored, dtype.kind) == ("vectors", shape, "f") else \
                f"{name} {dtype} {stored}, where the encoder gives float vectors {shape}"
        found = read_entry(manifest, expect=expect)
    if found is not None:
        why = unusable(found[0].get("vectors"), len(texts), rows, sample)
        if why is None:
            from_cache(len(texts), len(texts), cache_folder())
            return found[0]["vectors"]
        warnings.warn(Note(f"embedding cache {manifest}: stale or damaged ({why}); recomputing it"), stacklevel=2)
    vectors = embed(encode, texts, batch_size)
    if sample is not None and not agree(vectors[rows], sample):
        warnings.warn(Note(f"encoder {encoder_name(spec)} gives other embeddings for the same texts from one call to "
                           "the next; they are not cached"), stacklevel=2)
        return vectors
    before = _identity_of(manifest)
    stored = store_entry(manifest, key, {"vectors": vectors})[0]["vectors"]
    after = _identity_of(manifest)
    if after is not None and after != before:  # written now (a cache that cannot be written has said so in a note)
        from_cache(0, len(texts), cache_folder())
    return stored


def _identity_of(path) -> tuple | None:
    """Which file ``path`` is now (device, inode, mtime), None when absent: an entry is written as a new file."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns
