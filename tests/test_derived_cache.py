"""Tests of semsts.corpora.derived_cache: derived caches keyed by content, written whole or not at all, and a
damaged one (cut by a crash or a failing disk) rebuilt, never an error."""
import json

import numpy as np
import pytest

from conftest import build_counter
from semsts.core.errors import Note
from semsts.corpora import derived_cache
from semsts.corpora.derived_cache import cached_arrays


def test_built_once_then_read(tmp_path):
    build, calls = build_counter()
    first, digest = cached_arrays(tmp_path, "space", {"source": "x"}, build)
    again, digest2 = cached_arrays(tmp_path, "space", {"source": "x"}, build)
    assert calls == [1] and digest == digest2 and again["vocabulary"].tolist() == ["a", "b", "c"]
    other, digest3 = cached_arrays(tmp_path, "space", {"source": "y"}, build)  # another source's content: another cache
    assert calls == [1, 1] and digest3 == digest
    mapped, digest4 = cached_arrays(tmp_path, "space", {"source": "x"}, build, mmap=True)
    assert calls == [1, 1] and digest4 == digest and isinstance(mapped["vectors"], np.memmap)


@pytest.mark.parametrize("mmap", [False, True])
@pytest.mark.parametrize("damage", ["cut", "emptied", "manifest garbage", "manifest nested", "manifest list",
                                    "file gone"])
def test_a_damaged_cache_is_rebuilt_with_a_note_never_used(tmp_path, damage, mmap):
    build, calls = build_counter()
    cached_arrays(tmp_path, "space", {"source": "x"}, build)
    (manifest,) = tmp_path.glob("*.json")
    vectors = next(tmp_path.glob("*.vectors.npy"))
    data = vectors.read_bytes()
    if damage == "cut":
        vectors.write_bytes(data[:len(data) // 2])
    elif damage == "emptied":
        vectors.write_bytes(b"")
    elif damage == "file gone":
        vectors.unlink()
    else:
        manifest.write_text({"manifest garbage": "{not json", "manifest nested": "[" * 100_000,
                             "manifest list": json.dumps([1, 2])}[damage])
    with pytest.warns(Note, match="rebuilding it"):
        arrays, _ = cached_arrays(tmp_path, "space", {"source": "x"}, build, mmap=mmap)
    assert calls == [1, 1] and arrays["vectors"][-1, -1] == 11 and vectors.read_bytes() == data


def test_a_crash_mid_write_leaves_no_cache_read_as_whole(tmp_path, monkeypatch):
    """The process dies while the second array is written: nothing of it is read later, the next run builds it."""
    build, calls = build_counter()
    real = np.save

    def dies(handle, array, **kwargs):
        if array.dtype.kind == "U":  # the vocabulary, written after the vectors
            handle.write(b"\x93NUMPY half")
            raise KeyboardInterrupt
        real(handle, array, **kwargs)
    monkeypatch.setattr(derived_cache.np, "save", dies)
    with pytest.raises(KeyboardInterrupt):
        cached_arrays(tmp_path, "space", {"source": "x"}, build)
    monkeypatch.setattr(derived_cache.np, "save", real)
    assert not list(tmp_path.glob("*.json")) and not list(tmp_path.glob(".*"))  # no manifest, no temporary file
    arrays, _ = cached_arrays(tmp_path, "space", {"source": "x"}, build)
    assert calls == [1, 1] and arrays["vocabulary"].tolist() == ["a", "b", "c"]
