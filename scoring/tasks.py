"""Tasks: how a dataset's outputs are scored and signed (their tables are laid out by :mod:`.report_tables`).

One small class per way of scoring (STS, CLSS, TYPED), registered by its ``name``; a dataset's kind
(:mod:`semsts.corpora.kinds`) names the one it is scored by (``scored_as``) and owns its files.
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import ClassVar

import numpy as np

from semsts import corpora
from semsts.core.stats import pearson, spearman

from . import aggregates
from .aggregates import SubsetScore
from .report import InvalidRun, Report
from .signature import Signature
from .significance import fisher_ci

TASKS: dict[str, "TaskKind"] = {}


def task_for(dataset) -> "TaskKind":
    """The task a dataset (or subset) is scored by: the one its kind names (``sts``, ``clss``, ``typed``)."""
    name = dataset.kind.scored_as
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; known: {', '.join(TASKS)}") from None


def _scores(subsets: dict, key: str = "pearson") -> list[SubsetScore]:
    """Each subset's ``key`` correlation and scored pairs, from :func:`score_subsets`' ``subsets``."""
    return [SubsetScore(name, s[key], s["n"]) for name, s in subsets.items()]


def score_subsets(parts) -> dict:
    """Per-subset and dataset scores over ``[(name, system, gold[, confidences]), …]``.

    Unscored pairs (NaN gold) are dropped before anything is computed. Aggregates: ALL (Pearson
    of the concatenation), ALLnorm (per-subset least-squares map onto the gold, then ALL), Mean
    (Pearsons weighted by scored pairs, the official 2012-2016 figure) and the unweighted mean.
    With confidences on every subset, ``all_weighted`` is the 2012 paper's ALLw.
    """
    subsets, xs, ys, ws = {}, [], [], []
    for name, system, gold, *rest in parts:
        system, gold = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
        conf = rest[0] if rest and rest[0] is not None else None
        keep = ~np.isnan(gold)
        x, y = system[keep], gold[keep]
        r = pearson(x, y)
        subsets[name] = {
            "n": int(len(y)), "n_unscored": int(np.count_nonzero(~keep)),
            "pearson": r, "spearman": spearman(x, y), "ci95": list(fisher_ci(r, len(y))),
            "weighted_pearson": None if conf is None else pearson(x, y, weights=np.asarray(conf, float)[keep]),
        }
        xs.append(x)
        ys.append(y)
        ws.append(None if conf is None else np.asarray(conf, float)[keep])
    parts, scores = list(zip(xs, ys)), _scores(subsets)
    return {
        "subsets": subsets,
        "all": aggregates.pooled(parts),
        "allnorm": aggregates.normalized(parts),
        "mean": aggregates.of_scores("weighted", scores),
        "unweighted_mean": aggregates.of_scores("mean", scores),
        "all_weighted": None if any(w is None for w in ws) else pearson(np.concatenate(xs), np.concatenate(ys),
                                                                         weights=np.concatenate(ws)),
    }


def score_typed(system, gold) -> dict:
    """Table 3 of the *SEM 2013 paper: the Pearson of each of the eight types and their plain mean."""
    system, gold = np.asarray(system, dtype=float), np.asarray(gold, dtype=float)
    if system.shape != gold.shape or gold.ndim != 2 or gold.shape[1] != len(corpora.TYPES):
        raise ValueError(f"typed scores must both be (n, {len(corpora.TYPES)}), got {system.shape} and {gold.shape}")
    scores = [SubsetScore(t, pearson(system[:, j], gold[:, j]), len(gold)) for j, t in enumerate(corpora.TYPES)]
    return {"n": len(gold), "types": {s.name: s.r for s in scores}, "mean": aggregates.of_scores("mean", scores)}


def missing_subsets(dataset: corpora.Dataset) -> list[str]:
    """Subsets the task published that this dataset lacks, licensed ones marked (none for a user's file)."""
    if dataset.path is not None:
        return []
    spec = corpora.spec(dataset.name)
    present = {s.name for s in dataset}
    return [f"{name}(licensed)" if name in spec.licensed_out else name
            for name in spec.expected if name not in present]


def dataset_field(dataset: corpora.Dataset) -> str:
    """The signature's ``dataset`` value: the registered name, or a user's file by name and SHA-256."""
    if dataset.path is None:
        return dataset.name
    return f"file={dataset.path.name},sha256={dataset.sha256}"


def check_predictions(sub: corpora.Subset, values) -> np.ndarray:
    """``values`` as a float array, refused as an output file would be: a ValueError naming the
    subset and the (0-based) pair index of a wrong length, a NaN or infinite value, or one out of range (a value's,
    at the file and line where its pair's row starts)."""
    width = sub.kind.width
    try:
        scores = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"subset {sub.name!r}: predictions are not numbers ({exc})") from None
    shape = (len(sub),) if width is None else (len(sub), width)
    if scores.ndim != len(shape) or scores.shape[1:] != shape[1:]:
        raise ValueError(f"subset {sub.name!r}: predictions have shape {scores.shape}; expected {shape}")
    if len(scores) != len(sub):
        where = (f"pair index {len(scores)} has no prediction" if len(scores) < len(sub)
                 else f"pair index {len(sub)} and on are beyond the last pair")
        raise ValueError(f"subset {sub.name!r}: {len(scores)} predictions for {len(sub)} pairs ({where})")
    lo, hi = sub.score_range
    rows = scores.reshape(len(scores), -1)
    for index, row in enumerate(rows):
        for value in row:
            if not math.isfinite(value):
                raise sub.pair_error(index, f"subset {sub.name!r}, pair index {index}: prediction {value} is not a "
                                            "finite number")
            if not lo <= value <= hi:
                raise sub.pair_error(index, f"subset {sub.name!r}, pair index {index}: prediction {value:g} is outside "
                                            f"the task range [{lo:g}, {hi:g}]")
    return scores


class TaskKind:
    """What every task kind tells the scorer; subclasses register themselves by ``name``."""

    name: ClassVar[str] = ""
    json_keys: ClassVar[tuple] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            TASKS[cls.name] = cls()

    # --- output files (their formats are the dataset kind's)
    def read(self, sub: corpora.Subset, run_dir):
        """``(scores, confidences or None)`` of a subset's valid output file in ``run_dir``."""
        return sub.kind.read_output(Path(run_dir) / sub.output_name, len(sub), sub.score_range)

    def validate(self, dataset: corpora.Dataset, run_dir) -> list:
        """Every FormatError of the run's output files for ``dataset`` (missing files included)."""
        if not Path(run_dir).is_dir():  # one line, not one per output file
            what = "is not a folder" if os.path.lexists(run_dir) else "no such run folder"
            return [corpora.FormatError(Path(run_dir), None, what)]
        errors = corpora.runrecord.check_run(run_dir, dataset.name, [sub.output_name for sub in dataset],
                                             dataset_sha256=dataset.sha256)
        for sub in dataset:
            errors.extend(sub.kind.check_output(Path(run_dir) / sub.output_name, len(sub), sub.score_range))
        return errors

    def outputs(self, dataset: corpora.Dataset, run_dir) -> dict:
        """Subset name -> ``(scores, confidences or None)`` of a run's output files; InvalidRun if any file is bad."""
        errors = self.validate(dataset, run_dir)
        if errors:
            raise InvalidRun(errors)
        return {sub.name: self.read(sub, run_dir) for sub in dataset}

    # --- scoring
    def score(self, dataset: corpora.Dataset, run_dir, *, bootstrap: dict | None = None) -> Report:
        """The report of a run directory; InvalidRun if any file is bad."""
        dataset.require_gold()
        return self.report(dataset, self.outputs(dataset, run_dir), bootstrap=bootstrap)

    def report(self, dataset: corpora.Dataset, outputs: dict, *, bootstrap: dict | None = None) -> Report:
        """The report of validated ``outputs`` (subset name -> (scores, confidences or None))."""
        raise NotImplementedError

    def score_predictions(self, dataset: corpora.Dataset, predictions) -> Report:
        """The report of in-memory predictions, checked as output files are (see :func:`check_predictions`)."""
        dataset.require_gold()
        if not isinstance(predictions, dict):
            if len(dataset.subsets) != 1:
                raise ValueError(f"{dataset.name} has {len(dataset.subsets)} subsets "
                                 f"({', '.join(s.name for s in dataset)}): give predictions as a dict subset -> array")
            predictions = {dataset.subsets[0].name: predictions}
        names = [s.name for s in dataset]
        unknown = sorted(set(predictions) - set(names))
        absent = [n for n in names if n not in predictions]
        if unknown or absent:
            raise ValueError(f"predictions for {dataset.name} must cover its subsets {', '.join(names)}"
                             + (f"; missing: {', '.join(absent)}" if absent else "")
                             + (f"; not in the dataset: {', '.join(map(str, unknown))}" if unknown else ""))
        return self.report(dataset, {sub.name: (check_predictions(sub, predictions[sub.name]), None) for sub in dataset})

    # --- compare: the parts a dataset's figures are made of (subsets, or TYPED's types)
    def parts(self, dataset: corpora.Dataset) -> list[tuple[str, int]]:
        """``(name, scored pairs)`` of each part, in order."""
        return [(s.name, s.n_scored) for s in dataset]

    def part_labels(self) -> dict:
        return {}

    def pairs_behind(self, sizes: dict, present) -> int:
        """How many scored pairs the parts present stand on (their sum: each pair is in one subset)."""
        return sum(sizes[s] for s in present)

    def part_scores(self, report: Report) -> tuple[SubsetScore, ...]:
        """Each part's Pearson and scored pairs in ``report``, in order."""
        raise NotImplementedError

    def stacked(self, dataset: corpora.Dataset, runs: dict, present):
        """Gold, part index and each run's scores over the scored pairs of the parts present."""
        raise NotImplementedError


class STS(TaskKind):
    """The STS tasks (2012-2017, STS Benchmark): one score per pair, several subsets, ALL/ALLnorm/Mean."""

    name = "sts"
    json_keys = ("subsets", "all", "allnorm", "mean", "unweighted_mean", "all_weighted", "missing", "notes",
                 "signature")
    aggregates = "all=pooled,allnorm=lsq-per-subset,mean=size-weighted,umean=plain"

    def figures(self, parts) -> dict:
        return score_subsets(parts)

    def report(self, dataset, outputs: dict, *, bootstrap=None) -> Report:
        """The report of validated ``outputs`` (subset name -> (scores, confidences or None)), in file or memory."""
        figures = self.figures([(sub.name, *outputs[sub.name][:1], sub.gold, outputs[sub.name][1]) for sub in dataset])
        missing = tuple(missing_subsets(dataset))
        signature = self.signature(dataset_field(dataset), figures, missing=missing, bootstrap=bootstrap)
        return Report(dataset.name, self, figures, signature, tuple(dataset.notes), missing, dataset.kind.name)

    def signature(self, dataset: str, figures: dict, *, missing=(), bootstrap=None) -> Signature:
        """Every choice that makes numbers incomparable; ``bootstrap`` (``{"seed", "resamples"}``) for resampling reports."""
        subs = figures["subsets"]
        unscored = sum(s["n_unscored"] for s in subs.values())
        has_conf = [s["weighted_pearson"] is not None for s in subs.values()]
        conf = ("none" if not any(has_conf) else "ignored(+weighted-pearson)" if all(has_conf)
                else "partial(+weighted-pearson)")
        boot = "none" if not bootstrap else f"seed={bootstrap['seed']},n={bootstrap['resamples']}"
        return Signature([
            ("dataset", dataset), ("subsets", ",".join(f"{name}={s['n']}" for name, s in subs.items())),
            ("missing", ",".join(missing) or "none"), ("agg", self.aggregates), ("corr", "pearson"),
            ("unscored", f"dropped({unscored})"), ("conf", conf), ("nan", "error"), ("ci", "fisher-z95"),
            ("boot", boot)])

    def part_scores(self, report):
        return tuple(_scores(report.figures["subsets"]))

    def stacked(self, dataset, runs, present):
        golds, ids, scores = [], [], {name: [] for name in runs}
        for index, name in enumerate(present):
            sub = dataset.subset(name)
            keep = ~np.isnan(sub.gold)
            golds.append(sub.gold[keep])
            ids.append(np.full(int(keep.sum()), index))
            for run, run_dir in runs.items():
                out, _ = self.read(sub, run_dir)
                scores[run].append(out[keep])
        return np.concatenate(golds), np.concatenate(ids), {k: np.concatenate(v) for k, v in scores.items()}


class CLSS(STS):
    """SemEval-2014 Task 3, cross-level semantic similarity: four levels, ranked by the sum of their Pearsons."""

    name = "clss"
    json_keys = ("subsets", "all", "allnorm", "mean", "unweighted_mean", "all_weighted", "missing", "notes",
                 "official", "spearman_sum", "signature")
    aggregates = STS.aggregates + ",official=sum-pearson"

    def figures(self, parts) -> dict:
        """The STS figures plus the official ranking score (sum of the four levels' Pearsons) and the Spearman sum."""
        result = score_subsets(parts)
        levels = {lvl: result["subsets"][lvl] for lvl in corpora.CLSS_LEVELS if lvl in result["subsets"]}
        return {**result, "official": aggregates.of_scores("sum", _scores(levels)),
                "spearman_sum": aggregates.of_scores("sum", _scores(levels, "spearman"))}


class STS2017(STS):
    """SemEval-2017 Task 1: the STS figures per track, and the primary score, the plain mean of the tracks' Pearsons
    (Cer et al. 2017; over the tracks present: a missing track is in the signature's ``missing``)."""

    name = "sts2017"
    json_keys = (*STS.json_keys[:-1], "primary", "signature")
    aggregates = STS.aggregates + ",primary=mean-of-tracks"

    def figures(self, parts) -> dict:
        result = score_subsets(parts)
        return {**result, "primary": aggregates.of_scores("mean", _scores(result["subsets"]))}

    def part_labels(self):
        return dict(corpora.kinds.STS2017_TRACKS)


class TYPED(TaskKind):
    """The *SEM 2013 TYPED pilot: eight scores per pair of Europeana records, ranked by their plain mean."""

    name = "typed"
    json_keys = ("n", "types", "mean", "notes", "signature")

    def report(self, dataset, outputs: dict, *, bootstrap=None) -> Report:
        (sub,) = dataset.subsets
        figures = score_typed(outputs[sub.name][0], sub.gold)
        signature = Signature([("dataset", dataset_field(dataset)), ("n", figures["n"]), ("types", len(corpora.TYPES)),
                               ("agg", "mean=plain-of-types"), ("corr", "pearson"), ("nan", "error")])
        return Report(dataset.name, self, figures, signature, tuple(dataset.notes), (), dataset.kind.name)

    def parts(self, dataset):
        (sub,) = dataset.subsets
        return [(t, sub.n_scored) for t in corpora.TYPES]

    def part_labels(self):
        return {**dict(zip(corpora.TYPES, corpora.TYPE_LABELS)), "mean": "Mean"}

    def part_scores(self, report):
        return tuple(SubsetScore(t, r, report.figures["n"]) for t, r in report.figures["types"].items())

    def pairs_behind(self, sizes, present):
        """Every type scores the same record pairs."""
        return max((sizes[s] for s in present), default=0)

    def stacked(self, dataset, runs, present):
        """One block per type: its gold column against each run's column for that type."""
        (sub,) = dataset.subsets
        keep = ~np.isnan(sub.gold).any(axis=1)
        outputs = {run: self.read(sub, run_dir)[0][keep] for run, run_dir in runs.items()}
        columns = [corpora.TYPES.index(t) for t in present]
        gold = np.concatenate([sub.gold[keep][:, j] for j in columns])
        ids = np.concatenate([np.full(int(keep.sum()), i) for i in range(len(columns))])
        return gold, ids, {run: np.concatenate([out[:, j] for j in columns]) for run, out in outputs.items()}
