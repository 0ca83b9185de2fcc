"""A loaded model's object graph, checked to be what ``sts train`` saves before anything predicts with it.

skops builds only trusted types, but a crafted file can still put them together wrongly: a fallback naming
no sub-model, a dict where the regression goes, arrays of the wrong shape or holding NaN, trees whose
indices leave their arrays (:mod:`semsts.baselines.native_checks`), or an encoder spec its card does not
name (a spec is imported, so it runs code). Each is a :class:`Damaged` saying what was expected; the
caller names the file.
"""
from __future__ import annotations

import numpy as np
from sklearn.ensemble._hist_gradient_boosting.gradient_boosting import BaseHistGradientBoosting
from sklearn.ensemble._hist_gradient_boosting.predictor import TreePredictor
from sklearn.svm._base import BaseLibSVM
from sklearn.tree._tree import Tree

from semsts.core.errors import STSError

from . import native_checks


class Damaged(ValueError, STSError):
    """What is wrong in a loaded model (the message names no file)."""


ATOMS = frozenset({str, bytes, int, float, complex, bool, type(None)})  # nothing inside: not visited


def parts(root):
    """Every object reachable from ``root`` (each once) but plain numbers and strings: containers' items and our
    and scikit-learn's objects' attributes, iteratively (a deep graph is no recursion)."""
    stack, seen = [root], set()
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, np.ndarray):
            items = obj.ravel().tolist() if obj.dtype == object else ()
        elif isinstance(obj, dict):
            items = [*obj.keys(), *obj.values()]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            items = obj
        elif (not isinstance(obj, type) and type(obj).__module__.startswith(("semsts.", "sklearn."))
              and isinstance(getattr(obj, "__dict__", None), dict)):
            items = vars(obj).values()
        else:
            items = ()
        stack.extend(item for item in items if type(item) not in ATOMS)


NATIVE = (Tree, TreePredictor, BaseLibSVM, BaseHistGradientBoosting)


def _native(obj, width: int | None) -> str | None:
    """What is wrong with a structure compiled code follows by index (None if ``obj`` is none, or sound)."""
    if isinstance(obj, Tree):
        return native_checks.check_tree(obj, width)
    if isinstance(obj, TreePredictor):
        return native_checks.check_predictor(obj, width)
    if isinstance(obj, BaseLibSVM):
        return native_checks.check_libsvm(obj, width)
    if isinstance(obj, BaseHistGradientBoosting):
        return native_checks.check_boosting(obj)
    return None


def _check_encoder(obj, spec: str | None) -> None:
    """An encoder our objects hold: none, a built-in one, or the card's ``spec`` (the only one confirmed)."""
    from semsts.features.encoders import ENCODERS, SIF
    for attribute in ("encode", "encoder", "encoder_"):
        value = getattr(obj, "__dict__", {}).get(attribute)
        if value is None or isinstance(value, SIF) or (isinstance(value, str) and (value in ENCODERS or value == spec)):
            continue
        what = f"the encoder {value!r:.100}" if isinstance(value, str) else f"a {type(value).__name__} as its encoder"
        raise Damaged(f"a {type(obj).__name__} holds {what}, which its card does not name; refused before "
                      "importing anything")


def _check_scorer(obj, spec: str | None) -> None:
    """A pair scorer our objects hold: none, or the card's ``spec`` (the only one confirmed)."""
    for attribute in ("scorer", "scorer_"):
        value = getattr(obj, "__dict__", {}).get(attribute)
        if value is None or (isinstance(value, str) and value == spec):
            continue
        what = f"the pair scorer {value!r:.100}" if isinstance(value, str) else f"a {type(value).__name__} as its scorer"
        raise Damaged(f"a {type(obj).__name__} holds {what}, which its card does not name; refused before "
                      "importing anything")


def check_models(models, spec: str | None, scorer: str | None = None) -> None:
    """The whole graph: sub-models, their pipelines, arrays and trees; ``spec`` and ``scorer``: the card's encoder and
    pair scorer, if any."""
    from .regression import FeatureRegression
    from .subset_models import SubsetModels
    if not (isinstance(models, SubsetModels) and isinstance(getattr(models, "models", None), dict) and models.models):
        raise Damaged("holds no trained regression models")
    for name, model in models.models.items():
        if not (isinstance(name, str) and isinstance(model, FeatureRegression)):
            raise Damaged(f"sub-model {name!r:.60} is a {type(model).__name__}, not a trained regression")
    mapping, fallback = getattr(models, "mapping", None), getattr(models, "fallback", None)
    if not (isinstance(mapping, dict) and all(isinstance(k, str) and v in models.models for k, v in mapping.items())
            and isinstance(fallback, str) and fallback in models.models):
        raise Damaged(f"its subset mapping or fallback names a sub-model it does not hold (it holds {sorted(models.models)})"
                      [:300])
    natives = []
    for obj in parts(models):
        if isinstance(obj, np.ndarray) and obj.dtype.kind in "fc" and not np.all(np.isfinite(obj)):
            raise Damaged(f"a learned array of shape {obj.shape} holds NaN or infinite values")
        if type(obj).__module__.startswith("semsts."):
            _check_encoder(obj, spec)
            _check_scorer(obj, scorer)
        if isinstance(obj, NATIVE):
            natives.append(obj)
    regressions, checked = {}, set()  # the steps after each sub-model's features, their widths; objects checked
    for name, model in models.models.items():
        try:
            regressions[name] = _check_regression(model, checked)
        except Damaged as exc:
            raise Damaged(f"sub-model {name!r}: {exc}") from None
    for obj in natives:  # those outside the regressions, which no width applies to
        wrong = None if id(obj) in checked else _native(obj, None)
        if wrong:
            raise Damaged(f"holds {wrong}")
    for name, (regression, width) in regressions.items():
        try:
            _probe(regression, width)
        except Damaged as exc:
            raise Damaged(f"sub-model {name!r}: {exc}") from None


def _check_regression(model, checked: set) -> tuple:
    """One sub-model: a featurizer of its feature names, then steps that take that many features (the compiled
    structures among them checked, their ids added to ``checked``), and a range; its regression steps and width."""
    from sklearn.pipeline import Pipeline

    from semsts.features.featurizer import PairFeaturizer
    pipeline, names = getattr(model, "pipeline_", None), getattr(model, "feature_names_", None)
    if not (isinstance(pipeline, Pipeline) and isinstance(pipeline.steps, list) and len(pipeline.steps) >= 2
            and all(isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], str) for s in pipeline.steps)):
        raise Damaged("its pipeline is not a list of named steps, features first")
    features = pipeline.steps[0][1]
    if not (isinstance(features, PairFeaturizer) and isinstance(names, list) and names
            and all(isinstance(n, str) for n in names)):
        raise Damaged("its first step is not the featurizer of its feature names")
    try:
        made = list(features.union_.get_feature_names_out())
        chunk = features.chunk_size
    except Exception as exc:  # a crafted featurizer: whatever our code makes of it
        raise Damaged(f"its featurizer cannot name its features ({type(exc).__name__})") from None
    if made != names or features.feature_names_ != names or not (isinstance(chunk, int) and chunk >= 1):
        raise Damaged("its featurizer's features are not the model's")
    clip = getattr(model, "clip_range_", None)
    if not (isinstance(clip, tuple) and len(clip) == 2 and all(isinstance(v, float) and np.isfinite(v) for v in clip)
            and clip[0] <= clip[1]):
        raise Damaged("its score range is not two finite numbers, lowest first")
    width, regression = len(names), pipeline[1:]
    for obj in parts(regression.steps):
        declared = getattr(obj, "__dict__", {}).get("n_features_in_", width)
        fits = isinstance(declared, (int, np.integer)) and declared == width
        wrong = _native(obj, width) or (None if fits else
                                        f"a {type(obj).__name__} fitted on {declared!r:.20} features where {width} come in")
        if wrong:
            raise Damaged(f"holds {wrong}")
        checked.add(id(obj))
    return regression, width


def _probe(regression, width: int) -> None:
    """The regression steps predict finite scores for rows of ``width`` features (once nothing they hold is NaN
    and their compiled structures are sound)."""
    from threadpoolctl import threadpool_limits
    try:  # the steps after the features, on rows of the right width: any error here is damage, not the data's
        with np.errstate(all="ignore"), threadpool_limits(1):  # two rows: starting threads would take longer
            probe = np.asarray(regression.predict(np.zeros((2, width))), dtype=float)
    except Exception as exc:
        raise Damaged(f"its regression fails on {width} features ({type(exc).__name__}: {str(exc).splitlines()[0][:120]})"
                      if str(exc) else f"its regression fails on {width} features ({type(exc).__name__})") from None
    if probe.shape != (2,) or not np.all(np.isfinite(probe)):
        raise Damaged(f"its regression gives {probe.shape} values (some not finite) for 2 rows of {width} features")
