"""Issue 32, long texts: the families' fast paths for long sides (GST's short rounds on window indexes, the WordNet
table by shared synsets, the embedding's best matches on distinct words) give exactly what their textbook or
cell-by-cell references give, on random and on long inputs, and a few 5,000-character pairs go through the
committed model in normal time. Timings live in benchmarks/long_texts.py and benchmarks/RESULTS.md."""
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

from semsts.features import embedding as emb
from semsts.features import wordnet_features as wf
from semsts.features.batched import Sides
from semsts.features.strings import gst
from semsts.features.strings.reference import gst_tiles_wise
from semsts.features.substrings import CommonSubstrings
from tests.conftest import demo_text, paraphrased

ROOT = Path(__file__).resolve().parents[1]


# --- Greedy String Tiling: the window rounds (below gst.LONG) against Wise's scan and the run buckets.


@pytest.mark.parametrize("seed", range(12))
def test_gst_equals_wise_on_random_texts_across_both_phases(seed):
    rng = random.Random(seed)
    alphabet = rng.choice(["ab", "abc", "ab ", "the cat sat", "abcdefghij "])
    a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 160)))
    b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 160)))
    for k in (1, 2, 3, 5, gst.LONG - 1, gst.LONG, gst.LONG + 3):
        assert gst.gst_tiles(a, b, k) == gst_tiles_wise(a, b, k), (seed, k)


@pytest.mark.parametrize("seed", range(3))
def test_gst_equals_wise_on_paraphrased_english(seed):
    a, b = paraphrased(random.Random(seed), 300)
    for k in (2, 3, 6):
        assert gst.gst_tiles(a, b, k) == gst_tiles_wise(a, b, k)


@pytest.mark.parametrize("seed", range(2))
def test_gst_on_5000_character_sides_equals_the_run_buckets_alone(seed, monkeypatch):
    """On long sides Wise's scan is too slow to run; the buckets of every run (``LONG`` = 1, the algorithm before
    issue 32, itself checked against Wise in tests/test_strings.py) give the same tiles in the same order."""
    a, b = (s.lower() for s in paraphrased(random.Random(seed), 5_000))
    fast = {k: gst.gst_tiles(a, b, k) for k in (2, 3)}
    monkeypatch.setattr(gst, "LONG", 1)
    for k, tiles in fast.items():
        assert tiles == gst.gst_tiles(a, b, k)
        assert sum(n for *_, n in tiles) > 2_000


def test_the_common_substring_family_on_long_pairs_equals_its_single_calls():
    pairs = [paraphrased(random.Random(7), 5_000), (demo_text(random.Random(8), 5_000), demo_text(random.Random(9), 4_000))]
    got = CommonSubstrings().transform(pairs)
    for row, (a, b) in zip(got, pairs):
        ca, cb = (" ".join(words_of(s)) for s in (a, b))
        assert row[2] == gst.gst_similarity(ca, cb, 3) and row[3] == gst.gst_similarity(cb, ca, 3)
        assert row[4] == gst.gst_similarity(ca, cb, 3, symmetric=True)


def words_of(text: str) -> tuple:
    from semsts.features.text import analyse
    return analyse(text).words


# --- The WordNet table of a long pair: by shared synsets, the floats of word_similarity cell by cell.


def lemma_pool() -> list[str]:
    from semsts.corpora.wordnet import wordnet
    return sorted(w for w in wordnet().all_lemma_names() if w.isalpha())


@pytest.mark.parametrize("joined", [1, 37, wf.JOINED])
def test_the_wordnet_table_by_synsets_equals_the_cell_by_cell_table(joined, monkeypatch):
    monkeypatch.setattr(wf, "JOINED", joined)  # joined in parts of any size: the same table
    rng, pool = random.Random(joined), lemma_pool()
    for _ in range(3):
        shared = rng.sample(pool, 5) + ["qzxv", "run", "dog"]  # the same lemma on both sides, one WordNet lacks
        left = sorted(set(rng.sample(pool, 40) + shared))
        right = sorted(set(rng.sample(pool, 35) + shared + ["blorf"]))
        fast = wf._table_by_synsets(left, right)
        assert fast == wf._table(left, right)
        assert [list(map(repr, row)) for row in fast] == [list(map(repr, row)) for row in wf._table(left, right)]


def test_a_long_pairs_wordnet_table_goes_by_synsets_and_reads_as_before():
    from semsts.features.text import analyse
    a, b = paraphrased(random.Random(3), 5_000)
    left, right = sorted(set(analyse(a).content)), sorted(set(analyse(b).content))
    assert len(left) * len(right) > wf.SHARED_CELLS
    assert wf.similarity_table(left, right) == wf._table(left, right)


# --- The embedding family on long sides: best matches on distinct words, the same bits as on every word.


def test_best_matches_on_distinct_words_equal_those_on_every_word(monkeypatch):
    from semsts.corpora.word_vectors import unit_vectors
    from semsts.features.text import analyse
    pairs = [paraphrased(random.Random(s), 5_000) for s in range(2)] + [("A cat.", "A dog sat on the mat.")]
    sides = [(list(analyse(a).words), list(analyse(b).words)) for a, b in pairs]
    a, b = Sides.of([x for x, _ in sides]), Sides.of([y for _, y in sides])
    va, vb = unit_vectors(a.words), unit_vectors(b.words)
    calls, real = [], emb.best_matches
    monkeypatch.setattr(emb, "best_matches", lambda *args, **kw: calls.append(kw) or real(*args, **kw))
    fast = emb.best_matches(a, b, va, vb)
    assert {"distinct": False} in calls  # the distinct tables were taken
    plain = real(a, b, va, vb, distinct=False)
    assert all(x.tobytes() == y.tobytes() for x, y in zip(fast, plain))


# --- The committed model on long pairs: through the library and through `sts run`, in normal time.


def test_a_few_5000_character_pairs_go_through_the_committed_model(data_dir):
    from semsts import load_model
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        models, _ = load_model(ROOT / "models" / "stsb.skops")
    pairs = [paraphrased(random.Random(s), 5_000) for s in range(3)]
    scores = models.predict(pairs)
    assert scores.shape == (3,) and np.isfinite(scores).all()


def test_sts_run_scores_a_users_file_of_long_pairs(tmp_path, data_dir, monkeypatch, capsys):
    from semsts import cli
    a, b = paraphrased(random.Random(20), 5_000)
    (tmp_path / "long.tsv").write_text(f"sentence1\tsentence2\n{a}\t{b}\n{b}\t{a}\n")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["run", "regression", "--model", str(ROOT / "models" / "stsb.skops"), "--test", "long.tsv",
                     "--out", "out", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert "Traceback" not in capsys.readouterr().err
    outputs = [p for p in (tmp_path / "out").iterdir() if p.name != "sts-run.json"]
    assert outputs and all(len(p.read_text().split()) == 2 for p in outputs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.tsv", "out"]  # nothing else written
