"""Issue 32, what a model file (.skops + card) can make us do: nothing runs unless the user names it, no
index in it leaves its arrays, no zip in it unpacks beyond a model's size, and every crafted object graph is
one error line naming the file."""
import copy
import io
import json
import os
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest
import skops.io
from sklearn.ensemble import GradientBoostingRegressor, HistGradientBoostingRegressor, RandomForestRegressor
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils import Bunch
from threadpoolctl import threadpool_limits

from semsts import cli
from semsts.baselines import model_archive
from semsts.baselines.model_card import ModelMismatch, card_path
from semsts.baselines.model_file import load_model
from semsts.baselines.monotone import MonotoneGBR
from semsts.features.encoder_features import EncoderFeatures
from tests.conftest import cli_error, replace_model

HOSTILE_ENCODER = '''
import os
open(os.environ["STS_TEST_MARKER"], "w").close()


def encode(texts):
    open(os.environ["STS_TEST_MARKER"], "w").close()
    raise SystemExit("ran")
'''


@pytest.fixture
def hostile_module(tmp_path, monkeypatch, marker):
    """``hostile_enc:encode`` importable here: importing or calling it leaves the marker."""
    folder = tmp_path / "mods"
    folder.mkdir()
    (folder / "hostile_enc.py").write_text(HOSTILE_ENCODER)
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop("hostile_enc", None)
    yield "hostile_enc:encode"
    sys.modules.pop("hostile_enc", None)


def edit_card(path, **fields):
    card = json.loads(card_path(path).read_text())
    card.update(fields)
    card_path(path).write_text(json.dumps(card))


def crafted(path, models, change):
    """``path`` holding a copy of ``models`` after ``change(copy)``, its card's SHA-256 matching, as an attacker would."""
    models = copy.deepcopy(models)
    change(models)
    replace_model(path, skops.io.dumps(models))
    return path


def refused(path, capsys, match, **kwargs) -> str:
    """The model is refused by the library (a ModelMismatch naming it) and by `sts run` and `sts bench` (one line)."""
    with pytest.raises(ModelMismatch, match=match) as caught:
        load_model(path, **kwargs)
    assert str(path) in str(caught.value)
    line = cli_error(capsys, path)
    assert "Traceback" not in line
    return line


# ---- 1. an encoder spec in a model file runs only when the user names it again -----------------------------

def test_a_card_naming_a_users_encoder_is_refused_until_it_is_named_again(saved, hostile_module, marker, capsys):
    edit_card(saved, encoder=hostile_module)
    line = refused(saved, capsys, "hostile_enc:encode.*name it again: --encoder SPEC")
    assert "load_model(path, encoder=SPEC)" in line
    with pytest.raises(ModelMismatch, match="is not the encoder the model was trained with"):
        load_model(saved, encoder="other_module:encode")
    assert not marker.exists()


def test_a_card_naming_a_spec_with_control_characters_is_shown_escaped(saved, marker, capsys):
    edit_card(saved, encoder="os:system\x1b[2J\nforged line")
    line = refused(saved, capsys, "encoder")
    assert "\x1b" not in line and "\\x1b" in line and "\\n" in line
    assert not marker.exists()


def test_an_encoder_in_the_model_that_its_card_does_not_name_never_runs(saved, trained, hostile_module, marker, capsys):
    def add_encoder(models):
        model = models.models["all"]
        model.encoder = model.pipeline_.steps[0][1].encoder = "sif"  # a built-in one on the card: no confirmation
        model.pipeline_.steps[0][1].union_.transformer_list.append(("encoder", EncoderFeatures(hostile_module)))
    crafted(saved, trained, add_encoder)
    edit_card(saved, encoder="sif")
    refused(saved, capsys, "EncoderFeatures holds the encoder 'hostile_enc:encode', which its card does not name")
    assert not marker.exists()


def test_a_confirmed_encoder_runs_and_a_model_without_one_takes_no_encoder(tmp_path, toy_encoder, capsys):
    from semsts import corpora
    from semsts.baselines.model_file import save_model
    from semsts.baselines.regression import FeatureRegression
    from semsts.baselines.subset_models import SubsetModels
    train = corpora.load("demo-train")
    models = SubsetModels({"all": FeatureRegression(feature_set="takelab", exclude=["gloss", "embedding", "distributional"],
                                                    param_grid={"C": [1.0]}, cv=2, encoder="toy_encoder:encode")
                           .fit(train.pairs[:30], train.gold[:30])})
    path = tmp_path / "enc.skops"
    save_model(models, path, {"training_data": {"datasets": []}})
    with pytest.raises(ModelMismatch, match="name it again"):
        load_model(path)
    assert load_model(path, encoder="toy_encoder:encode")[1]["encoder"] == "toy_encoder:encode"
    out = tmp_path / "o"
    assert cli.main(["run", "regression", "--model", str(path), "--encoder", "toy_encoder:encode", "--test", "demo-test",
                     "--out", str(out), "--quiet"]) == 0
    assert len(np.loadtxt(next(out.glob("*.txt")))) == len(corpora.load("demo-test").pairs)
    assert cli.main(["run", "regression", "--model", str(path), "--encoder", "sif", "--test", "demo-test",
                     "--out", str(tmp_path / "o2"), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not the encoder the model was trained with" in err[0], err


def test_python_m_semsts_does_not_import_from_the_current_folder(tmp_path, marker):
    (tmp_path / "cwd_enc.py").write_text(HOSTILE_ENCODER)
    env = {**os.environ, "STS_TEST_MARKER": str(marker)}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-m", "semsts", "run", "--encoder", "cwd_enc:encode", "--test", "demo-test",
                           "--out", str(tmp_path / "o"), "--quiet"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()] and "cannot import module 'cwd_enc'" in done.stderr
    assert not marker.exists()


# ---- 2. trees and libsvm arrays whose indices would leave their arrays --------------------------------------

def _width(models) -> int:
    return len(models.models["all"].feature_names_)


def _with_regressor(make):
    """A change that puts ``make(width)``, fitted on random rows of the model's width, after the scaler."""
    def change(models):
        width = _width(models)
        rng = np.random.default_rng(0)
        x, y = rng.normal(size=(60, width)), rng.uniform(0, 5, 60)
        with threadpool_limits(1):  # 60 rows: the boosting's threads would only wait for one another
            models.models["all"].pipeline_.steps[-1] = ("regress", make().fit(x, y))
    return change


def _tree(models):
    regress = models.models["all"].pipeline_.steps[-1][1]
    if isinstance(regress, DecisionTreeRegressor):
        return regress.tree_
    return regress.estimators_.flat[0].tree_ if isinstance(regress, GradientBoostingRegressor) else regress.estimators_[0].tree_


def _set_node(tree, field, index, value):
    state = tree.__getstate__()
    state["nodes"][field][index] = value
    tree.__setstate__(state)


TREE_DAMAGE = {
    "child out of range": (lambda t: _set_node(t, "left_child", 0, 10 ** 9), "child indices point outside it"),
    "child pointing back up": (lambda t: _set_node(t, "right_child", 0, 0), "child indices point outside it or back up"),
    "two parents": (lambda t: _set_node(t, "left_child", 0, t.children_right[0]), "child indices|not one tree"),
    "one child": (lambda t: _set_node(t, "right_child", 0, -1), "one child"),
    "feature out of range": (lambda t: _set_node(t, "feature", 0, 10 ** 6), "feature outside"),
    "NaN threshold": (lambda t: _set_node(t, "threshold", 0, np.nan), "NaN thresholds"),
}
FORESTS = {"random forest": lambda: RandomForestRegressor(n_estimators=3, random_state=0),
           "gradient boosting": lambda: GradientBoostingRegressor(n_estimators=3, random_state=0),
           "decision tree": lambda: DecisionTreeRegressor(random_state=0)}


@pytest.mark.parametrize("damage", TREE_DAMAGE)
@pytest.mark.parametrize("forest", FORESTS)
def test_a_tree_with_indices_out_of_range_is_refused_before_it_predicts(saved, trained, capsys, forest, damage):
    spoil, message = TREE_DAMAGE[damage]

    def change(models):
        _with_regressor(FORESTS[forest])(models)
        spoil(_tree(models))
    refused(crafted(saved, trained, change), capsys, message)


def _predictor(models):
    regress = models.models["all"].pipeline_.steps[-1][1]
    return (regress.model_ if isinstance(regress, MonotoneGBR) else regress)._predictors[0][0]


def _set_record(predictor, field, value, where=0):
    predictor.nodes[field][where] = value


PREDICTOR_DAMAGE = {
    "child out of range": (lambda p: _set_record(p, "left", 10 ** 9), "child indices point outside it"),
    "child pointing back up": (lambda p: _set_record(p, "right", 0), "child indices point outside it or back up"),
    "feature out of range": (lambda p: _set_record(p, "feature_idx", 10 ** 6), "feature outside"),
    "categorical split": (lambda p: _set_record(p, "is_categorical", 1), "categorical"),
    "not a leaf nor a split": (lambda p: _set_record(p, "is_leaf", 7), "neither leaf nor split"),
    "NaN leaf": (lambda p: _set_record(p, "value", np.nan, np.flatnonzero(p.nodes["is_leaf"])[0]), "non-finite"),
}
BOOSTERS = {"histogram boosting": lambda: HistGradientBoostingRegressor(max_iter=3, min_samples_leaf=5, random_state=0),
            "monotone boosting": lambda: MonotoneGBR(max_iter=3, min_samples_leaf=5, random_state=0)}


@pytest.mark.parametrize("damage", PREDICTOR_DAMAGE)
@pytest.mark.parametrize("booster", BOOSTERS)
def test_a_boosting_tree_with_indices_out_of_range_is_refused(saved, trained, capsys, booster, damage):
    spoil, message = PREDICTOR_DAMAGE[damage]

    def change(models):
        _with_regressor(BOOSTERS[booster])(models)
        spoil(_predictor(models))
    refused(crafted(saved, trained, change), capsys, message)


@pytest.mark.parametrize("damage", ["support vectors cut", "coefficients cut", "intercepts", "support vectors too wide"])
def test_an_svm_whose_arrays_do_not_match_is_refused(saved, trained, capsys, damage):
    def change(models):
        svr = models.models["all"].pipeline_.steps[-1][1]
        if damage == "support vectors cut":
            svr.support_vectors_ = svr.support_vectors_[:1].copy()
        elif damage == "coefficients cut":
            svr._dual_coef_ = svr._dual_coef_[:, :1].copy()
        elif damage == "intercepts":
            svr._intercept_ = np.zeros(0)
        else:
            svr.support_vectors_ = np.hstack([svr.support_vectors_, svr.support_vectors_])
    refused(crafted(saved, trained, change), capsys, "an SVM")


def test_every_committed_model_passes_the_checks():
    """The checks hold the shipped models (an SVR, four SVRs, a forest with boosting) to nothing they lack."""
    from semsts.baselines.model_checks import check_models
    from semsts.baselines.model_file import TRUSTED
    root = os.path.join(os.path.dirname(__file__), "..", "models")
    for name in ("stsb", "sts2012", "sts2013"):
        card = json.loads(open(os.path.join(root, f"{name}.json")).read())
        check_models(name, skops.io.load(os.path.join(root, f"{name}.skops"), trusted=TRUSTED), card.get("encoder"))
        with zipfile.ZipFile(os.path.join(root, f"{name}.skops")) as archive:
            model_archive.check_archive(name, archive)


# ---- 3. zip bombs --------------------------------------------------------------------------------------------

def _declare(data: bytes, name: str, size: int) -> bytes:
    """The zip ``data`` with entry ``name``'s declared uncompressed size set to ``size`` (both headers)."""
    data = bytearray(data)
    encoded = name.encode()
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack_from("<H", data, at + 28)[0]
        if bytes(data[at + 46:at + 46 + length]) == encoded:
            struct.pack_into("<I", data, at + 24, size)
            local = struct.unpack_from("<I", data, at + 42)[0]
            struct.pack_into("<I", data, local + 22, size)
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def _zip(entries: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


BOMBS = {
    "an array declared 1 GiB": (lambda good: _declare(_zip({**_entries(good), "big.npy": b"\0" * 1000}), "big.npy", 1 << 30),
                                "unpacks to 1,073,741,824 bytes"),
    "a schema declared 512 MiB": (lambda good: _declare(good, "schema.json", 512 << 20), "unpacks to 536,870,912 bytes"),
    "an 8 MiB entry of zeros": (lambda good: _zip({**_entries(good), "z.npy": b"\0" * (8 << 20)}), "compressed"),
    "too many entries": (lambda good: _zip({**_entries(good), **{f"{i}.npy": b"" for i in range(10_001)}}),
                         "a zip of 10,0"),
}


def _bzip2(good: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_BZIP2) as archive:
        for name, content in _entries(good).items():
            archive.writestr(name, content)
    return buffer.getvalue()


BOMBS["entries in bzip2, which unpacks unbounded"] = (_bzip2, "compressed with method 12")


def _entries(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_a_schema_nested_thousands_deep_is_one_error_line_never_a_traceback(saved, capsys):
    """Issue 44, kind 7: JSON nested 100,000 deep in a model file's schema is one error line naming the file."""
    replace_model(saved, _zip({**_entries(saved.read_bytes()), "schema.json": "[" * 100_000 + "]" * 100_000}))
    refused(saved, capsys, r"not a readable \.skops model file \(RecursionError: maximum recursion depth exceeded")


@pytest.mark.parametrize("bomb", BOMBS)
def test_a_zip_bomb_is_refused_before_anything_is_unpacked(saved, capsys, bomb):
    make, message = BOMBS[bomb]
    replace_model(saved, make(saved.read_bytes()))
    refused(saved, capsys, message)


def test_an_entry_that_unpacks_to_more_than_it_declares_is_cut_at_what_it_declares(saved, capsys):
    import tracemalloc
    good = _entries(saved.read_bytes())
    schema = json.loads(good["schema.json"])
    padded = json.dumps(schema) + " " * (64 << 20)  # 64 MiB more than the 100 bytes declared
    replace_model(saved, _declare(_zip({**good, "schema.json": padded}), "schema.json", 100))
    tracemalloc.start()
    try:
        with pytest.raises(ModelMismatch, match="not a readable"):
            load_model(saved)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, peak
    cli_error(capsys, saved)


def test_a_model_file_larger_than_any_model_is_refused_before_it_is_hashed(saved, capsys):
    with open(saved, "r+b") as handle:  # sparse: no disk space used
        handle.truncate(model_archive.MAX_FILE_BYTES + 1)
    refused(saved, capsys, "more than a model file holds")


# ---- 4. trusted types put together wrongly ------------------------------------------------------------------

def _scaler(models):
    return models.models["all"].pipeline_.steps[1][1]


GRAPHS = {
    "a fallback naming no sub-model": (lambda m: setattr(m, "fallback", "nowhere"), "fallback names a sub-model"),
    "a mapping naming no sub-model": (lambda m: setattr(m, "mapping", {"MSRpar": "nowhere"}), "mapping or fallback"),
    "a Bunch as the regression": (lambda m: m.models.update(all=Bunch(pipeline_=1, feature_names_=[])),
                                  "sub-model 'all' is a Bunch, not a trained regression"),
    "a Bunch as the pipeline": (lambda m: setattr(m.models["all"], "pipeline_", Bunch(steps=[])), "its pipeline"),
    "a NaN in the scaler": (lambda m: _scaler(m).scale_.__setitem__(0, np.nan), "NaN or infinite"),
    "the scaler's means cut": (lambda m: setattr(_scaler(m), "mean_", _scaler(m).mean_[:-1].copy()),
                               "its regression fails on"),
    "the scaler fitted on other features": (lambda m: setattr(_scaler(m), "n_features_in_", 3),
                                            "its regression fails on .* StandardScaler is expecting 3 features"),
    "feature names the featurizer does not make": (lambda m: m.models["all"].feature_names_.pop(), "featurizer"),
    "a NaN score range": (lambda m: setattr(m.models["all"], "clip_range_", (0.0, float("nan"))), "score range"),
    "a zero chunk size": (lambda m: setattr(m.models["all"].pipeline_.steps[0][1], "chunk_size", 0), "featurizer"),
}


@pytest.mark.parametrize("graph", GRAPHS)
def test_a_crafted_graph_of_trusted_types_is_one_error_line(saved, trained, capsys, graph):
    change, message = GRAPHS[graph]
    refused(crafted(saved, trained, change), capsys, message)


def test_damage_the_checks_miss_fails_the_canary_check_as_damage(saved, trained, capsys):
    def weights(models):  # a feature family's weight that no arithmetic takes
        models.models["all"].pipeline_.steps[0][1].union_.transformer_weights = {"word": "heavy"}
    crafted(saved, trained, weights)
    card = json.loads(card_path(saved).read_text())
    edit_card(saved, versions={**card["versions"], "numpy": "0.0"})  # another version: the canaries are predicted
    refused(saved, capsys, "fail on the canary pairs, so the file is damaged")


def test_a_damaged_tree_anywhere_in_the_model_is_refused(saved, trained, capsys):
    """A tree outside the regression steps (where no width applies) is checked too."""
    def hide_tree(models):
        rng = np.random.default_rng(0)
        tree = DecisionTreeRegressor(random_state=0).fit(rng.normal(size=(30, 4)), rng.uniform(0, 5, 30))
        _set_node(tree.tree_, "left_child", 0, 10 ** 9)
        models.models["all"].pipeline_.steps[0][1].union_.transformer_list[0][1].hidden = tree
    refused(crafted(saved, trained, hide_tree), capsys, "child indices point outside it")
