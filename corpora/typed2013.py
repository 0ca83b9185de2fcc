"""The *SEM 2013 TYPED pilot's files: the Europeana pair list, ``text/`` records and 8-column scores.

Formats, from the official package's readme:
``STS.input.europeana.txt`` holds two tab-separated record addresses per line
(``http://www.europeana.eu/portal/record/COLLECTION/ID.html``); ``text/NNNa_COLLECTION_ID.txt``
and ``text/NNNb_…`` hold the two records of line NNN (1-based, at least three digits), one line per
field, ``FIELD:<TAB>value[<TAB>value…]``; gold and outputs hold eight tab-separated scores per line.
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Iterator, Mapping, Sequence

import numpy as np

from semsts.core.errors import InvalidValue, quote
from semsts.core.files import atomic_open

from .errors import FormatError
from .formats import STS_RANGE, format_score, in_place, output_lines, parse_number, read_lines

# The eight similarity types, in the order of the gold and output columns and of Table 3.
TYPES = ("general", "author", "people", "time", "location", "event", "subject", "description")
TYPE_LABELS = ("General", "Author", "People involved", "Time", "Location", "Event", "Subject", "Description")
FIELDS = ("dcTitle", "dcSubject", "dcDescription", "dcCreator", "dcDate", "dcSource")

INPUT_NAME = "STS.input.europeana.txt"
GOLD_NAME = "STS.gs.europeana.txt"
OUTPUT_NAME = "STS.output.europeana.txt"
TEXT_DIR = "text"
MISSING_NAME = "MISSING.txt"  # the fetcher's list of records Europeana no longer serves

_ADDRESS = re.compile(r"^https?://(?:www\.)?europeana\.eu/portal/record/([^/\s]{1,100})/([^/\s]{1,100})\.html$")
_FIELD_LINE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*):(?:\t(.*))?$")


def record_id(address: str, *, path=None, line: int | None = None) -> str:
    """``COLLECTION/ID`` of a Europeana portal address, or a FormatError naming the place."""
    match = _ADDRESS.match(address.strip())
    if not match:
        raise FormatError(path or "<address>", line,
                          "expected http://www.europeana.eu/portal/record/COLLECTION/ID.html (each at most 100 "
                          f"characters: they name files), got {quote(address)}")
    return f"{match.group(1)}/{match.group(2)}"


def read_typed_input(path) -> list[tuple[str, str]]:
    """The record ids ``(COLLECTION/ID, COLLECTION/ID)`` of every pair in ``STS.input.europeana.txt``."""
    pairs = []
    for number, line in enumerate(read_lines(path), 1):
        fields = line.strip().split("\t")
        if len(fields) != 2:
            raise FormatError(path, number, f"expected 2 tab-separated record addresses, got {len(fields)} fields")
        pairs.append((record_id(fields[0], path=path, line=number), record_id(fields[1], path=path, line=number)))
    return pairs


def record_filename(line: int, side: str, rid: str) -> str:
    """``NNNa_COLLECTION_ID.txt``: the record of ``side`` (a or b) of 1-based input ``line``."""
    return f"{line:03d}{side}_{rid.replace('/', '_')}.txt"


def parse_record(text: str, *, path=None) -> dict[str, list[str]]:
    """``{field: [values…]}`` of a record's text; a repeated field's values are appended in order."""
    record: dict[str, list[str]] = {}
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        match = _FIELD_LINE.match(line)
        if not match:
            raise FormatError(path or "<record>", number, f"expected 'FIELD:<TAB>value[<TAB>value…]', got {quote(line)}")
        name, values = match.group(1), match.group(2)
        record.setdefault(name, []).extend(v for v in (values or "").split("\t") if v.strip())
    return record


def read_record(path) -> dict[str, list[str]]:
    return parse_record("\n".join(read_lines(path)), path=path)


def clean_value(value: str) -> str:
    """A value as one field of a record line: tabs and line breaks become single spaces."""
    return re.sub(r"[\t\r\n\u2028\u2029]+", " ", value).strip()


def format_record(record: Mapping[str, Sequence[str]]) -> str:
    """The text of a record file: one ``FIELD:<TAB>v1<TAB>v2`` line per field that has values."""
    lines = []
    for name, values in record.items():
        kept = [clean_value(v) for v in values]
        kept = [v for v in kept if v]
        if kept:
            lines.append(name + ":\t" + "\t".join(kept))
    return "".join(line + "\n" for line in lines)


def missing_records(text_dir) -> set[str]:
    """Record ids the fetcher listed in ``text/MISSING.txt`` as gone from Europeana."""
    path = Path(text_dir) / MISSING_NAME
    if not in_place(path):
        return set()
    return {line.split("\t")[0].strip() for line in read_lines(path) if line.strip()}


def gone_notes(folder) -> list[str]:
    """A note naming the records of ``folder/text`` that Europeana no longer serves, if any."""
    gone = sorted(missing_records(Path(folder) / TEXT_DIR))
    return [f"{folder}: {len(gone)} records no longer exist at Europeana (listed in {TEXT_DIR}/{MISSING_NAME}) "
            f"and read as empty records, e.g. {gone[0]}"] if gone else []


def read_pair_records(input_path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(record texts, record ids)`` of every input pair, from ``text/`` beside the input file.

    A record listed in ``text/MISSING.txt`` reads as empty (see :func:`gone_notes`); any other
    absent record file is an error naming it.
    """
    input_path = Path(input_path)
    text_dir = input_path.parent / TEXT_DIR
    ids = read_typed_input(input_path)
    gone = missing_records(text_dir)
    texts = []
    for number, pair in enumerate(ids, 1):
        both = []
        for side, rid in zip("ab", pair):
            path = text_dir / record_filename(number, side, rid)
            if in_place(path):
                both.append(format_record(read_record(path)))
            elif rid in gone:
                both.append("")
            else:
                raise FormatError(path, None, f"record file of {input_path.name} line {number} is missing; "
                                  "run `sts data fetch typed2013 --api-key KEY` to rebuild text/")
        texts.append(tuple(both))
    return texts, ids


def _parse_row(line: str, path, number: int, what: str, score_range) -> list[float]:
    fields = line.strip().split("\t")
    if len(fields) != len(TYPES):
        raise FormatError(path, number, f"expected {len(TYPES)} tab-separated {what}s "
                          f"({', '.join(TYPES)}), got {len(fields)} fields")
    return [parse_number(f, path, number, f"{t} {what}", score_range) for t, f in zip(TYPES, fields)]


def _read_rows(path, what: str, score_range) -> np.ndarray:
    rows = [_parse_row(line, path, number, what, score_range) for number, line in enumerate(read_lines(path), 1)]
    return np.asarray(rows, dtype=float).reshape(len(rows), len(TYPES))


def is_typed_file(path) -> bool:
    """Whether a score file is TYPED: its first line holds eight tab-separated fields."""
    try:
        lines = read_lines(path)
    except (FormatError, OSError):
        return False
    return bool(lines) and len(lines[0].strip().split("\t")) == len(TYPES)


def read_typed_gold(path, *, score_range=STS_RANGE) -> np.ndarray:
    """An ``(n, 8)`` array of gold scores; every line must hold eight numbers."""
    return _read_rows(path, "gold score", score_range)


def check_typed_output(path, n_expected: int | None = None, *, score_range=STS_RANGE) -> Iterator[FormatError]:
    """Every problem of an 8-column system output: columns, numbers, range, line count."""
    try:
        lines = output_lines(path)
    except FormatError as exc:
        yield exc
        return
    for number, line in enumerate(lines, 1):
        try:
            _parse_row(line, path, number, "score", score_range)
        except FormatError as exc:
            yield exc
    if n_expected is not None and len(lines) != n_expected:
        yield FormatError(path, len(lines) or None, f"has {len(lines)} lines, the input has {n_expected} pairs")


def read_typed_output(path, n_expected: int | None = None, *, score_range=STS_RANGE) -> np.ndarray:
    """An ``(n, 8)`` array of system scores, after :func:`check_typed_output` found nothing wrong."""
    errors = list(check_typed_output(path, n_expected, score_range=score_range))
    if errors:
        raise errors[0]
    return _read_rows(path, "score", score_range)


def write_typed_output(path, scores, *, score_range=STS_RANGE) -> None:
    """Write an ``(n, 8)`` output file atomically; refuses other shapes, NaN, inf and out-of-range scores."""
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or scores.shape[1] != len(TYPES):
        raise ValueError(f"typed scores must have shape (n, {len(TYPES)}), got {scores.shape}")
    lo, hi = score_range
    for i, row in enumerate(scores, 1):
        for name, value in zip(TYPES, row):
            if not math.isfinite(value) or not lo <= value <= hi:
                raise InvalidValue(f"pair {i} {name} score is {float(value)!r}; expected a finite number in [{lo:g}, {hi:g}]")
    with atomic_open(path) as handle:
        for row in scores:
            handle.write("\t".join(format_score(v) for v in row) + "\n")
