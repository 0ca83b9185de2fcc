"""The aggregation core (scoring.aggregates): each aggregate computed in one place, under one name, and used
by the scorer, the conventions, compare's bootstrap and the published tables' ranking alike."""
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from semsts import evaluate
from semsts.corpora.reports import RULES
from semsts.scoring import aggregates as agg

RNG = np.random.default_rng(7)
PARTS = [(RNG.normal(size=n), RNG.normal(size=n)) for n in (5, 9, 4)]  # (prediction, gold)
RS = [stats.pearsonr(p, g)[0] for p, g in PARTS]
SIZES = [5, 9, 4]


def test_each_aggregate_against_an_independent_computation():
    pooled = stats.pearsonr(np.concatenate([p for p, _ in PARTS]), np.concatenate([g for _, g in PARTS]))[0]
    assert agg.of_parts("pooled", PARTS) == pytest.approx(pooled, abs=1e-12)
    lines = [np.polyval(np.polyfit(p, g, 1), p) for p, g in PARTS]  # each subset's least-squares line
    normalized = stats.pearsonr(np.concatenate(lines), np.concatenate([g for _, g in PARTS]))[0]
    assert agg.of_parts("normalized", PARTS) == pytest.approx(normalized, abs=1e-12)
    assert agg.of_parts("weighted", PARTS) == pytest.approx(np.dot(RS, SIZES) / sum(SIZES), abs=1e-12)
    assert agg.of_parts("mean", PARTS) == pytest.approx(np.mean(RS), abs=1e-12)
    assert agg.of_parts("sum", PARTS) == pytest.approx(sum(RS), abs=1e-12)


def test_figures_do_not_depend_on_the_order_of_the_subsets():
    values = [0.1, 1e-17, -0.1, 0.3, 0.7, 0.2, 0.05, 0.9]
    assert agg.mean(values) == agg.mean(values[::-1]) == math.fsum(values) / 8
    assert agg.weighted(values, range(1, 9)) == agg.weighted(values[::-1], range(8, 0, -1))


def test_undefined_figures_and_unknown_names():
    assert math.isnan(agg.mean([0.5, math.nan])) and math.isnan(agg.weighted([], []))
    assert math.isnan(agg.total([0.5, math.nan]))
    with pytest.raises(ValueError, match="unknown aggregate 'median'; known: pooled, normalized, weighted, mean, sum"):
        agg.of_parts("median", PARTS)
    with pytest.raises(ValueError, match="needs the pairs"):
        agg.of_figures("pooled", RS)


def test_one_name_per_aggregate_everywhere():
    """The published tables' rules are the core's names (plus 'given'), and no other scoring module averages."""
    assert set(RULES) == {*agg.NAMES, "given"}
    root = Path(__file__).resolve().parents[1]
    for path in sorted((root / "scoring").glob("*.py")):
        if path.name == "aggregates.py":
            continue
        code = path.read_text()
        assert not re.search(r"np\.average\(values|mean_of\(|np\.sum\(rs|def (wmean|allnrm|pooled)\(", code), path.name


# --- The scorer's statistics against hand-computed values, scipy for the normal parts, and properties.


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
