"""Issue 32, the command line's own output: an empty output path is a usage error, and ``sts: interrupted`` starts a
line of its own after a progress bar."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from semsts import cli

ROOT = Path(__file__).resolve().parents[1]

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


# --- 3. `sts: interrupted` on a line of its own


def _starts_a_line(err: str, terminal: bool) -> bool:
    """Whether the last line of ``err``, ``sts: interrupted``, starts at column 0: after a newline (a log keeps
    what it was sent), or on a terminal after a carriage return that ended the wiping of a bar."""
    assert err.endswith("sts: interrupted\n"), err
    before = err[:-len("sts: interrupted\n")]
    if not before:
        return True
    return before.endswith("\n") or (terminal and before.rsplit("\n", 1)[-1].endswith("\r")
                                     and before.rsplit("\n", 1)[-1].rsplit("\r", 2)[-2].strip() == "")


def test_ctrl_c_during_compares_significance_bar_starts_its_own_line(tmp_path, monkeypatch, capsys):
    from semsts.scoring import compare
    for name in "abc":
        assert cli.main(["run", "random", "--seed", str(ord(name)), "--test", "demo-test", "--out", str(tmp_path / name),
                         "--quiet"]) == 0
    capsys.readouterr()
    real, calls = compare._pair_test, []

    def pair_test(*args, **kwargs):  # Ctrl-C while the second pair of runs is tested
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(compare, "_pair_test", pair_test)
    monkeypatch.setattr(sys, "argv", ["sts", "compare", "--dataset", "demo-test", "--resamples", "20",
                                      *(f"--run={n}={tmp_path / n}" for n in "abc")])
    assert cli.main() == 130
    err = capsys.readouterr().err
    assert "significance" in err and "\rsts" not in err and _starts_a_line(err, terminal=False), err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [False, True])
def test_ctrl_c_while_a_step_line_is_drawn_starts_its_own_line(terminal, tmp_path, monkeypatch, capsys):
    """A second Ctrl-C while a step's elapsed-time line is being ended leaves that bar drawn: it ends its line."""
    from semsts import options

    def interrupted(self):
        self.done.set()  # the thread stops; the bar stays on the screen
        raise KeyboardInterrupt
    monkeypatch.setattr(options._Heartbeat, "stop", interrupted)
    stderr = _Terminal() if terminal else None
    if stderr is not None:
        monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.setattr(sys, "argv", ["sts", "run", "regression", "--model", str(ROOT / "models" / "stsb.skops"),
                                      "--test", "demo-test", "--out", str(tmp_path / "out"), "--n-jobs", "1"])
    assert cli.main() == 130
    err = stderr.getvalue() if stderr is not None else capsys.readouterr().err
    assert "working" in err and _starts_a_line(err, terminal=terminal), err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").glob("STS.output.*"))
