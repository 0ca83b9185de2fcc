"""Tests of semsts.baselines.regression: the regression system, its saved models and the committed ones."""
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import cross_val_score

from semsts import cli, corpora, evaluate
from semsts.baselines.model_card import ModelMismatch, card_path
from semsts.baselines.model_file import load_model, save_model
from semsts.baselines.regression import FeatureRegression
from semsts.baselines.run import predict_subsets
from semsts.baselines.subset_models import SubsetModels

# --- The regression system: scikit-learn contract, regimes' sub-model mapping, saved models and cards.


ONE_POINT = {"C": [2.0], "gamma": [0.003], "epsilon": [0.1]}


@pytest.fixture(scope="module")
def demo():
    train, test = corpora.load("demo-train"), corpora.load("demo-test")
    return train.pairs[:300], train.gold[:300], test.pairs[:80], test.gold[:80]


@pytest.fixture(scope="module")
def fitted(demo):
    pairs, gold, _, _ = demo
    return FeatureRegression(feature_set="takelab", param_grid=ONE_POINT, cv=3).fit(pairs, gold)


def test_clone_get_params_and_cross_validation(demo):
    pairs, gold, _, _ = demo
    system = FeatureRegression(feature_set="dkpro", regressor="ridge", cv=3)
    assert clone(system).get_params() == system.get_params()
    scores = cross_val_score(system, pairs, gold, cv=3)
    assert scores.shape == (3,) and np.all(scores > 0.3)  # R^2 of a working system on captions


def test_predictions_are_clipped_deterministic_and_tuned(demo, fitted):
    pairs, gold, test, test_gold = demo
    scores = fitted.predict(test + [("x", "y")])
    assert scores.min() >= 0.0 and scores.max() <= 5.0
    again = FeatureRegression(feature_set="takelab", param_grid=ONE_POINT, cv=3).fit(pairs, gold).predict(test)
    assert np.array_equal(scores[:-1], again)
    assert np.corrcoef(scores[:-1], test_gold)[0, 1] > 0.6
    assert fitted.best_params_ == {"regress__C": 2.0, "regress__gamma": 0.003, "regress__epsilon": 0.1}
    assert list(fitted.pipeline_.named_steps) == ["features", "scale", "regress"]


def test_a_grid_is_searched_by_cv_on_the_training_pairs(demo):
    pairs, gold, _, _ = demo
    system = FeatureRegression(feature_set="takelab", param_grid={"C": [0.01, 4.0]}, cv=3).fit(pairs, gold)
    assert system.best_params_ == {"regress__C": 4.0} and 0.5 < system.cv_score_ < 1.0


def test_fit_needs_gold(demo):
    with pytest.raises(ValueError, match="needs gold"):
        FeatureRegression().fit(demo[0])


def test_subset_mapping_and_fallback():
    models = SubsetModels({"MSRpar": "par", "SMTeuroparl": "eur", "all": "every"}, {"surprise.SMTnews": "SMTeuroparl"})
    assert [models.for_subset(s) for s in ("MSRpar", "surprise.SMTnews", "surprise.OnWN", "headlines")] == \
        ["par", "eur", "every", "every"]
    with pytest.raises(ValueError, match="not there"):
        SubsetModels({"all": 1}, {"x": "MSRvid"}).fit()
    with pytest.raises(ValueError, match="fallback model 'all' is not among"):
        SubsetModels({"MSRpar": 1}).fit()


def test_subset_models_is_a_scikit_learn_meta_estimator(fitted, demo):
    """Parameters stored as given, ``fit`` returns self, ``get_params``/``set_params`` work, and ``clone`` keeps the
    fitted models (as scikit-learn's FrozenEstimator: it is the object itself)."""
    from sklearn.base import clone
    from sklearn.utils.validation import check_is_fitted
    models = SubsetModels({"all": fitted}, {"x": "all"})
    assert models.fit() is models and models.get_params(deep=False) == {"models": {"all": fitted}, "mapping": {"x": "all"},
                                                                          "fallback": "all"}
    check_is_fitted(models)
    assert clone(models) is models
    assert np.array_equal(clone(models).predict(demo[2]), fitted.predict(demo[2]))
    assert models.set_params(fallback="x").fallback == "x"


@pytest.fixture
def saved(tmp_path, fitted):
    path = tmp_path / "m.skops"
    save_model(SubsetModels({"all": fitted}), path, {"regime": "test"})
    return path


def test_saved_model_round_trip(saved, fitted, demo):
    models, card = load_model(saved)
    assert card["feature_set"] == "takelab" and card["sha256"] and card["versions"]["scikit-learn"]
    assert np.array_equal(models.for_subset("any").predict(demo[2]), fitted.predict(demo[2]))


def test_a_changed_model_file_is_refused(saved):
    data = bytearray(saved.read_bytes())
    data[-1] ^= 1
    saved.write_bytes(bytes(data))
    with pytest.raises(ModelMismatch, match="SHA-256"):
        load_model(saved)


def edit_card(path, **changes):
    card = json.loads(card_path(path).read_text())
    for key, value in changes.items():
        if isinstance(value, dict):
            card[key].update(value)
        else:
            card[key] = value
    card_path(path).write_text(json.dumps(card))


def test_a_wrong_feature_set_is_refused(saved):
    edit_card(saved, feature_set="dkpro")
    with pytest.raises(ModelMismatch, match="feature_set"):
        load_model(saved)


def test_features_changed_in_code_are_refused(saved, monkeypatch):
    from semsts.features import sets
    make_union = sets.make_union
    monkeypatch.setattr(sets, "make_union", lambda name, exclude, encoder=None, scorer=None: make_union(name, exclude=["lengths"]))
    with pytest.raises(ModelMismatch, match="differs from the one the model was trained on"):
        load_model(saved)


def test_a_model_without_card_is_refused(saved):
    card_path(saved).unlink()
    with pytest.raises(ModelMismatch, match="no model card"):
        load_model(saved)


def test_sts_train_then_run_with_the_saved_model(tmp_path, capsys):
    model = tmp_path / "demo.skops"
    assert cli.main(["train", "--train", "demo-train", "--test", "demo-test", "--feature-set",
                     "takelab", "--regressor", "ridge", "--save", str(model), "--quiet"]) == 0
    card = json.loads(card_path(model).read_text())
    assert card["command"].startswith("sts train --train demo-train")
    out = tmp_path / "out"
    assert cli.main(["run", "regression", "--model", str(model), "--test", "demo-test", "--out", str(out), "--quiet"]) == 0
    from semsts import evaluate
    (sub,) = corpora.load("demo-test")
    scores, _ = corpora.read_output(out / sub.output_name, len(sub.pairs))
    assert evaluate.pearson(scores, sub.gold) == pytest.approx(card["scores"]["test"]["all"], abs=1e-6)
    assert card["scores"]["test"]["all"] > 0.7


def test_train_needs_a_regime_or_training_data(capsys):
    assert cli.main(["train", "--save", "x.skops"]) == 1
    assert "--regime NAME or --train" in capsys.readouterr().err


def test_monotone_boosting_follows_the_training_correlations():
    from semsts.baselines.monotone import MonotoneGBR, correlation_signs
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(400, 3))
    y = 3 * X[:, 0] - 2 * X[:, 1] + 0.05 * rng.normal(size=400)  # column 2 is noise
    assert correlation_signs(X, y, 0.2).tolist() == [1, -1, 0]
    model = MonotoneGBR(max_iter=50, random_state=0).fit(X, y)
    assert clone(model).get_params() == model.get_params() and model.monotonic_cst_.tolist() == [1, -1, 0]
    grid = np.tile(X[:1], (50, 1))
    grid[:, 0] = np.linspace(0, 1, 50)
    assert np.all(np.diff(model.predict(grid)) >= 0)  # never lower as the positive feature grows


def test_the_ensemble_regressor_fits_and_predicts(demo):
    pairs, gold, test, test_gold = demo
    system = FeatureRegression(feature_set="takelab", regressor="ensemble", cv=3).fit(pairs, gold)
    assert set(system.best_params_) == {"regress__svr__C"}
    assert [name for name, _ in system.pipeline_.named_steps["regress"].estimators] == ["svr", "gbr", "rf"]
    assert np.corrcoef(system.predict(test), test_gold)[0, 1] > 0.6


def test_a_dev_tuned_regime_fits_as_a_plain_fit_with_the_chosen_point():
    """tune_on_dev picks the grid point on dev; the final fit reuses its featurization and equals
    an ordinary fit with that one point (which runs no CV: there is nothing to choose)."""
    from semsts.baselines.regimes import Regime, train_regime
    regime = Regime("demo", ("demo-train",), "demo-test", dev="demo-dev")
    grid = {"C": [0.05, 4.0], "gamma": [0.003], "epsilon": [0.1]}
    models, card = train_regime(regime, feature_set="takelab", param_grid=grid)
    entry = card["training_data"]["sub_models"]["all"]
    assert entry["best_params"] == {"regress__C": 4.0, "regress__epsilon": 0.1, "regress__gamma": 0.003}
    assert 0.6 < entry["dev_pearson"] < 1.0 and "cv_pearson" not in entry
    train, test = corpora.load("demo-train"), corpora.load("demo-test")
    plain = FeatureRegression(feature_set="takelab", param_grid={k.removeprefix("regress__"): [v]
                                                                 for k, v in entry["best_params"].items()})
    plain.fit(train.pairs, train.gold)
    assert plain.cv_score_ is None
    assert np.array_equal(models.for_subset("sts-test").predict(test.pairs), plain.predict(test.pairs))
    with pytest.raises(ValueError, match="featurizer's matrix"):
        plain.fit_featurized(train.pairs[:10], train.gold[:10], plain.pipeline_.named_steps["features"],
                             np.zeros((10, 3)))


def test_fit_featurized_checks_its_scores_like_fit(demo):
    pairs, gold, _, _ = demo
    system = FeatureRegression(feature_set="takelab", param_grid=ONE_POINT)
    featurizer = system.build_featurizer().fit(pairs[:20])
    features = featurizer.transform(pairs[:20])
    with pytest.raises(ValueError, match="20 pairs but y has 19"):
        system.fit_featurized(pairs[:20], gold[:19], featurizer, features)
    with pytest.raises(ValueError, match="NaN or inf"):
        system.fit_featurized(pairs[:20], np.r_[gold[:19], np.nan], featurizer, features)


def test_run_settings_change_neither_the_model_nor_its_predictions(demo, fitted, tmp_path, monkeypatch):
    """Workers and progress are set around a call, never stored: predicting and saving mutate nothing."""
    import pickle

    from semsts.core import workers
    from semsts.core.run_settings import run_settings
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 0)  # workers even for 80 pairs
    _, _, test, _ = demo
    before = pickle.dumps(fitted)
    alone = fitted.predict(test)
    seen = []
    with run_settings(n_jobs=2, backend="threading", progress=lambda chunks: seen.extend(chunks) or chunks):
        fitted.pipeline_.named_steps["features"].chunk_size = 20  # several chunks on two workers
        together = fitted.predict(test)
        fitted.pipeline_.named_steps["features"].chunk_size = 500
    assert np.array_equal(alone, together) and len(seen) == 4  # 80 pairs in chunks of 20
    assert pickle.dumps(fitted) == before
    assert not {"n_jobs", "backend", "scheduler", "progress"} & set(fitted.get_params())
    save_model(SubsetModels({"all": fitted}, {}, "all"), tmp_path / "m.skops", {"system": "regression"})
    assert pickle.dumps(fitted) == before


def test_a_model_fitted_on_two_workers_pickles_to_the_same_bytes(demo, fitted, monkeypatch):
    """No part of a model is fitted in a worker (a worker's copy pickles differently): same file whatever --n-jobs."""
    import pickle

    from semsts.core import workers
    from semsts.core.run_settings import run_settings
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 0)
    pairs, gold, _, _ = demo
    with run_settings(n_jobs=2):
        twin = FeatureRegression(feature_set="takelab", param_grid=ONE_POINT, cv=3).fit(pairs, gold)
    assert pickle.dumps(twin) == pickle.dumps(fitted)


def test_the_steps_a_tuner_needs_are_public():
    """A caller that featurizes once for its own tuning (regimes.tune_on_dev) builds the same steps fit uses."""
    from sklearn.pipeline import Pipeline

    from semsts.features.featurizer import PairFeaturizer
    system = FeatureRegression(feature_set="takelab", exclude=["lengths"], regressor="ridge", random_state=3)
    featurizer = system.build_featurizer()
    assert isinstance(featurizer, PairFeaturizer) and not hasattr(featurizer, "union_")
    assert (featurizer.feature_set, featurizer.exclude, featurizer.encoder) == ("takelab", ("lengths",), None)
    model, grid = system.build_model()
    assert isinstance(model, Pipeline) and [name for name, _ in model.steps] == ["scale", "regress"]
    assert grid == {"regress__alpha": [0.1, 1.0, 10.0, 100.0]}
    assert system.set_params(param_grid={"alpha": (2.0,)}).build_model()[1] == {"regress__alpha": [2.0]}
    with pytest.raises(ValueError, match="unknown regressor 'nope'"):
        system.set_params(regressor="nope").build_model()


# --- The committed reference models reproduce the test-set scores written in their cards.


MODELS = Path(__file__).resolve().parents[1] / "models"
# The features are computed without BLAS (features.blas_free): the same bits on every CPU. What is left (the SVR's
# kernel sums, library releases) moves a prediction by ~1e-12; the contract is the card's figures to 1e-6, on
# every supported Python with what pip resolves (under other versions the canaries decide, baselines.model_file).
TOLERANCE = 1e-6


@pytest.mark.parametrize("regime", ["sts2012", "sts2013", "stsb"])
def test_committed_model_reproduces_its_card(regime, data_dir):
    models, card = load_model(MODELS / f"{regime}.skops")
    test = card["scores"]["test"]
    dataset = corpora.load(test["dataset"], data_dir)
    predicted = predict_subsets(models, list(dataset))
    result = evaluate.score_subsets([(sub.name, predicted[id(sub)][0], sub.gold) for sub in dataset])
    for key in ("all", "allnorm", "mean"):
        assert result[key] == pytest.approx(test[key], abs=TOLERANCE), key
    for name, entry in test["subsets"].items():
        assert result["subsets"][name]["pearson"] == pytest.approx(entry["pearson"], abs=TOLERANCE), name


def test_a_time_travel_regime_trains_only_on_what_was_released_before_its_test():
    """Issue 47: ``sts2014``-``sts2017`` each train on the STS data released before their test set (the teams'
    regime), tuned by CV on folds of whole domains: never that year's gold or a later year's, nor STS-B or SICK (drawn
    from those years' test sets)."""
    from semsts.baselines.regimes import REGIMES
    year = lambda name: int(name[3:7])  # noqa: E731
    for test_year in (2014, 2015, 2016, 2017):
        regime = REGIMES[f"sts{test_year}"]
        assert regime.test == f"sts{test_year}-test" and regime.domain_cv and not regime.dev
        assert all(name.startswith("sts20") and year(name) < test_year for name in regime.train), regime.train
        assert {"sts2012-train", "sts2012-test", *(f"sts{y}-test" for y in range(2013, test_year))} == set(regime.train)


def test_sts2012_regime_maps_the_surprise_subsets():
    models, card = load_model(MODELS / "sts2012.skops")
    assert models.model_name("surprise.SMTnews") == "SMTeuroparl"
    assert models.model_name("surprise.OnWN") == "all" and models.model_name("headlines") == "all"
    assert card["training_data"]["sub_models"]["MSRpar"]["pairs"] == 750


def test_a_saved_model_writes_every_subset_at_once_as_one_by_one(tmp_path):
    """Issue 22: `sts run regression --model` predicts all the subsets each sub-model scores in one call (workers
    then share them), each distinct pair once; the files are those of predicting each subset on its own."""
    from semsts.baselines.run import predict_subsets, write_outputs
    from semsts.corpora import formats
    models, _ = load_model(MODELS / "sts2012.skops")
    dataset = corpora.load("sts2012-test")
    written = write_outputs(models, dataset, tmp_path / "run")
    assert len(written) == len(list(dataset)) == 5
    for sub, path in zip(dataset, written):
        one, _ = predict_subsets(models.for_subset(sub.name), [sub])[id(sub)]
        assert formats.read_lines(path) == [formats.format_score(v) for v in one], sub.name


def test_domain_folds_leave_one_domain_out_up_to_five_and_deal_more_into_five_balanced_folds():
    """Issue 47 (the 10-minute line): up to five domains, one fold a domain in the order of their names (the CV that
    chose the shipped sts2012 and sts2013 models); more, five folds that each hold out whole domains, every domain
    exactly once, dealt largest first to the fold with the fewest pairs so far."""
    from semsts.baselines.regimes import domain_folds
    five = np.repeat(["b", "a", "e", "c", "d"], [3, 5, 2, 4, 1])
    folds, groups = domain_folds(five)
    assert groups == [["a"], ["b"], ["c"], ["d"], ["e"]]
    assert folds.test_fold.tolist() == [["a", "b", "c", "d", "e"].index(d) for d in five]
    sizes = {"h": 90, "a": 50, "b": 50, "c": 40, "d": 30, "e": 20, "f": 10, "g": 10}
    domains = np.repeat(list(sizes), list(sizes.values()))
    folds, groups = domain_folds(domains)
    # h→0 (90); a→1, b→2 (50 each); c→3 (40); d→4 (30); e→4 (50); f→3 (50); g→1 (60: folds 1-4 tie at 50)
    assert groups == [["h"], ["a", "g"], ["b"], ["c", "f"], ["d", "e"]]
    for f, group in enumerate(groups):
        assert set(domains[folds.test_fold == f]) == set(group)
    held = [held_out for _, held_out in folds.split()]
    assert sorted(np.concatenate(held).tolist()) == list(range(len(domains)))
    assert [len(h) for h in held] == [90, 60, 50, 50, 50]
    assert domain_folds(domains, max_folds=8)[1] == [[name] for name in sorted(sizes)]
