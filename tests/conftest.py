"""Shared fixtures: the official data root (``STS_DATA``) and helpers to write small files."""
from __future__ import annotations

import functools
import http.server
import json
import os
import random
import re
import threading
import zipfile
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from semsts import cli, corpora, data_cli
from semsts.baselines.model_card import card_path
from semsts.corpora import manifest, typed2013
from semsts.corpora.manifest import sha256

# absolute, so that a test that changes the current folder still finds it (CI sets a relative STS_DATA)
DATA = Path(os.environ.get("STS_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")).resolve()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The official data root; the reproduction tests need it and fail loudly without it."""
    assert (DATA / "sts2012" / "test").is_dir(), f"official data not found at {DATA}: set STS_DATA"
    return DATA


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture()
def server(tmp_path):
    """A directory served over HTTP on 127.0.0.1; yields (folder, base URL)."""
    folder = tmp_path / "served"
    folder.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield folder, f"http://127.0.0.1:{httpd.server_address[1]}/files"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def translate_path(self, path):
        return super().translate_path(path.replace("/files/", "/", 1))

    def log_message(self, *args):
        pass


@pytest.fixture()
def no_manifest(tmp_path, monkeypatch):
    """An empty manifest, for archives of made-up files under an official release's name."""
    path = tmp_path / "manifest.json"
    path.write_text('{"files": {}}')
    monkeypatch.setattr(manifest, "MANIFEST_PATH", path)


TOY_ENCODER = '''
import numpy as np
calls = []


def encode(texts):
    """Deterministic: character trigrams hashed into 16 dimensions; records each batch's size."""
    calls.append(len(texts))
    out = np.zeros((len(texts), 16))
    for i, t in enumerate(texts):
        t = f"  {t.lower()} "
        for j in range(len(t) - 2):
            out[i, sum(map(ord, t[j:j + 3])) % 16] += 1
    return out
'''


@pytest.fixture()
def toy_encoder(tmp_path, monkeypatch):
    """A user's encoder module ``toy_encoder:encode`` on ``sys.path`` (fresh for each test)."""
    import importlib
    import sys
    folder = tmp_path / "toy_encoder_pkg"
    write(folder / "toy_encoder.py", TOY_ENCODER)
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop("toy_encoder", None)
    yield importlib.import_module("toy_encoder")
    sys.modules.pop("toy_encoder", None)


@pytest.fixture(autouse=True)
def _embedding_cache(tmp_path, monkeypatch):
    """Each test gets its own embedding and pair-score caches: a user's cache never feeds (or is fed by) a test."""
    from semsts.features import embedding_cache, pair_score_cache
    folder = tmp_path / "embedding-cache"
    monkeypatch.setattr(embedding_cache, "cache_folder", lambda: folder)
    monkeypatch.setattr(pair_score_cache, "scores_folder", lambda: tmp_path / "pair-score-cache")
    return folder


MARKER_ENV = "STS_TEST_MARKER"  # where code a hostile file makes run would leave its mark


@pytest.fixture(scope="module")
def trained():
    """A small genuine model: an SVR over the takelab features of 40 demo pairs."""
    from semsts import corpora
    from semsts.baselines.regression import FeatureRegression
    from semsts.baselines.subset_models import SubsetModels
    train = corpora.load("demo-train")
    return SubsetModels({"all": FeatureRegression(feature_set="takelab", param_grid={"C": [1.0]}, cv=2)
                         .fit(train.pairs[:40], train.gold[:40])})


@pytest.fixture
def saved(tmp_path, trained):
    """``trained`` saved as ``m.skops`` with its card."""
    from semsts.baselines.model_file import save_model
    path = tmp_path / "m.skops"
    save_model(trained, path, {"regime": "test", "training_data": {"datasets": ["demo-train"]}})
    return path


@pytest.fixture
def marker(tmp_path, monkeypatch):
    """The file that code run against the user's wishes would create (``$STS_TEST_MARKER``)."""
    path = tmp_path / "MARKER"
    monkeypatch.setenv(MARKER_ENV, str(path))
    return path


def build_counter():
    """A derived cache's ``build`` (two small arrays) and the list its calls are counted in."""
    import numpy as np
    calls = []

    def build():
        calls.append(1)
        return {"vectors": np.arange(12, dtype=np.float32).reshape(3, 4), "vocabulary": np.asarray(["a", "b", "c"])}
    return build, calls


# --- Helpers shared by several test files (a test file imports them from here, never from another test file).

# Pairs of a learnable signal, written as the user's TSV, and the regression with a small feature set.
WORDS = "cat dog man woman car road sun sky tree river bird fish house city child ball".split()
# The regression system with a small feature set (no WordNet or vector families) so the test runs in seconds.
SMALL = ["--feature-set", "takelab", "--exclude", "wordnet", "--exclude", "gloss",
         "--exclude", "distributional", "--exclude", "embedding"]
SMALL_PARAMS = {"feature_set": "takelab", "exclude": ("wordnet", "gloss", "distributional", "embedding")}


def pairs_tsv(path, n: int, seed: int, *, scores: bool = True):
    """``n`` pairs sharing 0-5 of five words, scored by how many they share (a learnable signal)."""
    rng = random.Random(seed)
    lines = ["sentence1\tsentence2" + ("\tscore" if scores else "")]
    for _ in range(n):
        a = rng.sample(WORDS, 5)
        k = rng.randint(0, 5)
        b = a[:k] + rng.sample(WORDS, 5 - k)
        lines.append(f"a {' '.join(a)} .\tthe {' '.join(b)} ." + (f"\t{k:.1f}" if scores else ""))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# Archives and the `sts data` command line (tests/test_fetch.py, test_sick.py, test_cli.py).
ROW = "main-captions\timages\t2015\t{id:04d}\t{score}\tA dog runs.\tA dog is running.\n"


def make_zip(path: Path, members: dict) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return path


def stsb_members():
    return {f"stsbenchmark/sts-{split}.csv": "".join(ROW.format(id=i, score=i % 5) for i in range(n))
            for split, n in [("train", 5), ("dev", 3), ("test", 2)]}


def data_main(*argv):
    return data_cli.main([str(a) for a in argv])


def leftovers(root: Path) -> list:
    return [p.name for p in root.iterdir() if p.name.startswith(".fetch-")] if root.exists() else []


# A hostile model file and the error line it gets (tests/test_model_file.py, test_safety_model.py).
def replace_model(path, data: bytes):
    """Put ``data`` in the model file and make its card's SHA-256 match, as an attacker would."""
    path.write_bytes(data)
    card = json.loads(card_path(path).read_text())
    card["sha256"] = sha256(path)
    card_path(path).write_text(json.dumps(card))


def cli_error(capsys, path) -> str:
    """Run the saved model through `sts run` and `sts bench`: each ends with one error line."""
    lines = []
    for argv in (["run", "regression", "--model", str(path), "--test", "demo-test", "--out", str(path.parent / "o"),
                  "--quiet"], ["bench", "--model", str(path), "--datasets", "stsb-test", "--quiet"]):
        assert cli.main(argv) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: ") and str(path.with_suffix("")) in err[0], err
        lines.append(err[0])
    return lines[0]


# The fenced blocks of the README and the documentation (tests/test_docs_blocks.py runs them or finds the test that
# does; tests/test_readme_python.py, test_readme_demo.py, test_readme_bench.py and test_install.py read theirs here).
CHECKOUT = Path(__file__).resolve().parents[1]
DOC_PAGES = ("README.md", *sorted(f"docs/{p.name}" for p in (CHECKOUT / "docs").glob("*.md")))
_FENCE = re.compile(r"^( *)(```+|~~~+)\s*([^`\s]*)[^`]*$")
_HOW = re.compile(r"^\s*<!-- docs-test: (.+?) -->\s*$")


class DocBlock(NamedTuple):
    """One fenced block: its page, the line of its opening fence, its language, its text, and the words of the
    ``<!-- docs-test: … -->`` comment on the line before it (how it is tested; empty when there is none)."""
    page: str
    line: int
    lang: str
    text: str
    how: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def doc_blocks(page: str) -> list[DocBlock]:
    """Every fenced block of ``page`` (a path from the checkout's top folder), in order."""
    lines = (CHECKOUT / page).read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, lang = len(match.group(1)), match.group(2), match.group(3)
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == fence), None)
        assert end is not None, f"{page}:{i + 1}: a fenced block that never closes"
        how = _HOW.match(lines[i - 1]) if i else None
        text = "".join(line[indent:] + "\n" for line in lines[i + 1:end])
        blocks.append(DocBlock(page, i + 1, lang, text, tuple(how.group(1).split()) if how else ()))
        i = end + 1
    return blocks


def python_api_blocks() -> list[str]:
    """The Python API page's examples (docs/api.md), in order: one namespace runs them."""
    return [b.text for b in doc_blocks("docs/api.md") if b.lang == "python"]


# A dozen TYPED pairs of Europeana records with their gold (tests/test_typed2013_pipeline.py, test_typed2013_regression.py,
# benchmarks/byte_identity.py).
ADDR = "http://www.europeana.eu/portal/record/{}.html"

# (record id, record text): missing fields, a repeated field, non-ASCII text and an empty record
R = {
    "2022/leeds_1": "dcTitle:\tLeeds Town Hall\ndcCreator:\tSUTCLIFFE; Frank Meadow (1853-1941)\n"
                    "dcDate:\t1891\ndcSubject:\tarchitecture\ttown halls\ndcDescription:\tThe hall was built in 1858.\n",
    "2022/leeds_2": "dcTitle:\tBriggate, Leeds\ndcCreator:\tSUTCLIFFE; Frank Meadow (1853-1941)\n"
                    "dcDate:\tc. 1895\ndcSubject:\tstreets\ndcSubject:\tshops\n",
    "2022/york_1": "dcTitle:\tYork Minster from the walls\ndcDate:\t1890s\ndcSubject:\tarchitecture\tchurches\n"
                   "dcDescription:\tPhotograph by John Smith. The minster was restored in 1829.\n",
    "2022/coin": "dcTitle:\tRoman coin\ndcSubject:\tnumismatics\ndcDescription:\tA silver denarius found in Kent.\n"
                 "dcDate:\t2nd century\n",
    "2022/coin_2": "dcTitle:\tRoman coin hoard\ndcSubject:\tnumismatics\tarchaeology\n"
                   "dcDescription:\tCoins found near Colchester in 1965.\ndcSource:\tColchester Museums\n",
    "9200/øresund": "dcTitle:\tØresund ferry at Malmö — 1912\ndcCreator:\tLARSSON; Åke\ndcDate:\t1912\n"
                    "dcDescription:\tThe ferry sailed from Malmö to Copenhagen.\n",
    "9200/paris": "dcTitle:\tCafé in Paris, 1912\ndcCreator:\tATGET; Eugène (1857-1927)\ndcDate:\t1912\n"
                  "dcSubject:\tcafés\tstreets\n",
    "2022/empty": "",
    "2022/mill": "dcTitle:\tSalts Mill, Saltaire\ndcDescription:\tThe mill was built by Titus Salt in 1853.\n"
                 "dcSubject:\tindustry\ttextiles\ndcCreator:\tUnknown\n",
    "2022/mill_2": "dcTitle:\tWeavers at Salts Mill\ndcDescription:\tWorkers weaving cloth; Sir Titus Salt visited.\n"
                   "dcSubject:\ttextiles\ndcDate:\t1900-05\n",
    "2022/war": "dcTitle:\tSoldiers leaving Bradford\ndcDate:\t1914\ndcDescription:\tTroops marched to the station "
                "during the First World War.\ndcSubject:\tFirst World War\n",
    "2022/war_2": "dcTitle:\tRecruitment poster\ndcDate:\t1915\ndcSubject:\tFirst World War\tposters\n"
                  "dcCreator:\tParliamentary Recruiting Committee\n",
}
PAIRS = [("2022/leeds_1", "2022/leeds_2"), ("2022/leeds_1", "2022/york_1"), ("2022/coin", "2022/coin_2"),
         ("9200/øresund", "9200/paris"), ("2022/empty", "2022/mill"), ("2022/mill", "2022/mill_2"),
         ("2022/war", "2022/war_2"), ("2022/york_1", "2022/war"), ("9200/paris", "2022/leeds_2"),
         ("2022/coin", "2022/war_2"), ("2022/mill_2", "2022/leeds_1"), ("2022/war", "2022/war")]
GOLD = np.array([
    [4.2, 5.0, 4.0, 4.5, 4.8, 2.0, 2.5, 1.5], [3.0, 0.5, 1.0, 4.0, 2.0, 2.0, 3.5, 2.0],
    [4.5, 0.0, 0.5, 1.0, 2.5, 3.0, 4.8, 3.5], [2.5, 0.5, 0.5, 5.0, 1.0, 2.0, 2.0, 1.5],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [4.0, 1.0, 3.5, 3.0, 5.0, 3.5, 4.5, 3.0],
    [3.5, 0.5, 1.5, 4.5, 1.5, 3.0, 4.5, 2.5], [1.5, 0.0, 0.5, 2.0, 0.5, 1.0, 1.0, 1.0],
    [1.0, 0.0, 0.0, 3.0, 0.5, 0.5, 2.5, 0.5], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [1.5, 0.0, 0.5, 3.0, 3.0, 1.5, 1.0, 1.0], [5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0]])


@pytest.fixture
def typed_root(tmp_path):
    """A data root holding the dozen TYPED pairs in the official layout (typed2013/test)."""
    folder = tmp_path / "typed2013" / "test"
    write(folder / typed2013.INPUT_NAME, "".join(f"{ADDR.format(a)}\t{ADDR.format(b)}\n" for a, b in PAIRS))
    write(folder / typed2013.GOLD_NAME, "".join("\t".join(f"{v:g}" for v in row) + "\n" for row in GOLD))
    for number, pair in enumerate(PAIRS, 1):
        for side, rid in zip("ab", pair):
            write(folder / "text" / typed2013.record_filename(number, side, rid), R[rid].encode("utf-8"))
    return tmp_path


# --- Long texts made of the shipped demo sentences (tests/test_safety_long.py, tests/test_batched.py)


def demo_text(rng: random.Random, chars: int) -> str:
    """Demo sentences strung together up to ``chars`` characters (ordinary English, words repeating)."""
    pool = [s for pair in corpora.load("demo-train").pairs for s in pair]
    parts, size = [], 0
    while size < chars:
        parts.append(rng.choice(pool))
        size += len(parts[-1]) + 1
    return " ".join(parts)[:chars]


def paraphrased(rng: random.Random, chars: int) -> tuple[str, str]:
    """Two ``chars``-character sides, the second sharing about half of its sentences with the first."""
    demo = [tuple(p) for p in corpora.load("demo-train").pairs]
    a, b = [], []
    while sum(map(len, a)) < chars or sum(map(len, b)) < chars:
        s, t = rng.choice(demo)
        a.append(s)
        b.append(t if rng.random() < 0.5 else s if rng.random() < 0.5 else rng.choice(demo)[0])
    return " ".join(a)[:chars], " ".join(b)[:chars]
