"""Derived caches: arrays built once from a resource, named by that resource's content, verified when read.

A cache is ``STEM.json`` (the SHA-256 of each array file) beside ``STEM.NAME.npy`` files, where STEM
holds a hash of the key (the resource's content hash, build parameters). A cache file that is missing,
cut, emptied, altered or no regular file (a link, FIFO, device or folder: never followed, opened or waited
on) is rebuilt with a :class:`Note`; it is never used, and never a traceback. A cache is an optimisation: one
that cannot be written gives a note, and the run goes on with what was built.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import warnings
from pathlib import Path
from typing import Callable

import numpy as np

from semsts.core.errors import Note
from semsts.core.files import atomic_open, open_unfollowed

MAX_MANIFEST_BYTES = 1 << 20  # a manifest holds a key and a few digests
_UNWRITABLE: set = set()  # the cache folders a note has told this run could not be written


def file_sha256(path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def key_hash(key: dict) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


class Damaged(Exception):
    """A cache file does not match its manifest."""


def open_regular(path: Path, limit: int | None = None):
    """``path`` opened for reading, if it is a regular file (of at most ``limit`` bytes), else :class:`Damaged`
    (FileNotFoundError if it is not there): a link is not followed, a FIFO or device never opened or waited on."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise Damaged(f"{path}: not a regular file (a link, folder, FIFO or device)")
        fd = open_unfollowed(path)
    except (FileNotFoundError, NotADirectoryError):
        raise FileNotFoundError(path) from None
    except OSError as exc:  # unreadable, or swapped for a link since the lstat (ELOOP)
        raise Damaged(f"{path}: unreadable ({exc.strerror or type(exc).__name__})") from None
    handle = os.fdopen(fd, "rb")
    size = os.fstat(fd)
    if not stat.S_ISREG(size.st_mode) or (limit is not None and size.st_size > limit):
        handle.close()
        raise Damaged(f"{path}: not a regular file" + (f" of at most {limit:,} bytes" if limit is not None else ""))
    return handle


def _digest(handle, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    while block := handle.read(chunk):
        digest.update(block)
    return digest.hexdigest()


def _load(path: Path, name: str, digest: str, mmap: bool, expect) -> np.ndarray:
    """The array ``name``'s file ``path``, read from one descriptor: its header as ``expect`` wants it, its size what the
    header's shape implies, its SHA-256 ``digest``."""
    with open_regular(path) as handle:
        try:
            version = np.lib.format.read_magic(handle)
            header = {(1, 0): np.lib.format.read_array_header_1_0,
                      (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if header is None:
                raise ValueError(f"format version {version}")
            shape, fortran, dtype = header(handle)
            if dtype.hasobject:
                raise ValueError("Python objects")
        except (OSError, ValueError, EOFError, SyntaxError, TypeError) as exc:
            raise Damaged(f"{path}: unreadable ({exc})") from None
        refused = expect(name, shape, dtype) if expect is not None else None
        if refused:
            raise Damaged(f"{path}: {refused}")
        offset = handle.tell()
        implied = offset + int(np.prod(shape, dtype=object)) * dtype.itemsize
        if os.fstat(handle.fileno()).st_size != implied:
            raise Damaged(f"{path}: not the {implied:,} bytes its header's shape {shape} implies")
        try:
            handle.seek(0)
            if _digest(handle) != digest:
                raise Damaged(f"{path}: missing or changed since it was built")
            if not mmap:
                handle.seek(0)
                return np.load(handle, allow_pickle=False)
            array = np.memmap(handle, dtype=dtype, mode="r", shape=shape, order="F" if fortran else "C", offset=offset)
        except (OSError, ValueError) as exc:
            raise Damaged(f"{path}: unreadable ({exc})") from None
        array.filename = os.path.abspath(path)  # as np.load names it: a worker pool maps it again by name
        return array


def _read(manifest: Path, mmap: bool, expect=None) -> tuple[dict, str]:
    try:
        with open_regular(manifest, MAX_MANIFEST_BYTES) as handle:
            entry = json.loads(handle.read().decode("utf-8"))
        files = entry["files"]
        if not isinstance(files, dict) or not files or not all(
                isinstance(n, str) and n.isidentifier() and isinstance(d, str) for n, d in files.items()):
            raise ValueError("no files listed")  # (a name is a word: no path leads out of the folder)
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise Damaged(f"{manifest}: unreadable ({type(exc).__name__})") from None
    arrays = {}
    for name, digest in sorted(files.items()):
        path = manifest.with_name(f"{manifest.stem}.{name}.npy")
        try:
            arrays[name] = _load(path, name, digest, mmap, expect)
        except FileNotFoundError:
            raise Damaged(f"{path}: missing or changed since it was built") from None
    return arrays, content_hash(files)


def content_hash(files: dict) -> str:
    """One SHA-256 for a cache's array files (the figure a model card records)."""
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def entry_path(folder: Path, name: str, key: dict) -> Path:
    """The manifest of the cache ``name`` for ``key`` in ``folder``."""
    return Path(folder) / f"{name}_{key_hash(key)}.json"


def read_entry(manifest: Path, *, mmap: bool = False, expect=None) -> tuple[dict, str] | None:
    """``(arrays, content hash)`` of the cache ``manifest``, read and verified; None (with a note if it was
    damaged) when there is none to use. ``expect(name, shape, dtype)``, when given, says what is wrong with an
    array's header (None if nothing), before its file is read any further."""
    try:
        return _read(manifest, mmap, expect)
    except FileNotFoundError:
        return None
    except Damaged as exc:
        warnings.warn(Note(f"derived cache {exc}; rebuilding it"), stacklevel=3)
        return None


class _Hashing:
    """A sink for :func:`numpy.save` that keeps only the SHA-256 of what it is given (no copy of the array)."""

    def __init__(self):
        self.digest = hashlib.sha256()

    def write(self, block) -> int:
        self.digest.update(block)
        return len(block)


def _sha256_of_npy(array: np.ndarray) -> str:
    sink = _Hashing()
    np.save(sink, array, allow_pickle=False)
    return sink.digest.hexdigest()


def store_entry(manifest: Path, key: dict, arrays: dict, *, mmap: bool = False) -> tuple[dict, str]:
    """Write ``arrays`` as the cache ``manifest`` and return them as :func:`read_entry` would. A cache that
    cannot be written (no folder there, read-only, a full disk) is a note: the arrays are returned all the same."""
    arrays = {part: np.asarray(array) for part, array in sorted(arrays.items())}
    files = {part: _sha256_of_npy(array) for part, array in arrays.items()}
    written, path = [], manifest
    try:
        for part, array in arrays.items():
            path = manifest.with_name(f"{manifest.stem}.{part}.npy")
            with atomic_open(path, "wb", encoding=None) as handle:
                written.append(path)
                np.save(handle, array, allow_pickle=False)
        path = manifest
        with atomic_open(manifest) as handle:  # written last: a cache is whole once its manifest is there
            json.dump({"key": key, "files": files}, handle, sort_keys=True)
    except OSError as exc:
        for done in written:  # our own array files, of no use without their manifest
            with contextlib.suppress(OSError):
                os.unlink(done)
        folder = manifest.parent
        if str(folder) not in _UNWRITABLE:  # one note a run for each folder, however many entries
            _UNWRITABLE.add(str(folder))
            why = "it is not a folder" if os.path.lexists(folder) and not os.path.isdir(folder) else \
                f"{path.name}: {exc.strerror or type(exc).__name__}"
            warnings.warn(Note(f"the cache {folder} could not be written ({why}); going on without it"), stacklevel=3)
        return arrays, content_hash(files)
    try:
        return _read(manifest, mmap)
    except (Damaged, FileNotFoundError):  # changed under us since it was written: what we built is right
        return arrays, content_hash(files)


def cached_arrays(folder: Path, name: str, key: dict, build: Callable[[], dict], *,
                  mmap: bool = False) -> tuple[dict, str]:
    """``(arrays, content hash)`` of the cache ``name`` for ``key``: read and verified, else built by ``build``."""
    manifest = entry_path(folder, name, key)
    found = read_entry(manifest, mmap=mmap)
    return found if found is not None else store_entry(manifest, key, build(), mmap=mmap)
