"""Write a model file and its card as one: both replaced, or neither, whenever the process dies.

A save first claims a journal ``.NAME.TOKEN.sts-save`` (created exclusively, naming its process),
writes ``.NAME.TOKEN.model.tmp`` and ``.NAME.TOKEN.card.tmp`` whole, marks the journal committed,
renames both temporaries into place and removes the journal. Whoever finds a journal whose process
is gone finishes it: a committed one is rolled forward (both renames), an uncommitted one has its
temporaries removed. A journal only ever touches the files its own name implies (``NAME``, a
``.skops`` file, its card ``NAME`` with ``.json`` and its two temporaries), and is rolled forward only
when its card temporary is a card naming the SHA-256 of the model it goes with; any other journal
(forged, damaged, its contents naming another file) is left alone with a note. A save that fails
removes its journal and temporaries.
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

from semsts.core.errors import InvalidValue, Note, WriteFailed, shown
from semsts.core.files import atomic_open, is_regular, new_file_mode, open_unfollowed, write_new
from semsts.corpora.derived_cache import file_sha256

from .model_card import CARD_FIELDS, MAX_CARD_BYTES

SUFFIX = ".sts-save"
MODEL_SUFFIX = ".skops"
MAX_JOURNAL_BYTES = 4096
# only names a save makes: .NAME.TOKEN.sts-save, NAME a model file's name, TOKEN eight hex digits
_JOURNAL = re.compile(r"\.(.+" + re.escape(MODEL_SUFFIX) + r")\.[0-9a-f]{8}" + re.escape(SUFFIX))


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


def _read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (not followed if a link) of at most ``limit`` bytes, else None."""
    try:
        fd = open_unfollowed(path)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        data = handle.read(limit + 1)
    return data if len(data) <= limit else None


def _json_object(path: Path, limit: int) -> dict | None:
    data = _read_regular(path, limit)
    try:
        entry = json.loads(data) if data is not None else None
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None


def _read_journal(journal: Path, name: str) -> dict | None:
    """The journal's entry if it is one a save of ``name`` writes (else None: forged, damaged or cut short)."""
    entry = _json_object(journal, MAX_JOURNAL_BYTES)
    if entry is None or entry.get("model") != name or entry.get("state") not in ("writing", "committed"):
        return None
    return entry if isinstance(entry.get("pid"), int) else None


def _card_sha256(path: Path) -> str | None:
    """The ``sha256`` of the model card at ``path`` (a JSON object with the fields every card has), else None."""
    card = _json_object(path, MAX_CARD_BYTES)
    if not card or not all(isinstance(card.get(field), kind) for field, kind in CARD_FIELDS.items()):
        return None
    return card["sha256"] if re.fullmatch(r"[0-9a-f]{64}", card["sha256"]) else None


def _pair_is_ours(card_tmp: Path, model: Path) -> bool:
    """Whether ``card_tmp`` is a model card whose ``sha256`` is that of the regular file ``model``."""
    expected = _card_sha256(card_tmp)
    return expected is not None and is_regular(model) and file_sha256(model) == expected


def _replaceable(path: Path, card: bool) -> bool:
    """Whether a rename may put a file at ``path``: nothing there, or a regular file a save writes there (for a
    card, a model card): a user's own ``NAME.json`` beside no model is never replaced."""
    if not os.path.lexists(path):
        return True
    return is_regular(path) and (not card or _card_sha256(path) is not None)


def _journals(folder: Path, model_name: str | None = None):
    prefix = f".{model_name}." if model_name else "."
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(folder / n for n in names if n.startswith(prefix) and _JOURNAL.fullmatch(n))


def recover(folder: Path, model_name: str | None = None, *, leftovers: bool = True) -> list[str]:
    """Finish the interrupted saves in ``folder`` (of ``model_name`` only, if given): roll committed ones
    forward and, with ``leftovers``, remove the temporaries of the others; what was done, one line each."""
    done = []
    for journal in _journals(Path(folder), model_name):
        try:
            line = _finish(journal, leftovers)
        except OSError as exc:  # a folder where a file goes, a read-only folder: the journal stays
            line = f"{journal}: an interrupted save could not be finished ({exc.strerror or exc}); left as it is"
        if line:  # a file name in the folder is shown escaped, as any value read from a file
            done.append(shown(line, 1000))
    return done


def _finish(journal: Path, leftovers: bool) -> str | None:
    name = _JOURNAL.fullmatch(journal.name).group(1)
    entry = _read_journal(journal, name)
    left_alone = f"{journal}: not a save journal of {name} this suite wrote; left alone (nothing was changed)"
    if entry is None:
        return left_alone
    if _alive(entry["pid"]):
        return None  # a save still running
    committed = entry["state"] == "committed"
    if not (committed or leftovers):
        return None
    model_tmp, card_tmp = _temps(journal)
    model = journal.with_name(name)
    card = model.with_name(name[:-len(MODEL_SUFFIX)] + ".json")
    temps = [tmp for tmp in (model_tmp, card_tmp) if os.path.lexists(tmp)]
    if not all(is_regular(tmp) for tmp in temps):
        return left_alone
    if not committed:
        for tmp in temps:
            tmp.unlink()
        journal.unlink()
        return f"{journal.parent}: removed the leftovers of an interrupted save ({journal.name})"
    # committed: the card temporary (if not yet renamed) must name the model it goes with, the model temporary
    # (if not yet renamed) or the model file (if it already was); a model temporary without its card is not a save's
    if temps and not (os.path.lexists(card_tmp) and _pair_is_ours(card_tmp, model_tmp if temps == [model_tmp, card_tmp] else model)):
        return left_alone
    if not (_replaceable(model, card=False) and _replaceable(card, card=True)):
        return left_alone
    if os.path.lexists(model_tmp):
        os.replace(model_tmp, model)
    if os.path.lexists(card_tmp):
        os.replace(card_tmp, card)
    journal.unlink()
    return f"{model}: finished a save that was interrupted between its renames"


def _create_journal(journal: Path, entry: dict) -> None:
    """Claim ``journal`` (exclusively); if its writing fails, it is removed again."""
    write_new(journal, json.dumps(entry).encode(), 0o644)


def _commit_journal(journal: Path, entry: dict) -> None:
    with atomic_open(journal, "wb", sync=True) as handle:  # a failure removes its own temporary
        handle.write(json.dumps(entry).encode())


def save_pair(path: Path, write_model: Callable[[Path], None], make_card: Callable[[Path], bytes]) -> None:
    """Write ``path`` (a ``.skops`` file) with ``write_model(tmp)`` and its card ``path.with_suffix('.json')``
    with ``make_card(model_tmp)`` (it may hash the model), replacing both or neither."""
    path = Path(path)
    if path.suffix != MODEL_SUFFIX:
        raise InvalidValue(f"{path}: a model file's name ends in {MODEL_SUFFIX}")
    for line in recover(path.parent, path.name):  # this model's interrupted saves, no other file's
        warnings.warn(Note(line), stacklevel=2)
    journal = path.with_name(f".{path.name}.{secrets.token_hex(4)}{SUFFIX}")
    entry = {"pid": os.getpid(), "model": path.name, "state": "writing"}
    try:
        _create_journal(journal, entry)
    except OSError as exc:
        raise _failed(exc, path) from None
    model_tmp, card_tmp = _temps(journal)
    try:
        write_model(model_tmp)
        card = make_card(model_tmp)
        write_new(card_tmp, card)
        for tmp in (model_tmp, card_tmp):
            os.chmod(tmp, new_file_mode())
        if path.with_suffix(".json").is_dir():
            raise IsADirectoryError(f"{path.with_suffix('.json')}: a folder has the card's name")
        _commit_journal(journal, {**entry, "state": "committed"})
        os.replace(model_tmp, path)  # from here on, a death is rolled forward by the next save or load
    except BaseException as exc:
        for tmp in (model_tmp, card_tmp, journal):
            if is_regular(tmp):
                tmp.unlink()
        if isinstance(exc, OSError):
            raise _failed(exc, path) from None
        raise
    try:
        os.replace(card_tmp, path.with_suffix(".json"))
    except OSError as exc:  # the journal stays committed: the next save or load of the model puts the card in
        raise _failed(exc, path, renamed=True) from None
    journal.unlink()


def _failed(exc: OSError, path: Path, renamed: bool = False) -> OSError:
    """``exc`` (its errno) with one message that names the model file, e.g. on a full disk."""
    reason = exc.strerror or str(exc)
    failed = WriteFailed(f"{path}: saved, but its card could not be put beside it ({reason}); the next load or save "
                         "of the model puts it in" if renamed else
                         f"{path}: not saved ({reason}); the model file and its card are as they were")
    failed.errno = exc.errno
    return failed
