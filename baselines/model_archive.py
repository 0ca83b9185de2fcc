"""Size limits on a ``.skops`` file (a zip), checked before skops reads anything from it.

A zip's central directory declares each entry's size, and Python's :mod:`zipfile` decompresses an entry to
at most that size (then fails its CRC), so bounding the declared sizes bounds what skops can make a load
decompress, however the entries or the local headers lie. The bounds are a few times the largest
committed model's (``models/sts2013.skops``: 20 MB, 2,256 entries, 73 MB unpacked, a 16 MB schema, a
ratio of 228 to 1).
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

MAX_FILE_BYTES = 128 << 20  # the file itself, before it is hashed
MAX_ENTRIES = 10_000
MAX_UNPACKED_BYTES = 256 << 20  # all entries together (each entry too)
MAX_SCHEMA_BYTES = 64 << 20
MAX_RATIO, RATIO_FROM = 1000, 1 << 20  # unpacked / packed, for entries that unpack to more than RATIO_FROM


class ArchiveRefused(ValueError):
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
