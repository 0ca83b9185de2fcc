"""Size limits on a ``.skops`` file (a zip): its directory checked before skops reads anything from it, and
every entry read in bounded steps to at most the size the directory declares (:func:`load_skops`).

(:meth:`zipfile.ZipFile.read` decompresses all of an entry's compressed bytes at once and cuts the result to
the declared size only afterwards: a 2 MB entry declared as 100 bytes takes 2 GB on its way to a CRC error.)
The bounds are a few times the largest committed model's (``models/sts2013.skops``: 20 MB, 2,256 entries,
73 MB unpacked, a 16 MB schema, a ratio of 228 to 1).
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

from semsts.core.errors import STSError, Unavailable

MAX_FILE_BYTES = 128 << 20  # the file itself, before it is hashed
MAX_ENTRIES = 10_000
MAX_UNPACKED_BYTES = 256 << 20  # all entries together (each entry too)
MAX_SCHEMA_BYTES = 64 << 20
MAX_RATIO, RATIO_FROM = 1000, 1 << 20  # unpacked / packed, for entries that unpack to more than RATIO_FROM


class ArchiveRefused(ValueError, STSError):
    """The file is not a zip within the bounds a model file keeps to (the message names no file)."""


def check_file_size(path: Path) -> None:
    size = os.stat(path).st_size
    if size > MAX_FILE_BYTES:
        raise ArchiveRefused(f"{size:,} bytes, more than a model file holds (at most {MAX_FILE_BYTES:,}); refused")


def check_archive(path: Path) -> None:
    """Refuse a file whose zip directory declares more entries, bytes or compression than a model's."""
    try:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise ArchiveRefused(f"not a zip archive ({type(exc).__name__}: {str(exc)[:120]})") from None
    if len(entries) > MAX_ENTRIES:
        raise ArchiveRefused(f"a zip of {len(entries):,} entries (a model file has at most {MAX_ENTRIES:,}); refused")
    total = 0
    for entry in entries:
        if entry.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):  # bzip2 and lzma unpack unbounded
            raise ArchiveRefused(f"entry {entry.filename[:80]!r} is compressed with method {entry.compress_type} "
                                 "(a model file's are stored or deflated); refused without unpacking it")
        size, packed = entry.file_size, max(entry.compress_size, 1)
        total += size
        limit = MAX_SCHEMA_BYTES if entry.filename == "schema.json" else MAX_UNPACKED_BYTES
        if size > limit or total > MAX_UNPACKED_BYTES:
            raise ArchiveRefused(f"entry {entry.filename[:80]!r} unpacks to {size:,} bytes ({total:,} so far; a model "
                                 f"file's schema.json holds at most {MAX_SCHEMA_BYTES:,}, all its entries "
                                 f"{MAX_UNPACKED_BYTES:,}); refused without unpacking it")
        if size > RATIO_FROM and size / packed > MAX_RATIO:
            raise ArchiveRefused(f"entry {entry.filename[:80]!r} is compressed {size / packed:,.0f} to 1 (a model file's "
                                 f"are at most {MAX_RATIO:,} to 1): a zip bomb? refused without unpacking it")


class _CappedZip(zipfile.ZipFile):
    """A zip whose entries are read to at most their declared size, in steps no larger (an entry that holds more
    ends there and fails its CRC check)."""

    def read(self, name, pwd=None) -> bytes:
        info = name if isinstance(name, zipfile.ZipInfo) else self.getinfo(name)
        with self.open(info, pwd=pwd) as handle:
            data = handle.read(info.file_size)
            if handle.read(1):  # more than declared: ZipExtFile stops at the declared size, so never here
                raise zipfile.BadZipFile(f"entry {info.filename[:80]!r} holds more than it declares")
        return data


def load_skops(path: Path, trusted: list):
    """``skops.io.load(path, trusted=trusted)`` after :func:`check_archive`, its entries read by :class:`_CappedZip`.

    skops's own steps (read the schema, build the node tree, audit it against ``trusted``, construct), which
    ``skops.io.load`` runs on a plain ZipFile. Raises skops's ``UntrustedTypesFoundException`` with the types
    that are neither its defaults nor ``trusted`` as its ``unexpected`` attribute."""
    from skops.io.exceptions import UntrustedTypesFoundException
    try:
        from skops.io._audit import audit_tree, get_tree
        from skops.io._utils import read_schema
    except ImportError as exc:  # skops moved its steps: say what to install, not that the file is damaged
        from importlib.metadata import version
        raise Unavailable(f"skops {version('skops')} does not have the loading steps this suite bounds ({exc}); "
                          "install the skops version pyproject.toml names") from None
    check_archive(path)
    with _CappedZip(path) as archive:
        schema, context = read_schema(archive)
        tree = get_tree(schema, context, trusted=trusted)
        try:
            audit_tree(tree, trusted=trusted)
        except UntrustedTypesFoundException as exc:
            exc.unexpected = sorted(set(tree.get_unsafe_set()) - set(trusted))
            raise
        return tree.construct()
