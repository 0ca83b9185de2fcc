"""The candidate regressors of the feature regression, their grids and the search among them: k-fold CV on the
training pairs only (mean held-out Pearson r, :func:`semsts.core.stats.pearson`: a fold with a constant
prediction has none, and its grid point ranks last), an RBF SVR's grid on kernels computed once per fold and gamma.
"""
from __future__ import annotations

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor, VotingRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold, ParameterGrid
from sklearn.svm import SVR

from semsts.core.progress import announce, tracked
from semsts.core.stats import pearson
from semsts.core.workers import worth_workers
from semsts.features.featurizer import PairFeaturizer, pair_chars

from .monotone import MonotoneGBR


def _svr(**params):
    # libsvm's kernel cache (200 MB by default) only trades memory for speed: 50 MB is as fast
    # here and keeps each process that fits an SVR 60 MB or more smaller; the solution is the same
    return SVR(kernel="rbf", cache_size=50, **params)


def _rf(seed, trees=300):
    return RandomForestRegressor(n_estimators=trees, min_samples_leaf=3, max_features=0.3, random_state=seed, n_jobs=1)


def _gbr(seed):
    return HistGradientBoostingRegressor(max_iter=300, learning_rate=0.05, max_leaf_nodes=15,
                                         min_samples_leaf=20, random_state=seed)


# name -> (factory(seed), default grid over the pipeline's "regress" step); every part fits in this
# process (n_jobs=1) whatever joblib's parallel_config, so that model files do not depend on run settings.
# The SVR's epsilon (the tube, in the gold's units, inside which an error costs nothing) reaches 0.8: on stsb-dev,
# with features fitted on stsb-train, the best point of a wider grid (epsilon up to 1.2, C up to 32) had epsilon
# 0.6-0.8, where 0.4 had been this grid's edge; a wider tube also leaves half the support vectors that every
# prediction is a kernel sum over
REGRESSORS = {
    "svr": (lambda seed: _svr(), {"C": [0.5, 2.0, 8.0], "gamma": [0.001, 0.003, "scale"], "epsilon": [0.1, 0.4, 0.8]}),
    "gbr": (_gbr, {"learning_rate": [0.03, 0.08], "max_leaf_nodes": [7, 15]}),
    "gbr-mono": (lambda seed: MonotoneGBR(random_state=seed), {"learning_rate": [0.03, 0.08], "max_leaf_nodes": [7, 15]}),
    "rf": (_rf, {"min_samples_leaf": [1, 3, 8]}),
    "ridge": (lambda seed: Ridge(), {"alpha": [0.1, 1.0, 10.0, 100.0]}),
    "svr+gbr": (lambda seed: VotingRegressor([("svr", _svr()), ("gbr", _gbr(seed))], n_jobs=1),
                {"svr__C": [0.5, 2.0, 8.0], "svr__epsilon": [0.1, 0.4]}),
    # the average of three unlike learners (kernel, monotone boosting, bagged trees), for new domains
    "ensemble": (lambda seed: VotingRegressor([("svr", _svr(epsilon=0.4)),
                                               ("gbr", MonotoneGBR(random_state=seed)), ("rf", _rf(seed, 200))], n_jobs=1),
                 {"svr__C": [2.0, 8.0]}),
}


def regressor_names() -> list[str]:
    return list(REGRESSORS)



def make_folds(cv, seed: int):
    """``cv`` shuffled folds, or ``cv`` itself when it is a scikit-learn splitter (e.g. a train/dev split)."""
    return KFold(n_splits=cv, shuffle=True, random_state=seed) if isinstance(cv, int) else cv


CHUNK = 500
MIN_FOLD = 10  # held-out pairs below which a fold's Pearson is not reported as a CV figure


def fold_matrices(featurizer: PairFeaturizer, pairs, features, folds, *, fitted_on=None) -> list:
    """``(train, held_out, matrix)`` per fold, the families that learn from text (LSA, IDF) refitted
    on the fold's training pairs only, so that CV never scores a model that saw held-out text.
    ``fitted_on``: the indices of the pairs ``featurizer`` was fitted on, in order; a fold that trains on
    exactly those keeps ``features`` (a refit on the same pairs would give the same columns). The folds are
    refitted through joblib, as the caller's ``parallel_config`` says, when the work (every pair, once per fold) is
    worth workers (:func:`~semsts.core.workers.worth_workers`), else in this process (each fold alone: the same
    columns either way)."""
    columns, learned = featurizer.learned_part()
    splits = list(folds.split(features))
    refit = [number for number, (train, _) in enumerate(splits)
             if columns and not (fitted_on is not None and np.array_equal(train, fitted_on))]
    refitted = {}
    if refit:
        announce(f"CV: refitting the features that learn from text in {len(refit)} folds")
        pairs = list(pairs)
        tasks = [delayed(_refitted_columns)(clone(learned), pairs, splits[number][0]) for number in refit]
        if worth_workers(len(pairs) * len(refit), sum(pair_chars(pairs)) * len(refit)):  # each fold reads every pair
            done = Parallel(return_as="generator")(tasks)
        else:  # sts demo's 1,000 pairs: a second less than starting workers for them
            done = (func(*args, **kwargs) for func, args, kwargs in tasks)
        refitted = dict(zip(refit, tracked(done, f"CV: refitting in {len(refit)} folds")))
    out = []
    for number, (train, held_out) in enumerate(splits):
        matrix = features
        if number in refitted:
            matrix = features.copy()
            matrix[:, columns] = refitted.pop(number)
        out.append((train, held_out, matrix))
    return out


def _refitted_columns(learned, pairs: list, train) -> np.ndarray:
    """The columns of ``learned`` (the families that learn from text) for every pair, fitted on ``pairs[train]``."""
    learned.fit([pairs[i] for i in train])
    return np.vstack([learned.transform(pairs[i:i + CHUNK]) for i in range(0, len(pairs), CHUNK)])


def search(model, grid: dict, fold_data, y) -> tuple[dict, float]:
    """The grid point with the best mean held-out Pearson over ``fold_data`` and that score (the fits run
    through joblib, as the caller's ``parallel_config`` says; an RBF SVR's grid on kernels computed once)."""
    points = list(ParameterGrid(grid))
    if _rbf_svr_grid(model, grid):
        means = _svr_grid_means(model, points, fold_data, y)
        first, second = np.argsort(-means, kind="stable")[:2]
        if means[first] - means[second] < TIE:  # too close for kernels summed by BLAS: score both as libsvm does
            for i in (first, second):
                means[i] = np.mean(_fold_scores(model, [points[i]], fold_data, y))
    elif varied := _one_member_grid(model, grid):
        means = _voting_grid_scores(model, varied, points, fold_data, y).mean(axis=1)
    else:
        means = np.asarray(_fold_scores(model, points, fold_data, y)).reshape(len(points), len(fold_data)).mean(axis=1)
    best = int(np.argmax(np.where(np.isnan(means), -np.inf, means)))  # a point with an undefined fold ranks last
    return points[best], float(means[best])


TIE = 1e-9  # mean Pearsons closer than this are scored again the slow, exact way before one is chosen


def _fold_scores(model, points, fold_data, y) -> list:
    tasks = [(i, fold) for i in range(len(points)) for fold in range(len(fold_data))]
    desc = f"grid search ({len(points)} points x {len(fold_data)} folds)"
    return Parallel()(delayed(_fold_score)(clone(model).set_params(**points[i]), *fold_data[f], y)
                      for i, f in tracked(tasks, desc))


def _fold_score(model, train, held_out, matrix, y) -> float:
    model.fit(matrix[train], y[train])
    return pearson(model.predict(matrix[held_out]), y[held_out])


def _one_member_grid(model, grid: dict) -> str | None:
    """The member of a ``VotingRegressor`` (equal weights) that is the only one ``grid`` varies, if there is one."""
    regress = model.named_steps.get("regress")
    if not isinstance(regress, VotingRegressor) or regress.weights is not None or list(model.named_steps) != [
            "scale", "regress"]:
        return None
    members = {key.removeprefix("regress__").split("__", 1)[0] for key in grid}
    names = [name for name, _ in regress.estimators]
    return members.pop() if len(members) == 1 and all(key.count("__") == 2 for key in grid) and \
        members <= set(names) else None


def _voting_grid_scores(model, varied: str, points, fold_data, y) -> np.ndarray:
    """``(points, folds)`` held-out Pearsons of a ``VotingRegressor`` whose grid varies one member: the other members
    are fitted once per fold, not once per point. Each prediction is the voting regressor's own (the mean of its
    members' predictions, in its members' order, each member fitted on the same scaled fold), so the scores are
    those of fitting each point's pipeline, bit for bit."""
    members = dict(model.named_steps["regress"].estimators)
    fits = [(f, name, None) for f in range(len(fold_data)) for name in members if name != varied]
    fits += [(f, varied, i) for f in range(len(fold_data)) for i in range(len(points))]

    def member(f, name, i):
        estimator = clone(members[name])
        if i is not None:
            estimator.set_params(**{key.split("__", 2)[2]: value for key, value in points[i].items()})
        return estimator
    desc = f"grid search ({len(points)} points of {varied}, the other members once) x {len(fold_data)} folds"
    predicted = Parallel()(delayed(_member_predictions)(member(*task), model.named_steps["scale"], y,
                                                        *fold_data[task[0]]) for task in tracked(fits, desc))
    by_task = dict(zip(fits, predicted))
    scores = np.empty((len(points), len(fold_data)))
    for i in range(len(points)):
        for f, (_, held_out, _) in enumerate(fold_data):
            columns = [by_task[(f, name, i if name == varied else None)] for name in members]
            scores[i, f] = pearson(np.average(np.asarray(columns).T, axis=1), y[held_out])
    return scores


def _member_predictions(estimator, scale, y, train, held_out, matrix) -> np.ndarray:
    """One member's held-out predictions, fitted on the fold's training rows scaled as the pipeline scales them."""
    scale = clone(scale)
    fit_x = scale.fit_transform(matrix[train])
    return estimator.fit(fit_x, y[train]).predict(scale.transform(matrix[held_out]))


def _rbf_svr_grid(model, grid: dict) -> bool:
    regress = model.named_steps.get("regress")
    return (isinstance(regress, SVR) and regress.kernel == "rbf" and list(model.named_steps) == ["scale", "regress"]
            and set(grid) <= {"regress__C", "regress__gamma", "regress__epsilon"})


def _gamma(gamma, x) -> float:
    """The RBF width libsvm uses for ``gamma`` ("scale", "auto" or a number) on training matrix ``x``."""
    if gamma == "scale":
        return 1.0 / (x.shape[1] * x.var()) if x.var() else 1.0
    return 1.0 / x.shape[1] if gamma == "auto" else float(gamma)


def _svr_grid_means(model, points, fold_data, y) -> np.ndarray:
    """Each point's mean held-out Pearson, its SVRs fitted on RBF kernels computed once per fold and gamma
    (libsvm would compute them anew for every point): the scores of fitting each point's pipeline, to about
    1e-14. The fits of one kernel share it in threads (libsvm releases the GIL), as many as the caller's
    ``parallel_config`` has workers: processes would each need a copy of the kernel, or to compute it again."""
    from sklearn.metrics.pairwise import euclidean_distances
    regress = model.named_steps["regress"]
    scores = np.zeros((len(points), len(fold_data)))
    threads = Parallel(backend="threading")  # the number from the caller's parallel_config, whatever its backend
    for f, (train, held_out, matrix) in enumerate(tracked(fold_data, f"grid search ({len(points)} points, kernels "
                                                                      f"once per gamma) x {len(fold_data)} folds")):
        scale = clone(model.named_steps["scale"]).fit(matrix[train])
        fit_x, held_x = scale.transform(matrix[train]), scale.transform(matrix[held_out])
        fit_d = euclidean_distances(fit_x, squared=True)
        held_d = euclidean_distances(held_x, fit_x, squared=True)
        by_gamma: dict = {}  # the points of each gamma, so that one kernel is held at a time
        for i, point in enumerate(points):
            params = {**regress.get_params(), **{k.removeprefix("regress__"): v for k, v in point.items()}}
            by_gamma.setdefault(_gamma(params["gamma"], fit_x), []).append((i, params))
        fit_k, held_k = np.empty_like(fit_d), np.empty_like(held_d)
        for gamma, group in by_gamma.items():
            for d, k in ((fit_d, fit_k), (held_d, held_k)):  # exp(-gamma * d), into one buffer for every gamma
                np.multiply(d, -gamma, out=k)
                np.exp(k, out=k)
            group = sorted(group, key=lambda item: -item[1]["C"])  # the longest fits (largest C) first
            done = threads(delayed(_svr_score)(fit_k, held_k, y[train], y[held_out], params) for _, params in group)
            for (i, _), score in zip(group, done):
                scores[i, f] = score
    return scores.mean(axis=1)


def _svr_score(fit_k, held_k, y_fit, y_held, params) -> float:
    """The held-out Pearson of an SVR of ``params`` fitted on the precomputed kernel ``fit_k``."""
    svr = SVR(kernel="precomputed", C=params["C"], epsilon=params["epsilon"], tol=params["tol"],
              shrinking=params["shrinking"], cache_size=params["cache_size"], max_iter=params["max_iter"])
    return pearson(svr.fit(fit_k, y_fit).predict(held_k), y_held)
