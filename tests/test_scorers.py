"""Pair scorers (issue 36): a user's ``score(list[tuple[str, str]]) -> list[float]`` as a system (`sts run`,
`sts bench`) and as a feature of the regression (`sts train`), its scores cached as embeddings are, and every way
it can fail one `error:` line. The scorers are the tests' own (tests/pair_scorers.py)."""
from __future__ import annotations

import hashlib
import json
import math
import re

import numpy as np
import pytest
from scipy import stats

from semsts import baselines, cli, corpora
from semsts.baselines.base import PairError
from semsts.baselines.model_card import ModelMismatch
from semsts.baselines.scorer import PairScorer
from semsts.core import progress
from semsts.core.errors import Note
from semsts.features import embedding_cache, pair_score_cache
from semsts.features.embedding_cache import PROBE
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
    assert system.scale_ == (-2.0, 0.0) and not system.declared_
    assert system.predict(pairs[:4]).tolist() == [0.0, 0.0, 0.0, -2.0] and pair_scorers.CALLS == [2, 1]  # not again
    assert system.predict([("abc", "a")]).tolist() == [-2.0] and pair_scorers.CALLS == [2, 1, 1]  # a new pair is scored
    # one score for every pair: the middle of the range it is mapped from
    assert PairScorer("tests.pair_scorers:length_difference").fit([("a", "b")]).scale_ == (-1.0, 1.0)


def test_a_declared_range_and_batch_size_are_the_scorers_own_and_a_score_outside_it_is_an_error():
    system = PairScorer("tests.pair_scorers:bounded", cache=False).fit([])
    assert system.scale_ == (0.0, 1.0) and system.declared_
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
    "sc_os_exit": "import os\ndef score(pairs):\n    os._exit(5)\n",
    "sc_import": "raise ImportError('no openai here')\n",
}


@pytest.mark.parametrize("spec, expected", [
    ("sc_raises:score", "error: scorer sc_raises:score failed on a batch of 32 pairs (RuntimeError: quota exceeded)"),
    ("sc_count:score", "error: scorer sc_count:score returned 1 scores for a batch of 32 pairs"),
    ("sc_nan:score", "error: {test}:"),  # where the first pair it cannot score is (its number, as the runner's), the pair
    ("sc_word:score", "error: {test}:1: scorer sc_word:score gave str 'five', not a number, for the pair"),
    ("sc_exits:score", "error: scorer sc_exits:score failed on a batch of 32 pairs (SystemExit: 4)"),
    ("sc_os_exit:score", "error: scorer sc_os_exit:score called os._exit(5)"),
    ("sc_import:score", "error: scorer 'sc_import:score': cannot import module 'sc_import' (no openai here)"),
    ("no_colon", "error: scorer 'no_colon': expected package.module:function"),
])
def test_a_failing_scorer_is_one_error_line(tmp_path, monkeypatch, capsys, spec, expected):
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    assert cli.main(["run", "--scorer", spec, "--test", str(test), "--out", str(tmp_path / "out"), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(expected.format(test=test)), err
    if spec == "sc_nan:score":  # the first pair whose first text holds a 'b' (the test's words do)
        first = next(i for i, (a, _) in enumerate(_test_pairs(test).pairs) if "b" in a)
        assert err[0].startswith(f"error: {test}:{first + 1}: scorer sc_nan:score gave a NaN or infinite score")
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
    (store,) = (tmp_path / "pair-score-cache").glob("pair-scores_*.bin")
    return store


def _new_process():
    """What a new process knows of the stores: nothing (it checks each against the scorer again)."""
    for known in pair_score_cache._SESSION.values():
        known.clear()


def _rewrite_store(store, change):
    """The store's scores changed by ``change`` and signed again, as whoever can write the cache could."""
    data = store.read_bytes()
    end = data.index(b"\n", len(pair_score_cache.MAGIC))
    header = json.loads(data[len(pair_score_cache.MAGIC):end])
    n = header["pairs"]
    hashes, scores = data[end + 1:end + 1 + 32 * n], np.frombuffer(data[end + 1 + 32 * n:], "<f8")
    payload = hashes + np.asarray(change(scores.copy()), dtype="<f8").tobytes()
    header["sha256"] = hashlib.sha256(payload).hexdigest()
    store.write_bytes(pair_score_cache.MAGIC + json.dumps(header).encode() + b"\n" + payload)


def test_a_second_run_scores_only_the_probe_and_a_damaged_store_is_said_once_and_replaced(tmp_path, capsys, _calls):
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    distinct = len(set(_test_pairs(test).pairs))

    def run(*extra):
        _new_process()
        _calls.clear()
        out = tmp_path / f"out{len(list(tmp_path.glob('out*')))}"
        assert cli.main(["run", "--scorer", JACCARD, "--test", str(test), "--out", str(out), *extra]) == 0
        return next(out.glob("STS.output.*")).read_text(), capsys.readouterr().err
    first, err = run()
    # scored once, then a few again to see that the scorer gives a pair the same score twice before keeping them
    assert sum(_calls) == distinct + min(PROBE, distinct) and f"{distinct} pair scores computed and kept" in err
    again, err = run()
    assert again == first and _calls == [PROBE]
    assert f"note: {distinct} of {distinct} pair scores from the pair-score cache" in err
    store = _store(tmp_path)
    before = store.read_bytes()
    assert run("--no-cache")[0] == first and sum(_calls) == distinct  # neither read nor written
    assert store.read_bytes() == before
    data = bytearray(before)
    data[-8:] = np.float64(0.123).tobytes()  # one score changed: a plausible store, but not the one written
    store.write_bytes(bytes(data))
    damaged, err = run()
    assert damaged == first and sum(_calls) == distinct + min(PROBE, distinct)
    assert f"pair-score cache {store}: damaged (changed since it was written); recomputing its pairs" in err
    assert store.read_bytes() == before  # replaced by the scores computed now
    assert run()[1].count("note:") == 1 and _calls == [PROBE]  # said once: the next run reads the store


def test_the_store_is_per_pair_whatever_the_dataset_or_command_scored_them(tmp_path, capsys, _calls):
    a, b = pairs_tsv(tmp_path / "a.tsv", 40, 2), pairs_tsv(tmp_path / "b.tsv", 30, 5)
    both = tmp_path / "both.tsv"
    both.write_text(a.read_text() + "".join(b.read_text().splitlines(keepends=True)[1:]))
    pairs_a, pairs_b = set(_test_pairs(a).pairs), set(_test_pairs(b).pairs)
    assert cli.main(["run", "--scorer", JACCARD, "--test", str(a), "--out", str(tmp_path / "oa"), "--quiet"]) == 0
    _new_process()
    _calls.clear()
    assert cli.main(["run", "--scorer", JACCARD, "--test", str(both), "--out", str(tmp_path / "ob")]) == 0
    new = len(pairs_b - pairs_a)
    assert new >= 25 and sum(_calls) == PROBE + new  # the probe of A's stored scores, then B's pairs alone
    assert f"note: {len(pairs_a)} of {len(pairs_a | pairs_b)} pair scores from the pair-score cache" in \
        capsys.readouterr().err
    stored = pair_score_cache.read_store(_store(tmp_path), embedding_cache.callable_identity(JACCARD,
                                                                                         pair_scorers.jaccard))
    assert len(stored[0]) == len(pairs_a | pairs_b)
    expected = {pair_score_cache.pair_hash(p): jaccard_by_hand(*p) for p in pairs_a | pairs_b}
    assert all(expected[h] == s for h, s in zip(stored[0].tolist(), stored[1].tolist()))


def test_a_model_feature_reuses_the_stored_scores_and_no_cache_reads_and_writes_nothing(tmp_path, capsys, _calls,
                                                                                          data_dir):
    train, test = pairs_tsv(tmp_path / "train.tsv", 59, 1), pairs_tsv(tmp_path / "test.tsv", 40, 2)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", str(train), *SMALL, "--scorer", JACCARD, "--save", str(model), "--quiet"]) == 0
    assert cli.main(["run", "--scorer", JACCARD, "--test", str(test), "--out", str(tmp_path / "o1"), "--quiet"]) == 0
    _new_process()
    _calls.clear()
    capsys.readouterr()
    assert cli.main(["run", "regression", "--model", str(model), "--scorer", JACCARD, "--test", str(test),
                     "--out", str(tmp_path / "o2")]) == 0
    distinct = len(set(_test_pairs(test).pairs))
    assert _calls == [PROBE] and f"{distinct} of {distinct} pair scores from the pair-score cache" in \
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


def test_a_scorer_that_changes_its_mind_is_said_once_and_not_cached_and_a_stale_store_is_replaced(tmp_path,
                                                                                                    monkeypatch):
    pairs = [(f"a{i}", "b") for i in range(20)]
    module = tmp_path / "drifting.py"
    module.write_text("STEP = [0]\ndef score(pairs):\n    STEP[0] += 1\n    return [STEP[0] + len(a) for a, b in pairs]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from semsts.features.scorers import load_scorer
    drifting = load_scorer("drifting:score")
    with pytest.warns(Note) as notes:
        first = pair_score_cache.cached_scores(drifting, pairs, 64, spec="drifting:score")
        again = pair_score_cache.cached_scores(drifting, pairs, 64, spec="drifting:score")
    assert not np.array_equal(again, first) and not (tmp_path / "pair-score-cache").exists()  # nothing kept
    assert [str(n.message) for n in notes] == ["scorer drifting:score is not deterministic (it gave other scores for "
                                               "the same pairs from one call to the next): its scores are not cached"]
    # a scorer that changed without saying so (the same cache_version): its store is stale, replaced, then used
    steady = load_scorer("tests.pair_scorers:jaccard")
    monkeypatch.setattr(steady, "cache_version", "1", raising=False)
    pair_score_cache.cached_scores(steady, pairs, spec=JACCARD)
    _rewrite_store(_store(tmp_path), lambda s: s + 0.5)
    _new_process()
    with pytest.warns(Note) as notes:
        fresh = pair_score_cache.cached_scores(steady, pairs, spec=JACCARD)
    assert fresh.tolist() == [jaccard_by_hand(*p) for p in pairs]
    (message,) = [str(n.message) for n in notes]
    assert "stale (its scores of 8 pairs differ from what the scorer gives now); replaced" in message
    _new_process()
    pair_scorers.CALLS.clear()
    assert pair_score_cache.cached_scores(steady, pairs, spec=JACCARD).tolist() == fresh.tolist()
    assert pair_scorers.CALLS == [PROBE]


def test_the_identity_follows_the_module_and_a_declared_version():
    assert embedding_cache.callable_identity(JACCARD, pair_scorers.jaccard).startswith(JACCARD + "@file-sha256:")
    assert embedding_cache.callable_identity("tests.pair_scorers:bounded", pair_scorers.bounded) != \
        embedding_cache.callable_identity(JACCARD, pair_scorers.jaccard)  # the spec is part of it
    assert embedding_cache.callable_identity(None, pair_scorers.jaccard) is None  # a bare callable is not cached
    assert pair_score_cache.pair_hash(("a", "b")) != pair_score_cache.pair_hash(("b", "a"))
    assert pair_score_cache.pair_hash(("a b", "c")) != pair_score_cache.pair_hash(("a", "b c"))
    assert pair_score_cache.pair_hash(("a", "b")) == hashlib.sha256(
        hashlib.sha256(b"a").digest() + hashlib.sha256(b"b").digest()).digest()


def test_a_store_that_is_a_link_or_not_a_store_is_not_followed_nor_used(tmp_path, capsys, _calls):
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    argv = ["run", "--scorer", JACCARD, "--test", str(test), "--out", str(tmp_path / "out")]
    assert cli.main([*argv, "--quiet"]) == 0
    store = _store(tmp_path)
    target = tmp_path / "elsewhere.bin"
    store.rename(target)
    store.symlink_to(target)
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert f"pair-score cache {store}: not a regular file" in err and store.is_symlink()
    assert "could not be written" in err
    store.unlink()
    store.write_bytes(b"PK\x03\x04 something else")
    assert cli.main(argv) == 0
    assert "damaged (not a pair-score store); recomputing its pairs" in capsys.readouterr().err
    assert store.read_bytes().startswith(pair_score_cache.MAGIC)


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


SCORES_TAMPER = {
    "NaN": lambda s: np.full_like(s, np.nan),
    "zeros": np.zeros_like,
    "reversed": lambda s: s[::-1],
    "scaled": lambda s: s * 1.01,
    "a score short": lambda s: s[:-1],
    "a score more": lambda s: np.append(s, 1.0),
    "none": lambda s: s[:0],
}


@pytest.mark.parametrize("tamper", SCORES_TAMPER)
def test_a_re_signed_pair_score_store_is_checked_recomputed_and_never_used(tmp_path, monkeypatch, tamper):
    (tmp_path / "distinct.py").write_text("def score(pairs):\n    return [len(a) + len(b) / 100 for a, b in pairs]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from semsts.features.scorers import load_scorer
    score, pairs = load_scorer("distinct:score"), [("x" * i, "y" * (i % 3)) for i in range(1, 41)]
    first = pair_score_cache.cached_scores(score, pairs, spec="distinct:score")
    _rewrite_store(_store(tmp_path), SCORES_TAMPER[tamper])
    _new_process()
    with pytest.warns(Note) as notes:
        again = pair_score_cache.cached_scores(score, pairs, spec="distinct:score")
    assert again.tolist() == first.tolist()
    (message,) = [str(n.message) for n in notes]
    assert message.endswith(("; replaced", "; recomputing its pairs")), message


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
                     "version:22 (its module or its cache_version changed): the model gives what it learned from the "
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
    assert err[-1] == (f"error: {test}:{first + 1}: scorer ranged:score gave 7, outside the score_range [0, 5] it "
                       f"declares, for the pair ({pair[0]!r:.60}, {pair[1]!r:.60})")
    assert not any("kept" in line for line in err) and not (tmp_path / "pair-score-cache").exists()
    # in sts train, the scorer's NaN is at the training file's line
    assert cli.main(["train", "--train", str(test), *SMALL, "--scorer", "nan_b:score", "--save",
                     str(tmp_path / "m.skops"), "--quiet"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"error: {test}:{first + 1}: scorer nan_b:score gave a NaN or infinite score for the pair")


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
