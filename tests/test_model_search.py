"""Tests of semsts.baselines.model_search: the regression's CV search, its SVR grid on precomputed kernels and the
per-fold feature matrices."""
import numpy as np
import pytest
from joblib import Parallel

from semsts import corpora
from semsts.baselines import model_search
from semsts.baselines.model_search import fold_matrices
from semsts.baselines.regression import FeatureRegression


@pytest.fixture(scope="module")
def demo():
    train, test = corpora.load("demo-train"), corpora.load("demo-test")
    return train.pairs[:300], train.gold[:300], test.pairs[:80], test.gold[:80]


def test_the_svr_grid_on_precomputed_kernels_scores_as_fitting_each_pipeline():
    """Issue 22: the RBF SVR grid fits on kernels computed once per fold and gamma; each point's mean held-out
    Pearson is that of fitting its own pipeline (libsvm computing the kernel), and so is the chosen point."""
    from sklearn.model_selection import KFold, ParameterGrid

    from semsts.baselines.model_search import _fold_scores, _svr_grid_means, search
    rng = np.random.default_rng(3)
    x = rng.normal(size=(120, 6))
    y = x[:, 0] - 0.5 * x[:, 1] ** 2 + rng.normal(scale=0.3, size=120)
    model, grid = FeatureRegression().build_model()
    fold_data = [(train, held, x) for train, held in KFold(3, shuffle=True, random_state=0).split(x)]
    points = list(ParameterGrid(grid))
    fast = _svr_grid_means(model, points, fold_data, y)
    plain = np.asarray(_fold_scores(model, points, fold_data, y)).reshape(len(points), 3).mean(axis=1)
    assert np.abs(fast - plain).max() < 1e-9 and len(set(np.round(plain, 6))) > 3
    best, score = search(model, grid, fold_data, y)
    assert best == points[int(np.argmax(plain))] and score == pytest.approx(plain.max(), abs=1e-9)


@pytest.mark.parametrize("regressor", ["ensemble", "svr+gbr"])
def test_a_voting_grid_fits_its_fixed_members_once_and_scores_as_fitting_each_pipeline(regressor):
    """Issue 47: the grid of a voting regressor that varies one member (the ensemble's SVR C) fits the other members
    once per fold; each point's held-out Pearsons are those of fitting its own pipeline, bit for bit, and so is the
    chosen point. A grid over two members is searched the plain way."""
    from sklearn.model_selection import KFold, ParameterGrid

    from semsts.baselines.model_search import _fold_scores, _one_member_grid, _voting_grid_scores, search
    rng = np.random.default_rng(5)
    x = rng.normal(size=(150, 6))
    y = x[:, 0] - 0.5 * x[:, 1] ** 2 + rng.normal(scale=0.3, size=150)
    model, grid = FeatureRegression(regressor=regressor).build_model()
    fold_data = [(train, held, x) for train, held in KFold(3, shuffle=True, random_state=0).split(x)]
    points = list(ParameterGrid(grid))
    assert _one_member_grid(model, grid) == "svr" and len(points) > 1
    plain = np.asarray(_fold_scores(model, points, fold_data, y)).reshape(len(points), 3)
    from joblib import parallel_config
    with parallel_config(n_jobs=2):  # the members fitted in worker processes
        shared = _voting_grid_scores(model, "svr", points, fold_data, y)
    assert np.array_equal(shared, plain) and len(set(plain.mean(axis=1))) > 1
    best, score = search(model, grid, fold_data, y)
    assert best == points[int(np.argmax(plain.mean(axis=1)))] and score == plain.mean(axis=1).max()
    assert _one_member_grid(model, {"regress__svr__C": [1.0], "regress__gbr__max_iter": [50]}) is None


def test_the_svr_grid_on_two_threads_scores_as_on_one(monkeypatch):
    """Issue 22: the fits of one kernel run in threads through joblib; two give the same means, bit for bit."""
    from joblib import parallel_config
    from sklearn.model_selection import KFold, ParameterGrid

    from semsts.baselines.model_search import _svr_grid_means
    used = []
    monkeypatch.setattr(model_search, "Parallel", lambda **kw: used.append(kw) or Parallel(**kw))
    rng = np.random.default_rng(4)
    x = rng.normal(size=(90, 5))
    y = x[:, 0] + rng.normal(scale=0.5, size=90)
    model, grid = FeatureRegression().build_model()
    fold_data = [(train, held, x) for train, held in KFold(3, shuffle=True, random_state=0).split(x)]
    points = list(ParameterGrid(grid))
    one = _svr_grid_means(model, points, fold_data, y)
    with parallel_config(backend="loky", n_jobs=2):
        two = _svr_grid_means(model, points, fold_data, y)
    assert np.array_equal(one, two) and len(set(np.round(one, 6))) > 3
    assert used and all(kw == {"backend": "threading"} for kw in used)  # threads, whatever backend the caller set


def test_a_fold_that_trains_on_the_featurizers_pairs_keeps_its_matrix(demo):
    """Issue 22: tuning on dev, the one fold trains on the pairs the featurizer was fitted on; refitting the
    families that learn from text on them gives the same columns, so the matrix is kept (not recomputed)."""
    from sklearn.model_selection import PredefinedSplit

    pairs, _, dev, _ = demo
    featurizer = FeatureRegression(feature_set="all").build_featurizer().fit(pairs)
    both = list(pairs) + list(dev)
    features = featurizer.transform(both)
    folds = PredefinedSplit(np.r_[np.full(len(pairs), -1), np.zeros(len(dev))])
    (_, _, kept), = fold_matrices(featurizer, both, features, folds, fitted_on=np.arange(len(pairs)))
    (_, _, refit), = fold_matrices(featurizer, both, features, folds)
    columns, _ = featurizer.learned_part()
    assert columns and kept is features and refit is not features
    assert np.array_equal(kept, refit)
    shifted = PredefinedSplit(np.r_[np.full(len(pairs) - 1, -1), np.zeros(len(dev) + 1)])  # other training pairs
    (_, _, other), = fold_matrices(featurizer, both, features, shifted, fitted_on=np.arange(len(pairs)))
    assert other is not features


def test_the_folds_refitted_in_worker_processes_give_the_columns_of_refitting_them_here(demo, monkeypatch):
    """Issue 47: the families that learn from text are refitted per fold through joblib (two worker processes
    here) when the work pays for them (issue 46: the demo's few pairs stay in this process, as two workers are
    allowed); each fold's matrix is the one refitting it in this process gives, bit for bit, and differs from the
    matrix of the featurizer fitted on every pair (the fold saw less text)."""
    import joblib
    from sklearn.model_selection import KFold

    from semsts.baselines import model_search
    from semsts.core import workers as paying
    from semsts.core.run_settings import run_settings
    pairs, _, _, _ = demo
    featurizer = FeatureRegression().build_featurizer().fit(pairs)
    features = featurizer.transform(pairs)
    folds = KFold(3, shuffle=True, random_state=0)
    calls = []
    monkeypatch.setattr(model_search, "Parallel", lambda **kw: calls.append(kw) or joblib.Parallel(**kw))
    with run_settings(n_jobs=2):  # one BLAS thread, as every command runs
        here = fold_matrices(featurizer, pairs, features, folds)
    assert not calls  # 3 x 300 pairs: this process
    monkeypatch.setattr(paying, "PARALLEL_MIN_PAIRS", len(pairs) * 3)
    with run_settings(n_jobs=2):
        workers = fold_matrices(featurizer, pairs, features, folds)
    assert calls == [{"return_as": "generator"}]
    columns, _ = featurizer.learned_part()
    assert len(here) == len(workers) == 3 and columns
    for (train, held, a), (train2, held2, b) in zip(here, workers):
        assert np.array_equal(train, train2) and np.array_equal(held, held2)
        assert np.array_equal(a, b) and not np.array_equal(a[:, columns], features[:, columns])


def test_a_grid_point_with_a_constant_fold_ranks_last():
    """Issue 33: the search scores folds with the one Pearson (semsts.core.stats), which has no r for a constant
    prediction; such a point ranks below every point that has one, though listed first."""
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import KFold
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    from semsts.baselines.model_search import search
    rng = np.random.default_rng(5)
    x = rng.normal(size=(60, 3))
    y = x[:, 0] + rng.normal(scale=0.5, size=60)
    model = Pipeline([("scale", StandardScaler()), ("regress", Ridge())])
    fold_data = [(train, held, x) for train, held in KFold(3, shuffle=True, random_state=0).split(x)]
    best, score = search(model, {"regress": [DummyRegressor(), Ridge()]}, fold_data, y)
    assert isinstance(best["regress"], Ridge) and 0.5 < score < 1
    only, undefined = search(model, {"regress": [DummyRegressor()]}, fold_data, y)
    assert isinstance(only["regress"], DummyRegressor) and np.isnan(undefined)
