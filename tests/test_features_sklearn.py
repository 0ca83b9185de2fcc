"""The feature transformers honour scikit-learn's estimator contract.

They take texts, not numbers, and their tags say so (``input_tags.string``, not ``two_d_array``). For such an
estimator scikit-learn's own checks (``parametrize_with_checks``) run what applies to text input and skip the
rest with a ``SkipTestWarning``: those checks make numeric arrays. The same contracts are then checked here on
text pairs, under the names of scikit-learn's checks (``check_fit_idempotent`` …); the data-free API checks run
as scikit-learn wrote them. ``EXPECTED_FAILED_CHECKS`` lists what a transformer does not do, and why.
"""
import pickle
import warnings

import numpy as np
import pytest
from joblib import hash as joblib_hash
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.exceptions import NotFittedError, SkipTestWarning
from sklearn.utils import estimator_checks, get_tags
from sklearn.utils.estimator_checks import parametrize_with_checks

from semsts import corpora
from semsts.features.encoder_features import EncoderFeatures
from semsts.features.featurizer import PairFeaturizer
from semsts.features.sets import FAMILIES
from semsts.features.typed2013 import TypedFields

PAIR_TRANSFORMERS = [factory() for steps in FAMILIES.values() for _, factory in steps] + [
    EncoderFeatures("glove-mean"), EncoderFeatures("sif"), PairFeaturizer("takelab")]
TRANSFORMERS = [*PAIR_TRANSFORMERS, TypedFields()]  # TypedFields: one record text per row, not pairs

_STATELESS = "learns nothing from its pairs, so fitting on none is as valid as fitting on any"
# class name -> {check: why that transformer fails it}
EXPECTED_FAILED_CHECKS = {
    **{type(t).__name__: {"check_estimators_empty_data_messages": _STATELESS}
       for t in PAIR_TRANSFORMERS if not get_tags(t).requires_fit},
    "EncoderFeatures": {"check_estimators_empty_data_messages": "an encoder's fit only keeps the encoder (SIF: its "
                                                                "component of the texts given); no pairs is no error"},
}


def expected_failed_checks(transformer) -> dict:
    return EXPECTED_FAILED_CHECKS.get(type(transformer).__name__, {})


with warnings.catch_warnings():  # scikit-learn says, once per transformer, that it skips its numeric checks
    warnings.simplefilter("ignore", SkipTestWarning)
    scikit_learn_checks = parametrize_with_checks(TRANSFORMERS, expected_failed_checks=expected_failed_checks)


@scikit_learn_checks
def test_scikit_learn_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("transformer", TRANSFORMERS, ids=repr)
def test_tags_say_text_input(transformer):
    tags = get_tags(transformer)
    assert tags.input_tags.string and not tags.input_tags.two_d_array


DATA_FREE_CHECKS = ["check_estimator_tags_renamed", "check_valid_tag_types", "check_estimator_repr",
                    "check_no_attributes_set_in_init", "check_do_not_raise_errors_in_init_or_set_params",
                    "check_mixin_order", "check_get_params_invariance", "check_set_params",
                    "check_parameters_default_constructible"]


@pytest.mark.parametrize("check", DATA_FREE_CHECKS)
@pytest.mark.parametrize("transformer", TRANSFORMERS, ids=repr)
def test_scikit_learn_api_checks_that_need_no_data(transformer, check):
    getattr(estimator_checks, check)(type(transformer).__name__, clone(transformer))


@pytest.fixture(scope="module")
def pairs():
    return [tuple(p) for p in corpora.load("demo-train").subsets[0].pairs[:16]]


def check_estimators_fit_returns_self(t, pairs):
    params = joblib_hash(t.get_params())
    assert t.fit(pairs) is t
    assert joblib_hash(t.get_params()) == params, "fit changed a parameter"


def check_transformer_general(t, pairs):
    """fit_transform is fit then transform; one row per pair, one column per feature name."""
    out = clone(t).fit(pairs).transform(pairs)
    assert out.shape == (len(pairs), len(clone(t).fit(pairs).get_feature_names_out()))
    assert_allclose(clone(t).fit_transform(pairs), out)


def check_methods_subset_invariance(t, pairs):
    t.fit(pairs)
    assert_allclose(np.vstack([t.transform(pairs[i:i + 5]) for i in range(0, len(pairs), 5)]), t.transform(pairs),
                    atol=1e-7)


def check_methods_sample_order_invariance(t, pairs):
    t.fit(pairs)
    order = np.random.RandomState(0).permutation(len(pairs))
    assert_allclose(t.transform([pairs[i] for i in order]), t.transform(pairs)[order], atol=1e-9)


def check_fit_idempotent(t, pairs):
    once = clone(t).fit(pairs).transform(pairs)
    assert_allclose(t.fit(pairs[:8]).fit(pairs).transform(pairs), once, atol=1e-9)


def check_estimators_pickle(t, pairs):
    t.fit(pairs)
    assert_allclose(pickle.loads(pickle.dumps(t)).transform(pairs), t.transform(pairs), atol=1e-9)


def check_dict_unchanged(t, pairs):
    t.fit(pairs)
    state = joblib_hash(t.__dict__)
    t.transform(pairs[:5])
    assert joblib_hash(t.__dict__) == state, "transform changed the fitted transformer"


def check_estimators_unfitted(t, pairs):
    if get_tags(t).requires_fit:
        with pytest.raises(NotFittedError):
            t.transform(pairs[:2])
    else:  # nothing to learn: it transforms as it is
        assert_allclose(t.transform(pairs), clone(t).fit(pairs).transform(pairs), atol=1e-9)


def check_estimators_empty_data_messages(t, pairs):
    with pytest.raises(ValueError):
        t.fit([])


def check_transform_no_pairs(t, pairs):
    """Not one of scikit-learn's: no pairs give an empty matrix of the same columns (a subset may score none)."""
    assert t.fit(pairs).transform([]).shape == (0, len(t.get_feature_names_out()))


PAIR_CHECKS = [check_estimators_fit_returns_self, check_transformer_general, check_methods_subset_invariance,
               check_methods_sample_order_invariance, check_fit_idempotent, check_estimators_pickle,
               check_dict_unchanged, check_estimators_unfitted, check_estimators_empty_data_messages,
               check_transform_no_pairs]


@pytest.mark.parametrize("check", PAIR_CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("transformer", PAIR_TRANSFORMERS, ids=repr)
def test_the_contract_on_text_pairs(transformer, check, pairs):
    reason = expected_failed_checks(transformer).get(check.__name__)
    if reason is None:
        check(clone(transformer), pairs)
    else:  # listed: it must still fail, or the list is out of date
        with pytest.raises((AssertionError, pytest.fail.Exception)):
            check(clone(transformer), pairs)


def test_every_listed_failure_has_a_reason_and_a_check():
    names = {c.__name__ for c in PAIR_CHECKS}
    for failures in EXPECTED_FAILED_CHECKS.values():
        for check, reason in failures.items():
            assert check in names and reason.strip()
