"""Shared fixtures: the official data root (``STS_DATA``) and helpers to write small files."""
from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import pytest

from semsts.corpora import manifest

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
    """Each test gets its own embedding cache: a user's cache never feeds (or is fed by) a test."""
    from semsts.features import embedding_cache
    folder = tmp_path / "embedding-cache"
    monkeypatch.setattr(embedding_cache, "cache_folder", lambda: folder)
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
