"""``sts bench``'s tables: the four conventions side by side, and SimCSE's Table 5 with our rows placed in it.

Every table is ``(header, body)`` lists of strings, rendered as aligned text, Markdown or JSON, and
followed by its convention's signature. A row trained on STS-family gold carries a dagger: SimCSE's
rows were not, so it is shown but not comparable.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from semsts.corpora.published_encoders import DATASETS as TABLE5_DATASETS
from semsts.corpora.published_encoders import MTEB_CORE, MTEB_DATASETS, MTEB_NAME, contenders, mteb_contenders
from semsts.corpora.published_encoders import NAME as TABLE5

from . import aggregates, intervals
from . import conventions as cv
from .bench import CONVENTION_NAMES, CONVENTIONS, LABELS, SIMCSE_DATASETS, BenchRow, covering, fmt100, signature
from .bench_intervals import Bootstrap
from .ranking import common_task_rank, placed_rank, printed_rank, ranked_view
from .results import Result, fmt, json_value, markdown, number, text_blocks, wrapped

DAGGER = "†"
NOT_COMPARABLE = f"{DAGGER} trained on STS-family gold scores: not comparable with rows that were not"
CI_LABEL = "  95% CI"
INTERVALS = (f"95% CI under each row of ours: a Pearson of pooled pairs (STS12 ALL, STS-B and SICK-R Pearson): "
             f"{intervals.FISHER}; a mean of subsets' Pearsons (official Mean, SentEval Pearson): {intervals.DELTA}; "
             f"every other figure: the {intervals.BOOTSTRAP}; published rows keep their printed figures alone")


def name_of(row: BenchRow) -> str:
    return row.system + (f" {DAGGER}" if row.trained_on_sts else "")


def fmt_ci(interval, *, x100: bool = False) -> str:
    """A 95% interval as ``[lo, hi]``: two decimals for figures x 100, three for correlations; '-' when there is none."""
    if interval is None or not all(isinstance(v, float) and math.isfinite(v) for v in interval):
        return "-"
    return "[{:.2f}, {:.2f}]".format(*interval) if x100 else "[{:.3f}, {:.3f}]".format(*interval)


def ci_row(row: BenchRow, keys, *, x100: bool = False, lead=()) -> list:
    """The interval line under a row of ours: one ``[lo, hi]`` per figure key (none for a key it lacks)."""
    return [*lead, CI_LABEL, *(fmt_ci(row.ci.get(k), x100=x100) if k is not None else "" for k in keys)]


def with_ci(rows, body, keys, *, x100: bool = False) -> list:
    """``body`` (one line per row of ours) with each row's interval line under it, where it has intervals."""
    out = []
    for r, line in zip(rows, body):
        out.append(line)
        if r.ci:
            out.append(ci_row(r, keys, x100=x100))
    return out


def datasets_of(rows) -> list[str]:
    """The datasets any row has figures for, in the family's order (the rows' own order)."""
    seen = {}
    for row in rows:
        seen.update(dict.fromkeys(row.figures))
    return list(seen)


def simcse_table(rows) -> tuple[list, list]:
    header = ["system", *(LABELS[d] for d in SIMCSE_DATASETS), "Avg."]
    body = [[name_of(r), *(fmt100(r.simcse(d)) for d in SIMCSE_DATASETS), fmt100(r.simcse_average)] for r in rows]
    return header, with_ci(rows, body, [*(("simcse", d) for d in SIMCSE_DATASETS), ("simcse", "Avg.")], x100=True)


def _official_columns(rows) -> list[tuple[str, str]]:
    columns = []
    for dataset in datasets_of(rows):
        labels = next(r.figures[dataset].official for r in rows if dataset in r.figures)
        columns += [(dataset, label) for label in labels]
    return columns


def official_table(rows) -> tuple[list, list]:
    columns = _official_columns(rows)
    header = ["system", *(f"{LABELS.get(d, d)} {label}" for d, label in columns)]
    body = [[name_of(r), *(fmt(r.figures[d].official[label]) if d in r.figures else "-" for d, label in columns)]
            for r in rows]
    return header, with_ci(rows, body, [("official", d, label) for d, label in columns])


def senteval_table(rows) -> tuple[list, list]:
    header = ["dataset", "system", "pearson mean", "pearson wmean", "spearman mean", "spearman wmean"]
    body = []
    for dataset in datasets_of(rows):
        for r in rows:
            if dataset in r.figures and r.figures[dataset].senteval is not None:
                s = r.figures[dataset].senteval
                body.append([LABELS.get(dataset, dataset), name_of(r), fmt(s["pearson"]["mean"]),
                             fmt(s["pearson"]["wmean"]), fmt(s["spearman"]["mean"]), fmt(s["spearman"]["wmean"])])
                if r.ci:
                    body.append(ci_row(r, [("senteval", dataset, c, a) for c in ("pearson", "spearman")
                                           for a in ("mean", "wmean")], lead=[""]))
    return header, body


def mteb_table(rows) -> tuple[list, list]:
    datasets = [d for d in datasets_of(rows) if cv.in_mteb(d)]  # no column for a dataset no MTEB task holds
    header = ["system", *(LABELS.get(d, d) for d in datasets)]
    header.append("mean")
    body = [[name_of(r), *(fmt100(r.figures[d].mteb) if d in r.figures else "-" for d in datasets),
             fmt100(r.mteb_mean)] for r in rows]
    return header, with_ci(rows, body, [*(("mteb", d) for d in datasets), ("mteb", "mean")], x100=True)


TABLES = {"simcse": simcse_table, "official": official_table, "senteval": senteval_table, "mteb": mteb_table}


MTEB_SUBSETS_TITLE = ("MTEB by subset: each hf_subset's main score (cosine Spearman x 100) of the multilingual tasks; "
                      "a task's figure above is their plain mean, as mteb's task score (STSBMultilingual: its test "
                      "and dev subsets)")


def mteb_subset_table(rows) -> tuple[list, list]:
    """The multilingual tasks' per-subset MTEB figures, one line per dataset and subset, a column per row (and its
    95% interval where it has one)."""
    header, body = ["dataset", "subset"], []
    for r in rows:
        header += [name_of(r)] + ([CI_LABEL.strip()] if r.ci else [])
    for dataset in datasets_of(rows):
        subsets = next((r.figures[dataset].mteb_subsets for r in rows if dataset in r.figures
                        and r.figures[dataset].mteb_subsets is not None), None)
        for name in subsets or ():
            line = [LABELS.get(dataset, dataset), name]
            for r in rows:
                f = r.figures.get(dataset)
                line.append(fmt100(f.mteb_subsets.get(name)) if f is not None and f.mteb_subsets else "-")
                if r.ci:
                    line.append(fmt_ci(r.ci.get(("mteb", dataset, name)), x100=True))
            body.append(line)
    return header, body


TABLE5_HEADER = ["model", *(LABELS[d] for d in TABLE5_DATASETS), "Avg."]


def _table5_cells(c) -> list:
    """A published row of SimCSE's Table 5 as printed (``*``: its Avg. is not the mean of its figures)."""
    return [c.name + (f" {c.marks}" if c.marks else ""), *(f"{c.figures[d]:.2f}" for d in TABLE5_DATASETS),
            f"{c.average:.2f}" + (" *" if abs(c.recomputed_average - c.average) > 0.006 else "")]


def _table5_lines(r: BenchRow) -> list:
    """A row of ours in SimCSE's Table 5, and its interval line where it has one."""
    lines = [[name_of(r), *(fmt100(r.simcse(d)) for d in TABLE5_DATASETS), fmt100(r.simcse_average)]]
    if r.ci:
        lines.append(ci_row(r, [*(("simcse", d) for d in TABLE5_DATASETS), ("simcse", "Avg.")], x100=True))
    return lines


def published_table(rows, *, sts_trained: bool = True) -> tuple[list, list, list]:
    """SimCSE's Table 5 as the paper lays it out, our rows after it; and the notes on them. ``sts_trained`` changes
    nothing: no row of Table 5 was trained on STS data."""
    header = TABLE5_HEADER
    body, notes, published = [], [], contenders()
    for section in ("unsupervised", "supervised"):
        body.append([f"({section}, as published)"] + [""] * (len(header) - 1))
        body += [_table5_cells(c) for c in published if c.supervised == (section == "supervised")]
    body.append(["(ours)"] + [""] * (len(header) - 1))
    averages = sorted((c.average for c in published), reverse=True)
    for r in rows:
        body += _table5_lines(r)
        rank = None if r.trained_on_sts else printed_rank(r.simcse_average, averages)
        if rank is not None:
            notes.append(f"{r.system}: Avg. {r.simcse_average:.2f} would rank {rank} of {len(averages) + 1} "
                         f"among the published rows")
    notes.append("* the paper's printed Avg. is not the mean of its seven figures (SBERT-base: 74.89 printed, "
                 "74.86 from its columns)")
    notes.append(f"published rows: {TABLE5} (SimCSE, Gao, Yao and Chen 2021, Table 5; ♣ from Reimers and Gurevych "
                 "2019, ♥ from Zhang et al. 2020)")
    return header, body, notes


MTEB_LABELS = {**LABELS, "stsb-test": "STSBenchmark", "sts2017-test": "STS17 en-en", "sts2022-test": "STS22 en"}


def _mteb_of(row: BenchRow) -> dict:
    """Our row's MTEB figures (x 100) by dataset, None where it has none."""
    return {d: (row.figures[d].mteb if d in row.figures else None) for d in MTEB_DATASETS}


def _core_mean(figures: dict) -> float | None:
    values = [figures.get(d) for d in MTEB_CORE]
    return None if any(v is None for v in values) else aggregates.mean(values)


MTEB_HEADER = ["model", *(MTEB_LABELS[d] for d in MTEB_DATASETS), "Mean (7)"]


def _mteb_cells(name: str, figures: dict) -> list:
    return [name, *(fmt100(figures.get(d)) for d in MTEB_DATASETS), fmt100(_core_mean(figures))]


def _mteb_lines(r: BenchRow) -> list:
    """A row of ours in MTEB's published table, and its interval line where it has one."""
    lines = [_mteb_cells(name_of(r), _mteb_of(r))]
    if r.ci:
        core = ("mteb", "mean") if r.mteb_tasks == tuple(MTEB_CORE) else None
        lines.append(ci_row(r, [*(("mteb", d) for d in MTEB_DATASETS), core], x100=True))
    return lines


def mteb_published_table(rows, *, sts_trained: bool = True) -> tuple[list, list, list]:
    """MTEB's published STS main scores (x 100) of open and API encoders, our rows after them, and where
    each of ours would rank: per task, and by the mean of the tasks it has, each published row compared
    on the tasks both have (the notes say which published rows lack one and are compared on fewer). Without the
    published rows trained on STS data (†) when ``sts_trained`` is False."""
    header, published = MTEB_HEADER, mteb_contenders(sts_trained=sts_trained)
    theirs = [{d: 100 * v for d, v in c.figures.items()} for c in published]
    body = [["(published, MTEB)"] + [""] * (len(header) - 1)]
    body += [_mteb_cells(c.name + (f" {c.marks}" if c.marks else ""), f) for c, f in zip(published, theirs)]
    body.append(["(ours)"] + [""] * (len(header) - 1))
    notes = []
    for r in rows:
        body += _mteb_lines(r)
        if not r.trained_on_sts:
            notes += _mteb_rank_notes(r.system, _mteb_of(r), theirs, published)
    notes.append("Mean (7) = the plain mean of STS12-16, STSBenchmark and SICK-R, shown where all seven are there; "
                 "the rank column and each row's 'would rank' are by it (as printed, two decimals) among the published "
                 "rows that have it; by another rule, a row of ours is also compared with each published row on the "
                 "mean of the tasks both have (STS17 and STS22 count only where both have them), so a published row "
                 "lacking a task is compared on fewer, as said per row; the place among the published rows holding "
                 "all of our row's tasks follows it")
    notes.append(f"published rows: {MTEB_NAME} ({len(published)} models, figures read from MTEB's results "
                 "repositories: a revision folder run by mteb, ° the MTEB paper's run (mteb 0.0.2, no revision), "
                 "◇ the authors' self-reported figures, not an MTEB run, ◈ an MTEB run with the tasks its folder "
                 "lacks taken from the authors' own files; revision, mteb version and source file "
                 "of each in corpora/leaderboards/mteb-sts.tsv)")
    notes.append(_sts_trained_note(sts_trained))
    return header, body, notes


def _sts_trained_note(sts_trained: bool) -> str:
    every = mteb_contenders()
    marked = sum(c.trained_on_sts is True for c in every)
    unknown = sum(c.trained_on_sts is None for c in every)
    what = (f"† = trained on STS data: mteb's model metadata names an STS task among the model's training datasets "
            f"({marked} of {len(every)} published rows; for {unknown} it gives no training data or does not list the model, "
            "so they are not marked)")
    return what + ("; those rows are left out here (--no-sts-trained)" if not sts_trained else
                   "; --no-sts-trained ranks without them")


def _mteb_rank_notes(system: str, ours: dict, theirs: list, published: list) -> list:
    tasks = [d for d in MTEB_DATASETS if ours[d] is not None and math.isfinite(ours[d])]
    rank, compared = common_task_rank(ours, theirs, tasks)
    if rank is None:
        return []
    ranked = [i for i, shared in enumerate(compared) if shared]
    names = ", ".join(MTEB_LABELS[d] for d in tasks)
    mean = aggregates.mean([ours[d] for d in tasks])
    fewer: dict = {}
    for i in ranked:
        lacking = [MTEB_LABELS[d] for d in tasks if d not in compared[i]]
        if lacking:
            key = ", ".join(lacking)
            fewer[key] = fewer.get(key, 0) + 1
    core, cores = _core_mean(ours), [_core_mean(f) for f in theirs]
    at = printed_rank(core, cores)  # the table's rank column: by Mean (7), among the published rows that have it
    text = (f"{system}: Mean (7) {core:.2f} would rank {at} of {sum(c is not None for c in cores) + 1} among the "
            "published rows that have it, as the table's rank column places it" if at else f"{system}: no Mean (7) "
            f"(no figure for {', '.join(MTEB_LABELS[d] for d in MTEB_CORE if d not in tasks)}), so the table ranks it "
            "nowhere")
    text += (f"; by another rule, its mean over {len(tasks)} tasks ({names}) "
             f"{mean:.2f}, each published row compared on the tasks both have, places {rank} of {len(ranked) + 1}")
    if fewer:
        full = [theirs[i] for i in ranked if len(compared[i]) == len(tasks)]
        full_rank = placed_rank(mean, [aggregates.mean([f[d] for d in tasks]) for f in full])
        text += ("; compared on fewer tasks: " + "; ".join(f"{n} lacking {k}" for k, n in fewer.items())
                 + f"; among the {len(full)} holding all {len(tasks)}: {full_rank} of {len(full) + 1}")
    per_task = []
    for d in tasks:
        values = [f[d] for f in theirs if d in f]
        if values:
            per_task.append(f"{MTEB_LABELS[d]} {placed_rank(ours[d], values)} of {len(values) + 1}")
    return [text, f"{system} per task: " + ", ".join(per_task)]


def published_view(rows, *, sts_trained: bool = True) -> tuple[list, list, list, dict]:
    """SimCSE's Table 5 ranked by Avg., cut by :func:`~semsts.scoring.ranking.ranked_view` (the paper's two sections
    merged). ``sts_trained`` changes nothing: no row of Table 5 was trained on STS data."""
    published = [(_table5_cells(c), c.average) for c in contenders()]
    ours = [(_table5_lines(r), None if r.trained_on_sts else r.simcse_average) for r in rows]
    return ranked_view(TABLE5_HEADER, published, ours)


def mteb_published_view(rows, *, sts_trained: bool = True) -> tuple[list, list, list, dict]:
    """MTEB's published rows ranked by Mean (7) (those without it last, unranked), cut by
    :func:`~semsts.scoring.ranking.ranked_view`; without those trained on STS data when ``sts_trained`` is False."""
    published = []
    for c in mteb_contenders(sts_trained=sts_trained):
        figures = {d: 100 * v for d, v in c.figures.items()}
        published.append((_mteb_cells(short_name(c.name) + (f" {c.marks}" if c.marks else ""), figures),
                          _core_mean(figures)))
    ours = [(_mteb_lines(r), None if r.trained_on_sts else _core_mean(_mteb_of(r))) for r in rows]
    return ranked_view(MTEB_HEADER, published, ours)


def short_name(name: str, width: int = 36) -> str:
    """A long model name as a readable table shows it: its organization left out (``…/model``) when too long."""
    if len(name) <= width or "/" not in name:
        return name
    return "…/" + name.rsplit("/", 1)[1]


PUBLISHED_VIEWS = {"simcse": published_view, "mteb": mteb_published_view}
PUBLISHED_TABLES = {"simcse": published_table, "mteb": mteb_published_table}


@dataclass(frozen=True)
class Section:
    """One convention's table: its title, header and body, notes under it, and its signatures."""

    title: str
    header: list
    body: list
    notes: list
    signatures: list
    ours: list  # per body row: is it one of ours (not a published row)?
    gaps: dict = field(default_factory=dict)  # body position -> the line standing for the published rows left out there


def sections(rows, *, conventions=tuple(CONVENTIONS), published: bool = False, bootstrap=None,
             every_row: bool = True, sts_trained: bool = True) -> list[Section]:
    """The tables a bench prints, in order; every rendering (text, Markdown, HTML) draws these. A published table
    holds every published row in the paper's layout, or (not ``every_row``) is cut to the top rows and those around
    ours, ranked (:func:`~semsts.scoring.ranking.ranked_view`); without the published rows trained on STS data when
    ``sts_trained`` is False."""
    out = []
    for convention in conventions:
        placed = published and convention in PUBLISHED_TABLES
        if placed and convention == "mteb" and not any(d in MTEB_DATASETS for r in rows for d in r.figures):
            placed = False  # MTEB's multilingual tasks alone: no published row has a figure to place them among
        gaps: dict = {}
        if placed:
            header, body, notes = PUBLISHED_TABLES[convention](rows, sts_trained=sts_trained)
            n_ours = sum(1 + bool(r.ci) for r in rows)
            ours = [False] * (len(body) - n_ours) + [True] * n_ours
            if not every_row:
                header, body, ours, gaps = PUBLISHED_VIEWS[convention](rows, sts_trained=sts_trained)
        else:
            (header, body), notes = TABLES[convention](rows), []
            ours = [True] * len(body)
        signatures = list(dict.fromkeys(str(signature(convention, r.figures.values())) for r in rows))
        out.append(Section(CONVENTIONS[convention][0], header, body, notes, signatures, ours, gaps))
        if convention == "mteb" and any(f.mteb_subsets for r in rows for f in r.figures.values()):
            header, body = mteb_subset_table(rows)
            out.append(Section(MTEB_SUBSETS_TITLE, header, body, [], [], [True] * len(body)))
    if bootstrap is not None and bootstrap.tests:
        header, body, notes = tests_table(bootstrap, conventions)
        out.append(Section("paired tests: each two rows of ours on the primary figures of each convention",
                           header, body, notes, [], [True] * len(body)))
    return out


def primary_figure(key: tuple) -> bool:
    """Is ``key`` (:func:`semsts.scoring.bench.figure_values`) a figure the text's paired tests show? SimCSE's Avg.
    (or its datasets where a row has no Avg.), MTEB's tasks and their mean, each dataset's first official
    figure (STS12 ALL, else Mean or Pearson), SentEval's size-weighted Spearman."""
    convention = key[0]
    if convention == "official":
        return key[2] == cv.official_figures(key[1])[0][0]
    if convention == "senteval":
        return key[2:] == ("spearman", "wmean")
    return True


def figure_label(key: tuple) -> str:
    convention, *rest = key
    return " ".join([CONVENTION_NAMES[convention], *(LABELS.get(k, k) for k in rest)])


def tests_table(bootstrap, conventions) -> tuple[list, list, list]:
    """The paired tests between our rows on the primary figures of the conventions asked for."""
    tests = [t for t in bootstrap.tests if t["figure"][0] in conventions and primary_figure(tuple(t["figure"]))]
    with_avg = {(t["a"], t["b"]) for t in tests if t["figure"] == ["simcse", "Avg."]}
    tests = [t for t in tests if not (t["figure"][0] == "simcse" and t["figure"][1] != "Avg." and (t["a"], t["b"]) in with_avg)]
    order = {c: i for i, c in enumerate(conventions)}
    tests.sort(key=lambda t: order[t["figure"][0]])  # stable: pairs and datasets keep their order
    header = ["figure", "row A", "row B", "A - B", "95% CI of A - B", "p"]
    body = []
    for t in tests:
        x100 = t["figure"][0] in ("simcse", "mteb")
        diff = t["difference"]
        body.append([figure_label(tuple(t["figure"])), t["a"], t["b"],
                     number(diff, "+.2f" if x100 else "+.5f"), fmt_ci(tuple(t["ci95"]), x100=x100),
                     number(t["p"], ".3f")])
    notes = [f"{bootstrap.method}; {bootstrap.resamples} resamples, seed {bootstrap.seed}; p = 0.000: no resample "
             f"reversed the difference (p < {2 / bootstrap.resamples:.2g}); the JSON holds every figure's test"]
    return header, body, notes


def trailer(rows, absent=()) -> list[str]:
    """The lines after the tables: the dagger's meaning, how each row was made, notes, absent datasets."""
    lines = [NOT_COMPARABLE] if any(r.trained_on_sts for r in rows) else []
    if any(r.ci for r in rows):
        lines.append(INTERVALS)
    lines += [f"{r.system}: {r.source}" for r in rows if r.source]
    lines += [f"note: {r.system}: {n}" for r in rows for n in r.notes]
    lines += [f"absent: {name}: {how}" for name, how in absent]
    outside = [LABELS.get(d, d) for d in datasets_of(rows) if not cv.in_mteb(d)]
    if outside:
        lines.append(f"no MTEB figure for {', '.join(outside)}: no MTEB task holds it, and no table publishes it "
                     "(its official figure is the readme's Pearson over the file)")
    return lines


def _markdown_lines(s: Section) -> list[str]:
    lines = markdown(s.header, s.body)
    for position in sorted(s.gaps, reverse=True):
        lines.insert(2 + position, f"| {s.gaps[position]} |" + " |" * (len(s.header) - 1))
    return lines


def render(rows, *, conventions=tuple(CONVENTIONS), published: bool = False, absent=(), markdown_: bool = False,
           bootstrap=None, every_row: bool = True, sts_trained: bool = True) -> str:
    """The bench as text (or Markdown): one table per convention with its signature, the paired tests, the notes.
    Text tables wider than :data:`WIDTH` come in blocks of columns; published tables are cut unless ``every_row``."""
    out = []
    for s in sections(rows, conventions=conventions, published=published, bootstrap=bootstrap, every_row=every_row,
                      sts_trained=sts_trained):
        out += [f"## {s.title}", ""] if markdown_ else [wrapped(s.title)]
        out += _markdown_lines(s) if markdown_ else text_blocks(s.header, s.body, s.gaps)
        out += [""] + [f"- {n}" if markdown_ else wrapped(n, "  ") for n in s.notes] if s.notes else []
        for sig in s.signatures:
            out += ["", f"signature: `{sig}`" if markdown_ else f"signature: {sig}"]
        out.append("")
    lines = trailer(rows, absent)
    out += [f"- {line}" for line in lines] if markdown_ else [wrapped(line) for line in lines]
    return "\n".join(out).rstrip() + "\n"


def _dataset_ci(r: BenchRow, d: str, f) -> dict:
    """A dataset's intervals, shaped as its figures are (``official``: label -> [lo, hi], …)."""
    ci = {k: list(v) for k, v in r.ci.items()}
    return {"official": {label: ci.get(("official", d, label)) for label in f.official},
            "senteval": None if f.senteval is None else {c: {a: ci.get(("senteval", d, c, a)) for a in aggs}
                                                         for c, aggs in f.senteval.items()},
            "simcse": ci.get(("simcse", d)), "mteb": ci.get(("mteb", d)),
            **({"mteb_subsets": {n: ci.get(("mteb", d, n)) for n in f.mteb_subsets}} if f.mteb_subsets else {})}


def bench_dict(rows, *, absent=(), bootstrap=None) -> dict:
    """Every figure of every row, with the signatures of the conventions covering its datasets; with the bootstrap,
    each figure's 95% interval in a sibling ``ci`` (``datasets[d]["ci"]``, ``simcse_avg_ci``, ``mteb_mean_ci``) and the paired tests."""
    doc = {"rows": [], "absent": [{"dataset": n, "how": h} for n, h in absent]}
    for r in rows:
        row = {
            "system": r.system, "source": r.source, "trained_on_sts": r.trained_on_sts, "notes": list(r.notes),
            "simcse_avg": r.simcse_average, "mteb_mean": r.mteb_mean,
            "datasets": {d: {"n": f.n, "subsets": f.sizes, "missing": list(f.missing), "official": f.official,
                             "senteval": f.senteval, "simcse": f.simcse, "mteb": f.mteb, "mteb_n": f.mteb_n,
                             **({"mteb_subsets": f.mteb_subsets} if f.mteb_subsets is not None else {})}
                         for d, f in r.figures.items()},
            "signatures": {c: str(signature(c, r.figures.values())) for c in covering(CONVENTIONS, r.figures)}}
        if r.ci:
            for d, f in r.figures.items():
                row["datasets"][d]["ci"] = _dataset_ci(r, d, f)
            row["simcse_avg_ci"] = list(r.ci[("simcse", "Avg.")]) if ("simcse", "Avg.") in r.ci else None
            row["mteb_mean_ci"] = list(r.ci[("mteb", "mean")]) if ("mteb", "mean") in r.ci else None
        doc["rows"].append(row)
    if bootstrap is not None:
        doc["bootstrap"] = {"seed": bootstrap.seed, "resamples": bootstrap.resamples, "method": bootstrap.method,
                            "level": 0.95}
        doc["intervals"] = {"pearson_pooled": intervals.FISHER, "pearson_mean_of_subsets": intervals.DELTA,
                            "other": intervals.BOOTSTRAP}
        doc["paired_tests"] = [dict(t) for t in bootstrap.tests]
    return doc


def render_json(rows, *, absent=(), bootstrap=None) -> str:
    """:func:`bench_dict` as JSON (undefined figures are null)."""
    return json.dumps(json_value(bench_dict(rows, absent=absent, bootstrap=bootstrap)), indent=1,
                      ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Bench(Result):
    """``sts bench``'s result: each system's figures over the STS family under each convention."""

    rows: tuple
    conventions: tuple = ("simcse", "official", "senteval", "mteb")
    published: bool = False
    absent: tuple = ()
    bootstrap: Bootstrap | None = None  # the intervals' resampling and the paired tests (None: --resamples 0)
    every_row: bool = True  # text and Markdown: every published row; False: the top ones and those around ours
    sts_trained: bool = True  # False: the published rows trained on STS data left out (``--no-sts-trained``)

    def title(self) -> str:
        return "sts bench: " + ", ".join(r.system for r in self.rows)

    def tables(self):
        return [(s.header, s.body) for s in sections(self.rows, conventions=self.conventions, published=self.published,
                                                     bootstrap=self.bootstrap, sts_trained=self.sts_trained)]

    def lines(self):
        return trailer(self.rows, self.absent)

    def as_dict(self):
        return bench_dict(self.rows, absent=self.absent, bootstrap=self.bootstrap)

    def to_text(self):
        return render(self.rows, conventions=self.conventions, published=self.published, absent=self.absent,
                      bootstrap=self.bootstrap, every_row=self.every_row, sts_trained=self.sts_trained)

    def to_markdown(self):
        return render(self.rows, conventions=self.conventions, published=self.published, absent=self.absent,
                      markdown_=True, bootstrap=self.bootstrap, every_row=self.every_row, sts_trained=self.sts_trained)

    def to_json(self):
        return render_json(self.rows, absent=self.absent, bootstrap=self.bootstrap)
