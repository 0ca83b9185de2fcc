"""``sts bench --report DIR``: the SimCSE-convention table and a bar chart of its seven columns, as HTML."""
from __future__ import annotations

import base64
import html
from pathlib import Path

import numpy as np

import corpora
from corpora.published_encoders import DATASETS, contenders

from .bench import LABELS, fmt100
from .bench_tables import NOT_COMPARABLE, name_of, published_table
from .html_report import _pyplot, _save_png, _table


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


def write_bench_report(rows, out_dir) -> Path:
    """``out_dir/index.html`` (the chart inlined as PNG data, ``bench.png`` beside it) with the table."""
    plt = _pyplot()
    out_dir = Path(out_dir)
    fig = _plot(plt, rows)
    data = _save_png(fig, out_dir / "bench.png")
    plt.close(fig)
    header, body, notes = published_table(rows)
    ours = [False] * (len(body) - len(rows)) + [True] * len(rows)
    title = "sts bench: " + ", ".join(r.system for r in rows)
    page = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title><style>",
            "body{font-family:sans-serif;margin:1.5em;color:#222} img{max-width:100%}",
            "table{border-collapse:collapse;font-size:12px} td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}",
            "td:first-child,th:first-child{text-align:left} tr.ours{background:#ffe8c2;font-weight:bold}",
            "</style></head><body>", f"<h1>{html.escape(title)}</h1>",
            f'<figure><img alt="bar chart" src="data:image/png;base64,{base64.b64encode(data).decode()}"></figure>',
            _table(header, body, ours), "<ul>"]
    page += [f"<li>{html.escape(n)}</li>" for n in notes]
    page += [f"<li>{html.escape(NOT_COMPARABLE)}</li>"] if any(r.trained_on_sts for r in rows) else []
    page += [f"<li>{html.escape(r.system)}: Avg. {fmt100(r.simcse_average)}; {html.escape(r.source)}</li>" for r in rows]
    page += ["</ul></body></html>"]
    path = out_dir / "index.html"
    corpora.write_text_atomic(path, "\n".join(page) + "\n")
    return path
