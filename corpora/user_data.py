"""A user's own data: a dataset name or a path, read into a Dataset by what the file is.

Accepted: an STS year folder (``STS.input.X.txt`` + ``STS.gs.X.txt``, also ``STS2016.`` names), one
``STS.input.X.txt`` (its gold beside it if there), an STS Benchmark csv, a SICK file, and a headed
TSV/CSV (see corpora.tables). The Dataset carries the path and a SHA-256 for signatures.
"""
from __future__ import annotations

import hashlib
import math
import re
import warnings
from pathlib import Path

from semsts.core.errors import InvalidValue, Note
from semsts.core.stats import checked_range

from . import datasets, formats, sick
from .datasets import Dataset
from .errors import DatasetNotFound, FormatError
from .kinds import KINDS, STS_GOLD, STS_INPUT, companion_subsets, scan_sts, sts_gold_of
from .manifest import sha256


def resolve(spec, data_dir=None, *, columns=None, score_range=None) -> Dataset:
    """A registered dataset by name, else the file or folder at ``spec`` (see :func:`load_path`).

    A name wins over a file of the same name in the current folder (write ``./NAME`` for the file).
    """
    if isinstance(spec, str) and spec in datasets.SPECS:
        if columns is not None or score_range is not None:
            raise InvalidValue(f"columns and score_range apply to files, not to the named dataset {spec!r}")
        return datasets.load(spec, data_dir)
    path = Path(spec).expanduser()
    if not path.exists():
        import difflib
        close = difflib.get_close_matches(str(spec), datasets.dataset_names(), n=3)
        raise DatasetNotFound(f"{str(spec)!r} is neither a known dataset nor an existing file or folder"
                              + (f"; the closest known: {', '.join(close)}" if close else "")
                              + "; `sts data list` lists every known dataset")
    return load_path(path, columns=columns, score_range=score_range, name=str(spec))


def resolve_all(specs, data_dir=None, *, columns=None) -> list[Dataset]:
    """Each of ``specs`` resolved; ``columns`` (the command line's ``--columns``) applies to the files among them,
    and is refused when there are none (it would be ignored without a word)."""
    if columns is not None and specs and all(spec in datasets.SPECS for spec in specs):
        raise InvalidValue(f"--columns names the columns of your own files; {', '.join(map(str, specs))} "
                           f"{'is a named dataset' if len(specs) == 1 else 'are named datasets'}, read in their own format")
    return [resolve(spec, data_dir, columns=None if spec in datasets.SPECS else columns) for spec in specs]


def load_path(path, *, columns=None, score_range=None, name: str | None = None) -> Dataset:
    """Read a file or folder in any accepted format, told apart by its name and first line.

    ``columns`` (text1, text2[, score]) reads the file as a plain table whatever it looks like;
    ``score_range`` replaces the default gold range ([0, 5]; SICK [1, 5]). A file with an empty text (nothing but
    whitespace), which many encoders refuse, gets a :class:`~semsts.core.errors.Note` naming its file and line.
    """
    dataset = _load_path(Path(path), columns, score_range, str(path) if name is None else name)
    for sub in dataset.subsets:
        empty = [i for i, (a, b) in enumerate(sub.pairs) if not a.strip() or not b.strip()]
        if empty:
            more = f" ({len(empty):,} pairs have one)" if len(empty) > 1 else ""
            warnings.warn(Note(f"{sub.input_path}:{sub.line(empty[0])}: a pair has an empty text{more}; "
                               "an encoder may refuse it"), stacklevel=2)
    return dataset


def _load_path(path: Path, columns, score_range, name: str) -> Dataset:
    score_range = () if score_range is None else checked_range(score_range)
    if path.is_dir():
        _no_columns(path, columns, "an STS folder")
        return _sts_folder(path, name, score_range)
    if STS_GOLD.match(path.name):
        raise FormatError(path, None, "is a gold file; give the STS.input file beside it (its gold is found by name)")
    if STS_INPUT.match(path.name):
        _no_columns(path, columns, "an STS input file")
        return _sts_file(path, name, score_range)
    first = formats.read_lines(path)[:1]
    kind = KINDS["table"]
    if columns is None and first and sick.is_header(first[0]):
        kind = KINDS["sick"]
    elif columns is None and first and _looks(first[0], 7, 4):  # 7 tab fields or more, the fifth a number
        kind = KINDS["stsb"]
    elif columns is None and first and _looks(first[0], 6, 3, year=1):  # each source file a subset
        kind = KINDS["stscompanion"]
    names = companion_subsets(path) if kind is KINDS["stscompanion"] else [path.stem]
    subs = tuple(kind.read(name, sub, path, path, score_range=score_range, columns=columns) for sub in names)
    return Dataset(name, kind, subs, (), path, sha256(path))


def digest(files, root) -> str:
    """One file: its SHA-256. Several: the SHA-256 of their ``sha256sum`` lines (``HASH  PATH``, paths
    relative to ``root``, sorted), so ``sha256sum FILES | sort -k2 | sha256sum`` in ``root`` gives it."""
    files = list(dict.fromkeys(Path(f) for f in files))
    if len(files) == 1:
        return sha256(files[0])
    listing = sorted((f.relative_to(root).as_posix(), sha256(f)) for f in files)
    return hashlib.sha256("".join(f"{h}  {rel}\n" for rel, h in listing).encode("utf-8")).hexdigest()


def _no_columns(path: Path, columns, what: str) -> None:
    if columns is not None:
        raise InvalidValue(f"{path} is {what}; columns apply to a plain TSV/CSV file only")


def _looks(line: str, width: int, score: int, year: int | None = None) -> bool:
    """A line of the STS Benchmark (``width`` 7) or its companion (6, a year such as 2012 or 2012test at ``year``):
    ``width`` tab fields or more, a number at ``score``."""
    fields = line.split("\t")
    if len(fields) < width or (year is not None and not re.fullmatch(r"20\d\d[a-z]*", fields[year])):
        return False
    try:
        formats.parse_number(fields[score], "", 0, "score", (-math.inf, math.inf))
    except FormatError:
        return False
    return True


def _sts_folder(folder: Path, name: str, score_range) -> Dataset:
    sts = KINDS["sts"]
    found = scan_sts(folder)
    if not found:
        raise FormatError(folder, None, "holds no STS.input.X.txt (or STS2016.input.X.txt) file; expected an STS "
                                        "folder of STS.input.X.txt and STS.gs.X.txt files")
    subsets = tuple(sts.read(name, sub, inp, gold, score_range=score_range) for sub, (inp, gold) in found.items())
    notes = tuple(f"{name}: {s.input_path.name} has no gold file beside it: its pairs are not scored"
                  for s in subsets if not s.has_gold)
    files = [p for s in subsets for p in (s.input_path, s.gold_path) if p is not None]
    return Dataset(name, sts, subsets, notes, folder, digest(files, folder))


def _sts_file(path: Path, name: str, score_range) -> Dataset:
    sts = KINDS["sts"]
    prefix, subset = STS_INPUT.match(path.name).groups()
    gold = sts_gold_of(path.parent, prefix, subset)
    sub = sts.read(name, subset, path, gold, score_range=score_range)
    notes = () if gold else (f"{name}: no STS.gs.{subset}.txt beside it: its pairs are not scored",)
    return Dataset(name, sts, (sub,), notes, path, digest([p for p in (path, gold) if p], path.parent))
