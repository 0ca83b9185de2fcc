"""Worker processes for featurizing: from how much work they pay (light on purpose: the commands ask before they
import scikit-learn)."""
from __future__ import annotations

# 2 workers, 2026-11-26 (set when a pair took 1.5 ms and a worker 3 s to start; now about 0.9 ms and 2 s, not
# re-tuned): from 6,000 pairs two workers saved a fifth of the time at low load (4,927 pairs: a tenth)
PARALLEL_MIN_PAIRS = 6_000
PARALLEL_MIN_CHARS = 720_000  # as many characters: 6,000 pairs of STS's length (120 characters a pair, both sides)


def worth_workers(pairs: int, chars: int | None = None) -> bool:
    """Whether work over this many pairs (holding ``chars`` characters, both sides, when known) goes to worker
    processes (when the caller's ``parallel_config`` has them): from :data:`PARALLEL_MIN_PAIRS` pairs, or from
    :data:`PARALLEL_MIN_CHARS` characters however few the pairs (200 pairs of 5,000-character sides are a minute's
    work)."""
    return pairs >= PARALLEL_MIN_PAIRS or (chars is not None and chars >= PARALLEL_MIN_CHARS)
