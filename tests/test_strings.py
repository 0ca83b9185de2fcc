"""LCS and Greedy String Tiling: hand values, properties, and exact agreement with the textbook versions."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semsts.features.strings.gst import gst_coverage, gst_similarity, gst_similarity_many, gst_tiles
from semsts.features.strings.lcs import lcs_length, lcs_similarity, lcs_similarity_many
from semsts.features.strings.reference import gst_tiles_wise, lcs_length_dp

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
