"""Tests of semsts.core.lazy (the API of semsts, semsts.baselines and semsts.scoring imported on first use), and of what each
command imports."""
import subprocess
import sys
from pathlib import Path

import pytest

import semsts
from semsts import baselines, scoring
from semsts.core.lazy import lazy_names


def test_importing_the_packages_imports_no_numpy():
    """``import semsts`` (and the two packages that give their API on first use) stays cheap: no numpy, scipy or
    scikit-learn until a name that needs them is used."""
    probe = ("import sys\nimport semsts, semsts.baselines, semsts.scoring, semsts.evaluate\n"
             "print(sorted(m for m in ('numpy', 'scipy', 'sklearn') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


@pytest.mark.parametrize("package, name, module", [
    (semsts, "resolve", "semsts.corpora"), (semsts, "score", "semsts.scoring"),
    (baselines, "check_pairs", "semsts.baselines.base"), (scoring, "pearson", "semsts.scoring.correlations")])
def test_a_name_is_the_object_of_its_module_and_is_kept(package, name, module):
    value = getattr(package, name)
    assert value is getattr(sys.modules[module], name)
    assert vars(package)[name] is value  # imported once, then an ordinary attribute
    assert name in dir(package) and name in package.__all__


@pytest.mark.parametrize("package", [semsts, baselines, scoring])
def test_an_unknown_name_is_an_attribute_error_naming_the_package(package):
    with pytest.raises(AttributeError, match=rf"^module '{package.__name__}' has no attribute 'no_such_name'$"):
        package.no_such_name  # noqa: B018


def test_dir_lists_the_names_not_yet_imported(monkeypatch):
    module = type(sys)("lazy_probe")
    monkeypatch.setitem(sys.modules, "lazy_probe", module)
    getattr_, dir_ = lazy_names("lazy_probe", {"later": "nowhere"})
    assert "later" in dir_() and "later" not in vars(module)
    with pytest.raises(ModuleNotFoundError):
        getattr_("later")  # imported only when used: lazy_probe.nowhere does not exist


# --- Issue 46: start-up pays only for what the command uses.

FEATURE_FREE = {"semsts.features", "semsts.features.errors", "semsts.features.text"}  # no family among them


def imported(argv, env, cwd) -> set:
    """The modules a fresh ``python ARGV`` imports (``-X importtime`` lists each one on stderr)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, env=env, cwd=cwd)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.slow  # about 15 s: five commands in a fresh process each
def test_each_command_imports_only_the_families_its_system_uses(tmp_path, data_dir):
    """`sts eval`, `sts compare` and `python evaluate.py` import no feature family and no scikit-learn; `sts run` of a
    string baseline imports its string functions and no other family (it imported the encoders, WordNet and the word
    vectors' families: 1.2 s of a 2-second run)."""
    import os
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "STS_DATA": str(data_dir)}
    run = tmp_path / "tc"
    families = {}
    for name, argv in [
            ("run token-cosine", ["-m", "semsts", "run", "token-cosine", "--test", "sts2013-test", "--out", str(run),
                                  "--quiet"]),
            ("run gst", ["-m", "semsts", "run", "gst", "--test", "clss2014-test", "--out", str(tmp_path / "gst"),
                         "--quiet"]),
            ("eval", ["-m", "semsts", "eval", "--dataset", "sts2013-test", "--run", str(run)]),
            ("compare", ["-m", "semsts", "compare", "--dataset", "sts2013-test", "--run", f"tc={run}", "--published",
                         "--resamples", "20"]),
            ("evaluate.py", [str(root / "evaluate.py"), "--dataset", "sts2013-test", "--run", str(run)])]:
        modules = imported(argv, env, tmp_path)
        assert "semsts.scoring" in modules or name.startswith("run"), name  # the probe sees our modules
        families[name] = {m for m in modules if m.startswith("semsts.features")} - FEATURE_FREE
        if not name.startswith("run"):
            assert "sklearn" not in modules, name
    assert families["run token-cosine"] == set()
    assert families["run gst"] == {"semsts.features.strings", "semsts.features.strings.gst",
                                   "semsts.features.strings.lcs", "semsts.features.strings.runs"}
    assert families["eval"] == families["compare"] == families["evaluate.py"] == set()
