"""``sts bench --report DIR``: a bar chart of SimCSE's seven columns, then every table the command prints, as HTML."""
from __future__ import annotations

import html
from pathlib import Path

import numpy as np

from semsts.corpora.published_encoders import DATASETS, contenders

from .bench import CONVENTIONS, LABELS, covering
from .bench_tables import datasets_of, name_of, sections, trailer
from .bench_worst import worst_section
from .html_report import GENERATOR, REPORT_MARK, pyplot, write_report
from .results import html_table


def _highlights() -> list:
    """The published rows drawn beside ours: GloVe (avg.) and the best of each section by Avg."""
    rows = contenders()
    best = [max((c for c in rows if c.supervised == s), key=lambda c: c.average) for s in (False, True)]
    return [rows[0], *best]


def chart_series(rows) -> list:
    """What the chart draws: per series ``(name, ours, values, intervals)``, one value per column (SimCSE's
    seven datasets and Avg.; None where absent), ``intervals`` our rows' 95% bootstrap intervals (None where a
    figure has none; the published rows have none)."""
    keys = [("simcse", d) for d in DATASETS] + [("simcse", "Avg.")]
    series = [(name_of(r), True, [r.simcse(d) for d in DATASETS] + [r.simcse_average],
               [r.ci.get(k) for k in keys]) for r in rows]
    series += [(c.name, False, [c.figures[d] for d in DATASETS] + [c.average], [None] * len(keys))
               for c in _highlights()]
    return series


def has_interval(value, interval) -> bool:
    """A figure drawn with an error bar: a value and a finite interval."""
    return value is not None and interval is not None and all(np.isfinite(v) for v in interval)


def _plot(plt, rows):
    """The bars (ours plain, published hatched), our rows' 95% bootstrap intervals as error bars, the legend below
    the plot area (it covers no bar). In the SVG each bar is the element ``bar-S-C`` (series S, column C), each error
    bar ``errorbar-S-C``, the legend ``legend``: a test finds them in the page."""
    series = chart_series(rows)
    fig, ax = plt.subplots(figsize=(12, 5.6))
    width = 0.8 / len(series)
    x = np.arange(len(DATASETS) + 1)
    cap = width * 0.3
    for i, (name, ours, values, intervals) in enumerate(series):
        centres = x + (i - (len(series) - 1) / 2) * width
        heights = [np.nan if v is None else v for v in values]
        bars = ax.bar(centres, heights, width, label=("(ours) " if ours else "") + name,
                      hatch="" if ours else "//", edgecolor="white")
        for j, patch in enumerate(bars.patches):
            patch.set_gid(f"bar-{i}-{j}")
        for j, (centre, value, interval) in enumerate(zip(centres, values, intervals)):
            if not has_interval(value, interval):
                continue
            lo, hi = interval
            line, = ax.plot([centre - cap, centre + cap, np.nan, centre, centre, np.nan, centre - cap, centre + cap],
                            [lo, lo, np.nan, lo, hi, np.nan, hi, hi], color="black", linewidth=1.2)
            line.set_gid(f"errorbar-{i}-{j}")
    ax.set_xticks(x, [LABELS[d] for d in DATASETS] + ["Avg."], fontsize=13)
    ax.tick_params(axis="y", labelsize=12)
    ax.set_ylabel('Spearman x 100 ("all")', fontsize=13)
    ax.set_title("SimCSE convention: ours (plain, with 95% bootstrap intervals) beside published encoders (hatched)",
                 fontsize=13)
    ax.spines[["top", "right"]].set_visible(False)
    legend = ax.legend(fontsize=12, ncol=min(3, len(series)), loc="upper center", bbox_to_anchor=(0.5, -0.1),
                       frameon=False)
    legend.set_gid("legend")
    fig.tight_layout()
    return fig


def _svg(plt, fig) -> str:
    """The figure as SVG text, the same bytes on every run (no date, fixed element ids)."""
    import io
    buf = io.StringIO()
    with plt.rc_context({"svg.hashsalt": "semsts", "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


BENCH_FILES = ("bench.svg", "index.html")  # what a report writes (html_report.check_report_folder)


def write_bench_report(rows, out_dir, *, conventions=tuple(CONVENTIONS), absent=(), bootstrap=None, pairs=(),
                       predictions=None, sts_trained: bool = True) -> Path:
    """``out_dir/index.html``: the chart (inlined as SVG, ``bench.svg`` beside it), SimCSE's Table 5
    with our rows placed in it (what the chart draws), then the other conventions' tables, each with its
    notes and signature, the paired tests between our rows (``bootstrap``), how each row was made, and each row's
    worst pairs per dataset (``pairs``: :func:`~semsts.scoring.pair_predictions.pair_tables`; linked to the files
    saved in ``predictions``, if given); without MTEB's published rows trained on STS data when ``sts_trained`` is False."""
    plt = pyplot()
    out_dir = Path(out_dir)
    fig = _plot(plt, rows)
    svg = _svg(plt, fig)
    plt.close(fig)
    svg = f"<!-- {REPORT_MARK} -->\n{svg}"  # the generator, as index.html's meta says it
    title = "sts bench: " + ", ".join(r.system for r in rows)
    page = ["<!DOCTYPE html>", f'<html lang="en"><head><meta charset="utf-8">{GENERATOR}',
            f"<title>{html.escape(title)}</title><style>",
            "body{font-family:sans-serif;margin:1.5em;color:#222} figure{margin:1em 0} figure svg{max-width:100%;height:auto}",
            "table{border-collapse:collapse;font-size:14px} td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}",
            "td:first-child,th:first-child{text-align:left} tr.ours{background:#ffe8c2;font-weight:bold}",
            "code{font-size:13px;word-break:break-all} .pairs td,.pairs th{text-align:left;vertical-align:top;max-width:32em}",
            "</style></head><body>", f"<h1>{html.escape(title)}</h1>",
            f'<figure role="img" aria-label="bar chart">{svg}</figure>']
    conventions = covering(("simcse", *(c for c in conventions if c != "simcse")), datasets_of(rows))
    for s in sections(rows, conventions=conventions, published=True, bootstrap=bootstrap, sts_trained=sts_trained):
        page += [f"<h2>{html.escape(s.title)}</h2>", html_table(s.header, s.body, None if all(s.ours) else s.ours)]
        page += ["<ul>", *(f"<li>{html.escape(n)}</li>" for n in s.notes), "</ul>"] if s.notes else []
        page += [f"<p>signature: <code>{html.escape(sig)}</code></p>" for sig in s.signatures]
    page += ["<ul>", *(f"<li>{html.escape(line)}</li>" for line in trailer(rows, absent)), "</ul>"]
    page += worst_section(pairs, out_dir, predictions)
    page += ["</body></html>"]
    write_report(out_dir, dict(zip(BENCH_FILES, (svg.encode(), ("\n".join(page) + "\n").encode()))))
    return out_dir / "index.html"
