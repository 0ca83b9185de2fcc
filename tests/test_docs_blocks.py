"""Every fenced block of README.md and docs/*.md is executed by a test, so that none can go stale (issue 34).

The line before each block says how, as an HTML comment that neither GitHub nor the site shows,
``<!-- docs-test: WORDS -->``:

- ``session``: run here, with the page's other session blocks, in order, in one fresh folder (a page's commands
  build on each other, as a reader's do). ``bash`` blocks run as one script; ``console`` blocks run each ``$ `` line
  and compare what it prints on stdout with the lines shown under it (only the folder's path is normalised);
  ``python`` blocks run in one namespace per page. After a change of output, ``DOCS_UPDATE=1 python -m pytest
  tests/test_docs_blocks.py`` rewrites the shown output of each ``console`` block that differs (and fails, so that
  the diff is reviewed).
- ``slow``: the same, alone in a fresh folder, in a test marked ``slow`` (a block shown on two pages runs once).
- ``fetch``: a session block whose data root starts empty, with ``STS_MIRROR`` pointing at a local server that
  serves the official files of the releases it fetches (built from the data root the tests use): ``sts data
  fetch`` as written, with no internet.
- ``hub``: the folder holds a stand-in ``sentence_transformers`` package (a deterministic ``SentenceTransformer`` and
  ``CrossEncoder`` that download nothing) and a stand-in ``openai`` package (a client whose chat completions answer
  with a number, offline), for the examples that need the Hugging Face hub or a chat API.
- ``file NAME``: the block is a file the page's commands use; it is written as ``NAME`` into every folder of the
  page, and a later block of the page must name it.
- ``tested-by tests/test_X.py``: another test runs the block; that file must name the page.
- ``diagram``: a drawing of the layers (docs/design.md); every package folder must appear in it and every folder it
  names must exist.

Every folder holds what the pages assume of a checkout and of the reader's files: ``evaluate.py`` (a link to the
checkout's; the shipped models are named, never taken from ``models/``), and ``my-train.tsv`` and ``my-test.tsv`` (59 and 40 scored pairs). Commands run with
the data root the tests use (``STS_DATA``), an empty HOME and the environment's ``bin`` first on PATH.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.conftest import CHECKOUT, DOC_PAGES, DocBlock, doc_blocks, pairs_tsv

KINDS = {"session", "slow", "fetch", "hub", "file", "tested-by", "diagram"}
BLOCKS = [block for page in DOC_PAGES for block in doc_blocks(page)]
SESSION_PAGES = sorted({b.page for b in BLOCKS if {"session", "fetch"} & set(b.how) and "slow" not in b.how})
SLOW = [b for b in BLOCKS if "slow" in b.how]
SLOW = [b for i, b in enumerate(SLOW) if b.text not in [a.text for a in SLOW[:i]]]  # a command shown twice runs once

# What the stand-in for sentence-transformers gives: character trigrams hashed into 32 dimensions, so that similar
# texts get similar vectors, and the same vectors on every run.
FAKE_SENTENCE_TRANSFORMERS = '''"""A stand-in for sentence-transformers (tests/test_docs_blocks.py): no download, no torch."""
import numpy as np


class SentenceTransformer:
    def __init__(self, name):
        self.name = name

    def encode(self, texts, **kwargs):
        out = np.zeros((len(texts), 32))
        for i, text in enumerate(texts):
            text = f"  {text.lower()} "
            for j in range(len(text) - 2):
                out[i, sum(map(ord, text[j:j + 3])) % 32] += 1.0
        return out


class CrossEncoder:
    def __init__(self, name):
        self.model = SentenceTransformer(name)

    def predict(self, pairs, batch_size=32, **kwargs):
        a = self.model.encode([p[0] for p in pairs])
        b = self.model.encode([p[1] for p in pairs])
        norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
        return np.divide((a * b).sum(axis=1), norms, out=np.zeros(len(pairs)), where=norms > 0).astype(np.float32)
'''

# The stand-in for a chat API's client: the reply to a prompt holding two numbered sentences ("1: …", "2: …") is
# five times the Jaccard overlap of their words, as a model answering with the number only would write it.
FAKE_OPENAI = '''"""A stand-in for the openai client (tests/test_docs_blocks.py): no network, no key, a number for a reply."""
import re
from types import SimpleNamespace


class _Completions:
    def create(self, model, messages, **kwargs):
        text = messages[-1]["content"]
        a, b = (set(re.findall(r"\\w+", re.search(rf"^{k}: (.*)$", text, re.M).group(1).lower())) for k in "12")
        reply = f"{5 * len(a & b) / max(1, len(a | b)):.1f}"
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=reply))])


class OpenAI:
    def __init__(self, **kwargs):
        self.chat = SimpleNamespace(completions=_Completions())
'''


def test_there_are_blocks_on_every_page():
    assert "README.md" in DOC_PAGES and "docs/index.md" in DOC_PAGES and len(DOC_PAGES) >= 10
    assert len([b for b in BLOCKS if b.page == "README.md"]) >= 6


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.where)
def test_every_block_says_how_a_test_runs_it(block: DocBlock):
    assert block.how, f"{block.where}: a fenced block without a <!-- docs-test: … --> line before it"
    words = set(block.how)
    assert block.how[0] in KINDS, f"{block.where}: unknown kind {block.how[0]!r} (known: {sorted(KINDS)})"
    assert words & KINDS, block.where
    if block.how[0] == "file":
        name = block.how[1]
        later = [b for b in doc_blocks(block.page) if b.line > block.line and b.how[0] != "file"]
        assert any(name.split(".")[0] in b.text for b in later), f"{block.where}: no later block uses {name}"
    elif block.how[0] == "tested-by":
        test_file = CHECKOUT / block.how[1]
        assert test_file.is_file(), f"{block.where}: {block.how[1]} does not exist"
        source = test_file.read_text(encoding="utf-8") + (CHECKOUT / "tests" / "conftest.py").read_text(encoding="utf-8")
        assert block.page in source, f"{block.where}: {block.how[1]} does not name {block.page}"
    elif block.how[0] == "diagram":
        assert block.page == "docs/design.md"
    else:
        assert block.lang in ("bash", "console", "python"), f"{block.where}: cannot run a {block.lang!r} block"


def test_the_design_drawing_names_every_layer():
    (drawing,) = [b for b in BLOCKS if b.how[0] == "diagram"]
    named = set(re.findall(r"\b([a-z]+)/", drawing.text))
    packages = {"core", "corpora", "features", "baselines", "scoring", "sts"}
    assert packages <= named, f"the drawing lacks {packages - named}"
    assert all((CHECKOUT / name).is_dir() for name in named), named


# --- Running the blocks

def _folder(tmp_path: Path, page: str, *, hub: bool) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    (work / "evaluate.py").symlink_to(CHECKOUT / "evaluate.py")
    pairs_tsv(work / "my-train.tsv", 59, 1)
    pairs_tsv(work / "my-test.tsv", 40, 2)
    for block in doc_blocks(page):
        if block.how[0] == "file":
            (work / block.how[1]).write_text(block.text, encoding="utf-8")
    if hub:
        (work / "sentence_transformers").mkdir()
        (work / "sentence_transformers" / "__init__.py").write_text(FAKE_SENTENCE_TRANSFORMERS, encoding="utf-8")
        (work / "openai").mkdir()
        (work / "openai" / "__init__.py").write_text(FAKE_OPENAI, encoding="utf-8")
    return work


def _env(tmp_path: Path, data_root: Path) -> dict:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    keep = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TZ", "TMPDIR", "SYSTEMROOT")}
    return {**keep, "HOME": str(home), "STS_DATA": str(data_root), "CHECKOUT": str(CHECKOUT),
            "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin"}


def _sh(command: str, work: Path, env: dict, where: str) -> str:
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", command], cwd=work, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, (f"{where}: `{command.strip()}` exited {done.returncode}\n"
                                  f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}")
    return done.stdout


def _console(block: DocBlock, work: Path, env: dict) -> None:
    """Each ``$ `` line is run; the lines under it are what it prints on stdout."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"{block.where}: output before any command"
            steps[-1][1].append(line)
    printed = []
    for command, shown in steps:
        got = _sh(command, work, env, block.where).replace(str(work) + "/", "").rstrip("\n").splitlines()
        printed += [f"$ {command}", *got]
        if os.environ.get("DOCS_UPDATE") == "1":  # a maintainer's way to rewrite the shown output after a change
            continue
        assert got == shown, (f"{block.where}: `{command}` printed something else than the page shows\n"
                              + "\n".join(f"- {a}\n+ {b}" for a, b in zip(shown, got) if a != b)
                              + f"\n(lines shown {len(shown)}, printed {len(got)})")
    if os.environ.get("DOCS_UPDATE") == "1" and printed != block.text.rstrip("\n").splitlines():
        page = CHECKOUT / block.page
        text = page.read_text(encoding="utf-8")
        assert text.count(block.text) == 1, f"{block.where}: the block is not unique on its page"
        page.write_text(text.replace(block.text, "\n".join(printed) + "\n"), encoding="utf-8")
        pytest.fail(f"{block.where}: DOCS_UPDATE=1 rewrote the shown output; review the diff and rerun without it")


def _python(block: DocBlock, work: Path, env: dict, namespace: dict, monkeypatch) -> None:
    monkeypatch.chdir(work)
    for key in ("HOME", "STS_DATA"):
        monkeypatch.setenv(key, env[key])
    exec(compile(block.text, f"{CHECKOUT / block.page}:{block.line}", "exec"), namespace)


def _run(block: DocBlock, work: Path, env: dict, namespace: dict, monkeypatch) -> None:
    if block.lang == "console":
        _console(block, work, env)
    elif block.lang == "python":
        _python(block, work, env, namespace, monkeypatch)
    else:
        _sh(block.text, work, env, block.where)


@pytest.mark.parametrize("page", SESSION_PAGES)
def test_the_page_runs_as_written(page, data_dir, tmp_path, monkeypatch, server):
    """A page's session blocks, in order, in one folder; a fetch block with its empty data root and local mirror."""
    blocks = [b for b in doc_blocks(page) if {"session", "fetch"} & set(b.how) and "slow" not in b.how]
    work = _folder(tmp_path, page, hub=any("hub" in b.how for b in blocks))
    env = _env(tmp_path, data_dir)
    namespace: dict = {}
    for block in blocks:
        if "fetch" in block.how:
            _run(block, work, {**env, **_mirror(server, data_dir, tmp_path)}, namespace, monkeypatch)
        else:
            _run(block, work, env, namespace, monkeypatch)


@pytest.mark.slow  # each trains a regime or benches the whole STS family
@pytest.mark.parametrize("block", SLOW, ids=lambda b: b.where)
def test_the_slow_block_runs_as_written(block, data_dir, tmp_path, monkeypatch):
    work = _folder(tmp_path, block.page, hub="hub" in block.how)
    _run(block, work, _env(tmp_path, data_dir), {}, monkeypatch)
    if "--report" in block.text:
        assert (work / "bench-report" / "index.html").is_file()


# The releases a fetch block may name, as their official archives hold them: the archive's name, the folder inside
# it, and where its files are under the data root.
RELEASES = {"sts2012-test": ("STS2012-en-test.zip", "test-gold", "sts2012/test"),
            "stsb-test": ("Stsbenchmark.tar.gz", "stsbenchmark", "stsbenchmark")}


def _mirror(server, data_dir: Path, tmp_path: Path) -> dict:
    """A mirror serving the official archives, made from the data root's files, and an empty data root."""
    served, url = server
    for archive, inside, folder in RELEASES.values():
        files = sorted(p for p in (data_dir / folder).iterdir() if p.is_file())
        if archive.endswith(".zip"):
            with zipfile.ZipFile(served / archive, "w") as zf:
                for path in files:
                    zf.write(path, f"{inside}/{path.name}")
        else:
            with tarfile.open(served / archive, "w:gz") as tf:
                for path in files:
                    tf.add(path, f"{inside}/{path.name}")
    root = tmp_path / "fetched-root"
    return {"STS_DATA": str(root), "STS_MIRROR": url}


def test_a_fetch_block_names_only_releases_the_mirror_serves():
    for block in (b for b in BLOCKS if "fetch" in b.how):
        named = set(re.findall(r"sts data fetch ([\w-]+)", block.text))
        assert named and named <= set(RELEASES), f"{block.where}: the mirror serves {sorted(RELEASES)}, not {named}"


def _card_row(regime: str) -> list[float]:
    """The figures docs/figures.md shows for a committed model, from its card, in the page's column order."""
    import json
    card = json.loads((CHECKOUT / "models" / f"{regime}.json").read_text(encoding="utf-8"))
    test = card["scores"]["test"]
    subsets = {name: entry["pearson"] for name, entry in test["subsets"].items()}
    if regime == "sts2012":
        return [*(subsets[n] for n in ("MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews")),
                test["all"], test["allnorm"], test["mean"]]
    if regime == "sts2013":
        return [*(subsets[n] for n in ("headlines", "OnWN", "FNWN")), test["mean"]]
    dev = re.search(r'"dev_pearson": ([0-9.]+)', json.dumps(card))
    return [float(dev.group(1)), subsets["sts-test"]]


@pytest.mark.parametrize("regime", ["sts2012", "sts2013", "stsb"])
def test_the_reference_figures_are_the_cards(regime):
    """The page shows each committed model's card, rounded as the papers print; tests/test_regression.py holds the
    cards to the models' predictions."""
    page = (CHECKOUT / "docs" / "figures.md").read_text(encoding="utf-8")
    (row,) = [line for line in page.splitlines() if line.startswith(f"| regression, `{regime}` regime")]
    shown = [cell.strip() for cell in row.strip("|").split("|")[1:]]
    assert shown == [f"{value:.4f}".lstrip("0") for value in _card_row(regime)], row


def test_the_readme_is_a_front_door_and_no_page_is_a_log():
    """Issue 34: the README under 300 lines; no dated line in it or the docs (measurements live in
    benchmarks/RESULTS.md, with their dates), and every test file or script they name exists."""
    assert len((CHECKOUT / "README.md").read_text(encoding="utf-8").splitlines()) < 300
    for page in DOC_PAGES:
        text = (CHECKOUT / page).read_text(encoding="utf-8")
        assert not re.findall(r"\b20\d\d-\d\d-\d\d\b", text), f"{page} holds a dated line"
        for named in re.findall(r"\b(?:tests|benchmarks)/[\w/]+\.(?:py|md)\b", text):
            assert (CHECKOUT / named).is_file(), f"{page} names {named}, which does not exist"
