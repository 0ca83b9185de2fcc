"""Small pair scorers of the tests' own (``tests.pair_scorers:jaccard``…): what a user's ``--scorer`` names."""
from __future__ import annotations

import re

CALLS: list[int] = []  # the size of each batch scored, for the tests that count them


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def jaccard(pairs):
    """The Jaccard overlap of the two texts' lower-cased words (1 for two texts without words)."""
    CALLS.append(len(pairs))
    out = []
    for a, b in pairs:
        wa, wb = _words(a), _words(b)
        out.append(len(wa & wb) / len(wa | wb) if wa | wb else 1.0)
    return out


def length_difference(pairs):
    """Minus the difference of the two texts' lengths in characters: a scale of its own, unbounded below."""
    CALLS.append(len(pairs))
    return [-abs(len(a) - len(b)) for a, b in pairs]


def bounded(pairs):
    """:func:`jaccard`, declaring its range."""
    return jaccard(pairs)


bounded.score_range = (0.0, 1.0)
bounded.batch_size = 7


jaccard.cache_version = "1"  # declared: its scores are kept in the pair-score cache
