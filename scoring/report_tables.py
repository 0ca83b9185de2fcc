"""The layout of a report's tables, CSV rows and correlation-typed.pl lines, per task (STS, CLSS, TYPED):
:mod:`semsts.scoring.tasks` computes the figures, this module lays them out."""
from __future__ import annotations

import csv
import io
import math

from semsts import corpora

from .results import UNDEFINED, fmt

CLSS_HEADS = {"paragraph2sentence": "Para-2-Sent", "sentence2phrase": "Sent-2-Phr",
              "phrase2word": "Phr-2-Word", "word2sense": "Word-2-Sense"}


def fmt_ci(pair) -> str:
    lo, hi = pair
    return UNDEFINED if not math.isfinite(lo) else f"[{lo:.4f}, {hi:.4f}]"


# --- STS (and CLSS, which adds to it)
def aggregate_rows(report) -> list[tuple[str, float]]:
    f = report.figures
    rows = [("ALL", f["all"]), ("ALLnorm", f["allnorm"]),
            ("Mean (size-weighted)", f["mean"]), ("Mean (unweighted)", f["unweighted_mean"])]
    if f.get("all_weighted") is not None:
        rows.append(("ALLw (confidence-weighted)", f["all_weighted"]))
    return rows


def subset_table(report) -> tuple[list[str], list[list[str]]]:
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


def sts_tables(report):
    n_all = sum(s["n"] for s in report.figures["subsets"].values())
    return [subset_table(report),
            (["aggregate", "n", "Pearson"], [[name, str(n_all), fmt(v)] for name, v in aggregate_rows(report)])]


def _number(v) -> str:
    return "" if v is None or not math.isfinite(v) else f"{v:.5f}"


def sts_csv(report, totals=aggregate_rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["dataset", "row", "n", "n_unscored", "pearson", "spearman", "ci95_lo", "ci95_hi",
                     "weighted_pearson", "signature"])
    sig, ds, subs = str(report.signature), report.dataset, report.figures["subsets"]
    for name, s in subs.items():
        writer.writerow([ds, name, s["n"], s["n_unscored"], _number(s["pearson"]), _number(s["spearman"]),
                         _number(s["ci95"][0]), _number(s["ci95"][1]), _number(s["weighted_pearson"]), sig])
    n_all = sum(s["n"] for s in subs.values())
    unscored = sum(s["n_unscored"] for s in subs.values())
    for name, v in totals(report):
        writer.writerow([ds, name, n_all, unscored, _number(v), "", "", "", "", sig])
    return out.getvalue()


def clss_tables(report):
    """The CLSS paper's Table 5 layout first: one column per level, then the sum of the four."""
    f = report.figures
    levels = [lvl for lvl in corpora.CLSS_LEVELS if lvl in f["subsets"]]
    header = [""] + [CLSS_HEADS[lvl] for lvl in levels] + ["Official (sum)"]
    rows = [[label] + [fmt(f["subsets"][lvl][key]) for lvl in levels] + [fmt(f[total])]
            for label, key, total in (("Pearson", "pearson", "official"), ("Spearman", "spearman", "spearman_sum"))]
    return [(header, rows), *sts_tables(report)]


def clss_csv(report) -> str:
    return sts_csv(report, lambda r: [*aggregate_rows(r), ("official", r.figures["official"])])


def sts2017_tables(report):
    """The 2017 paper's layout first: one column per track (its Pearson), then the primary score."""
    f = report.figures
    tracks = [t for t in corpora.kinds.STS2017_TRACKS if t in f["subsets"]]
    header = [""] + [corpora.kinds.STS2017_TRACKS[t] for t in tracks] + ["Primary (mean)"]
    return [(header, [["Pearson"] + [fmt(f["subsets"][t]["pearson"]) for t in tracks] + [fmt(f["primary"])]]),
            *sts_tables(report)]


def sts2017_csv(report) -> str:
    return sts_csv(report, lambda r: [*aggregate_rows(r), ("primary", r.figures["primary"])])


# --- TYPED
def typed_lines(figures: dict) -> list[str]:
    """What the organizers' correlation-typed.pl printed: ``Pearson (Type): r`` per type, then the mean."""
    return ([f"Pearson ({label}): {fmt(figures['types'][t])}" for t, label in zip(corpora.TYPES, corpora.TYPE_LABELS)]
            + [f"Pearson mean: {fmt(figures['mean'])}"])


def typed_tables(report):
    f = report.figures
    header = ["", *corpora.TYPE_LABELS, "Mean"]
    return [(header, [["Pearson", *(fmt(f["types"][t]) for t in corpora.TYPES), fmt(f["mean"])]])]


def typed_csv(report) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["dataset", "type", "n", "pearson", "signature"])
    f = report.figures
    for name, r in [*f["types"].items(), ("mean", f["mean"])]:
        writer.writerow([report.dataset, name, f["n"], "" if not math.isfinite(r) else f"{r:.5f}",
                         str(report.signature)])
    return out.getvalue()


TABLES = {"sts": sts_tables, "clss": clss_tables, "typed": typed_tables, "sts2017": sts2017_tables}  # task name -> its tables
CSV = {"sts": sts_csv, "clss": clss_csv, "typed": typed_csv, "sts2017": sts2017_csv}
