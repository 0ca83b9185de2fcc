"""Where datasets live: ``--data-dir`` beats ``STS_DATA`` beats a per-user cache folder."""
from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "STS_DATA"


def cache_root() -> Path:
    """The per-user cache folder (``$XDG_CACHE_HOME/sts`` or ``~/.cache/sts``; a relative XDG path is ignored)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sts"


def data_root(data_dir=None) -> Path:
    """Resolve the data root in the documented order of precedence."""
    if data_dir:
        return Path(data_dir).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return cache_root() / "data"


def demo_root() -> Path:
    """The small CC BY-SA demo dataset shipped inside the package."""
    return Path(__file__).resolve().parent / "demo"
