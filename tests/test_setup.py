"""The README's set-up line, pyproject and CI agree: one Python range, the same Debian packages, the test command."""
import re
import tomllib
from pathlib import Path

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


def test_the_first_line_prepares_a_machine_and_runs_the_demo():
    first, second = setup_block()
    ci_packages = set(re.search(r"apt-get install -y -qq ([^>]+)>", CI).group(1).split())
    assert ci_packages <= set(first.split()) and {"wordnet-base", "wordnet-sense-index", "chromium"} <= ci_packages
    assert 'pip install -e ".[dev]"' in first and first.endswith("&& sts demo") and "apt-get update &&" in first
    assert second.split("#")[0].strip() == "STS_DATA=../shared/data python -m pytest"
    assert "STS_DATA=../shared/data python -m pytest )" in CI  # CI runs exactly that command
