"""The report of one run on one dataset, a :class:`~semsts.scoring.results.Result` rendered in every form.

The task kind (:mod:`semsts.scoring.tasks`) decides what the report holds, :mod:`semsts.scoring.report_tables`
how its tables look; this module renders them and serializes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

from semsts.core.errors import STSError

from . import intervals, report_tables
from .results import FORMATS, UNDEFINED, Result, aligned, fmt, json_value, markdown  # noqa: F401 - fmt and json_value: re-exported


class InvalidRun(ValueError, STSError):
    """A run directory that cannot be scored; ``errors`` holds every FormatError found."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


@dataclass(frozen=True)
class Report(Result):
    """The scores of one run on one dataset, as its task kind computes them, with the signature.

    ``figures`` holds the task's numbers (STS: ``subsets``, ``all``, ``allnorm``, ``mean``, …; TYPED:
    ``n``, ``types``, ``mean``); ``report[key]`` reads a figure or any key of :meth:`as_dict`.
    """

    dataset: str
    task: object  # a scoring.tasks.TaskKind
    figures: dict
    signature: object  # a scoring.signature.Signature
    notes: tuple = ()
    missing: tuple = field(default=())
    kind: str = ""  # the dataset's kind (corpora.kinds), e.g. stsb; the task's name when not given

    def as_dict(self) -> dict:
        """The JSON shape: dataset, kind, then the task's keys in its order."""
        values = {**self.figures, "missing": list(self.missing), "notes": list(self.notes),
                  "signature": str(self.signature)}
        return {"dataset": self.dataset, "kind": self.kind or self.task.name, **{k: values[k] for k in self.task.json_keys}}

    def __getitem__(self, key):
        return self.as_dict()[key]

    def get(self, key, default=None):
        return self.as_dict().get(key, default)

    def title(self) -> str:
        return f"dataset: {self.dataset}"

    def tables(self):
        return report_tables.tables(self)

    def lines(self):
        return [f"note: {n}" for n in self.notes] + [f"signature: {self.signature}"]

    def to_text(self):
        return render_text(self)

    def to_markdown(self):
        return render_markdown(self)

    def to_csv(self):
        return render_csv(self)

    def to_json(self):
        return render_json(self)


def _need_report(report) -> None:
    if not isinstance(report, Report):
        raise TypeError(f"expected a Report (from evaluate.score or evaluate.score_run), got {type(report).__name__}; "
                        "score_subsets returns figures only, without the dataset and signature a report needs")


def _render(report: Report, title: str, table: Callable, note: str, sig: str) -> str:
    _need_report(report)
    lines, interval = [title, ""], False
    for header, rows in report_tables.tables(report):
        lines += table(header, rows) + [""]
        interval = interval or any("95% CI" in h for h in header)
    lines += [note.format(n) for n in report.notes]
    if interval:  # how the intervals were made, in the words compare and bench use for the same figure
        lines.append(note.format(f"95% CI: {intervals.FISHER}"))
    lines.append(sig.format(report.signature))
    return "\n".join(lines) + "\n"


def render_text(report: Report) -> str:
    _need_report(report)
    return _render(report, f"dataset: {report.dataset}", aligned, "note: {}", "signature: {}")


def render_markdown(report: Report) -> str:
    _need_report(report)
    return _render(report, f"**{report.dataset}**", markdown, "Note: {}  ", "Signature: `{}`")


def render_csv(report: Report) -> str:
    """One row per figure; every row carries the signature so rows stay comparable."""
    _need_report(report)
    return report_tables.report_csv(report)


def render_json(report: Report) -> str:
    """The report's dictionary; an undefined correlation is ``null``, floats rounded to 8 decimals."""
    _need_report(report)
    return json.dumps(json_value(report.as_dict()), indent=2, ensure_ascii=False) + "\n"


def _renderer(form: str) -> Callable:
    def render(report: Report) -> str:
        _need_report(report)
        return report.render(form)
    return render


RENDERERS = {form: _renderer(form) for form in FORMATS}
