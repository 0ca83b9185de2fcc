"""Fetch the official archives into the data root: download, extract, check, then move in whole.
(The releases are in :mod:`.sources`, downloading in :mod:`.download`, the archives' safety in :mod:`.archives`.)

Every step works in a temporary folder inside the data root; the dataset's folder appears only when
the archive was complete, its files parse and the ones the manifest knows match their SHA-256.
"""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import tempfile
import time
from pathlib import Path, PurePosixPath

from semsts.core.files import missing_folders, remove_empty

from . import content_pins, datasets, manifest
from .archives import extract
from .download import Progress, check_mirror, download, mirror_address
from .errors import DatasetNotFound, FormatError
from .paths import data_root
from .sources import FetchError, Source, mib, source_of

MIRROR_VAR = "STS_MIRROR"  # a mirror of the official archives, if --mirror names none

# Size limits: a release may take BUDGET_FACTOR times what its manifest files hold, at least
# BUDGET_FLOOR (the largest official release, STS 2016, holds 3.6 MB), both for the download and for
# the extracted total (:mod:`.archives` counts it from the members' headers).
BUDGET_FLOOR = 64 << 20
BUDGET_FACTOR = 16


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
    created = missing_folders(root)  # a failed fetch leaves no empty data root of its making
    root.mkdir(parents=True, exist_ok=True)
    try:
        return _fetch_into(source, root, final, archives, mirror or os.environ.get(MIRROR_VAR), progress, unverified)
    except BaseException:
        remove_empty(created)
        raise


def _fetch_into(source: Source, root: Path, final: Path, archives, mirror: str | None, progress: Progress | None,
                unverified: bool) -> Path:
    budget = size_budget(source)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=root) as tmp, open(Path(tmp) / LOCK_NAME, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held while this fetch works: clean_stale leaves the folder alone
        tmp = Path(tmp)
        paths, trees = _unpack(source, tmp, archives, mirror, progress, budget)
        staged_root = tmp / "root"
        staged = staged_root / source.target
        _arrange(source, paths, trees, staged)
        check(source, staged_root)
        if not unverified:
            check_content(source, staged_root)
        _move_in(staged, final, tmp)
    return final


def _unpack(source: Source, tmp: Path, archives, mirror: str | None, progress: Progress | None,
            budget: int) -> tuple[list[Path], list[Path]]:
    """The release's archives (``archives``, else downloaded into ``tmp``) and the folders of ``tmp`` each was
    extracted (or, for plain files, copied) into: ``budget`` bytes at most, downloaded and extracted."""
    if nested(source):
        return _unpack_nested(source, tmp, archives, mirror, progress, budget)
    paths = [Path(a) for a in archives] or [
        download(mirror_address(url, mirror), tmp / PurePosixPath(url).name, progress,
                 limit=budget, by_hand=by_hand(source)) for url in source.urls]
    trees, left = [], budget
    for i, archive in enumerate(paths):
        trees.append(tmp / f"x{i}")
        if source.plain:  # a file of another name takes the name of the one file the release needs
            name = archive.name if archive.name in source.files or len(source.files) != 1 else source.files[0]
            left -= _copy_at(archive, trees[-1] / name, left)
        else:
            left -= extract(archive, trees[-1], left)
    return paths, trees


def by_hand(source: Source) -> str:
    """What to do when a release cannot be downloaded: its archive (or each of its archives) downloaded by hand and
    given with --archive, a nested release's repository copy as --archive FOLDER, or a mirror."""
    if nested(source):
        return (f"copy the repository {source.target} at the pinned revision by hand (its files at their paths: "
                f"{', '.join(source.files[:2])}, …) and use --archive FOLDER, or serve them with --mirror URL")
    names = [PurePosixPath(url).name for url in source.urls]
    if len(names) > 1:
        return (f"download its {len(names)} archives by hand and give each: "
                + " ".join(f"--archive {n}" for n in names) + " (or --mirror URL)")
    return f"download {names[0]} by hand and use --archive FILE (or --mirror URL)"


def nested(source: Source) -> bool:
    """A release of plain files kept at their paths in a repository (MTEB's multilingual tasks: many files of one
    name in folders of their language), one file per address."""
    return source.plain and any("/" in f for f in source.files)


def _unpack_nested(source: Source, tmp: Path, archives, mirror: str | None, progress: Progress | None,
                   budget: int) -> tuple[list[Path], list[Path]]:
    """A nested release's files into ``tmp/x0`` at their paths: downloaded (a mirror serves each where a data root
    holds it, ``MIRROR/mteb/REPOSITORY/PATH``: another data root's URL is a mirror), or
    taken from a folder holding them there (``--archive FOLDER``: a copy of the repository at the pinned revision)."""
    tree, left = tmp / "x0", budget
    tree.mkdir()
    if archives:
        if len(archives) != 1 or not Path(archives[0]).is_dir():
            raise FetchError(f"{source.name}: --archive takes one folder holding the release's files at their paths "
                             f"({', '.join(source.files[:2])}, …): a copy of the repository at the pinned revision")
        folder = Path(archives[0])
        for rel in source.files:
            if (folder / rel).is_file():  # the check after names what is missing
                left -= _copy_at(folder / rel, tree / rel, left)
        return [folder], [tree]
    for i, (url, rel) in enumerate(zip(source.urls, source.files)):
        address = f"{check_mirror(mirror).rstrip('/')}/{source.target}/{rel}" if mirror else url
        got = download(address, tmp / f"{i}-{PurePosixPath(rel).name}", progress, limit=left, by_hand=by_hand(source))
        left -= _copy_at(got, tree / rel, left)
        got.unlink()
    return [tmp / "x0"], [tree]


def _copy_at(path, dest: Path, limit: int) -> int:
    """Copy the file ``path`` to ``dest``; its size (refused beyond ``limit``, the bytes the release has left)."""
    path = Path(path)
    if not path.is_file():
        raise FetchError(f"{path}: no such file")
    size = path.stat().st_size
    if size > limit:
        raise FetchError(f"{path}: {mib(size)}, far more than the release needs (at most {mib(limit)}); refused")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, dest)
    return size


def check_content(source: Source, root: Path) -> None:
    """A release pinned by mteb's descriptive statistics (:mod:`.content_pins`) holds the pairs mteb describes, and
    one its kind pins otherwise (``Kind.differences``) those pairs: else a FetchError naming what differs."""
    diffs = content_pins.differences(source.name, root)
    if diffs:
        raise FetchError(f"{source.name}: {content_pins.not_described(source.name, diffs)}; refused (--unverified "
                         "installs it anyway)")
    pinned = [d for name in source.datasets for d in datasets.spec(name).kind.differences(
        datasets.folder_of(name, root), datasets.spec(name))]
    if pinned:  # a release pinned by its pairs per source file (the STS-B companion)
        raise FetchError(f"{source.name}: not the official release's pairs ({content_pins.describe(pinned)}); refused (--unverified installs "
                         "it anyway)")


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
    known = sum(e["size"] for e in manifest.entries_under(source.target, manifest.load_manifest()).values())
    return max(BUDGET_FLOOR, BUDGET_FACTOR * known)


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


def _arrange(source: Source, archives: list, trees: list, staged: Path) -> None:
    """Copy what the release needs from the extracted trees into ``staged`` (the target's layout)."""
    shown = ", ".join(a.name for a in archives)
    label = {tree: archive.name for archive, tree in zip(archives, trees)}

    def one(found: list, what: str) -> Path:  # found: (tree, path); a file or folder at two places is ambiguous
        if len(found) > 1:
            places = "; ".join(f"{label[tree]}: {path.relative_to(tree)}" for tree, path in found)
            raise FetchError(f"{shown}: {what} is at {len(found)} places ({places}): which is the release's is not "
                             "clear; refused")
        return found[0][1]

    if not source.files:
        want = f"folder {source.folder!r}" if source.folder else f"folder holding {'/, '.join(source.holds)}/"
        folders = [one(found, want) for found in (_find_folders(tree, source) for tree in trees) if found]
        if not folders:
            raise FetchError(f"{shown}: has no {want}; is this the official {source.name} archive?")
        for folder in folders:  # several archives of one release (CLSS's packages) are merged
            try:
                shutil.copytree(folder, staged, dirs_exist_ok=True)
            except (shutil.Error, OSError) as exc:
                raise FetchError(f"{shown}: cannot merge the archives ({exc}); refused") from None
        return
    staged.mkdir(parents=True)
    for filename in source.files:
        found = sorted(((t, p) for t in trees for p in t.rglob(filename) if p.is_file()), key=lambda f: len(f[1].parts))
        if not found:
            raise FetchError(f"{shown}: has no file {filename!r}; are these the official {source.name} archives?")
        (staged / filename).parent.mkdir(parents=True, exist_ok=True)  # a nested release's files keep their paths
        shutil.copy2(one(found, f"file {filename!r}"), staged / filename)


def _find_folders(tree: Path, source: Source) -> list[tuple[Path, Path]]:
    """``(tree, folder)`` of each folder in ``tree`` named ``source.folder`` or holding ``source.holds``, shallowest
    first (not the copies a Mac's zip keeps under ``__MACOSX``)."""
    candidates = [path for path in [tree, *tree.rglob("*")] if path.is_dir() and "__MACOSX" not in path.parts and (
        (source.folder and path.name == source.folder and path != tree)
        or (source.holds and all((path / sub).is_dir() for sub in source.holds)))]
    return [(tree, path) for path in sorted(candidates, key=lambda p: len(p.parts))]


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
    entries = {rel: known[rel] for rel in (p.relative_to(staged_root).as_posix() for p in read) if rel in known}
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
