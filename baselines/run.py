"""Fit a system, predict every subset of a test dataset and write the official output files."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from semsts import corpora
from semsts.core.errors import InvalidValue
from semsts.corpora import runrecord
from semsts.features.scorers import NonFiniteScore

from .base import PairError
from .registry import make_system, name_of
from .typed2013 import is_typed


def learns_from_gold(system) -> bool:
    """Whether ``system`` is fitted on gold scores (its tags say so), and so predicts in the gold's units."""
    tags = getattr(system, "__sklearn_tags__", None)
    return bool(tags and tags().target_tags.required)


def system_score_range(system) -> tuple[float, float] | None:
    """The range a system's scores are in: its ``score_range`` (a system fitted on gold: the gold's scale,
    set from its training data), else ``None`` for one fitted on gold of no declared scale (its scores
    are already in the gold's units), else [0, 5]."""
    own = getattr(system, "score_range", (0.0, 5.0))
    if own is None:
        return None if learns_from_gold(system) else (0.0, 5.0)
    return tuple(float(v) for v in own)


def training_score_range(datasets) -> tuple[float, float] | None:
    """The one score range of the training datasets (``None`` for none); two scales mixed are refused."""
    ranges = sorted({tuple(sub.score_range) for ds in datasets for sub in ds})
    if len(ranges) > 1:
        raise InvalidValue(f"the training data mixes score scales ({', '.join(f'[{lo:g}, {hi:g}]' for lo, hi in ranges)}); "
                           "train on data of one scale")
    return ranges[0] if ranges else None


def with_training_score_range(system, datasets):
    """``system`` told its training data's scale, where it takes one and was given none."""
    if "score_range" in system.get_params() and system.get_params()["score_range"] is None:
        units = training_score_range(datasets)
        if units is not None:
            system.set_params(score_range=units)
    return system


def onto_score_range(subset: corpora.Subset, scores: np.ndarray, system_range=(0.0, 5.0)) -> np.ndarray:
    """Map scores from the system's own range (``None``: the gold's units, as a system fitted on gold
    predicts) onto the subset's task range, clipped into it."""
    lo, hi = subset.score_range
    if system_range is not None and (lo, hi) != tuple(system_range):
        slo, shi = system_range
        scores = lo + (scores - slo) * (hi - lo) / (shi - slo)
    return np.clip(scores, lo, hi)


def training_pairs(datasets) -> tuple[list, np.ndarray]:
    """Pairs and gold of the given datasets, unscored pairs left out."""
    pairs, gold = [], []
    for ds in datasets:
        for sub in ds:
            keep = ~np.isnan(sub.gold).reshape(len(sub.gold), -1).any(axis=1)  # typed gold: (n, 8)
            pairs.extend(p for p, k in zip(sub.pairs, keep) if k)
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
        system.fit(pairs, gold)
    else:
        fit_on_subsets(system, list(test))
    return write_outputs(test, out_dir, lambda sub: predict_subset(system, sub), name=name or name_of(system))


def fit_on_subsets(system, subsets, keeps=None) -> None:
    """Fit ``system`` on the pairs of ``subsets`` (all of them; with ``keeps``, each subset's pairs at those 0-based
    indices), as a system that learns no scores is fitted on what it will score; a pair it cannot use (a
    :class:`PairError`, as a pair scorer's NaN) is a FormatError at its subset's file and line."""
    keeps = keeps or [range(len(sub.pairs)) for sub in subsets]
    try:
        system.fit([sub.pairs[i] for sub, keep in zip(subsets, keeps) for i in keep])
    except PairError as exc:
        index = exc.index
        for sub, keep in zip(subsets, keeps):
            if index < len(keep):
                raise sub.pair_error(int(keep[index]), exc.message) from None
            index -= len(keep)
        raise


def predict_subset(system, sub: corpora.Subset) -> tuple[np.ndarray, np.ndarray | None]:
    """Scores on the subset's task range, and confidences where the system gives them."""
    try:
        scores = onto_score_range(sub, system.predict(sub.pairs), system_score_range(system))
        confidences = system.predict_confidence(sub.pairs) if hasattr(system, "predict_confidence") else None
    except PairError as exc:
        raise sub.pair_error(exc.index, exc.message) from None
    except NonFiniteScore as exc:  # a pair scorer's feature of the regression
        raise at_pair(exc, [sub]) from None
    return scores, confidences


def at_pair(exc: NonFiniteScore, subsets) -> Exception:
    """A pair scorer's error about one pair, at the file and line of the first of ``subsets``' pairs it is (as it
    was, when none is)."""
    for sub in subsets:
        for index, pair in enumerate(sub.pairs):
            if tuple(pair) == exc.pair:
                return sub.pair_error(index, str(exc))
    return exc


def write_outputs(test: corpora.Dataset, out_dir, predict, *, name: str = "unnamed",
                  model_sha256: str | None = None) -> list[Path]:
    """One official output file per subset, holding ``predict(subset)``: ``(scores, confidences or None)`` on
    the subset's range, as :func:`predict_subset` gives them.

    The run owns ``out_dir`` while it writes (corpora.runrecord): a lock, then a record of the
    system ``name``, the model's hash, the dataset and every file written, completed last.
    """
    out_dir = Path(out_dir)
    written = []
    with runrecord.owned(out_dir, name, test.name, model_sha256, test.sha256) as run:
        for sub in test:
            scores, confidences = predict(sub)
            path = out_dir / sub.output_name
            sub.kind.write_output(path, scores, confidences, score_range=sub.score_range)
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
