"""``sts bench``'s predictions: one system over the STS family, on each test set's gold-scored pairs.

Only pairs with a gold score are predicted (SentEval drops the others before encoding too), so the
2015 and 2016 sets cost 4,186 pairs instead of 17,683, and an encoder fitted on the texts it scores
(SIF) sees exactly the scored ones. Each dataset is predicted as ``sts run`` predicts it
(:func:`semsts.baselines.run.predict_subsets`), and the scores are mapped onto the task's range, clipped and
rounded as an output file holds them.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from semsts import corpora

# the systems' modules are imported where a system predicts: resolving datasets and cutting them to their
# scored pairs (``sts bench`` does before it starts its workers) imports no scikit-learn


def scored_subset(sub: corpora.Subset) -> tuple[corpora.Subset, np.ndarray]:
    """The subset cut to its gold-scored pairs (each keeping its line in the file), and their indices (0-based)."""
    keep = np.flatnonzero(~np.isnan(sub.gold))
    ids = [sub.ids[i] for i in keep] if sub.ids else []
    return replace(sub, pairs=[sub.pairs[i] for i in keep], gold=sub.gold[keep], ids=ids,
                   lines=tuple(sub.line(i) for i in keep)), keep


def predict_scored(system, subsets) -> dict:
    """``id(subset) -> (gold, prediction)`` of each subset's scored pairs (:func:`~semsts.baselines.run.predict_subsets`);
    a bad pair is a FormatError at its file line."""
    from .run import predict_subsets
    keeps = [scored_subset(sub)[1] for sub in subsets]
    predicted = predict_subsets(system, subsets, keeps)
    exact = getattr(system, "declared_", True) is False  # a scale learned from its own scores: written exactly
    return {id(sub): (sub.gold[keep], as_written(predicted[id(sub)][0], exact)) for sub, keep in zip(subsets, keeps)}


def as_written(scores, exact: bool = False) -> np.ndarray:
    """The scores as an official output file holds them (six decimals, or with ``exact`` every digit, as
    :func:`~semsts.baselines.run.write_outputs` writes a scorer's of no declared range): what ``sts run`` would be
    scored on, and ties that last-bit differences between machines cannot break (Spearman ranks them)."""
    return np.array([float(corpora.formats.format_score(v, exact)) for v in scores], dtype=float)


def predict_dataset(system, dataset: corpora.Dataset, *, fit: bool = False) -> dict:
    """``subset name -> (gold, prediction)`` over the dataset's scored pairs.

    ``system`` is a fitted estimator or a :class:`SubsetModels` (each subset scored by its model, the subsets of one
    model in one call); ``fit=True`` first fits an unsupervised system on the dataset's scored pairs, as ``sts run``
    fits one on the test pairs.
    """
    from .run import check_kinds, fit_on_subsets
    check_kinds(system, [dataset])
    subsets = list(dataset)
    if fit:
        fit_on_subsets(system, subsets, [scored_subset(sub)[1] for sub in subsets])
    predicted = predict_scored(system, subsets)
    return {sub.name: predicted[id(sub)] for sub in subsets}


def present_datasets(names, data_dir=None, *, optional=()) -> tuple[list, list]:
    """The datasets ``names`` present under the data root, and ``(name, how to get it)`` of the absent
    ones (an absent ``optional`` one is left out silently)."""
    present, absent = [], []
    for name in names:
        try:
            present.append(corpora.load(name, data_dir))
        except corpora.DatasetNotFound as exc:
            if name not in optional:
                absent.append((name, str(exc)))
    return present, absent


def predict_family(system, datasets, *, fit: bool = False, pools=None, progress=None) -> tuple[dict, dict]:
    """``(parts, pool_parts)``: ``dataset name -> subset -> (gold, prediction)`` for ``datasets``, and the
    same for the extra datasets ``pools`` (e.g. the rest of SICK, which MTEB's SICK-R pools with its test set).
    A :class:`~semsts.baselines.subset_models.SubsetModels` predicts the subsets of every dataset in one
    :func:`predict_scored` (each of its models all the subsets it scores, tens of thousands of pairs that keep every
    worker busy, where a call per dataset of a few thousand would leave them idle; its progress is the featurizer's,
    chunk by chunk); other systems predict dataset by dataset, ``progress(items, desc)``, when given, wrapping that
    loop."""
    from .run import check_kinds
    from .subset_models import SubsetModels
    todo = [(ds, False) for ds in datasets] + [(ds, True) for ds in (pools or ())]
    if isinstance(system, SubsetModels) and not fit:
        check_kinds(system, [ds for ds, _ in todo])
        predicted = predict_scored(system, [sub for ds, _ in todo for sub in ds])
        by_dataset = {ds.name: {sub.name: predicted[id(sub)] for sub in ds} for ds, _ in todo}
    else:
        by_dataset = {ds.name: predict_dataset(system, ds, fit=fit)
                      for ds, _ in (progress(todo, "datasets") if progress else todo)}
    return ({ds.name: by_dataset[ds.name] for ds, extra in todo if not extra},
            {ds.name: by_dataset[ds.name] for ds, extra in todo if extra})


def _pair_key(pair) -> tuple:
    return tuple(" ".join(text.split()).lower() for text in pair)


def seen_shares(training, datasets) -> dict:
    """``dataset name -> (pairs seen, scored pairs)``: how many of each dataset's scored pairs occur in
    the ``training`` datasets (either order, case and spacing ignored). STS-B's training and dev sets
    were drawn from the STS 2012-2016 test sets, so a model trained on them has seen many of their pairs."""
    seen = {key for ds in training for p in ds.pairs for key in (_pair_key(p), _pair_key(p[::-1]))}
    out = {}
    for ds in datasets:
        pairs = [p for sub in ds for p in scored_subset(sub)[0].pairs]
        out[ds.name] = (sum(_pair_key(p) in seen for p in pairs), len(pairs))
    return out
