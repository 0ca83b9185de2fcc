"""docs/security.md, the threat model: every protection it lists names its threat and a test that exists, and the
README and the docs' index link to it."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "security.md"
TEST_REF = re.compile(r"`(tests/test_\w+\.py)::(\w+)`")


def _protection_rows() -> list[list[str]]:
    """The rows of the page's protections table: ``| kind | threat | protection | test |``."""
    text = PAGE.read_text(encoding="utf-8")
    table = text.split("## Protections", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("|")][2:]  # past the header and its rule
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_protection_names_its_threat_and_a_test():
    rows = _protection_rows()
    assert len(rows) >= 10
    for row in rows:
        assert len(row) == 4 and all(row), f"a row needs a kind, a threat, a protection and a test: {row}"
        assert row[0] in ("untrusted", "named code", "accident"), row
        assert TEST_REF.search(row[3]), f"the protection against {row[1]!r} names no test"


@pytest.mark.parametrize("path, name", sorted({m.groups() for m in TEST_REF.finditer(PAGE.read_text(encoding="utf-8"))}))
def test_each_named_test_exists(path, name):
    assert name in _test_functions(ROOT / path), f"docs/security.md names {path}::{name}, which is no test there"


def test_the_check_finds_a_test_that_is_not_there(tmp_path):
    (tmp_path / "test_x.py").write_text("def test_here():\n    pass\n", encoding="utf-8")
    assert _test_functions(tmp_path / "test_x.py") == {"test_here"}
    assert "test_gone" not in _test_functions(tmp_path / "test_x.py")


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_threat_model_is_linked(page):
    assert "security.md" in (ROOT / page).read_text(encoding="utf-8")
