"""Issue 22: the families that compute a chunk at once (:mod:`semsts.features.batched`) give, bit for bit,
the rows of their one-pair reference (``_row``), on the demo pairs and on the edge cases of a chunk."""
import numpy as np
import pytest

from semsts import corpora
from semsts.features.alignment import Alignment
from semsts.features.batched import Sides, Tables
from semsts.features.embedding import EmbeddingSimilarity
from semsts.features.gloss_features import GlossSimilarity
from semsts.features.static_vectors import StaticAlignment, StaticSIF

EDGES = [
    ("", ""), ("", "A dog."), ("The cat.", ""), ("...", "!!!"), ("a", "a"), ("Dog", "dog"),
    ("the the the", "of of"), ("zzyzx qwxzzyq", "zzyzx"), ("A man plays a flute.", "A man plays a flute."),
    ("A dog runs and a dog barks and a dog sleeps.", "Dogs run."), ("Paris in 1999, 2,000 people", "In Paris"),
    (" ".join(["word"] * 300), " ".join(f"w{i}" for i in range(120))),
]


def pairs():
    demo = [tuple(p) for sub in corpora.load("demo-train") for p in sub.pairs]
    return demo + EDGES


@pytest.mark.parametrize("family", [EmbeddingSimilarity, Alignment, GlossSimilarity, StaticAlignment, StaticSIF], ids=lambda f: f.__name__)
def test_a_family_computes_a_chunk_as_its_one_pair_reference_does(family):
    data = pairs()
    f = family().fit(data)
    reference = np.asarray([f._row(a, b) for a, b in f.analyses(data)], dtype=float)
    got = f.transform(data)
    assert got.shape == reference.shape and got.tobytes() == reference.tobytes()
    for k in (1, 7):  # and whatever the chunk: one pair, a few
        assert f.transform(data[:k]).tobytes() == reference[:k].tobytes()
    assert f.transform([]).shape == (0, len(f.get_feature_names_out()))


def test_sides_reduce_each_pair_as_numpy_reduces_it_alone():
    rng = np.random.default_rng(0)
    sides = [list(range(int(n))) for n in rng.integers(0, 40, size=200)]
    s = Sides.of(sides)
    flat = rng.standard_normal(len(s.words))
    keep = flat > 0.3
    sums, kept = s.reduced(flat, lambda x: x.sum(axis=1)), s.masked_sums(flat, keep)
    for p, side in enumerate(sides):
        rows = slice(s.starts[p], s.starts[p] + len(side))
        assert sums[p] == (flat[rows].sum() if side else 0.0)
        assert kept[p] == flat[rows][keep[rows]].sum()


def test_tables_lay_out_each_pairs_cells_and_their_best_matches():
    rng = np.random.default_rng(1)
    a, b = Sides(np.array([3, 1, 2])), Sides(np.array([2, 4, 1]))
    va, vb = rng.standard_normal((6, 5)).astype(np.float32), rng.standard_normal((7, 5)).astype(np.float32)
    t = Tables(a, b)
    cells = t.dots(va, vb)
    rows, cols = t.row_max(cells), t.col_max(cells)
    for p in range(3):
        ra, rb = slice(a.starts[p], a.starts[p] + a.lengths[p]), slice(b.starts[p], b.starts[p] + b.lengths[p])
        table = np.multiply(va[ra][:, None, :], vb[rb][None, :, :], dtype=np.float64).sum(axis=-1)
        assert cells[t.starts[p]:t.starts[p] + table.size].tobytes() == table.ravel().tobytes()
        assert rows[ra].tolist() == table.max(axis=1).tolist() and cols[rb].tolist() == table.max(axis=0).tolist()


def test_a_chunk_of_long_texts_goes_through_in_parts_with_the_same_rows(monkeypatch):
    """Issue 22: the tables of a chunk are laid out a part at a time (at most MAX_CELLS cells, a larger pair
    alone), so that long texts take bounded memory; the rows are those of one part."""
    from semsts.features import batched
    data = pairs()
    families = [EmbeddingSimilarity().fit(data), Alignment().fit(data), GlossSimilarity().fit(data)]
    whole = [f.transform(data) for f in families]
    monkeypatch.setattr(batched, "MAX_CELLS", 50)
    calls = []
    original = batched.Tables.__init__

    def counting(self, a, b):
        calls.append((int((a.lengths * b.lengths).sum()), len(a.lengths)))
        original(self, a, b)
    monkeypatch.setattr(batched.Tables, "__init__", counting)
    for f, expected in zip(families, whole):
        assert f.transform(data).tobytes() == expected.tobytes()
    assert len(calls) > 3 * 10 and all(cells <= 50 or pairs == 1 for cells, pairs in calls)
