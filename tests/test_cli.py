"""Tests of semsts.cli, the `sts` command tree: --version, help, pipes, progress and one error line, never a traceback."""
from __future__ import annotations

import io
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from semsts import cli
from semsts.corpora import formats
from tests.conftest import data_main, stsb_members

ROOT = Path(__file__).resolve().parents[1]


def test_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("semsts ")


def test_a_closed_pipe_ends_a_listing_quietly(tmp_path, data_dir):
    code = ("import sys; from semsts import cli; "
            "sys.exit(cli.main(['data', 'list']))")
    listing = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"}, cwd=tmp_path)
    listing.stdout.readline()
    listing.stdout.close()  # as `| head -1` does; unbuffered, the next line written meets the closed pipe
    assert listing.wait(timeout=120) == 0
    assert b"Broken pipe" not in listing.stderr.read()



@pytest.mark.parametrize("args, shell, expected", [
    (["--version"], "", 0), (["--version"], " >&-", 0), ([], "", 2), (["run", "--bogus"], "", 2)])
def test_the_process_exits_with_mains_code_whatever_stdout_is(args, shell, expected, tmp_path):
    """Issue 22: ``python -m semsts`` / ``sts`` exit without freeing every object one by one, after flushing the
    streams (none when the shell closed stdout), with main's code and no traceback."""
    import shlex
    command = " ".join(map(shlex.quote, [sys.executable, "-m", "semsts", *args])) + shell
    done = subprocess.run(["bash", "-c", command], capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == expected and b"Traceback" not in done.stderr, done.stderr


_LATE = """
import atexit, os, sys
from semsts import cli

class Late:
    def __del__(self):
        os.write(2, b"freed one by one")  # not print: sys.stderr may be gone by then

keep = Late()  # freed by the interpreter's finalization, if it runs
if sys.argv[1] == "traced":
    sys.settrace(lambda *args: None)  # as a profiler or coverage tool watches a process
sys.argv = ["sts", "--version"]
atexit.register(os.write, 2, b"the whole exit ran")  # registered before the command's: run after its last handler
original = cli.main

def main(argv=None):
    if argv is None:
        atexit.register(print, "a handler of the command's", file=sys.stderr)
    return original(argv)

cli.main = main
cli.entry()
"""


@pytest.mark.parametrize("watched", ["plain", "traced"])
def test_the_exit_ends_after_every_exit_handler_without_freeing_every_object(watched, tmp_path):
    """Issue 46: the last exit handler ends the process (0.5 s of a 6 s `sts run` went to freeing every object and
    module one by one), after the exit handlers registered while the command ran, with main's code; a traced process
    (a profiler, coverage) gets the interpreter's whole exit, which writes its results."""
    (tmp_path / "late.py").write_text(_LATE)  # a script's globals are freed at the exit (under -c they are not)
    done = subprocess.run([sys.executable, "late.py", watched], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("semsts "), done.stderr
    assert "a handler of the command's" in done.stderr
    if watched == "plain":
        assert "freed one by one" not in done.stderr, done.stderr
    else:
        assert "the whole exit ran" in done.stderr, done.stderr


BENCH = ["bench", "token-cosine", "--datasets", "stsb-test", "--resamples", "0", "--quiet"]


@pytest.mark.parametrize("shell, expected, line", [
    (" >&-", 0, b""),  # stdout closed: the tables dropped, as print drops them
    (" 2>&- >/dev/null", 0, b""),  # stderr closed
    (" | true; exit ${PIPESTATUS[0]}", 0, b""),  # the reader gone before the tables come
    (" > /dev/full", 1, b"error: cannot write the output: No space left on device\n")])
def test_a_closed_broken_or_full_stdout_is_a_code_and_at_most_one_line(shell, expected, line, tmp_path, data_dir):
    """A stream the command cannot write ends it with its code and at most one ``error:`` line, never a traceback
    (a new user's `sts bench … | true` and `> /dev/full` gave BrokenPipeError and OSError tracebacks)."""
    import shlex
    command = " ".join(map(shlex.quote, [sys.executable, "-m", "semsts", *BENCH])) + shell
    done = subprocess.run(["bash", "-c", command], capture_output=True, cwd=tmp_path, timeout=120,
                          env={"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert (done.returncode, done.stderr) == (expected, line), done.stderr


@pytest.mark.parametrize("shell", [" >&-", " 2>&- > out.txt"])
def test_workers_start_with_stdout_or_stderr_closed(shell, tmp_path, data_dir):
    """``sts bench --model …`` with workers (9,927 scored pairs) and a closed stream: loky flushes stdout as it
    starts them (an AttributeError on ``None``), and a worker started with no stderr failed (its tracebacks went
    to stdout, the command exited 1 and said nothing)."""
    import shlex
    command = " ".join(map(shlex.quote, [sys.executable, "-m", "semsts", "bench", "--model",
                                         str(ROOT / "models" / "stsb.skops"), "--datasets", "sick2014-test",
                                         "--resamples", "0", "--quiet"])) + shell
    done = subprocess.run(["bash", "-c", command], capture_output=True, cwd=tmp_path, timeout=300,
                          env={"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())})
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    if "out.txt" in shell:
        out = (tmp_path / "out.txt").read_text()
        assert "SICK-R" in out and "Traceback" not in out, out[-2000:]


@pytest.mark.parametrize("shell, expected, line", [
    (" >&-", 0, b""), (" > /dev/full", 1, b"error: cannot write the output: No space left on device\n")])
def test_the_scorer_with_a_closed_or_full_stdout(shell, expected, line, tmp_path, data_dir):
    gold = data_dir / "sts2012" / "test" / "STS.gs.MSRpar.txt"
    run = subprocess.run(["bash", "-c", f"{sys.executable} {ROOT / 'evaluate.py'} {gold} {gold}{shell}"],
                         capture_output=True, cwd=tmp_path, timeout=120,
                         env={"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin"})
    assert run.returncode == expected and b"Traceback" not in run.stderr, run.stderr
    assert run.stderr.endswith(line) and run.stderr.count(b"error:") == (1 if line else 0), run.stderr


def test_the_scorer_ends_quietly_when_its_reader_goes_away(tmp_path, data_dir):
    """``python evaluate.py GOLD SYS | head -c 0``: exit 0, no BrokenPipeError traceback."""
    gold = data_dir / "sts2012" / "test" / "STS.gs.MSRpar.txt"
    run = subprocess.run(["bash", "-c", f"{sys.executable} {ROOT / 'evaluate.py'} {gold} {gold} | head -c 0; "
                          "exit ${PIPESTATUS[0]}"], capture_output=True, cwd=tmp_path, timeout=120,
                         env={"STS_DATA": str(data_dir), "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"})
    assert run.returncode == 0 and b"Broken" not in run.stderr and b"Traceback" not in run.stderr, run.stderr

@pytest.mark.parametrize("form", [["GOLD", "SYS"], ["--check", "SYS"], ["--dataset", "demo-test", "--run", "RUN"],
                                  ["compare", "--dataset", "demo-test", "--run", "tc=RUN"], ["--help"]])
def test_sts_eval_is_evaluate_py_where_there_is_no_checkout(form, tmp_path, capsys):
    """Issue 45: `sts eval` takes every form of `python evaluate.py` (`compare` too) and prints the same."""
    from semsts import evaluate
    assert cli.main(["run", "token-cosine", "--test", "demo-test", "--out", str(tmp_path / "tc"), "--quiet"]) == 0
    (output,) = (tmp_path / "tc").glob("STS.output.*")
    gold = tmp_path / "gold.txt"
    gold.write_text("".join(f"{i % 5}\n" for i in range(len(output.read_text().splitlines()))))
    argv = [{"GOLD": str(gold), "SYS": str(output), "RUN": str(tmp_path / "tc"), "tc=RUN": f"tc={tmp_path / 'tc'}"}
            .get(word, word) for word in form]
    printed = []
    for main in (lambda: evaluate.main(argv), lambda: cli.main(["eval", *argv])):
        try:
            code = main()
        except SystemExit as exc:  # --help
            code = exc.code
        printed.append((code, *capsys.readouterr()))
    assert printed[0][0] == 0 and printed[0][1].strip(), printed[0]
    if form == ["--help"]:  # the same help but the program's name (and so the lines' wrapping)
        printed = [(code, " ".join(out.replace("sts eval", "evaluate.py").split()), err) for code, out, err in printed]
        assert "--dataset NAME --run DIR" in printed[1][1] and "compare …" in printed[1][1]
    assert printed[0] == printed[1]


def test_a_missing_relative_data_root_is_named_with_its_rule(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("STS_DATA", "nowhere")
    assert cli.main(["run", "token-cosine", "--test", "sts2012-test", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert f"the data root nowhere does not exist (from $STS_DATA=nowhere, a relative path resolved against " \
           f"the current folder {tmp_path})" in err


def test_run_help_describes_the_regression(capsys):
    try:
        cli.main(["run", "--help"])
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    assert "GloVe" in out and "ensemble" in out


def _help(command: str, capsys) -> dict:
    """Each option's help text of ``sts COMMAND --help``, whitespace collapsed (option -> text)."""
    import re
    try:
        cli.main([command, "--help"])
    except SystemExit:
        pass
    text = capsys.readouterr().out.split("options:", 1)[1]
    found = re.findall(r"^  (-[^\n]*?)(?:  +|\n)(.*?)(?=^  -|\Z)", text, flags=re.S | re.M)
    return {flags.split()[0].rstrip(","): " ".join(body.split()) for flags, body in found}


def test_every_option_says_what_it_does_and_only_where_it_applies(capsys):
    helps = {command: _help(command, capsys) for command in ("run", "train", "bench", "eval", "compare")}
    for command, options in helps.items():
        assert all(text for text in options.values()), (command, [o for o, t in options.items() if not t])
    assert "bench" not in helps["run"]["--n-jobs"] and "bench" not in helps["train"]["--n-jobs"]
    assert "SVR" not in helps["bench"]["--n-jobs"] and "bootstrap" in helps["bench"]["--n-jobs"]
    assert "takelab" in helps["train"]["--feature-set"] and "wordllama_sif" in helps["train"]["--exclude"]
    for command in ("run", "train", "bench"):
        assert all(name in helps[command]["--encoder"] for name in ("glove-mean", "sif", "wordllama")), command
    assert "--all" in helps["compare"] and "--all" in helps["bench"]


def test_in_a_log_an_error_starts_its_own_line_after_the_progress(tmp_path, capsys):
    """stderr to a file or pipe: closed bars keep their last state on a line of their own, so the error that
    follows a step (here a model saved with other library versions) is not glued after a carriage return."""
    import json
    import shutil
    card = json.loads((ROOT / "models" / "stsb.json").read_text())
    from semsts.baselines.model_card import versions
    card["versions"] = {**versions(), "numpy": "0.0"}  # only numpy differs, whatever this machine runs
    card["canaries"]["predictions"]["all"][0] += 0.5  # and the canaries disagree: refused
    shutil.copy(ROOT / "models" / "stsb.skops", tmp_path / "m.skops")
    (tmp_path / "m.json").write_text(json.dumps(card))
    assert cli.main(["bench", "--model", str(tmp_path / "m.skops"), "--datasets", "stsb-test"]) == 1
    err = capsys.readouterr().err
    assert "\nerror: " in err and "\rerror" not in err
    assert err.split("\nerror: ", 1)[1].startswith(f"{tmp_path / 'm.skops'}: saved with numpy 0.0")
    before = err.split("\nerror: ", 1)[0].split("\n")
    assert before[0].startswith("[    0s] loading ") and re.search(r"working: \d\d:\d\d$", before[-1])  # the step's last state


def test_sts_run_with_a_refused_model_starts_the_error_on_its_own_line(tmp_path, capsys):
    """Issue 23, case 11: with stderr to a pipe, 'working: 00:06error: …' shared one line."""
    import json
    import shutil
    card = json.loads((ROOT / "models" / "stsb.json").read_text())
    card["versions"]["numpy"] = "0.0"
    card["canaries"]["predictions"]["all"][0] += 0.5
    shutil.copy(ROOT / "models" / "stsb.skops", tmp_path / "m.skops")
    (tmp_path / "m.json").write_text(json.dumps(card))
    assert cli.main(["run", "regression", "--model", str(tmp_path / "m.skops"), "--test", "demo-test",
                     "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "\nerror: " in err and re.search(r"\d\derror", err) is None


def test_an_ascii_only_output_gets_escapes_not_a_traceback(tmp_path):
    """Issue 23, case 8: PYTHONIOENCODING=ascii sts compare --published raised UnicodeEncodeError on '†'."""
    assert cli.main(["run", "token-cosine", "--test", "sts2013-test", "--out", str(tmp_path / "tc"), "--quiet"]) == 0
    env = {**__import__("os").environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "semsts", "compare", "--dataset", "sts2013-test", "--published",
                           "--run", f"tc={tmp_path / 'tc'}"],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0 and "Traceback" not in done.stderr and "\\u2020" in done.stdout, done.stderr[-500:]


def test_compare_resamples_are_bounded(capsys):
    """Issue 23, case 10: --resamples 1e9 would take days."""
    import pytest
    with pytest.raises(SystemExit) as exit_:
        cli.main(["compare", "--dataset", "sts2012-test", "--run", "a=x", "--resamples", "1000000000"])
    assert exit_.value.code == 2
    assert "argument --resamples: expected a whole number of at most 100,000, got 1,000,000,000" in capsys.readouterr().err


def test_compare_shows_progress_over_the_significance_tests(tmp_path, capsys):
    from semsts import evaluate
    for name in ("a", "b", "c"):
        assert cli.main(["run", "random", "--seed", str(len(name) + ord(name)), "--test", "demo-test", "--out",
                         str(tmp_path / name), "--quiet"]) == 0
    seen = []

    def progress(items, desc):
        seen.append((len(items), desc))
        return items
    evaluate.compare_runs(__import__("semsts.corpora", fromlist=["load"]).load("demo-test"), {n: tmp_path / n for n in "abc"},
                          published=False, resamples=20, progress=progress)
    assert seen == [(3, "significance (3 pairs of runs)")]


# --- Issue 12, defect 6: a line, not a traceback: odd zips, negative --seed/--resamples, Ctrl-C during ``sts run``.


def _patched_zip(path, method=None, encrypted=False):
    """A zip of the STS Benchmark files whose first member claims ``method`` or the encryption flag."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, text in stsb_members().items():
            zf.writestr(name, text)
    data = bytearray(buffer.getvalue())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    if method is not None:
        struct.pack_into("<H", data, local + 8, method)
        struct.pack_into("<H", data, central + 10, method)
    if encrypted:
        struct.pack_into("<H", data, local + 6, 1)
        struct.pack_into("<H", data, central + 8, 1)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("kwargs, message", [
    ({"method": 99}, "a.zip: member 'stsbenchmark/sts-train.csv' uses compression method 99, which this reader "
                     "does not support (stored, deflate, bzip2, lzma)"),
    ({"encrypted": True}, "a.zip: member 'stsbenchmark/sts-train.csv' is encrypted; the official releases are not"),
])
def test_an_unreadable_zip_member_is_one_line(tmp_path, capsys, kwargs, message):
    archive = _patched_zip(tmp_path / "a.zip", **kwargs)
    assert data_main("--data-dir", tmp_path / "root", "fetch", "stsb-dev", "--archive", archive) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("option, message", [("--seed", "argument --seed: expected a whole number of at least 0, got -1"),
                                             ("--resamples", "argument --resamples: expected a whole number of at least 1, got -1")])
def test_compare_refuses_a_negative_seed_or_resamples(data_dir, tmp_path, capsys, option, message):
    with pytest.raises(SystemExit) as exit:
        cli.main(["compare", "--dataset", "sts2013-test", "--data-dir", str(data_dir), "--run", f"a={tmp_path}", option, "-1"])
    assert exit.value.code == 2 and message in capsys.readouterr().err


def test_ctrl_c_during_sts_run_is_one_line_and_exit_130(data_dir, tmp_path, monkeypatch, capsys):
    def interrupted(value, exact=False):
        raise KeyboardInterrupt

    monkeypatch.setattr(formats, "format_score", interrupted)
    monkeypatch.setattr(sys, "argv", ["sts", "run", "random", "--test", "sts2012-test", "--out", str(tmp_path / "o"),
                                      "--data-dir", str(data_dir), "--quiet"])
    try:
        code = cli.main()
    except KeyboardInterrupt:
        pytest.fail("KeyboardInterrupt escaped sts.main: a traceback for the user")
    assert code == 130
    assert capsys.readouterr().err == "sts: interrupted\n"


def test_run_refuses_an_empty_out(data_dir, tmp_path, monkeypatch, capsys):
    """Defect 11: ``--out ""`` would write into the current directory."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit:
        cli.main(["run", "random", "--test", "sts2012-test", "--out", "", "--data-dir", str(data_dir), "--quiet"])
    assert exit.value.code == 2
    assert "sts run: error: argument --out: is empty; name a directory (use . for the current one)" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# --- Issue 23, case 9: a long CSV field, complex embeddings.


@pytest.mark.parametrize("argv", [["run", "token-cosine", "--test", "demo-test", "--out", "OUT"],
                                  ["eval", "--dataset", "demo-test", "--run", "OUT"]])
def test_columns_with_only_named_datasets_is_refused_not_ignored(tmp_path, capsys, argv):
    from semsts import cli
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in argv] + ["--columns", "a,b"]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: --columns names the columns of your own files; demo-test is a named dataset")


def test_the_form_before_issue_33_of_sts_train_gets_one_line_with_the_new_form(tmp_path, capsys):
    """``sts train regression …`` (the system was named, though it was the only one): one ``error:`` line that says
    the new form, exit 2, and nothing trained or written."""
    assert cli.main(["train", "regression", "--regime", "stsb", "--save", str(tmp_path / "m.skops")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "`sts train --regime stsb --save" in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_regime_whose_test_set_is_absent_says_how_to_get_it_or_name_another(tmp_path, capsys):
    """Issue 47: ``sts train --regime sts2017`` without ``sts2017-test`` under the data root stops before training
    with one line naming the fetch and ``--test``; a test set the user named with ``--test`` gets the plain line."""
    save = tmp_path / "m.skops"
    assert cli.main(["train", "--regime", "sts2017", "--save", str(save), "--quiet", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: dataset 'sts2017-test' is not in "), err
    assert "`sts data fetch sts2017-test`" in err and "--test DATASET_OR_FILE" in err and not save.exists()
    assert cli.main(["train", "--regime", "sts2017", "--test", "sts2016-test", "--save", str(save), "--quiet",
                     "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: dataset 'sts2016-test' is not in ") and "--test" not in err and not save.exists()


@pytest.mark.parametrize("error", [ValueError("a numpy complaint"), RuntimeError("an encoder gave up")])
def test_an_error_from_a_library_below_us_is_one_line_too(error, capsys):
    """The boundary's net: what numpy, scikit-learn or a user's encoder raise on input no check of ours refused."""
    from semsts.cli import run_command

    def command():
        raise error
    assert run_command(command) == 1
    assert capsys.readouterr().err == f"error: {error}\n"


def test_an_interrupt_inside_a_destructor_ends_the_command_without_a_traceback(capsys):
    """Ctrl-C landing in a ``__del__`` (where Python ignores exceptions, printing 'Exception ignored in …') is raised
    again in the command's own code, here a blocking wait, and prints no traceback."""
    import signal
    import time

    class Dying:
        def __del__(self):
            signal.raise_signal(signal.SIGINT)

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with cli._noting_interrupts() as interrupted:
            Dying()  # collected at once: the interrupt is raised inside __del__
            time.sleep(30)  # the command going on, waiting: the interrupt comes back here
    assert interrupted and capsys.readouterr().err == "" and time.monotonic() - started < 20


def test_python_m_semsts_never_imports_a_module_of_the_current_folder(tmp_path):
    """``python -m`` puts the current folder first on ``sys.path``: a module there named like one the command
    imports (here ``argparse``, in a folder such as an unpacked archive) is never imported (``sts/__main__.py``)."""
    (tmp_path / "argparse.py").write_text('raise SystemExit("shadowed")\n')
    done = subprocess.run([sys.executable, "-m", "semsts", "--version"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("semsts ") and "shadowed" not in done.stderr, done.stderr


# each command that reads a data root, with the least it needs to parse (every entry of cli.COMMANDS but demo)
ROOTED = {"data": [["data", "list"], ["data", "fetch", "sts2012-test"], ["data", "verify"], ["data", "wordnet"]],
          "run": [["run", "random", "--test", "t", "--out", "o"]], "train": [["train", "--train", "t", "--save", "m"]],
          "eval": [["eval", "--dataset", "d", "--run", "r"]], "compare": [["compare", "--dataset", "d", "--run", "a=r"]],
          "bench": [["bench", "token-cosine"]]}


def test_data_dir_works_before_or_after_every_command_that_reads_a_root_and_the_later_one_wins():
    assert set(ROOTED) | {"demo"} == {name for name, *_ in cli.COMMANDS}
    for command in (argv for argvs in ROOTED.values() for argv in argvs):
        for argv in (["--data-dir", "R", *command], ["--data-dir=R", *command], [*command, "--data-dir", "R"],
                     [*command, "--data-dir=R"]):
            assert cli.parse(argv).data_dir == "R", argv
        assert cli.parse(command).data_dir is None
        assert cli.parse(["--data-dir", "A", *command, "--data-dir=B"]).data_dir == "B", command


def test_data_dir_before_a_command_that_reads_no_root_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--data-dir", "R", "demo"])
    assert exit_.value.code == 2 and "error: argument --data-dir: sts demo reads no data root" in capsys.readouterr().err


def test_data_dir_before_the_command_is_the_root_it_reads(data_dir, monkeypatch, capsys):
    monkeypatch.delenv("STS_DATA", raising=False)
    assert cli.main([f"--data-dir={data_dir}", "data", "list"]) == 0
    assert capsys.readouterr().out.startswith(f"data root: {data_dir}\n")


def _options_of(words: list[str]) -> tuple[str, set[str]]:
    """``sts WORDS…``'s command (``data fetch``, ``run``, …) and the options its parser takes."""
    import argparse
    import importlib

    def commands(parser):
        return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    words = [w for i, w in enumerate(words) if not (w.startswith("-") or i and words[i - 1] == "--data-dir")]
    sub = commands(cli.build_parser())
    parser = sub.choices[words[0]]
    module, function = sub._builders.pop(words[0])
    getattr(importlib.import_module(module), function)(parser)
    name = words[0]
    if name == "data" and len(words) > 1:
        parser, name = commands(parser).choices[words[1]], f"data {words[1]}"
    return name, {option for action in parser._actions for option in action.option_strings}


def _documented_command_lines():
    """Every ``sts`` command line of README.md and docs/*.md (code spans, shell and console blocks) and every
    sentence giving an option to listed commands (```--opt X` in `sts a`, `sts b` and `sts c```): (page, the
    command's words, the options it is said to take)."""
    from tests.conftest import CHECKOUT, DOC_PAGES, doc_blocks
    listed = re.compile(r"`(--[a-z][\w-]*)[^`]*`(?: (?:[a-z ]+ )?(?:in|of) | (?:on the command line )?\()(?P<list>`sts [^`]+`(?:(?:,? and |, |,? or )`sts [^`]+`)*)")
    for page in DOC_PAGES:
        text = (CHECKOUT / page).read_text(encoding="utf-8")
        lines = re.findall(r"`(sts [^`]+)`", text)
        for block in doc_blocks(page):
            if block.lang in ("bash", "console"):
                lines += [line[2:] if line.startswith("$ ") else line for line in block.text.splitlines()
                          if block.lang == "bash" or line.startswith("$ ")]
        for line in lines:
            for command in re.split(r"&&|\|\|?|;|>", line.split(" #")[0]):
                words = command.split()
                while words and re.fullmatch(r"\w+=\S*", words[0]):  # VAR=value before the command
                    words.pop(0)
                if words[:1] == ["sts"] and len(words) > 1:
                    yield page, words[1:], [w.split("=")[0] for w in words if w.startswith("--")]
        for paragraph in re.split(r"\n\s*\n", text):
            for found in listed.finditer(" ".join(paragraph.split())):
                for command in re.findall(r"`sts ([^`]+)`", found["list"]):
                    yield page, command.split(), [found[1]]


def test_every_documented_command_line_gives_each_command_only_options_it_takes():
    wrong, seen = [], set()
    for page, words, options in _documented_command_lines():
        name, known = _options_of(words)
        seen.add(name)
        wrong += [f"{page}: sts {name} {option}" for option in options if option not in known]
    assert not wrong, wrong
    assert {"run", "train", "bench", "eval", "compare", "demo", "data fetch"} <= seen  # the scan finds them


def test_a_loky_worker_replaced_for_its_memory_is_no_warning_on_the_command_line():
    """A long training's workers grow by their caches past loky's 300 MB "leak" bound: loky replaces them and, when
    work was waiting, warns of a memory leak. The command line shows no such warning (the results are the same);
    any other warning still shows. The message is loky's own, read from its source, so a rewording fails here."""
    import inspect
    import warnings

    from joblib.externals.loky import process_executor

    from semsts.notes import show_notes
    assert '"A worker stopped while some jobs were given to the "\n' in inspect.getsource(process_executor)
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        show_notes(quiet=False)
        warnings.warn("A worker stopped while some jobs were given to the executor. This can be caused by a too short "
                      "worker timeout or by a memory leak.", UserWarning, stacklevel=1)
        warnings.warn("something else", UserWarning, stacklevel=1)
    assert [str(w.message) for w in shown] == ["something else"]
