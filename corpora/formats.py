"""Readers and writers for the official STS, STS Benchmark and CLSS file formats.

All years share these rules: UTF-8 (a BOM and CRLF line ends tolerated), tab-separated
fields with no CSV quoting, and an empty gold line marking a pair that was not scored.
"""
from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from semsts.core.errors import MAX_QUOTE, InvalidValue, quote
from semsts.core.files import atomic_open, not_regular, too_large

from .errors import FormatError

STS_RANGE = (0.0, 5.0)
CLSS_RANGE = (0.0, 4.0)
CONFIDENCE_RANGE = (0.0, 100.0)
# A plain ASCII decimal number; float() would also take "1_0", "nan", "infinity", "٣" and "３".
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def read_lines(path) -> list[str]:
    """Lines of a UTF-8 file without their ends; a final line end does not add a line."""
    path = Path(path)
    check_regular(path)
    return split_lines(path.read_bytes(), path)


def split_lines(data: bytes, path) -> list[str]:
    """:func:`read_lines` of bytes already read from ``path`` (named in errors)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = []
    for number, raw in enumerate(lines, 1):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise FormatError(path, number, f"not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    return out


def in_place(path) -> bool:
    """Whether a data file is in place, whatever it is: a FIFO, folder, device or dangling link counts, so that its
    reader refuses it by name (:func:`check_regular`, without opening it) instead of it being called absent."""
    return os.path.lexists(path)


def check_regular(path: Path) -> None:
    """A data file must be a regular file (a dangling link, a folder or a FIFO, which would hang, is refused) of at most
    :data:`~semsts.core.files.MAX_DATA_BYTES` (read whole, a larger one could take all memory)."""
    why = not_regular(path, follow=True) or too_large(path)
    if why:
        raise FormatError(path, None, why)


def parse_number(text: str, path, line: int, what: str, score_range: tuple[float, float]) -> float:
    """A finite number within ``score_range``, or a FormatError saying what was expected."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        try:
            finite = math.isfinite(float(text))
        except ValueError:
            finite = True
        if not finite:
            raise FormatError(path, line, f"expected a finite {what}, got {quote(text)}")
        article = "an" if what[:1] in "aeiou" else "a"
        raise FormatError(path, line, f"expected {article} {what} as a number, got {quote(text)}")
    value = float(text)
    if not math.isfinite(value):
        raise FormatError(path, line, f"expected a finite {what}, got {quote(text)}")
    lo, hi = score_range
    if not lo <= value <= hi:
        shown = text if len(text) <= MAX_QUOTE else quote(text)
        raise FormatError(path, line, f"{what} {shown} is outside [{lo:g}, {hi:g}]")  # as written: 5.0000001, not 5
    return value


def _tab_rows(path, want: int, expected) -> Iterator[tuple[int, list[str]]]:
    """``(line number, tab-separated fields)`` per line; fewer than ``want`` fields is ``expected(line, fields)``."""
    for number, line in enumerate(read_lines(path), 1):
        fields = line.split("\t")
        if len(fields) < want:
            raise FormatError(path, number, expected(line, fields))
        yield number, fields


def read_sts_input(path) -> list[tuple[str, str]]:
    """``sentence1<TAB>sentence2[<TAB>licence fields…]`` per line."""
    def expected(line, _):
        return f"expected sentence1<TAB>sentence2[<TAB>licence…], got {'1 field (no tab)' if line.strip() else 'an empty line'}"
    return [(f[0], f[1]) for _, f in _tab_rows(path, 2, expected)]


def read_gold(path, score_range: tuple[float, float] = STS_RANGE) -> np.ndarray:
    """One score per line; an empty line (a pair not scored) becomes NaN, and only that."""
    values = []
    for number, line in enumerate(read_lines(path), 1):
        text = line.strip()
        if not text:
            values.append(math.nan)
            continue
        fields = text.split("\t")
        if len(fields) != 1:
            raise FormatError(path, number, f"expected one score per gold line, got {len(fields)} fields")
        values.append(parse_number(text, path, number, "gold score", score_range))
    return np.asarray(values, dtype=float)


STSB_COLUMNS = ("genre", "file", "year", "id")  # before score, sentence1, sentence2 in the STS Benchmark's files
COMPANION_COLUMNS = ("file", "year", "id")  # … and in its companion's (sts-mt.csv, sts-other.csv): no genre


def read_stsb(path, columns: tuple = STSB_COLUMNS) -> tuple[list[tuple[str, str]], np.ndarray, list[dict]]:
    """STS Benchmark: ``genre, file, year, id, score, sentence1, sentence2[, licence fields…]``; ``columns`` names
    the fields before the score (:data:`COMPANION_COLUMNS` for the companion's files)."""
    pairs, gold, meta = [], [], []
    want = len(columns) + 3
    for number, fields in _tab_rows(path, want, lambda _, fields: f"expected {want} or more tab-separated fields "
                                    f"({', '.join(columns)}, score, sentence1, sentence2), got {len(fields)}"):
        gold.append(parse_number(fields[len(columns)], path, number, "gold score", STS_RANGE))
        pairs.append((fields[want - 2], fields[want - 1]))
        meta.append(dict(zip(columns, fields)))
    return pairs, np.asarray(gold, dtype=float), meta


def read_clss_input(path, level: str) -> tuple[list[tuple[str, str]], list[str]]:
    """CLSS: ``larger, smaller, id``; word2sense: ``word, sense_key, sense_number, id``."""
    want = 4 if level == "word2sense" else 3
    rows = [f for _, f in _tab_rows(path, want, lambda _, f: f"expected {want} tab-separated fields for {level}, "
                                                           f"got {len(f)}")]
    return [(f[0], f[1]) for f in rows], [f[want - 1] for f in rows]


def read_output(path, n_expected: int | None = None, score_range: tuple[float, float] = STS_RANGE):
    """A system output: ``score`` or ``score<TAB>confidence`` per line, every line filled.

    Returns ``(scores, confidences)``; confidences is None when no line carries one.
    """
    for error in check_output(path, n_expected, score_range):
        raise error
    scores, confidences = [], []
    for line in read_lines(path):
        fields = line.strip().split("\t")
        scores.append(float(fields[0]))
        confidences.append(float(fields[1]) if len(fields) == 2 else math.nan)
    conf = np.asarray(confidences, dtype=float)
    return np.asarray(scores, dtype=float), (None if np.isnan(conf).all() else conf)


def output_lines(path) -> list[str]:
    """The lines of a system output file; a FormatError if it is missing, unreadable or no regular file."""
    if not in_place(path):
        raise FormatError(path, None, "output file is missing")
    return read_lines(path)  # a folder, FIFO, device or dangling link is refused there, saying which


def check_output(path, n_expected: int | None = None, score_range: tuple[float, float] = STS_RANGE) -> Iterator[FormatError]:
    """Every problem of a system output file, one FormatError per bad line."""
    path = Path(path)
    try:
        lines = output_lines(path)
    except FormatError as exc:
        yield exc
        return
    with_conf = 0
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            yield FormatError(path, number, "empty line: every input pair needs a score")
            continue
        fields = text.split("\t")
        if len(fields) > 2:
            yield FormatError(path, number, f"expected 'score' or 'score<TAB>confidence', got {len(fields)} fields")
            continue
        try:
            parse_number(fields[0], path, number, "score", score_range)
            if len(fields) == 2:
                with_conf += 1
                parse_number(fields[1], path, number, "confidence", CONFIDENCE_RANGE)
        except FormatError as exc:
            yield exc
    if 0 < with_conf < len(lines):
        yield FormatError(path, None, f"{with_conf} of {len(lines)} lines carry a confidence: give it on every line or none")
    if n_expected is not None and len(lines) != n_expected:
        yield FormatError(path, len(lines) or None, f"has {len(lines)} lines, the input has {n_expected} pairs")


def format_score(value: float, exact: bool = False) -> str:
    """``value`` with six decimals; ``exact``, with every digit it takes to read back the same float (no exponent)."""
    return np.format_float_positional(value, unique=True, trim="0") if exact else f"{value:.6f}"


def write_output(path, scores: Sequence[float], confidences: Sequence[float] | None = None,
                 score_range: tuple[float, float] = STS_RANGE, exact: bool = False) -> None:
    """Write an official output file atomically; refuses NaN, inf and out-of-range scores or confidences. Scores
    have six decimals, or with ``exact`` every digit (:func:`format_score`)."""
    scores = np.asarray(scores, dtype=float)
    if confidences is not None and len(confidences) != len(scores):
        raise ValueError(f"{len(scores)} scores but {len(confidences)} confidences")
    _check_values("score", scores, score_range)
    if confidences is not None:
        _check_values("confidence", np.asarray(confidences, dtype=float), CONFIDENCE_RANGE)
    with atomic_open(path) as handle:
        for i, value in enumerate(scores):
            line = format_score(value, exact)
            if confidences is not None:
                line += "\t" + format_score(float(confidences[i]))
            handle.write(line + "\n")


def _check_values(what: str, values: np.ndarray, score_range: tuple[float, float]) -> None:
    lo, hi = score_range
    for i, value in enumerate(values, 1):
        if not math.isfinite(value) or not lo <= value <= hi:
            raise InvalidValue(f"{what} {i} is {float(value)!r}; expected a finite number in [{lo:g}, {hi:g}]")
