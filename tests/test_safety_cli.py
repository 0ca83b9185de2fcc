"""Issue 32, the command line's own output: stdout carries only the command's result (what an encoder prints goes
to stderr), an empty output path is a usage error, and ``sts: interrupted``
starts a line of its own after a progress bar."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import write
from semsts import cli

ROOT = Path(__file__).resolve().parents[1]

NOISY_ENCODER = '''
import atexit

import numpy as np

print("noisy: imported")
atexit.register(lambda: print("noisy: at exit"))


def encode(texts):
    print("noisy: print", len(texts))
    return np.array([[len(t), t.count(" ") + 1.0, t.count("e") + 1.0] for t in texts])
'''


def _sts(args, tmp_path, data_dir, timeout=120):
    """``python -m semsts ARGS`` with the noisy encoder importable, its caches under tmp_path."""
    write(tmp_path / "pkg" / "noisy.py", NOISY_ENCODER)
    env = {"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path / "pkg")}
    return subprocess.run([sys.executable, "-m", "semsts", *args], capture_output=True, cwd=tmp_path,
                          env=env, timeout=timeout)


def _noise(stream: bytes) -> list:
    return [line for line in stream.decode().splitlines() if line.startswith("noisy: ")]


# --- 1. stdout carries only the command's result


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_an_encoder_that_prints_leaves_the_bench_tables_alone(fmt, tmp_path, data_dir):
    done = _sts(["bench", "--encoder", "noisy:encode", "--datasets", "stsb-test", "--resamples", "0", "--format", fmt,
                 "--convention", "official", "--quiet"], tmp_path, data_dir)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert _noise(done.stdout) == []
    if fmt == "json":
        (row,) = json.loads(done.stdout)["rows"]
        assert row["system"] == "noisy:encode" and row["datasets"]["stsb-test"]["n"] == 1379
    else:
        table = list(csv.reader(io.StringIO(done.stdout.decode())))
        assert any("noisy:encode" in cell for line in table for cell in line)
    noise = _noise(done.stderr)
    assert noise[0] == "noisy: imported" and any(n.startswith("noisy: print") for n in noise)
    assert noise[-1] == "noisy: at exit"  # its exit handler ran after the output


SWALLOWING_ENCODER = '''
import signal

import numpy as np


class Interrupts:
    def __del__(self):  # Ctrl-C's handler called where Python ignores exceptions ("Exception ignored in")
        signal.getsignal(signal.SIGINT)(signal.SIGINT, None)


def encode(texts):
    Interrupts()
    return np.array([[len(t), t.count(" ") + 1.0] for t in texts])
'''


def test_a_ctrl_c_that_python_ignores_still_ends_the_command_as_interrupted(tmp_path, data_dir):
    write(tmp_path / "pkg" / "swallowing.py", SWALLOWING_ENCODER)
    env = {"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path / "pkg")}
    done = subprocess.run([sys.executable, "-m", "semsts", "run", "--encoder", "swallowing:encode", "--test",
                           "demo-test", "--out", "out", "--no-cache", "--quiet"], capture_output=True, cwd=tmp_path,
                          env=env, timeout=120)
    assert done.returncode == 130 and done.stderr.decode().splitlines()[-1] == "sts: interrupted", done.stderr


def test_sts_run_with_a_printing_encoder_prints_only_the_paths(tmp_path, data_dir):
    done = _sts(["run", "--encoder", "noisy:encode", "--test", "demo-test", "--out", "out"], tmp_path, data_dir)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    written = done.stdout.decode().splitlines()
    assert written and all(Path(tmp_path, p).is_file() for p in written), written
    assert any(n.startswith("noisy: print") for n in _noise(done.stderr))


def test_what_the_work_prints_goes_to_stderr():
    """The mechanism itself, at Python's level (the user's code is trusted: it is kept from our output, not fenced)."""
    code = ("from semsts.streams import stdout_to_stderr\n"
            "print('ours before', flush=False)\n"
            "with stdout_to_stderr():\n"
            "    print('python level')\n"
            "print('ours after')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"ours before\nours after\n" and done.stderr == b"python level\n"


def test_sts_eval_json_holds_only_the_report(tmp_path, data_dir, monkeypatch, capfd):
    """Whatever the scoring prints (here a patched scorer)."""
    from semsts.scoring import runs
    assert cli.main(["run", "token-cosine", "--test", "demo-test", "--out", str(tmp_path / "run"), "--quiet"]) == 0
    capfd.readouterr()
    real = runs.score_run

    def noisy(*args, **kwargs):
        print("noisy: print")
        return real(*args, **kwargs)
    monkeypatch.setattr(runs, "score_run", noisy)
    assert cli.main(["eval", "--dataset", "demo-test", "--run", str(tmp_path / "run"), "--format", "json"]) == 0
    out, err = capfd.readouterr()
    assert json.loads(out) and "noisy" not in out
    assert _noise(err.encode()) == ["noisy: print"]


# --- 2. an empty path (output or input) is a usage error, and nothing is written


@pytest.mark.parametrize("argv, option, expected", [
    (["bench", "token-cosine", "--datasets", "stsb-test", "--report", ""], "--report",
     "is empty; name a directory (use . for the current one)"),
    (["compare", "--dataset", "demo-test", "--run", "a=run", "--report", " "], "--report",
     "is empty; name a directory (use . for the current one)"),
    (["train", "--train", "demo-train", "--save", ""], "--save", "is empty; name a file"),
    (["run", "token-cosine", "--test", "demo-test", "--out", ""], "--out",
     "is empty; name a directory (use . for the current one)"),
    # an empty input path or address is refused too, never read as the default (the current folder, $STS_MIRROR)
    (["run", "regression", "--model", "", "--test", "demo-test", "--out", "o"], "--model", "is empty; name a file"),
    (["run", "token-cosine", "--test", "", "--out", "o"], "--test", "is empty; give a value, or leave the option out"),
    (["bench", "token-cosine", "--data-dir", ""], "--data-dir", "is empty; name a directory (use . for the current one)"),
    (["bench", "--model", ""], "--model", "is empty; name a file"),
    (["eval", "--dataset", "", "--run", "r"], "--dataset", "is empty; give a value, or leave the option out"),
    (["eval", "--dataset", "demo-test", "--run", ""], "--run", "is empty; name a directory (use . for the current one)"),
    (["train", "--train", "", "--save", "m.skops"], "--train",
     "is empty; give a value, or leave the option out")])
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


@pytest.mark.parametrize("argv, option, expected", [
    (["--data-dir", "", "list"], "--data-dir", "is empty; name a directory (use . for the current one)"),
    (["list", "--data-dir", ""], "--data-dir", "is empty; name a directory (use . for the current one)"),
    (["fetch", "biosses-test", "--mirror", ""], "--mirror", "is empty; give a value, or leave the option out"),
    (["fetch", "sts2015-test", "--archive", ""], "--archive", "is empty; name a file")])
def test_sts_data_refuses_an_empty_path_or_mirror(argv, option, expected, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit:
        cli.main(["data", *argv])
    out, err = capsys.readouterr()
    assert exit.value.code == 2 and out == "" and list(tmp_path.iterdir()) == []
    assert [line for line in err.splitlines() if "error:" in line][0].endswith(f"error: argument {option}: {expected}")


@pytest.mark.parametrize("delay", [0.2, 1.0])
def test_ctrl_c_to_the_process_group_as_workers_start_is_one_line(delay, tmp_path, data_dir):
    """A terminal's Ctrl-C reaches every process of the group: the workers featurizing starts (importing still, `delay`
    seconds after the command says it predicts) ignore it, the command ends them and says one line, with 130, at once."""
    import signal
    import time
    env = {"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    argv = [sys.executable, "-m", "semsts", "run", "regression", "--model", str(ROOT / "models" / "stsb.skops"),
            "--test", "sts2015-test", "--out", str(tmp_path / "out"), "--n-jobs", "2"]  # 8,500 pairs: workers
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path, env=env,
                               start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines = []
    for line in iter(process.stderr.readline, b""):  # the step line comes right before the chunks go to the workers
        lines.append(line.decode())
        if "predicting 8" in lines[-1]:
            break
    time.sleep(delay)
    os.killpg(process.pid, signal.SIGINT)
    _, rest = process.communicate(timeout=60)
    lines = "".join(lines + [rest.decode()]).splitlines()
    assert process.returncode == 130 and lines[-1] == "sts: interrupted", lines
    assert any("predicting 8" in line for line in lines)
    assert not [line for line in lines if "Traceback" in line or "Error" in line or "Warning" in line], lines


def _ignores_ctrl_c_once_it_leaves_it() -> bool:
    import signal

    from semsts.features.featurizer import leave_ctrl_c_to_the_caller
    leave_ctrl_c_to_the_caller()
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_a_loky_worker_leaves_ctrl_c_to_the_process_that_started_it():
    """What the featurizer's workers do on their first chunk (a terminal's Ctrl-C reaches them too, and the
    command ends them): they ignore it; the calling process itself keeps Python's handler."""
    import signal

    from joblib import Parallel, delayed
    assert Parallel(n_jobs=2, backend="loky")(delayed(_ignores_ctrl_c_once_it_leaves_it)() for _ in range(4)) == [True] * 4
    assert not _ignores_ctrl_c_once_it_leaves_it() and signal.getsignal(signal.SIGINT) is signal.default_int_handler


_HELD_BY_A_THREAD = """
import sys, threading
from semsts import cli

def interrupted():
    # what a Ctrl-C that left the import lock held does: a thread of the command waits for ever, and is joined
    threading.Thread(target=threading.Event().wait).start()
    print("sts: interrupted", file=sys.stderr)
    return 130
cli.main = interrupted
cli.entry()
"""


def test_after_ctrl_c_the_exit_ends_though_a_thread_waits_for_ever(tmp_path):
    """After Ctrl-C the exit waits for the command's threads a bounded while (EXIT_GRACE), then ends
    with 130: a thread that waits for ever on an import lock an interrupt left held never hangs the command."""
    import time
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", _HELD_BY_A_THREAD], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    took = time.monotonic() - started
    assert done.returncode == 130 and done.stderr.splitlines() == ["sts: interrupted"], done.stderr
    assert cli.EXIT_GRACE <= took < cli.EXIT_GRACE + 20, took


def test_a_thread_pool_left_by_an_error_is_not_waited_for():
    import threading
    import time

    from semsts.core.background import thread_pool
    with thread_pool(2) as pool:
        assert list(pool.map(abs, [-1, -2])) == [1, 2]
    release = threading.Event()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with thread_pool(1) as pool:
            blocked = pool.submit(release.wait)
            queued = pool.submit(abs, -3)
            raise KeyboardInterrupt
    assert time.monotonic() - started < 5 and queued.cancelled() and not blocked.done()
    release.set()
    assert blocked.result(timeout=10) is True


# --- Issue 44: what a user's scorer or encoder does to the process (a thread left running, another current folder)

HOSTILE = '''
import os
import threading


def threads(pairs):
    if not any(t.name == "user-waits" for t in threading.enumerate()):  # no daemon: the exit would join it
        threading.Thread(target=threading.Event().wait, name="user-waits").start()
    return [float(len(a) - len(b)) for a, b in pairs]


def moves(pairs):
    os.chdir(os.environ["ELSEWHERE"])
    return [float(len(a) - len(b)) for a, b in pairs]


def moves_encoder(texts):
    os.chdir(os.environ["ELSEWHERE"])
    return [[len(t) + 1.0, t.count(" ") + 1.0] for t in texts]
'''


def test_a_thread_a_scorer_leaves_running_ends_the_command_with_a_note(tmp_path, data_dir):
    """The exit joined the user's thread for ever; it now waits EXIT_GRACE seconds, names it, and ends with the
    command's own code, its outputs written."""
    write(tmp_path / "pkg" / "hostile.py", HOSTILE)
    done = _sts(["run", "--scorer", "hostile:threads", "--test", "stsb-test", "--out", "out", "--quiet"], tmp_path,
                data_dir, timeout=90)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().splitlines()[-1] == ("note: 1 thread(s) your code started still run (user-waits); the "
                                                     "command ends without waiting for them")
    assert len((tmp_path / "out" / "STS.output.sts-test.txt").read_text().splitlines()) == 1379


def test_with_a_users_code_paths_are_made_absolute_but_a_shipped_models_name_stays_a_name(tmp_path, monkeypatch):
    """`sts bench --model stsb --encoder …` said "model file …/stsb does not exist": the paths made absolute before a
    user's code runs took the shipped model's name for a path."""
    import argparse
    monkeypatch.chdir(tmp_path)
    args = argparse.Namespace(model=["stsb", "my.skops", "sub/sts2012"], out="o", report=None, encoder=["x:y"])
    cli._absolute_paths(args)
    assert args.model == ["stsb", str(tmp_path / "my.skops"), str(tmp_path / "sub" / "sts2012")]
    assert args.out == str(tmp_path / "o") and args.report is None


def test_a_scorer_or_encoder_that_changes_the_current_folder_moves_no_output(tmp_path, data_dir, monkeypatch, capsys):
    """Relative --out, --report and --save-predictions were written into the folder the user's code moved to; the
    command line's paths are made absolute before that code runs."""
    write(tmp_path / "pkg" / "hostile.py", HOSTILE)
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.setenv("ELSEWHERE", str(tmp_path / "elsewhere"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "--scorer", "hostile:moves", "--test", "stsb-test", "--out", "out", "--quiet",
                     "--data-dir", str(data_dir)]) == 0, capsys.readouterr().err
    os.chdir(tmp_path)
    assert cli.main(["bench", "--encoder", "hostile:moves_encoder", "--datasets", "stsb-test", "--resamples", "0",
                     "--report", "report", "--save-predictions", "preds", "--quiet", "--data-dir", str(data_dir)]) == 0
    assert list((tmp_path / "elsewhere").iterdir()) == []
    assert [p.name for p in (tmp_path / "out").glob("STS.output.*")] == ["STS.output.sts-test.txt"]
    assert (tmp_path / "report" / "index.html").is_file() and (tmp_path / "preds" / "README.txt").is_file()
