"""SHA-256 manifest of the official files: check a data root against what the organizers published.

The manifest (``manifest.json`` beside this module) was computed once from the reference data root
with ``python -m semsts.corpora.manifest ROOT``; ``sts data verify`` compares a data root with it.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import NamedTuple

from semsts.core.files import sha256_of_file as sha256
from semsts.core.files import write_text_atomic

from . import content_pins, datasets
from .errors import DatasetNotFound, FormatError
from .formats import in_place

MANIFEST_PATH = Path(__file__).resolve().parent / "manifest.json"


class Check(NamedTuple):
    """The verdict on one file: ``OK``, ``MISMATCH`` or ``MISSING``."""

    status: str
    path: str
    detail: str = ""


def dataset_folders(names=None) -> list[str]:
    """The data-root folders (relative, ``/``-separated) of the named datasets, or of all; no duplicates."""
    names = datasets.dataset_names() if names is None else names
    folders = [datasets.spec(n).folder for n in names]
    return list(dict.fromkeys(f for f in folders if not f.startswith("<")))


def compute(root) -> dict:
    """``{relative path: {"size", "sha256"}}`` for every file under the datasets' folders in ``root``."""
    root = Path(root)
    tops = dict.fromkeys(f.split("/")[0] for f in dataset_folders())
    files = {}
    for top in tops:
        for path in sorted((root / top).rglob("*")):
            if path.is_file():
                files[path.relative_to(root).as_posix()] = {"size": path.stat().st_size, "sha256": sha256(path)}
    return dict(sorted(files.items()))


def load_manifest(path=None) -> dict:
    return json.loads(Path(path or MANIFEST_PATH).read_text(encoding="utf-8"))["files"]


def entries_under(folder: str, manifest: dict) -> dict:
    """The manifest's entries inside ``folder`` (relative to the data root)."""
    prefix = folder.rstrip("/") + "/"
    return {rel: entry for rel, entry in manifest.items() if rel.startswith(prefix)}


def check_files(root, entries: dict) -> list[Check]:
    """Compare each listed file under ``root`` with its size and SHA-256."""
    root = Path(root)
    checks = []
    for rel, entry in entries.items():
        path = root / rel
        if not path.is_file():
            checks.append(Check("MISSING", rel))
        elif path.stat().st_size != entry["size"]:
            checks.append(Check("MISMATCH", rel, f"size {path.stat().st_size}, expected {entry['size']}"))
        elif sha256(path) != entry["sha256"]:
            checks.append(Check("MISMATCH", rel, "sha256 differs"))
        else:
            checks.append(Check("OK", rel))
    return checks


def verify(root, names=None) -> tuple[list[Check], list[str]]:
    """Check the named datasets (default: those whose folder is present) against the manifest.

    Returns the per-file checks and notes on datasets the manifest does not cover.
    """
    root, manifest = Path(root), load_manifest()
    checks, notes = [], []
    for folder in dataset_folders(names):
        if names is None and not (root / folder).is_dir():
            continue
        entries = entries_under(folder, manifest)
        pinned = list({pin["file"]: (release, pin) for release, pin in reversed(content_pins.load_pins().items())
                       if pin["file"].startswith(folder.rstrip("/") + "/")}.values())  # a file two releases pin: once
        by_kind = [n for n in (names or datasets.dataset_names())
                   if datasets.spec(n).folder == folder and datasets.spec(n).kind.pins]
        if not entries and not pinned and not by_kind:
            notes.append(f"{folder}: not in the manifest (the reference data has no copy); not checked")
            continue
        checks.extend(check_files(root, entries))
        checks.extend(c for release, pin in pinned for c in check_content(root, release, pin))
        checks.extend(check_pairs(root, name) for name in by_kind)
        if pinned and not entries and (root / folder).is_dir():  # STS 2017: track 5 pinned, the other tracks not
            covered = {f for _, pin in pinned for f in (pin["file"], pin["file"].replace(".input.", ".gs."))}
            others = sorted(p.name for p in (root / folder).glob("STS*.*.txt") if f"{folder}/{p.name}" not in covered)
            if others:
                notes.append(f"{folder}: {len(others)} file(s) no checksum or mteb figure pins, not checked: "
                             f"{', '.join(others)}")
    return checks, notes


def check_content(root: Path, release: str, pin: dict) -> list[Check]:
    """A file pinned by mteb's descriptive statistics (no checksum known): its pairs against mteb's figures; a
    multilingual task's every file (each subset its own file), each named."""
    if not in_place(root / pin["file"]) and "subsets" not in pin:
        return [Check("MISSING", pin["file"])]
    try:
        if "subsets" in pin:
            return [c for check in (pin, *pin.get("more", ())) for c in _subset_files(root, pin, check)]
        diffs = content_pins.differences(release, root)
    except FormatError as exc:
        return [Check("MISMATCH", pin["file"], f"does not parse: {exc}")]
    except DatasetNotFound:
        return [Check("MISSING", pin["file"])]
    if diffs:
        return [Check("MISMATCH", pin["file"], f"not what mteb describes for {pin['task']}: {content_pins.describe(diffs)}")]
    return [Check("OK", pin["file"], f"mteb's figures for {pin['task']}")]


def _subset_files(root: Path, pin: dict, check: dict) -> list[Check]:
    """Each subset's file of one dataset of a multilingual pin, against mteb's figures for that subset."""
    out = []
    for label, sub, diffs in content_pins.subset_checks(check, root):
        if sub is None:
            out.append(Check("MISSING", f"{datasets.spec(check['dataset']).folder}: subset {label}"))
            continue
        rel = Path(sub.input_path).resolve().relative_to(root.resolve()).as_posix()
        diffs = [d._replace(figure=d.figure.removeprefix(f"{label}: ")) for d in diffs]  # the line names the subset
        out.append(Check("MISMATCH", rel, f"not what mteb describes for {pin['task']} {sub.name}: "
                                          f"{content_pins.describe(diffs)}") if diffs
                   else Check("OK", rel, f"mteb's figures for {pin['task']} {sub.name}"))
    return out


def check_pairs(root: Path, name: str) -> Check:
    """A named dataset whose kind pins its files otherwise (the STS-B companion: pairs per source file)."""
    spec = datasets.spec(name)
    located = spec.kind.locate(spec, root / spec.folder) if (root / spec.folder).is_dir() else []
    rel = f"{spec.folder}/{located[0][1].name}" if located else spec.folder
    if not located:
        return Check("MISSING", rel)
    try:
        diffs = spec.kind.differences(root / spec.folder, spec)
    except FormatError as exc:
        return Check("MISMATCH", rel, f"does not parse: {exc}")
    if diffs:
        return Check("MISMATCH", rel, f"not {spec.kind.pins}: {content_pins.describe(diffs)}")
    return Check("OK", rel, spec.kind.pins)


def main(argv=None) -> int:
    """Maintainers: ``python -m semsts.corpora.manifest ROOT`` rewrites manifest.json from a reference data root."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m semsts.corpora.manifest ROOT   (a reference data root, e.g. ../shared/data)", file=sys.stderr)
        return 2
    files = compute(argv[0])
    about = "SHA-256 and size of the official STS files, relative to the data root; see corpora/manifest.py"
    write_text_atomic(MANIFEST_PATH, json.dumps({"about": about, "files": files}, indent=1) + "\n")
    print(f"{MANIFEST_PATH}: {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
