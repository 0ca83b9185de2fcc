"""The whole featurization step as one transformer, run in parallel chunks with joblib.

``backend="dask"`` with ``scheduler="HOST:PORT"`` sends the chunks to a dask.distributed cluster
through joblib's dask backend; any backend gives the same matrix, row for row.
"""
from __future__ import annotations

from contextlib import contextmanager, nullcontext

import numpy as np
from joblib import Parallel, delayed, parallel_config
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.pipeline import FeatureUnion

from .sets import make_union

BACKENDS = ("loky", "threading", "dask")


def _transform(union, chunk) -> np.ndarray:
    return union.transform(chunk)


@contextmanager
def dask_client(scheduler):
    """A dask.distributed client on ``scheduler`` for the duration of a transform."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ValueError("--backend dask needs dask[distributed]: pip install 'sts-suite[dask]'") from None
    client = Client(scheduler, set_as_default=False)
    try:
        with client.as_current():
            yield client
    finally:
        client.close()


class PairFeaturizer(TransformerMixin, BaseEstimator):
    """Pairs → feature matrix of a named set (see :mod:`features.sets`), chunked over ``n_jobs`` workers.

    ``progress`` is an optional callable wrapping an iterable of chunks (e.g. ``tqdm``), so a
    command line can show how far featurization got; the library itself never prints.
    """

    def __init__(self, feature_set: str = "all", exclude=(), n_jobs: int = 1, backend: str = "loky",
                 scheduler=None, chunk_size: int = 500, progress=None):
        self.feature_set = feature_set
        self.exclude = exclude
        self.n_jobs = n_jobs
        self.backend = backend
        self.scheduler = scheduler
        self.chunk_size = chunk_size
        self.progress = progress

    def fit(self, X, y=None):
        pairs = [tuple(p) for p in X]
        self.union_ = make_union(self.feature_set, tuple(self.exclude)).fit(pairs)
        self.feature_names_ = list(self.union_.get_feature_names_out())
        return self

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        return np.asarray(self.feature_names_, dtype=object)

    def learned_part(self) -> tuple[list, FeatureUnion | None]:
        """Column indices and a fresh union of the families that learn from text in ``fit`` (for
        fold-honest cross-validation); ``([], None)`` when every family is fixed."""
        steps = [(name, clone(step)) for name, step in self.union_.transformer_list
                 if getattr(step, "learns_from_text", False)]
        prefixes = tuple(f"{name}__" for name, _ in steps)
        columns = [i for i, n in enumerate(self.feature_names_) if prefixes and n.startswith(prefixes)]
        return columns, (FeatureUnion(steps) if steps else None)

    def transform(self, X) -> np.ndarray:
        pairs = [tuple(p) for p in X]
        if not pairs:
            return np.zeros((0, len(self.feature_names_)))
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.backend == "dask" and not self.scheduler:
            raise ValueError("backend 'dask' needs a scheduler address (--scheduler HOST:PORT)")
        chunks = [pairs[i:i + self.chunk_size] for i in range(0, len(pairs), self.chunk_size)]
        wrapped = self.progress(chunks) if self.progress else chunks
        if self.backend != "dask" and (self.n_jobs == 1 or len(chunks) == 1):
            return np.vstack([_transform(self.union_, chunk) for chunk in wrapped])
        context = dask_client(self.scheduler) if self.backend == "dask" else nullcontext()
        with context, parallel_config(backend=self.backend, n_jobs=self.n_jobs):
            parts = Parallel()(delayed(_transform)(self.union_, chunk) for chunk in wrapped)
        return np.vstack(parts)
