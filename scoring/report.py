"""The report of one run on one dataset, and its renderings (text, markdown, CSV, JSON).

The task kind (:mod:`semsts.scoring.tasks`) decides what the report holds and how its tables look;
this module only lays tables out and serializes.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Callable

UNDEFINED = "n/a"


class InvalidRun(ValueError):
    """A run directory that cannot be scored; ``errors`` holds every FormatError found."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


def fmt(value) -> str:
    """A correlation as the reports print it: five decimals, ``n/a`` when undefined."""
    return UNDEFINED if value is None or not math.isfinite(value) else f"{value:.5f}"


def fmt_ci(pair) -> str:
    lo, hi = pair
    return UNDEFINED if not math.isfinite(lo) else f"[{lo:.4f}, {hi:.4f}]"


def aligned(header, rows) -> list[str]:
    """A plain-text table: first column left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in [header, *rows]]


def markdown(header, rows) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]


def json_value(value):
    """``value`` with floats rounded to 8 decimals and undefined ones as None, for JSON."""
    if isinstance(value, dict):
        return {k: json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, float):
        return round(value, 8) if math.isfinite(value) else None
    return value


@dataclass(frozen=True)
class Report:
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

    def render(self, form: str) -> str:
        """The report as ``text``, ``markdown``, ``csv`` or ``json``."""
        return RENDERERS[form](self)


def _need_report(report) -> None:
    if not isinstance(report, Report):
        raise TypeError(f"expected a Report (from evaluate.score or evaluate.score_run), got {type(report).__name__}; "
                        "score_subsets returns figures only, without the dataset and signature a report needs")


def _render(report: Report, title: str, table: Callable, note: str, sig: str) -> str:
    _need_report(report)
    lines = [title, ""]
    for header, rows in report.task.tables(report):
        lines += table(header, rows) + [""]
    lines += [note.format(n) for n in report.notes]
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
    return report.task.csv(report)


def render_json(report: Report) -> str:
    """The report's dictionary; an undefined correlation is ``null``, floats rounded to 8 decimals."""
    _need_report(report)
    return json.dumps(json_value(report.as_dict()), indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown, "csv": render_csv}
