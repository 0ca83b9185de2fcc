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
    """A cosine on (0, 1) or on (0, 5) correlates alike with the gold: by R² the search would pick (0, 5) (the gold's
    range)."""
    from scipy.stats import pearsonr
    from sklearn.model_selection import GridSearchCV
    pairs, gold = demo
    folds = KFold(3)
    search = GridSearchCV(make_system("token-cosine"), {"score_range": [(0.0, 1.0), (0.0, 5.0)]}, cv=folds).fit(pairs, gold)
    one, five = search.cv_results_["mean_test_score"]
    assert one == pytest.approx(five, abs=1e-12)
    system = make_system("token-cosine")
    expected = np.mean([pearsonr(system.fit([pairs[i] for i in train], gold[train]).predict([pairs[i] for i in held]),
                                 gold[held])[0] for train, held in folds.split(pairs)])
    assert one == pytest.approx(expected, abs=1e-12)


# --- The estimator contract over every registered system: each parameter validated at fit against its rule
# (``param_rules``, semsts.baselines.base.check_params), and the invariances a pair system owes its input.

BAD_VALUES = {  # system -> (parameter, a value it must refuse at fit)
    "token-cosine": ("score_range", "x"), "random": ("seed", -1), "typed-tfidf": ("score_range", 0),
    "typed-regression": ("estimator", "svr"), "lcs": None, "gst": ("min_match", 0), "glove-mean": ("batch_size", 0),
    "sif": ("batch_size", 1.5), "wordllama": ("batch_size", "512"), "regression": ("feature_set", "nope"),
}


def test_every_registered_system_is_in_the_contract_tables():
    assert set(BAD_VALUES) == set(system_names())


@pytest.mark.parametrize("name", system_names())
def test_every_parameter_has_a_constraint_and_a_bad_value_is_refused_at_fit(name, demo):
    from semsts.baselines.base import InvalidParameter
    system = make_system(name)
    assert set(system.get_params(deep=False)) <= set(system.param_rules), "a parameter with no rule"
    if BAD_VALUES[name] is None:  # lcs: no parameters
        assert not system.get_params(deep=False)
        return
    param, bad = BAD_VALUES[name]
    pairs, gold = demo
    with pytest.raises(InvalidParameter, match=f"'{param}' parameter of {type(system).__name__}"):
        system.set_params(**{param: bad}).fit(pairs, gold)


# Exceptions to the invariances, with the reason:
# - random: its seeded scores are drawn by position, so a pair's score depends on where it stands (as the task's
#   random baseline: one draw per line of the file);
# - sif: the common component is fitted on the texts of each predict (Arora et al. fit it on the sentences scored),
#   so a pair's score depends on the other pairs scored with it.
BATCH_DEPENDENT = {"random", "sif"}


@pytest.mark.parametrize("name", [n for n in PAIR_SYSTEMS if n not in BATCH_DEPENDENT])
def test_a_pairs_score_depends_on_that_pair_alone(name, demo):
    """Reordering the pairs reorders the scores, a duplicated pair gets its score twice, and a pair scored alone
    gets the score it gets among others: the same bits."""
    pairs, gold = demo
    system = make_system(name).fit(pairs, gold)
    some = pairs[:9]
    scores = system.predict(some)
    order = [4, 0, 8, 2, 6, 1, 7, 3, 5]
    assert system.predict([some[i] for i in order]).tobytes() == scores[order].tobytes()
    assert system.predict(some + some[:3]).tobytes() == np.concatenate([scores, scores[:3]]).tobytes()
    assert system.predict([some[5]]).tobytes() == scores[5:6].tobytes()


@pytest.mark.parametrize("name", sorted(BATCH_DEPENDENT))
def test_the_batch_dependent_systems_are_so(name, demo):
    """The exceptions above are real: otherwise they would be tested as the others are."""
    pairs, gold = demo
    system = make_system(name).fit(pairs, gold)
    some = pairs[:9]
    order = [4, 0, 8, 2, 6, 1, 7, 3, 5]
    assert system.predict([some[i] for i in order]).tobytes() != system.predict(some)[order].tobytes()
