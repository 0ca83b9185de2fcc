"""The ways papers and toolkits turn per-subset scores into one figure per dataset, as pure functions.

Every function takes ``parts``: subset name -> ``(gold, prediction)`` arrays, in the dataset's order
(one part for STS-B and SICK). Unscored pairs (NaN gold) are dropped first; a NaN or infinite
prediction, or gold and prediction of different lengths, is a ValueError. A correlation that is
undefined (fewer than two pairs, a constant side) is NaN, and so is any aggregate that needs it.

The aggregates themselves (pooled, normalized, weighted, mean, sum) are :mod:`semsts.scoring.aggregates`'s;
this module picks which ones each convention reports. Conventions (checked against the sources named):

- **official**: each task paper's figure. STS 2012: ALL (Pearson of the pooled subsets), ALLnorm
  (the paper's ALLnrm: each subset's predictions mapped onto its gold by least squares, then ALL) and
  Mean (Pearsons weighted by scored pairs); 2013-2016: that size-weighted Mean (2013 over the subsets present:
  SMT is LDC-licensed and usually absent); STS-B and SICK: Pearson on the test set.
- **SentEval** (facebookresearch/SentEval, ``senteval/sts.py``, ``STSEval.run``): per subset the
  Pearson and Spearman of the scored pairs (empty gold lines dropped); ``all`` holds ``mean``
  (``np.average`` of the subsets' figures) and ``wmean`` (weighted by each subset's ``nsamples``,
  its scored pairs). SentEval's STS-B and SICK-R are supervised (a regressor on the embeddings), so
  only the STS12-16 figures carry over.
- **SimCSE/SBERT "all"** (princeton-nlp/SimCSE ``SentEval/senteval/sts.py`` adds ``all`` = one
  correlation over the concatenated subsets; ``evaluation.py`` prints
  ``results[task]['all']['spearman']['all'] * 100`` for STS12-16 and the test split's Spearman x 100
  for STS-B and SICK-R, each with ``%.2f``, and Avg. = the mean of those seven printed figures).
  STS13 there has no SMT subset ("due to LICENSE issue").
- **MTEB** (embeddings-benchmark/mteb): each STS task's ``main_score`` is ``cosine_spearman``
  (``AbsTaskSTS``, ``STSEvaluator``: Spearman of the gold against the cosine of the embeddings)
  over the task's single ``test`` split. Gold is first normalized to [0, 1] by
  ``(x - min_score) / (max_score - min_score)`` (0 and 5; SICK-R 1 and 5): affine, so Spearman does not
  change. The split pools every scored pair of the year's subsets (MTEB's descriptive statistics:
  STS12 3,108, STS13 1,500 i.e. without SMT, STS14 3,750, STS15 3,000, STS16 1,186, STSBenchmark
  1,379 pairs), so on STS12-16 and STS-B it equals SimCSE's "all"; its SICK-R ``test`` split is all
  of SICK (9,927 pairs = train 4,500 + trial 500 + test 4,927), so pass the three SICK parts to
  reproduce it. The leaderboard shows the score x 100, as returned here. BIOSSES (100 pairs, gold 0-4) and
  STS22 en (gold 1-4; STS22.v2 without the pairs where a text is empty) are scored the same way: the gold's
  normalization by its task's ``min_score``/``max_score`` is affine, so it does not change Spearman. They are MTEB
  tasks only: SentEval, SimCSE's table and the official tables here do not score them (:func:`mteb_only`).
  MTEB's multilingual tasks (STS17, STS22, STS22.v2, STSBenchmarkMultilingualSTS) are scored per ``hf_subset`` (a
  language or pair: its own cosine Spearman) and a task's score is the plain mean of its subsets' (mteb's
  ``TaskResult.get_score``, ``np.mean`` over the splits and subsets evaluated; each subset's: :func:`mteb_subsets`).
"""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from semsts.core.errors import InvalidValue
from semsts.core.stats import pearson, spearman
from semsts.corpora.reports import REPORTS

from . import aggregates

Parts = Mapping[str, tuple]
Correlation = Callable[[np.ndarray, np.ndarray], float]


def scored(gold, prediction) -> tuple[np.ndarray, np.ndarray]:
    """Gold and prediction of the scored pairs (NaN gold dropped); bad predictions are refused."""
    gold, prediction = np.asarray(gold, dtype=float).ravel(), np.asarray(prediction, dtype=float).ravel()
    if len(gold) != len(prediction):
        raise ValueError(f"{len(prediction)} predictions but {len(gold)} gold scores")
    if not np.isfinite(prediction).all():
        raise ValueError("predictions hold NaN or inf")
    keep = ~np.isnan(gold)
    return gold[keep], prediction[keep]


def scored_parts(parts: Parts) -> dict:
    """``parts`` with only their scored pairs, each checked (:func:`scored`)."""
    if not parts:
        raise ValueError("no subsets to aggregate")
    out = {}
    for name, (gold, prediction) in parts.items():
        try:
            out[name] = scored(gold, prediction)
        except ValueError as exc:
            raise ValueError(f"subset {name}: {exc}") from None
    return out


def subset_scores(parts: Parts, correlation: Correlation = pearson) -> list[aggregates.SubsetScore]:
    """Each subset's correlation over its scored pairs, and their number."""
    return [aggregates.SubsetScore(name, correlation(p, g), len(g)) for name, (g, p) in scored_parts(parts).items()]


def sizes(parts: Parts) -> dict:
    """Each subset's number of scored pairs (the weights of a size-weighted mean)."""
    return {name: len(g) for name, (g, _) in scored_parts(parts).items()}


def aggregate(name: str, parts: Parts, correlation: Correlation = pearson) -> float:
    """The aggregate ``name`` (see :mod:`semsts.scoring.aggregates`) of ``parts``' scored pairs."""
    return aggregates.of_parts(name, [(p, g) for g, p in scored_parts(parts).values()], correlation)


def task_of(dataset: str) -> str:
    """The task a dataset name belongs to: ``sts2013-test`` -> ``sts2013``."""
    return dataset.split("-", 1)[0]


# The tasks whose papers' figures are known: those of the table of what each task reports that a paper names.
OFFICIAL_TASKS = tuple(task for task, reported in REPORTS.items() if reported.paper)
# MTEB's tasks beyond the STS family (BIOSSES, STS22 en): neither SentEval, SimCSE's table nor the tasks' figures in
# this module's official tables cover them, so only the MTEB convention scores them.
MTEB_ONLY_TASKS = ("biosses", "sts2022")


# MTEB's multilingual tasks (STS17, STS22, STS22.v2, STSBenchmarkMultilingualSTS; corpora.datasets names them sts17-ml,
# sts22-ml, sts22-v2-ml, stsbmt): MTEB scores each hf_subset (language or pair) alone and its task's score is the plain
# mean of those main scores (mteb's TaskResult.get_score: np.mean over the splits and subsets evaluated), never a
# Spearman of the languages pooled.
MTEB_BY_SUBSET_TASKS = ("sts17", "sts22", "stsbmt")
MTEB_ONLY_TASKS = (*MTEB_ONLY_TASKS, *MTEB_BY_SUBSET_TASKS)


def mteb_by_subset(dataset: str) -> bool:
    """Whether MTEB's figure of ``dataset`` is the mean of its subsets' figures (:data:`MTEB_BY_SUBSET_TASKS`)."""
    return task_of(dataset) in MTEB_BY_SUBSET_TASKS


def mteb_subsets(parts: Parts) -> dict:
    """MTEB's main score x 100 of each subset (hf_subset) alone: its cosine Spearman over its scored pairs."""
    return {name: 100 * spearman(p, g) for name, (g, p) in scored_parts(parts).items()}


def mteb_only(dataset: str) -> bool:
    """Whether only the MTEB convention scores ``dataset`` (see :data:`MTEB_ONLY_TASKS`)."""
    return task_of(dataset) in MTEB_ONLY_TASKS


# Tasks no MTEB task holds (the STS-B companion): no MTEB figure, so that a row's MTEB mean stays comparable with
# MTEB's leaderboard.
NOT_MTEB_TASKS = ("stscompanion",)


def in_mteb(dataset: str) -> bool:
    """Whether an MTEB task holds ``dataset``'s pairs, so that the MTEB convention scores it."""
    return task_of(dataset) not in NOT_MTEB_TASKS


def official_only(dataset: str) -> bool:
    """Whether only the official convention scores ``dataset``: the SemEval-2017 tracks beyond track 5 and all seven
    together (SentEval and SimCSE's table have no 2017; MTEB's STS17 subsets are its own files, not these)."""
    return task_of(dataset) == "sts2017" and dataset != "sts2017-test"


def check_official(dataset: str) -> None:
    """Refuse, before anything is predicted, a dataset whose task paper's figures this module does not know."""
    if task_of(dataset) not in OFFICIAL_TASKS:
        raise InvalidValue(f"no official convention known for {dataset!r}")


# SentEval's two figures of each correlation over the subsets, by its names.
SENTEVAL_AGGREGATES = (("mean", "mean"), ("wmean", "weighted"))


def official_figures(dataset: str) -> tuple:
    """``(label, aggregate)`` of each of the task paper's figures for ``dataset``, in the paper's order
    (:data:`semsts.corpora.reports.REPORTS`)."""
    check_official(dataset)
    return REPORTS[task_of(dataset)].figures()


def official(dataset: str, parts: Parts) -> dict:
    """The task paper's own figures for ``dataset`` (see the module docstring), by the paper's labels."""
    return {label: aggregate(rule, parts) for label, rule in official_figures(dataset)}


def senteval(parts: Parts) -> dict:
    """SentEval's STS figures: per subset and ``all`` (``mean`` and ``wmean``), Pearson and Spearman."""
    out = {"subsets": {r.name: {"pearson": r.r, "spearman": rho.r, "n": r.n} for r, rho in
                       zip(subset_scores(parts), subset_scores(parts, spearman))}}
    out["all"] = {corr: {key: aggregate(rule, parts, f) for key, rule in SENTEVAL_AGGREGATES}
                  for corr, f in (("pearson", pearson), ("spearman", spearman))}
    return out


def simcse(parts: Parts) -> float:
    """SimCSE/SBERT's figure: Spearman x 100 over the pooled scored pairs (STS12-16 "all"; for STS-B
    and SICK-R pass the test set alone)."""
    return 100 * aggregate("pooled", parts, spearman)


def simcse_average(figures) -> float:
    """SimCSE's Avg.: the plain mean of the figures as printed (each rounded to 2 decimals first)."""
    figures = [float(f"{f:.2f}") for f in figures]
    return aggregates.mean(figures)


def mteb(parts: Parts) -> float:
    """MTEB's STS main score x 100: cosine Spearman over the task's pooled test pairs (for SICK-R,
    MTEB pools train, trial and test: pass all three)."""
    return 100 * aggregate("pooled", parts, spearman)
