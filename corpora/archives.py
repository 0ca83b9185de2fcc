"""Archive safety: a zip or tar(.gz) extracted only if every member stays inside the target folder (no absolute
path, no ``..``, no link leading out, no device), within a size budget and no zip bomb, and read to its end."""
from __future__ import annotations

import bz2
import gzip
import lzma
import posixpath
import re
import stat
import tarfile
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from .sources import FetchError, mib

# a member larger than RATIO_FLOOR may not expand more than MAX_RATIO times
MAX_RATIO = 200
RATIO_FLOOR = 1 << 20


def extract(archive, dest: Path, limit: int) -> int:
    """Extract a zip or tar(.gz) archive into ``dest``; returns the bytes extracted.

    Refuses any member that would land outside ``dest``, more than ``limit`` bytes in all, and a
    member that expands more than MAX_RATIO times (a zip bomb).
    """
    archive = Path(archive)
    if not archive.is_file():
        raise FetchError(f"{archive}: no such archive file")
    dest.mkdir(parents=True)
    try:
        if zipfile.is_zipfile(archive):
            return _extract_zip(archive, dest, limit)
        return _extract_tar(archive, dest, limit)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile, lzma.LZMAError) as exc:
        # one line: tarfile's error lists a reason per compression it tried, each on a line of its own
        reason = str(exc).splitlines()[0].rstrip(":") if str(exc).strip() else type(exc).__name__
        raise FetchError(f"{archive}: not a readable zip or tar archive ({reason}); an HTML page or a cut "
                         "download?") from None


def _check_sizes(archive: Path, name: str, size: int, packed: int | None, total: int, limit: int) -> None:
    if total > limit:
        raise FetchError(f"{archive}: expands to more than {mib(limit)} (at {name!r}), far more than the "
                         "release needs; refused")
    if packed is not None and size > RATIO_FLOOR and size > MAX_RATIO * max(packed, 1):
        raise FetchError(f"{archive}: member {name!r} expands {size // max(packed, 1)}-fold ({mib(size)}), "
                         f"more than {MAX_RATIO}-fold; a zip bomb? refused")


_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)


def _extract_zip(archive: Path, dest: Path, limit: int) -> int:
    with zipfile.ZipFile(archive) as zf:
        members = zf.infolist()
        total = 0
        for info in members:
            _check_member(archive, info.filename)
            if stat.S_ISLNK(info.external_attr >> 16):
                raise FetchError(f"{archive}: member {info.filename!r} is a symbolic link; refused")
            if info.flag_bits & 0x1:
                raise FetchError(f"{archive}: member {info.filename!r} is encrypted; the official releases are not")
            if info.compress_type not in _ZIP_METHODS:
                raise FetchError(f"{archive}: member {info.filename!r} uses compression method {info.compress_type}, "
                                 "which this reader does not support (stored, deflate, bzip2, lzma)")
            total += info.file_size  # the sizes the headers declare bound what zipfile extracts
            _check_sizes(archive, info.filename, info.file_size, info.compress_size, total, limit)
        zf.extractall(dest, members)
    return total


_COMPRESSED = {b"\x1f\x8b": gzip.open, b"BZh": bz2.open, b"\xfd7zXZ\x00": lzma.open}


def _check_stream(archive: Path, limit: int) -> None:
    """Read a compressed tar through to its end: a cut download (no gzip trailer, a bad CRC) is an error.

    tarfile stops at the tar's end-of-archive blocks and never looks at what follows.
    """
    with open(archive, "rb") as handle:
        head = handle.read(6)
    opener = next((o for magic, o in _COMPRESSED.items() if head.startswith(magic)), None)
    if opener is None:
        return
    done = 0
    with opener(archive, "rb") as stream:
        while block := stream.read(1 << 20):
            done += len(block)
            if done > limit + (1 << 20):  # the tar's own headers and padding on top of the members
                raise FetchError(f"{archive}: expands to more than {mib(limit)}, far more than the release needs; refused")


def _extract_tar(archive: Path, dest: Path, limit: int) -> int:
    _check_stream(archive, limit)
    with tarfile.open(archive) as tar:
        members, total = [], 0
        for info in tar:  # stops at the first member past the limit, before reading the rest
            members.append(info)
            total += info.size
            _check_sizes(archive, info.name, info.size, None, total, limit)
        symlinks = {posixpath.normpath(m.name) for m in members if m.issym()}
        for info in members:
            _check_member(archive, info.name)
            through = [p for p in PurePosixPath(posixpath.normpath(info.name)).parents if str(p) in symlinks]
            if through:  # a path through a link is checked against the link's place, not where it leads
                raise FetchError(f"{archive}: member {info.name!r} lies behind the link {str(through[0])!r}; refused")
            if info.issym() or info.islnk():  # a symlink is relative to its folder, a hard link to the top
                base = posixpath.dirname(info.name) if info.issym() else ""
                _check_link(archive, info.name, info.linkname, base)
            elif not (info.isfile() or info.isdir()):
                raise FetchError(f"{archive}: member {info.name!r} is a device or pipe; refused")
        kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # a second guard where Python has it
        tar.extractall(dest, members, **kwargs)
    return total


def _check_member(archive: Path, name: str) -> None:
    """A member name must be relative and free of ``..``."""
    name = name.replace("\\", "/")
    if name.startswith("/") or re.match(r"[A-Za-z]:", name) or ".." in name.split("/"):
        raise FetchError(f"{archive}: member {name!r} leaves the target folder; refused")


def _check_link(archive: Path, name: str, target: str, base: str) -> None:
    """A link may point anywhere inside the extraction folder, nowhere else."""
    normal = posixpath.normpath(posixpath.join(base, target.replace("\\", "/")))
    if target.startswith("/") or normal == ".." or normal.startswith("../"):
        raise FetchError(f"{archive}: link {name!r} points to {target!r}, outside the target folder; refused")
