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
    chosen = data_dir or os.environ.get(ENV_VAR)
    return Path(chosen).expanduser() if chosen else cache_root() / "data"


def root_rule(data_dir=None) -> str:
    """How :func:`data_root` chose its folder, in words, for messages about a missing data root."""
    def relative(text) -> str:
        return ("" if os.path.isabs(os.path.expanduser(str(text)))
                else f", a relative path resolved against the current folder {os.getcwd()}")
    if data_dir:
        return f"from --data-dir {data_dir}{relative(data_dir)}"
    env = os.environ.get(ENV_VAR)
    if env:
        return f"from ${ENV_VAR}={env}{relative(env)}"
    return f"the per-user cache, as neither --data-dir nor ${ENV_VAR} is set"


def missing_root(data_dir=None) -> str | None:
    """A sentence naming the data root and how it was resolved when it does not exist, else None."""
    root = data_root(data_dir)
    if root.is_dir():
        return None
    return f"the data root {root} does not exist ({root_rule(data_dir)})"


def demo_root() -> Path:
    """The small CC BY-SA demo dataset shipped inside the package."""
    return Path(__file__).resolve().parent / "demo"
