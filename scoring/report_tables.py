"""The layout of a report's tables, CSV rows and correlation-typed.pl lines, per task (STS, CLSS, TYPED):
:mod:`semsts.scoring.tasks` computes the figures, this module lays them out."""
from __future__ import annotations

import csv
import io
import math

from semsts import corpora

from .results import UNDEFINED, fmt, number

# The paper's own table, first, of tasks that rank by a figure of their own: each subset's column label (in the
# paper's order), that figure's label, and per row (label, each subset's figure, the task's figure). The task's
# figure of the first row is also a row of the CSV.
LEADS = {
    "clss": ({"paragraph2sentence": "Para-2-Sent", "sentence2phrase": "Sent-2-Phr", "phrase2word": "Phr-2-Word",
              "word2sense": "Word-2-Sense"}, "Official (sum)",
             (("Pearson", "pearson", "official"), ("Spearman", "spearman", "spearman_sum"))),
    "sts2017": (corpora.kinds.STS2017_TRACKS, "Primary (mean)", (("Pearson", "pearson", "primary"),)),
}


def fmt_ci(pair) -> str:
    lo, hi = pair
    return UNDEFINED if not math.isfinite(lo) else f"[{lo:.4f}, {hi:.4f}]"


def _number(v) -> str:
    return "" if v is None else number(v, ".5f")


def _csv(rows) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def tables(report) -> list[tuple[list[str], list[list[str]]]]:
    """``(header, rows)`` of each table of a report, in its task's layout."""
    if report.task.name == "typed":
        f = report.figures
        return [(["", *corpora.TYPE_LABELS, "Mean"],
                 [["Pearson", *(fmt(f["types"][t]) for t in corpora.TYPES), fmt(f["mean"])]])]
    return [*_lead_table(report), _subset_table(report),
            (["aggregate", "n", "Pearson"], [[name, str(_n_all(report)), fmt(v)] for name, v in _totals(report)])]


def report_csv(report) -> str:
    """One row per figure; every row carries the signature so rows stay comparable."""
    sig, ds, f = str(report.signature), report.dataset, report.figures
    if report.task.name == "typed":
        return _csv([["dataset", "type", "n", "pearson", "signature"],
                     *([ds, name, f["n"], _number(r), sig] for name, r in [*f["types"].items(), ("mean", f["mean"])])])
    subs = f["subsets"]
    lead = LEADS.get(report.task.name)
    extra = [(lead[2][0][2], f[lead[2][0][2]])] if lead else []
    unscored = sum(s["n_unscored"] for s in subs.values())
    return _csv([["dataset", "row", "n", "n_unscored", "pearson", "spearman", "ci95_lo", "ci95_hi", "weighted_pearson",
                  "signature"],
                 *([ds, name, s["n"], s["n_unscored"], _number(s["pearson"]), _number(s["spearman"]),
                    _number(s["ci95"][0]), _number(s["ci95"][1]), _number(s["weighted_pearson"]), sig]
                   for name, s in subs.items()),
                 *([ds, name, _n_all(report), unscored, _number(v), "", "", "", "", sig]
                   for name, v in [*_totals(report), *extra])])


# --- STS (and CLSS and 2017, which add the paper's table to it)
def _n_all(report) -> int:
    return sum(s["n"] for s in report.figures["subsets"].values())


def _totals(report) -> list[tuple[str, float]]:
    f = report.figures
    rows = [("ALL", f["all"]), ("ALLnorm", f["allnorm"]),
            ("Mean (size-weighted)", f["mean"]), ("Mean (unweighted)", f["unweighted_mean"])]
    if f.get("all_weighted") is not None:
        rows.append(("ALLw (confidence-weighted)", f["all_weighted"]))
    return rows


def _lead_table(report) -> list:
    """The paper's table (:data:`LEADS`): one column per subset present, then the task's figure; none for STS."""
    if report.task.name not in LEADS:
        return []
    labels, total, rows = LEADS[report.task.name]
    f = report.figures
    present = [name for name in labels if name in f["subsets"]]
    return [([""] + [labels[name] for name in present] + [total],
             [[label] + [fmt(f["subsets"][name][key]) for name in present] + [fmt(f[figure])]
              for label, key, figure in rows])]


def _subset_table(report) -> tuple[list[str], list[list[str]]]:
    subs = report.figures["subsets"]
    with_conf = any(s["weighted_pearson"] is not None for s in subs.values())
    with_unscored = any(s["n_unscored"] for s in subs.values())
    header = (["subset", "n"] + (["unscored (dropped)"] if with_unscored else [])
              + ["Pearson", "Spearman", "95% CI"] + (["weighted Pearson"] if with_conf else []))
    rows = []
    for name, s in subs.items():
        row = ([name, str(s["n"])] + ([str(s["n_unscored"])] if with_unscored else [])
               + [fmt(s["pearson"]), fmt(s["spearman"]), fmt_ci(s["ci95"])])
        if with_conf:
            row.append(fmt(s["weighted_pearson"]))
        rows.append(row)
    return header, rows


# --- TYPED
def typed_lines(figures: dict) -> list[str]:
    """What the organizers' correlation-typed.pl printed: ``Pearson (Type): r`` per type, then the mean."""
    return ([f"Pearson ({label}): {fmt(figures['types'][t])}" for t, label in zip(corpora.TYPES, corpora.TYPE_LABELS)]
            + [f"Pearson mean: {fmt(figures['mean'])}"])
