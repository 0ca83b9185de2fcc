"""Write a model file and its card as one: both replaced, or neither, whenever the process dies.

A save first claims a journal ``.NAME.TOKEN.sts-save`` (created exclusively, naming its process),
writes ``.NAME.TOKEN.model.tmp`` and ``.NAME.TOKEN.card.tmp`` whole, marks the journal committed,
renames both temporaries into place and removes the journal. Whoever finds a journal whose process
is gone finishes it: a committed one is rolled forward (both renames), an uncommitted one has its
temporaries removed. Only files named by such a journal are ever touched, so a user's own files and
a concurrent save (its process alive) are left alone.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import stat
import warnings
from pathlib import Path
from typing import Callable

from semsts.corpora.errors import Note

SUFFIX = ".sts-save"


def _temps(journal: Path) -> tuple[Path, Path]:
    stem = journal.name[:-len(SUFFIX)]
    return journal.with_name(f"{stem}.model.tmp"), journal.with_name(f"{stem}.card.tmp")


def _alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def _read_journal(journal: Path) -> dict | None:
    """The journal's entry, or None for one cut short (its process died writing it) or not ours."""
    if not _is_regular(journal) or os.lstat(journal).st_size > 4096:
        return None
    try:
        entry = json.loads(journal.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return entry if isinstance(entry, dict) else {}


def _journals(folder: Path, model_name: str | None = None):
    prefix = f".{model_name}." if model_name else "."
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    # only names a save makes: .MODEL.TOKEN.sts-save, TOKEN eight hex digits
    return sorted(folder / n for n in names if n.startswith(prefix) and _JOURNAL.fullmatch(n))


_JOURNAL = re.compile(r"\..+\.[0-9a-f]{8}" + re.escape(SUFFIX))


def recover(folder: Path, model_name: str | None = None, *, leftovers: bool = True) -> list[str]:
    """Finish the interrupted saves in ``folder`` (of ``model_name`` only, if given): roll committed ones
    forward and, with ``leftovers``, remove the temporaries of the others; what was done, one line each."""
    done = []
    for journal in _journals(Path(folder), model_name):
        entry = _read_journal(journal)
        if entry is None or _alive(entry.get("pid")):
            continue  # not a regular file, or a save still running
        committed = entry.get("state") == "committed"
        if not (committed or leftovers):
            continue
        model_tmp, card_tmp = _temps(journal)
        target = entry.get("model")
        if committed and isinstance(target, str) and "/" not in target and target:
            model = journal.with_name(target)
            if _is_regular(model_tmp):
                os.replace(model_tmp, model)
            if _is_regular(card_tmp):
                os.replace(card_tmp, model.with_suffix(".json"))
            done.append(f"{model}: finished a save that was interrupted between its renames")
        else:
            for tmp in (model_tmp, card_tmp):
                if _is_regular(tmp):
                    tmp.unlink()
            done.append(f"{folder}: removed the leftovers of an interrupted save ({journal.name})")
        journal.unlink()
    return done


def _write_journal(journal: Path, entry: dict, *, create: bool) -> None:
    data = json.dumps(entry).encode()
    if create:
        fd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        return
    tmp = journal.with_name(journal.name + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, journal)


def _mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def save_pair(path: Path, write_model: Callable[[Path], None], make_card: Callable[[Path], bytes]) -> None:
    """Write ``path`` with ``write_model(tmp)`` and its card ``path.with_suffix('.json')`` with
    ``make_card(model_tmp)`` (it may hash the model), replacing both or neither."""
    path = Path(path)
    for line in recover(path.parent):
        warnings.warn(Note(line), stacklevel=2)
    journal = path.with_name(f".{path.name}.{secrets.token_hex(4)}{SUFFIX}")
    _write_journal(journal, {"pid": os.getpid(), "model": path.name, "state": "writing"}, create=True)
    model_tmp, card_tmp = _temps(journal)
    try:
        write_model(model_tmp)
        card = make_card(model_tmp)
        with open(card_tmp, "wb") as handle:
            handle.write(card)
            handle.flush()
            os.fsync(handle.fileno())
        for tmp in (model_tmp, card_tmp):
            os.chmod(tmp, _mode())
        if path.with_suffix(".json").is_dir():
            raise IsADirectoryError(f"{path.with_suffix('.json')}: a folder has the card's name")
        _write_journal(journal, {"pid": os.getpid(), "model": path.name, "state": "committed"}, create=False)
    except BaseException:
        for tmp in (model_tmp, card_tmp, journal):
            if _is_regular(tmp):
                tmp.unlink()
        raise
    os.replace(model_tmp, path)  # from here on, a death is rolled forward by the next save or load
    os.replace(card_tmp, path.with_suffix(".json"))
    journal.unlink()
