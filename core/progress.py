"""The progress hook featurization and training report to, set by the caller around the work (:func:`reporting`).

Light on purpose: the run settings set it before this process imports scikit-learn.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterable

_PROGRESS: ContextVar[Callable[[Iterable], Iterable] | None] = ContextVar("featurization_progress", default=None)


@contextmanager
def reporting(progress: Callable[[Iterable], Iterable] | None):
    """Within the block, featurization passes its iterable of chunks through ``progress`` (e.g. a tqdm bar)."""
    token = _PROGRESS.set(progress)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def hook() -> Callable[[Iterable], Iterable] | None:
    """The progress hook of the current block (None outside any)."""
    return _PROGRESS.get()


def announce(text: str) -> None:
    """Tell the progress hook a step is starting (the hook shows it if it has a ``step`` method)."""
    step = getattr(hook(), "step", None)
    if step is not None:
        step(text)


def tracked(items, desc: str):
    """``items`` passed through the hook's ``over(items, desc)`` if it has one (a bar over CV fits, folds…)."""
    over = getattr(hook(), "over", None)
    return over(items, desc) if over is not None else items


@contextmanager
def counting(total: int, desc: str, unit: str):
    """Within the block, ``advance(n)`` counts ``n`` more of ``total`` items done (texts encoded, …): shown by the
    hook's ``count(total, desc, unit)`` if it has one (an object with ``update(n)`` and ``close()``), else nothing."""
    count = getattr(hook(), "count", None)
    if count is None:
        yield lambda n=1: None
        return
    counter = count(total, desc, unit)
    try:
        yield counter.update
    finally:
        counter.close()


def from_cache(found: int, total: int, where, *, unit: str = "texts", cache: str = "embedding cache") -> None:
    """Tell the hook that ``found`` of ``total`` items (``unit``: texts embedded, pair scores) were read from the
    ``cache`` at ``where`` (the others computed and stored there); the hook says so if it has a ``cached`` method."""
    cached = getattr(hook(), "cached", None)
    if cached is not None:
        cached(found, total, where, unit=unit, cache=cache)
