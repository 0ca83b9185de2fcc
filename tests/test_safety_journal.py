"""Issue 32: a save journal only ever touches the model file its own name implies, and a failed save leaves nothing."""
import errno
import hashlib
import json
import os
import warnings

import pytest

from semsts import cli
from semsts.baselines import model_save
from semsts.baselines.model_card import ModelMismatch
from semsts.baselines.model_file import load_model
from semsts.core.errors import Note

DEAD = 999999  # no such process (pid_max is below it on this machine's kernels)
TOKEN = "0badc0de"


def _tree(folder) -> dict:
    return {p.name: (p.read_bytes() if p.is_file() and not p.is_symlink() else os.readlink(p) if p.is_symlink() else None)
            for p in sorted(folder.iterdir())}


def _card(model: bytes) -> dict:
    """A card of the shape every model card has, naming ``model``'s SHA-256."""
    return {"sha256": hashlib.sha256(model).hexdigest(), "versions": {}, "feature_set": "all", "exclude": [],
            "feature_names": [], "training_data": {}, "resources": {}, "canaries": {}}


def _plant(folder, content: dict, model=b"a model", card=None, name="m.skops") -> dict:
    """A journal of ``name`` with ``content`` and its two temporaries, as a hostile folder holds them."""
    (folder / f".{name}.{TOKEN}.sts-save").write_text(json.dumps(content))
    (folder / f".{name}.{TOKEN}.model.tmp").write_bytes(model)
    card = card if card is not None else _card(model)
    (folder / f".{name}.{TOKEN}.card.tmp").write_text(json.dumps(card))
    return _tree(folder)


def _users_files(folder):
    (folder / "precious.txt").write_text("a user's own file\n")
    (folder / "precious.json").write_text('{"mine": true}\n')
    (folder / "notes.txt").write_text("notes\n")


def _fake_save(path):
    """save_pair with a tiny model and a card naming its SHA-256 (the writer of a real save, without training)."""
    model_save.save_pair(path, lambda tmp: tmp.write_bytes(b"the new model"),
                         lambda tmp: json.dumps(_card(tmp.read_bytes())).encode())


def test_a_journal_naming_another_file_overwrites_nothing_on_a_run(tmp_path, capsys):
    """The reviewer's case: {"model": "precious.txt", "state": "committed"} beside m.skops; `sts run` overwrote it."""
    _users_files(tmp_path)
    (tmp_path / "m.skops").write_bytes(b"not a model")
    before = _plant(tmp_path, {"pid": DEAD, "model": "precious.txt", "state": "committed"})
    code = cli.main(["run", "regression", "--model", str(tmp_path / "m.skops"), "--test", "demo-test",
                     "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert _tree(tmp_path) == before  # nothing overwritten, moved or deleted
    assert err.count("error: ") == 1 and "m.json" in err


def test_a_forged_journal_is_left_alone_with_one_note(tmp_path):
    _users_files(tmp_path)
    before = _plant(tmp_path, {"pid": DEAD, "model": "precious.txt", "state": "committed"})
    with pytest.warns(Note) as notes:
        with pytest.raises(FileNotFoundError):
            load_model(tmp_path / "m.skops")
    journal = tmp_path / f".m.skops.{TOKEN}.sts-save"
    assert [str(n.message) for n in notes] == [f"{journal}: not a save journal of m.skops this suite wrote; left alone "
                                               "(nothing was changed)"]
    assert _tree(tmp_path) == before


def test_a_save_into_a_folder_with_a_forged_journal_writes_only_its_own_pair(tmp_path):
    """`sts train --save new.skops` into such a folder overwrote notes.txt."""
    _users_files(tmp_path)
    planted = _plant(tmp_path, {"pid": DEAD, "model": "notes.txt", "state": "committed"})
    _plant(tmp_path, {"pid": DEAD, "model": "precious.skops", "state": "committed"}, name="precious.skops")
    planted = _tree(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # another model's journals are not this save's business: not even a note
        _fake_save(tmp_path / "new.skops")
    after = _tree(tmp_path)
    assert after.pop("new.skops") == b"the new model" and "sha256" in json.loads(after.pop("new.json"))
    assert after == planted


def test_a_committed_journal_never_replaces_a_users_own_json(tmp_path):
    """A genuine-looking committed pair for precious.skops beside the user's precious.json (no model there): the
    roll-forward would have replaced precious.json; it is left alone with a note."""
    _users_files(tmp_path)
    before = _plant(tmp_path, {"pid": DEAD, "model": "precious.skops", "state": "committed"}, name="precious.skops")
    with pytest.warns(Note, match=r"not a save journal of precious\.skops this suite wrote; left alone"):
        with pytest.raises(FileNotFoundError):
            load_model(tmp_path / "precious.skops")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("content", [
    {"pid": DEAD, "model": "m.skops", "state": "committed"},  # agrees with its name, but the pair is not one
    {"pid": DEAD, "model": "m.skops", "state": "writing", "extra": 1},  # and uncommitted (its temps would go)
])
def test_a_journal_whose_card_does_not_name_its_model_is_not_rolled_forward(tmp_path, content):
    (tmp_path / "m.skops").write_bytes(b"the user's model")
    bad_card = {"sha256": "0" * 64}
    before = _plant(tmp_path, content, card=bad_card)
    lines = model_save.recover(tmp_path)
    after = _tree(tmp_path)
    if content["state"] == "committed":
        assert after == before and lines == [f"{tmp_path / f'.m.skops.{TOKEN}.sts-save'}: not a save journal of "
                                             "m.skops this suite wrote; left alone (nothing was changed)"]
    else:  # an uncommitted journal of a dead save: its own temporaries (named by its name) go, and it with them
        assert after == {"m.skops": b"the user's model"}


@pytest.mark.parametrize("kind", ["journal", "model.tmp", "card.tmp"])
def test_links_and_fifos_in_a_journal_are_not_followed(tmp_path, kind):
    _users_files(tmp_path)
    _plant(tmp_path, {"pid": DEAD, "model": "m.skops", "state": "committed"})
    special = tmp_path / f".m.skops.{TOKEN}.{'sts-save' if kind == 'journal' else kind}"
    content = special.read_bytes()
    special.unlink()
    if kind == "card.tmp":
        os.mkfifo(special)  # a FIFO would hang a reader
    else:
        special.symlink_to(tmp_path / "precious.txt")
    before = _tree(tmp_path)
    assert len(model_save.recover(tmp_path)) == 1
    assert _tree(tmp_path) == before and (tmp_path / "precious.txt").read_text() == "a user's own file\n"
    assert content  # the planted file was replaced, not empty


def test_only_model_file_names_are_journals(tmp_path):
    (tmp_path / f".precious.txt.{TOKEN}.sts-save").write_text(json.dumps(
        {"pid": DEAD, "model": "precious.txt", "state": "committed"}))
    (tmp_path / f".precious.txt.{TOKEN}.model.tmp").write_text("x")
    before = _tree(tmp_path)
    assert model_save.recover(tmp_path) == []
    assert _tree(tmp_path) == before


def test_a_genuine_committed_journal_is_rolled_forward(tmp_path):
    (tmp_path / "m.skops").write_bytes(b"old")
    _plant(tmp_path, {"pid": DEAD, "model": "m.skops", "state": "committed"}, model=b"new")
    assert model_save.recover(tmp_path, "m.skops", leftovers=False) == [
        f"{tmp_path / 'm.skops'}: finished a save that was interrupted between its renames"]
    assert _tree(tmp_path) == {"m.json": json.dumps(_card(b"new")).encode(),
                               "m.skops": b"new"}


# --- a save that fails (a full disk at any step) removes its journal and temporaries and says so once

STEPS = ["journal", "model", "card", "card file", "commit", "rename"]


def _fail_at(monkeypatch, step):
    full = OSError(errno.ENOSPC, "No space left on device")
    real_fsync, real_replace, calls = os.fsync, os.replace, []

    def fsync(fd):  # the journal's, the card's, then the commit's
        calls.append(fd)
        if ["journal", "card file", "commit"].index(step) == len(calls) - 1:
            raise full
        real_fsync(fd)

    def replace(src, dst):
        if str(src).endswith(".model.tmp"):
            raise full
        real_replace(src, dst)

    if step in ("journal", "card file", "commit"):
        monkeypatch.setattr(model_save.os, "fsync", fsync)
    elif step == "rename":
        monkeypatch.setattr(model_save.os, "replace", replace)
    return full


@pytest.mark.parametrize("step", STEPS)
def test_a_save_that_fails_at_any_step_leaves_the_folder_as_it_was(tmp_path, monkeypatch, step):
    (tmp_path / "m.skops").write_bytes(b"old model")
    (tmp_path / "m.json").write_text("old card")
    before = _tree(tmp_path)
    full = _fail_at(monkeypatch, step)

    def write_model(tmp):
        tmp.write_bytes(b"half")
        if step == "model":
            raise full

    def make_card(tmp):
        if step == "card":
            raise full
        return b"{}"

    with pytest.raises(OSError) as caught:
        model_save.save_pair(tmp_path / "m.skops", write_model, make_card)
    monkeypatch.undo()
    assert caught.value.errno == errno.ENOSPC and str(caught.value) == (
        f"{tmp_path / 'm.skops'}: not saved (No space left on device); the model file and its card are as they were")
    assert _tree(tmp_path) == before


def test_sts_train_on_a_full_disk_says_one_error_line(tmp_path, monkeypatch, capsys):
    from semsts import train_cli
    from semsts.baselines import model_card

    def train_regime(*args, **kwargs):
        from semsts import corpora
        from semsts.baselines.regression import FeatureRegression
        from semsts.baselines.subset_models import SubsetModels
        train = corpora.load("demo-train")
        models = SubsetModels({"all": FeatureRegression(feature_set="takelab", param_grid={"C": [1.0]}, cv=2)
                               .fit(train.pairs[:40], train.gold[:40])})
        return models, {"training_data": {"datasets": ["demo-train"], "sub_models": {}}}

    monkeypatch.setattr(train_cli, "train_regime", train_regime)
    _fail_at(monkeypatch, "commit")
    dest = tmp_path / "m.skops"
    assert cli.main(["train", "--train", "demo-train", "--test", "demo-test", "--save", str(dest),
                     "--quiet"]) == 1
    assert capsys.readouterr().err == (f"error: {dest}: not saved (No space left on device); the model file and its "
                                       "card are as they were\n")
    assert list(tmp_path.iterdir()) == [] and model_card.card_path(dest).name == "m.json"


def test_load_refuses_what_recovery_left_alone(tmp_path):
    """A journal left alone does not make a model load: the model and its card are checked as ever."""
    (tmp_path / "m.skops").write_bytes(b"not a model")
    (tmp_path / "m.json").write_text("{}")
    _plant(tmp_path, {"pid": DEAD, "model": "../m.skops", "state": "committed"})
    with pytest.warns(Note), pytest.raises((ModelMismatch, ValueError)):
        load_model(tmp_path / "m.skops")


def test_a_journal_named_with_control_characters_is_shown_escaped(tmp_path):
    name = "\x1b[2Km\u202e.skops"
    (tmp_path / f".{name}.{TOKEN}.sts-save").write_text("forged")
    before = _tree(tmp_path)
    (line,) = model_save.recover(tmp_path)
    assert "\x1b" not in line and "\u202e" not in line and "\\x1b[2Km\\u202e.skops" in line
    assert _tree(tmp_path) == before
