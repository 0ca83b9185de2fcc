"""Crash-safe files: the one home of writing a file all at once (a temporary beside it, written, synced, renamed
into place), of the mode a new file gets, of asking whether a path is a regular file, and of the record that says
what the tool wrote in a folder."""
from __future__ import annotations

import json
import os
import re
import stat
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from .errors import InvalidValue, shown

_TAG: ContextVar[str | None] = ContextVar("temp_tag", default=None)
MAX_NAME = 255 - 14  # bytes of a file name atomic_open writes: a file system's 255, less its temporary's ".….TAG.tmp"


@contextmanager
def tagged_temps(tag: str):
    """Within the block, temporary files are named ``.NAME.TAG.tmp``, so that whoever recorded ``tag`` (a run
    record) can later prove which leftovers are its own."""
    token = _TAG.set(tag)
    try:
        yield
    finally:
        _TAG.reset(token)


def new_file_mode() -> int:
    """The mode ``open()`` gives a new file under the process's umask (a temporary made 0600 is given it)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def not_regular(path, *, follow: bool = False) -> str | None:
    """Why ``path`` is no regular file, in words (``is a FIFO (named pipe), not a regular file``, ``no such file`` …),
    None when it is one. Asked without opening it, so a FIFO (a reader would wait on it for ever) or a device is
    never opened; a link is what it leads to with ``follow``, else no regular file."""
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except FileNotFoundError:
        return "a link to nothing (dangling)" if os.path.islink(path) else "no such file"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISREG(mode):
        return None
    what = ("a folder" if stat.S_ISDIR(mode) else "a link" if stat.S_ISLNK(mode)
            else "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a device or socket")
    return f"is {what}, not a regular file"


# A file someone else made (a dataset's, a system's output, a card, a record) is read whole only up to a bound: this
# one for data, 46 times the largest official file (STS 2016's postediting input, 1.4 MB; MTEB's largest, STS22's
# German split, 2.2 million characters), and a bound on what reading takes (short lines cost ~30 times their bytes).
MAX_DATA_BYTES = 64 << 20


def too_large(path, limit: int = MAX_DATA_BYTES, what: str = "a data file") -> str | None:
    """Why the file ``path`` is not read, in words (its size, more than ``what`` holds, and ``limit``), None when it
    holds at most ``limit`` bytes: asked before it is read, so that no reader takes an untrusted file whole."""
    size = os.stat(path).st_size
    return f"{size:,} bytes, more than {what} holds (at most {limit:,}); refused" if size > limit else None


def is_regular(path) -> bool:
    """Whether ``path`` is a regular file, itself: a link (even to a regular file) is not followed; False if absent."""
    return not_regular(path) is None


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
    contents are on the disk); a name longer than :data:`MAX_NAME` bytes is an InvalidValue saying so."""
    path = Path(path)
    if len(os.fsencode(path.name)) > MAX_NAME:
        raise InvalidValue(f"{os.path.join(path.parent, shown(path.name))}: a file name of "
                           f"{len(os.fsencode(path.name)):,} bytes; a file written here has at most {MAX_NAME}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tag = _TAG.get()
    if tag:
        tmp = str(path.with_name(f".{path.name}.{tag}.tmp"))
        fd = create_new(tmp)
    else:
        import tempfile  # here: the scorer's plain path (scoring.plain_files) imports this module, and starts fast
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


# --- A folder this tool wrote: a small JSON record in it names the files the tool wrote there and the tag its
# temporaries carry (:func:`tagged_temps`). Before replacing or removing a file, the tool asks the record: what it
# does not name (a user's file beside them) is kept.

MAX_RECORD_BYTES = 16 << 20
_TAG_FORM = re.compile(r"[0-9a-f]{8}")


def new_tag() -> str:
    """A tag for one writer's temporaries, to be recorded before it writes (see :func:`remove_temps`)."""
    import secrets
    return secrets.token_hex(4)


def read_record(path) -> dict | list | None:
    """The JSON a record file holds, None when there is none; a ValueError saying why it is none. A record may come
    with files someone else wrote (a run folder to score): it is never waited on (a FIFO) nor read unbounded."""
    if not os.path.lexists(path):
        return None
    why = not_regular(path)
    if why:
        raise ValueError(f"{why}; refused")
    if why := too_large(path, MAX_RECORD_BYTES, "a record"):
        raise ValueError(why)
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except RecursionError:
        raise ValueError("nested too deeply to be a record") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"not readable JSON ({str(exc)[:100]})") from None


def remove_temps(folder, tag) -> list[Path]:
    """Remove the temporaries ``.NAME.TAG.tmp`` of the writer that recorded ``tag`` in ``folder`` (a killed one's);
    the paths removed. Nothing else is: not a user's ``.X.tmp``, nor another writer's."""
    if not (isinstance(tag, str) and _TAG_FORM.fullmatch(tag)):
        return []
    removed = []
    for path in sorted(Path(folder).glob(f".*.{tag}.tmp")):
        if is_regular(path):
            path.unlink()
            removed.append(path)
    return removed


def as_recorded(folder, name, sha) -> bool:
    """Whether ``folder/name`` is what a record says the tool wrote there: ``name`` a plain file name (no folder, no
    ``..``), the file a regular one whose SHA-256 is ``sha``. A name read from a record is trusted no further."""
    return (isinstance(name, str) and isinstance(sha, str) and name not in ("", ".", "..") and Path(name).name == name
            and is_regular(Path(folder) / name) and sha256_of_file(Path(folder) / name) == sha)


def not_recorded(folder, names, recorded: dict) -> list[str]:
    """Those of ``names`` (the tool's own file names) that ``folder`` holds and are not what ``recorded`` (name ->
    SHA-256, as a record says the tool wrote them) says: replacing one would lose a file the tool did not write."""
    return [n for n in names if os.path.lexists(Path(folder) / n) and not as_recorded(folder, n, recorded.get(n))]


def remove_listed(folder, recorded: dict) -> None:
    """Remove the files of ``folder`` that ``recorded`` (name -> SHA-256) names, each only if it is what the record
    says (:func:`as_recorded`): a file changed since, or a name no writer of the tool gives, is kept."""
    for name, sha in recorded.items():
        if as_recorded(folder, name, sha):
            (Path(folder) / name).unlink()


def sha256_of_file(path) -> str:
    """The SHA-256 of the file ``path``, in hex (the one home of a file's checksum)."""
    import hashlib
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
