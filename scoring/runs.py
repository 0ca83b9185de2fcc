"""Scoring what a system wrote: a run directory for a named dataset, or one output file against a gold file."""
from __future__ import annotations

import numpy as np

from semsts import corpora
from semsts.core.stats import pearson
from semsts.corpora import formats

from .report import InvalidRun, Report
from .signature import Signature, gold_sys_signature
from .tasks import score_typed, task_for


def validate_run(dataset: corpora.Dataset, run_dir) -> list:
    """Every FormatError of the run's output files for ``dataset`` (missing files included)."""
    return task_for(dataset).validate(dataset, run_dir)


def score_run(dataset: corpora.Dataset, run_dir, *, bootstrap: dict | None = None) -> Report:
    """The full report of a run directory: scores, notes and signature; InvalidRun if any file is bad.

    ``bootstrap`` (``{"seed": …, "resamples": …}``) goes into the signature of reports that resample.
    """
    return task_for(dataset).score(dataset, run_dir, bootstrap=bootstrap)


def score(dataset, predictions, *, data_dir=None) -> Report:
    """The full report of in-memory predictions, as :func:`score_run` gives for files: same figures,
    renderings and signature. ``dataset``: a Dataset, a registered name or a path; ``predictions``: a
    dict subset name -> array, or one array for a one-subset dataset. Checked as output files are
    (a ValueError names the subset and pair index of a NaN, inf, out-of-range value or wrong length)."""
    if not isinstance(dataset, corpora.Dataset):
        dataset = corpora.resolve(dataset, data_dir)
    return task_for(dataset).score_predictions(dataset, predictions)


def score_files(gold_path, sys_path, *, score_range=formats.STS_RANGE) -> float:
    """correlation.pl: Pearson of a system file against a gold file, unscored lines dropped.

    Refuses an output that does not validate (raises its first FormatError).
    """
    gold = formats.read_gold(gold_path, score_range)
    scores, _ = formats.read_output(sys_path, len(gold), score_range)
    keep = ~np.isnan(gold)
    return pearson(scores[keep], gold[keep])


def file_signature(sys_path, gold) -> Signature:
    """The signature of a GOLD SYS score: the file, the pairs scored and the choices made."""
    unscored = int(np.count_nonzero(np.isnan(gold)))
    return gold_sys_signature(sys_path, len(gold) - unscored, unscored)


def score_typed_files(gold_path, sys_path, *, score_range=formats.STS_RANGE) -> dict:
    """correlation-typed.pl: the eight types' Pearsons and their mean; InvalidRun if the output is bad."""
    gold = corpora.read_typed_gold(gold_path, score_range=score_range)
    if not len(gold):
        raise corpora.FormatError(gold_path, None, "is empty; expected one line of eight gold scores per pair")
    errors = list(corpora.check_typed_output(sys_path, len(gold), score_range=score_range))
    if errors:
        raise InvalidRun(errors)
    return score_typed(corpora.read_typed_output(sys_path, len(gold), score_range=score_range), gold)


def run_predictions(dataset: corpora.Dataset, run_dir) -> dict:
    """``subset name -> scores`` of a run directory for ``dataset``, validated as :func:`score_run` does
    (InvalidRun if any file is bad)."""
    return {name: scores for name, (scores, _) in task_for(dataset).outputs(dataset, run_dir).items()}
