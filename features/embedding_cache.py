"""Cached embeddings of a user's encoder: computed once per encoder and texts, checked against the encoder when read
(a pair scorer's scores are kept per pair, by the same identity: :mod:`semsts.features.pair_score_cache`).

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
from dataclasses import dataclass
from typing import Callable

import numpy as np

from semsts.core.errors import Note
from semsts.core.progress import from_cache
from semsts.corpora.derived_cache import entry_path, file_sha256, read_entry, store_entry
from semsts.corpora.paths import cache_root

from .encoders import ENCODERS, SIF, embed, encoder_name

PROBE = 8  # texts encoded (pairs scored) again to check an entry against the encoder as it is now
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
    if isinstance(encode, SIF) or hasattr(encode, "for_sentences"):
        return None
    return callable_identity(spec, encode)


def callable_identity(spec, fn) -> str | None:
    """The cache identity of the callable ``fn`` a ``package.module:function`` ``spec`` names: the spec with its
    ``cache_version`` attribute, else with the SHA-256 of its module's file; None for anything else (no spec, a
    module whose file cannot be read)."""
    if not isinstance(spec, str) or ":" not in spec:
        return None
    declared = getattr(fn, "cache_version", None)
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


def unusable(values, n: int, rows: list[int], sample: np.ndarray, kind=None) -> str | None:
    """Why cached ``values`` cannot stand for a callable's arrays of ``n`` items, whose ``rows`` it gives as
    ``sample`` now (``kind``: an :class:`EntryKind`, embeddings by default); None if they can."""
    kind = kind or EMBEDDINGS
    if not isinstance(values, np.ndarray) or not np.issubdtype(values.dtype, np.floating):
        return f"{getattr(values, 'dtype', type(values).__name__)} values, not floats"
    shape = (n, *sample.shape[1:])
    if values.shape != shape:
        return f"shape {values.shape}, where the {kind.who} gives {shape} for these {kind.items}"
    if not np.isfinite(values).all():
        return "NaN or infinite values"
    if not kind.agree(values[rows], sample):
        return f"its rows differ from what the {kind.who} gives for the same {kind.items} now"
    return None


@dataclass(frozen=True)
class EntryKind:
    """One kind of entry the cache holds: the arrays a callable named by a spec computes from a list of items."""

    folder: Callable  # () -> the folder its entries live in
    name: str  # the entries' name in that folder (:func:`semsts.corpora.derived_cache.entry_path`)
    who: str  # the key's field naming the callable, as messages name it: "encoder", "scorer"
    items: str  # the key's field of the items' hash: "texts", "pairs"
    array: str  # the array's name in an entry
    values: str  # what the callable gives: "embeddings", "scores"
    unit: str  # what a note counts: "texts", "pair scores"
    cache: str  # how notes name the cache
    compute: Callable  # (callable, items, batch_size, shown=...) -> array, one row per item
    digest: Callable  # items -> their hash, in order
    agree: Callable  # (cached rows, fresh rows) -> whether they agree


def cached_embed(encode, texts: list[str], batch_size: int, *, spec=None):
    """:func:`semsts.features.encoders.embed`, read from the per-user cache when an entry for the encoder
    ``spec`` names and these texts is there and checks out, else computed and stored (no spec: computed)."""
    return cached_compute(EMBEDDINGS, encode, texts, batch_size, who=identity(spec, encode) if texts else None,
                          name=encoder_name(spec) if spec is not None else None)


def cached_compute(kind: EntryKind, fn, items: list, batch_size, *, who: str | None, name: str | None):
    """``kind.compute(fn, items, batch_size)``, read from the cache when the entry of the callable identified as
    ``who`` (None: not cached) and these items is there and checks out, else computed and stored."""
    if who is None:
        return kind.compute(fn, items, batch_size)
    key = {kind.who: who, kind.items: kind.digest(items), "n": len(items)}
    manifest = entry_path(kind.folder(), kind.name, key)
    found = rows = sample = None
    if os.path.lexists(manifest):  # an entry to check: the probe first, which gives the shape to expect
        rows = probe_rows(len(items))
        sample = kind.compute(fn, [items[i] for i in rows], batch_size, shown=False)
        shape = (len(items), *sample.shape[1:])

        def expect(part, stored, dtype):
            return None if (part, stored, dtype.kind) == (kind.array, shape, "f") else \
                f"{part} {dtype} {stored}, where the {kind.who} gives float {kind.array} {shape}"
        found = read_entry(manifest, expect=expect)
    if found is not None:
        why = unusable(found[0].get(kind.array), len(items), rows, sample, kind)
        if why is None:
            from_cache(len(items), len(items), kind.folder(), unit=kind.unit, cache=kind.cache)
            return found[0][kind.array]
        warnings.warn(Note(f"{kind.cache} {manifest}: stale or damaged ({why}); recomputing it"), stacklevel=3)
    values = kind.compute(fn, items, batch_size)
    if sample is not None and not kind.agree(values[rows], sample):
        warnings.warn(Note(f"{kind.who} {name} gives other {kind.values} for the same {kind.items} from "
                           "one call to the next; they are not cached"), stacklevel=3)
        return values
    before = _identity_of(manifest)
    stored = store_entry(manifest, key, {kind.array: values})[0][kind.array]
    after = _identity_of(manifest)
    if after is not None and after != before:  # written now (a cache that cannot be written has said so in a note)
        from_cache(0, len(items), kind.folder(), unit=kind.unit, cache=kind.cache)
    return stored


EMBEDDINGS = EntryKind(lambda: cache_folder(), "embeddings", "encoder", "texts", "vectors", "embeddings", "texts",
                       "embedding cache",
                       embed, texts_hash, agree)


def _identity_of(path) -> tuple | None:
    """Which file ``path`` is now (device, inode, mtime), None when absent: an entry is written as a new file."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns
