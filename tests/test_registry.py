"""Tests of semsts.baselines.registry: every registered system is a scikit-learn regressor."""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import KFold, cross_val_score
from sklearn.pipeline import Pipeline

from semsts import corpora
from semsts.baselines import make_system, system_names
from semsts.baselines.typed2013 import is_typed

# --- Every registered sentence-pair system is a scikit-learn regressor: clone, params, fit → self, CV, Pipeline.


PAIR_SYSTEMS = [name for name in system_names() if not is_typed(make_system(name))]


@pytest.fixture(scope="module")
def demo():
    sub = corpora.load("demo-train").subset("sts-train")
    return sub.pairs[:60], sub.gold[:60]


def test_every_pair_system_is_listed():
    assert {"token-cosine", "random", "lcs", "gst", "regression"} <= set(PAIR_SYSTEMS)


@pytest.mark.parametrize("name", PAIR_SYSTEMS)
def test_params_and_clone(name):
    system = make_system(name)
    params = system.get_params()
    twin = clone(system)
    assert twin is not system and twin.get_params() == params
    assert system.set_params(**params) is system
    with pytest.raises(NotFittedError):
        system.predict([("a b", "a c")])


@pytest.mark.parametrize("name", PAIR_SYSTEMS)
def test_fit_returns_self_and_predicts_one_finite_score_per_pair(name, demo):
    pairs, gold = demo
    system = make_system(name)
    assert system.fit(pairs, gold) is system
    learned = [k for k in vars(system) if k.endswith("_") and not k.startswith("_")]
    assert learned, f"{name} keeps no learned state ending in '_'"
    scores = system.predict(pairs[:7])
    assert scores.shape == (7,) and np.isfinite(scores).all()
    with pytest.raises(ValueError, match="pair"):
        system.predict(["not a pair"])


@pytest.mark.parametrize("name", [n for n in PAIR_SYSTEMS if n != "regression"])  # regression: test_regression.py
def test_cross_validation_and_pipeline(name, demo):
    pairs, gold = demo
    cv = cross_val_score(make_system(name), pairs, gold, cv=KFold(3))
    assert cv.shape == (3,)
    pipe = Pipeline([("system", make_system(name))]).fit(pairs, gold)
    assert pipe.predict(pairs[:5]).shape == (5,)


@pytest.mark.parametrize("name", system_names())
def test_tags_say_text_pairs_and_whether_y_is_needed(name):
    from sklearn.utils import get_tags
    tags = get_tags(make_system(name))
    assert tags.input_tags.string and not tags.input_tags.two_d_array
    assert tags.target_tags.required == (name in ("regression", "typed-regression"))
    assert tags.target_tags.multi_output == is_typed(make_system(name))


SUPERVISED = [name for name in system_names() if make_system(name).__sklearn_tags__().target_tags.required]


def test_some_systems_learn_from_gold():
    assert "regression" in SUPERVISED and "token-cosine" not in SUPERVISED


@pytest.mark.parametrize("name", SUPERVISED)
def test_a_system_whose_tags_require_gold_is_refused_without_training_data(name, tmp_path, data_dir, capsys):
    """`sts run` and `sts bench` read "needs training" from the estimator's tags, for every such system."""
    from semsts import cli
    assert cli.main(["run", name, "--test", "demo-test", "--out", str(tmp_path / "out"), "--quiet"]) == 1
    assert f"error: {name} learns from scored pairs: give --train DATASET" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert cli.main(["bench", name, "--datasets", "stsb-test", "--quiet", "--data-dir", str(data_dir)]) == 1
    assert f"error: {name} learns from scored pairs: give --train DATASET" in capsys.readouterr().err


@pytest.mark.parametrize("name", [n for n in PAIR_SYSTEMS if n != "regression"])  # regression: test_regression.py
def test_score_is_the_pearson_correlation_with_the_gold(name, demo):
    from scipy.stats import pearsonr
    pairs, gold = demo
    system = make_system(name).fit(pairs, gold)
    assert system.score(pairs[30:], gold[30:]) == pytest.approx(pearsonr(system.predict(pairs[30:]), gold[30:])[0],
                                                                abs=1e-12)


def test_score_leaves_unscored_pairs_out(demo):
    from scipy.stats import pearsonr
    pairs, gold = demo
    system = make_system("token-cosine").fit(pairs, gold)
    unscored = gold.copy()
    unscored[::4] = np.nan
    kept = ~np.isnan(unscored)
    assert system.score(pairs, unscored) == pytest.approx(pearsonr(system.predict(pairs)[kept], gold[kept])[0], abs=1e-12)


def test_grid_search_over_a_cosine_system_prefers_no_scale(demo):
    """A cosine times 1 or times 5 correlates alike with the gold: by R² the search would pick 5 (the gold's scale)."""
    from scipy.stats import pearsonr
    from sklearn.model_selection import GridSearchCV
    pairs, gold = demo
    folds = KFold(3)
    search = GridSearchCV(make_system("token-cosine"), {"scale": [1.0, 5.0]}, cv=folds).fit(pairs, gold)
    one, five = search.cv_results_["mean_test_score"]
    assert one == pytest.approx(five, abs=1e-12)
    system = make_system("token-cosine")
    expected = np.mean([pearsonr(system.fit([pairs[i] for i in train], gold[train]).predict([pairs[i] for i in held]),
                                 gold[held])[0] for train, held in folds.split(pairs)])
    assert one == pytest.approx(expected, abs=1e-12)
