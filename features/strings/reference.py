"""Plain textbook versions of the string measures, the yardstick the fast ones are tested against."""
from __future__ import annotations


def lcs_length_dp(a: str, b: str) -> int:
    """Longest common substring by the O(|a|·|b|) dynamic programme."""
    best, previous = 0, [0] * (len(b) + 1)
    for x in a:
        current = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


def gst_tiles_wise(a: str, b: str, min_match: int) -> list[tuple[int, int, int]]:
    """Greedy String Tiling as Wise (1996) writes it: scan every unmarked pair of starts per round."""
    mark_a, mark_b = [False] * len(a), [False] * len(b)
    tiles = []
    while True:
        max_match, matches = min_match, []
        for p in range(len(a)):
            for t in range(len(b)):
                n = 0
                while (p + n < len(a) and t + n < len(b) and a[p + n] == b[t + n]
                       and not mark_a[p + n] and not mark_b[t + n]):
                    n += 1
                if n == max_match:
                    matches.append((p, t, n))
                elif n > max_match:
                    max_match, matches = n, [(p, t, n)]
        for p, t, n in matches:
            if not any(mark_a[p:p + n]) and not any(mark_b[t:t + n]):
                mark_a[p:p + n] = [True] * n
                mark_b[t:t + n] = [True] * n
                tiles.append((p, t, n))
        if max_match == min_match:
            return tiles
