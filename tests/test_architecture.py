"""The one-way data flow: corpora → features → baselines; corpora → scoring → evaluate.py; the sts package on top.

Every Python module of the project (tests aside) belongs to a layer and imports only the layers below it.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {  # layer -> what it may import of ours (besides itself)
    "corpora": set(),
    "features": {"corpora"},
    "baselines": {"features", "corpora"},
    "scoring": {"corpora"},
    "evaluate": {"scoring"},
    "sts": {"corpora", "features", "baselines", "scoring", "evaluate"},
    "benchmarks": {"corpora", "features", "baselines", "scoring", "evaluate", "sts", "tests"},
}
OURS = set(LAYERS) | {"tests"}
CLI_NAMES = ("cli.py", "__main__.py", "evaluate.py")


def _project_modules() -> list[Path]:
    """Every .py file of the checkout but the tests, virtual environments, builds and hidden folders."""
    skip = {"tests", "build", "dist"}
    return sorted(p for p in ROOT.rglob("*.py")
                  if not any(part in skip or part.startswith(".") or part.endswith(".egg-info")
                             for part in p.relative_to(ROOT).parts[:-1]))


def _layer(path: Path) -> str:
    first = path.relative_to(ROOT).parts[0]
    return first.removesuffix(".py")


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & OURS


def test_every_module_belongs_to_a_layer():
    modules = _project_modules()
    names = {str(p.relative_to(ROOT)) for p in modules}
    assert {"sts/__init__.py", "evaluate.py", "scoring/tasks.py", "corpora/datasets.py"} <= names
    strays = sorted(str(p.relative_to(ROOT)) for p in modules if _layer(p) not in LAYERS)
    assert not strays, f"modules outside every layer: {strays}; add their folder to LAYERS"


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_imports_point_one_way(layer):
    files = [p for p in _project_modules() if _layer(p) == layer]
    assert files, f"no modules found for {layer}"
    for path in files:
        wrong = _imports(path) - LAYERS[layer] - {layer}
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}; {layer} may import only {sorted(LAYERS[layer])}"


def test_evaluate_py_only_reexports_and_starts_the_cli():
    tree = ast.parse((ROOT / "evaluate.py").read_text(encoding="utf-8"))
    defined = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign))]
    assert not defined, "evaluate.py defines code; it belongs in the scoring package"


def _prints_outside_main(tree):
    """Line numbers of print calls that are not inside a function named ``main`` or ``*_main``."""
    inside_main = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (node.name == "main" or node.name.endswith("_main")):
            inside_main.update(id(child) for child in ast.walk(node))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" and id(node) not in inside_main]


@pytest.mark.parametrize("layer", ["corpora", "features", "baselines", "scoring"])
def test_library_code_does_not_print(layer):
    """Only command-line modules (``cli.py``, ``*_cli.py``, ``__main__.py``) and ``main`` functions print."""
    for path in [p for p in _project_modules() if _layer(p) == layer]:
        if path.name in CLI_NAMES or path.name.endswith("_cli.py"):
            continue
        lines = _prints_outside_main(ast.parse(path.read_text(encoding="utf-8")))
        assert not lines, f"{path.relative_to(ROOT)}:{lines[0]} prints; library code never prints"


def test_the_print_check_finds_a_print():
    assert _prints_outside_main(ast.parse("def f():\n    print('x')\n\ndef main():\n    print('y')\n")) == [2]
