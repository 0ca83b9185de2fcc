"""Cached scores of a user's pair scorer, kept per pair: one store per scorer identity (its spec and version, as
:func:`semsts.features.embedding_cache.callable_identity` gives them), holding each pair's SHA-256 and its score.

A run scores only the pairs its scorer's store lacks, whatever dataset, command or model feature scored the others,
and merges them in: the store is written whole to a temporary file and renamed over the old one (two runs writing at
once leave one of their merges, never a mixture). A store is read only if it is a regular file (never a link, FIFO or
device) of bounded size whose header names the identity and the SHA-256 of what follows; one that is not is said in a
note, not used, and replaced by the next write. A key cannot see everything a scorer depends on, so before stored
scores are used a few of them, drawn anew each run, are scored again (one call); a scorer that disagrees with
itself from one call to the next is not deterministic and is not cached (its store is removed, said once a run).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import stat
import warnings

import numpy as np

from semsts.core.errors import Note
from semsts.core.files import atomic_open
from semsts.core.progress import from_cache
from semsts.corpora.derived_cache import Damaged, key_hash, open_regular
from semsts.corpora.paths import cache_root

from .embedding_cache import PROBE, TOLERANCE, callable_identity
from .scorers import score_pairs, scorer_name

MAGIC = b"semsts pair scores 1\n"
MAX_HEADER_BYTES = 4096  # the identity, the count and a digest
MAX_STORE_BYTES = 1 << 30  # 32 + 8 bytes a pair: some 26 million pairs
ROW_BYTES = 40
CACHE = "pair-score cache"
# this process: the identities found not deterministic, and found to give a pair the same score twice; stores checked
_SESSION = {"unstable": set(), "steady": set(), "confirmed": set()}
_UNWRITABLE: set = set()  # folders a note has told this process could not be written


def scores_folder():
    return cache_root() / "pair-scores"


def store_path(identity: str):
    """The store of the scorer ``identity`` (named by a hash of it: a spec holds characters no file name should)."""
    return scores_folder() / f"pair-scores_{key_hash({'scorer': identity})}.bin"


def scorer_version(spec: str, score=None) -> str | None:
    """The version of the scorer ``spec`` names (``score``, else imported) as its store is keyed by: ``version:V``
    for a declared ``cache_version``, else ``file-sha256:H`` of its module's file; None when it has none."""
    from .scorers import load_scorer
    identity = callable_identity(spec, load_scorer(spec) if score is None else score)
    return identity[len(spec) + 1:] if identity else None


def pair_hash(pair) -> bytes:
    """The SHA-256 over the SHA-256 of each of the pair's two texts, in order (a lone surrogate hashes as well)."""
    a, b = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest() for text in pair)
    return hashlib.sha256(a + b).digest()


def agree_scores(cached: np.ndarray, fresh: np.ndarray) -> bool:
    """Whether each of ``cached`` lies within :data:`TOLERANCE` of the largest of ``fresh`` (a scorer's scale is its
    own: a float32 cross-encoder differs between batches by far less, a stale score by far more)."""
    return bool((np.abs(cached - fresh) <= TOLERANCE * np.max(np.abs(fresh), initial=0.0) + 1e-12).all())


def _draw(rows: np.ndarray) -> np.ndarray:
    """Up to :data:`PROBE` of ``rows``, drawn anew each run from the system's entropy (nobody who edits a store can
    know which scores will be checked; the figures never depend on the draw)."""
    rng = np.random.default_rng(secrets.randbits(128))
    return np.sort(rng.choice(rows, size=min(len(rows), PROBE), replace=False))


EMPTY = (np.zeros(0, dtype="S32"), np.zeros(0))


def _stat(path):
    with contextlib.suppress(OSError):
        st = os.stat(path, follow_symlinks=False)
        return str(path), st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size
    return None


def read_store(path, identity: str) -> tuple[np.ndarray, np.ndarray]:
    """``(sorted pair hashes, scores)`` of the store at ``path``, checked; empty (with a note if it was damaged)
    when there is none to use."""
    try:
        with open_regular(path, MAX_STORE_BYTES) as handle:
            data = handle.read(MAX_STORE_BYTES + 1)
        return _parse(data, identity)
    except FileNotFoundError:
        return EMPTY
    except Damaged as exc:
        warnings.warn(Note(f"{CACHE} {exc}; recomputing its pairs"), stacklevel=3)
    except ValueError as exc:
        warnings.warn(Note(f"{CACHE} {path}: damaged ({exc}); recomputing its pairs"), stacklevel=3)
    return EMPTY


def _parse(data: bytes, identity: str) -> tuple[np.ndarray, np.ndarray]:
    if not data.startswith(MAGIC):
        raise ValueError("not a pair-score store")
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MAX_HEADER_BYTES)
    if end < 0:
        raise ValueError("no header line")
    try:
        header = json.loads(data[len(MAGIC):end].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ValueError("its header is not JSON") from None
    n = header.get("pairs") if isinstance(header, dict) else None
    if not (isinstance(n, int) and not isinstance(n, bool) and n >= 0 and isinstance(header.get("sha256"), str)):
        raise ValueError("its header lacks the count of pairs or the digest")
    if header.get("scorer") != identity:
        raise ValueError("it is another scorer's")
    payload = data[end + 1:]
    if len(payload) != n * ROW_BYTES:
        raise ValueError(f"{len(payload):,} bytes of pairs, where its header's {n:,} pairs take {n * ROW_BYTES:,}")
    if hashlib.sha256(payload).hexdigest() != header["sha256"]:
        raise ValueError("changed since it was written")
    hashes = np.frombuffer(payload, dtype="S32", count=n)
    scores = np.frombuffer(payload, dtype="<f8", count=n, offset=32 * n).astype(float)
    if n > 1 and not (hashes[1:] > hashes[:-1]).all():
        raise ValueError("its pairs are not sorted")
    if not np.isfinite(scores).all():
        raise ValueError("NaN or infinite scores")
    return hashes, scores


def _write(path, identity: str, hashes: np.ndarray, scores: np.ndarray) -> bool:
    """Write the store whole (a temporary file renamed over the old one); False, with one note a process for each
    folder, when it cannot be written (a cache is an optimisation: the run goes on)."""
    payload = hashes.astype("S32").tobytes() + np.asarray(scores, dtype="<f8").tobytes()
    header = json.dumps({"scorer": identity, "pairs": len(hashes), "sha256": hashlib.sha256(payload).hexdigest()})
    size = len(MAGIC) + len(header) + 1 + len(payload)
    try:
        if len(header) >= MAX_HEADER_BYTES or size > MAX_STORE_BYTES:
            raise OSError(0, f"{len(hashes):,} pairs are more than a store holds")
        if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
            raise OSError(0, f"{os.path.basename(path)} is not a regular file")
        with atomic_open(path, "wb", encoding=None) as handle:
            handle.write(MAGIC + header.encode() + b"\n" + payload)
    except OSError as exc:
        folder = os.path.dirname(path)
        if folder not in _UNWRITABLE:
            _UNWRITABLE.add(folder)
            why = "it is not a folder" if os.path.lexists(folder) and not os.path.isdir(folder) else \
                f"{os.path.basename(path)}: {exc.strerror or type(exc).__name__}"
            warnings.warn(Note(f"the cache {folder} could not be written ({why}); going on without it"), stacklevel=4)
        return False
    return True


def _merged(path, identity: str, hashes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The store as it is now (another run may have added to it since it was read) with these pairs in."""
    with warnings.catch_warnings():  # a damaged store was said when it was read; it is replaced now
        warnings.simplefilter("ignore", Note)
        old_hashes, old_scores = read_store(path, identity)
    keys, first = np.unique(np.concatenate([hashes, old_hashes]), return_index=True)  # ours first: ours win
    return keys, np.concatenate([scores, old_scores])[first]


def _not_deterministic(identity: str, name: str, path) -> None:
    """Say once a process that the scorer is not deterministic, and remove its store (never a link)."""
    with contextlib.suppress(OSError):
        if stat.S_ISREG(os.lstat(path).st_mode):
            os.unlink(path)
    if identity not in _SESSION["unstable"]:
        _SESSION["unstable"].add(identity)
        warnings.warn(Note(f"scorer {name} is not deterministic (it gave other scores for the same pairs from one "
                           "call to the next): its scores are not cached"), stacklevel=4)


def cached_scores(score, pairs: list, batch_size=None, *, spec=None) -> np.ndarray:
    """:func:`semsts.features.scorers.score_pairs` of ``pairs`` (distinct), each pair's score read from the store of
    the scorer ``spec`` names when it is there and the store checks out; the others scored, ``batch_size`` a call,
    and kept (no spec, or a scorer found not deterministic: all scored, nothing kept)."""
    identity = callable_identity(spec, score) if pairs and spec is not None else None
    if identity is None or identity in _SESSION["unstable"]:
        return score_pairs(score, pairs, batch_size)
    name, path = scorer_name(spec), store_path(identity)
    keys = np.array([pair_hash(pair) for pair in pairs], dtype="S32")
    stored_hashes, stored_scores = read_store(path, identity)
    where = np.minimum(np.searchsorted(stored_hashes, keys), max(len(stored_hashes) - 1, 0))
    hit = stored_hashes[where] == keys if len(stored_hashes) else np.zeros(len(keys), dtype=bool)
    values = np.zeros(len(pairs))
    values[hit] = stored_scores[where[hit]]
    found = np.flatnonzero(hit)
    stale, probe, sample = False, None, None
    if len(found) and _stat(path) not in _SESSION["confirmed"]:  # stored scores to check: a few scored again
        probe = _draw(found)
        sample = score_pairs(score, [pairs[i] for i in probe], batch_size, shown=False)
        stale = not agree_scores(values[probe], sample)
        if not stale:
            _SESSION["confirmed"].add(_stat(path))
            _SESSION["steady"].add(identity)
    todo = np.arange(len(pairs)) if stale else np.flatnonzero(~hit)
    if len(todo):
        values[todo] = score_pairs(score, [pairs[i] for i in todo], batch_size)
    if stale:
        if not agree_scores(values[probe], sample):  # the scorer disagrees with itself, not with its store
            _not_deterministic(identity, name, path)
            return values
        warnings.warn(Note(f"{CACHE} {path}: stale (its scores of {len(probe)} pairs differ from what the scorer "
                           "gives now); replaced"), stacklevel=2)
        if _write(path, identity, *_sorted(keys, values)):
            _SESSION["confirmed"].add(_stat(path))
            from_cache(0, len(pairs), scores_folder(), unit="pair scores", cache=CACHE)
        return values
    if len(todo) and identity not in _SESSION["steady"]:  # nothing shows yet that it gives a pair one score: ask
        again = _draw(todo)
        if not agree_scores(values[again], score_pairs(score, [pairs[i] for i in again], batch_size, shown=False)):
            _not_deterministic(identity, name, path)
            return values
        _SESSION["steady"].add(identity)
    written = bool(len(todo)) and _write(path, identity, *_merged(path, identity, *_sorted(keys[todo], values[todo])))
    if written:
        _SESSION["confirmed"].add(_stat(path))
    if written or len(found):
        from_cache(len(found), len(pairs), scores_folder(), unit="pair scores", cache=CACHE)
    return values


def _sorted(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keys, first = np.unique(keys, return_index=True)
    return keys, values[first]
