"""Fetch the official archives into the data root: download, extract safely, check, then move in whole.

Every step works in a temporary folder inside the data root; the dataset's folder appears only when
the archive was complete, its files parse and the ones the manifest knows match their SHA-256.
"""
from __future__ import annotations

import bz2
import fcntl
import gzip
import lzma
import os
import posixpath
import re
import shutil
import stat
import tarfile
import tempfile
import time
import urllib.request
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import Callable, NamedTuple

from semsts.core.errors import STSError

from . import content_pins, datasets, manifest
from .errors import DatasetNotFound, FormatError
from .paths import data_root

MIRROR_VAR = "STS_MIRROR"
STSWIKI = "http://ixa2.si.ehu.es/stswiki/images"
SEMEVAL2017 = "http://alt.qcri.org/semeval2017/task1/data/uploads"
SEMEVAL2014_TASK1 = "http://alt.qcri.org/semeval2014/task1/data/uploads"  # SICK as the task released it
CLSS_PAGE = "http://alt.qcri.org/semeval2014/task3/index.php?id=data-and-tools"
# MTEB's Hugging Face datasets, at pinned revisions: BIOSSES at the revision mteb's BIOSSES task pins; STS22 at the
# revision that inverted the scores to 1-4 (4 most similar), the last whose file layout (en/test.jsonl) we could check
HF_BIOSSES = "https://huggingface.co/datasets/mteb/biosses-sts/resolve/d3fb88f8f02e40887cd149695127462bbcf29b4a"
HF_STS22 = "https://huggingface.co/datasets/mteb/sts22-crosslingual-sts/resolve/6d1ba47164174a496b7fa5d3569dae26a6813b80"


class FetchError(RuntimeError, STSError):
    """A download, an archive or its contents are not what the dataset needs."""


class Source(NamedTuple):
    """One official release: its archives, what to take from them and where it goes in the data root."""

    name: str
    target: str  # folder under the data root
    urls: tuple  # the organizers' published addresses; empty when none is known
    folder: str = ""  # a folder of this name inside the archive becomes ``target``
    files: tuple = ()  # else: these files, found anywhere in the archives, go into ``target``
    holds: tuple = ()  # else: the folder holding these sub-folders becomes ``target``
    datasets: tuple = ()
    page: str = ""  # where to download by hand when ``urls`` is empty
    derived: tuple = ()  # datasets derived from the release's files (not checked against the archive)
    plain: bool = False  # each address is one of ``files`` itself, not an archive holding it


SOURCES = {s.name: s for s in [
    Source("sts2012-train", "sts2012/train", (f"{STSWIKI}/e/e4/STS2012-en-train.zip",), "train",
           datasets=("sts2012-train",)),
    Source("sts2012-test", "sts2012/test", (f"{STSWIKI}/4/40/STS2012-en-test.zip",), "test-gold",
           datasets=("sts2012-test",)),
    Source("sts2013-test", "sts2013/test", (f"{STSWIKI}/2/2f/STS2013-en-test.zip",), "test-gs",
           datasets=("sts2013-test",)),
    Source("sts2014-test", "sts2014/test", (f"{STSWIKI}/8/8c/STS2014-en-test.zip",), "sts-en-test-gs-2014",
           datasets=("sts2014-test",)),
    Source("sts2015-test", "sts2015/test", (f"{STSWIKI}/d/da/STS2015-en-test.zip",), "test_evaluation_task2a",
           datasets=("sts2015-test",)),
    Source("sts2016-test", "sts2016/test", (f"{STSWIKI}/9/98/STS2016-en-test.zip",),
           "sts2016-english-with-gs-v1.0", datasets=("sts2016-test",)),
    Source("sts2017-test", "sts2017/test", (f"{SEMEVAL2017}/sts2017.eval.v1.1.zip", f"{SEMEVAL2017}/sts2017.gs.zip"),
           files=("STS.input.track5.en-en.txt", "STS.gs.track5.en-en.txt"), datasets=("sts2017-test",)),  # pinned by mteb's figures
    Source("stsbenchmark", "stsbenchmark", (f"{STSWIKI}/4/48/Stsbenchmark.tar.gz",), "stsbenchmark",
           datasets=("stsb-train", "stsb-dev", "stsb-test"), derived=("stsb-v2-dev", "stsb-v2-test")),
    Source("sick2014", "sick2014", tuple(f"{SEMEVAL2014_TASK1}/{n}" for n in (
               "sick_train.zip", "sick_trial.zip", "sick_test_annotated.zip")),
           files=("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt"),
           datasets=("sick2014-train", "sick2014-trial", "sick2014-test")),
    Source("clss2014", "clss2014", (), holds=("data", "keys"),
           datasets=("clss2014-trial", "clss2014-train", "clss2014-test"), page=CLSS_PAGE),
    Source("biosses", "biosses", (f"{HF_BIOSSES}/test.jsonl.gz",), files=("test.jsonl.gz",),
           datasets=("biosses-test",), plain=True),  # pinned by mteb's figures (content_pins.json)
    Source("sts2022", "sts2022/en", (f"{HF_STS22}/en/test.jsonl",), files=("test.jsonl",),
           datasets=("sts2022-test",), derived=("sts2022-v2-test",), plain=True),  # as BIOSSES
]}

# Size limits: a release may take BUDGET_FACTOR times what its manifest files hold, at least
# BUDGET_FLOOR (the largest official release, STS 2016, holds 3.6 MB), both for the download and for
# the extracted total; a member larger than RATIO_FLOOR may not expand more than MAX_RATIO times.
BUDGET_FLOOR = 64 << 20
BUDGET_FACTOR = 16
MAX_RATIO = 200
RATIO_FLOOR = 1 << 20

# (name, bytes done, bytes in all or None): called while downloading
Progress = Callable[[str, int, "int | None"], None]


def source_of(name: str) -> Source:
    """The release that provides a dataset (``stsb-dev`` → ``stsbenchmark``) or a release by its name."""
    if name in SOURCES:
        return SOURCES[name]
    for source in SOURCES.values():
        if name in source.datasets or name in source.derived:
            return source
    fetchable = sorted({*SOURCES, *(d for s in SOURCES.values() for d in (*s.datasets, *s.derived))})
    raise DatasetNotFound(f"nothing to fetch for {name!r}; known: {', '.join(fetchable)}")


def fetch(name: str, data_dir=None, archives=(), mirror: str | None = None, force: bool = False,
          progress: Progress | None = None, unverified: bool = False) -> Path | None:
    """Install the release providing ``name`` into the data root; returns its folder, None if already there.

    ``archives`` are locally downloaded archives used instead of downloading; ``mirror`` (or
    ``$STS_MIRROR``) is a base URL serving the archives under their official file names (credentials in it are
    sent as HTTP basic auth, never shown). A release pinned by neither checksums nor mteb's figures, or whose
    content differs from mteb's figures, is refused unless ``unverified``.
    """
    source = source_of(name)
    root = data_root(data_dir)
    final = root / source.target
    if (final.exists() or final.is_symlink()) and not force:
        if _installed(source, root):
            return None
        if final.is_symlink() or not final.is_dir() or any(final.iterdir()):
            what = "a folder holding none of its datasets' files" if final.is_dir() else "a file"
            raise FetchError(f"{source.name}: {final} is {what} (`sts data list` shows the datasets absent); "
                             "move it aside, or use --force to replace it")
    if not archives and not source.urls:
        raise FetchError(
            f"{source.name}: the organizers publish no fixed archive address; download the data by hand "
            f"from {source.page} and run `sts data fetch {name} --archive FILE`")
    root.mkdir(parents=True, exist_ok=True)
    budget = size_budget(source)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=root) as tmp, open(Path(tmp) / LOCK_NAME, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held while this fetch works: clean_stale leaves the folder alone
        tmp = Path(tmp)
        paths = [Path(a) for a in archives] or [
            download(_address(url, mirror), tmp / PurePosixPath(url).name, progress, limit=budget)
            for url in source.urls]
        trees, left = [], budget
        for i, archive in enumerate(paths):
            trees.append(tmp / f"x{i}")
            left -= copy_plain(archive, trees[-1], source, left) if source.plain else extract(archive, trees[-1], left)
        staged_root = tmp / "root"
        staged = staged_root / source.target
        _arrange(source, paths, trees, staged)
        check(source, staged_root)
        if not unverified:
            check_content(source, staged_root)
        _move_in(staged, final, tmp)
    return final


def check_content(source: Source, root: Path) -> None:
    """A release pinned by mteb's descriptive statistics (:mod:`.content_pins`) holds the pairs mteb describes:
    else a FetchError naming the figures that differ, expected and got."""
    diffs = content_pins.differences(source.name, root)
    if diffs:
        pin = content_pins.pin_of(source.name)
        raise FetchError(f"{source.name}: {PurePosixPath(pin['file']).name} is not the file mteb describes for "
                         f"{pin['task']} ({content_pins.describe(diffs)}); refused (--unverified installs it anyway)")


def _installed(source: Source, root: Path) -> bool:
    """Whether ``sts data list`` would show a dataset of the release present (or invalid, but there)."""
    for name in source.datasets:
        try:
            if datasets.locate(name, root):
                return True
        except (FormatError, OSError):
            return True
    return False


def size_budget(source: Source) -> int:
    """Bytes a release may take, downloaded or extracted: a generous multiple of its manifest files."""
    known = sum(e["size"] for rel, e in manifest.load_manifest().items() if rel.startswith(source.target + "/"))
    return max(BUDGET_FLOOR, BUDGET_FACTOR * known)


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB"


LOCK_NAME = ".lock"
STALE_AFTER = 60  # seconds: a .fetch-* folder without a lock file younger than this may be starting


def clean_stale(data_dir=None) -> list[tuple[Path, int]]:
    """Remove the ``.fetch-*`` folders interrupted fetches left in the data root; ``(folder, bytes)`` removed.

    A folder whose lock a running fetch holds is left alone.
    """
    root = data_root(data_dir)
    removed = []
    for folder in sorted(root.glob(".fetch-*")) if root.is_dir() else ():
        if not folder.is_dir() or folder.is_symlink():
            continue
        lock_path = folder / LOCK_NAME
        if not lock_path.exists():
            if time.time() - folder.stat().st_mtime < STALE_AFTER:
                continue
        else:
            with open(lock_path, "a") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue  # a fetch is running
        size = sum(p.lstat().st_size for p in folder.rglob("*"))
        shutil.rmtree(folder, ignore_errors=True)
        removed.append((folder, size))
    return removed


def _address(url: str, mirror: str | None) -> str:
    mirror = mirror or os.environ.get(MIRROR_VAR)
    if mirror:
        check_mirror(mirror)
    return f"{mirror.rstrip('/')}/{PurePosixPath(url).name}" if mirror else url


_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/@:]*):[^/]*@")


def redact(url: str) -> str:
    """``url`` with the password of its credentials shown as ``***`` (``http://user:***@host/…``)."""
    return _PASSWORD.sub(r"\1:***@", url)


def check_mirror(mirror: str) -> str:
    """``mirror`` if it is an http(s) URL with a host, or a file: URL; else a FetchError saying what it is."""
    from urllib.parse import urlsplit
    shown = redact(mirror)[:80]
    try:
        parts = urlsplit(mirror)
        parts.port  # noqa: B018  (parses the port: 'http://[::1' and 'http://h:x' fail here)
    except ValueError as exc:
        raise FetchError(_scrub(f"mirror {shown!r} is not a URL ({exc})", mirror)) from None
    if not ((parts.scheme in ("http", "https") and parts.hostname) or parts.scheme == "file"):
        raise FetchError(f"mirror {shown!r} is not an http(s):// or file: URL")
    return mirror


def _scrub(text: str, url: str) -> str:
    """``text`` without the password of ``url``'s credentials, wherever a library quoted it."""
    from urllib.parse import unquote, urlsplit
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    for secret in {password, unquote(password or "")} - {None, ""}:
        text = text.replace(secret, "***")
    return text


def _request(url: str) -> urllib.request.Request:
    """A request for ``url`` without its credentials, which go in an Authorization header (not sent on redirects)."""
    import base64
    from urllib.parse import unquote, urlsplit, urlunsplit
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or (parts.username is None and parts.password is None):
        return urllib.request.Request(url)
    host = parts.netloc.rpartition("@")[2]
    request = urllib.request.Request(urlunsplit(parts._replace(netloc=host)))
    token = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}".encode()
    request.add_unredirected_header("Authorization", "Basic " + base64.b64encode(token).decode("ascii"))
    return request


# A download must end within DEADLINE seconds, and after RATE_GRACE seconds come at MIN_RATE bytes a second or
# faster: a server sending a byte now and then never trips the per-read timeout, and would stall a fetch for ever.
DEADLINE = 30 * 60
RATE_GRACE = 60
MIN_RATE = 2 << 10


class _Watchdog:
    """Shuts down the sockets of one download once its deadline passes, wherever it waits (headers or body)."""

    def __init__(self, seconds: float):
        import threading
        self.sockets, self.fired = [], False
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        import socket
        self.fired = True
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def opener(self) -> urllib.request.OpenerDirector:
        import http.client
        sockets = self.sockets

        class HTTP(http.client.HTTPConnection):
            def connect(self):
                super().connect()
                sockets.append(self.sock)

        class HTTPS(http.client.HTTPSConnection):
            def connect(self):
                super().connect()
                sockets.append(self.sock)

        class HTTPHandler(urllib.request.HTTPHandler):
            def http_open(self, req):
                return self.do_open(HTTP, req)

        class HTTPSHandler(urllib.request.HTTPSHandler):
            def https_open(self, req):
                return self.do_open(HTTPS, req, context=self._context)

        return urllib.request.build_opener(HTTPHandler, HTTPSHandler)

    def __enter__(self):
        self._timer.start()
        return self

    def __exit__(self, *exc):
        self._timer.cancel()


def download(url: str, dest: Path, progress: Progress | None = None, timeout: float = 60,
             limit: int | None = None) -> Path:
    """Stream ``url`` into ``dest``; a short read, an HTTP error, more than ``limit`` bytes, or a download slower
    than MIN_RATE or longer than DEADLINE is a FetchError naming the address (its password hidden)."""
    import http.client
    shown = redact(url)
    too_big = f"{shown}: more than {_mib(limit or 0)}, far more than the release needs; refused"
    started, done, total = time.monotonic(), 0, None
    try:
        with _Watchdog(DEADLINE) as watchdog:
            try:
                with watchdog.opener().open(_request(url), timeout=timeout) as response, open(dest, "wb") as out:
                    total = response.headers.get("Content-Length")
                    total = int(total) if total and total.isdigit() else None
                    if limit is not None and total is not None and total > limit:
                        raise FetchError(f"{shown}: announces {_mib(total)}, far more than the release needs "
                                         f"(at most {_mib(limit)}); refused")
                    read = getattr(response, "read1", response.read)  # what has come, not a full block
                    while block := read(1 << 16):
                        out.write(block)
                        done += len(block)
                        if limit is not None and done > limit:
                            raise FetchError(too_big)
                        elapsed = time.monotonic() - started
                        if elapsed > RATE_GRACE and done < MIN_RATE * elapsed:
                            raise FetchError(f"{shown}: {done:,} bytes in {elapsed:.0f} s, slower than "
                                             f"{MIN_RATE / 1024:g} KiB/s; the server stalls? refused")
                        if progress:
                            progress(dest.name, done, total)
            except (OSError, http.client.HTTPException):
                if not watchdog.fired:
                    raise
            if watchdog.fired:
                raise FetchError(f"{shown}: not finished after {DEADLINE:g} s ({done:,} bytes received); "
                                 "the server stalls? refused")
    except (OSError, http.client.HTTPException) as exc:  # URLError, HTTPError and socket errors are OSErrors
        raise FetchError(_scrub(f"cannot download {shown}: {exc}; download it by hand and use --archive FILE",
                                url)) from None
    if total is not None and done != total:
        raise FetchError(f"{shown}: got {done} bytes of {total}; the download was cut short")
    return dest


def extract(archive, dest: Path, limit: int = BUDGET_FLOOR) -> int:
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
        raise FetchError(f"{archive}: not a readable zip or tar archive ({exc}); an HTML page or a cut download?") from None


def copy_plain(path, dest: Path, source: Source, limit: int = BUDGET_FLOOR) -> int:
    """A release published as plain files (no archive): the file goes into ``dest`` under its published name
    (a downloaded or hand-given file of another name takes the name of the one file the release needs)."""
    path = Path(path)
    if not path.is_file():
        raise FetchError(f"{path}: no such file")
    size = path.stat().st_size
    if size > limit:
        raise FetchError(f"{path}: {_mib(size)}, far more than the release needs (at most {_mib(limit)}); refused")
    name = path.name if path.name in source.files or len(source.files) != 1 else source.files[0]
    dest.mkdir(parents=True)
    shutil.copyfile(path, dest / name)
    return size


def _check_sizes(archive: Path, name: str, size: int, packed: int | None, total: int, limit: int) -> None:
    if total > limit:
        raise FetchError(f"{archive}: expands to more than {_mib(limit)} (at {name!r}), far more than the "
                         "release needs; refused")
    if packed is not None and size > RATIO_FLOOR and size > MAX_RATIO * max(packed, 1):
        raise FetchError(f"{archive}: member {name!r} expands {size // max(packed, 1)}-fold ({_mib(size)}), "
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
                raise FetchError(f"{archive}: expands to more than {_mib(limit)}, far more than the release needs; refused")


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


def _arrange(source: Source, archives: list, trees: list, staged: Path) -> None:
    """Copy what the release needs from the extracted trees into ``staged`` (the target's layout)."""
    shown = ", ".join(a.name for a in archives)
    if not source.files:
        folders = [f for f in (_find_folder(tree, source) for tree in trees) if f is not None]
        if not folders:
            want = f"folder {source.folder!r}" if source.folder else f"folder holding {'/, '.join(source.holds)}/"
            raise FetchError(f"{shown}: has no {want}; is this the official {source.name} archive?")
        for folder in folders:  # several archives of one release (CLSS's packages) are merged
            _merge(folder, staged, staged)
        _check_links(source, staged)
        return
    staged.mkdir(parents=True)
    for filename in source.files:
        found = sorted((p for tree in trees for p in tree.rglob(filename) if p.is_file()), key=lambda p: len(p.parts))
        if not found:
            raise FetchError(f"{shown}: has no file {filename!r}; are these the official {source.name} archives?")
        shutil.copy2(found[0], staged / filename)


def _merge(src: Path, dst: Path, top: Path) -> None:
    """Copy the tree ``src`` into ``dst``, never writing through a link already there (another archive's)."""
    dst.mkdir(parents=True, exist_ok=True)
    for entry in sorted(os.scandir(src), key=lambda e: e.name):
        target = dst / entry.name
        if target.is_symlink():
            raise FetchError(f"{target.relative_to(top.parent).as_posix()}: a link another archive made; "
                             "refusing to write through or over it")
        if entry.is_symlink():
            if target.exists():
                raise FetchError(f"{target.relative_to(top.parent).as_posix()}: two archives put different "
                                 "things here; refused")
            os.symlink(os.readlink(entry.path), target)
        elif entry.is_dir():
            if target.exists() and not target.is_dir():
                raise FetchError(f"{target.relative_to(top.parent).as_posix()}: a folder in one archive, a "
                                 "file in another; refused")
            _merge(Path(entry.path), target, top)
        else:
            shutil.copy2(entry.path, target)


def _check_links(source: Source, staged: Path) -> None:
    """Every link, resolved where it will be installed, must stay inside the release's folder."""
    inside = os.path.realpath(staged)
    for path in sorted(staged.rglob("*")):
        if not path.is_symlink():
            continue
        resolved = os.path.realpath(path)
        if resolved != inside and not resolved.startswith(inside + os.sep):
            rel = path.relative_to(staged).as_posix()
            raise FetchError(f"{source.name}: link {rel!r} -> {os.readlink(path)!r} leads outside "
                             f"{source.target}/ once installed; refused")


def _find_folder(tree: Path, source: Source) -> Path | None:
    """The shallowest folder in ``tree`` named ``source.folder`` or holding ``source.holds``."""
    candidates = []
    for path in [tree, *tree.rglob("*")]:
        if not path.is_dir() or path.is_symlink():
            continue
        if source.folder and path.name == source.folder and path != tree:
            candidates.append(path)
        elif source.holds and all((path / sub).is_dir() for sub in source.holds):
            candidates.append(path)
    return min(candidates, key=lambda p: len(p.parts)) if candidates else None


def check(source: Source, staged_root: Path) -> None:
    """The release holds one of its datasets or more, they parse, and their files match the manifest.

    (CLSS came out in parts, a trial/training package and a test package, so one dataset is enough.)
    Only the input and gold files are held to the manifest; ``sts data verify`` checks every file.
    """
    read = []
    for name in source.datasets:
        try:
            read.extend(p for sub in datasets.load(name, staged_root) for p in (sub.input_path, sub.gold_path))
        except DatasetNotFound:
            continue
        except FormatError as exc:
            raise FetchError(f"{source.name}: the archive's files do not parse: {exc}") from None
    if not read:
        raise FetchError(f"{source.name}: the archive holds none of the files of {', '.join(source.datasets)}")
    known = manifest.load_manifest()
    rels = dict.fromkeys(p.relative_to(staged_root).as_posix() for p in read)
    entries = {rel: known[rel] for rel in rels if rel in known}
    bad = [c for c in manifest.check_files(staged_root, entries) if c.status != "OK"]
    if bad:
        listed = "; ".join(f"{c.path} ({c.detail})" for c in bad)
        raise FetchError(f"{source.name}: files differ from the official release's SHA-256 manifest: {listed}")
    lacking = [rel for rel in _required(source, staged_root, known) if not (staged_root / rel).is_file()]
    if lacking:
        shown = ", ".join(lacking[:8]) + (f" and {len(lacking) - 8} more" if len(lacking) > 8 else "")
        raise FetchError(f"{source.name}: the archive lacks {len(lacking)} input or gold file(s) of the official "
                         f"release: {shown}; an incomplete archive? refused")


_DATA_FILE = re.compile(r"(STS(20\d\d)?\.(input|gs)\..+\.txt|.+\.(input|gs)\.tsv|sts-(train|dev|test)\.csv)")


def _required(source: Source, staged_root: Path, known: dict) -> list[str]:
    """The input and gold files the manifest lists for the release; for CLSS, for each part present."""
    data = [rel for rel in manifest.entries_under(source.target, known)
            if _DATA_FILE.fullmatch(PurePosixPath(rel).name) or PurePosixPath(rel).name in source.files]
    if not source.holds:
        return data
    split = lambda rel: PurePosixPath(rel).relative_to(source.target).parts[1]  # noqa: E731 data/SPLIT/…
    present = {split(rel) for rel in data if (staged_root / rel).is_file()}
    return [rel for rel in data if split(rel) in present]


def _move_in(staged: Path, final: Path, tmp: Path) -> None:
    """Put ``staged`` at ``final`` by renames; an older copy is moved aside first and removed after."""
    final.parent.mkdir(parents=True, exist_ok=True)
    old = tmp / "old"
    if final.exists():
        os.replace(final, old)
    try:
        os.replace(staged, final)
    except OSError:
        if old.exists():
            os.replace(old, final)
        raise
