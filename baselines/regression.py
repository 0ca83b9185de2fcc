"""The feature-regression reference system: feature union → scaling → regressor, tuned by CV.

Hyperparameters are chosen by k-fold cross-validation on the training pairs only (Pearson r,
:mod:`semsts.baselines.model_search`), then the best pipeline is refitted on all of them; predictions are
clipped to the task's range.
"""
from __future__ import annotations

import numpy as np
from sklearn.model_selection import ParameterGrid
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from semsts.core.extras import require
from semsts.core.progress import announce
from semsts.core.stats import checked_range
from semsts.features.featurizer import PairFeaturizer, map_chunks, pair_chars
from semsts.features.sets import DEFAULT_SET, set_names

from .base import (
    CALLABLE,
    NONE,
    PairRegressor,
    among,
    check_params,
    check_training,
    either,
    instance_of,
    int_from,
    with_methods,
)
from .model_search import MIN_FOLD, REGRESSORS, fold_matrices, make_folds, search


class FeatureRegression(PairRegressor):
    """Pairs → ``PairFeaturizer(feature_set)`` → ``StandardScaler`` → ``regressor``.

    ``param_grid`` (over the regressor's parameters) defaults to the regressor's grid; a grid with
    one value per parameter skips the search. Featurization and the CV fits run through joblib:
    the caller sets workers and backend with ``joblib.parallel_config``; they never change the result.
    ``encoder`` (``glove-mean``, ``sif``, ``package.module:function`` or a callable) adds that sentence
    encoder's cosine and three derived features as one more family (:mod:`semsts.features.encoder_features`);
    ``scorer`` (a pair scorer's spec or callable) adds its score as one more feature
    (:mod:`semsts.features.scorer_features`).
    """

    param_rules = {
        "feature_set": among(set(set_names())), "exclude": instance_of(list, tuple), "regressor": among(set(REGRESSORS)),
        "param_grid": either(instance_of(dict), NONE), "cv": either(int_from(2), with_methods("split", "get_n_splits")),
        "random_state": int_from(0), "score_range": either(instance_of(tuple, list), NONE),
        "encoder": either(CALLABLE, instance_of(str), NONE), "scorer": either(CALLABLE, instance_of(str), NONE)}

    scorer = None  # models saved before pair scorers came hold no such attribute

    def __init__(self, feature_set: str = DEFAULT_SET, exclude=(), regressor: str = "svr", param_grid=None,
                 cv: int = 5, random_state: int = 0, score_range=None, encoder=None, scorer=None):
        self.feature_set = feature_set
        self.exclude = exclude
        self.regressor = regressor
        self.param_grid = param_grid
        self.cv = cv
        self.random_state = random_state
        self.score_range = score_range
        self.encoder = encoder
        self.scorer = scorer

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True  # a supervised system
        return tags

    def build_featurizer(self) -> PairFeaturizer:
        """The unfitted first step of the fitted pipeline: the featurizer of ``feature_set``, ``exclude``,
        ``encoder`` and ``scorer``. With :meth:`build_model` it lets a caller featurize the pairs once for its own tuning
        (as :func:`semsts.baselines.regimes.tune_on_dev` does), then fit with :meth:`fit_featurized`."""
        require("reference", "the reference system (regression)")
        return PairFeaturizer(self.feature_set, tuple(self.exclude), encoder=self.encoder, scorer=self.scorer)

    def build_model(self) -> tuple[Pipeline, dict]:
        """The unfitted steps after the features (``StandardScaler``, then ``regressor`` seeded with
        ``random_state``) and the grid searched over them: ``param_grid``, else the regressor's default grid,
        keyed ``regress__<parameter>`` as the pipeline's ``set_params`` takes it."""
        if self.regressor not in REGRESSORS:
            raise ValueError(f"unknown regressor {self.regressor!r}; known: {', '.join(REGRESSORS)}")
        factory, grid = REGRESSORS[self.regressor]
        model = Pipeline([("scale", StandardScaler()), ("regress", factory(self.random_state))])
        grid = grid if self.param_grid is None else self.param_grid
        return model, {f"regress__{k}": list(v) for k, v in grid.items()}

    def _fit(self, pairs, y):
        if y is None:
            raise ValueError("FeatureRegression needs gold scores to fit")
        require("reference", "the reference system (regression)")
        announce(f"fitting the {self.feature_set} features on {len(pairs)} pairs (loads WordNet, word vectors, gloss space)")
        featurizer = self.build_featurizer().fit(pairs)
        announce(f"featurizing {len(pairs)} pairs")
        self._fit_featurized(pairs, y, featurizer, featurizer.transform(pairs))

    def fit_featurized(self, pairs, y, featurizer: PairFeaturizer, features: np.ndarray):
        """``fit`` for pairs already featurized by ``featurizer`` (fitted on these pairs), so that a
        caller that featurized them for its own tuning (``regimes.tune_on_dev``) does not do it twice."""
        check_params(self)
        pairs, y = check_training(pairs, y)
        if y is None:
            raise ValueError("FeatureRegression needs gold scores to fit")
        if features.shape != (len(pairs), len(featurizer.feature_names_)):
            raise ValueError(f"features must be the featurizer's matrix of the {len(pairs)} pairs "
                             f"({len(featurizer.feature_names_)} columns), got shape {features.shape}")
        self._fit_featurized(pairs, y, featurizer, features)
        self.n_pairs_fit_ = len(pairs)
        return self

    def _fit_featurized(self, pairs, y, featurizer, features):
        model, grid = self.build_model()
        points = list(ParameterGrid(grid))
        if len(points) == 1:  # nothing to choose: no CV
            self.best_params_, self.cv_score_ = points[0], None
        else:
            fold_data = fold_matrices(featurizer, pairs, features, make_folds(self.cv, self.random_state))
            self.best_params_, self.cv_score_ = search(model, grid, fold_data, y)
            self.cv_smallest_fold_ = min(len(held_out) for _, held_out, _ in fold_data)
            if self.cv_smallest_fold_ < MIN_FOLD:  # a Pearson over a handful of pairs is noise, not a figure
                self.cv_score_ = None
        announce(f"final fit of {self.regressor} on {len(pairs)} pairs")
        model.set_params(**self.best_params_).fit(features, y)
        self.pipeline_ = Pipeline([("features", featurizer), *model.steps])
        self.clip_range_ = (checked_range(self.score_range) if self.score_range is not None
                            else (float(np.min(y)), float(np.max(y))))
        self.feature_names_ = featurizer.feature_names_

    def _predict(self, pairs):
        # in the gold's units, clipped to ``score_range`` or else to the range of the gold it learned from; each
        # distinct pair predicted once (a pair's prediction does not depend on the others)
        lo, hi = getattr(self, "clip_range_", None) or self.score_range
        pairs, features = [tuple(p) for p in pairs], self.pipeline_.named_steps["features"]
        distinct = list(dict.fromkeys(pairs))
        announce(f"predicting {len(pairs)} pairs")
        features.note_long_sides(pairs)
        # featurized and regressed chunk by chunk, so that workers share both (the SVR is a fifth of the time);
        # in this process the SVR of a chunk runs in a thread while the next one is featurized
        chunks = map_chunks(features.rows, distinct, features.chunk_size, workers=features.in_workers(),
                            then=self.pipeline_[1:].predict, chars=pair_chars(distinct))
        scores = np.concatenate([np.zeros(0), *chunks])
        row = {pair: i for i, pair in enumerate(distinct)}
        return np.clip(scores[[row[p] for p in pairs]] if pairs else scores, lo, hi)
