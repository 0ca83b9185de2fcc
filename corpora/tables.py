"""A user's plain TSV or CSV: a header naming the two text columns and, optionally, a score column.

TSV fields are split on tabs with no quoting (as in the official files); CSV follows RFC 4180 quoting.
An empty score cell marks a pair that is not scored, as an empty official gold line does.
"""
from __future__ import annotations

import csv
import io
import math
from typing import NamedTuple

import numpy as np

from semsts.core.errors import InvalidValue

from .errors import FormatError
from .formats import STS_RANGE, parse_number, read_lines

# Header names recognized without ``columns=`` (compared without case), in order of preference: the field's exports
# name them so (MTEB, sentence-transformers' examples and KorSTS: sentence1, sentence2, score; GLUE's STS-B from
# Hugging Face ``datasets``: sentence1, sentence2, label, idx; stsb_multi_mt: similarity_score; SICK and SentEval's
# SICK: sentence_A, sentence_B, relatedness_score). A column pandas wrote for its index (no name) is left alone.
TEXT_COLUMNS = (("sentence1", "sentence2"), ("sentence_1", "sentence_2"), ("sentence_a", "sentence_b"),
                ("text1", "text2"), ("text_a", "text_b"), ("s1", "s2"))
SCORE_COLUMNS = ("score", "similarity", "similarity_score", "relatedness_score", "gold", "label")
ID_COLUMNS = ("id", "pair_id", "idx")
# What a table without a score column lacks, as its errors say (Kind.no_gold of corpora.kinds' "table").
NO_SCORE = (f"score column (none of {', '.join(SCORE_COLUMNS)}; name yours with columns=(TEXT1, TEXT2, SCORE), "
            "--columns TEXT1,TEXT2,SCORE)")


class Table(NamedTuple):
    """What a table file holds; ``gold`` is None without a score column."""

    pairs: list
    gold: np.ndarray | None
    ids: list
    columns: tuple  # the header names used: (text, text) or (text, text, score)
    lines: list = []  # the line where each pair's row starts (a CSV record may span lines)


def read_table(path, columns: tuple | None = None, score_range: tuple[float, float] = STS_RANGE) -> Table:
    """Read a headed TSV (a tab in the header) or CSV; ``columns`` names (text1, text2[, score])."""
    lines = read_lines(path)
    if not lines:
        raise FormatError(path, None, "is empty; expected a header line naming the columns, then one pair per line")
    tab = "\t" in lines[0]
    rows = _rows(path, lines, tab)
    header = rows[0][1]
    first, second, score = _pick(path, header, columns)
    ident = _find_any(path, header, ID_COLUMNS)
    _refuse_glue_test(path, rows, header, score)
    pairs, gold, ids, starts = [], [], [], []
    for number, fields in rows[1:]:
        if len(fields) != len(header):
            sep = "tab" if tab else "comma"
            got = "an empty line" if fields in ([], [""]) else f"{len(fields)}"
            raise FormatError(path, number, f"expected {len(header)} {sep}-separated fields as the header has, got {got}")
        pairs.append((fields[first], fields[second]))
        starts.append(number)
        if score is not None:
            text = fields[score].strip()
            gold.append(parse_number(text, path, number, "score", score_range) if text else math.nan)
        if ident is not None:
            ids.append(fields[ident])
    if not pairs:
        raise FormatError(path, None, "has a header but no pairs")
    names = tuple(header[i] for i in (first, second, score) if i is not None)
    return Table(pairs, None if score is None else np.asarray(gold, dtype=float), ids, names, starts)


def _refuse_glue_test(path, rows: list, header: list[str], score: int | None) -> None:
    """GLUE's test split (as Hugging Face ``datasets`` exports it) has the label -1 on every row: its scores are hidden."""
    if score is None or header[score].strip().lower() != "label" or len(rows) < 2:
        return
    if all(len(fields) == len(header) and fields[score].strip() in ("-1", "-1.0") for _, fields in rows[1:]):
        raise FormatError(path, None, "has the label -1 on every row: GLUE's hidden test labels (GLUE keeps the "
                                      "test split's scores for its leaderboard); score on the validation split, "
                                      "or run the file with --columns TEXT1,TEXT2 (columns=(TEXT1, TEXT2)) unscored")


def parse_columns(text: str) -> tuple:
    """``"sentence1,sentence2,score"`` (the command line's ``--columns``) → a ``columns`` tuple."""
    names = tuple(name.strip() for name in text.split(","))
    if len(names) not in (2, 3) or not all(names):
        raise InvalidValue(f"--columns takes TEXT1,TEXT2 or TEXT1,TEXT2,SCORE (header names), got {text!r}")
    return names


def _rows(path, lines: list[str], tab: bool) -> list[tuple[int, list[str]]]:
    """``(line number, fields)`` per record, the number of the line where it starts (a CSV record may span lines)."""
    if tab:
        return [(number, line.split("\t")) for number, line in enumerate(lines, 1)]
    text = "\n".join(lines) + "\n"
    # csv's default field limit (131,072 characters) would call a long but well-quoted text bad quoting
    csv.field_size_limit(max(csv.field_size_limit(), len(text)))
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows, start = [], 1
    try:
        for fields in reader:
            rows.append((start, fields))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise FormatError(path, reader.line_num, f"bad CSV quoting ({exc})") from None
    return rows


def _pick(path, header: list[str], columns: tuple | None) -> tuple[int, int, int | None]:
    """Indices of the two text columns and the score column (None when there is none)."""
    if columns is not None:
        columns = tuple(columns)
        if len(columns) not in (2, 3) or not all(isinstance(c, str) and c for c in columns):
            raise InvalidValue(f"columns must name (text1, text2) or (text1, text2, score), got {columns!r}")
        found = [_find(path, header, name) for name in columns]
        return found[0], found[1], found[2] if len(found) == 3 else None
    lowered = [h.strip().lower() for h in header]
    for a, b in TEXT_COLUMNS:
        if a in lowered and b in lowered:
            return _find(path, header, a), _find(path, header, b), _find_any(path, header, SCORE_COLUMNS)
    known = ", ".join("/".join(pair) for pair in TEXT_COLUMNS)
    raise FormatError(path, 1, f"expected a header naming the two text columns ({known}) and optionally a score "
                               f"column ({', '.join(SCORE_COLUMNS)}), got {_show(header)}; name other columns with "
                               "columns=(TEXT1, TEXT2[, SCORE]) (--columns TEXT1,TEXT2[,SCORE])")


def _find(path, header: list[str], name: str) -> int:
    """The one column called ``name`` (exactly, else without regard to case or surrounding spaces)."""
    for key in (lambda h: h, lambda h: h.strip().lower()):
        hits = [i for i, h in enumerate(header) if key(h) == key(name)]
        if len(hits) > 1:
            raise FormatError(path, 1, f"the header has {len(hits)} columns named {name!r}; expected one")
        if hits:
            return hits[0]
    raise FormatError(path, 1, f"no column {name!r} in the header; it has {_show(header)}")


def _find_any(path, header: list[str], names: tuple) -> int | None:
    """The first of ``names`` the header has (without regard to case), or None."""
    lowered = [h.strip().lower() for h in header]
    return next((_find(path, header, name) for name in names if name in lowered), None)


def _show(header: list[str]) -> str:
    return ", ".join(repr(h) for h in header[:12]) + (", …" if len(header) > 12 else "")
