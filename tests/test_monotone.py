"""MonotoneGBR (baselines.monotone) keeps scikit-learn's estimator contract: every check of ``check_estimator``."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import SkipTestWarning
from sklearn.utils.estimator_checks import check_estimator

from semsts.baselines.monotone import MonotoneGBR, correlation_signs


def test_every_scikit_learn_check_passes():
    """All of ``check_estimator``'s checks pass; the one it skips is array-API input, which it runs only when SciPy's
    array API support is switched on (``SCIPY_ARRAY_API=1``), and which a tree model does not claim."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkipTestWarning)  # the skip is asserted below, by name
        results = check_estimator(MonotoneGBR(max_iter=20), on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:200]) for r in results if r["status"] == "failed"]
    skipped = {r["check_name"] for r in results if r["status"] == "skipped"}
    assert len(results) > 40 and not failed
    assert skipped <= {"check_array_api_input"}


def test_constraints_follow_the_training_correlations():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = X[:, 0] - X[:, 1] + 0.01 * rng.normal(size=300)
    assert correlation_signs(X, y, 0.2).tolist() == [1, -1, 0]
    model = MonotoneGBR(max_iter=30).fit(X, y)
    assert model.monotonic_cst_.tolist() == [1, -1, 0] and model.n_iter_ == 30
    grid = np.zeros((50, 3))
    grid[:, 0] = np.linspace(-2, 2, 50)
    assert (np.diff(model.predict(grid)) >= 0).all()  # held monotone in the first feature


def test_a_bad_parameter_is_named_at_fit():
    with pytest.raises(ValueError, match="'threshold' parameter of MonotoneGBR"):
        MonotoneGBR(threshold=2).fit(np.zeros((30, 2)), np.arange(30.0))
