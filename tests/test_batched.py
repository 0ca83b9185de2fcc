"""Issue 22: the families that compute a chunk at once (:mod:`semsts.features.batched`) give, bit for bit,
the rows of their one-pair references (below: each family's maths written plainly, a pair at a time), on the
demo pairs and on the edge cases of a chunk."""
import math
import random

import numpy as np
import pytest

from semsts import corpora
from semsts.corpora.word_vectors import unit_vectors
from semsts.corpora.wordllama import word_vectors
from semsts.features import embedding, gloss_features, static_vectors
from semsts.features.alignment import Alignment
from semsts.features.batched import Sides, Tables
from semsts.features.blas_free import products
from semsts.features.embedding import EmbeddingSimilarity, sif_weight
from semsts.features.gloss_features import GlossSimilarity
from semsts.features.gloss_space import gloss_space
from semsts.features.similarity import MATCHED, ratio
from semsts.features.static_vectors import LEVELS, StaticAlignment, StaticSIF, level_words
from semsts.features.weighted import information_content
from semsts.features.wordnet_features import harmonic, similarity_table
from tests.conftest import demo_text, paraphrased

# --- the one-pair references: numpy's fixed-order reductions, a pair at a time


def dot(x, y) -> float:
    return float(products(x, y).sum())


def cosine(x, y) -> float:
    norm = math.sqrt(dot(x, x)) * math.sqrt(dot(y, y))
    return dot(x, y) / norm if norm else 0.0


def weighted_sum(weights, rows) -> np.ndarray:
    return products(np.asarray(weights)[:, None], rows).sum(axis=0)


def weighted_mean(values, weights) -> float:
    return ratio(dot(values, weights), float(weights.sum()))


def clipped_cosines(la, lb, va, vb) -> np.ndarray:
    """Cosines of the unit (or zero) word vectors, negatives cut to 0 and the same word on both sides set to 1."""
    sims = np.clip(products(va[:, None, :], vb[None, :, :]).sum(axis=-1), 0.0, 1.0)
    sims[np.equal.outer(np.asarray(la, dtype=object), np.asarray(lb, dtype=object))] = 1.0
    return sims


def aligned_cosines(la, lb) -> np.ndarray:
    """GloVe cosines between two lists of words."""
    return clipped_cosines(la, lb, unit_vectors(la), unit_vectors(lb))


def gloss_matrix(la, lb) -> tuple:
    index, vectors = gloss_space()
    va = np.stack([vectors[index[w]] if w in index else np.zeros(vectors.shape[1], np.float32) for w in la])
    vb = np.stack([vectors[index[w]] if w in index else np.zeros(vectors.shape[1], np.float32) for w in lb])
    return clipped_cosines(la, lb, va, vb), va, vb


def embedding_row(f, a, b):
    row = []
    for level in f.LEVELS:
        la, lb = list(getattr(a, level)), list(getattr(b, level))
        if not la or not lb:
            row += embedding._one_sided(la, lb)
            continue
        va, vb = unit_vectors(la), unit_vectors(lb)
        sa = weighted_sum([sif_weight(w) for w in la], va)
        sb = weighted_sum([sif_weight(w) for w in lb], vb)
        sims = clipped_cosines(la, lb, va, vb)
        ma, mb = sims.max(axis=1), sims.max(axis=0)
        wa = np.asarray([information_content(w) for w in la])
        wb = np.asarray([information_content(w) for w in lb])
        row += [cosine(va.mean(axis=0), vb.mean(axis=0)), cosine(sa, sb),
                harmonic(float(ma.mean()), float(mb.mean())),
                harmonic(weighted_mean(ma, wa), weighted_mean(mb, wb)),
                math.log1p(float(wa[ma < MATCHED].sum() + wb[mb < MATCHED].sum()))]
    return row


def alignment_row(f, a, b):
    la, lb = sorted(set(a.content)), sorted(set(b.content))
    if not la or not lb:
        return f._unmatched_side(la, lb)
    gloss, _, _ = gloss_matrix(la, lb)
    wordnet = np.asarray(similarity_table(la, lb))
    sims = np.maximum(np.maximum(gloss, wordnet), aligned_cosines(la, lb))
    ma, mb = sims.max(axis=1), sims.max(axis=0)
    wa = np.asarray([information_content(w) for w in la])
    wb = np.asarray([information_content(w) for w in lb])
    ua, ub = float(wa[ma < MATCHED].sum()), float(wb[mb < MATCHED].sum())
    unmatched = int((ma < MATCHED).sum() + (mb < MATCHED).sum())
    return [harmonic(float(ma.mean()), float(mb.mean())),
            harmonic(weighted_mean(ma, wa), weighted_mean(mb, wb)),
            math.log1p(min(ua, ub)), math.log1p(max(ua, ub)),
            1.0 - ratio(unmatched, len(la) + len(lb)),
            1.0 - ratio(ua + ub, float(wa.sum() + wb.sum())),
            *sorted((float(ma.min()), float(mb.min()))),
            *sorted((float(np.sort(ma)[:2].mean()), float(np.sort(mb)[:2].mean()))),
            *sorted((float((wa * (1 - ma)).max()), float((wb * (1 - mb)).max()))),
            float(unmatched)]


def gloss_row(f, a, b):
    la, lb = sorted(set(a.content)), sorted(set(b.content))
    if not la or not lb:
        return gloss_features._one_sided(la, lb)
    sims, va, vb = gloss_matrix(la, lb)
    wa = np.asarray([information_content(w) for w in la], dtype=np.float32)
    wb = np.asarray([information_content(w) for w in lb], dtype=np.float32)
    ma, mb = sims.max(axis=1), sims.max(axis=0)
    ab, ba = float(ma.mean()), float(mb.mean())
    ica, icb = weighted_mean(ma, wa), weighted_mean(mb, wb)
    known = sum(w in gloss_space()[0] for w in la + lb)
    return [cosine(weighted_sum(wa, va), weighted_sum(wb, vb)), ab, ba, harmonic(ab, ba), harmonic(ica, icb),
            known / (len(la) + len(lb))]


def static_alignment_row(f, a, b):
    row = []
    for level in LEVELS:
        la, lb = level_words(a, level), level_words(b, level)
        if not la or not lb:
            row += static_vectors._one_sided(la, lb)
            continue
        sims = clipped_cosines(la, lb, word_vectors(la, unit=True), word_vectors(lb, unit=True))
        ma, mb = sims.max(axis=1), sims.max(axis=0)
        row += static_vectors._scores(float(ma.mean()), float(mb.mean()), weighted_mean(ma, static_vectors._ic(la)),
                                      weighted_mean(mb, static_vectors._ic(lb)))
    return row


def sif_vector(words: list) -> np.ndarray:
    if not words:
        return np.zeros(word_vectors([]).shape[1])
    return weighted_sum([sif_weight(w.lower()) / len(words) for w in words], word_vectors(words))


def static_sif_row(f, a, b):
    row = []
    for level, u in zip(LEVELS, f.components_):
        sa, sb = sif_vector(level_words(a, level)), sif_vector(level_words(b, level))
        row.append(cosine(sa - float(products(sa, u).sum()) * u, sb - float(products(sb, u).sum()) * u))
    return row


REFERENCES = {EmbeddingSimilarity: embedding_row, Alignment: alignment_row, GlossSimilarity: gloss_row,
              StaticAlignment: static_alignment_row, StaticSIF: static_sif_row}

EDGES = [
    ("", ""), ("", "A dog."), ("The cat.", ""), ("...", "!!!"), ("a", "a"), ("Dog", "dog"),
    ("the the the", "of of"), ("zzyzx qwxzzyq", "zzyzx"), ("A man plays a flute.", "A man plays a flute."),
    ("A dog runs and a dog barks and a dog sleeps.", "Dogs run."), ("Paris in 1999, 2,000 people", "In Paris"),
    (" ".join(["word"] * 300), " ".join(f"w{i}" for i in range(120))),
]


def pairs():
    demo = [tuple(p) for sub in corpora.load("demo-train") for p in sub.pairs]
    return demo + EDGES


@pytest.mark.parametrize("family", list(REFERENCES), ids=lambda f: f.__name__)
def test_a_family_computes_a_chunk_as_its_one_pair_reference_does(family):
    data = pairs()
    f = family().fit(data)
    reference = np.asarray([REFERENCES[family](f, a, b) for a, b in f.analyses(data)], dtype=float)
    got = f.transform(data)
    assert got.shape == reference.shape and got.tobytes() == reference.tobytes()
    for k in (1, 7):  # and whatever the chunk: one pair, a few
        assert f.transform(data[:k]).tobytes() == reference[:k].tobytes()
    assert f.transform([]).shape == (0, len(f.get_feature_names_out()))


def test_the_embedding_family_on_long_pairs_equals_its_one_pair_reference():
    pairs = [paraphrased(random.Random(11), 5_000), (demo_text(random.Random(12), 5_000), "A man plays a guitar."),
             ("", demo_text(random.Random(13), 3_000))]
    f = EmbeddingSimilarity()
    reference = np.asarray([embedding_row(f, a, b) for a, b in f.analyses(pairs)], dtype=float)
    assert f.transform(pairs).tobytes() == reference.tobytes()


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


def test_sif_vectors_in_parts_of_a_few_words_are_the_bits_of_one_call(monkeypatch):
    data = pairs()
    whole = StaticSIF().fit(data)
    expected = whole.transform(data)
    monkeypatch.setattr(static_vectors, "SIF_WORDS", 5)  # many parts; the 300-word side a part of its own
    parted = StaticSIF().fit(data)
    assert parted.components_.tobytes() == whole.components_.tobytes()
    assert parted.transform(data).tobytes() == expected.tobytes()
