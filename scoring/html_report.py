"""The HTML report of a comparison: ranked table, significance and three plots (needs matplotlib)."""
from __future__ import annotations

import base64
import html
import io
import math
import os
from pathlib import Path

import numpy as np

from semsts import corpora
from semsts.core.extras import need
from semsts.core.stats import pearson

from .compare_tables import compare_table, compare_title, significance_table
from .results import html_table, number
from .tasks import task_for


def pyplot():
    """matplotlib's pyplot on the Agg backend; a :class:`MissingExtra` naming the ``plots`` extra when it is absent."""
    matplotlib = need("matplotlib", "plots", "the HTML report (its charts)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# Every file a report writes carries this mark (index.html its generator, a chart's SVG a comment, a PNG its Software):
# a later report replaces only files that carry it (check_report_folder), never a file of the user's.
REPORT_MARK = "semsts --report"
GENERATOR = f'<meta name="generator" content="{REPORT_MARK}">'
COMPARE_FILES = ("index.html", "bars.png", "scatter.png", "errors.png")


def check_report_folder(folder, names) -> None:
    """Refuse, before any work, a report folder holding one of ``names`` (the files the report writes) that no
    earlier report wrote (it lacks :data:`REPORT_MARK`): the report would replace it. Other files are left alone."""
    from semsts.core.errors import InvalidValue
    from semsts.core.files import is_regular
    folder = Path(folder)
    if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir()):
        raise InvalidValue(f"{folder}: not a folder (--report takes a folder, new or not: it replaces only the files an "
                           "earlier --report wrote there and leaves the others alone)")
    for name in names:
        path = folder / name
        if not os.path.lexists(path):
            continue
        if not is_regular(path) or REPORT_MARK.encode() not in _head(path):
            raise InvalidValue(f"{path}: not written by an earlier --report; the report would replace it: give "
                               "another folder, or move it away (other files in the folder are left alone)")


def _head(path: Path, size: int = 1 << 16) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(size)


def _save_png(fig, path: Path) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": REPORT_MARK})
    data = buf.getvalue()
    with corpora.atomic_open(path, "wb") as handle:
        handle.write(data)
    return data


def _plot_bars(plt, cmp: dict):
    primary, label = cmp["primary"], cmp["labels"][cmp["primary"]]
    shown = [r for r in cmp["rows"] if r["ours"] or r["role"] in ("baseline", "reference")
             or r["ranks"].get(primary) == 1]
    shown = [r for r in shown if r["scores"].get(primary) is not None][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(shown) + 1.4))
    values = [r["scores"][primary] for r in shown]
    errs = np.array([[v - r["ci95"][0], r["ci95"][1] - v] if r.get("ci95") and math.isfinite(r["ci95"][0]) else [0, 0]
                     for v, r in zip(values, shown)]).T
    ax.barh(range(len(shown)), values, xerr=errs, capsize=3,
            color=["tab:orange" if r["ours"] else "tab:blue" for r in shown])
    names = [("* " if r["ours"] else "") + r["name"] for r in shown]
    ax.set_yticks(range(len(shown)), [n if len(n) <= 42 else n[:40] + "…" for n in names], fontsize=8)
    ax.set_xlabel(f"{label} and its 95% interval; orange: ours, blue: published (best, baselines, references)", fontsize=9)
    ax.set_title(f"{cmp['dataset']}: {label}")
    fig.tight_layout()
    return fig


def _plot_scatter(plt, cmp: dict, gold, ids, outs):
    names, subsets = list(outs), cmp["subsets"]
    fig, axes = plt.subplots(len(names), len(subsets), figsize=(2.6 * len(subsets), 2.6 * len(names)), squeeze=False)
    for i, name in enumerate(names):
        for j, sub in enumerate(subsets):
            ax, keep = axes[i][j], ids == j
            ax.scatter(gold[keep], outs[name][keep], s=4, alpha=0.35, color="tab:blue")
            ax.set_title(f"{name}\n{sub}: r = {number(pearson(outs[name][keep], gold[keep]), '.4f')}", fontsize=8)
            ax.tick_params(labelsize=7)
            if i == len(names) - 1:
                ax.set_xlabel("gold", fontsize=8)
            if j == 0:
                ax.set_ylabel("system", fontsize=8)
    fig.tight_layout()
    return fig


def _plot_errors(plt, gold, outs, top: float):
    bands = np.arange(0, int(math.ceil(top)))
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / max(len(outs), 1)
    for k, (name, scores) in enumerate(outs.items()):
        band = np.minimum(np.floor(gold), bands[-1])
        data = [scores[band == b] - gold[band == b] for b in bands]
        pos = bands + 0.1 + width * (k + 0.5)
        parts = ax.boxplot([d if len(d) else [np.nan] for d in data], positions=pos, widths=width * 0.9,
                           patch_artist=True, showfliers=False, manage_ticks=False)
        for patch in parts["boxes"]:
            patch.set_facecolor(plt.cm.tab10(k % 10))
        ax.plot([], [], color=plt.cm.tab10(k % 10), linewidth=6, label=name)
    ax.axhline(0, color="grey", linewidth=0.8)
    counts = [int(np.sum(np.minimum(np.floor(gold), bands[-1]) == b)) for b in bands]
    ax.set_xticks(bands + 0.5, [f"{b}-{b + 1}\n(n={c})" for b, c in zip(bands, counts)])
    ax.set_xlabel("gold score band")
    ax.set_ylabel("system - gold")
    ax.set_title("Errors by gold score band")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def write_compare_report(cmp: dict, dataset: corpora.Dataset, runs: dict, out_dir) -> Path:
    """A self-contained ``index.html`` (plots inlined as PNG data) with the PNGs beside it."""
    plt = pyplot()
    out_dir = Path(out_dir)
    gold, ids, outs = task_for(dataset).stacked(dataset, runs, cmp["subsets"])
    top = dataset.subsets[0].score_range[1]
    figures = [("bars.png", "Runs with their 95% intervals", _plot_bars(plt, cmp)),
               ("scatter.png", "Gold against system, per subset", _plot_scatter(plt, cmp, gold, ids, outs)),
               ("errors.png", "Error distribution by gold score band", _plot_errors(plt, gold, outs, top))]
    parts = []
    for file_name, caption, fig in figures:
        data = _save_png(fig, out_dir / file_name)
        plt.close(fig)
        parts.append(f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,'
                     f'{base64.b64encode(data).decode()}"><figcaption>{html.escape(caption)}</figcaption></figure>')
    header, rows = compare_table(cmp)
    page = ["<!DOCTYPE html>", f'<html lang="en"><head><meta charset="utf-8">{GENERATOR}',
            f"<title>{html.escape(compare_title(cmp))}</title><style>",
            "body{font-family:sans-serif;margin:1.5em;color:#222} img{max-width:100%} figure{margin:1em 0}",
            "table{border-collapse:collapse;font-size:12px} td,th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}",
            "td:first-child,th:first-child{text-align:left} tr.ours{background:#ffe8c2;font-weight:bold}",
            "</style></head><body>", f"<h1>{html.escape(compare_title(cmp))}</h1>", *parts]
    if cmp["significance"]:
        page += ["<h2>Significance</h2>", html_table(*significance_table(cmp))]
    page += ["<h2>Ranked table</h2>", html_table(header, rows, [r["ours"] for r in cmp["rows"]]), "<ul>"]
    page += [f"<li>{html.escape(n)}</li>" for n in cmp["notes"]] + ["</ul></body></html>"]
    path = out_dir / "index.html"
    corpora.write_text_atomic(path, "\n".join(page) + "\n")
    return path
