"""Tests of semsts.scoring.correlations: Pearson, Spearman, weighted Pearson and the least-squares map, by hand and against scipy."""
import math

import numpy as np
import pytest
from scipy import stats

from semsts import evaluate

# --- The scorer's statistics against hand-computed values, scipy for the normal parts, and properties.


def test_pearson_and_spearman_match_scipy():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=50), rng.normal(size=50)
    y = y + x
    assert evaluate.pearson(x, y) == pytest.approx(stats.pearsonr(x, y)[0], abs=1e-12)
    ties = np.round(x)
    assert evaluate.spearman(ties, y) == pytest.approx(stats.spearmanr(ties, y)[0], abs=1e-12)


def test_weighted_pearson_by_hand():
    # x=[1,2,3], y=[1,3,2], w=[1,1,2]: means 2.25 and 2; sxy = 1.25 - .25 + 0 = 1,
    # sxx = 1.5625 + .0625 + 2 * .5625 = 2.75, syy = 2, r = 1 / sqrt(5.5).
    assert evaluate.pearson([1, 2, 3], [1, 3, 2], weights=[1, 1, 2]) == pytest.approx(1 / math.sqrt(5.5), abs=1e-12)


def test_weighted_pearson_properties():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=20), rng.normal(size=20)
    assert evaluate.pearson(x, y, weights=np.full(20, 7.0)) == pytest.approx(evaluate.pearson(x, y), abs=1e-12)
    w = rng.integers(1, 4, size=20)  # an integer weight is the same as repeating the pair
    assert evaluate.pearson(x, y, weights=w) == pytest.approx(evaluate.pearson(np.repeat(x, w), np.repeat(y, w)), abs=1e-12)
    assert math.isnan(evaluate.pearson(x, y, weights=np.zeros(20)))  # all-zero confidences: undefined


def test_constant_side_has_no_pearson():
    assert math.isnan(evaluate.pearson([2.5] * 5, [1, 2, 3, 4, 5]))
    assert math.isnan(evaluate.spearman([1, 2, 3, 4, 5], [3] * 5))
    assert all(math.isnan(v) for v in evaluate.fisher_ci(math.nan, 100))


def test_least_squares_map_is_the_regression_line():
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 5, 40)
    y = 0.3 * x + rng.normal(size=40)
    slope, intercept = np.polyfit(x, y, 1)
    assert evaluate.least_squares_map(x, y) == pytest.approx(slope * x + intercept, abs=1e-10)
    assert evaluate.least_squares_map(np.ones(4), [1, 2, 3, 6]) == pytest.approx([3, 3, 3, 3])
