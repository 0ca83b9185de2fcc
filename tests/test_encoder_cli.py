"""A user's encoder through the command line: as a system (`sts run --encoder`) and as a feature family of
the regression (`sts train regression --encoder`, then `sts run --model`), with its spec in the model card."""
from __future__ import annotations

import json

import numpy as np
import pytest
from test_own_data import SMALL, SMALL_PARAMS, pairs_tsv

from semsts import baselines, cli


def test_train_with_an_encoder_family_save_load_and_run(toy_encoder, tmp_path, capsys):
    train, test = pairs_tsv(tmp_path / "train.tsv", 59, 1), pairs_tsv(tmp_path / "test.tsv", 40, 2)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "regression", "--train", str(train), "--test", str(test), *SMALL,
                     "--encoder", "toy_encoder:encode", "--save", str(model), "--quiet"]) == 0
    card = json.loads(model.with_suffix(".json").read_text())
    assert card["encoder"] == "toy_encoder:encode" and card["params"]["encoder"] == "toy_encoder:encode"
    assert [n for n in card["feature_names"] if n.startswith("encoder__")] == [
        "encoder__encoderfeatures__cosine", "encoder__encoderfeatures__unit_l1",
        "encoder__encoderfeatures__euclidean", "encoder__encoderfeatures__norm_ratio"]
    models, _ = baselines.load_model(model)
    assert models.for_subset("x").encoder == "toy_encoder:encode"
    out = tmp_path / "out"
    assert cli.main(["run", "regression", "--model", str(model), "--test", str(test), "--out", str(out), "--quiet"]) == 0
    scores = np.loadtxt(next(out.glob("*.txt")))
    assert len(scores) == 40 and np.isfinite(scores).all()
    # the encoder family changes the model: the same training without it gives other predictions
    plain = baselines.make_system("regression", **SMALL_PARAMS, cv=3)
    with_encoder = baselines.make_system("regression", **SMALL_PARAMS, cv=3, encoder="toy_encoder:encode")
    pairs = [("a cat sat .", "the cat sat ."), ("a dog ran .", "the sun set ."), ("a bird flew .", "a bird flew .")] * 4
    y = [4.0, 0.5, 5.0] * 4
    assert not np.allclose(plain.fit(pairs, y).predict(pairs[:3]), with_encoder.fit(pairs, y).predict(pairs[:3]))


def test_an_encoder_runs_as_a_system_and_names_the_run(toy_encoder, tmp_path):
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    out = tmp_path / "out"
    assert cli.main(["run", "--encoder", "toy_encoder:encode", "--test", str(test), "--out", str(out), "--quiet"]) == 0
    record = json.loads((out / "sts-run.json").read_text())
    assert record["system"] == "encoder toy_encoder:encode" and record["complete"]
    scores = np.loadtxt(next(out.glob("STS.output.*")))
    assert len(scores) == 40 and ((scores >= 0) & (scores <= 5)).all()


@pytest.mark.parametrize("argv, message", [
    (["run", "--test", "T", "--out", "O"], "give a SYSTEM to run, or --encoder SPEC"),
    (["run", "token-cosine", "--encoder", "sif", "--test", "T", "--out", "O"], "--encoder SPEC runs an encoder on its own"),
    (["run", "--encoder", "no_such_module_x:f", "--test", "T", "--out", "O"], "cannot import module 'no_such_module_x'"),
    (["train", "regression", "--train", "T", "--encoder", "no_colon", "--save", "m.skops"], "expected a built-in encoder"),
])
def test_bad_encoder_requests_say_what_is_expected(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pairs_tsv(tmp_path / "T", 20, 3)
    assert cli.main(argv + ["--quiet"]) == 1
    assert message in capsys.readouterr().err
