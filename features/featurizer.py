"""The whole featurization step as one transformer, run in chunks through joblib.

How the chunks run is the caller's business: ``joblib.parallel_config(n_jobs=…, backend=…)``
around ``transform`` (any backend, dask's included, gives the same matrix, row for row), and
:func:`semsts.core.progress.reporting` for a progress hook. The transformer itself holds only what
defines the features. Work too small for workers (:func:`~semsts.core.workers.worth_workers`) is featurized
in the calling process whatever the workers.
"""
from __future__ import annotations

import gc
import multiprocessing
import pickle
import signal
import threading
import uuid
import warnings
from contextlib import contextmanager
from functools import partial
from typing import Iterator

import numpy as np
from joblib import Parallel, delayed
from joblib.parallel import get_active_backend
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.pipeline import FeatureUnion
from sklearn.utils.validation import check_is_fitted

from semsts.core import COLLECTIONS
from semsts.core.background import thread_pool
from semsts.core.errors import Note
from semsts.core.progress import hook
from semsts.core.workers import worth_workers

from .base import text_input_tags
from .sets import DEFAULT_SET, make_union
from .text import MAX_CHARS, PAIR_PLACE, cut_pairs


def map_chunks(func, items: list, chunk_size: int, *, workers: bool = True, then=None, chars=None) -> Iterator:
    """``func(chunk)`` for each chunk of ``items``, yielded in order as they come, the chunks passed through the
    progress hook: through joblib (as the caller's ``parallel_config`` says) when the work is worth workers
    (:func:`~semsts.core.workers.worth_workers`), in this process when it is not or when not ``workers``. Through
    joblib a chunk grows up to twice ``chunk_size``, to about :data:`CHUNKS_PER_JOB` a job: each chunk costs a worker a
    fixed share (the families' tables grouped by length, a call of the pipeline), while the last one leaves the other
    workers idle.

    ``chars`` (optional, one count per item: a pair's characters, both sides) also closes a chunk before it holds more
    than :data:`CHUNK_CHARS` characters (a chunk's tables grow with its texts, so that long texts in one chunk would hold
    gigabytes), and counts toward the work that workers pay for.

    ``then`` (optional) is applied to each result: in the worker, after ``func``; in this process, in a thread
    beside the next chunk's ``func`` when the caller's ``parallel_config`` allows two jobs or more (``then`` must
    let go of the GIL, as libsvm's prediction does, and touch nothing ``func`` does)."""
    backend, n_jobs = get_active_backend()
    jobs = backend.effective_n_jobs(n_jobs)
    total = None if chars is None else int(sum(chars))
    here = not workers or not worth_workers(len(items), total)
    if not here:
        chunk_size = max(chunk_size, min(2 * chunk_size, -(-len(items) // (CHUNKS_PER_JOB * jobs))))
    chunks = [items[a:b] for a, b in chunk_bounds(len(items), chunk_size, chars)]
    here = here or len(chunks) <= 1
    progress = hook()
    wrapped = progress(chunks) if progress else chunks
    if here:
        func = partial(_rarely_collected, func)  # as a worker runs its chunks
        if then is None:
            return map(func, wrapped)
        return _overlapped(func, then, wrapped) if jobs > 1 else (then(func(chunk)) for chunk in wrapped)
    job = partial(_shipped_call, Shipped((func, then)))
    with workers_start_ignoring_ctrl_c():  # joblib starts them in this call, dispatching the first chunks
        results = Parallel(return_as="generator")(delayed(_warnings_kept)(job, chunk) for chunk in wrapped)
    return _rewarned(results)


def chunk_bounds(n: int, chunk_size: int, chars=None) -> list[tuple[int, int]]:
    """``(start, stop)`` of each chunk of ``n`` items: ``chunk_size`` items, or fewer where ``chars`` (one count per
    item) would pass :data:`CHUNK_CHARS`; an item longer than that is a chunk of its own."""
    if chars is None:
        return [(i, min(i + chunk_size, n)) for i in range(0, n, chunk_size)]
    bounds, start, held = [], 0, 0
    for i, count in enumerate(chars):
        if i > start and (i - start >= chunk_size or held + count > CHUNK_CHARS):
            bounds.append((start, i))
            start, held = i, 0
        held += count
    return bounds + [(start, n)] if n else bounds


def pair_chars(pairs) -> list[int]:
    """Each pair's characters, both sides (what :func:`map_chunks` sizes chunks of pairs by)."""
    return [len(a) + len(b) for a, b in pairs]


CHUNK_CHARS = 250_000  # 500 pairs of STS's length hold 60,000; 25 pairs of 5,000-character sides fill one
CHUNKS_PER_JOB = 12  # sts bench, 2 workers: chunks of 932 pairs took 1 s less CPU than 500; 2,000 left a worker idle at the end


def _shipped_call(functions, chunk):
    func, then = functions.obj if isinstance(functions, Shipped) else functions  # not pickled when joblib runs it here
    return func(chunk) if then is None else then(func(chunk))


class Shipped:
    """An object sent to worker processes pickled once here and unpickled once in each worker, which keeps it by a
    token for the next tasks: a model's pipeline (6 MB) pickled with every chunk cost this process a second of a
    bench, and each worker lost what the pipeline had cached (the words' n-gram columns)."""

    def __init__(self, obj):
        self.obj, self.token, self._blob = obj, uuid.uuid4().hex, None

    def __reduce__(self):
        if self._blob is None:
            try:
                self._blob = pickle.dumps(self.obj, protocol=pickle.HIGHEST_PROTOCOL)
            except (pickle.PicklingError, AttributeError, TypeError):  # a lambda, say: sent with each task, as joblib can
                return _as_is, (self.obj,)
        return _received, (self.token, self._blob)


def _as_is(obj):
    return obj


_RECEIVED: dict = {}  # in a worker: token -> the object, for the last few tokens


def _received(token: str, blob: bytes):
    """The object a :class:`Shipped` carried: unpickled on its first task in this process, then kept."""
    if token not in _RECEIVED:
        leave_ctrl_c_to_the_caller()
        if len(_RECEIVED) >= 4:  # bounded: a worker serves one call after another
            _RECEIVED.clear()
        _RECEIVED[token] = pickle.loads(blob)
    return _RECEIVED[token]


@contextmanager
def workers_start_ignoring_ctrl_c():
    """The processes started in the block ignore Ctrl-C from their start, which a terminal sends to the whole process
    group: the command answers it (one line, exit 130) and ends them, where a worker still importing would print a
    traceback. Python's handler is back here when the block ends (not in a thread, which cannot set it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited by what starts now, as SIG_IGN always is
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def leave_ctrl_c_to_the_caller() -> None:
    """In a worker process: ignore Ctrl-C, which a terminal sends to the whole process group. The process that
    started the worker answers it and ends its workers (joblib aborts them); a worker would only print a traceback."""
    if multiprocessing.current_process().name != "MainProcess" and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _overlapped(func, then, chunks) -> Iterator:
    """``then(func(chunk))`` for each chunk in order, each ``then`` in a thread while ``func`` takes the next chunk."""
    with thread_pool(1) as pool:
        pending = None
        for chunk in chunks:
            done = func(chunk)
            if pending is not None:
                yield pending.result()
            pending = pool.submit(then, done)
        if pending is not None:
            yield pending.result()


def _rarely_collected(func, chunk):
    with rare_full_collections():
        return func(chunk)


def _warnings_kept(func, chunk):
    """``func(chunk)`` and the warnings it raised (in a worker, whose stderr knows nothing of the caller's notes),
    with full garbage collections made rarer while it runs (see :func:`rare_full_collections`)."""
    with warnings.catch_warnings(record=True) as caught, rare_full_collections():
        warnings.simplefilter("always")
        out = func(chunk)
    if not _FROZEN and multiprocessing.current_process().name.startswith("LokyProcess"):
        out_of_collections()
    return out, [(w.category, str(w.message)) for w in caught]


_FROZEN = False  # in a loky worker: whether what its first chunk loaded is out of the collector's reach


def out_of_collections() -> None:
    """In a loky worker (joblib's default backend), once, after its first chunk: every object it holds then (the model,
    WordNet, word frequencies, the word vectors' table, which live as long as the worker) moved out of the garbage
    collector's reach (``gc.freeze``; cyclic garbage collected first). Without psutil, loky collects garbage after each
    task (at most once a second), and that full collection walked all of them again. Not in another backend's worker:
    a dask worker may serve other work than ours."""
    global _FROZEN
    gc.collect()
    gc.freeze()
    _FROZEN = True


@contextmanager
def rare_full_collections():
    """Within the block, garbage collections rarer (at least the thresholds :data:`COLLECTIONS`). Featurizing
    allocates millions of short-lived objects and hardly any garbage with cycles, beside long-lived tables
    (WordNet, word frequencies, the model) that each full collection walks again: a fifth of a worker's time
    went to full collections, and 7% more to the young ones at Python's threshold of 700."""
    before = gc.get_threshold()
    gc.set_threshold(*(max(now, rarer) for now, rarer in zip(before, COLLECTIONS)))
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _rewarned(results) -> Iterator:
    """The results of :func:`_warnings_kept`, their warnings raised again here, where the caller shows them."""
    for out, caught in results:
        for category, message in caught:
            warnings.warn(category(message), stacklevel=2)
        yield out


class PairFeaturizer(TransformerMixin, BaseEstimator):
    """Pairs → feature matrix of a named set (see :mod:`semsts.features.sets`), in chunks of ``chunk_size`` pairs;
    ``encoder`` (a spec or callable, see :mod:`semsts.features.encoders`) adds an encoder's family, ``scorer`` (a pair
    scorer, :mod:`semsts.features.scorers`) its score."""

    scorer = None  # models saved before pair scorers came hold no such attribute

    def __init__(self, feature_set: str = DEFAULT_SET, exclude=(), chunk_size: int = 500, encoder=None, scorer=None):
        self.feature_set = feature_set
        self.exclude = exclude
        self.chunk_size = chunk_size
        self.encoder = encoder
        self.scorer = scorer

    def __sklearn_tags__(self):
        """Input: a sequence of ``(text_a, text_b)`` string pairs, not a 2-D numeric array; fitted before use."""
        return text_input_tags(super().__sklearn_tags__(), requires_fit=True)

    def fit(self, X, y=None):
        pairs = [tuple(p) for p in X]
        self.union_ = make_union(self.feature_set, exclude=tuple(self.exclude), encoder=self.encoder,
                                 scorer=self.scorer).fit(pairs)
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
        return columns, (FeatureUnion(steps, n_jobs=1) if steps else None)

    def transform(self, X) -> np.ndarray:
        check_is_fitted(self, "union_")
        pairs = [tuple(p) for p in X]
        self.note_long_sides(pairs)
        out = np.empty((len(pairs), len(self.feature_names_)))  # filled chunk by chunk: never held twice
        start = 0
        for rows in map_chunks(self.rows, pairs, self.chunk_size, workers=self.in_workers(), chars=pair_chars(pairs)):
            out[start:start + len(rows)] = rows
            start += len(rows)
        return out

    def rows(self, pairs: list) -> np.ndarray:
        """The feature matrix of ``pairs`` computed here, in one piece (what :meth:`transform` does per chunk)."""
        return self.union_.transform(pairs) if pairs else np.zeros((0, len(self.feature_names_)))

    def in_workers(self) -> bool:
        """Whether chunks may go to worker processes: not with an encoder or a scorer, which brings its own threads
        and memory (a model loaded in every worker, an API's rate) and is best run in one process, batch after batch."""
        return self.encoder is None and self.scorer is None

    def note_long_sides(self, pairs: list) -> None:
        """Say (as a :class:`Note`) when pairs have a side that the superlinear families read only the head of."""
        cut = cut_pairs(pairs)
        families = [name for name, step in self.union_.transformer_list if getattr(step, "reads_head", False)]
        if cut and families:
            first = PAIR_PLACE.get()(tuple(pairs[cut[0]])) or f"pair {cut[0] + 1:,}"
            warnings.warn(Note(
                f"{len(cut):,} of {len(pairs):,} pairs (the first: {first}) have a side over {MAX_CHARS:,} "
                f"characters: the families {', '.join(families)} read its first {MAX_CHARS:,} characters, the others "
                "all of it"), stacklevel=3)
