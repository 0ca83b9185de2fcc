"""Issue 32, the command line's own output: an empty output path is a usage error."""
from __future__ import annotations

import pytest

from semsts import cli

# --- 2. an empty output path is a usage error, and nothing is written


@pytest.mark.parametrize("argv, option, expected", [
    (["bench", "token-cosine", "--datasets", "stsb-test", "--report", ""], "--report",
     "is empty; name a directory (use . for the current one)"),
    (["compare", "--dataset", "demo-test", "--run", "a=run", "--report", " "], "--report",
     "is empty; name a directory (use . for the current one)"),
    (["train", "regression", "--train", "demo-train", "--save", ""], "--save", "is empty; name a file"),
    (["run", "token-cosine", "--test", "demo-test", "--out", ""], "--out",
     "is empty; name a directory (use . for the current one)")])
def test_an_empty_output_path_is_refused(argv, option, expected, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit:
        cli.main(argv)
    out, err = capsys.readouterr()
    assert exit.value.code == 2 and out == ""
    assert [line for line in err.splitlines() if "error:" in line] == [f"sts {argv[0]}: error: argument {option}: {expected}"]
    assert list(tmp_path.iterdir()) == []


def test_the_scorers_compare_refuses_an_empty_report(tmp_path, capsys):
    from semsts import evaluate
    with pytest.raises(SystemExit) as exit:
        evaluate.main(["compare", "--dataset", "demo-test", "--run", "a=run", "--report", ""])
    assert exit.value.code == 2
    assert "evaluate.py compare: error: argument --report: is empty" in capsys.readouterr().err
