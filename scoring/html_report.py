"""The HTML report of a comparison: ranked table, significance and three plots (needs matplotlib)."""
from __future__ import annotations

import base64
import hashlib
import html
import io
import json
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


REPORT_MARK = "semsts --report"  # the files' generator (index.html's meta, a chart's SVG comment, a PNG's Software)
GENERATOR = f'<meta name="generator" content="{REPORT_MARK}">'
COMPARE_FILES = ("index.html", "bars.png", "scatter.png", "errors.png")
# A report folder is one the tool wrote as core.files keeps it: this record names each file a report wrote there with
# its SHA-256, and a later report replaces only a file that is what the record says (never a file of the user's).
RECORD = "sts-report.json"


def check_report_folder(folder, names) -> dict:
    """Refuse, before any work, a report folder holding one of ``names`` (the files the report writes) that is not
    what an earlier report wrote there (:data:`RECORD`): the report would replace it. Other files are left alone.
    Returns what the record names (file name -> SHA-256)."""
    from semsts.core.errors import InvalidValue
    from semsts.core.files import not_recorded, read_record
    folder, path = Path(folder), Path(folder) / RECORD
    if os.path.lexists(folder) and (folder.is_symlink() or not folder.is_dir()):
        raise InvalidValue(f"{folder}: not a folder (--report takes a folder, new or not: it replaces only the files an "
                           "earlier --report wrote there and leaves the others alone)")
    try:
        record = read_record(path) if folder.is_dir() else None
    except ValueError as exc:
        raise InvalidValue(f"{path}: {exc}") from None
    if record is not None and not (isinstance(record, dict) and record.get("sts_report") == 1
                                   and isinstance(record.get("files"), dict)):
        raise InvalidValue(f"{path}: not the record of an earlier --report; give another folder, or move it away")
    recorded = record["files"] if record else {}
    for name in not_recorded(folder, names, recorded)[:1]:
        raise InvalidValue(f"{folder / name}: not written by an earlier --report; the report would replace it: give "
                           "another folder, or move it away (other files in the folder are left alone)")
    return recorded


def write_report(folder, contents: dict) -> None:
    """Write ``contents`` (file name -> bytes) into ``folder``, each file whole or not at all, the folder checked
    again (:func:`check_report_folder`), and :data:`RECORD` naming each with its SHA-256 once it is in place."""
    recorded = dict(check_report_folder(folder, contents))
    for name, data in contents.items():
        with corpora.atomic_open(Path(folder) / name, "wb") as handle:
            handle.write(data)
        recorded[name] = hashlib.sha256(data).hexdigest()
        corpora.write_text_atomic(Path(folder) / RECORD, json.dumps({"sts_report": 1, "files": recorded}, indent=1) + "\n")


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": REPORT_MARK})
    return buf.getvalue()


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
    parts, contents = [], {}
    for file_name, caption, fig in figures:
        data = contents[file_name] = _png(fig)
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
    write_report(out_dir, {**contents, "index.html": ("\n".join(page) + "\n").encode()})
    return out_dir / "index.html"
