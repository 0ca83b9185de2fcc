"""Tests of semsts.features.gloss_space: the shipped gloss space, or one built and cached."""
import hashlib

import numpy as np
import pytest

from semsts.features import gloss_space

# --- The shipped gloss space is used where WordNet's content matches; otherwise one is built and cached.


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


def test_the_shipped_space_has_the_sha256_that_names_it():
    """Model cards name the shipped space by :data:`SHIPPED_SHA256`: the file committed must be that one."""
    assert hashlib.sha256(gloss_space.SHIPPED.read_bytes()).hexdigest() == gloss_space.SHIPPED_SHA256


def test_another_wordnet_gets_its_own_space_built_once(fresh, monkeypatch):
    monkeypatch.setattr(gloss_space, "wordnet_sha256", lambda: "another wordnet")
    assert not gloss_space.is_built()
    index, _ = gloss_space.gloss_space()
    gloss_space._cached.cache_clear()
    again, _ = gloss_space.gloss_space()
    assert fresh == [150] and index == again == {"cat": 0, "dog": 1} and gloss_space.is_built()


def test_the_shipped_spaces_digest_is_known_without_loading_it(fresh):
    """Issue 46: a model's card check asks for the gloss space's digest; for the shipped space that is its SHA-256's,
    known without loading its 20 MB (a command whose workers featurize held the space for nothing), and the same as
    the loaded space says."""
    assert gloss_space.content_sha256() == gloss_space.SHIPPED_DIGEST
    assert gloss_space._cached.cache_info().currsize == 0
    assert gloss_space._cached(gloss_space.DIMENSIONS)[2] == gloss_space.SHIPPED_DIGEST


def test_another_wordnets_space_is_named_by_its_own_digest(fresh, monkeypatch):
    monkeypatch.setattr(gloss_space, "wordnet_sha256", lambda: "another wordnet")
    digest = gloss_space.content_sha256()
    assert fresh == [150] and digest == gloss_space._cached(gloss_space.DIMENSIONS)[2] != gloss_space.SHIPPED_DIGEST
