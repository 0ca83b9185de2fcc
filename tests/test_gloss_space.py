"""Tests of semsts.features.gloss_space: the shipped gloss space, verified, or one built and cached."""
import numpy as np
import pytest

from semsts.core.errors import Note
from semsts.features import gloss_space

# --- The shipped gloss space is used where WordNet's content matches, verified; otherwise one is built and cached.


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    built = []

    def fake_build(*, dimensions, progress=None):
        built.append(dimensions)
        return ["cat", "dog"], np.eye(2, dimensions, dtype=np.float16)
    monkeypatch.setattr(gloss_space, "build", fake_build)
    gloss_space._cached.cache_clear()
    yield built
    gloss_space._cached.cache_clear()


def test_the_shipped_space_is_used_for_debians_wordnet(fresh):
    index, vectors = gloss_space.gloss_space()
    assert fresh == [] and len(index) == 48250 and vectors.dtype == np.float16 and vectors.shape == (48250, 150)
    assert gloss_space.is_built()


def test_a_damaged_shipped_space_is_not_used(fresh, tmp_path, monkeypatch):
    damaged = tmp_path / "space.npz"
    data = gloss_space.SHIPPED.read_bytes()
    damaged.write_bytes(data[:-10] + b"0123456789")
    monkeypatch.setattr(gloss_space, "SHIPPED", damaged)
    with pytest.warns(Note, match="SHA-256 differs from the one the suite shipped"):
        index, _ = gloss_space.gloss_space()
    assert fresh == [150] and sorted(index) == ["cat", "dog"]


def test_another_wordnet_gets_its_own_space_built_once(fresh, monkeypatch):
    monkeypatch.setattr(gloss_space, "wordnet_sha256", lambda: "another wordnet")
    assert not gloss_space.is_built()
    index, _ = gloss_space.gloss_space()
    gloss_space._cached.cache_clear()
    again, _ = gloss_space.gloss_space()
    assert fresh == [150] and index == again == {"cat": 0, "dog": 1} and gloss_space.is_built()
