"""The README's set-up line, pyproject and CI agree: one Python range, the same Debian packages, the test command."""
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def setup_block() -> list[str]:
    section = README.split("## Set up and test", 1)[1]
    return section.split("```bash\n", 1)[1].split("```", 1)[0].strip().splitlines()


def test_one_python_range_everywhere():
    assert PYPROJECT["project"]["requires-python"] == ">=3.11,<3.14"
    assert "Python 3.11, 3.12 or 3.13" in README.split("## Quick start")[0]
    legs = re.findall(r"^leg (3\.\d+)", CI, flags=re.M)
    assert legs == ["3.11", "3.13"]  # the oldest with pinned versions, the newest as pip resolves


STRICT = 'pip install -q -e ".[dev]" --config-settings editable_mode=strict'  # CI's, and the README's less -q


def test_the_first_line_prepares_a_machine_and_runs_the_demo():
    first, second = setup_block()
    ci_packages = set(re.search(r"apt-get install -y -qq ([^>]+)>", CI).group(1).split())
    assert {"wordnet-base", "wordnet-sense-index", "chromium"} <= ci_packages  # CI keeps the browser tests
    assert ci_packages - {"chromium"} <= set(first.split()) and "chromium" not in first  # users need no browser
    assert "(`sudo apt-get install -y chromium`" in README and "tests are skipped, saying why" in README
    assert STRICT.replace("-q ", "") in first and STRICT in CI and first.endswith("&& sts demo")
    assert "apt-get update &&" in first
    assert second.split("#")[0].strip() == "STS_DATA=../shared/data python -m pytest"
    assert re.search(r"# .*: about \d+ minutes on an idle 2-core", second)  # how long it takes, and where
    assert "STS_DATA=../shared/data python -m pytest )" in CI  # CI runs exactly that command


@pytest.mark.slow
def test_the_strict_editable_install_is_a_plain_path_an_editor_follows(tmp_path):
    """The README's install (docs/design.md, Working on the suite), from a copy of the checkout into a new venv:
    its .pth names a folder (no import hook) whose semsts/ links each module to its folder of the checkout."""
    source, venv = tmp_path / "source", tmp_path / "venv"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__",
                                                                  "tests", "benchmarks", "docs"))
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "-e", str(source), "--config-settings",
                    "editable_mode=strict"], check=True, capture_output=True, timeout=600)
    (pth,) = venv.glob("lib/python3.*/site-packages/__editable__.semsts-*.pth")
    (folder,) = pth.read_text().split()  # one path, no `import` line
    package = Path(folder) / "semsts"
    assert (package / "core" / "errors.py").resolve() == source / "core" / "errors.py"
    assert (package / "cli.py").resolve() == source / "sts" / "cli.py"
    found = subprocess.run([python, "-c", "import semsts.core.errors as e; print(e.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    assert Path(found) == package / "core" / "errors.py"
