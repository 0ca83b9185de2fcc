"""Issue 14's small frictions: --version, a closed pipe, per-command help, a missing data root, help texts."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from semsts import cli

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


def test_eval_help_shows_its_own_forms_only(capsys):
    try:
        cli.main(["eval", "--help"])
    except SystemExit:
        pass
    out = capsys.readouterr().out
    assert "--dataset NAME --run DIR" in out and "compare" not in out


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


def test_in_a_log_an_error_starts_its_own_line_after_the_progress(tmp_path, capsys):
    """stderr to a file or pipe: closed bars keep their last state on a line of their own, so the error that
    follows a step (here a model saved with other library versions) is not glued after a carriage return."""
    import json
    import shutil
    card = json.loads((ROOT / "models" / "stsb.json").read_text())
    from semsts.baselines.model_file import versions
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
