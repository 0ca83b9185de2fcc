"""The one-way data flow: corpora → features → baselines, corpora → evaluate.py; only the top imports all."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"corpora", "features", "baselines", "evaluate", "sts"}
ALLOWED = {
    "corpora": set(),
    "features": {"corpora"},
    "baselines": {"features", "corpora"},
    "evaluate": {"corpora"},
}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & OURS


def _modules(layer: str):
    if layer == "evaluate":
        return [ROOT / "evaluate.py"]
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_point_one_way(layer):
    files = _modules(layer)
    assert files, f"no modules found for {layer}"
    for path in files:
        wrong = _imports(path) - ALLOWED[layer] - {layer}
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}; {layer} may import only {sorted(ALLOWED[layer])}"


def _prints_outside_main(tree):
    """Line numbers of print calls that are not inside a function named ``main``."""
    inside_main = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            inside_main.update(id(child) for child in ast.walk(node))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" and id(node) not in inside_main]


@pytest.mark.parametrize("layer", ["corpora", "features", "baselines"])
def test_library_code_does_not_print(layer):
    """Only command-line modules (``cli.py``, ``*_cli.py``, ``__main__.py``) and ``main`` functions print."""
    for path in _modules(layer):
        if path.name in ("cli.py", "__main__.py") or path.name.endswith("_cli.py"):
            continue
        lines = _prints_outside_main(ast.parse(path.read_text(encoding="utf-8")))
        assert not lines, f"{path.relative_to(ROOT)}:{lines[0]} prints; library code never prints"
