"""Canaries: a model's predictions on fixed demo pairs, recorded in its card when it is saved and predicted again
when it loads under other library versions or resources (the load goes on only if they agree)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from semsts import corpora

from .model_card import ModelMismatch

if TYPE_CHECKING:
    from .subset_models import SubsetModels

CANARY_DATASET, CANARY_PAIRS = "demo-test", 40
CANARY_TOLERANCE = 1e-6


def canary_pairs() -> list:
    return corpora.load(CANARY_DATASET).pairs[:CANARY_PAIRS]


def predict_canaries(models: SubsetModels) -> dict:
    """Each sub-model's predictions on the canary pairs."""
    pairs = canary_pairs()
    return {name: [float(x) for x in model.predict(pairs)] for name, model in sorted(models.models.items())}


def canary_gap(path, models: SubsetModels, expected: dict) -> float:
    """The largest difference between the canary predictions of the loaded ``models`` and ``expected`` (its card's
    ``canaries.predictions``); :class:`ModelMismatch` if they are not predictions of the same sub-models, or if
    predicting fails (damage the checks missed)."""
    try:
        got = predict_canaries(models)
    except Exception as exc:
        raise ModelMismatch(f"{path}: its sub-models fail on the canary pairs, so the file is damaged "
                            f"({type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:120]})") from None
    if sorted(got) != sorted(expected) or any(len(got[k]) != len(expected[k]) for k in got):
        raise ModelMismatch(f"{path}: its card's canaries do not match its sub-models; the card belongs to another model")
    return max(float(np.max(np.abs(np.subtract(got[k], expected[k])))) for k in got)
