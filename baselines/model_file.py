"""Saved models: a skops file and a JSON model card beside it (``X.skops`` + ``X.json``), saved and loaded.

A model file is data: it is read by skops with an explicit list of trusted types, so nothing in it
runs as code; a file naming any other type or function is refused before anything is built from it.
The card (:mod:`semsts.baselines.model_card`) records the training data, the features, the scores reached,
the SHA-256 of the model file and of every resource the model reads (WordNet, GloVe, the gloss space), and
the model's predictions on fixed demo pairs (its canaries). Under other library versions
or resources a model loads when its canaries agree within ``CANARY_TOLERANCE``, and is refused, saying what
differs, when they do not.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from semsts import corpora
from semsts.core.errors import InvalidValue, Note, WriteFailed, shown
from semsts.core.extras import require
from semsts.core.files import atomic_open, is_regular, sha256_of_file

from . import model_card
from .model_archive import check_file_size, load_skops
from .model_card import ModelMismatch, card_path, feature_spec, read_card, resource_hashes, versions

if TYPE_CHECKING:
    from .subset_models import SubsetModels
# the features and the models are imported where a model is read or saved: reading a card (``sts bench`` and
# ``sts run`` do before they start their workers) imports no scikit-learn

SUFFIX = ".skops"

# Every type or function of ours a model file may name; skops trusts scikit-learn's, numpy's and scipy's
# own, and refuses any other. The functions are the word vectorizers' analyzers.
TRUSTED = sorted({
    "semsts.baselines.regression.FeatureRegression", "semsts.baselines.subset_models.SubsetModels",
    "semsts.features.featurizer.PairFeaturizer", "semsts.features.alignment.Alignment", "semsts.features.distributional.Distributional",
    "semsts.features.distributional.char_text", "semsts.features.distributional.lemma_tokens", "semsts.features.edit.EditSimilarity",
    "semsts.features.embedding.EmbeddingSimilarity", "semsts.features.encoder_features.EncoderFeatures", "semsts.features.encoders.SIF",
    "semsts.features.scorer_features.ScorerFeatures",
    "semsts.features.gloss_features.GlossSimilarity", "semsts.features.lengths.Lengths", "semsts.features.ngrams.NgramOverlap",
    "semsts.features.shallow.CapitalOverlap", "semsts.features.shallow.NegationOverlap", "semsts.features.shallow.NumberOverlap",
    "semsts.features.substrings.CommonSubstrings", "semsts.features.weighted.WeightedOverlap",
    "semsts.features.wordnet_features.WordNetOverlap", "semsts.baselines.monotone.MonotoneGBR",
    "semsts.features.static_vectors.StaticAlignment", "semsts.features.static_vectors.StaticSIF",
    # scikit-learn's own that skops does not trust by default: a CV splitter, tree structures, a dict subclass
    "sklearn.model_selection._split.PredefinedSplit", "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor",
    "sklearn.tree._tree.Tree", "sklearn.utils._bunch.Bunch",
})


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
    if card_path(path).is_dir():
        raise InvalidValue(f"--save {path}: its card's name {card_path(path)} is a folder")


def save_model(models: SubsetModels, path, card: dict) -> dict:
    """Write the model file, then its card, each to a temporary beside it renamed into place
    (:func:`semsts.core.files.atomic_open`); the card as written. The card records the model's SHA-256: a crash or
    a full disk between the two leaves a pair that :func:`load_model` refuses ("save again"), never a wrong model."""
    import skops.io
    check_destination(path)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    spec = feature_spec(models)
    if spec.get("scorer"):  # its version as its pair scores are kept by: a model run with another is said
        version = _scorer_version(spec["scorer"])
        spec = {**spec, **({"scorer_version": version} if version else {})}
    card = {"training_data": {"datasets": []}, **card, **spec, "versions": versions(), "model_file": path.name,
            "resources": resource_hashes(spec["feature_names"], spec.get("encoder")),
            "canaries": {"dataset": model_card.CANARY_DATASET, "pairs": model_card.CANARY_PAIRS,
                         "predictions": model_card.predict_canaries(models)}}
    data = skops.io.dumps(models, compression=zipfile.ZIP_DEFLATED, compresslevel=6)
    card["sha256"] = hashlib.sha256(data).hexdigest()
    text = json.dumps(card, indent=2, sort_keys=True) + "\n"
    for target, content, what in ((path, data, "not saved"), (card_path(path), text.encode(), "saved, but not its card")):
        try:
            with atomic_open(target, "wb", sync=True) as handle:
                handle.write(content)
        except OSError as exc:  # a full disk: one message naming the model file (the load refuses a half pair)
            failed = WriteFailed(f"{path}: {what} ({exc.strerror or exc}); save again")
            failed.errno = exc.errno
            raise failed from None
    return card


# ---- loading -------------------------------------------------------------------------------------------


def shipped_models() -> list[str]:
    """The names of the models shipped with semsts (the package ``semsts.models``: ``models/`` of the checkout)."""
    from importlib.resources import files
    return sorted(entry.name[:-len(SUFFIX)] for entry in files("semsts.models").iterdir() if entry.name.endswith(SUFFIX))


def model_path(spec) -> Path:
    """The model file ``spec`` names: a shipped model's name (a str without a folder part or a suffix, such as
    ``"stsb"``) or else a path. A shipped model's name that is also a file in the current folder is refused as
    ambiguous: ``./stsb`` names the file."""
    if isinstance(spec, str) and spec in shipped_models():
        if os.path.lexists(spec):
            raise InvalidValue(f"model {spec!r} names both a model shipped with semsts and a file in this folder: "
                               f"write ./{spec} for the file, or rename it")
        from importlib.resources import files
        return Path(os.path.realpath(files("semsts.models") / f"{spec}{SUFFIX}"))  # realpath: a link-tree install
    return Path(spec)


def check_confirmed(path, card: dict, field: str, confirmed, *, what: str, builtins=()) -> None:
    """The card's ``field`` (a spec of the user's code, ``package.module:function``, imported: it runs code; or None)
    is one of ``builtins`` or named again by the caller (``confirmed``: the spec ``--FIELD`` gave, or the specs the
    user named), else a ModelMismatch naming ``what``. Checked before anything is imported or predicted."""
    spec = card.get(field)
    if spec is not None and not isinstance(spec, str):
        raise corpora.FormatError(card_path(path), None, f"field {field!r} should be a str, got a {type(spec).__name__}")
    if isinstance(confirmed, str) and confirmed != spec:
        raise ModelMismatch(f"{path}: --{field} {confirmed!r:.100} is not the {what} the model was trained with "
                            f"({'none' if spec is None else repr(spec)[:100]})")
    named = (confirmed,) if isinstance(confirmed, str) else tuple(confirmed or ())
    if spec is not None and spec not in builtins and spec not in named:
        raise ModelMismatch(f"{path}: trained with the {what} {spec!r:.100}, code its card names: it is imported (and "
                            f"runs) only when you name it again: --{field} SPEC with --model (sts run, sts bench), "
                            f"or load_model(path, {field}=SPEC)")


def _scorer_version(spec: str) -> str | None:
    from semsts.features.pair_score_cache import scorer_version
    try:
        return scorer_version(spec)
    except ValueError:  # a callable handed over in Python, which no spec imports: no version to record
        return None


def check_scorer_version(path, card: dict) -> None:
    """A note when the pair scorer the card names (named again by the user) is not the version it records."""
    recorded = card.get("scorer_version")
    if recorded is None or card.get("scorer") is None:
        return
    if not isinstance(recorded, str):
        raise corpora.FormatError(card_path(path), None, f"field 'scorer_version' should be a str, got a "
                                  f"{type(recorded).__name__}")
    now = _scorer_version(card["scorer"])
    if now != recorded:
        warnings.warn(Note(f"{path}: trained with the pair scorer {card['scorer']} at {shown(recorded, 80)}, which is "
                           f"now {now or 'unversioned'} (its cache_version changed): the model gives "
                           "what it learned from the old scores; retrain it if the scores changed"), stacklevel=3)


def load_model(path, encoder=None, scorer=None, *, cache: bool | str = True) -> tuple[SubsetModels, dict]:
    """The models in ``path`` and their card, after checking the file, its card, the objects it holds, the features
    and (under other library versions or resources) the canary predictions: a :class:`~semsts.core.errors.Note`
    warning says that they agree, a :class:`ModelMismatch` that they do not.

    A model trained with a user's encoder (``package.module:function``, named in the card's ``encoder``) loads
    only when ``encoder`` names that spec again (:func:`check_confirmed`), and one trained with a pair scorer (the
    card's ``scorer``) only when ``scorer`` names it again: a model file is data, and the module it names is the
    user's code, imported as they ask (it must be importable here). A scorer whose version is not the one the card
    records is said in a note; with ``cache`` False, the scorer's feature neither reads nor writes the pair-score
    cache, and a str ``cache`` is the scorer's version it is cached by (``--cache-version``). ``path`` may name a
    shipped model instead (``"stsb"``, ``"sts2012"``, ``"sts2013"``: :func:`model_path`)."""
    path = model_path(path)
    if path.suffix == ".joblib":
        raise ModelMismatch(f"{path}: a pickle-based model file, which can run code as it loads; this version reads "
                            f"only {SUFFIX} model files: retrain with `sts train … --save {path.with_suffix(SUFFIX)}`")
    if not is_regular(path):
        raise (ModelMismatch(f"{path}: not a regular file (a link, folder, FIFO or device); refused")
               if os.path.lexists(path) else FileNotFoundError(f"model file {path} does not exist (the models shipped with "
                                                                f"semsts load by name: {', '.join(shipped_models())})"))
    require("reference", "a model file")
    card = read_card(path)
    from semsts.features.encoders import ENCODERS
    check_confirmed(path, card, "encoder", encoder, what="encoder", builtins=ENCODERS)
    check_confirmed(path, card, "scorer", scorer, what="pair scorer")
    check_file_size(path)
    actual = sha256_of_file(path)
    if card["sha256"] != actual:
        raise ModelMismatch(f"{path}: SHA-256 {actual} differs from its card's {shown(card['sha256'], 64)}: the card "
                            "does not match the model (a save cut short, or a file changed); save again")
    # the resources are hashed (100 MB; hashlib lets go of the GIL) in a thread while skops builds the model
    resources = ThreadPoolExecutor(1).submit(resource_hashes, card["feature_names"], card.get("encoder"))
    models = load_skops(path, TRUSTED)  # sizes bounded as it reads; any type or function but TRUSTED refused
    from .model_checks import check_models
    check_models(path, models, card.get("encoder"), card.get("scorer"))
    check_features(path, models, card)
    check_behaviour(path, models, card, resources.result())
    check_scorer_version(path, card)
    if cache is not True:
        from semsts.features.scorer_features import ScorerFeatures

        from .model_checks import parts
        for obj in parts(models):
            if isinstance(obj, ScorerFeatures):
                obj.cache = cache
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
    gap, tolerance = model_card.canary_gap(path, models, card["canaries"]["predictions"]), model_card.CANARY_TOLERANCE
    what = ", ".join(differ)
    if not gap <= tolerance:
        raise ModelMismatch(f"{path}: saved with {what}; its canary predictions differ from the card's by up to "
                            f"{gap:.2g} (more than {tolerance:g}), so it would not reproduce its figures here: "
                            f"retrain with `{retrain_command(card)}`")
    warnings.warn(Note(f"{path}: saved with {what}; its {model_card.CANARY_PAIRS} canary predictions agree within "
                       f"{tolerance:g} (largest difference {gap:.1e})"), stacklevel=3)


# a command `sts train` writes in a card: words of letters, digits and path characters, nothing a shell expands
_TRAIN_COMMAND = re.compile(r"sts train( [\w.,:=/+@%-]+)+", re.ASCII)


def retrain_command(card: dict) -> str:
    """The card's ``command`` if it is one ``sts train`` would have written, else one built from its regime."""
    command = card.get("command")
    if isinstance(command, str) and len(command) <= 300 and _TRAIN_COMMAND.fullmatch(command):
        return command
    from .regimes import regime_names
    regime = card.get("regime")
    return f"sts train --regime {regime}" if regime in regime_names() else "sts train"


def check_features(path, models: SubsetModels, card: dict) -> None:
    """The file's sub-models, its card and this code must agree on the features."""
    try:
        spec = feature_spec(models)
    except (ValueError, AttributeError, TypeError) as exc:
        raise ModelMismatch(f"{path}: its sub-models do not describe their features ({shown(exc, 200)})") from None
    for key in ("feature_set", "exclude", "encoder", "scorer", "feature_names"):
        if spec.get(key) != card.get(key):
            raise ModelMismatch(f"{path}: the model's {key} does not match its card's ({card.get(key)!r:.120})")
    from semsts.features.sets import make_union
    try:
        union = make_union(spec["feature_set"], exclude=spec["exclude"], encoder=spec.get("encoder"),
                           scorer=spec.get("scorer"))
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
