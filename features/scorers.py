"""Pair scorers: callables ``score(list[tuple[str, str]]) -> list[float]`` that score pairs directly.

A cross-encoder, an LLM judge or a remote API scores a pair as a whole rather than embedding each text. A scorer is
named ``package.module:function`` (imported: it runs the user's code, which they ask for by naming it) or handed over
in Python. It is called with ``batch_size`` pairs at a time (the callable's own ``batch_size`` attribute, else
:data:`BATCH_SIZE`), on a fresh list it must leave as handed, and must give one finite real number per pair (a float
holds it; a masked entry is none; an iterable is read no further than one past the batch); its scale is its own (a declared
``score_range``, as ``score.score_range = (0, 1)``, says what it is). What goes wrong is a ValueError naming the
scorer, and the pair where one is to blame.
"""
from __future__ import annotations

import math
from itertools import islice
from numbers import Real

import numpy as np

from semsts.core.errors import InvalidValue
from semsts.core.stats import checked_range

from .encoders import callable_name as scorer_name
from .encoders import import_callable, in_batches, user_call
from .errors import NonFiniteScore

BATCH_SIZE = 32  # pairs per call: a cross-encoder's batch on a CPU, a handful of API requests


def load_scorer(spec: str):
    """The scorer ``package.module:function`` names (the attribute may be dotted, ``module:object.method``)."""
    return import_callable(spec, "scorer", "package.module:function", "score(list[tuple[str, str]]) -> list[float]")


def resolve_scorer(score):
    """The callable ``score`` names (a spec) or is; anything else is refused."""
    if isinstance(score, str):
        return load_scorer(score)
    if not callable(score):
        raise InvalidValue("score must be a callable score(list[tuple[str, str]]) -> list[float] or a spec "
                           f"package.module:function, got {type(score).__name__}")
    return score


def batch_size_of(score, batch_size=None) -> int:
    """``batch_size`` if given, else the scorer's own ``batch_size`` attribute (a positive int), else :data:`BATCH_SIZE`."""
    size = batch_size if batch_size is not None else getattr(score, "batch_size", BATCH_SIZE)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidValue(f"scorer {scorer_name(score)}: batch_size must be a positive whole number, got {size!r:.40}")
    return size


def declared_range(score) -> tuple[float, float] | None:
    """The scorer's own ``score_range`` attribute as ``(low, high)``, None if it declares none."""
    declared = getattr(score, "score_range", None)
    return None if declared is None else checked_range(declared, f"scorer {scorer_name(score)}: score_range")


def score_pairs(score, pairs: list, batch_size: int | None = None) -> np.ndarray:
    """The scorer's score of each pair (float64, one per pair), ``batch_size`` pairs a call, the pairs done counted
    batch by batch to the progress hook (:func:`semsts.core.progress.counting`).

    Each call must give as many real, finite numbers as pairs it was handed, within the ``score_range`` the scorer
    declares if it does: a failure or a wrong count is a ValueError naming the scorer, a non-number, a NaN or infinite
    score or one outside that range a :class:`NonFiniteScore` naming its pair."""
    name = scorer_name(score)
    size = batch_size_of(score, batch_size)
    declared = declared_range(score)
    return in_batches(lambda advance: _score(score, name, pairs, size, advance, declared), pairs,
                      desc="scoring", unit="pairs")


def _score(score, name: str, pairs: list, batch_size: int, advance=None, declared=None) -> np.ndarray:
    """:func:`score_pairs` itself, its scorer named ``name`` in messages, ``advance(n)`` told of each batch done,
    ``declared`` the range its scores must lie in (None: any)."""
    out = np.empty(len(pairs))
    for start in range(0, len(pairs), batch_size):
        batch = [tuple(p) for p in pairs[start:start + batch_size]]
        got = user_call(score, batch, f"scorer {name}", "pairs")
        values = out[start:start + len(batch)] = _checked(got, name, batch)
        wrong = np.flatnonzero((values < declared[0]) | (values > declared[1])) if declared else ()
        if len(wrong):
            raise NonFiniteScore(name, batch[wrong[0]], f"{values[wrong[0]]:g}, outside the score_range "
                                 f"[{declared[0]:g}, {declared[1]:g}] it declares,")
        if advance is not None:
            advance(len(batch))
    return out


def _checked(got, name: str, batch: list) -> np.ndarray:
    """What the scorer returned for ``batch``, as float64: one real number per pair, each finite. An iterable is read
    up to one item past the batch (an endless generator is not read for ever); a masked entry is no score."""
    if isinstance(got, np.ndarray) and got.ndim == 2 and 1 in got.shape:  # a column or a row of scores
        got = got.ravel()
    try:
        values = None if isinstance(got, (str, bytes, dict)) else list(islice(got, len(batch) + 1))
    except TypeError:
        values = None
    except Exception as exc:  # the user's iterable fails as it is read
        raise InvalidValue(f"scorer {name} failed giving its scores ({type(exc).__name__}: {str(exc)[:200]})") from exc
    if values is None:
        raise InvalidValue(f"scorer {name} returned {type(got).__name__}, not a list of numbers")
    if len(values) != len(batch):
        count = len(got) if isinstance(got, (list, tuple, np.ndarray)) else \
            len(values) if len(values) < len(batch) else f"more than {len(batch)}"
        raise InvalidValue(f"scorer {name} returned {count} scores for a batch of {len(batch)} pairs; "
                           "expected one number per pair")
    out = np.empty(len(values))
    for i, value in enumerate(values):
        if np.ma.isMaskedArray(value) and np.ma.is_masked(value):
            raise NonFiniteScore(name, batch[i], "a masked entry, not a score,")
        if isinstance(value, np.ndarray) and value.shape == ():
            value = value.item()
        if isinstance(value, bool) or not isinstance(value, Real):
            raise NonFiniteScore(name, batch[i], f"{type(value).__name__} {shown(value)}, not a number,")
        try:
            out[i] = float(value)
        except OverflowError:
            raise NonFiniteScore(name, batch[i], f"{type(value).__name__} {shown(value)}, beyond a float's range,") \
                from None
        except Exception:  # a number of the user's own whose float() fails
            raise NonFiniteScore(name, batch[i], f"{type(value).__name__} {shown(value)}, not a number,") from None
        if not math.isfinite(out[i]):
            raise NonFiniteScore(name, batch[i])
    return out


def shown(value) -> str:
    """``repr(value)`` cut to 40 characters, for a message; an int too long to print as its number of digits."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    try:
        return repr(value)[:40]
    except Exception:  # a Fraction of an int too long to print, a repr of the user's own that fails
        return "that cannot be shown"
