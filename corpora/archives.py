"""A mirror's archive (zip, or tar compressed or not) extracted into a folder of its own: nothing written outside it
(tarfile's ``data`` filter; a zip member's path checked), plain files and folders only (the official releases hold
no link), at most a size budget in all and :data:`MAX_DEPTH` folders deep, and a damaged archive one FetchError
naming it."""
from __future__ import annotations

import gzip
import lzma
import tarfile
import zipfile
import zlib
from pathlib import Path

from semsts.core.errors import quote

from .sources import FetchError, mib

_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
HEADER = 512  # the bytes of a tar member's header: counted, so that a million empty members are bounded too
MAX_DEPTH = 32  # folders a member may lie in (the official releases: a few); thousands overflow Python's stack


def extract(archive, dest: Path, limit: int) -> int:
    """Extract a zip or tar(.gz) archive into ``dest`` (created); returns the bytes extracted.

    Refuses a member that would land outside ``dest``, a link or a device, and more than ``limit`` bytes in all
    (counted from the members' headers before anything is written).
    """
    archive = Path(archive)
    if not archive.is_file():
        raise FetchError(f"{archive}: no such archive file")
    dest.mkdir(parents=True)
    try:
        if zipfile.is_zipfile(archive):
            return _extract_zip(archive, dest, limit)
        return _extract_tar(archive, dest, limit)
    except tarfile.FilterError as exc:
        raise FetchError(f"{archive}: {exc}; refused") from None
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile, lzma.LZMAError) as exc:
        # one line: tarfile's error lists a reason per compression it tried, each on a line of its own
        reason = str(exc).splitlines()[0].rstrip(":") if str(exc).strip() else type(exc).__name__
        raise FetchError(f"{archive}: not a readable zip or tar archive ({reason}); an HTML page or a cut "
                         "download?") from None


def _count(archive: Path, name: str, total: int, limit: int) -> None:
    depth = name.replace("\\", "/").strip("/").count("/")
    if depth > MAX_DEPTH:
        raise FetchError(f"{archive}: member {quote(name)} lies {depth:,} folders deep, more than an official "
                         f"release's (at most {MAX_DEPTH}); refused")
    if total > limit:
        raise FetchError(f"{archive}: expands to more than {mib(limit)} (at {quote(name)}), far more than the "
                         "release needs; refused")


def _extract_zip(archive: Path, dest: Path, limit: int) -> int:
    """zipfile writes a member at most as long as its header says, a link as a plain file, and strips a path's
    ``..``: the names are checked so that such an archive is refused by name, not silently rearranged."""
    with zipfile.ZipFile(archive) as zf:
        total = 0
        for info in zf.infolist():
            name = info.filename.replace("\\", "/")
            if name.startswith("/") or name[1:2] == ":" or ".." in name.split("/"):
                raise FetchError(f"{archive}: member {info.filename!r} leaves the target folder; refused")
            if info.flag_bits & 0x1:
                raise FetchError(f"{archive}: member {info.filename!r} is encrypted; the official releases are not")
            if info.compress_type not in _ZIP_METHODS:
                raise FetchError(f"{archive}: member {info.filename!r} uses compression method {info.compress_type}, "
                                 "which this reader does not support (stored, deflate, bzip2, lzma)")
            total += info.file_size
            _count(archive, info.filename, total, limit)
        zf.extractall(dest)
    return total


def _extract_tar(archive: Path, dest: Path, limit: int) -> int:
    def plain_only(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo:
        if not (member.isfile() or member.isdir()):
            raise FetchError(f"{archive}: member {member.name!r} is a link or a device; the official releases hold "
                             "none; refused")
        return tarfile.data_filter(member, path)

    if not hasattr(tarfile, "data_filter"):  # PEP 706: Python 3.11.4 and later (and distributions' backports)
        raise FetchError(f"{archive}: extracting a tar archive needs tarfile's data filter: Python 3.11.4 or later")
    with tarfile.open(archive) as tar:
        total = 0
        for info in tar:  # stops at the first member past the limit, before reading the rest
            total += info.size + HEADER
            _count(archive, info.name, total, limit)
        tar.extractall(dest, filter=plain_only)
    return total
