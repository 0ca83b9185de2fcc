"""Our runs placed among a task paper's published table, with 95% intervals and significance between runs.

The published tables are data (:mod:`semsts.corpora.leaderboards`); the ranking maths is :mod:`semsts.scoring.ranking`.
"""
from __future__ import annotations

import math
import re
from itertools import combinations

import numpy as np

from semsts import corpora
from semsts.core.stats import pearson
from semsts.corpora import leaderboards

from . import aggregates, intervals, ranking
from .aggregates import SubsetScore
from .compare_tables import Comparison
from .correlations import is_finite
from .report import InvalidRun
from .results import number
from .significance import ALPHA, fisher_z_test, paired_bootstrap, williams_test
from .tasks import task_for


def aggregate_metric(rule: str, sizes):
    """``metric(stacked, gold)`` for :func:`paired_bootstrap`: column 0 the scores, column 1 the part index.

    A resample keeps each part's weight at its full size (``sizes``), so a weighted mean weighs as the task's does.
    """
    def metric(stacked, gold):
        scores, ids = stacked[:, 0], stacked[:, 1].astype(int)
        if rule in ("pooled", "normalized"):
            return aggregates.of_parts(rule, [(scores, gold)] if rule == "pooled" else
                                       [(scores[ids == i], gold[ids == i]) for i in range(len(sizes))])
        return aggregates.of_scores(rule, [SubsetScore(str(i), pearson(scores[ids == i], gold[ids == i]), n)
                                           for i, n in enumerate(sizes)])
    return metric


def fallback_board(dataset: corpora.Dataset) -> leaderboards.Leaderboard:
    """The layout for a dataset no task paper ranks: its task's aggregates, no published rows."""
    task = task_for(dataset)
    subs = tuple(name for name, _ in task.parts(dataset))
    reported = corpora.reports.REPORTS[task.name]  # what the task reports, for a dataset no task paper ranks
    measures = reported.rules()
    return leaderboards.Leaderboard(
        name="", title=dataset.name, source="", dataset=dataset.name, measures=measures,
        primary=reported.primary, subsets=subs, sizes=dict(task.parts(dataset)), labels=task.part_labels(), marks={},
        rows=(), path=None, columns=("name", *(c for m in measures for c in (m, f"{m}_rank")), *subs), digits=4)


def _run_as_row(board, name: str, report, present) -> leaderboards.Row:
    """Our run as a table row, its figures rounded like the paper's so that ties place as the paper's do."""
    parts = {s.name: s.r for s in report.task.part_scores(report)}
    scores = {s: round(parts[s], board.digits) for s in present}  # NaN stays unranked
    for measure in board.measures:
        value = report.figures.get(measure)
        if measure in board.columns and isinstance(value, float) and math.isfinite(value):
            scores[measure] = round(value, board.digits)
    return leaderboards.Row(name, "ours", scores, {}, "", "", 0)


def _ranking_value(board, row, measure: str, present, sizes) -> float | None:
    """The figure a row is ranked by: as printed, or recomputed over the subsets present when some are missing."""
    if tuple(present) == tuple(board.subsets):
        return ranking.value(board, row, measure)
    return ranking.aggregate(board, row, measure, subsets=present, sizes=sizes)


def _table_columns(board, present, measures, ranked: bool = True) -> list[str]:
    """The paper's column order for the subsets and measures shown; a measure it only ranks goes before its rank.
    Not ``ranked`` (no published row: a rank among our runs alone says nothing their figures do not), no ranks."""
    cols = []
    for col in board.columns:
        base = col[:-5] if col.endswith("_rank") else col
        if col == "name" or col in present or col in measures:
            cols.append(col)
        elif col.endswith("_rank") and base in measures:
            if base not in cols and (board.measures[base] != "given" or not ranked):
                cols.append(base)
            if ranked:
                cols.append(col)
    return cols


def _place(rows, pub, ours, board, measures, primary, present, sizes, missing) -> dict:
    """Fill each row's ranks; return each row's position by the primary measure."""
    position = {}
    for m in measures:
        ranked = [i for i, r in enumerate(pub) if m in r.ranks]
        values = [rows[i]["scores"][m] for i in ranked]
        recomputed = dict(zip(ranked, ranking.competition_ranks(values)))
        our_values = [_ranking_value(board, ours[row["name"]], m, present, sizes) if row["ours"] else None
                      for row in rows]
        among_ours = ranking.competition_ranks(our_values)
        for i, row in enumerate(rows):
            if row["ours"]:
                row["ranks"][m] = ranking.placed_rank(our_values[i], values) if pub else among_ours[i]
            elif i in recomputed:
                row["ranks"][m] = recomputed[i] if missing else pub[i].ranks[m]
            else:
                row["ranks"][m] = None
            if m == primary:
                position[i] = row["ranks"][m] or ranking.placed_rank(row["scores"][m], values) or math.inf
    return position


def compare_runs(dataset: corpora.Dataset, runs: dict, *, published: bool = True,
                 seed: int = 0, resamples: int = 1000, progress=None) -> Comparison:
    """Score ``runs`` (name -> run directory) and place them among the task paper's published table.

    Published ranks stay the paper's; each of our runs takes the rank its figures would have among the
    published ranked rows. With a subset missing, published aggregates and ranks are recomputed over
    the subsets present. InvalidRun carries every bad file of every run. ``progress(items, desc)``, if
    given, wraps the pairs of runs tested for significance (a bar on stderr, say).
    """
    task = task_for(dataset)
    errors = [e for run_dir in runs.values() for e in task.validate(dataset, run_dir)]
    if errors:
        raise InvalidRun(errors)
    try:
        board = leaderboards.for_dataset(dataset.name)
    except corpora.DatasetNotFound:
        board = fallback_board(dataset)
    sizes = dict(task.parts(dataset))
    present = [name for name in sizes if name in board.subsets]
    missing = [s for s in board.subsets if s not in present]
    measures = [m for m in board.measures if not (missing and board.measures[m] in ("pooled", "normalized", "given"))]
    primary = board.primary if board.primary in measures else measures[0]
    boot = {"seed": seed, "resamples": resamples} if len(runs) > 1 else None  # the pairs are bootstrapped
    reports = {name: task.score(dataset, run_dir, bootstrap=boot) for name, run_dir in runs.items()}
    pub = list(board.rows) if published else []
    ours = {name: _run_as_row(board, name, rep, present) for name, rep in reports.items()}
    rows = _rows(board, pub, reports, runs, present, measures, sizes)
    notes = _compare_notes(dataset, board, present, missing, measures, primary, bool(pub))
    notes += _same_figures_notes(board, pub, rows, present, primary, missing)
    position = _place(rows, pub, ours, board, measures, primary, present, sizes, missing)
    n_total = task.pairs_behind(sizes, present)
    rule = board.measures[primary]
    for row in rows:
        row["ci95"] = _row_ci(row, primary, rule, present, sizes, n_total)

    def order(i):  # by rank; within one rank (a run placed beside a published one, an unranked reference) by score
        score = rows[i]["scores"].get(primary)
        return position[i], -score if score is not None and math.isfinite(score) else math.inf, rows[i]["ours"], i

    rows = [rows[i] for i in sorted(range(len(rows)), key=order)]
    columns = _table_columns(board, present, measures, ranked=bool(pub))
    if not pub:  # a measure the paper only ranks (CLSS's Spearman) has no figure of ours to show without its rank
        columns = [c for c in columns if c == "name" or any(row["scores"].get(c) is not None for row in rows)]
    return Comparison({
        "dataset": dataset.name, "leaderboard": board.name or None, "source": board.source or None,
        "title": board.title, "measures": measures, "primary": primary, "subsets": present, "missing": missing,
        "n": n_total, "digits": board.digits, "labels": {k: board.label(k) for k in [*present, *measures]},
        "columns": columns, "marks": board.marks,
        "notes": notes,
        "rows": rows,
        "significance": _significance(dataset, runs, rows, primary, rule, present, sizes, seed, resamples, progress),
    })


def _rows(board, pub, reports, runs, present, measures, sizes) -> list[dict]:
    """The published rows (figures as printed or recomputed) and ours, unranked."""
    rows = [{"name": r.name, "ours": False, "role": r.role, "marks": r.marks, "notes": r.notes,
             "scores": {**{s: r.scores.get(s) for s in present},
                        **{m: _ranking_value(board, r, m, present, sizes) for m in measures}},
             "ranks": {}} for r in pub]
    for name, rep in reports.items():
        parts = {s.name: s.r for s in rep.task.part_scores(rep)}
        rows.append({"name": name, "ours": True, "role": "ours", "marks": "", "notes": "", "run": str(runs[name]),
                     "scores": {**{s: parts[s] for s in present},
                                **{m: rep.figures.get(m) if isinstance(rep.figures.get(m), float) else None
                                   for m in measures}},
                     "ranks": {}, "signature": str(rep.signature)})
    return rows


def _same_figures_notes(board, pub, rows, present, primary, missing) -> list[str]:
    """Which figure each aggregate is where a run of ours prints a published row's subset figures but not its
    aggregate: the published one from the paper's rounded figures (or as printed), ours from our unrounded ones."""
    def shown(v):
        return "" if v is None else number(v, f".{board.digits}f").replace("0.", ".", 1)

    label, out = board.label(primary), []
    for ours in (r for r in rows if r["ours"]):
        figures = [shown(ours["scores"][s]) for s in present]
        for row, published in zip(rows, pub):
            theirs = row["scores"].get(primary)
            if [shown(row["scores"][s]) for s in present] != figures or shown(theirs) == shown(ours["scores"][primary]):
                continue
            text = (f"{ours['name']} (ours) prints {row['name']}'s figures on {', '.join(present)} but {label} "
                    f"{shown(ours['scores'][primary])}, the {label} of its unrounded figures; {row['name']}'s "
                    f"{shown(theirs)} is ")
            printed = published.scores.get(primary)
            if missing:
                text += "recomputed from its printed (rounded) figures on these subsets"
                text += f" (the paper's {label} over all its subsets: {shown(printed)})" if printed is not None else ""
            else:
                text += "the paper's printed figure"
            out.append(text)
    return out


def _row_ci(row: dict, primary: str, rule: str, present, sizes, n_total):
    """95% interval of the primary measure, by the method :mod:`semsts.scoring.intervals` gives its rule."""
    value = row["scores"].get(primary)
    kept = [SubsetScore(s, row["scores"][s], sizes[s]) for s in present if row["scores"].get(s) is not None]
    if rule != "pooled" and (not kept or (len(kept) < len(present) and rule != "sum")):
        return None
    interval = intervals.figure_interval(rule, value, kept, n_total)
    return None if interval is None else list(interval)


def _compare_notes(dataset, board, present, missing, measures, primary, published: bool) -> list[str]:
    notes = list(dataset.notes)
    label = board.label(primary)
    if missing and not (published and board.rows):
        notes.append(f"{', '.join(missing)} missing: every measure is over {', '.join(present)}")
    elif missing:
        how = {"weighted": "size-weighted mean", "mean": "mean", "sum": "sum"}.get(board.measures[primary], "")
        dropped = [board.label(m) for m in board.measures if m not in measures]
        notes.append(f"{', '.join(missing)} missing: each published {label} is recomputed as the {how} of its printed "
                     f"(rounded) figures on {', '.join(present)}, not the paper's {label} over all its subsets, our "
                     f"runs' {label} from their unrounded figures, and the published ranks are recomputed from it"
                     + (f"; {', '.join(dropped)} cannot be recomputed and are left out" if dropped else ""))
    if published and board.rows:
        notes.append("our runs, marked (ours), take the rank their figures, rounded like the paper's, would have among the "
                     "published ranked runs, which keep their ranks; '-': a published row the paper does not rank")
        source = re.sub(r"\s*\(seed \d+\)", "", board.source)  # which of our transcriptions: no news to a reader
        notes.append(f"published: {source}")
        if source != board.source:
            notes.append("the published figures were transcribed from a plain-text copy of the paper; a mark that "
                         "copy lost is said so under 'marks'")
    if board.marks and published:
        notes.append("marks: " + "; ".join(f"{k} {v}" for k, v in board.marks.items()))
    notes.append(f"95% CI of {label}: {intervals.method(board.measures[primary], len(present))}")
    return notes


def _pair_test(a, b, value, outs, gold, ids, n, as_r, metric, seed, resamples, primary) -> dict:
    """Fisher z, Williams on the pooled pairs and the paired bootstrap of run ``a`` against run ``b``."""
    both = is_finite(value[a]) and is_finite(value[b])
    z, p = fisher_z_test(as_r(value[a]), n, as_r(value[b]), n) if both else (math.nan,) * 2
    t, pw = williams_test(pearson(outs[a], gold), pearson(outs[b], gold), pearson(outs[a], outs[b]), n)
    boot = paired_bootstrap(gold, np.column_stack([outs[a], ids]), np.column_stack([outs[b], ids]),
                            n_resamples=resamples, seed=seed, metric=metric)
    return {"a": a, "b": b, "published": None, "measure": primary,
            "difference": boot.difference, "fisher_z": {"z": z, "p": p},
            "williams": {"on": "all", "t": t, "p": pw},
            "bootstrap": {"ci95": list(boot.ci), "p": boot.p_value, "resamples": resamples, "seed": seed},
            "significant": bool(all(is_finite(v) and v < ALPHA for v in (p, pw, boot.p_value)))}


def _significance(dataset, runs, rows, primary, rule, present, sizes, seed, resamples, progress=None) -> list[dict]:
    """Each pair of our runs (Fisher z, Williams on the pooled pairs, paired bootstrap) and each run against the best published row (Fisher z)."""
    n = task_for(dataset).pairs_behind(sizes, present)
    k = len(present)

    def as_r(value):  # a sum of k Pearsons is tested as their mean
        return value / k if rule == "sum" else value

    value = {r["name"]: r["scores"].get(primary) for r in rows if r["ours"]}
    tests = []
    if len(runs) > 1:
        gold, ids, outs = task_for(dataset).stacked(dataset, runs, present)
        metric = aggregate_metric(rule, [sizes[s] for s in present])
        pairs = list(combinations(runs, 2))
        for a, b in (progress(pairs, f"significance ({len(pairs)} pairs of runs)") if progress else pairs):
            if is_finite(value[b]) and not (is_finite(value[a]) and value[a] >= value[b]):
                a, b = b, a
            tests.append(_pair_test(a, b, value, outs, gold, ids, n, as_r, metric, seed, resamples, primary))
    ranked = [r for r in rows if not r["ours"] and r["ranks"].get(primary) is not None and r["scores"].get(primary) is not None]
    if ranked:
        best = max(ranked, key=lambda r: r["scores"][primary])
        for name in runs:
            if not is_finite(value[name]):
                continue
            a, b = (name, best["name"]) if value[name] >= best["scores"][primary] else (best["name"], name)
            va, vb = (value[name], best["scores"][primary]) if a == name else (best["scores"][primary], value[name])
            z, p = fisher_z_test(as_r(va), n, as_r(vb), n)
            tests.append({"a": a, "b": b, "published": best["name"], "measure": primary, "difference": va - vb,
                          "fisher_z": {"z": z, "p": p}, "williams": None, "bootstrap": None,
                          "significant": bool(is_finite(p) and p < ALPHA)})
    return tests
