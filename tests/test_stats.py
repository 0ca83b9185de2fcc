"""The scorer's statistics against hand-computed values, scipy for the normal parts, and properties."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from semsts import evaluate


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


def test_fisher_ci_by_hand():
    # r = .5, n = 28: atanh(.5) = .549306, se = 1/5, q = 1.959964 -> tanh(.157313) = .156028, tanh(.941299) = .735818
    lo, hi = evaluate.fisher_ci(.5, 28)
    assert (lo, hi) == pytest.approx((0.156028, 0.735818), abs=1e-6)
    lo99, hi99 = evaluate.fisher_ci(.5, 28, level=.99)
    assert lo99 < lo and hi99 > hi
    assert evaluate.fisher_ci(-.5, 28) == pytest.approx((-hi, -lo))


def test_fisher_z_test_by_hand():
    # r1 = .5, r2 = .3, n = 103 each: z1 = .5493061, z2 = .3095196, se = sqrt(2/100),
    # z = .2397865 / .1414214 = 1.695547, one-tailed p = 1 - Phi(1.695547) = .044986
    z, p = evaluate.fisher_z_test(.5, 103, .3)
    assert z == pytest.approx(1.695547, abs=1e-6)
    assert p == pytest.approx(0.044986, abs=1e-6)
    assert p == pytest.approx(stats.norm.sf(z), abs=1e-15)


def test_fisher_z_test_properties():
    z, p = evaluate.fisher_z_test(.3, 103, .5)
    assert z == pytest.approx(-1.695547, abs=1e-6) and p == pytest.approx(1 - 0.044986, abs=1e-6)
    assert evaluate.fisher_z_test(.6, 200, .6) == pytest.approx((0.0, 0.5))
    # unequal sizes: se = sqrt(1/97 + 1/47)
    z, _ = evaluate.fisher_z_test(.5, 100, .3, 50)
    assert z == pytest.approx((math.atanh(.5) - math.atanh(.3)) / math.sqrt(1 / 97 + 1 / 47), abs=1e-12)
    assert evaluate.fisher_z_test(.8239, 3108, .8135)[1] < evaluate.fisher_z_test(.8239, 500, .8135)[1]


def test_williams_by_hand():
    # r12 = .5, r13 = .3, r23 = .6, n = 100:
    # |R| = 1 - .25 - .09 - .36 + 2(.5)(.3)(.6) = .48;  rbar = .4
    # denominator = 2(.48)(99/97) + .4^2 (1 - .6)^3 = .979794 + .010240 = .990034
    # t = .2 sqrt(99 * 1.6 / .990034) = 2.529779;  one-tailed p with 97 df = .006512
    t, p = evaluate.williams_test(.5, .3, .6, 100)
    assert t == pytest.approx(2.529779, abs=1e-6)
    assert p == pytest.approx(0.006512, abs=1e-6)
    assert p == pytest.approx(stats.t.sf(t, 97), abs=1e-15)


def test_williams_properties():
    t, p = evaluate.williams_test(.3, .5, .6, 100)
    assert t == pytest.approx(-2.529779, abs=1e-6) and p == pytest.approx(1 - 0.006512, abs=1e-6)
    assert evaluate.williams_test(.4, .4, .5, 100) == pytest.approx((0.0, 0.5))
    # the more the two systems agree, the more a given gap means
    assert evaluate.williams_test(.5, .4, .9, 100)[1] < evaluate.williams_test(.5, .4, .3, 100)[1]
    # shared-gold dependence makes Williams sharper than the independent Fisher test here
    assert evaluate.williams_test(.5, .3, .6, 103)[1] < evaluate.fisher_z_test(.5, 103, .3)[1]


def test_williams_size_under_the_null():
    """Two systems equally correlated with the gold: about 5% rejections at the 5% level."""
    rng = np.random.default_rng(4)
    cov = np.array([[1, .5, .5], [.5, 1, .4], [.5, .4, 1]])
    samples = rng.multivariate_normal(np.zeros(3), cov, size=(1000, 40))
    rejections = 0
    for s in samples:
        r = np.corrcoef(s.T)
        rejections += evaluate.williams_test(r[0, 1], r[0, 2], r[1, 2], 40)[1] < 0.05
    assert 0.03 <= rejections / 1000 <= 0.07


def _systems(n=120, seed=5):
    rng = np.random.default_rng(seed)
    gold = rng.uniform(0, 5, n)
    good = gold + rng.normal(scale=1.0, size=n)
    bad = gold + rng.normal(scale=3.0, size=n)
    return gold, good, bad


def test_paired_bootstrap_is_deterministic_by_seed():
    gold, good, bad = _systems()
    first = evaluate.paired_bootstrap(gold, good, bad, n_resamples=200, seed=7)
    assert first == evaluate.paired_bootstrap(gold, good, bad, n_resamples=200, seed=7)
    assert first.ci != evaluate.paired_bootstrap(gold, good, bad, n_resamples=200, seed=8).ci
    assert (first.n_resamples, first.seed) == (200, 7)


def test_paired_bootstrap_properties():
    gold, good, bad = _systems()
    res = evaluate.paired_bootstrap(gold, good, bad, n_resamples=300, seed=0)
    assert res.difference == pytest.approx(evaluate.pearson(good, gold) - evaluate.pearson(bad, gold))
    assert 0 < res.ci[0] < res.difference < res.ci[1]
    assert res.p_value < 0.01
    swapped = evaluate.paired_bootstrap(gold, bad, good, n_resamples=300, seed=0)
    assert swapped.ci == pytest.approx((-res.ci[1], -res.ci[0]))
    assert swapped.p_value > 0.99
    same = evaluate.paired_bootstrap(gold, good, good, n_resamples=50, seed=0)
    assert same.difference == 0 and same.ci == (0, 0) and same.p_value == 1.0


def test_paired_bootstrap_agrees_with_williams_on_a_clear_gap():
    gold, good, bad = _systems(n=300, seed=6)
    r12, r13, r23 = evaluate.pearson(good, gold), evaluate.pearson(bad, gold), evaluate.pearson(good, bad)
    _, p_williams = evaluate.williams_test(r12, r13, r23, 300)
    p_boot = evaluate.paired_bootstrap(gold, good, bad, n_resamples=300, seed=0).p_value
    assert p_williams < 0.01 and p_boot < 0.01


def test_paired_bootstrap_refuses_mismatched_lengths():
    with pytest.raises(ValueError, match="differ in length"):
        evaluate.paired_bootstrap([1, 2, 3], [1, 2, 3], [1, 2])


@settings(max_examples=30, deadline=None)
@given(st.floats(0.1, 10), st.floats(-5, 5), st.floats(0.1, 10), st.floats(-5, 5), st.integers(0, 1000))
def test_allnorm_ignores_per_subset_linear_maps_and_pearson_ignores_any(a1, b1, a2, b2, seed):
    """ALLnorm refits each subset's line, so a positive linear map per subset changes nothing; ALL it may."""
    rng = np.random.default_rng(seed)
    g1, g2 = rng.uniform(0, 5, 30), rng.uniform(0, 5, 20)
    s1, s2 = g1 + rng.normal(size=30), g2 + rng.normal(size=20)
    base = evaluate.score_subsets([("a", s1, g1), ("b", s2, g2)])
    moved = evaluate.score_subsets([("a", a1 * s1 + b1, g1), ("b", a2 * s2 + b2, g2)])
    assert moved["allnorm"] == pytest.approx(base["allnorm"], abs=1e-9)
    assert moved["subsets"]["a"]["pearson"] == pytest.approx(base["subsets"]["a"]["pearson"], abs=1e-9)
    assert moved["mean"] == pytest.approx(base["mean"], abs=1e-9)
