"""Derived caches: arrays built once from a resource, named by that resource's content, verified when read.

A cache is ``STEM.json`` (the SHA-256 of each array file) beside ``STEM.NAME.npy`` files, where STEM
holds a hash of the key (the resource's content hash, build parameters). A cache file that is missing,
cut, emptied or altered is rebuilt with a :class:`Note`; it is never used, and never a traceback.
"""
from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from typing import Callable

import numpy as np

from .atomic import atomic_open
from .errors import Note


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


def _read(manifest: Path, mmap: bool) -> tuple[dict, str]:
    try:
        entry = json.loads(manifest.read_text(encoding="utf-8"))
        files = entry["files"]
        if not isinstance(files, dict) or not files:
            raise ValueError("no files listed")
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise Damaged(f"{manifest}: unreadable ({type(exc).__name__})") from None
    arrays = {}
    for name, digest in sorted(files.items()):
        path = manifest.with_name(f"{manifest.stem}.{name}.npy")
        if not path.is_file() or path.is_symlink() or file_sha256(path) != digest:
            raise Damaged(f"{path}: missing or changed since it was built")
        try:
            arrays[name] = np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise Damaged(f"{path}: unreadable ({exc})") from None
    return arrays, content_hash(files)


def content_hash(files: dict) -> str:
    """One SHA-256 for a cache's array files (the figure a model card records)."""
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def cached_arrays(folder: Path, name: str, key: dict, build: Callable[[], dict], *,
                  mmap: bool = False) -> tuple[dict, str]:
    """``(arrays, content hash)`` of the cache ``name`` for ``key``: read and verified, else built by ``build``."""
    manifest = Path(folder) / f"{name}_{key_hash(key)}.json"
    if manifest.exists():
        try:
            return _read(manifest, mmap)
        except Damaged as exc:
            warnings.warn(Note(f"derived cache {exc}; rebuilding it"), stacklevel=2)
    arrays = build()
    files = {}
    for part, array in sorted(arrays.items()):
        path = manifest.with_name(f"{manifest.stem}.{part}.npy")
        with atomic_open(path, "wb", encoding=None) as handle:
            np.save(handle, np.asarray(array), allow_pickle=False)
        files[part] = file_sha256(path)
    with atomic_open(manifest) as handle:  # written last: a cache is whole once its manifest is there
        json.dump({"key": key, "files": files}, handle, sort_keys=True)
    return _read(manifest, mmap)
