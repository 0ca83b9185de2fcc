"""Size limits on a ``.skops`` file (a zip), checked before skops reads it (:func:`load_skops`).

The zip's directory is checked first (entry count, declared sizes, compression ratio, method); then each entry
is read in one bounded step to at most its declared size (``ZipExtFile.read(n)`` unpacks at most ``n`` bytes,
and checks the CRC where it stops) into a stored copy that ``skops.io.load`` reads: an entry that holds more
than it declares fails its CRC instead of unpacking whole (``ZipFile.read`` would unpack all of it first, as
skops's own reading does). Only skops's public API is used. The bounds are a few times the largest committed
model's (``models/sts2013.skops``: 20 MB, 2,256 entries, 73 MB unpacked, a 16 MB schema, a ratio of 228 to 1).
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from semsts.core.errors import shown
from semsts.core.files import too_large

from .model_card import ModelMismatch

MAX_FILE_BYTES = 128 << 20  # the file itself, before it is hashed
MAX_ENTRIES = 10_000
MAX_UNPACKED_BYTES = 256 << 20  # all entries together (each entry too)
MAX_SCHEMA_BYTES = 64 << 20
MAX_RATIO, RATIO_FROM = 1000, 1 << 20  # unpacked / packed, for entries that unpack to more than RATIO_FROM


def check_file_size(path: Path) -> None:
    if why := too_large(path, MAX_FILE_BYTES, "a model file"):
        raise ModelMismatch(f"{path}: {why}")


def check_archive(path, archive: zipfile.ZipFile) -> None:
    """Refuse the zip ``archive`` (of ``path``) if its directory declares more entries, bytes or compression than a
    model's, or one name twice."""
    entries = archive.infolist()
    if len({entry.filename for entry in entries}) != len(entries):
        raise ModelMismatch(f"{path}: a zip naming an entry twice; refused")
    if len(entries) > MAX_ENTRIES:
        raise ModelMismatch(f"{path}: a zip of {len(entries):,} entries (a model file has at most {MAX_ENTRIES:,}); refused")
    total = 0
    for entry in entries:
        if entry.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):  # bzip2 and lzma unpack unbounded
            raise ModelMismatch(f"{path}: entry {entry.filename[:80]!r} is compressed with method {entry.compress_type} "
                                 "(a model file's are stored or deflated); refused without unpacking it")
        size, packed = entry.file_size, max(entry.compress_size, 1)
        total += size
        limit = MAX_SCHEMA_BYTES if entry.filename == "schema.json" else MAX_UNPACKED_BYTES
        if size > limit or total > MAX_UNPACKED_BYTES:
            raise ModelMismatch(f"{path}: entry {entry.filename[:80]!r} unpacks to {size:,} bytes ({total:,} so far; a model "
                                 f"file's schema.json holds at most {MAX_SCHEMA_BYTES:,}, all its entries "
                                 f"{MAX_UNPACKED_BYTES:,}); refused without unpacking it")
        if size > RATIO_FROM and size / packed > MAX_RATIO:
            raise ModelMismatch(f"{path}: entry {entry.filename[:80]!r} is compressed {size / packed:,.0f} to 1 (a model file's "
                                 f"are at most {MAX_RATIO:,} to 1): a zip bomb? refused without unpacking it")


def load_skops(path: Path, trusted: list):
    """``skops.io.load`` of ``path`` with ``trusted`` (skops refuses any other type or function before it builds
    anything), after :func:`check_archive`, from a copy of its entries each read to at most its declared size.
    Anything wrong is a ModelMismatch naming the file: a zip beyond the bounds, an untrusted type, damage."""
    import skops.io
    from skops.io.exceptions import UntrustedTypesFoundException
    copy = io.BytesIO()
    try:
        with zipfile.ZipFile(path) as archive, zipfile.ZipFile(copy, "w", zipfile.ZIP_STORED) as stored:
            check_archive(path, archive)
            for entry in archive.infolist():  # a bounded read: one that holds more than it declares fails its CRC
                with archive.open(entry) as handle:
                    stored.writestr(entry.filename, handle.read(entry.file_size))
        return skops.io.load(copy, trusted=trusted)
    except ModelMismatch:
        raise
    except UntrustedTypesFoundException:
        unexpected = sorted(set(skops.io.get_untrusted_types(data=copy.getvalue())) - set(trusted))
        raise ModelMismatch(f"{path}: names types or functions a model never holds ({shown(', '.join(unexpected), 200)}); "
                            "refused without loading anything from it") from None
    except Exception as exc:  # a cut, flipped or foreign file: zip, JSON or schema errors of any kind
        raise ModelMismatch(f"{path}: not a readable .skops model file ({type(exc).__name__}: {shown(exc, 120)})") from None
