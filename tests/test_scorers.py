"""Pair scorers (issue 36): a user's ``score(list[tuple[str, str]]) -> list[float]`` as a system (`sts run`,
`sts bench`) and as a feature of the regression (`sts train`), its scores cached per pair when it declares its
version (issue 43), and every way it can fail one `error:` line. The scorers are the tests' own (tests/pair_scorers.py)."""
from __future__ import annotations

import hashlib
import json
import math
import re
import sys
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from semsts import baselines, cli, corpora
from semsts.baselines.base import PairError
from semsts.baselines.bench_predictions import predict_dataset
from semsts.baselines.model_card import ModelMismatch
from semsts.baselines.scorer import PairScorer
from semsts.core import progress
from semsts.features import pair_score_cache
from semsts.features.scorers import score_pairs
from tests import pair_scorers
from tests.conftest import SMALL, pairs_tsv

JACCARD = "tests.pair_scorers:jaccard"


@pytest.fixture(autouse=True)
def _calls():
    pair_scorers.CALLS.clear()
    yield pair_scorers.CALLS
    pair_scorers.CALLS.clear()


def _words(text):
    return set(re.findall(r"\w+", text.lower()))


def jaccard_by_hand(a, b):
    wa, wb = _words(a), _words(b)
    return len(wa & wb) / len(wa | wb)


def _test_pairs(path):
    (sub,) = corpora.resolve(str(path))
    return sub


# --- The scorer alone


def test_each_distinct_pair_is_scored_once_in_batches_and_mapped_from_its_own_range():
    pairs = [("a b", "a c"), ("x y", "x y"), ("a b", "a c"), ("p", "q r")] * 10  # 3 distinct pairs
    system = PairScorer("tests.pair_scorers:length_difference", batch_size=2, cache=False).fit(pairs)
    assert pair_scorers.CALLS == [2, 1]  # scored in fit, once each, two a call
    assert system.score_range_ == (-2.0, 0.0) and not system.declared_
    assert system.predict(pairs[:4]).tolist() == [0.0, 0.0, 0.0, -2.0] and pair_scorers.CALLS == [2, 1]  # not again
    assert system.predict([("abc", "a")]).tolist() == [-2.0] and pair_scorers.CALLS == [2, 1, 1]  # a new pair is scored
    # one score for every pair: the middle of the range it is mapped from
    assert PairScorer("tests.pair_scorers:length_difference").fit([("a", "b")]).score_range_ == (-1.0, 1.0)


def test_a_declared_range_and_batch_size_are_the_scorers_own_and_a_score_outside_it_is_an_error():
    system = PairScorer("tests.pair_scorers:bounded", cache=False).fit([])
    assert system.score_range_ == (0.0, 1.0) and system.declared_
    pairs = [(f"w{i} a", "a b") for i in range(10)]
    assert system.predict(pairs).tolist() == pytest.approx([1 / 3] * 10) and pair_scorers.CALLS == [7, 3]

    def too_high(batch):
        return [2.0 for _ in batch]
    too_high.score_range = (0, 1)
    with pytest.raises(PairError, match=r"pair 1: scorer .*too_high gave 2, outside the score_range \[0, 1\] it "
                                        r"declares, for the pair \('a', 'b'\)"):
        PairScorer(too_high).fit([]).predict([("a", "b")])


@pytest.mark.parametrize("output, message", [
    (lambda b: [1.0] * (len(b) + 1), "returned 3 scores for a batch of 2 pairs; expected one number per pair"),
    (lambda b: "0.5", "returned str, not a list of numbers"),
    (lambda b: 0.5, "returned float, not a list of numbers"),
    (lambda b: [0.5, "high"], "gave str 'high', not a number, for the pair ('c', 'd')"),
    (lambda b: [0.5, None], "gave NoneType None, not a number, for the pair ('c', 'd')"),
    (lambda b: [True, 0.5], "gave bool True, not a number, for the pair ('a', 'b')"),
    (lambda b: [0.5, 1j], "gave complex 1j, not a number"),
    (lambda b: [0.5, math.nan], "gave a NaN or infinite score for the pair ('c', 'd')"),
    (lambda b: np.array([np.inf, 0.5]), "gave a NaN or infinite score for the pair ('a', 'b')"),
    (lambda b: 1 / 0, "failed on a batch of 2 pairs (ZeroDivisionError: division by zero)"),
])
def test_what_a_scorer_gives_is_checked(output, message):
    with pytest.raises(ValueError) as info:
        score_pairs(output, [("a", "b"), ("c", "d")])
    assert message in str(info.value) and str(info.value).startswith("scorer ")


def test_a_column_of_scores_and_numpy_numbers_are_numbers():
    assert score_pairs(lambda b: np.array([[0.25], [0.5]], dtype=np.float32), [("a", "b"), ("c", "d")]).tolist() == \
        [0.25, 0.5]
    assert score_pairs(lambda b: [np.int64(2), np.float16(0.5)], [("a", "b"), ("c", "d")]).tolist() == [2.0, 0.5]


# --- Issue 44, kind 5: a scorer is handed a copy of its batch, and one that changes it is one clear error


def _overlap(batch):
    return [float(len(set(a) & set(b))) for a, b in batch]


def _clears(batch):
    out = _overlap(batch)
    batch.clear()
    return out


def _pops(batch):  # scores from the end as it pops: a list of the right scores in the wrong order
    return [_overlap([batch.pop()])[0] for _ in range(len(batch))]


def _reverses(batch):
    batch.reverse()
    return _overlap(batch)


def _appends(batch):
    batch.append(("x", "y"))
    return _overlap(batch)


def _swaps_in(batch):  # the same length, one pair replaced by another
    batch[0] = ("zz", "zz")
    return _overlap(batch)


@pytest.mark.parametrize("scorer, left", [(_clears, 0), (_pops, 0), (_reverses, None), (_appends, 4),
                                          (_swaps_in, None)])
def test_a_scorer_that_changes_the_pairs_it_is_handed_is_one_clear_error_never_misplaced_scores(scorer, left):
    pairs = [("ab", "ab"), ("ab", "cd"), ("abc", "abd")]
    held = list(pairs)
    how = f"it left {left}" if left is not None else "it reordered or replaced some"
    expected = (f"scorer {scorer.__module__}:{scorer.__qualname__} changed the list of 3 pairs it was handed ({how}): "
                "what it returned cannot be matched to them; it must leave the list as handed (copy it to change it)")
    with pytest.raises(ValueError) as info:
        PairScorer(scorer, cache=False).fit(pairs)
    assert str(info.value) == expected and pairs == held


def test_each_call_gets_a_fresh_list_and_the_callers_pairs_stay_as_they_were():
    handed = []

    def keeps(batch):
        handed.append(batch)
        return _overlap(batch)
    pairs = [("ab", "ab"), ("ab", "cd"), ("abc", "abd")]
    assert score_pairs(keeps, pairs, 2).tolist() == [2.0, 0.0, 2.0]
    assert handed == [pairs[:2], pairs[2:]] and all(batch is not pairs for batch in handed)
    handed[0].clear()  # what it kept is its own: the scores are already the suite's
    assert pairs == [("ab", "ab"), ("ab", "cd"), ("abc", "abd")]


# --- Issue 44, kind 6: numbers beyond a float, masked entries, endless iterables: one error naming the pair


def _endless(count):
    def score(batch):
        def values():
            while True:
                count.append(1)
                yield 0.5
        return values()
    return score


@pytest.mark.parametrize("value", [10**400, -(10**400), Fraction(10**400, 3), Fraction(10**5000, 7)],
                         ids=["int", "negative", "fraction", "unprintable"])
def test_a_score_beyond_a_float_is_an_error_at_its_pair(value):
    if isinstance(value, int):
        shown = f"of about {len(str(abs(value)))} digits"
    else:  # Python prints no int of more than 4,300 digits
        shown = repr(value)[:40] if value.numerator < 10**4000 else "that cannot be shown"
    expected = f"gave {type(value).__name__} {shown}, beyond a float's range, for the pair ('c', 'd')"

    def scorer(batch):
        return [0.5, value, 0.25]
    with pytest.raises(PairError) as info:
        PairScorer(scorer, cache=False).fit([("a", "b"), ("c", "d"), ("e", "f")])
    assert info.value.index == 1 and str(info.value).endswith(expected), str(info.value)


def test_a_masked_entry_is_no_score():
    def scorer(batch):
        return np.ma.array([0.5, 0.1, 0.25], mask=[False, False, True])
    with pytest.raises(PairError) as info:
        PairScorer(scorer, cache=False).fit([("a", "b"), ("c", "d"), ("e", "f")])
    assert info.value.index == 2 and str(info.value).endswith("gave a masked entry, not a score, for the pair ('e', 'f')")
    # unmasked, a masked array is its values
    assert score_pairs(lambda b: np.ma.array([0.5, 0.25], mask=False), [("a", "b"), ("c", "d")]).tolist() == [0.5, 0.25]


def test_an_endless_iterable_is_read_one_past_the_batch_then_refused():
    count = []
    with pytest.raises(ValueError) as info:
        score_pairs(_endless(count), [("a", "b"), ("c", "d"), ("e", "f")], 2)
    assert str(info.value).startswith("scorer ") and "returned more than 2 scores for a batch of 2 pairs" in str(info.value)
    assert len(count) == 3  # two pairs and one more, then no further

    def failing(batch):
        yield 0.5
        raise KeyError("gone")
    with pytest.raises(ValueError, match=r"failed giving its scores \(KeyError: 'gone'\)"):
        score_pairs(failing, [("a", "b"), ("c", "d")])


def test_scoring_tells_the_hook_each_batch():
    counts = []

    class Hook:
        def count(self, total, desc, unit):
            class Counter:
                def update(self, n):
                    counts.append((desc, unit, total, n))

                def close(self):
                    counts.append("closed")
            return Counter()
    with progress.reporting(Hook()):
        score_pairs(lambda b: [0.0] * len(b), [("a", str(i)) for i in range(70)], 32)
    assert counts == [("scoring", "pairs", 70, 32), ("scoring", "pairs", 70, 32), ("scoring", "pairs", 70, 6), "closed"]


MODULES = {
    "sc_raises": "def score(pairs):\n    raise RuntimeError('quota exceeded')\n",
    "sc_count": "def score(pairs):\n    return [1.0]\n",
    "sc_nan": "def score(pairs):\n    return [float('nan') if 'b' in a else 1.0 for a, b in pairs]\n",
    "sc_word": "def score(pairs):\n    return ['five' for _ in pairs]\n",
    "sc_exits": "import sys\ndef score(pairs):\n    sys.exit(4)\n",
    "sc_import": "raise ImportError('no openai here')\n",
    "sc_huge": "def score(pairs):\n    return [10 ** 400 for _ in pairs]\n",
    "sc_endless": "import itertools\ndef score(pairs):\n    return itertools.repeat(0.5)\n",
    "sc_clears": "def score(pairs):\n    out = [0.5 for _ in pairs]\n    pairs.clear()\n    return out\n",
}


@pytest.mark.parametrize("spec, expected", [
    ("sc_raises:score", "error: scorer sc_raises:score failed on a batch of 32 pairs (RuntimeError: quota exceeded)"),
    ("sc_count:score", "error: scorer sc_count:score returned 1 scores for a batch of 32 pairs"),
    ("sc_nan:score", "error: {test}:"),  # where the first pair it cannot score is (the line its row starts on), the pair
    ("sc_word:score", "error: {test}:2: scorer sc_word:score gave str 'five', not a number, for the pair"),
    ("sc_exits:score", "error: scorer sc_exits:score failed on a batch of 32 pairs (SystemExit: 4)"),
    ("sc_import:score", "error: scorer 'sc_import:score': cannot import module 'sc_import' (no openai here)"),
    ("no_colon", "error: scorer 'no_colon': expected package.module:function"),
    ("sc_huge:score", "error: {test}:2: scorer sc_huge:score gave int of about 401 digits, beyond a float's range, "
                      "for the pair"),
    ("sc_endless:score", "error: scorer sc_endless:score returned more than 32 scores for a batch of 32 pairs"),
    ("sc_clears:score", "error: scorer sc_clears:score changed the list of 32 pairs it was handed (it left 0)"),
])
def test_a_failing_scorer_is_one_error_line(tmp_path, monkeypatch, capsys, spec, expected):
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    assert cli.main(["run", "--scorer", spec, "--test", str(test), "--out", str(tmp_path / "out"), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(expected.format(test=test)), err
    if spec == "sc_nan:score":  # the first pair whose first text holds a 'b' (the test's words do); the header is line 1
        first = next(i for i, (a, _) in enumerate(_test_pairs(test).pairs) if "b" in a)
        assert err[0].startswith(f"error: {test}:{first + 2}: scorer sc_nan:score gave a NaN or infinite score")
    assert not list((tmp_path / "out").glob("STS.output.*"))


# --- As a system: sts run, and its cache


def test_sts_run_writes_the_scores_mapped_from_their_range_onto_the_tasks(tmp_path, capsys):
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    out = tmp_path / "out"
    assert cli.main(["run", "--scorer", JACCARD, "--test", str(test), "--out", str(out)]) == 0
    assert "note: 40 pair scores computed and kept in the pair-score cache" in capsys.readouterr().err
    record = json.loads((out / "sts-run.json").read_text())
    assert record["system"] == f"scorer {JACCARD}" and record["complete"]
    raw = np.array([jaccard_by_hand(a, b) for a, b in _test_pairs(test).pairs])
    expected = 5 * (raw - raw.min()) / (raw.max() - raw.min())
    written = np.loadtxt(next(out.glob("STS.output.*")))
    assert np.abs(written - expected).max() <= 5e-7 and written.min() == 0 and written.max() == 5


def _store(tmp_path):
    (store,) = (tmp_path / "pair-score-cache").glob("pair-scores_*.npy")
    return store


def test_a_second_run_scores_nothing_and_a_damaged_store_is_said_once_and_replaced(tmp_path, capsys, _calls):
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    distinct = len(set(_test_pairs(test).pairs))

    def run(*extra):
        _calls.clear()
        out = tmp_path / f"out{len(list(tmp_path.glob('out*')))}"
        assert cli.main(["run", "--scorer", JACCARD, "--test", str(test), "--out", str(out), *extra]) == 0
        return next(out.glob("STS.output.*")).read_text(), capsys.readouterr().err
    first, err = run()
    assert sum(_calls) == distinct and f"{distinct} pair scores computed and kept" in err
    again, err = run()
    assert again == first and _calls == []
    assert f"note: {distinct} of {distinct} pair scores from the pair-score cache" in err
    store = _store(tmp_path)
    before = store.read_bytes()
    assert run("--no-cache")[0] == first and sum(_calls) == distinct  # neither read nor written
    assert store.read_bytes() == before
    store.write_bytes(before[:len(before) // 2])  # cut, as a failing disk leaves it
    damaged, err = run()
    assert damaged == first and sum(_calls) == distinct
    assert f"note: cache {store}: unreadable (ValueError); computing it again" in err
    assert store.read_bytes() == before  # replaced by the scores computed now
    assert run()[1].count("note:") == 1 and _calls == []  # said once: the next run reads the store


def test_the_store_is_per_pair_whatever_the_dataset_or_command_scored_them(tmp_path, capsys, _calls):
    a, b = pairs_tsv(tmp_path / "a.tsv", 40, 2), pairs_tsv(tmp_path / "b.tsv", 30, 5)
    both = tmp_path / "both.tsv"
    both.write_text(a.read_text() + "".join(b.read_text().splitlines(keepends=True)[1:]))
    pairs_a, pairs_b = set(_test_pairs(a).pairs), set(_test_pairs(b).pairs)
    assert cli.main(["run", "--scorer", JACCARD, "--test", str(a), "--out", str(tmp_path / "oa"), "--quiet"]) == 0
    _calls.clear()
    assert cli.main(["run", "--scorer", JACCARD, "--test", str(both), "--out", str(tmp_path / "ob")]) == 0
    new = len(pairs_b - pairs_a)
    assert new >= 25 and sum(_calls) == new  # B's pairs alone
    assert f"note: {len(pairs_a)} of {len(pairs_a | pairs_b)} pair scores from the pair-score cache" in \
        capsys.readouterr().err
    stored = np.load(_store(tmp_path))
    assert len(stored) == len(pairs_a | pairs_b) and (stored["pair"][1:] > stored["pair"][:-1]).all()
    expected = {pair_score_cache.pair_hash(p): jaccard_by_hand(*p) for p in pairs_a | pairs_b}
    assert all(expected[h] == s for h, s in zip(stored["pair"].tolist(), stored["score"].tolist()))


def test_a_model_feature_reuses_the_stored_scores_and_no_cache_reads_and_writes_nothing(tmp_path, capsys, _calls,
                                                                                          data_dir):
    train, test = pairs_tsv(tmp_path / "train.tsv", 59, 1), pairs_tsv(tmp_path / "test.tsv", 40, 2)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", str(train), *SMALL, "--scorer", JACCARD, "--save", str(model), "--quiet"]) == 0
    assert cli.main(["run", "--scorer", JACCARD, "--test", str(test), "--out", str(tmp_path / "o1"), "--quiet"]) == 0
    _calls.clear()
    capsys.readouterr()
    assert cli.main(["run", "regression", "--model", str(model), "--scorer", JACCARD, "--test", str(test),
                     "--out", str(tmp_path / "o2")]) == 0
    distinct = len(set(_test_pairs(test).pairs))
    assert _calls == [] and f"{distinct} of {distinct} pair scores from the pair-score cache" in \
        capsys.readouterr().err
    store = _store(tmp_path)
    store.unlink()
    _calls.clear()
    for argv in (["run", "regression", "--model", str(model), "--scorer", JACCARD, "--test", str(test), "--out",
                  str(tmp_path / "o3")],
                 ["bench", "--model", str(model), "--scorer", JACCARD, "--datasets", "stsb-test", "--resamples", "0",
                  "--data-dir", str(data_dir)]):
        assert cli.main([*argv, "--no-cache"]) == 0, capsys.readouterr().err
        assert "pair-score cache" not in capsys.readouterr().err and not store.exists()
    assert (tmp_path / "o3" / "sts-run.json").exists() and sum(_calls) >= 2 * distinct


CHOSEN = """import os
MODEL = os.environ.get("JUDGE_MODEL", "small")  # the model chosen by an environment variable, as it is imported


def score(pairs):
    return [len(a) + (0.5 if MODEL == "large" and len(a) in (7, 20, 33) else 0.0) for a, b in pairs]
"""


@pytest.mark.parametrize("declared", [False, True])
def test_a_scorer_whose_model_an_environment_variable_chooses_gives_fresh_right_scores(tmp_path, monkeypatch, capsys,
                                                                                       declared):
    """Issue 43's stale case: the variable changes 3 of 40 scores. Undeclared, the scorer is not cached and each run
    gives the scores of the model chosen now; declared, a new version is a new store."""
    (tmp_path / "chosen.py").write_text(CHOSEN + ("score.cache_version = os.environ.get('JUDGE_MODEL', 'small')\n"
                                                  if declared else ""))
    monkeypatch.syspath_prepend(str(tmp_path))
    test = tmp_path / "test.tsv"
    test.write_text("sentence1\tsentence2\tscore\n" + "".join(f"{'x' * i}\ty\t{i % 5}\n" for i in range(1, 41)))

    def run(name):
        monkeypatch.delitem(sys.modules, "chosen", raising=False)
        assert cli.main(["run", "--scorer", "chosen:score", "--test", str(test), "--out", str(tmp_path / name)]) == 0
        return np.loadtxt(next((tmp_path / name).glob("STS.output.*"))), capsys.readouterr().err
    small, first_err = run("small")
    monkeypatch.setenv("JUDGE_MODEL", "large")
    large, err = run("large")
    raw = np.array([i + (0.5 if i in (7, 20, 33) else 0.0) for i in range(1, 41)])
    assert np.abs(large - 5 * (raw - 1) / 39).max() <= 5e-7 and (large != small).sum() == 3
    assert "from the pair-score cache" not in err
    assert ("computed and kept" in first_err) == declared and (tmp_path / "pair-score-cache").exists() == declared
    assert ("declares no cache_version" in first_err) != declared


def test_the_store_is_named_by_the_spec_and_its_declared_version():
    assert pair_score_cache.store_path(JACCARD + "@version:1") != pair_score_cache.store_path(JACCARD + "@version:2")
    assert pair_score_cache.scorer_version(JACCARD) == "version:1"
    assert pair_score_cache.scorer_version("tests.pair_scorers:bounded") is None
    assert pair_score_cache.pair_hash(("a", "b")) != pair_score_cache.pair_hash(("b", "a"))
    assert pair_score_cache.pair_hash(("a b", "c")) != pair_score_cache.pair_hash(("a", "b c"))
    assert pair_score_cache.pair_hash(("a", "b")) == hashlib.sha256(
        hashlib.sha256(b"a").digest() + hashlib.sha256(b"b").digest()).digest()


def test_a_store_that_is_not_a_store_is_said_and_replaced(tmp_path, capsys, _calls):
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    argv = ["run", "--scorer", JACCARD, "--test", str(test), "--out", str(tmp_path / "out")]
    assert cli.main([*argv, "--quiet"]) == 0
    store = _store(tmp_path)
    store.write_bytes(b"PK\x03\x04 something else")
    assert cli.main(argv) == 0
    assert f"note: cache {store}: unreadable" in capsys.readouterr().err
    assert np.load(store)["score"].size == len(set(_test_pairs(test).pairs))


# --- Issue 44, kind 4: a scale of the scorer's own, set by one outlier, keeps the others' order and correlations


@pytest.mark.parametrize("outlier", [1e7, -1e7])
def test_one_outlier_setting_the_scale_leaves_the_written_scores_their_order_and_correlations(tmp_path, monkeypatch,
                                                                                              capsys, outlier):
    test = pairs_tsv(tmp_path / "test.tsv", 300, 4)
    sub = _test_pairs(test)
    odd = sub.pairs[7]
    module = f"sc_outlier_{'high' if outlier > 0 else 'low'}"  # a module of its own: Python keeps what it imported
    (tmp_path / f"{module}.py").write_text(
        "import re\n"
        "def score(pairs):\n"
        "    out = []\n"
        "    for a, b in pairs:\n"
        "        wa, wb = set(re.findall(r'\\w+', a.lower())), set(re.findall(r'\\w+', b.lower()))\n"
        f"        out.append({outlier!r} if (a, b) == {odd!r} else len(wa & wb) / len(wa | wb))\n"
        "    return out\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "out"
    assert cli.main(["run", "--scorer", f"{module}:score", "--test", str(test), "--out", str(out)]) == 0
    raw = np.array([outlier if pair == odd else jaccard_by_hand(*pair) for pair in sub.pairs])
    written = np.array([float(line) for line in (out / "STS.output.test.txt").read_text().split()])
    gold = np.asarray(sub.gold, dtype=float)
    assert (stats.rankdata(written) == stats.rankdata(raw)).all()  # every pair keeps its place, ties stay ties
    assert stats.spearmanr(written, gold)[0] == stats.spearmanr(raw, gold)[0]
    assert abs(stats.pearsonr(written, gold)[0] - stats.pearsonr(raw, gold)[0]) < 1e-9
    others = raw[np.arange(len(raw)) != 7]
    lo, hi = raw.min(), raw.max()
    assert (f"note: scorer {module}:score gave the pair ({odd[0]!r}, {odd[1]!r}) {outlier:g}, far beyond its other "
            f"scores (within [{others.min():g}, {others.max():g}]): they are mapped onto the task's range from "
            f"[{lo:g}, {hi:g}] and written with every digit, which keeps their order") in capsys.readouterr().err
    # sts bench scores the same figures (its predictions as written)
    scorer = __import__(module).score
    ((bench_gold, bench_scores),) = predict_dataset(PairScorer(scorer, cache=False), corpora.resolve(str(test)),
                                                    fit=True).values()
    assert stats.spearmanr(bench_scores, bench_gold)[0] == stats.spearmanr(raw, gold)[0]
    # a scorer declaring its range keeps its six decimals (its scale is its own, not learned from one pair)
    assert cli.main(["run", "--scorer", "tests.pair_scorers:bounded", "--test", str(test), "--out", str(out),
                     "--quiet"]) == 0
    assert all(re.fullmatch(r"\d\.\d{6}", line) for line in (out / "STS.output.test.txt").read_text().split())


# --- sts bench: a row like any other


def test_bench_gives_a_scorer_its_own_row_beside_an_encoder_with_intervals_and_tests(data_dir, capsys, toy_encoder):
    argv = ["bench", "--encoder", "toy_encoder:encode", "--scorer", JACCARD, "--datasets", "stsb-test",
            "--format", "json", "--resamples", "200", "--data-dir", str(data_dir), "--quiet"]
    assert cli.main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    encoder_row, scorer_row = doc["rows"]
    assert (encoder_row["system"], scorer_row["system"]) == ("toy_encoder:encode", JACCARD)
    stsb = corpora.load("stsb-test", data_dir)
    (sub,) = stsb
    keep = ~np.isnan(sub.gold)
    raw = np.array([jaccard_by_hand(a, b) for (a, b), k in zip(sub.pairs, keep) if k])
    figures = scorer_row["datasets"]["stsb-test"]
    assert figures["simcse"] == pytest.approx(100 * stats.spearmanr(raw, sub.gold[keep])[0], abs=1e-7)
    assert figures["official"]["Pearson"] == pytest.approx(stats.pearsonr(raw, sub.gold[keep])[0], abs=1e-6)
    assert figures["ci"]["simcse"][0] < figures["simcse"] < figures["ci"]["simcse"][1]
    assert any(t["a"] == "toy_encoder:encode" and t["b"] == JACCARD for t in doc["paired_tests"])
    assert scorer_row["source"].startswith("a pair scorer: its score of each pair, mapped from [0, 1]")


def test_bench_places_a_scorer_among_the_published_rows_and_needs_something_to_bench(data_dir, capsys):
    assert cli.main(["bench", "--scorer", JACCARD, "--datasets", "stsb-test", "--published", "--resamples", "0",
                     "--convention", "simcse", "--data-dir", str(data_dir), "--quiet"]) == 0
    text = capsys.readouterr().out
    (line,) = [row for row in text.splitlines() if JACCARD in row and "mapped" not in row]
    assert line.split()[-1] == "-"  # one dataset: no Avg., so no rank, but its row in the table
    with pytest.raises(SystemExit):
        cli.main(["bench", "--datasets", "stsb-test"])
    assert "--scorer SPEC" in capsys.readouterr().err


# --- Inside the regression: sts train --scorer, the card, and naming it again to load


def test_train_with_a_scorer_feature_save_load_and_run(tmp_path, capsys):
    train, test = pairs_tsv(tmp_path / "train.tsv", 59, 1), pairs_tsv(tmp_path / "test.tsv", 40, 2)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", str(train), "--test", str(test), *SMALL, "--scorer", JACCARD,
                     "--save", str(model), "--quiet"]) == 0
    card = json.loads(model.with_suffix(".json").read_text())
    assert card["scorer"] == JACCARD and "encoder" not in card
    assert card["feature_names"][-1] == "scorer__scorerfeatures__score"
    with pytest.raises(ModelMismatch, match="trained with the pair scorer 'tests.pair_scorers:jaccard', code its card "
                                            "names: it is imported \\(and runs\\) only when you name it again"):
        baselines.load_model(model)
    with pytest.raises(ModelMismatch, match="is not the pair scorer the model was trained with"):
        baselines.load_model(model, scorer="tests.pair_scorers:bounded")
    models, _ = baselines.load_model(model, scorer=JACCARD)
    features = models.for_subset("x").pipeline_.named_steps["features"]
    pairs = _test_pairs(test).pairs
    column = features.transform(pairs)[:, -1]
    assert column.tolist() == pytest.approx([jaccard_by_hand(a, b) for a, b in pairs])
    out = tmp_path / "out"
    assert cli.main(["run", "regression", "--model", str(model), "--test", str(test), "--out", str(out),
                     "--quiet"]) == 1
    assert "only when you name it again: --scorer SPEC with --model" in capsys.readouterr().err
    assert cli.main(["run", "regression", "--model", str(model), "--scorer", JACCARD, "--test", str(test),
                     "--out", str(out), "--quiet"]) == 0
    scores = np.loadtxt(next(out.glob("STS.output.*")))
    assert len(scores) == 40 and np.isfinite(scores).all()


def test_a_model_whose_objects_name_a_scorer_its_card_does_not_is_refused(tmp_path):
    from semsts.baselines.model_checks import code_named
    from semsts.features.scorer_features import ScorerFeatures
    assert code_named(ScorerFeatures(JACCARD), None, JACCARD) is None
    assert "holds the pair scorer 'os:system', which its card does not name" in code_named(
        ScorerFeatures("os:system"), None, JACCARD)
    assert "holds the pair scorer" in code_named(ScorerFeatures("os:system"), None, None)


def test_the_scorer_feature_changes_the_regression():
    from tests.conftest import SMALL_PARAMS
    pairs = [("a cat sat .", "the cat sat ."), ("a dog ran .", "the sun set ."), ("a bird flew .", "a bird flew ."),
             ("one two", "two three")] * 4
    y = [4.0, 0.5, 5.0, 2.0] * 4
    plain = baselines.make_system("regression", **SMALL_PARAMS, cv=3).fit(pairs, y)
    scored = baselines.make_system("regression", **SMALL_PARAMS, cv=3, scorer=JACCARD).fit(pairs, y)
    assert scored.feature_names_[-1] == "scorer__scorerfeatures__score"
    assert len(scored.feature_names_) == len(plain.feature_names_) + 1
    assert not np.allclose(plain.predict(pairs[:4]), scored.predict(pairs[:4]))


@pytest.mark.parametrize("argv, message", [
    (["run", "token-cosine", "--scorer", JACCARD, "--test", "T", "--out", "O"], "--scorer SPEC runs a pair scorer on its own"),
    (["run", "--scorer", JACCARD, "--encoder", "sif", "--test", "T", "--out", "O"], "run one at a time"),
    (["run", "--scorer", JACCARD, "--train", "T", "--test", "T", "--out", "O"], "--scorer SPEC runs a pair scorer on its own"),
    (["bench", "--encoder", "glove-mean", "--scorer", "no_such_module_y:f", "--datasets", "stsb-test"],
     "error: scorer 'no_such_module_y:f': cannot import module 'no_such_module_y'"),  # before the encoder's row
    (["train", "--train", "T", "--scorer", "no_such_module_y:f", "--save", "m.skops"],
     "error: scorer 'no_such_module_y:f': cannot import module 'no_such_module_y'"),  # before any featurizing
])
def test_bad_scorer_requests_say_what_is_expected(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pairs_tsv(tmp_path / "T", 20, 3)
    assert cli.main(argv + ["--quiet"]) == 1
    assert message in capsys.readouterr().err


def test_the_card_keeps_the_scorers_version_and_a_model_run_with_another_says_so(tmp_path, monkeypatch, capsys):
    import sys
    module = tmp_path / "versioned.py"
    module.write_text("def score(pairs):\n    return [float(len(a) - len(b)) for a, b in pairs]\n"
                      "score.cache_version = '1'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "versioned", raising=False)
    train, test = pairs_tsv(tmp_path / "train.tsv", 59, 1), pairs_tsv(tmp_path / "test.tsv", 40, 2)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", str(train), *SMALL, "--scorer", "versioned:score", "--save", str(model),
                     "--quiet"]) == 0
    card = json.loads(model.with_suffix(".json").read_text())
    assert (card["scorer"], card["scorer_version"]) == ("versioned:score", "version:1")
    argv = ["run", "regression", "--model", str(model), "--scorer", "versioned:score", "--test", str(test), "--out"]
    assert cli.main([*argv, str(tmp_path / "o1")]) == 0
    assert "trained with the pair scorer" not in capsys.readouterr().err
    module.write_text("def score(pairs):\n    return [float(len(b) - len(a)) for a, b in pairs]\n"
                      "score.cache_version = '22'\n")  # inverted, and said so
    monkeypatch.delitem(sys.modules, "versioned")
    assert cli.main([*argv, str(tmp_path / "o2")]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if "trained with the pair scorer" in line]
    assert notes == [f"note: {model}: trained with the pair scorer versioned:score at version:1, which is now "
                     "version:22 (its cache_version changed): the model gives what it learned from the "
                     "old scores; retrain it if the scores changed"]


def test_a_score_outside_the_declared_range_is_one_error_at_its_pair_and_nothing_is_kept(tmp_path, monkeypatch,
                                                                                            capsys):
    (tmp_path / "ranged.py").write_text("def score(pairs):\n    return [7.0 if 'b' in a else 1.0 for a, b in pairs]\n"
                                        "score.score_range = (0, 5)\n")
    (tmp_path / "nan_b.py").write_text("def score(pairs):\n    return [float('nan') if 'b' in a else 1.0 "
                                       "for a, b in pairs]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    first = next(i for i, (a, _) in enumerate(_test_pairs(test).pairs) if "b" in a)
    pair = _test_pairs(test).pairs[first]
    assert cli.main(["run", "--scorer", "ranged:score", "--test", str(test), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (f"error: {test}:{first + 2}: scorer ranged:score gave 7, outside the score_range [0, 5] it "
                       f"declares, for the pair ({pair[0]!r:.60}, {pair[1]!r:.60})")
    assert not any("kept" in line for line in err) and not (tmp_path / "pair-score-cache").exists()
    # in sts train, the scorer's NaN is at the training file's line
    assert cli.main(["train", "--train", str(test), *SMALL, "--scorer", "nan_b:score", "--save",
                     str(tmp_path / "m.skops"), "--quiet"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"error: {test}:{first + 2}: scorer nan_b:score gave a NaN or infinite score for the pair")


def test_a_bench_without_the_cache_scores_each_distinct_pair_of_its_datasets_once(capsys, _calls):
    """A scorer declaring its range, --no-cache, two datasets sharing pairs (STS-B copied 2012's): one call per batch
    of the distinct scored pairs, none scored twice (a paid judge pays once a pair)."""
    from semsts.baselines.bench_predictions import scored_subset
    distinct = {tuple(p) for name in ("stsb-test", "sts2012-test") for sub in corpora.load(name)
                for p in scored_subset(sub)[0].pairs}
    assert cli.main(["bench", "--scorer", "tests.pair_scorers:bounded", "--datasets", "stsb-test,sts2012-test",
                     "--no-cache", "--resamples", "0", "--convention", "official", "--quiet"]) == 0
    assert sum(_calls) == len(distinct) and max(_calls) == 7  # its batch_size
    assert "pair-score cache" not in capsys.readouterr().err


def test_a_cache_version_of_5000_characters_keys_one_store_by_its_hash(tmp_path):
    """Issue 44, kind 7: a 5,000-character cache_version gave "375 pairs are more than a store holds" (it went into
    the store's header); it is hashed into the store's name, the scores are kept and read back."""
    calls = []

    def score(pairs):
        calls.append(len(pairs))
        return [len(a) / 10 for a, _ in pairs]
    score.cache_version = "v" * 5000
    pairs = [(f"pair {i}", "b") for i in range(375)]
    first = pair_score_cache.cached_scores(score, pairs, spec="mine:score")
    again = pair_score_cache.cached_scores(score, pairs, spec="mine:score")
    assert calls == [32] * 11 + [23] and np.array_equal(first, again) and first[0] == 0.6
    (store,) = (tmp_path / "pair-score-cache").iterdir()
    assert len(store.name) < 60


def test_a_score_whose_square_overflows_is_one_error_at_its_pair_in_sts_train(tmp_path, monkeypatch, capsys):
    """Issue 44, kind 7: a scorer feature of 1e200 made the regression's scaling overflow into NaN, said as "SVR does
    not accept missing values encoded as NaN"; it is the scorer's score, named at its file and line."""
    (tmp_path / "huge.py").write_text("def score(pairs):\n    return [1e200 if 'b' in a else 1.0 for a, b in pairs]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    train = pairs_tsv(tmp_path / "train.tsv", 40, 2)
    first = next(i for i, (a, _) in enumerate(_test_pairs(train).pairs) if "b" in a)
    pair = _test_pairs(train).pairs[first]
    assert cli.main(["train", "--train", str(train), *SMALL, "--scorer", "huge:score", "--save",
                     str(tmp_path / "m.skops"), "--quiet"]) == 1
    assert capsys.readouterr().err.strip().splitlines() == [
        f"error: {train}:{first + 2}: scorer huge:score gave 1e+200, beyond ±1e+150 (the regression scales a feature "
        f"by its squares), for the pair ({pair[0]!r:.60}, {pair[1]!r:.60})"]
    assert not (tmp_path / "m.skops").exists()


@pytest.mark.parametrize("value", [3.0, -7.0, 1e17, -1e300])
def test_one_score_for_every_pair_is_put_at_the_middle_of_the_task_range_however_large(value):
    """Issue 44, kind 7: a scorer giving 1e17 for every pair learned the range (1e17 - 1, 1e17 + 1), which is
    (1e17, 1e17) in floats: "score 1 is nan". Each pair is put at the middle of [0, 5], 2.5, as for 3."""
    from semsts.baselines.run import onto_task_range, score_range_of
    pairs = [(f"a{i}", "b") for i in range(5)]
    system = PairScorer(lambda batch: [value] * len(batch), cache=False).fit(pairs)
    assert onto_task_range(system.predict(pairs), score_range_of(system), (0.0, 5.0)).tolist() == [2.5] * 5
