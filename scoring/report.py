"""The report of one run on one dataset, a :class:`~semsts.scoring.results.Result` rendered in every form.

The task kind (:mod:`semsts.scoring.tasks`) decides what the report holds, :mod:`semsts.scoring.report_tables`
how its tables look; this module renders them and serializes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from semsts.core.errors import STSError

from . import intervals, report_tables
from .results import FORMATS, UNDEFINED, Result, aligned, markdown  # noqa: F401 - UNDEFINED: re-exported


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
        return self._render(f"dataset: {self.dataset}", aligned, "note: {}", "signature: {}")

    def to_markdown(self):
        return self._render(f"**{self.dataset}**", markdown, "Note: {}  ", "Signature: `{}`")

    def to_csv(self):
        """One row per figure; every row carries the signature so rows stay comparable."""
        return report_tables.report_csv(self)

    def _render(self, title: str, table: Callable, note: str, sig: str) -> str:
        lines, interval = [title, ""], False
        for header, rows in self.tables():
            lines += table(header, rows) + [""]
            interval = interval or any("95% CI" in h for h in header)
        lines += [note.format(n) for n in self.notes]
        if interval:  # how the intervals were made, in the words compare and bench use for the same figure
            lines.append(note.format(f"95% CI: {intervals.FISHER}"))
        lines.append(sig.format(self.signature))
        return "\n".join(lines) + "\n"


def _renderer(form: str) -> Callable:
    def render(report: Report) -> str:
        if not isinstance(report, Report):
            raise TypeError(f"expected a Report (from evaluate.score or evaluate.score_run), got "
                            f"{type(report).__name__}; score_subsets returns figures only, without the dataset and "
                            "signature a report needs")
        return report.render(form)
    return render


RENDERERS = {form: _renderer(form) for form in FORMATS}
render_text, render_markdown, render_csv, render_json = (RENDERERS[f] for f in ("text", "markdown", "csv", "json"))
