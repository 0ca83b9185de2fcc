"""Tests of semsts.corpora.derived_cache: derived caches keyed by content and verified when read."""
import json

import numpy as np
import pytest

from conftest import build_counter
from semsts.core.errors import Note
from semsts.corpora.derived_cache import cached_arrays

# --- Derived caches (gloss space, GloVe word index) are keyed by content and verified when read.


def test_built_once_then_read(tmp_path):
    build, calls = build_counter()
    first, digest = cached_arrays(tmp_path, "space", {"source": "x"}, build)
    again, digest2 = cached_arrays(tmp_path, "space", {"source": "x"}, build)
    assert calls == [1] and digest == digest2 and again["vocabulary"].tolist() == ["a", "b", "c"]
    other, digest3 = cached_arrays(tmp_path, "space", {"source": "y"}, build)  # another source's content: another cache
    assert calls == [1, 1] and digest3 == digest


@pytest.mark.parametrize("damage", ["cut", "emptied", "altered", "manifest garbage", "manifest nested",
                                    "manifest list", "file gone"])
def test_a_damaged_cache_is_rebuilt_with_a_note_never_used(tmp_path, damage):
    build, calls = build_counter()
    cached_arrays(tmp_path, "space", {"source": "x"}, build)
    (manifest,) = tmp_path.glob("*.json")
    vectors = next(tmp_path.glob("*.vectors.npy"))
    data = vectors.read_bytes()
    if damage == "cut":
        vectors.write_bytes(data[:len(data) // 2])
    elif damage == "emptied":
        vectors.write_bytes(b"")
    elif damage == "altered":
        vectors.write_bytes(data[:-4] + np.float32(99).tobytes())
    elif damage == "file gone":
        vectors.unlink()
    else:
        manifest.write_text({"manifest garbage": "{not json", "manifest nested": "[" * 100_000,
                             "manifest list": json.dumps([1, 2])}[damage])
    with pytest.warns(Note, match="rebuilding it"):
        arrays, _ = cached_arrays(tmp_path, "space", {"source": "x"}, build)
    assert calls == [1, 1] and arrays["vectors"][-1, -1] == 11 and vectors.read_bytes() == data
