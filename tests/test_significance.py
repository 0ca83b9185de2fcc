"""Tests of semsts.scoring.significance: Fisher intervals and tests, Williams and the paired bootstrap, by hand and as properties."""
import math

import numpy as np
import pytest
from scipy import stats

from semsts import evaluate

# --- The scorer's statistics against hand-computed values, scipy for the normal parts, and properties.


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


