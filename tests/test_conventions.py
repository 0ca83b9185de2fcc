"""Aggregation conventions (official, SentEval, SimCSE "all", MTEB) against hand-computed values."""
import math

import numpy as np
import pytest

from semsts.scoring import conventions as cv

NAN = math.nan
# Subset A: four scored pairs. Subset B: three scored pairs and one unscored pair whose wild
# prediction (9) would change every figure if it were not dropped.
PARTS = {"A": ([0, 1, 2, 3], [0, 1, 2, 4]), "B": ([1, 2, NAN, 3], [3, 2, 9, 1])}
R_A = 6.5 / math.sqrt(8.75 * 5)  # Pearson of A by hand: sum dx*dy = 6.5, sum dx^2 = 8.75, sum dy^2 = 5
R_B = -1.0  # B's scored pairs are exactly reversed
POOLED_R = 231 / math.sqrt(532 * 364)  # pooled 7 pairs, deviations x7: sum dxdy 231, dx^2 532, dy^2 364
POOLED_RHO = 12.5 / math.sqrt(27 * 26.5)  # Pearson of average ranks [1,2.5,4.5,7,6,4.5,2.5] and [1,2.5,4.5,6.5,2.5,4.5,6.5]


def test_per_subset_and_sizes_drop_unscored_pairs():
    assert cv.sizes(PARTS) == {"A": 4, "B": 3}
    assert [(s.name, s.n) for s in cv.subset_scores(PARTS)] == [("A", 4), ("B", 3)]
    assert {s.name: s.r for s in cv.subset_scores(PARTS)} == pytest.approx({"A": R_A, "B": R_B})
    assert {s.name: s.r for s in cv.subset_scores(PARTS, cv.spearman)} == pytest.approx({"A": 1.0, "B": -1.0})


def test_pooled_mean_and_size_weighted_mean():
    assert cv.aggregate("pooled", PARTS) == pytest.approx(POOLED_R)
    assert cv.aggregate("pooled", PARTS, cv.spearman) == pytest.approx(POOLED_RHO)
    assert cv.aggregate("mean", PARTS) == pytest.approx((R_A + R_B) / 2)
    assert cv.aggregate("weighted", PARTS) == pytest.approx((4 * R_A + 3 * R_B) / 7)
    assert cv.aggregate("mean", PARTS, cv.spearman) == pytest.approx(0.0)
    assert cv.aggregate("weighted", PARTS, cv.spearman) == pytest.approx(1 / 7)


def test_normalized_maps_each_subset_onto_its_gold_first():
    slope = 6.5 / 8.75  # A's least-squares line: gold = 1.5 + slope * (prediction - 1.75)
    mapped = [1.5 + slope * d for d in (-1.75, -0.75, 0.25, 2.25)] + [1.0, 2.0, 3.0]  # B maps onto its gold exactly
    assert cv.aggregate("normalized", PARTS) == pytest.approx(np.corrcoef(mapped, [0, 1, 2, 3, 1, 2, 3])[0, 1])


def test_official_figures_per_task():
    assert cv.official("sts2012-test", PARTS) == pytest.approx(
        {"ALL": POOLED_R, "ALLnorm": cv.aggregate("normalized", PARTS), "Mean": (4 * R_A + 3 * R_B) / 7})
    for name in ("sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test"):
        assert cv.official(name, PARTS) == pytest.approx({"Mean": (4 * R_A + 3 * R_B) / 7})
    assert cv.official("stsb-test", {"sts-test": PARTS["A"]}) == pytest.approx({"Pearson": R_A})
    assert cv.official("sick2014-test", {"test": PARTS["B"]}) == pytest.approx({"Pearson": R_B})
    with pytest.raises(ValueError, match="no official convention"):
        cv.official("clss2014-test", PARTS)


def test_senteval_reports_mean_and_wmean_of_both_correlations():
    out = cv.senteval(PARTS)
    assert out["subsets"]["B"] == pytest.approx({"pearson": -1.0, "spearman": -1.0, "n": 3})
    assert out["all"]["pearson"] == pytest.approx({"mean": (R_A + R_B) / 2, "wmean": (4 * R_A + 3 * R_B) / 7})
    assert out["all"]["spearman"] == pytest.approx({"mean": 0.0, "wmean": 1 / 7})


def test_simcse_and_mteb_are_pooled_spearman_times_100():
    assert cv.simcse(PARTS) == pytest.approx(100 * POOLED_RHO)
    assert cv.mteb(PARTS) == pytest.approx(100 * POOLED_RHO)
    normalized = {k: (np.asarray(g) / 5, p) for k, (g, p) in PARTS.items()}  # MTEB's gold / 5: ranks unchanged
    assert cv.mteb(normalized) == pytest.approx(cv.mteb(PARTS))


def test_simcse_average_is_the_mean_of_the_printed_figures():
    assert cv.simcse_average([55.144, 70.656, 59.7349]) == pytest.approx((55.14 + 70.66 + 59.73) / 3)
    sbert = [70.97, 76.53, 73.19, 79.09, 74.30, 77.03, 72.91]  # SimCSE Table 5, SBERT-base: printed Avg. 74.89
    assert cv.simcse_average(sbert) == pytest.approx(74.86)
    assert math.isnan(cv.simcse_average([50.0, NAN]))


def test_undefined_correlations_and_bad_input():
    constant = {"A": ([0, 1, 2], [1, 1, 1]), "B": ([0, 1, 2], [0, 1, 2])}
    assert math.isnan(cv.subset_scores(constant)[0].r) and math.isnan(cv.aggregate("mean", constant))
    assert math.isnan(cv.aggregate("weighted", constant)) and cv.aggregate("pooled", constant) == pytest.approx(np.corrcoef([1, 1, 1, 0, 1, 2], [0, 1, 2] * 2)[0, 1])
    assert math.isnan(cv.aggregate("pooled", {"A": ([1.0, NAN], [1.0, 2.0])}))  # one scored pair: no correlation
    with pytest.raises(ValueError, match="subset B: 3 predictions but 4 gold"):
        cv.aggregate("pooled", {"A": PARTS["A"], "B": ([1, 2, 3, 4], [1, 2, 3])})
    with pytest.raises(ValueError, match="subset A: predictions hold NaN"):
        cv.aggregate("weighted", {"A": ([1, 2, 3], [1, NAN, 3])})
    with pytest.raises(ValueError, match="no subsets"):
        cv.aggregate("pooled", {})


def test_official_figures_reproduce_the_published_token_cosine_baseline(data_dir):
    from semsts import corpora
    from semsts.baselines import TokenCosine

    def parts(name):
        return {s.name: (s.gold, TokenCosine().fit([]).predict(s.pairs)) for s in corpora.load(name, data_dir)}

    assert cv.official("sts2012-test", parts("sts2012-test")) == pytest.approx(
        {"ALL": .3110, "ALLnorm": .6732, "Mean": .4356}, abs=5e-5)  # STS 2012 Table 1, baseline row
    p2013 = parts("sts2013-test")
    assert list(p2013) == ["headlines", "OnWN", "FNWN"]  # SMT is LDC-licensed, not in the data root
    assert {s.name: s.r for s in cv.subset_scores(p2013)} == pytest.approx({"headlines": .5399, "OnWN": .2828, "FNWN": .2146}, abs=5e-5)
    assert cv.official("sts2013-test", p2013)["Mean"] == pytest.approx(
        (750 * .5399 + 561 * .2828 + 189 * .2146) / 1500, abs=5e-5)  # over the three subsets present
