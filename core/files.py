"""Crash-safe files: the one home of writing a file all at once (a temporary beside it, written, synced, renamed
into place), of the mode a new file gets, and of asking whether a path is a regular file without following links."""
from __future__ import annotations

import os
import stat
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


def new_file_mode() -> int:
    """The mode ``open()`` gives a new file under the process's umask (a temporary made 0600 is given it)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def is_regular(path) -> bool:
    """Whether ``path`` is a regular file, itself: a link (even to a regular file) is not followed; False if absent."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def open_unfollowed(path) -> int:
    """A descriptor of ``path`` opened for reading, never through a link (ELOOP) nor waiting on a FIFO or device:
    whoever opens it checks with ``os.fstat`` that it is the regular file it wants."""
    return os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))


def create_new(path, mode: int = 0o600) -> int:
    """A descriptor of ``path`` opened for writing, created by this call (FileExistsError if anything is there,
    a link included: none is followed)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)


@contextmanager
def atomic_open(path, mode: str = "w", encoding: str | None = "utf-8", *, sync: bool = False):
    """Open a temporary file next to ``path``; rename it over ``path`` only on success (with ``sync``, once its
    contents are on the disk)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tag = _TAG.get()
    if tag:
        tmp = str(tagged_temp(path, tag))
        fd = create_new(tmp)
    else:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, new_file_mode())  # mkstemp makes 0600; give the file the mode open() would
        kwargs = {} if "b" in mode else {"encoding": encoding, "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_text_atomic(path, text: str) -> None:
    with atomic_open(path) as handle:
        handle.write(text)


def missing_folders(folder) -> list[Path]:
    """The folders that making ``folder`` with its parents would create, deepest first (none if it exists)."""
    folder, missing = Path(folder), []
    while not folder.exists() and not folder.is_symlink() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def remove_empty(folders) -> None:
    """Remove ``folders`` (deepest first, as :func:`missing_folders` lists them) while they are empty: a command that
    created them and failed leaves nothing behind; one that now holds anything stays, and so do its parents."""
    for folder in folders:
        try:
            folder.rmdir()
        except FileNotFoundError:  # gone already
            continue
        except OSError:
            return
