"""The one interface every system shares: a scikit-learn regressor over text pairs."""
from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Sequence

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

from semsts.core import stats
from semsts.core.errors import InvalidValue, STSError


class PairError(ValueError, STSError):
    """Pair ``index`` (0-based) of the input cannot be used; the runner turns it into file:line."""

    def __init__(self, index: int, message: str):
        self.index = index
        self.message = message
        super().__init__(f"pair {index + 1}: {message}")

    def __reduce__(self):  # raised in a worker process, it comes back whole
        return type(self), (self.index, self.message)


def check_pairs(X) -> list[tuple[str, str]]:
    """Accept any sequence of ``(text_a, text_b)``; refuse anything else with a clear message."""
    if isinstance(X, np.ndarray) and X.ndim == 2 and X.shape[1] == 2:
        X = X.tolist()
    pairs = []
    for i, pair in enumerate(X):
        if isinstance(pair, str) or len(pair) != 2:
            raise ValueError(f"X[{i}] must be a (text_a, text_b) pair, got {pair!r:.80}")
        a, b = pair
        if not isinstance(a, str) or not isinstance(b, str):
            raise ValueError(f"X[{i}] must hold two strings, got {type(a).__name__} and {type(b).__name__}")
        pairs.append((a, b))
    return pairs


def check_training(X, y) -> tuple[list, np.ndarray | None]:
    """Pairs and their gold scores as ``fit`` takes them: as many scores as pairs, all finite."""
    pairs = check_pairs(X)
    if y is not None:
        y = np.asarray(y, dtype=float)
        if len(y) != len(pairs):
            raise ValueError(f"X has {len(pairs)} pairs but y has {len(y)} scores")
        if not np.isfinite(y).all():
            raise InvalidValue("y holds NaN or inf; drop unscored pairs before fitting")
    return pairs, y


def rescale(scores, source, target) -> np.ndarray:
    """Scores mapped linearly from the range ``source`` onto ``target`` (each two numbers, low < high):
    ``t_low + (s - s_low) * (t_high - t_low) / (s_high - s_low)``, which from (0, 1) onto (0, 5) is ``s * 5`` to the
    bit (on halves where a range near the float's limits would overflow it). The one linear map of scores between
    ranges (the runner's onto a task's range: ``run.onto_task_range``)."""
    (slo, shi), (lo, hi) = source, target
    scores = np.asarray(scores, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        out = lo + (scores - slo) * (hi - lo) / (shi - slo)
        if math.isfinite(shi - slo) and math.isfinite(hi - lo) and np.isfinite(out).all():
            return out
        # a range near the float's limits overflows that: the same map on halves (exact), finite for a finite score
        return (lo / 2 + (scores / 2 - slo / 2) / (shi / 2 - slo / 2) * (hi / 2 - lo / 2)) * 2


class InvalidParameter(ValueError, STSError):
    """A system's parameter outside its rule (:attr:`PairRegressor.param_rules`), raised by ``fit`` before any
    work, worded as scikit-learn words its own: ``The 'min_match' parameter of GSTBaseline must be …``."""


# A parameter's rule: ``(test, what a valid value is)``; each system maps its parameters to rules in ``param_rules``.
def _is_int(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def int_from(low: int) -> tuple:
    return (lambda v: _is_int(v) and v >= low, f"an int in the range [{low}, inf)")


def real_in(low: float | None = None, high: float | None = None, *, open_low: bool = False) -> tuple:
    """A real number (not NaN) in ``[low, high]`` (``(low, high]`` with ``open_low``); None: unbounded."""
    def test(v):
        return (isinstance(v, Real) and not isinstance(v, bool) and not math.isnan(v)
                and (low is None or (v > low if open_low else v >= low)) and (high is None or v <= high))
    return test, f"a float in the range {'(' if open_low or low is None else '['}{'-inf' if low is None else low}, {'inf)' if high is None else f'{high}]'}"


def instance_of(*types) -> tuple:
    return (lambda v: isinstance(v, types)), " or ".join(f"an instance of {t.__name__!r}" for t in types)


def among(options) -> tuple:
    return (lambda v: isinstance(v, str) and v in options), f"a str among {sorted(options)}"


def with_methods(*names) -> tuple:
    return (lambda v: all(callable(getattr(v, n, None)) for n in names)), f"an object implementing {', '.join(map(repr, names))}"


NONE = ((lambda v: v is None), "None")
BOOLEAN = ((lambda v: isinstance(v, (bool, np.bool_))), "an instance of 'bool'")
CALLABLE = (callable, "a callable")


def either(*rules) -> tuple:
    """A value any of ``rules`` accepts."""
    return (lambda v: any(test(v) for test, _ in rules)), " or ".join(what for _, what in rules)


def check_params(estimator) -> None:
    """Each parameter of ``estimator`` against its rule in ``estimator.param_rules``; an InvalidParameter naming the
    first one outside it."""
    for name, (test, what) in estimator.param_rules.items():
        value = getattr(estimator, name)
        if not test(value):
            raise InvalidParameter(f"The {name!r} parameter of {type(estimator).__name__} must be {what}. "
                                   f"Got {value!r} instead.")


def pearson(y_true, y_pred, sample_weight=None) -> float:
    """Pearson's r of ``y_pred`` with the gold ``y_true`` (weighted when ``sample_weight`` is given), over the pairs
    that have a gold score: NaN gold (an unscored pair) is left out, as the scorer leaves it out, then
    :func:`semsts.core.stats.pearson` (NaN when fewer than two pairs are scored or either side is constant)."""
    y_true, y_pred = np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)
    if y_true.shape != y_pred.shape:
        raise ValueError(f"{len(y_pred)} predicted scores but {len(y_true)} gold scores")
    keep = ~np.isnan(y_true)
    weights = None if sample_weight is None else np.asarray(sample_weight, dtype=float)[keep]
    return stats.pearson(y_pred[keep], y_true[keep], weights=weights)


class PairRegressor(RegressorMixin, BaseEstimator):
    """Base for systems: ``fit(X, y)`` returns self, ``predict(X)`` gives one score per pair,
    ``score(X, y)`` the Pearson correlation of those scores with the gold ``y``.

    Subclasses implement ``_fit(pairs, y)`` (optional) and ``_predict(pairs)``. ``score_range`` is the range a
    system's scores live in (a class attribute, or a parameter; ``score_range_`` where ``fit`` learns it): the
    runner maps them from there onto the task's range (the dataset's, [0, 5] for STS) and clips them into it.
    """

    score_range: tuple[float, float] = (0.0, 5.0)
    # each parameter's rule (see :func:`check_params`), checked at fit: a bad value is an InvalidParameter (a
    # ValueError) naming it, before any work is done
    param_rules: dict = {}

    def fit(self, X, y=None):
        check_params(self)
        pairs, y = check_training(X, y)
        self._fit(pairs, y)
        self.n_pairs_fit_ = len(pairs)
        return self

    def _fit(self, pairs, y) -> None:
        """Unsupervised systems learn nothing by default."""

    def predict(self, X) -> np.ndarray:
        if not hasattr(self, "n_pairs_fit_"):
            from sklearn.exceptions import NotFittedError
            raise NotFittedError(f"{type(self).__name__} is not fitted yet; call fit first")
        scores = np.asarray(self._predict(check_pairs(X)), dtype=float)
        if not np.isfinite(scores).all():
            raise InvalidValue(f"{type(self).__name__} produced NaN or inf scores")
        return scores

    def _predict(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        raise NotImplementedError

    def score(self, X, y, sample_weight=None) -> float:
        """Pearson's r of ``predict(X)`` with the gold ``y``: the figure STS systems are judged by, and so what
        ``GridSearchCV`` and ``cross_val_score`` maximize by default (not RegressorMixin's R², which would reward
        matching the gold's scale: a system's scores are compared with the gold by correlation, whatever their
        scale). Unscored pairs (NaN gold) are left out; for gold with one column per type (TYPED, ``(n, 8)``), the
        plain mean of the types' Pearsons, as the *SEM 2013 paper reports them."""
        y, predicted = np.asarray(y, dtype=float), self.predict(X)
        if y.ndim == 2:
            if predicted.shape != y.shape:
                raise ValueError(f"y has shape {y.shape} but the predictions {predicted.shape}")
            return float(np.mean([pearson(y[:, j], predicted[:, j], sample_weight) for j in range(y.shape[1])]))
        return pearson(y, predicted, sample_weight)

    def __sklearn_tags__(self):
        """Input: a list of text pairs (not a 2-D numeric array); y is optional unless a subclass needs it."""
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        tags.target_tags.required = False
        return tags
