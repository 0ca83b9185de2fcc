"""Shared fixtures: the official data root (``STS_DATA``) and helpers to write small files."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

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
