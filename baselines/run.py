"""Fit a system, predict every subset of a test dataset and write the official output files.

A system's ``score_range`` is the range its scores live in (a class attribute or a parameter; ``score_range_`` where
``fit`` learns it). The *task range* is the range of a dataset's gold scores ([0, 5] for STS; a subset's
``score_range`` field). :func:`onto_task_range` maps the one onto the other, for every system.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from semsts import corpora
from semsts.core.errors import InvalidValue, quote
from semsts.core.files import MAX_NAME
from semsts.core.stats import checked_range
from semsts.corpora import runrecord
from semsts.corpora.formats import CONFIDENCE_RANGE
from semsts.features.errors import FailedOnEmptyText, NonFiniteEmbedding, NonFiniteScore
from semsts.features.text import PAIR_PLACE

from .base import PairError, rescale
from .registry import make_system, name_of
from .subset_models import SubsetModels
from .typed2013 import is_typed


def learns_from_gold(system) -> bool:
    """Whether ``system`` is fitted on gold scores (its tags say so), and so predicts in the gold's units."""
    tags = getattr(system, "__sklearn_tags__", None)
    return bool(tags and tags().target_tags.required)


def score_range_of(system) -> tuple[float, float] | None:
    """The range a system's scores live in: learned at fit (``score_range_``), else its ``score_range``; ``None`` for
    a system fitted on gold of no declared range (its scores are already in the gold's units), else [0, 5]. A declared
    range is held to :func:`semsts.core.stats.checked_range`."""
    learned = getattr(system, "score_range_", None)  # as wide as the scores were: rescale maps it exactly
    own = learned or getattr(system, "score_range", (0.0, 5.0))
    if own is None:
        return None if learns_from_gold(system) else (0.0, 5.0)
    return tuple(float(v) for v in own) if learned else checked_range(own, f"{type(system).__name__}'s score_range")


def training_task_range(datasets) -> tuple[float, float] | None:
    """The one task range of the training datasets (``None`` for none); two ranges mixed are refused."""
    ranges = sorted({tuple(sub.score_range) for ds in datasets for sub in ds})
    if len(ranges) > 1:
        raise InvalidValue(f"the training data mixes score scales ({', '.join(f'[{lo:g}, {hi:g}]' for lo, hi in ranges)}); "
                           "train on data of one scale")
    return ranges[0] if ranges else None


def with_training_score_range(system, datasets):
    """``system`` told its training data's task range as its ``score_range``, where it takes one and was given none."""
    if "score_range" in system.get_params() and system.get_params()["score_range"] is None:
        units = training_task_range(datasets)
        if units is not None:
            system.set_params(score_range=units)
    return system


def onto_task_range(scores, score_range, task_range) -> np.ndarray:
    """Scores from a system's ``score_range`` (``None``: already in the task's units, as a system fitted on gold
    predicts) mapped linearly onto ``task_range`` and clipped into it: the runner's one mapping."""
    lo, hi = task_range
    if score_range is not None and (lo, hi) != tuple(score_range):
        scores = rescale(scores, score_range, (lo, hi))
    return np.clip(scores, lo, hi)


def training_rows(datasets) -> tuple[list, list]:
    """Every subset of the given datasets and, for each, the 0-based indices of its scored pairs."""
    subsets = [sub for ds in datasets for sub in ds]
    return subsets, [np.flatnonzero(~np.isnan(sub.gold).reshape(len(sub.gold), -1).any(axis=1))  # typed: (n, 8)
                     for sub in subsets]


def training_pairs(datasets) -> tuple[list, np.ndarray]:
    """Pairs and gold of the given datasets, unscored pairs left out."""
    pairs, gold = [], []
    for sub, keep in zip(*training_rows(datasets)):
        pairs.extend(sub.pairs[i] for i in keep)
        gold.extend(sub.gold[keep])
    return pairs, np.asarray(gold, dtype=float)


def run_system(system, test: corpora.Dataset, out_dir, train=(), *, name: str | None = None) -> list[Path]:
    """Fit ``system`` (an estimator or a registry name) and write one output file per subset.

    ``name`` is the system's name in the run record (default: the registry name or the class name).
    """
    if isinstance(system, str):
        name, system = name or system, make_system(system)
    check_kinds(system, [test, *train])
    with_training_score_range(system, train)
    pairs, gold = training_pairs(train)
    if pairs:
        with at_lines(*training_rows(train)):
            system.fit(pairs, gold)
    else:
        fit_on_subsets(system, list(test))
    return write_outputs(system, test, out_dir, name=name or name_of(system))


def fit_on_subsets(system, subsets, keeps=None) -> None:
    """Fit ``system`` on the pairs of ``subsets`` (all of them; with ``keeps``, each subset's pairs at those 0-based
    indices), as a system that learns no scores is fitted on what it will score; a pair it cannot use (a
    :class:`PairError`, as a pair scorer's NaN) is a FormatError at its subset's file and line."""
    keeps = keeps or [range(len(sub.pairs)) for sub in subsets]
    with at_lines(subsets, keeps):
        system.fit([sub.pairs[i] for sub, keep in zip(subsets, keeps) for i in keep])


def by_model(system, subsets) -> list[tuple[object, list]]:
    """Which system scores which subsets: for :class:`SubsetModels`, each model with the subsets it scores; any other
    system scores each subset on its own, as ``sts run`` always has (a seeded or SIF system's scores depend on
    the pairs of one call)."""
    if not isinstance(system, SubsetModels):
        return [(system, [sub]) for sub in subsets]
    groups: dict = {}
    for sub in subsets:
        groups.setdefault(system.model_name(sub.name), []).append(sub)
    return [(system.models[name], group) for name, group in groups.items()]


def predict_group(model, subsets, keeps=None) -> dict:
    """``id(subset) -> (scores on its task range, confidences or None)``, ``model`` predicting the pairs of all
    ``subsets`` (with ``keeps``, each one's pairs at those 0-based indices) in one call: a regression's prediction
    of a pair does not depend on the others, and one call of thousands of pairs keeps every worker busy where one
    call per subset (STS 2015's five of 1,500-2,000) would not. A bad pair is a FormatError at its file's line."""
    keeps = keeps or [range(len(sub.pairs)) for sub in subsets]
    pairs = [sub.pairs[i] for sub, keep in zip(subsets, keeps) for i in keep]
    with at_lines(subsets, keeps):
        scores = check_values(model.predict(pairs), "score")
        confidences = model.predict_confidence(pairs) if hasattr(model, "predict_confidence") else None
        confidences = None if confidences is None else check_values(confidences, "confidence", CONFIDENCE_RANGE)
    out, start = {}, 0
    for sub, keep in zip(subsets, keeps):
        part = slice(start, start + len(keep))
        out[id(sub)] = (onto_task_range(scores[part], score_range_of(model), sub.score_range),
                        None if confidences is None else confidences[part])
        start += len(keep)
    return out


def check_values(values, what: str, bounds=None) -> np.ndarray:
    """``values`` (a system's, one a pair or a typed row a pair) as floats; the first pair of one that is no finite
    number (within ``bounds``), which no output file could hold, a :class:`PairError`: at its file and line."""
    values = np.atleast_1d(np.asarray(values, dtype=float))
    lo, hi = bounds or (-np.inf, np.inf)
    bad = (~np.isfinite(values) | (values < lo) | (values > hi)).reshape(len(values), -1).any(axis=1)
    if bad.any():
        within = f" within [{lo:g}, {hi:g}]" if bounds else ""
        raise PairError(int(np.argmax(bad)), f"the system's {what} {values[np.argmax(bad)]} is not a finite number{within}")
    return values


def predict_subsets(system, subsets, keeps=None) -> dict:
    """:func:`predict_group` of every model of ``system`` (:func:`by_model`): every system's one prediction path."""
    keep_of = dict(zip(map(id, subsets), keeps or [range(len(sub.pairs)) for sub in subsets]))
    out = {}
    for model, group in by_model(system, subsets):
        out.update(predict_group(model, group, [keep_of[id(sub)] for sub in group]))
    return out


@contextmanager
def at_lines(subsets, keeps):
    """An error about one of the pairs ``keeps`` selects from ``subsets`` (0-based indices, each subset's), raised
    inside, as a FormatError at the file and line of that pair's row: a :class:`PairError` by its index, a pair
    scorer's :class:`NonFiniteScore` (a feature of the regression) by its pair, and an encoder's error about one text
    (:class:`NonFiniteEmbedding`, :class:`FailedOnEmptyText`: the regression's encoder family) by the first pair
    holding that text. Inside, a note about one pair names its file and line too (``features.text.PAIR_PLACE``)."""
    def place(pair) -> str | None:
        found = first_pair(subsets, keeps, lambda other: other == pair)
        return found and f"{found[0].input_path}:{found[0].line(found[1])}"
    token = PAIR_PLACE.set(place)
    try:
        yield
    except PairError as exc:
        raise at_line(exc, subsets, keeps) from None
    except NonFiniteScore as exc:
        raise at_pair(exc, subsets, keeps) from None
    except (NonFiniteEmbedding, FailedOnEmptyText) as exc:
        raise at_pair(exc, subsets, keeps, holds=lambda pair, text=exc.text: text in pair) from None
    finally:
        PAIR_PLACE.reset(token)


def at_line(exc: PairError, subsets, keeps) -> Exception:
    """A pair ``exc.index`` of the pairs ``keeps`` select from ``subsets``, as a FormatError at its file and line."""
    index = exc.index
    for sub, keep in zip(subsets, keeps):
        if index < len(keep):
            return sub.pair_error(int(keep[index]), exc.message)
        index -= len(keep)
    return exc


def at_pair(exc: Exception, subsets, keeps=None, holds=None) -> Exception:
    """A pair scorer's error about one pair (``exc.pair``; with ``holds``, the first pair ``holds(pair)`` is true of), at
    the file and line of the first of ``subsets``' pairs (with ``keeps``, of those it selects) it is (as it was, when
    none is)."""
    found = first_pair(subsets, keeps, holds or (lambda pair: pair == exc.pair))
    return found[0].pair_error(found[1], str(exc)) if found else exc


def first_pair(subsets, keeps, holds) -> tuple | None:
    """``(subset, 0-based index)`` of the first of ``subsets``' pairs (with ``keeps``, of those it selects) that
    ``holds(pair)`` is true of; None when none is."""
    for sub, keep in zip(subsets, keeps or [range(len(sub.pairs)) for sub in subsets]):
        for index in keep:
            if holds(tuple(sub.pairs[index])):
                return sub, int(index)
    return None


def write_outputs(system, test: corpora.Dataset, out_dir, *, name: str = "unnamed",
                  model_sha256: str | None = None) -> list[Path]:
    """One official output file per subset of ``test``, holding its scores by ``system`` on the subset's task range
    (:func:`predict_group`: each model predicts its subsets when the first of them is written).

    The run owns ``out_dir`` while it writes (corpora.runrecord): a lock, then a record of the
    system ``name``, the model's hash, the dataset and every file written, completed last.
    """
    out_dir = Path(out_dir)
    for sub in (sub for sub in test if len(os.fsencode(sub.output_name)) > MAX_NAME):  # before anything is written
        raise InvalidValue(f"{sub.input_path}: its name makes an output file name of {len(os.fsencode(sub.output_name)):,} "
                           f"bytes ({quote(sub.output_name)}); a file written here has at most {MAX_NAME}: give the "
                           "input a shorter name")
    groups = {id(sub): (model, group) for model, group in by_model(system, list(test)) for sub in group}
    written, predicted = [], {}
    with runrecord.owned(out_dir, name, test.name, model_sha256, test.sha256) as run:
        for sub in test:
            if id(sub) not in predicted:
                predicted.update(predict_group(*groups[id(sub)]))
            scores, confidences = predicted[id(sub)]
            path = out_dir / sub.output_name
            # a scale the system learned from its own scores (no declared range): every digit, so that one outlier
            # setting the range leaves the others their order and every correlation (issue 44)
            exact = getattr(groups[id(sub)][0], "declared_", True) is False
            sub.kind.write_output(path, scores, confidences, score_range=sub.score_range, exact=exact)
            run.add(path)
            written.append(path)
    return written


def check_kinds(system, datasets) -> None:
    """Refuse a TYPED system on single-score data and a single-score system on TYPED data."""
    typed = is_typed(system)
    for ds in datasets:
        if (ds.kind.width is not None) != typed:
            name = type(system).__name__
            raise InvalidValue(
                f"{name} is a TYPED system (eight scores per Europeana record pair) and {ds.name} is not TYPED data"
                if typed else
                f"{ds.name} is TYPED data (eight scores per Europeana record pair) and {name} gives one score per "
                "pair; use a TYPED system such as typed-tfidf")
