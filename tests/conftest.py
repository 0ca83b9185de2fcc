"""Shared fixtures: the official data root (``STS_DATA``) and helpers to write small files."""
from __future__ import annotations

import functools
import http.server
import os
import threading
from pathlib import Path

import pytest

from corpora import manifest

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
