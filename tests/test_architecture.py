"""The one-way data flow: core under all; corpora → features → baselines; corpora → scoring → evaluate; the command
line on top.

Every Python module of the project (tests aside) belongs to a layer and imports only the layers below it, and
only through the one installed package, ``semsts`` (a bare ``import corpora`` works in a checkout, nowhere else).
The folder ``sts/`` is ``semsts`` itself, every other package folder X/ is ``semsts.X`` (pyproject.toml says so once).
The command line is the ``sts`` layer, the modules of ``sts/`` (``cli.py``, ``data_cli.py``, ``run_cli.py``,
``train_cli.py``, ``eval_cli.py`` …); the library layers hold none of it and never print. ``semsts.evaluate``,
the scorer's facade, re-exports the scorer's command line (``semsts.eval_cli``), and only that of the ``sts`` layer.
"""
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {  # layer -> what it may import of ours (besides itself)
    "core": set(),
    "models": set(),  # models/: the shipped model files, semsts.models (data, no code)
    "corpora": {"core"},
    "features": {"corpora", "core"},
    "baselines": {"features", "corpora", "core"},
    "scoring": {"corpora", "core"},
    "evaluate": {"scoring", "sts"},  # the sts layer's semsts.eval_cli only: see test_evaluate_imports_only_the_scorers_cli
    "sts": {"core", "corpora", "features", "baselines", "scoring", "evaluate"},
    "api": {"core"},  # sts/__init__.py: names only, imported on first use
    "script": {"evaluate"},  # the checkout's evaluate.py
    "benchmarks": {"core", "corpora", "features", "baselines", "scoring", "evaluate", "sts", "tests"},
}
SUBPACKAGES = ("core", "corpora", "features", "baselines", "scoring")  # semsts.X, each from the folder X
OLD_TOP_LEVEL = {*SUBPACKAGES, "sts", "evaluate"}
LIBRARY_LAYERS = ("core", "corpora", "features", "baselines", "scoring")


def _project_modules() -> list[Path]:
    """Every .py file of the checkout but the tests, virtual environments, builds and hidden folders."""
    skip = {"tests", "build", "dist"}
    return sorted(p for p in ROOT.rglob("*.py")
                  if not any(part in skip or part.startswith(".") or part.endswith(".egg-info")
                             for part in p.relative_to(ROOT).parts[:-1]))


def _layer(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    if parts == ("evaluate.py",):
        return "script"
    if parts[0] == "sts":
        return {"evaluate.py": "evaluate", "__init__.py": "api"}.get(parts[-1], "sts")
    return parts[0]


def _module_layer(module: str) -> str | None:
    """The layer of an imported module of ours (``semsts.corpora.x`` -> corpora), None for others'."""
    parts = module.split(".")
    if parts[0] == "tests":
        return "tests"
    if parts[0] != "semsts":
        return None
    if len(parts) == 1:
        return "api"
    if parts[1] in SUBPACKAGES or parts[1] == "evaluate":
        return parts[1]
    return "sts" if (ROOT / "sts" / f"{parts[1]}.py").is_file() else "api"  # semsts.cli, or a name of the API


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "semsts":  # from semsts import corpora
                found.update(f"semsts.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
    return found


def _bare(path: Path) -> set[str]:
    """Our packages imported by their checkout folder's name instead of through semsts."""
    return {m for m in _imports(path) if m.split(".")[0] in OLD_TOP_LEVEL}


def test_every_module_belongs_to_a_layer():
    modules = _project_modules()
    names = {str(p.relative_to(ROOT)) for p in modules}
    assert {"sts/cli.py", "sts/evaluate.py", "evaluate.py", "scoring/tasks.py", "corpora/datasets.py"} <= names
    strays = sorted(str(p.relative_to(ROOT)) for p in modules if _layer(p) not in LAYERS)
    assert not strays, f"modules outside every layer: {strays}; add their folder to LAYERS"


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_imports_point_one_way(layer):
    files = [p for p in _project_modules() if _layer(p) == layer]
    assert files, f"no modules found for {layer}"
    for path in files:
        bare = _bare(path)
        assert not bare, f"{path.relative_to(ROOT)} imports {sorted(bare)}: import them as semsts.…"
        used = {_module_layer(m) for m in _imports(path)} - {None}
        wrong = used - LAYERS[layer] - {layer}
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}; {layer} may import only {sorted(LAYERS[layer])}"


def test_the_import_checks_find_wrong_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import corpora\nfrom semsts import baselines, resolve\nfrom semsts.scoring.tasks import STS\n"
                   "from semsts.cli import main\n")
    assert _bare(bad) == {"corpora"}
    assert {_module_layer(m) for m in _imports(bad)} - {None} == {"baselines", "scoring", "api", "sts"}


def test_tests_import_our_code_through_semsts():
    for path in sorted((ROOT / "tests").glob("*.py")):
        assert not _bare(path), f"{path.relative_to(ROOT)} imports {sorted(_bare(path))}: import them as semsts.…"


def test_evaluate_py_only_reexports_and_starts_the_cli():
    for path in (ROOT / "evaluate.py", ROOT / "sts" / "evaluate.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign))]
        assert not defined, f"{path.relative_to(ROOT)} defines code; it belongs in the scoring package"


def _prints_outside_main(tree):
    """Line numbers of print calls that are not inside a function named ``main`` or ``*_main``."""
    inside_main = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (node.name == "main" or node.name.endswith("_main")):
            inside_main.update(id(child) for child in ast.walk(node))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" and id(node) not in inside_main]


@pytest.mark.parametrize("layer", LIBRARY_LAYERS)
def test_library_code_does_not_print(layer):
    """In the library layers only a maintainer script's ``main`` prints (e.g. ``python -m semsts.corpora.manifest``)."""
    for path in [p for p in _project_modules() if _layer(p) == layer]:
        lines = _prints_outside_main(ast.parse(path.read_text(encoding="utf-8")))
        assert not lines, f"{path.relative_to(ROOT)}:{lines[0]} prints; library code never prints"


@pytest.mark.parametrize("layer", LIBRARY_LAYERS)
def test_the_command_line_lives_in_the_sts_layer(layer):
    clis = [str(p.relative_to(ROOT)) for p in _project_modules() if _layer(p) == layer
            and (p.name in ("cli.py", "__main__.py") or p.name.endswith("_cli.py"))]
    assert not clis, f"command-line modules in the {layer} layer: {clis}; they belong in sts/"


def test_evaluate_imports_only_the_scorers_cli():
    used = {m for m in _imports(ROOT / "sts" / "evaluate.py") if _module_layer(m) == "sts"}
    assert used == {"semsts.eval_cli"}


def test_the_print_check_finds_a_print():
    assert _prints_outside_main(ast.parse("def f():\n    print('x')\n\ndef main():\n    print('y')\n")) == [2]


def _private_methods(paths) -> set[str]:
    """Names of the ``_private`` methods of the classes defined in ``paths`` (dunders aside)."""
    return {item.name for path in paths for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef) for item in node.body
            if isinstance(item, ast.FunctionDef) and item.name.startswith("_") and not item.name.startswith("__")}


def _foreign_private_calls(tree, private: set[str]) -> list[str]:
    """Calls ``obj._name(…)`` of one of ``private`` on anything but ``self``, ``cls`` or ``super()``."""
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in private:
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and getattr(owner.func, "id", None) == "super":
                continue
            calls.append(f"{ast.unparse(node.func)} (line {node.lineno})")
    return calls


def test_no_module_calls_the_private_methods_of_our_systems_and_features():
    """What a caller needs of a system or a feature family is public (e.g. FeatureRegression.build_model)."""
    private = _private_methods(p for p in _project_modules() if _layer(p) in ("features", "baselines"))
    for path in _project_modules():
        calls = _foreign_private_calls(ast.parse(path.read_text(encoding="utf-8")), private)
        assert not calls, f"{path.relative_to(ROOT)} calls {calls}: give the class a public method"


def test_the_private_call_check_finds_one():
    tree = ast.parse("class A:\n    def f(self):\n        return self._g() + super()._g()\n\nA()._g()\n")
    assert _foreign_private_calls(tree, {"_g"}) == ["A()._g (line 5)"]


# Test files are named for what they test: tests/test_<module>.py, <module> a module or package of the project.
# These names are not one module; each tests something that crosses them:
CROSS_CUTTING = {
    "architecture": "the layering of every module (this file)",
    "install": "what pip installs: one package beside Hugging Face's evaluate",
    "setup": "the README's set-up line, pyproject.toml and .ci/run agree",
    "readme_bench": "the bench tables of the README and the docs rerun from their command",
    "readme_demo": "the demo scoreboard of the docs reruns from its command",
    "readme_python": "the Python API page of the docs runs as written",
    "docs_blocks": "every fenced block of the README and the docs is run by a test",
    "results_file": "benchmarks/RESULTS.md: each section written by the script it names (benchmarks/results.py)",
    "features_sklearn": "every feature family against scikit-learn's estimator checks",
    "safety_model": "issue 32: what a model file and its card can make us do (model_file, model_card, model_checks, model_archive)",
    "sts2017_fixture": "one dataset, STS 2017 in its official layout, through every command",
    "stscompanion_fixture": "the STS-B companion in its official layout (fixtures): fetch, run, eval, bench, train",
    "sts2017_tracks": "issue 36, item 2: every STS 2017 track in its official layout, through every command",
    "typed2013_pipeline": "TYPED pairs end to end: reading, a system, its output file, validation and scoring",
    "security": "docs/security.md, the threat model: each protection names its threat and a test that exists",
    "safety_cache": "issue 43: caches by contract (an undeclared encoder computed afresh) and against accidents",
    "safety_data": "issue 32, datasets and fetching: hostile data roots, files and mirrors, one clear line each",
    "safety_cli": "issue 32: the command line's stdout holds only its result, empty output paths, Ctrl-C's line",
    "safety_cards": "issue 32: card values in messages, the retrain advice",
    "safety_long": "issue 32, long texts: the families' fast paths against their references, long pairs end to end",
    "progress_lines": "issue 34, item 5: encoding's counts, the embedding cache's note, plain progress lines in a log",
}


def _module_names() -> set[str]:
    """Every module and package name of the project: the .py files and folders of the packages, and the checkout's scripts."""
    names = {"evaluate", "semsts", *SUBPACKAGES}
    for package in (*SUBPACKAGES, "sts"):
        for path in (ROOT / package).rglob("*"):
            if "__pycache__" in path.parts:
                continue
            if path.suffix == ".py" and path.stem not in ("__init__", "__main__"):
                names.add(path.stem)
            elif path.is_dir() and (path / "__init__.py").exists():
                names.add(path.name)
    return names


def test_test_files_are_named_for_a_module_of_the_project():
    """A test file named after an issue or a defect (test_frictions.py, test_odd_files.py …) is caught."""
    known = _module_names() | set(CROSS_CUTTING)
    strays = sorted(p.name for p in (ROOT / "tests").glob("test_*.py") if p.stem.removeprefix("test_") not in known)
    assert not strays, f"name each test file test_<module>.py for the module it tests: {strays}"


def test_no_test_file_imports_another():
    """Helpers that several test files share live in tests/conftest.py: a test file is never a library."""
    pattern = re.compile(r"^\s*(from\s+(tests\.)?test_\w+\s+import|import\s+(tests\.)?test_\w+)", re.M)
    offenders = [p.name for p in (ROOT / "tests").glob("*.py") if pattern.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"import shared helpers from tests.conftest instead: {offenders}"
