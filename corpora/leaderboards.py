"""The task papers' published result tables, shipped as TSV files in ``corpora/leaderboards/``.

Each file names its source (paper, table) in ``# key: value`` header lines, then has one row per
run with the paper's figures and ranks, so new systems can be placed among the published ones
(the ranking maths is the scorer's: :mod:`semsts.scoring.ranking`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import DatasetNotFound, FormatError, SubsetNotFound
from .formats import read_lines
from .reports import RULES  # how a measure follows from the per-subset figures: the one vocabulary of what tasks report

FOLDER = Path(__file__).resolve().parent / "leaderboards"
ROLES = ("run", "baseline", "reference", "late")
HEADER_KEYS = ("source", "dataset", "aggregate", "primary", "sizes", "labels", "marks", "text")
FIXED_COLUMNS = ("name", "role", "marks", "notes")


@dataclass(frozen=True)
class Row:
    """One published run: its figures (subset and printed measure columns), the paper's ranks."""

    name: str
    role: str
    scores: dict
    ranks: dict
    marks: str
    notes: str
    line: int
    text: dict = field(default_factory=dict)  # the table's text columns (``# text:``), e.g. a model's revision

    def flagged(self, flag: str) -> bool:
        """Whether the notes carry ``flag`` (e.g. ``rank-mismatch:mean``), a known quirk of the paper."""
        return any(part.strip().split(" ")[0] == flag for part in self.notes.split(";"))


@dataclass(frozen=True)
class Leaderboard:
    """A published table: where it comes from, how its measures aggregate, and its rows in the paper's order."""

    name: str
    title: str
    source: str
    dataset: str
    measures: dict
    primary: str
    subsets: tuple
    sizes: dict
    labels: dict
    marks: dict
    rows: tuple
    path: Path | None
    columns: tuple = ()  # the file's columns in the paper's order
    digits: int = 4  # decimals the paper prints
    text_columns: tuple = ()  # columns of text, not figures (``# text: a; b``): provenance such as a revision

    def label(self, key: str) -> str:
        return self.labels.get(key, key)

    def row(self, name: str) -> Row:
        for row in self.rows:
            if row.name == name:
                return row
        raise SubsetNotFound(f"{self.name} has no row {name!r}")


def leaderboard_names() -> list[str]:
    return sorted(path.stem for path in FOLDER.glob("*.tsv"))


def load_leaderboard(name: str) -> Leaderboard:
    path = FOLDER / f"{name}.tsv"
    if not path.is_file():
        raise DatasetNotFound(f"no published leaderboard {name!r}; known: {', '.join(leaderboard_names())}")
    return read_leaderboard(path)


def for_dataset(dataset: str) -> Leaderboard:
    """The published table of a dataset's task (the first by name when several name it)."""
    for name in leaderboard_names():
        board = load_leaderboard(name)
        if board.dataset == dataset:
            return board
    known = sorted({b.dataset for b in map(load_leaderboard, leaderboard_names()) if b.dataset})
    raise DatasetNotFound(f"no published leaderboard for {dataset!r}; published: {', '.join(known)}")


def _pairs(path, number: int, text: str, numeric: bool = False) -> dict:
    out = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, sep, value = part.partition("=")
        if not sep:
            raise FormatError(path, number, f"expected key=value items separated by ';', got {part!r}")
        if numeric:
            try:
                value = int(value)
            except ValueError:
                raise FormatError(path, number, f"expected a whole number for {key}, got {value!r}") from None
        out[key.strip()] = value.strip() if isinstance(value, str) else value
    return out


def read_leaderboard(path) -> Leaderboard:
    """Parse a leaderboard TSV; any malformed header, row or cell is a FormatError at its line."""
    path = Path(path)
    lines = read_lines(path)
    meta, title, header, rows = {}, "", None, []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            text = line.lstrip("#").strip()
            key, sep, value = text.partition(":")
            if sep and key in HEADER_KEYS:
                meta[key] = (number, value.strip())
            elif not title:
                title = text
            continue
        fields = line.split("\t")
        if header is None:
            header = fields
            text_columns = _text_columns(path, meta, header)
            _check_header(path, number, header, meta)
            measures = _pairs(path, meta["aggregate"][0], meta["aggregate"][1])
            continue
        if len(fields) != len(header):
            raise FormatError(path, number, f"expected {len(header)} tab-separated fields, got {len(fields)}")
        rows.append(_row(path, number, dict(zip(header, fields)), measures, text_columns))
    if header is None:
        raise FormatError(path, None, "no column header line")
    if not rows:
        raise FormatError(path, None, "no rows")
    subsets = tuple(c for c in header if c not in FIXED_COLUMNS and c not in measures and c not in text_columns
                    and not c.endswith("_rank"))
    sizes = _pairs(path, meta["sizes"][0], meta["sizes"][1], numeric=True) if "sizes" in meta else {}
    return Leaderboard(
        name=path.stem, title=title, source=meta["source"][1], dataset=meta["dataset"][1],
        measures=measures, primary=meta["primary"][1], subsets=subsets, sizes=sizes,
        labels=_pairs(path, *meta["labels"]) if "labels" in meta else {},
        marks=_pairs(path, *meta["marks"]) if "marks" in meta else {},
        rows=tuple(rows), path=path, columns=tuple(header), digits=_digits(lines, header, text_columns),
        text_columns=text_columns)


def _text_columns(path, meta: dict, header: list) -> tuple:
    """The columns ``# text: a; b`` names; each must be in the header."""
    if "text" not in meta:
        return ()
    number, value = meta["text"]
    names = tuple(filter(None, (n.strip() for n in value.split(";"))))
    missing = [n for n in names if n not in header]
    if missing:
        raise FormatError(path, number, f"text column(s) {', '.join(missing)} not in the column header")
    return names


def _digits(lines, header, text_columns=()) -> int:
    """The most decimals of any figure in the file: the paper's printing precision."""
    most = 0
    for line in lines:
        if line.startswith("#") or not line.strip():
            continue
        for column, cell in zip(header, line.split("\t")):
            if column not in FIXED_COLUMNS and column not in text_columns and not column.endswith("_rank") \
                    and _is_number(cell):
                most = max(most, len(cell.split(".")[1]))
    return most or 4


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return "." in text


def _check_header(path, number: int, header: list, meta: dict) -> None:
    for key in ("source", "dataset", "aggregate", "primary"):
        if key not in meta:
            raise FormatError(path, None, f"missing '# {key}: …' header line")
    missing = [c for c in FIXED_COLUMNS if c not in header]
    if missing:
        raise FormatError(path, number, f"column header lacks {', '.join(missing)}")
    measures = _pairs(path, meta["aggregate"][0], meta["aggregate"][1])
    for measure, rule in measures.items():
        if rule not in RULES:
            raise FormatError(path, meta["aggregate"][0], f"measure {measure}: rule {rule!r} is not one of {', '.join(RULES)}")
    if meta["primary"][1] not in measures:
        raise FormatError(path, meta["primary"][0], f"primary measure {meta['primary'][1]!r} is not in the aggregate line")


def _row(path, number: int, cells: dict, measures: dict, text_columns=()) -> Row:
    role = cells["role"]
    if role not in ROLES:
        raise FormatError(path, number, f"role {role!r} is not one of {', '.join(ROLES)}")
    scores, ranks = {}, {}
    for column, text in cells.items():
        if column in FIXED_COLUMNS or column in text_columns or not text.strip():
            continue
        if column.endswith("_rank"):
            try:
                ranks[column[:-5]] = int(text)
            except ValueError:
                raise FormatError(path, number, f"{column}: expected a whole number or an empty cell, got {text!r}") from None
            continue
        try:
            value = float(text)
        except ValueError:
            raise FormatError(path, number, f"{column}: expected a correlation or an empty cell, got {text!r}") from None
        if not -1.0 <= value <= 1.0 and measures.get(column) != "sum":
            raise FormatError(path, number, f"{column}: {value:g} is not a correlation in [-1, 1]")
        scores[column] = value
    return Row(cells["name"], role, scores, ranks, cells["marks"], cells["notes"], number,
               {c: cells[c] for c in text_columns})
