"""A loaded model's object graph, checked before anything predicts with it, for what skops's trusted types do not
ensure: a crafted file of trusted types can still name code its card does not (an encoder or a pair scorer spec:
importing it runs code), hand compiled code indices outside its arrays (:mod:`semsts.baselines.native_checks`),
or be put together so that a prediction fails, loops or gives NaN (a fallback naming no sub-model, a dict where
the regression goes, steps of another width, a NaN). Each is a :class:`ModelMismatch` naming the file.
"""
from __future__ import annotations

import numpy as np

from . import native_checks
from .model_card import ModelMismatch

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


def code_named(obj, encoder: str | None, scorer: str | None) -> str | None:
    """The code one of our objects names that its card does not (``encoder``, ``scorer``: the card's), said; else
    None. An encoder may also be a built-in one."""
    from semsts.features.encoders import ENCODERS, SIF
    fields = {"encode": ("encoder", encoder), "encoder": ("encoder", encoder), "encoder_": ("encoder", encoder),
              "scorer": ("pair scorer", scorer), "scorer_": ("pair scorer", scorer)}
    for attribute, (what, spec) in fields.items():
        value = getattr(obj, "__dict__", {}).get(attribute)
        if value is None or (isinstance(value, str) and (value == spec or (what == "encoder" and value in ENCODERS))
                             or (what == "encoder" and isinstance(value, SIF))):
            continue
        held = f"the {what} {value!r:.100}" if isinstance(value, str) else f"a {type(value).__name__} as its {what}"
        return f"a {type(obj).__name__} holds {held}, which its card does not name; refused before importing anything"
    return None


def check_models(path, models, encoder: str | None, scorer: str | None = None) -> None:
    """The whole graph: sub-models, their pipelines, arrays and compiled structures; ``encoder`` and ``scorer``: the
    card's, if any."""
    from .regression import FeatureRegression
    from .subset_models import SubsetModels
    if not (isinstance(models, SubsetModels) and isinstance(getattr(models, "models", None), dict) and models.models):
        raise ModelMismatch(f"{path}: holds no trained regression models")
    for name, model in models.models.items():
        if not (isinstance(name, str) and isinstance(model, FeatureRegression)):
            raise ModelMismatch(f"{path}: sub-model {name!r:.60} is a {type(model).__name__}, not a trained regression")
    mapping, fallback = getattr(models, "mapping", False), getattr(models, "fallback", None)
    mapping = {} if mapping is None else mapping  # None: no mapping (SubsetModels' default)
    if not (isinstance(mapping, dict) and all(isinstance(k, str) and v in models.models for k, v in mapping.items())
            and isinstance(fallback, str) and fallback in models.models):
        raise ModelMismatch(f"{path}: its subset mapping or fallback names a sub-model it does not hold (it holds "
                            f"{sorted(models.models)})"[:400])
    objects = list(parts(models))
    for obj in objects:  # the code it names first: our code that reads the rest may call it
        if isinstance(obj, np.ndarray) and obj.dtype.kind in "fc" and not np.all(np.isfinite(obj)):
            raise ModelMismatch(f"{path}: a learned array of shape {obj.shape} holds NaN or infinite values")
        wrong = code_named(obj, encoder, scorer) if type(obj).__module__.startswith("semsts.") else None
        if wrong:
            raise ModelMismatch(f"{path}: holds {wrong}")
    regressions, widths = {}, {}  # each sub-model's steps after its features, and the width of every object in them
    for name, model in models.models.items():
        regressions[name] = _regression(path, name, model)
        widths.update((id(obj), regressions[name][1]) for obj in parts(regressions[name][0].steps))
    for obj in objects:
        wrong = native_checks.check(obj, widths.get(id(obj)))  # no width outside the regressions
        if wrong:
            raise ModelMismatch(f"{path}: holds {wrong}")
    for name, (regression, width) in regressions.items():
        _probe(path, name, regression, width)


def _regression(path, name: str, model) -> tuple:
    """One sub-model: a pipeline of the featurizer of its feature names, then regression steps, and a range; the
    regression steps and the number of features they take."""
    from sklearn.pipeline import Pipeline

    from semsts.features.featurizer import PairFeaturizer
    names, clip = getattr(model, "feature_names_", None), getattr(model, "clip_range_", None)
    try:  # a crafted pipeline or featurizer: whatever our code and scikit-learn's make of it
        pipeline = model.pipeline_
        features, regression = pipeline.steps[0][1], pipeline[1:]
        sound = (isinstance(pipeline, Pipeline) and isinstance(features, PairFeaturizer) and isinstance(names, list) and names
                 and names == list(features.union_.get_feature_names_out()) == features.feature_names_
                 and isinstance(features.chunk_size, int) and features.chunk_size >= 1 and len(regression.steps) >= 1)
    except Exception:
        sound = False
    if not sound:
        raise ModelMismatch(f"{path}: sub-model {name!r}: its pipeline is not the featurizer of its feature names "
                            "followed by regression steps")
    if not (isinstance(clip, tuple) and len(clip) == 2 and all(isinstance(v, float) and np.isfinite(v) for v in clip)
            and clip[0] <= clip[1]):
        raise ModelMismatch(f"{path}: sub-model {name!r}: its score range is not two finite numbers, lowest first")
    return regression, len(names)


def _probe(path, name: str, regression, width: int) -> None:
    """The regression steps predict finite scores for rows of ``width`` features (once nothing they hold is NaN
    and their compiled structures are sound): steps fitted on another width, or cut, fail here."""
    from threadpoolctl import threadpool_limits
    try:  # the steps after the features, on rows of the right width: any error here is damage, not the data's
        with np.errstate(all="ignore"), threadpool_limits(1):  # two rows: starting threads would take longer
            probe = np.asarray(regression.predict(np.zeros((2, width))), dtype=float)
    except Exception as exc:
        reason = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:120]}".rstrip(": ")
        raise ModelMismatch(f"{path}: sub-model {name!r}: its regression fails on {width} features ({reason})") from None
    if probe.shape != (2,) or not np.all(np.isfinite(probe)):
        raise ModelMismatch(f"{path}: sub-model {name!r}: its regression gives {probe.shape} values (some not finite) "
                            f"for 2 rows of {width} features")
