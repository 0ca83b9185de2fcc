"""Tests of semsts.features.strings: LCS and Greedy String Tiling, exact and bounded on repetitive pairs."""
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semsts import corpora
from semsts.features.strings import gst, lcs
from semsts.features.strings.gst import gst_coverage, gst_similarity, gst_similarity_many, gst_tiles
from semsts.features.strings.lcs import lcs_length, lcs_similarity, lcs_similarity_many
from semsts.features.strings.reference import gst_tiles_wise, lcs_length_dp
from semsts.features.strings.runs import diagonal_runs

# --- LCS and Greedy String Tiling: hand values, properties, and exact agreement with the textbook versions.


few = st.text(alphabet="abAB .", max_size=40)  # small alphabet: many long common runs
any_text = st.text(max_size=40)


def test_lcs_hand_values():
    assert lcs_length("the cat sat", "a cat") == 4  # " cat"
    assert lcs_similarity("abcdef", "xcdex") == pytest.approx(2 * 3 / 11)
    assert lcs_length("Cat", "cat") == 2  # case-sensitive
    assert lcs_similarity("", "") == lcs_similarity("abc", "") == 0.0


def test_gst_hand_values():
    # "abcdefgh" and "xyzabcdefgh": one tile of 8; covers all of the first, 8 of 11 of the second
    assert gst_tiles("abcdefgh", "xyzabcdefgh", 6) == [(0, 3, 8)]
    assert gst_similarity("xyzABCDEFGH", "abcdefgh") == pytest.approx(8 / 11)
    assert gst_similarity("xyzABCDEFGH", "abcdefgh", symmetric=True) == pytest.approx(16 / 19)
    # transposed blocks are both found, unlike LCS
    assert gst_coverage("abcdefg1234567", "1234567abcdefg", 6) == 14
    assert gst_similarity("abcde", "abcde") == 0.0  # shorter than the minimum match
    assert gst_similarity("abcde", "abcde", min_match=3) == 1.0


def test_gst_rejects_a_minimum_match_below_one():
    with pytest.raises(ValueError, match="min_match"):
        gst_tiles("abc", "abc", 0)


@settings(max_examples=300, deadline=None)
@given(few, few)
def test_lcs_fast_equals_dynamic_programme(a, b):
    assert lcs_length(a, b) == lcs_length_dp(a, b)


@settings(max_examples=300, deadline=None)
@given(few, few, st.integers(1, 7))
def test_gst_fast_equals_wise_exactly(a, b, k):
    assert gst_tiles(a, b, k) == gst_tiles_wise(a, b, k)


@settings(max_examples=200, deadline=None)
@given(any_text, any_text, st.integers(1, 7), st.booleans())
def test_range_and_symmetry(a, b, k, symmetric):
    assert 0.0 <= lcs_similarity(a, b) <= 1.0
    assert lcs_similarity(a, b) == lcs_similarity(b, a)
    value = gst_similarity(a, b, k, symmetric)
    assert 0.0 <= value <= 1.0
    if symmetric:
        assert value == gst_similarity(b, a, k, True)


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=40), st.integers(1, 7), st.booleans())
def test_identity_gives_one(a, k, symmetric):
    assert lcs_similarity(a, a) == 1.0
    expected = 1.0 if len(a.lower()) >= k else 0.0
    assert gst_similarity(a, a, k, symmetric) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abc", min_size=1, max_size=30), st.text(alphabet="xyz", min_size=1, max_size=30),
       st.integers(1, 7), st.booleans())
def test_disjoint_texts_give_zero(a, b, k, symmetric):
    assert lcs_similarity(a, b) == 0.0
    assert gst_similarity(a, b, k, symmetric) == 0.0


def test_batched_forms_equal_the_plain_ones():
    pairs = [("A cat sat on the mat", "the cat sat"), ("", "x"), ("repetition repetition", "repetition")]
    assert np.array_equal(lcs_similarity_many(pairs), [lcs_similarity(a, b) for a, b in pairs])
    assert np.array_equal(gst_similarity_many(pairs, 3, True), [gst_similarity(a, b, 3, True) for a, b in pairs])
    assert lcs_similarity_many([]).shape == (0,)


# --- Issue 12, defect 15: work per pair stays bounded and near-linear, however repetitive the texts.
# Timings live in benchmarks/pathological_pairs.py; these tests check the structure on small inputs
# (which paths run, how often a run is looked at) with the bounds lowered where needed.


WORDS = "the cat sat on a mat by door".split()


def eight_words(n_words: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def test_a_repetitive_pair_does_not_enumerate_its_runs_for_lcs(monkeypatch):
    a, b = eight_words(300, 1), eight_words(300, 2)
    monkeypatch.setattr(lcs, "WORK_FLOOR", 0, raising=False)
    monkeypatch.setattr(lcs, "WORK_PER_CHAR", 1, raising=False)

    def quadratic(*args):
        raise AssertionError("runs enumerated for a pair whose windows match far more often than its length")

    monkeypatch.setattr(lcs, "diagonal_runs", quadratic)
    assert lcs.lcs_length(a, b) == lcs_length_dp(a, b)


@pytest.mark.parametrize("seed", range(20))
def test_the_hashed_lcs_is_exact(seed):
    rng = random.Random(seed)
    alphabet = rng.choice(["ab", "abc", "ab é", "the cat"])
    a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
    b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
    assert lcs.lcs_length_hashed(a, b) == lcs_length_dp(a, b)


def test_gst_looks_at_each_run_a_bounded_number_of_times(monkeypatch):
    """The greedy rounds no longer rescan every live run: ~85,000 looks at 6,700 runs before, ~7,400 now."""
    rng = random.Random(0)
    sentences = [s.lower() for pair in corpora.load("demo-train").pairs for s in pair]
    a = " ".join(rng.choice(sentences) for _ in range(40))
    b = " ".join(rng.choice(sentences) for _ in range(40))
    looks, real = [], gst._free_parts
    monkeypatch.setattr(gst, "_free_parts", lambda *args: looks.append(1) or real(*args))
    tiles = gst.gst_tiles(a, b, 3)
    assert len(looks) <= 2 * len(diagonal_runs(a, b, 3))
    assert len(tiles) > 100


def test_a_repetitive_pair_is_tiled_on_bounded_prefixes_with_a_warning(monkeypatch):
    a, b = eight_words(200, 3), eight_words(200, 4)
    exact = sum(n for *_, n in gst_tiles_wise(a, b, 6))
    monkeypatch.setattr(lcs, "WORK_FLOOR", 0, raising=False)
    monkeypatch.setattr(lcs, "WORK_PER_CHAR", 1, raising=False)
    limit = len(a) + len(b)  # 1,396 window matches allowed; the pair has 2,686
    enumerated, real = [], gst.diagonal_runs
    monkeypatch.setattr(gst, "diagonal_runs", lambda x, y, k: enumerated.append(lcs.window_matches(x, y, k)) or real(x, y, k))
    with pytest.warns(getattr(gst, "CappedPair", Warning), match=r"repeats too much to tile whole in bounded work \(min "
                      r"match 6\); tiled on its first \d+ and \d+ characters, so its coverage is a lower bound"):
        covered = gst.gst_coverage(a, b, 6)
    assert enumerated and max(enumerated) <= limit
    assert 0 < covered <= exact


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.text("abAB c", max_size=14), st.text("abAB c", max_size=14)), max_size=6),
       st.integers(1, 4))
def test_gst_both_ways_and_symmetric_are_the_three_single_calls(pairs, k):
    """Issue 22: the common-substring family tiles each pair twice, not three times; the symmetric figure is the
    tiling of the longer side (then the larger text) against the other, which one of the two ways already is."""
    from semsts.features.strings.gst import gst_similarity_ways
    pairs += [("Ab", ""), ("", ""), ("aB aB", "ab ab"), ("ba", "ab")]  # empty sides, case, equal lengths
    expected = [[gst_similarity(a, b, k), gst_similarity(b, a, k), gst_similarity(a, b, k, True)] for a, b in pairs]
    assert np.array_equal(gst_similarity_ways(pairs, k), np.asarray(expected, dtype=float).reshape(len(pairs), 3))
