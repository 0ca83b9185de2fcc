"""Tests of semsts.core.lazy: the API of semsts, semsts.baselines and semsts.scoring imported on first use."""
import subprocess
import sys

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
