"""A comparison (:func:`semsts.scoring.compare.compare_runs`) as a typed result, and its own layouts (text, Markdown,
CSV, LaTeX); JSON and HTML are the rendering protocol's (:mod:`semsts.scoring.results`)."""
from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from typing import Callable

from .ranking import AROUND, TOP, kept
from .results import FORMATS, Result, aligned, json_value, latex_escape, markdown, number, text_blocks, wrapped


def _rank_head(cmp: dict, col: str, previous: str) -> str:
    measure = col[:-5]
    return "Rank" if previous == measure else f"{cmp['labels'].get(measure, measure)} rank"


def _star(name: str, ours: bool) -> str:
    """Our runs are marked ``(ours)``: ``*`` and ``†`` are the papers' own marks (e.g. a late submission)."""
    return name + (" (ours)" if ours else "")


def compare_table(cmp: dict, *, mark: Callable = _star) -> tuple[list, list]:
    """Header and string rows of the ranked table in the paper's layout, plus the primary measure's 95% CI."""
    cols, digits = cmp["columns"], cmp["digits"]
    header = [("Run" if c == "name" else _rank_head(cmp, c, cols[i - 1]) if c.endswith("_rank")
               else cmp["labels"].get(c, c)) for i, c in enumerate(cols)] + [f"95% CI ({cmp['labels'][cmp['primary']]})"]

    def num(v):  # None: not in the table; NaN: undefined (a constant side)
        return "" if v is None else number(v, f".{digits}f").replace("0.", ".", 1)

    out = []
    for row in cmp["rows"]:
        cells = []
        for c in cols:
            if c == "name":
                cells.append(mark(row["name"] + (" " + row["marks"] if row["marks"] else ""), row["ours"]))
            elif c.endswith("_rank"):
                rank = row["ranks"].get(c[:-5])
                cells.append("-" if rank is None else str(rank))
            else:
                cells.append(num(row["scores"].get(c)))
        ci = row.get("ci95")
        cells.append("" if not ci or not math.isfinite(ci[0]) else f"[{num(ci[0])}, {num(ci[1])}]")
        out.append(cells)
    return header, out


def significance_table(cmp: dict) -> tuple[list, list]:
    def p(v, form=".4f"):
        return number(v, form)
    header = ["higher", "lower", "difference", "Fisher z p", "Williams p (ALL)", "bootstrap p", "bootstrap 95% CI", "p < .05"]
    rows = []
    for t in cmp["significance"]:
        boot, will = t["bootstrap"], t["williams"]
        name = [n + (" (published)" if n == t["published"] else "") for n in (t["a"], t["b"])]
        rows.append([*name, p(t["difference"], "+.4f"),
                     p(t["fisher_z"]["p"]), p(will["p"]) if will else "n/a", p(boot["p"]) if boot else "n/a",
                     f"[{p(boot['ci95'][0], '+.4f')}, {p(boot['ci95'][1], '+.4f')}]" if boot else "n/a",
                     "yes" if t["significant"] else "no"])
    return header, rows


def compare_title(cmp: dict) -> str:
    """The dataset and the published table's title (a dataset no paper ranks is its own title: said once)."""
    title = cmp["title"].rstrip(".")
    return cmp["dataset"] if title in ("", cmp["dataset"]) else f"{cmp['dataset']}: {title}"


def kept_rows(rows, *, top: int = TOP, around: int = AROUND) -> list:
    """The rows a readable table shows: every row of ours, the ``top`` first rows and ``around`` rows on each side of
    each of ours; each run of rows left out is one ``None``. Every row when no published row is left out."""
    keep = kept(len(rows), [i for i, row in enumerate(rows) if row["ours"]], top=top, around=around)
    out = []
    for i in range(len(rows)):
        if i in keep:
            out.append(i)
        elif out[-1:] != [None]:
            out.append(None)
    return out


def _gap(cmp: dict, left_out: list, width: int, table: Callable) -> str:
    """The line standing for the rows ``left_out``: how many, their ranks, how to see them."""
    ranks = [r for r in (row["ranks"].get(cmp["primary"]) for row in left_out) if r is not None]
    span = f" (ranks {min(ranks)}-{max(ranks)})" if len(set(ranks)) > 1 else f" (rank {ranks[0]})" if ranks else ""
    text = f"… {len(left_out)} row{'s' if len(left_out) > 1 else ''} left out{span}; --all shows every row"
    return f"| {text} |" + " |" * (width - 1) if table is markdown else text


def _table_lines(cmp: dict, table: Callable, mark: Callable, every_row: bool) -> list:
    """The ranked table laid out by ``table`` (aligned text in blocks of columns no wider than the output's width);
    unless ``every_row``, only :func:`kept_rows`, each run of rows left out a line
    ``… N rows left out (ranks A-B); --all shows every row``."""
    header, body = compare_table(cmp, mark=mark)
    rows, gaps, shown = cmp["rows"], {}, list(range(len(body)))
    if not every_row:
        shown, previous = [i for i in kept_rows(rows) if i is not None], -1
        for position, i in enumerate([*shown, len(rows)]):
            if i > previous + 1:
                gaps[position] = _gap(cmp, rows[previous + 1:i], len(header), table)
            previous = i
    body = [body[i] for i in shown]
    if table is aligned:
        return text_blocks(header, body, gaps)
    lines = table(header, body)
    for position in sorted(gaps, reverse=True):
        lines.insert(2 + position, gaps[position])
    return lines


def _render(cmp: dict, table: Callable, title: str, note: str, mark: Callable, every_row: bool = True) -> str:
    lines = [wrapped(title) if table is aligned else title, ""] + _table_lines(cmp, table, mark, every_row) + [""]
    lines += [wrapped(note.format(n)) if table is aligned else note.format(n) for n in cmp["notes"]]
    if cmp["significance"]:
        heading = (f"Significance of {cmp['labels'][cmp['primary']]} (one-tailed, higher > lower; Williams on the "
                   "pooled pairs; significant when every test that applies has p < .05; against a published row only "
                   "Fisher z applies, n/a the others):")
        lines += ["", wrapped(heading) if table is aligned else heading, ""]
        lines += text_blocks(*significance_table(cmp)) if table is aligned else table(*significance_table(cmp))
    lines += [""] + [note.format(f"signature {r['name']}: {r['signature']}") for r in cmp["rows"] if r["ours"]]
    return "\n".join(lines) + "\n"


def render_compare_text(cmp: dict, *, every_row: bool = True) -> str:
    """The comparison as aligned text; with ``every_row`` False, only :func:`kept_rows` of a long published table."""
    return _render(cmp, aligned, compare_title(cmp), "note: {}", _star, every_row)


def render_compare_markdown(cmp: dict, *, every_row: bool = True) -> str:
    return _render(cmp, markdown, f"**{compare_title(cmp)}**", "{}  ", lambda n, o: f"**{n}** (ours)" if o else n,
                   every_row)


def render_compare_csv(cmp: dict) -> str:
    """The ranked table, one row per run, with an ``ours`` column and the CI as two numbers."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cols = cmp["columns"]
    writer.writerow(["dataset", "ours", *cols, "ci95_lo", "ci95_hi", "marks"])
    for row in cmp["rows"]:
        cells = []
        for c in cols:
            v = row["name"] if c == "name" else row["ranks"].get(c[:-5]) if c.endswith("_rank") else row["scores"].get(c)
            cells.append("" if v is None else number(v, ".6f") if isinstance(v, float) else v)
        ci = row.get("ci95") or ["", ""]
        writer.writerow([cmp["dataset"], int(row["ours"]), *cells,
                         *(f"{v:.6f}" if isinstance(v, float) and math.isfinite(v) else "" for v in ci), row["marks"]])
    return out.getvalue()


def render_compare_latex(cmp: dict) -> str:
    """A booktabs table: our runs in bold, the notes under it."""
    header, rows = compare_table(cmp, mark=lambda n, o: n)
    ours = [r["ours"] for r in cmp["rows"]]
    lines = [r"\begin{table}[t]", r"\centering\small", r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
             r"\toprule", " & ".join(latex_escape(h) for h in header) + r" \\", r"\midrule"]
    for cells, bold in zip(rows, ours):
        cells = [latex_escape(c) for c in cells]
        lines.append(" & ".join(rf"\textbf{{{c}}}" if bold and c else c for c in cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{latex_escape(compare_title(cmp))}. "
              + latex_escape(" ".join(n.rstrip(".") + "." for n in cmp["notes"])) + "}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def render_compare_json(cmp: dict) -> str:
    """``{"dataset", "rows": [{"name", "ours", "scores", "ranks", "ci95", …}], "significance", …}``."""
    return json.dumps(json_value(cmp), indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Comparison(Result):
    """``compare_runs``' result: our runs placed among a published table, and the tests between them.

    ``data`` is the comparison's dictionary (``dataset``, ``rows``, ``significance``, …); ``cmp[key]`` reads it.
    """

    data: dict = field(default_factory=dict)
    every_row: bool = True  # text and Markdown: every published row; False: ours, the top ones and those around ours

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)

    def keys(self):
        return self.data.keys()

    def as_dict(self) -> dict:
        return self.data

    def title(self) -> str:
        return compare_title(self.data)

    def tables(self):
        return [compare_table(self.data)] + ([significance_table(self.data)] if self.data["significance"] else [])

    def lines(self):
        return [*self.data["notes"], *(f"signature {r['name']}: {r['signature']}" for r in self.data["rows"] if r["ours"])]

    def to_text(self):
        return render_compare_text(self.data, every_row=self.every_row)

    def to_markdown(self):
        return render_compare_markdown(self.data, every_row=self.every_row)

    def to_csv(self):
        return render_compare_csv(self.data)

    def to_latex(self):
        return render_compare_latex(self.data)


def _compare_renderer(form: str) -> Callable:
    def render(cmp, *, every_row: bool = True) -> str:
        data = cmp.data if isinstance(cmp, Comparison) else cmp
        return Comparison(data, every_row=every_row).render(form)
    return render


COMPARE_RENDERERS = {form: _compare_renderer(form) for form in FORMATS}
