"""Fetch the official archives into the data root: download, extract safely, check, then move in whole.

Every step works in a temporary folder inside the data root; the dataset's folder appears only when
the archive was complete, its files parse and the ones the manifest knows match their SHA-256.
"""
from __future__ import annotations

import os
import posixpath
import re
import shutil
import stat
import tarfile
import tempfile
import urllib.request
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import Callable, NamedTuple

from . import datasets, manifest
from .errors import DatasetNotFound, FormatError
from .paths import data_root

MIRROR_VAR = "STS_MIRROR"
STSWIKI = "http://ixa2.si.ehu.es/stswiki/images"
SEMEVAL2017 = "http://alt.qcri.org/semeval2017/task1/data/uploads"
SEMEVAL2014_TASK1 = "http://alt.qcri.org/semeval2014/task1/data/uploads"  # SICK as the task released it
CLSS_PAGE = "http://alt.qcri.org/semeval2014/task3/index.php?id=data-and-tools"


class FetchError(RuntimeError):
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
           files=("STS.input.track5.en-en.txt", "STS.gs.track5.en-en.txt"), datasets=("sts2017-test",)),
    Source("stsbenchmark", "stsbenchmark", (f"{STSWIKI}/4/48/Stsbenchmark.tar.gz",), "stsbenchmark",
           datasets=("stsb-train", "stsb-dev", "stsb-test")),
    Source("sick2014", "sick2014", tuple(f"{SEMEVAL2014_TASK1}/{n}" for n in (
               "sick_train.zip", "sick_trial.zip", "sick_test_annotated.zip")),
           files=("SICK_train.txt", "SICK_trial.txt", "SICK_test_annotated.txt"),
           datasets=("sick2014-train", "sick2014-trial", "sick2014-test")),
    Source("clss2014", "clss2014", (), holds=("data", "keys"),
           datasets=("clss2014-trial", "clss2014-train", "clss2014-test"), page=CLSS_PAGE),
]}

# (name, bytes done, bytes in all or None): called while downloading
Progress = Callable[[str, int, "int | None"], None]


def source_of(name: str) -> Source:
    """The release that provides a dataset (``stsb-dev`` → ``stsbenchmark``) or a release by its name."""
    if name in SOURCES:
        return SOURCES[name]
    for source in SOURCES.values():
        if name in source.datasets:
            return source
    fetchable = sorted({*SOURCES, *(d for s in SOURCES.values() for d in s.datasets)})
    raise DatasetNotFound(f"nothing to fetch for {name!r}; known: {', '.join(fetchable)}")


def fetch(name: str, data_dir=None, archives=(), mirror: str | None = None, force: bool = False,
          progress: Progress | None = None) -> Path | None:
    """Install the release providing ``name`` into the data root; returns its folder, None if already there.

    ``archives`` are locally downloaded archives used instead of downloading; ``mirror`` (or
    ``$STS_MIRROR``) is a base URL serving the archives under their official file names.
    """
    source = source_of(name)
    root = data_root(data_dir)
    final = root / source.target
    if final.exists() and not force:
        return None
    if not archives and not source.urls:
        raise FetchError(
            f"{source.name}: the organizers publish no fixed archive address; download the data by hand "
            f"from {source.page} and run `sts data fetch {name} --archive FILE`")
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=root) as tmp:
        tmp = Path(tmp)
        paths = [Path(a) for a in archives] or [
            download(_address(url, mirror), tmp / PurePosixPath(url).name, progress) for url in source.urls]
        trees = []
        for i, archive in enumerate(paths):
            trees.append(tmp / f"x{i}")
            extract(archive, trees[-1])
        staged_root = tmp / "root"
        staged = staged_root / source.target
        _arrange(source, paths, trees, staged)
        check(source, staged_root)
        _move_in(staged, final, tmp)
    return final


def _address(url: str, mirror: str | None) -> str:
    mirror = mirror or os.environ.get(MIRROR_VAR)
    return f"{mirror.rstrip('/')}/{PurePosixPath(url).name}" if mirror else url


def download(url: str, dest: Path, progress: Progress | None = None, timeout: float = 60) -> Path:
    """Stream ``url`` into ``dest``; a short read or an HTTP error is a FetchError naming the address."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(dest, "wb") as out:
            total = response.headers.get("Content-Length")
            total = int(total) if total and total.isdigit() else None
            done = 0
            while block := response.read(1 << 16):
                out.write(block)
                done += len(block)
                if progress:
                    progress(dest.name, done, total)
    except OSError as exc:  # URLError, HTTPError and socket errors are all OSErrors
        raise FetchError(f"cannot download {url}: {exc}; download it by hand and use --archive FILE") from None
    if total is not None and done != total:
        raise FetchError(f"{url}: got {done} bytes of {total}; the download was cut short")
    return dest


def extract(archive, dest: Path) -> None:
    """Extract a zip or tar(.gz) archive into ``dest``; refuses any member that would land outside it."""
    archive = Path(archive)
    if not archive.is_file():
        raise FetchError(f"{archive}: no such archive file")
    dest.mkdir(parents=True)
    try:
        if zipfile.is_zipfile(archive):
            _extract_zip(archive, dest)
        else:
            _extract_tar(archive, dest)
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error) as exc:
        raise FetchError(f"{archive}: not a readable zip or tar archive ({exc}); an HTML page or a cut download?") from None


def _extract_zip(archive: Path, dest: Path) -> None:
    with zipfile.ZipFile(archive) as zf:
        members = zf.infolist()
        for info in members:
            _check_member(archive, info.filename)
            if stat.S_ISLNK(info.external_attr >> 16):
                raise FetchError(f"{archive}: member {info.filename!r} is a symbolic link; refused")
        zf.extractall(dest, members)


def _extract_tar(archive: Path, dest: Path) -> None:
    with tarfile.open(archive) as tar:
        members = tar.getmembers()
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
            shutil.copytree(folder, staged, symlinks=True, dirs_exist_ok=True)
        return
    staged.mkdir(parents=True)
    for filename in source.files:
        found = sorted((p for tree in trees for p in tree.rglob(filename) if p.is_file()), key=lambda p: len(p.parts))
        if not found:
            raise FetchError(f"{shown}: has no file {filename!r}; are these the official {source.name} archives?")
        shutil.copy2(found[0], staged / filename)


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
