"""Tests of semsts.core.stats: one Pearson (weighted, row-wise, and its numpy-free twin) with one rule for
undefined input, and the estimators' Pearson (semsts.baselines.base.pearson) as that one after dropping NaN gold."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semsts.baselines import base
from semsts.core.stats import pearson, pearson_plain, pearson_rows, spearman

SCORES = st.floats(min_value=0, max_value=5, allow_nan=False, width=64)


def same(a: float, b: float, tol: float = 1e-12) -> bool:
    """Equal within ``tol``, NaN exactly where the other is NaN."""
    return (math.isnan(a) and math.isnan(b)) or (not math.isnan(a) and not math.isnan(b) and abs(a - b) <= tol)


def test_pearson_plain_against_numpy_and_by_hand():
    assert pearson_plain([1.5, 2, 3.5, 5], [1, 2, 4, 5]) == pytest.approx(8.5 / math.sqrt(75), abs=1e-15)
    rng = np.random.default_rng(0)
    for _ in range(200):
        x, y = rng.uniform(0, 5, 50), rng.uniform(0, 5, 50)
        assert pearson_plain(list(x), list(y)) == pytest.approx(pearson(x, y), abs=1e-13)
    assert math.isnan(pearson_plain([1, 1, 1], [1, 2, 3])) and math.isnan(pearson_plain([1], [2]))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60).flatmap(lambda n: st.tuples(st.lists(SCORES, min_size=n, max_size=n),
                                                      st.lists(SCORES, min_size=n, max_size=n))))
def test_the_numpy_free_twin_agrees_on_random_input(xy):
    x, y = xy
    assert same(pearson_plain(x, y), pearson(x, y))


@settings(max_examples=300, deadline=None)
@given(SCORES, st.lists(SCORES, min_size=0, max_size=60), st.booleans())
def test_the_numpy_free_twin_agrees_on_constant_input(value, other, constant_first):
    """A constant side is NaN in both, whatever its value and length (its mean may round off the value)."""
    x, y = ([value] * len(other), other) if constant_first else (other, [value] * len(other))
    assert math.isnan(pearson_plain(x, y)) and math.isnan(pearson(x, y))
    assert math.isnan(pearson_rows([x], [y])[0]) if len(other) else True


@pytest.mark.parametrize("value", [0.1, 0.7, 1 / 3, 2.9, 4.2])
@pytest.mark.parametrize("n", [3, 7, 10, 101])
def test_a_constant_side_is_undefined_even_when_its_mean_rounds_off(value, n):
    """The rule is all values equal, not a variance of 0: 7 x 0.1 has a mean that is not 0.1, so the old test left r
    0.0 for some values and lengths, NaN for others."""
    x, y = [value] * n, list(range(n))
    assert math.isnan(pearson(x, y)) and math.isnan(pearson(y, x)) and math.isnan(pearson_plain(x, y))
    assert math.isnan(pearson(x, y, weights=np.arange(1, n + 1))) and math.isnan(spearman(x, y))
    assert np.isnan(pearson_rows([x, y], [y, x])).all()


def test_pearson_rows_is_pearson_of_each_row():
    rng = np.random.default_rng(4)
    x, y = rng.uniform(0, 5, (30, 12)), rng.uniform(0, 5, (30, 12))
    x[3] = 2.0
    assert all(same(r, pearson(a, b)) for r, a, b in zip(pearson_rows(x, y), x, y))
    assert math.isnan(pearson_rows(x, y)[3])


def test_the_estimators_pearson_drops_nan_gold_then_is_the_one_pearson():
    rng = np.random.default_rng(5)
    gold, predicted, w = rng.uniform(0, 5, 40), rng.uniform(0, 5, 40), rng.uniform(0.5, 2, 40)
    gold[[2, 11, 30]] = math.nan
    keep = ~np.isnan(gold)
    assert base.pearson(gold, predicted) == pearson(predicted[keep], gold[keep])
    assert base.pearson(gold, predicted, w) == pearson(predicted[keep], gold[keep], weights=w[keep])
    assert math.isnan(base.pearson([1.0, math.nan, 2.0], [3.0, 1.0, 3.0]))  # a constant prediction has no r
    with pytest.raises(ValueError, match="3 predicted scores but 2 gold scores"):
        base.pearson([1.0, 2.0], [1.0, 2.0, 3.0])


@pytest.mark.parametrize("x, y", [([0.0, 1.1591900434615594e-117], [0.0, 1.1591900434615594e-117]),
                                  ([0.0, 1e200, 3e200], [1.0, 2.0, 2.5]), ([1e-160, 2e-160, 4e-160], [3.0, 1.0, 2.0])])
def test_pearson_where_the_squares_under_or_overflow(x, y):
    """Scores whose squared deviations under- or overflow: the r of the same scores rescaled, in every twin."""
    from scipy.stats import pearsonr
    want = pearsonr(np.array(x) / max(x), np.array(y) / max(y))[0]
    assert pearson(x, y) == pytest.approx(want, abs=1e-12)
    assert pearson_plain(x, y) == pytest.approx(want, abs=1e-12)
    assert pearson_rows(np.array([x]), np.array([y]))[0] == pytest.approx(want, abs=1e-12)


WIDE = (-1e308, 1e308)  # two finite bounds whose width, 2e308, is beyond a float (issue 44, kind 7)


@pytest.mark.parametrize("bad", [WIDE, (0.0, math.inf), (math.nan, 1.0), (1.0, 1.0), (5.0, 0.0), (0, 10**400),
                                 ("a", "b"), (1.0,)])
def test_one_range_check_refuses_a_range_wider_than_a_float_wherever_a_range_is_declared(tmp_path, bad):
    """A scorer's declared score_range, a user's file's score_range, a system's score_range parameter and
    evaluate.py's --range: one check, one message; a range as wide as a float allows is taken."""
    from semsts import corpora
    from semsts.baselines.token_cosine import TokenCosine
    from semsts.core.stats import checked_range
    from semsts.eval_cli import build_parser
    from semsts.features.scorers import declared_range
    wanted = r"score_range must be two finite numbers, low < high, whose difference is a finite float; got "
    (tmp_path / "x.tsv").write_text("sentence1\tsentence2\tscore\na b\tc d\t0\n")

    def scorer(pairs):
        return [0.0] * len(pairs)
    scorer.score_range = bad
    with pytest.raises(ValueError, match=r"scorer .*scorer: " + wanted):
        declared_range(scorer)
    with pytest.raises(ValueError, match=wanted):
        corpora.load_path(tmp_path / "x.tsv", score_range=bad)
    with pytest.raises(ValueError, match=wanted):
        TokenCosine(score_range=bad).fit([("a", "b")])
    if len(bad) == 2 and all(isinstance(v, float) and v >= 0 for v in bad):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["--range", f"{bad[0]}-{bad[1]}", "g", "s"])
    assert checked_range((-7e307, 1e308)) == (-7e307, 1e308)  # a width of 1.7e308 is a float
