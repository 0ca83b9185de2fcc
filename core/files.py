"""Write a file all at once: a temporary file beside it, then a rename."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_TAG: ContextVar[str | None] = ContextVar("temp_tag", default=None)


@contextmanager
def tagged_temps(tag: str):
    """Within the block, temporary files are named ``.NAME.TAG.tmp``, so that whoever recorded ``tag`` (a run
    record) can later prove which leftovers are its own."""
    token = _TAG.set(tag)
    try:
        yield
    finally:
        _TAG.reset(token)


def tagged_temp(path, tag: str) -> Path:
    path = Path(path)
    return path.with_name(f".{path.name}.{tag}.tmp")


@contextmanager
def atomic_open(path, mode: str = "w", encoding: str | None = "utf-8"):
    """Open a temporary file next to ``path``; rename it over ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tag = _TAG.get()
    if tag:
        tmp = str(tagged_temp(path, tag))
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    else:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, _new_file_mode())  # mkstemp makes 0600; give the file the mode open() would
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _new_file_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_text_atomic(path, text: str) -> None:
    with atomic_open(path) as handle:
        handle.write(text)
