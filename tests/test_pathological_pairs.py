"""Issue 12, defect 15: work per pair stays bounded and near-linear, however repetitive the texts.

Timings live in benchmarks/pathological_pairs.py; these tests check the structure on small inputs
(which paths run, how often a run is looked at) with the bounds lowered where needed.
"""
import random

import pytest

from semsts import corpora
from semsts.features.strings import gst, lcs
from semsts.features.strings.reference import gst_tiles_wise, lcs_length_dp
from semsts.features.strings.runs import diagonal_runs

WORDS = "the cat sat on a mat by door".split()


def eight_words(n_words: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def test_a_repetitive_pair_does_not_enumerate_its_runs_for_lcs(monkeypatch):
    a, b = eight_words(300, 1), eight_words(300, 2)
    monkeypatch.setattr(lcs, "WORK_FLOOR", 0, raising=False)
    monkeypatch.setattr(lcs, "WORK_PER_CHAR", 1, raising=False)

    def quadratic(*args):
        raise AssertionError("runs enumerated for a pair whose windows match far more often than its length")

    monkeypatch.setattr(lcs, "diagonal_runs", quadratic)
    assert lcs.lcs_length(a, b) == lcs_length_dp(a, b)


@pytest.mark.parametrize("seed", range(20))
def test_the_hashed_lcs_is_exact(seed):
    rng = random.Random(seed)
    alphabet = rng.choice(["ab", "abc", "ab é", "the cat"])
    a = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
    b = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
    assert lcs.lcs_length_hashed(a, b) == lcs_length_dp(a, b)


def test_gst_looks_at_each_run_a_bounded_number_of_times(monkeypatch):
    """The greedy rounds no longer rescan every live run: ~85,000 looks at 6,700 runs before, ~7,400 now."""
    rng = random.Random(0)
    sentences = [s.lower() for pair in corpora.load("demo-train").pairs for s in pair]
    a = " ".join(rng.choice(sentences) for _ in range(40))
    b = " ".join(rng.choice(sentences) for _ in range(40))
    looks, real = [], gst._free_parts
    monkeypatch.setattr(gst, "_free_parts", lambda *args: looks.append(1) or real(*args))
    tiles = gst.gst_tiles(a, b, 3)
    assert len(looks) <= 2 * len(diagonal_runs(a, b, 3))
    assert len(tiles) > 100


def test_a_repetitive_pair_is_tiled_on_bounded_prefixes_with_a_warning(monkeypatch):
    a, b = eight_words(200, 3), eight_words(200, 4)
    exact = sum(n for *_, n in gst_tiles_wise(a, b, 6))
    monkeypatch.setattr(lcs, "WORK_FLOOR", 0, raising=False)
    monkeypatch.setattr(lcs, "WORK_PER_CHAR", 1, raising=False)
    limit = len(a) + len(b)  # 1,396 window matches allowed; the pair has 2,686
    enumerated, real = [], gst.diagonal_runs
    monkeypatch.setattr(gst, "diagonal_runs", lambda x, y, k: enumerated.append(lcs.window_matches(x, y, k)) or real(x, y, k))
    with pytest.warns(getattr(gst, "CappedPair", Warning), match=r"repeats too much to tile whole in bounded work \(min "
                      r"match 6\); tiled on its first \d+ and \d+ characters, so its coverage is a lower bound"):
        covered = gst.gst_coverage(a, b, 6)
    assert enumerated and max(enumerated) <= limit
    assert 0 < covered <= exact
