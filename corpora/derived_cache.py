"""Derived caches: arrays built once from a resource, named by that resource's content.

A cache is ``STEM.json`` (the key and the SHA-256 of each array's ``.npy`` bytes, the figure a model card records)
beside ``STEM.NAME.npy`` files, where STEM holds a hash of the key (the resource's content hash, build parameters):
another resource is another cache, never a stale one. Each file is written whole to a temporary file and renamed
into place (:func:`semsts.core.files.atomic_open`), the manifest last, so a crash, a full disk or two runs at once
never leave a half-written cache that is read as whole; one that cannot be read (cut by a failing disk) is rebuilt
with a :class:`Note`. The files are not verified against forgery: whoever can write the user's cache is out of
scope (docs/security.md). A cache is an optimisation: one that cannot be written gives a note, and the run goes on.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import warnings
from pathlib import Path
from typing import Callable

import numpy as np

from semsts.core.errors import Note
from semsts.core.files import atomic_open

_UNWRITABLE: set = set()  # the cache folders a note has told this run could not be written


def key_hash(key: dict) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


def content_hash(files: dict) -> str:
    """One SHA-256 for a cache's array files (the figure a model card records)."""
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def entry_path(folder: Path, name: str, key: dict, suffix: str = ".json") -> Path:
    """The file of the cache ``name`` for ``key`` in ``folder`` (a derived cache's manifest by default)."""
    return Path(folder) / f"{name}_{key_hash(key)}{suffix}"


def _load(path: Path, mmap: bool) -> np.ndarray:
    """The ``.npy`` file ``path`` (never a pickle, nor an ``.npz`` archive), memory-mapped with ``mmap``; a
    ValueError for anything else."""
    if mmap:
        return np.lib.format.open_memmap(path, mode="r")
    with open(path, "rb") as handle:
        return np.lib.format.read_array(handle, allow_pickle=False)


def load_array(path: Path, *, mmap: bool = False) -> np.ndarray | None:
    """The array a cache keeps at ``path``; None when there is none, or (with a note) when it cannot be read."""
    try:
        return _load(path, mmap)
    except (FileNotFoundError, NotADirectoryError):  # none there (or no folder: said when it is written)
        return None
    except (OSError, ValueError, EOFError) as exc:
        warnings.warn(Note(f"cache {path}: unreadable ({type(exc).__name__}); computing it again"), stacklevel=3)
        return None


def unwritable(folder, exc: OSError) -> None:
    """Say, once a run for each folder, that the cache ``folder`` could not be written (the run goes on)."""
    if str(folder) not in _UNWRITABLE:
        _UNWRITABLE.add(str(folder))
        why = "it is not a folder" if os.path.lexists(folder) and not os.path.isdir(folder) else \
            exc.strerror or type(exc).__name__
        warnings.warn(Note(f"the cache {folder} could not be written ({why}); going on without it"), stacklevel=4)


def save_array(path: Path, array: np.ndarray) -> bool:
    """Write ``array`` as ``path``, whole or not at all; False (and a note) when the cache cannot be written."""
    try:
        with atomic_open(path, "wb", encoding=None) as handle:
            np.save(handle, array, allow_pickle=False)
    except OSError as exc:
        unwritable(Path(path).parent, exc)
        return False
    return True


def _read(manifest: Path, mmap: bool) -> tuple[dict, str] | None:
    if not manifest.exists():
        return None
    try:
        files = json.loads(manifest.read_text(encoding="utf-8"))["files"]
        arrays = {name: _load(manifest.with_name(f"{manifest.stem}.{name}.npy"), mmap) for name in sorted(files)}
    except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        warnings.warn(Note(f"derived cache {manifest}: unreadable ({type(exc).__name__}); rebuilding it"),
                      stacklevel=4)
        return None
    return arrays, content_hash(files)


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    return buffer.getvalue()


def store_entry(manifest: Path, key: dict, arrays: dict, *, mmap: bool = False) -> tuple[dict, str]:
    """Write ``arrays`` as the cache ``manifest`` and return them as :func:`cached_arrays` would. A cache that
    cannot be written (no folder there, read-only, a full disk) is a note: the arrays are returned all the same."""
    arrays = {part: np.asarray(array) for part, array in sorted(arrays.items())}
    blobs = {part: _npy(array) for part, array in arrays.items()}
    files = {part: hashlib.sha256(blob).hexdigest() for part, blob in blobs.items()}
    try:
        for part, blob in blobs.items():
            with atomic_open(manifest.with_name(f"{manifest.stem}.{part}.npy"), "wb", encoding=None) as handle:
                handle.write(blob)
        with atomic_open(manifest) as handle:  # written last: a cache is whole once its manifest is there
            json.dump({"key": key, "files": files}, handle, sort_keys=True)
    except OSError as exc:
        unwritable(manifest.parent, exc)
        return arrays, content_hash(files)
    return (_read(manifest, mmap) if mmap else None) or (arrays, content_hash(files))


def cached_arrays(folder: Path, name: str, key: dict, build: Callable[[], dict], *,
                  mmap: bool = False) -> tuple[dict, str]:
    """``(arrays, content hash)`` of the cache ``name`` for ``key``: read, else built by ``build`` and kept."""
    manifest = entry_path(folder, name, key)
    found = _read(manifest, mmap)
    return found if found is not None else store_entry(manifest, key, build(), mmap=mmap)
