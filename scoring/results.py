"""Typed results and their one rendering protocol: ``result.render(form)`` for every form in :data:`FORMATS`.

A result (a :class:`~semsts.scoring.report.Report`, a :class:`~semsts.scoring.compare_tables.Comparison`,
a :class:`~semsts.scoring.bench_tables.Bench`) says what it
holds as a title, tables (header and rows), lines under them and a dictionary; :class:`Result` lays
those out in each form. A result whose form has a layout of its own (a report's text, compare's LaTeX)
overrides ``to_FORM``; every form of every result exists.
"""
from __future__ import annotations

import csv
import html
import io
import json
import math

FORMATS = ("text", "markdown", "csv", "latex", "json", "html")
UNDEFINED = "n/a"  # an undefined correlation, as every form prints it


def number(value, form: str) -> str:
    """A figure in the format ``form`` (``".5f"``, ``"+.2f"``…), or :data:`UNDEFINED` when it is undefined (None, NaN:
    a correlation with a constant side): every table of every form prints an undefined figure through this."""
    return UNDEFINED if value is None or not math.isfinite(value) else format(value, form)


def fmt(value) -> str:
    """A correlation as the reports print it: five decimals, ``n/a`` when undefined."""
    return number(value, ".5f")


WIDTH = 120  # the widest line of text output: prose is wrapped, a wider table comes in blocks of columns


def wrapped(text: str, indent: str = "") -> str:
    """A line of prose no wider than :data:`WIDTH`, its continuation lines indented two more spaces."""
    import textwrap
    return "\n".join(textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                                    break_long_words=False, break_on_hyphens=False)) or indent.rstrip()


def aligned(header, rows, *, left: int = 1) -> list[str]:
    """A plain-text table: the first ``left`` columns left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in [header, *rows]]


def _leading(header) -> int:
    """How many columns name a row (repeated in every block of a wide table): rank and model, dataset and system,
    the two rows of a test, else the first."""
    return 1 + (header[0] in ("rank", "dataset", "higher"))


def text_blocks(header, body, gaps=None, *, width: int = WIDTH) -> list[str]:
    """A table as aligned text no wider than ``width`` where it can be: the columns after the leading ones in blocks,
    each block with the leading columns again, a blank line between blocks; ``gaps`` (body position -> line) are
    written before the body row at that position (at the end for ``len(body)``)."""
    lead = _leading(header)
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    blocks, current, used = [], [], sum(widths[:lead]) + 2 * (lead - 1)
    for i in range(lead, len(header)):
        if current and used + 2 + widths[i] > width:
            blocks.append(current)
            current, used = [], sum(widths[:lead]) + 2 * (lead - 1)
        current.append(i)
        used += 2 + widths[i]
    blocks.append(current)
    out = []
    for n, columns in enumerate(blocks):
        keep = [*range(lead), *columns]
        lines = aligned([header[i] for i in keep], [[r[i] for i in keep] for r in body], left=lead)
        for position in sorted(gaps or {}, reverse=True):
            lines.insert(1 + position, gaps[position])
        out += ([""] if n else []) + lines
    return out


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


def latex_escape(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}"), ("†", r"$\dagger$"),
                 ("‡", r"$\ddagger$")):
        text = text.replace(a, b)
    return text


def latex_table(header, rows, caption: str, bold=None) -> list[str]:
    """A booktabs table; rows whose ``bold`` flag is set are set in bold."""
    lines = [r"\begin{table}[t]", r"\centering\small", r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
             r"\toprule", " & ".join(latex_escape(h) for h in header) + r" \\", r"\midrule"]
    for i, cells in enumerate(rows):
        cells = [latex_escape(c) for c in cells]
        lines.append(" & ".join(rf"\textbf{{{c}}}" if bold and bold[i] and c else c for c in cells) + r" \\")
    return lines + [r"\bottomrule", r"\end{tabular}", rf"\caption{{{latex_escape(caption)}}}", r"\end{table}"]


def html_table(header, rows, ours=None) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(f'<tr{" class=ours" if ours and ours[i] else ""}>' + "".join(
        f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for i, row in enumerate(rows))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Result:
    """The rendering protocol. Subclasses give :meth:`title`, :meth:`tables`, :meth:`lines` and :meth:`as_dict`."""

    def title(self) -> str:
        raise NotImplementedError

    def tables(self) -> list[tuple[list[str], list[list[str]]]]:
        raise NotImplementedError

    def lines(self) -> list[str]:
        """What is printed under the tables: notes, signatures."""
        return []

    def as_dict(self) -> dict:
        raise NotImplementedError

    def render(self, form: str) -> str:
        """The result as one of :data:`FORMATS`."""
        if form not in FORMATS:
            raise ValueError(f"unknown format {form!r}; known: {', '.join(FORMATS)}")
        return getattr(self, f"to_{form}")()

    def to_text(self) -> str:
        out = [self.title(), ""]
        for header, rows in self.tables():
            out += aligned(header, rows) + [""]
        return "\n".join(out + self.lines()) + "\n"

    def to_markdown(self) -> str:
        out = [f"**{self.title()}**", ""]
        for header, rows in self.tables():
            out += markdown(header, rows) + [""]
        return "\n".join(out + [f"{line}  " for line in self.lines()]) + "\n"

    def to_csv(self) -> str:
        """Each table with its header, a blank row between tables."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        for i, (header, rows) in enumerate(self.tables()):
            if i:
                writer.writerow([])
            writer.writerows([header, *rows])
        return buffer.getvalue()

    def to_latex(self) -> str:
        out = []
        for i, (header, rows) in enumerate(self.tables()):
            caption = self.title() + ("" if i else "".join(f" {line.rstrip('.')}." for line in self.lines()))
            out += latex_table(header, rows, caption)
        return "\n".join(out) + "\n"

    def to_json(self) -> str:
        return json.dumps(json_value(self.as_dict()), indent=2, ensure_ascii=False) + "\n"

    def to_html(self) -> str:
        """A page of its own: the title, the tables, the lines under them."""
        body = "".join(html_table(header, rows) for header, rows in self.tables())
        lines = "".join(f"<p>{html.escape(line)}</p>" for line in self.lines())
        return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(self.title())}</title></head>\n'
                f"<body><h1>{html.escape(self.title())}</h1>{body}{lines}</body></html>\n")
