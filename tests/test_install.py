"""What the suite installs: one package, ``semsts``, that lives beside Hugging Face's ``evaluate``.

The dev extra installs Hugging Face ``evaluate`` (and with it ``datasets``) into the same environment,
as most NLP environments have it; the README's Python API and every ``sts`` command then run from a
folder outside the checkout, where only what is installed can be imported.
"""
from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import pairs_tsv, python_api_blocks

ROOT = Path(__file__).resolve().parents[1]
STS = [str(Path(sys.executable).parent / "sts")]  # the installed command, as a user runs it


def _run(cmd, cwd, env=None, timeout=600):
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} exited {done.returncode}:\n{done.stderr[-2000:]}"
    return done


def test_only_semsts_is_installed():
    dist = importlib.metadata.distribution("semsts")
    assert dist.read_text("top_level.txt").split() == ["semsts"]
    assert importlib.metadata.distribution("semsts").metadata["Name"] == "semsts"


def test_outside_the_checkout_only_semsts_imports(tmp_path):
    """The checkout's folder names are not importable once installed: nothing of ours shadows another project."""
    names = ("core", "corpora", "features", "baselines", "scoring", "sts", "evaluate")
    code = ("import importlib.util, json; "
            f"print(json.dumps({{n: getattr(importlib.util.find_spec(n), 'origin', None) for n in {['semsts', *names]}}}))")
    found = json.loads(_run([sys.executable, "-c", code], tmp_path).stdout)
    assert found["semsts"] and Path(found["semsts"]).parent.name in ("semsts", "sts")  # a plain install, an editable one
    ours = [ROOT / name for name in (*names[:-1], "evaluate.py")]
    for name in names:  # another project's, or none
        origin = found[name] and Path(found[name])
        assert origin is None or not any(origin == o or origin.is_relative_to(o) for o in ours), (name, origin)


@pytest.mark.slow
def test_beside_hugging_face_evaluate(tmp_path, data_dir):
    """Hugging Face evaluate imported first, then the README's Python API in the same process; then every command."""
    hf = importlib.metadata.distribution("evaluate")  # the dev extra installs it: its absence is a failure here
    assert hf.metadata["Name"] == "evaluate"
    pairs_tsv(tmp_path / "my-train.tsv", 59, 1)
    pairs_tsv(tmp_path / "my-test.tsv", 40, 2)
    script = tmp_path / "api.py"
    script.write_text("import evaluate\nassert callable(evaluate.load), evaluate.__file__\n"
                      + "\n".join(python_api_blocks())
                      + "\nassert callable(evaluate.load)\nprint('api ok', report['all'] > 0.8)\n")
    assert "api ok True" in _run([sys.executable, str(script)], tmp_path).stdout

    env = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", "HOME": str(tmp_path / "home"),
           "STS_DATA": str(data_dir)}
    for argv in (["--version"], ["data", "list"], ["data", "list", "my-test.tsv"],
                 ["run", "token-cosine", "--test", "my-test.tsv", "--out", "out/tc", "--quiet"],
                 ["eval", "--dataset", "my-test.tsv", "--run", "out/tc"],
                 ["compare", "--dataset", "my-test.tsv", "--run", "tc=out/tc"],
                 ["train", "--train", "my-train.tsv", "--test", "my-test.tsv", "--feature-set", "takelab",
                  "--save", "m.skops", "--quiet"],
                 ["bench", "token-cosine", "--datasets", "stsb-test", "--quiet"],
                 ["demo", "--system", "token-cosine", "--quiet"]):
        _run([*STS, *argv], tmp_path, env)
    gold, system = tmp_path / "gold.txt", tmp_path / "out" / "tc" / "STS.output.my-test.txt"
    gold.write_text("".join(line.split("\t")[2] + "\n" for line in (tmp_path / "my-test.tsv").read_text().splitlines()[1:]))
    assert _run([sys.executable, str(ROOT / "evaluate.py"), str(gold), str(system)], tmp_path, env).stdout.startswith("Pearson: ")


@pytest.mark.parametrize("where", ["checkout", "elsewhere"])
def test_evaluate_py_runs_with_the_editable_install(tmp_path, where):
    """Issue 33: ``python evaluate.py`` from the checkout's folder and from any other, with ``pip install -e``."""
    cwd = ROOT if where == "checkout" else tmp_path
    work = tmp_path / "files"
    work.mkdir()
    out = _run([sys.executable, str(ROOT / "evaluate.py"), *_files(work)], cwd).stdout
    assert out.startswith("Pearson: 0.9"), out


def _files(folder: Path) -> list[str]:
    gold, system = folder / "gold.txt", folder / "sys.txt"
    gold.write_text("1\n2\n3\n4.5\n")
    system.write_text("1.5\n2\n2.5\n5\n")
    return [str(gold), str(system)]


@pytest.mark.slow
def test_evaluate_py_runs_with_a_plain_install(tmp_path):
    """Issue 33: with a plain (non-editable) install, the checkout's ``evaluate.py`` imports the installed package,
    from the checkout's folder as from another: no folder of the checkout shadows ``semsts`` (it did when ``semsts/``
    was one). The install goes to a folder put first on ``PYTHONPATH``, ahead of this environment's editable one."""
    site, source = tmp_path / "site", tmp_path / "source"  # built from a copy: a build writes build/ beside its source
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__",
                                                                  "tests", "benchmarks", "docs"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(source)],
                   check=True, capture_output=True, timeout=600)
    assert not (ROOT / "build").exists() or (ROOT / "build").stat().st_mtime < source.stat().st_mtime  # none made here
    # every data file of the package folders is installed (issue 45: the shipped models, the demo data, the tables)
    data = {}  # name in the checkout -> where the install has it
    for folder, package in {"sts": ".", "core": "core", "corpora": "corpora", "features": "features",
                            "baselines": "baselines", "scoring": "scoring", "models": "models"}.items():
        for path in (source / folder).rglob("*"):
            if path.is_file() and path.suffix not in (".py", ".pyc"):
                data[path.relative_to(source).as_posix()] = site / "semsts" / package / path.relative_to(source / folder)
    assert {"models/stsb.skops", "models/sts2013.json", "corpora/demo/sts-test.csv", "corpora/leaderboards/mteb-sts.tsv",
            "features/data/wordnet_gloss_lsa.npz"} <= set(data)
    assert not [name for name, installed in data.items() if not installed.is_file()]
    env = {**os.environ, "PYTHONPATH": str(site)}
    work = tmp_path / "files"
    work.mkdir()
    where = ("import sys, semsts.scoring, semsts.evaluate; "
             "print(semsts.scoring.__file__); print(semsts.evaluate.__file__)")
    for cwd in (ROOT, tmp_path):
        out = _run([sys.executable, str(ROOT / "evaluate.py"), *_files(work)], cwd, env).stdout
        assert out.startswith("Pearson: 0.9"), out
        # what the script imports, with sys.path as the script has it (its folder, the checkout, first)
        origins = _run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); {where}"], cwd, env).stdout
        assert all(Path(line).is_relative_to(site) for line in origins.split()), origins
