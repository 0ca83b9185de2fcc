"""Tests of semsts.baselines.model_save: a model file and its card are replaced both, or neither."""
import errno
import json

import pytest

from semsts import corpora
from semsts.baselines import model_file
from semsts.baselines.model_card import card_path
from semsts.baselines.model_file import load_model, save_model
from semsts.baselines.regression import FeatureRegression
from semsts.baselines.subset_models import SubsetModels

# --- Issue 12, defect 7: saving a model replaces the model file and its card both, or neither.


@pytest.fixture(scope="module")
def two_models():
    train = corpora.load("demo-train")
    fit = lambda lo, hi: SubsetModels({"all": FeatureRegression(  # noqa: E731
        feature_set="takelab", param_grid={"C": [1.0]}, cv=2).fit(train.pairs[lo:hi], train.gold[lo:hi])})
    return fit(0, 40), fit(40, 80)


def test_a_card_that_cannot_be_written_leaves_the_old_pair(tmp_path, monkeypatch, two_models):
    old, new = two_models
    path = tmp_path / "m.skops"
    save_model(old, path, {"regime": "old"})
    before = path.read_bytes(), card_path(path).read_bytes()
    real = json.dumps

    def disk_full(obj, *args, **kwargs):
        if isinstance(obj, dict) and "sha256" in obj:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(obj, *args, **kwargs)

    monkeypatch.setattr(model_file.json, "dumps", disk_full)
    with pytest.raises(OSError, match="No space left"):
        save_model(new, path, {"regime": "new"})
    monkeypatch.undo()
    assert (path.read_bytes(), card_path(path).read_bytes()) == before
    assert load_model(path)[1]["regime"] == "old"  # the old card still matches the old model
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "m.skops"]  # no temporary left


def test_a_card_that_cannot_be_renamed_puts_the_old_model_back(tmp_path, two_models):
    old, new = two_models
    path = tmp_path / "m.skops"
    save_model(old, path, {"regime": "old"})
    before = path.read_bytes()
    card_path(path).unlink()
    card_path(path).mkdir()  # the card's name is taken by a folder: the card cannot go in
    with pytest.raises(OSError):
        save_model(new, path, {"regime": "new"})
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "m.skops"]


def test_train_checks_the_destination_before_training(tmp_path, monkeypatch, capsys):
    """Defect 17: ``--save DIR/under/a/file.skops`` trained for 13 s before failing on the path."""
    from semsts import cli, train_cli
    monkeypatch.setattr(train_cli, "train_regime", lambda *a, **k: pytest.fail("trained before checking --save"))
    (tmp_path / "file").write_text("a file, not a folder\n")
    dest = tmp_path / "file" / "under" / "m.skops"
    assert cli.main(["train", "--train", "demo-train", "--save", str(dest), "--quiet"]) == 1
    assert capsys.readouterr().err == f"error: --save {dest}: {tmp_path / 'file'} is a file, so no folder can be made under it\n"
    assert cli.main(["train", "--train", "demo-train", "--save", str(tmp_path), "--quiet"]) == 1
    assert f"--save {tmp_path}: is a folder; name the model file" in capsys.readouterr().err
