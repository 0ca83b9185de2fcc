"""``sts bench --report DIR``: a bar chart of SimCSE's seven columns, then every table the command prints, as HTML."""
from __future__ import annotations

import base64
import html
from pathlib import Path

import numpy as np

from semsts import corpora
from semsts.corpora.published_encoders import DATASETS, contenders

from .bench import CONVENTIONS, LABELS
from .bench_tables import name_of, sections, trailer
from .html_report import _save_png, pyplot
from .results import html_table


def _highlights() -> list:
    """The published rows drawn beside ours: GloVe (avg.) and the best of each section by Avg."""
    rows = contenders()
    best = [max((c for c in rows if c.supervised == s), key=lambda c: c.average) for s in (False, True)]
    return [rows[0], *best]


def _plot(plt, rows):
    series = [(name_of(r), [r.simcse(d) for d in DATASETS] + [r.simcse_average], True) for r in rows]
    series += [(c.name, [c.figures[d] for d in DATASETS] + [c.average], False) for c in _highlights()]
    fig, ax = plt.subplots(figsize=(11, 4.2))
    width = 0.8 / len(series)
    x = np.arange(len(DATASETS) + 1)
    for i, (name, values, ours) in enumerate(series):
        heights = [np.nan if v is None else v for v in values]
        ax.bar(x + (i - (len(series) - 1) / 2) * width, heights, width, label=("(ours) " if ours else "") + name,
               hatch="" if ours else "//", edgecolor="white")
    ax.set_xticks(x, [LABELS[d] for d in DATASETS] + ["Avg."])
    ax.set_ylabel('Spearman x 100 ("all")')
    ax.set_title("SimCSE convention: ours (plain) beside published encoders (hatched)")
    ax.legend(fontsize=7, ncol=2, loc="lower right")
    fig.tight_layout()
    return fig


def write_bench_report(rows, out_dir, *, conventions=tuple(CONVENTIONS), absent=(), bootstrap=None) -> Path:
    """``out_dir/index.html``: the chart (inlined as PNG data, ``bench.png`` beside it), SimCSE's Table 5
    with our rows placed in it (what the chart draws), then the other conventions' tables, each with its
    notes and signature, the paired tests between our rows (``bootstrap``), and how each row was made."""
    plt = pyplot()
    out_dir = Path(out_dir)
    fig = _plot(plt, rows)
    data = _save_png(fig, out_dir / "bench.png")
    plt.close(fig)
    title = "sts bench: " + ", ".join(r.system for r in rows)
    page = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title><style>",
            "body{font-family:sans-serif;margin:1.5em;color:#222} img{max-width:100%}",
            "table{border-collapse:collapse;font-size:12px} td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}",
            "td:first-child,th:first-child{text-align:left} tr.ours{background:#ffe8c2;font-weight:bold}",
            "code{font-size:11px;word-break:break-all}",
            "</style></head><body>", f"<h1>{html.escape(title)}</h1>",
            f'<figure><img alt="bar chart" src="data:image/png;base64,{base64.b64encode(data).decode()}"></figure>']
    conventions = ("simcse", *(c for c in conventions if c != "simcse"))
    for s in sections(rows, conventions=conventions, published=True, bootstrap=bootstrap):
        page += [f"<h2>{html.escape(s.title)}</h2>", html_table(s.header, s.body, None if all(s.ours) else s.ours)]
        page += ["<ul>", *(f"<li>{html.escape(n)}</li>" for n in s.notes), "</ul>"] if s.notes else []
        page += [f"<p>signature: <code>{html.escape(sig)}</code></p>" for sig in s.signatures]
    page += ["<ul>", *(f"<li>{html.escape(line)}</li>" for line in trailer(rows, absent)), "</ul>"]
    page += ["</body></html>"]
    path = out_dir / "index.html"
    corpora.write_text_atomic(path, "\n".join(page) + "\n")
    return path
