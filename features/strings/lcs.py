"""Longest common substring on characters, normalized by the mean length (the CLSS 2014 LCS baseline).

Exact and fast: common runs of 6 or more characters are enumerated through an index of
6-character windows; a shorter answer comes from a binary search over sets of k-character windows.
A pair whose windows match far more often than its length (long low-entropy texts, e.g. two
90,000-word sides drawn from 8 words) would make that enumeration quadratic; such a pair is
answered by a binary search over rolling hashes of the windows instead, O((|a|+|b|) log) time and
linear memory, each hash match checked on the characters.
"""
from __future__ import annotations

from collections import Counter
from itertools import accumulate

import numpy as np

from .runs import diagonal_runs, windows

RUN = 6  # runs at least this long are enumerated directly; shorter answers come from a binary search
WORK_PER_CHAR = 8  # window matches per character of the pair above which runs are not enumerated
WORK_FLOOR = 4_000_000  # ... and above this many in all (a 52 KB pair of natural text stays exact)
_MODULI = (2_147_483_647, 2_147_483_629)  # two primes below 2^31: products stay inside int64
_BASE = 1_000_003


def window_matches(a: str, b: str, k: int) -> int:
    """How many ``(i, j)`` have ``a[i:i+k] == b[j:j+k]``: the work of enumerating the runs, in O(|a|+|b|)."""
    if len(a) < k or len(b) < k:
        return 0
    counts = Counter(windows(b, k))
    return sum(map(counts.__getitem__, filter(counts.__contains__, windows(a, k))))


def work_limit(a: str, b: str) -> int:
    """The window matches a pair may enumerate: linear in its length."""
    return WORK_PER_CHAR * (len(a) + len(b)) + WORK_FLOOR


def too_many_matches(a: str, b: str, k: int) -> bool:
    """Whether enumerating the ``k``-window matches of a pair would be more than near-linear work."""
    limit = work_limit(a, b)
    return len(a) * len(b) > limit and window_matches(a, b, k) > limit


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common substring (contiguous characters, case-sensitive)."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return 0
    if b in a:
        return len(b)
    if too_many_matches(a, b, RUN):
        return lcs_length_hashed(a, b)
    runs = diagonal_runs(a, b, RUN)
    if runs:
        return max(n for _, _, n in runs)
    lo, hi = 0, min(len(b), RUN) - 1  # a common substring of length lo exists; none longer than hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if set(windows(b, mid)).isdisjoint(windows(a, mid)):
            hi = mid - 1
        else:
            lo = mid
    return lo


def lcs_length_hashed(a: str, b: str) -> int:
    """:func:`lcs_length` by binary search on the length over two rolling hashes of every window.

    Near-linear whatever the texts; a common hash is accepted only once the characters agree.
    """
    ha, hb = _prefix_hashes(a), _prefix_hashes(b)
    lo, hi = 0, min(len(a), len(b))  # a common substring of length lo exists; none longer than hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _common_window(a, b, ha, hb, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _prefix_hashes(text: str) -> list[np.ndarray]:
    codes = [ord(c) + 1 for c in text]
    return [np.fromiter(accumulate(codes, lambda h, c, p=p: (h * _BASE + c) % p, initial=0),
                        dtype=np.int64, count=len(text) + 1) for p in _MODULI]


def _window_keys(prefixes: list[np.ndarray], k: int) -> np.ndarray:
    """One int64 key per k-window: the two polynomial hashes side by side."""
    keys = []
    for prefix, p in zip(prefixes, _MODULI):
        shift = pow(_BASE, k, p)
        keys.append((prefix[k:] - (prefix[:-k] * shift) % p) % p)
    return keys[0] * _MODULI[1] + keys[1]


def _common_window(a: str, b: str, ha, hb, k: int, tries: int = 16) -> bool:
    ka, kb = _window_keys(ha, k), _window_keys(hb, k)
    common = np.intersect1d(ka, kb, assume_unique=False)
    for key in common[:tries]:  # a collision of both 31-bit hashes is all but impossible; check anyway
        i, j = int(np.flatnonzero(ka == key)[0]), int(np.flatnonzero(kb == key)[0])
        if a[i:i + k] == b[j:j + k]:
            return True
    return False


def lcs_similarity(a: str, b: str) -> float:
    """LCS length over the mean of the two lengths, in [0, 1]; 0 when either text is empty."""
    if not a or not b:
        return 0.0
    return 2.0 * lcs_length(a, b) / (len(a) + len(b))


def lcs_similarity_many(pairs) -> np.ndarray:
    """Batched :func:`lcs_similarity` over ``(a, b)`` pairs."""
    return np.fromiter((lcs_similarity(a, b) for a, b in pairs), dtype=float, count=len(pairs))
