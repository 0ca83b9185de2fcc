"""Tests of semsts.core.run_settings: featurization on a dask.distributed cluster gives identical results."""
import sys
from pathlib import Path

import numpy as np
import pytest

from semsts import corpora
from semsts.baselines.regression import FeatureRegression
from semsts.core.run_settings import run_settings

# --- Featurization on a dask.distributed cluster (joblib's dask backend) gives identical results.

ROOT = Path(__file__).resolve().parents[1]
distributed = pytest.importorskip("dask.distributed")  # a declared dev dependency: present in CI


@pytest.mark.slow  # about 20 s: starts a dask cluster
def test_dask_local_cluster_gives_identical_predictions(monkeypatch):
    from semsts.core import workers
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 0)  # the cluster's workers even for 60 pairs
    train, test = corpora.load("demo-train"), corpora.load("demo-test")
    pairs, gold, unseen = train.pairs[:200], train.gold[:200], test.pairs[:60]
    grid = {"C": [2.0], "gamma": [0.003], "epsilon": [0.1]}
    local = FeatureRegression(feature_set="takelab", param_grid=grid).fit(pairs, gold)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        with run_settings(backend="dask", scheduler=cluster.scheduler_address):
            remote = FeatureRegression(feature_set="takelab", param_grid=grid).fit(pairs, gold)
            for system in (local, remote):  # several chunks, spread over both workers
                system.pipeline_.named_steps["features"].set_params(chunk_size=25)
            on_cluster = remote.predict(unseen)
        import gc
        with distributed.Client(cluster) as client:  # a dask worker may serve others' work: ours freezes nothing there
            frozen = client.run(gc.get_freeze_count)
    assert len(frozen) == 2 and set(frozen.values()) == {0}
    assert np.array_equal(on_cluster, local.predict(unseen))
    assert remote.best_params_ == local.best_params_ and remote.cv_score_ == local.cv_score_


# --- Issue 22: workers only where they pay, every result in order, the default the cores a run was given.


def test_chunks_run_here_below_the_threshold_and_through_joblib_above(monkeypatch):
    import joblib

    from semsts.core import workers
    from semsts.features import featurizer
    items = list(range(10))
    calls = []
    monkeypatch.setattr(featurizer, "Parallel", lambda **kw: calls.append(kw) or joblib.Parallel(**kw))
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 11)
    assert [list(c) for c in featurizer.map_chunks(list, items, 3)] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert not calls  # ten items: in this process
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 10)
    assert len(list(featurizer.map_chunks(list, items, 3, workers=False))) == 4 and not calls  # an encoder's
    with joblib.parallel_config(backend="loky", n_jobs=2):
        assert [list(c) for c in featurizer.map_chunks(list, items, 3)] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert calls == [{"return_as": "generator"}]


def test_chunks_of_long_pairs_are_bounded_by_their_characters_and_go_to_workers(monkeypatch):
    """Issue 46: a chunk holds at most CHUNK_CHARS characters (200 pairs of 5,000-character sides in one chunk took
    2.2 GB), a pair longer than that is a chunk of its own; few pairs holding many characters go to workers."""
    import joblib

    from semsts.core import workers
    from semsts.features import featurizer
    monkeypatch.setattr(featurizer, "CHUNK_CHARS", 10)
    assert featurizer.chunk_bounds(6, 4, [3, 3, 3, 3, 3, 3]) == [(0, 3), (3, 6)]  # 9 characters each
    assert featurizer.chunk_bounds(5, 2, [1, 1, 1, 1, 1]) == [(0, 2), (2, 4), (4, 5)]  # the count still closes one
    assert featurizer.chunk_bounds(3, 4, [2, 25, 2]) == [(0, 1), (1, 2), (2, 3)]  # 25 > 10: alone
    assert featurizer.chunk_bounds(0, 4, []) == [] == featurizer.chunk_bounds(0, 4)
    assert featurizer.pair_chars([("ab", "c"), ("", "")]) == [3, 0]
    pairs = [("a" * 4, "b" * 4)] * 6  # 8 characters a pair: one a chunk
    calls = []
    monkeypatch.setattr(featurizer, "Parallel", lambda **kw: calls.append(kw) or joblib.Parallel(**kw))
    monkeypatch.setattr(workers, "PARALLEL_MIN_CHARS", 48)
    with joblib.parallel_config(backend="loky", n_jobs=2):
        chunks = list(featurizer.map_chunks(list, pairs, 500, chars=featurizer.pair_chars(pairs)))
        assert chunks == [[pair] for pair in pairs] and calls  # 48 characters in six pairs: workers
        calls.clear()
        monkeypatch.setattr(workers, "PARALLEL_MIN_CHARS", 49)
        assert list(featurizer.map_chunks(list, pairs, 500, chars=featurizer.pair_chars(pairs))) == chunks
        assert not calls  # too little work: here, in the same chunks


def test_the_command_lines_default_to_the_cores_a_run_was_given(capsys):
    import os

    from semsts.cli import build_parser
    from semsts.core import run_settings as parallel
    cores = len(os.sched_getaffinity(0))
    assert parallel.available_cores() == cores
    parsers = {"bench": (build_parser(), ["bench", "token-cosine"]), "run": (build_parser(), ["run", "token-cosine", "--test", "t",
                                                                                    "--out", "o"]),
               "train": (build_parser(), ["train", "--regime", "stsb", "--save", "m.skops"])}
    for name, (parser, argv) in parsers.items():
        assert parser.parse_args(argv).n_jobs == cores, name
        assert parser.parse_args([*argv, "--n-jobs", "3"]).n_jobs == 3, name
        for bad in ("0", "-1", "two"):
            with pytest.raises(SystemExit):
                parser.parse_args([*argv, "--n-jobs", bad])
            assert "--n-jobs" in capsys.readouterr().err, name


def test_errors_raised_in_a_worker_come_back_whole():
    import pickle

    from semsts.baselines.base import PairError
    from semsts.features.encoders import NonFiniteEmbedding
    for error in (PairError(4, "cannot be scored"), NonFiniteEmbedding("mine:encode", "a text")):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error) and vars(back) == vars(error)


def test_a_featurizer_with_an_encoder_stays_in_this_process():
    from semsts.features.featurizer import PairFeaturizer
    assert PairFeaturizer().in_workers() and not PairFeaturizer(encoder="glove-mean").in_workers()


def _warns(chunk):
    import warnings

    from semsts.core.errors import Note
    warnings.warn(Note(f"chunk of {len(chunk)} starting at {chunk[0]}"), stacklevel=1)
    return list(chunk)


def test_a_workers_notes_reach_the_caller(monkeypatch):
    """A note raised in a worker process (e.g. GST's CappedPair) is raised again in the calling process, where the
    command line prints it as a `note:` line, instead of going to the worker's stderr in Python's raw form."""
    import joblib

    from semsts.core import workers
    from semsts.core.errors import Note
    from semsts.features import featurizer
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 0)
    with joblib.parallel_config(backend="loky", n_jobs=2), pytest.warns(Note) as caught:
        assert [list(c) for c in featurizer.map_chunks(_warns, list(range(5)), 2)] == [[0, 1], [2, 3], [4]]
    assert sorted(str(w.message) for w in caught) == ["chunk of 1 starting at 4", "chunk of 2 starting at 0",
                                                      "chunk of 2 starting at 2"]


def test_more_workers_than_cores_are_cut_to_the_cores_with_a_note():
    import argparse

    import joblib

    from semsts.core.errors import Note
    from semsts.core.run_settings import available_cores
    from semsts.options import settings
    args = argparse.Namespace(n_jobs=available_cores() + 7, backend="loky", scheduler=None)
    with pytest.warns(Note, match=f"--n-jobs {available_cores() + 7}: this process may use {available_cores()}"):
        with settings(args):
            assert joblib.parallel.get_active_backend()[1] == available_cores()
    args.n_jobs = available_cores()
    with settings(args):
        assert joblib.parallel.get_active_backend()[1] == available_cores()


def test_then_runs_beside_the_next_chunk_in_this_process_with_two_jobs_and_gives_the_same_results():
    """Issue 22: below the workers' threshold, a chunk's ``then`` (the SVR) runs in a thread while the next chunk
    is featurized, when the caller allows two jobs; in order, and the same results as one after another."""
    import threading

    from joblib import parallel_config

    from semsts.features.featurizer import map_chunks
    where = []

    def then(rows):
        where.append(threading.current_thread() is threading.main_thread())
        return [x * 2 for x in rows]
    items = list(range(23))
    with parallel_config(n_jobs=1):
        one = list(map_chunks(lambda c: [x + 1 for x in c], items, 5, then=then))
    assert where == [True] * 5
    where.clear()
    with parallel_config(n_jobs=2):
        two = list(map_chunks(lambda c: [x + 1 for x in c], items, 5, then=then))
    assert where == [False] * 5 and one == two == [[2 * (x + 1) for x in items[i:i + 5]] for i in range(0, 23, 5)]


def test_full_collections_are_rarer_only_while_a_chunk_runs_in_a_worker_or_here():
    """Issue 22: a worker's chunk runs with full garbage collections rarer (they walked WordNet's and the model's
    tables again and again); the threshold is Python's own again after it."""
    import gc

    from semsts.features.featurizer import _warnings_kept, rare_full_collections
    before = gc.get_threshold()
    out, caught = _warnings_kept(lambda chunk: (gc.get_threshold(), chunk), [1])
    assert out == (tuple(max(a, b) for a, b in zip(before, (20_000, 10, 100))), [1]) and caught == []
    assert gc.get_threshold() == before
    with pytest.raises(ZeroDivisionError), rare_full_collections():
        raise ZeroDivisionError
    assert gc.get_threshold() == before
    from joblib import parallel_config

    from semsts.features.featurizer import map_chunks
    with parallel_config(n_jobs=1):  # and a chunk featurized in this process (sts run on a test set)
        assert [t for chunk in map_chunks(lambda c: [gc.get_threshold()] * len(c), [1, 2, 3], 2) for t in chunk] \
            == [out[0]] * 3
    assert gc.get_threshold() == before


def _frozen_in_worker(chunk):
    import gc
    return [gc.get_freeze_count()] * len(chunk)


def test_a_worker_puts_what_its_first_chunk_loaded_out_of_the_collectors_reach_and_this_process_does_not(monkeypatch):
    """Issue 46: without psutil, loky collects garbage after a worker's tasks; a loky worker moves what it holds after its
    first chunk (the model, WordNet, word frequencies) out of the collector's reach (``gc.freeze``), so that those
    collections do not walk it again. The calling process, featurizing in its own chunks, freezes nothing."""
    import gc

    import joblib

    from semsts.core import workers
    from semsts.features import featurizer
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 0)
    with joblib.parallel_config(backend="loky", n_jobs=2):
        counts = [n for chunk in featurizer.map_chunks(_frozen_in_worker, list(range(40)), 2) for n in chunk]
    assert max(counts) > 0  # frozen after a first chunk (this one, or an earlier test's in a reused worker)
    before = gc.get_freeze_count()
    with joblib.parallel_config(n_jobs=1):
        assert list(featurizer.map_chunks(_frozen_in_worker, list(range(4)), 2)) == [[before] * 2] * 2
    assert gc.get_freeze_count() == before == 0


def test_a_shipped_object_is_pickled_once_and_unpickled_once_per_process():
    """Issue 22: a model's pipeline goes to the workers pickled once, and each worker unpickles it on its first
    chunk and keeps it (a few at most); what standard pickle cannot take is sent as joblib sends it."""
    import pickle

    from semsts.features import featurizer
    shipped = featurizer.Shipped({"table": list(range(1000))})
    first, second = pickle.dumps(shipped), pickle.dumps(shipped)
    assert first == second and shipped._blob is not None
    featurizer._RECEIVED.clear()
    a, b = pickle.loads(first), pickle.loads(second)
    assert a == shipped.obj and a is b and a is not shipped.obj
    for _ in range(6):
        pickle.loads(pickle.dumps(featurizer.Shipped([1])))
    assert len(featurizer._RECEIVED) <= 4
    assert pickle.loads(pickle.dumps(featurizer.Shipped(len))) is len
    with pytest.raises((pickle.PicklingError, AttributeError)):  # by value, as plain pickle (joblib's cloudpickle can)
        pickle.dumps(featurizer.Shipped(lambda chunk: chunk))
    assert featurizer._shipped_call(featurizer.Shipped((sum, None)), [1, 2]) == 3


def test_workers_take_chunks_up_to_twice_the_size_about_a_dozen_a_job(monkeypatch):
    """Issue 22: through joblib a chunk grows to about CHUNKS_PER_JOB a job, at most twice the featurizer's
    chunk size (each chunk costs a worker a fixed share); in this process it stays as it is; the results too."""
    import joblib

    from semsts.core import workers
    from semsts.features import featurizer
    monkeypatch.setattr(workers, "PARALLEL_MIN_PAIRS", 10)
    with joblib.parallel_config(backend="loky", n_jobs=2):
        for items, size in ((list(range(400)), 10), (list(range(100)), 5), (list(range(150)), 7)):
            lengths = [len(c) for c in featurizer.map_chunks(list, items, 5)]
            assert sum(lengths) == len(items) and lengths[0] == size, (len(items), lengths)
            assert [x for c in featurizer.map_chunks(list, items, 5) for x in c] == items
    assert [len(c) for c in featurizer.map_chunks(list, list(range(400)), 5, workers=False)][0] == 5


def test_what_a_bench_reads_before_starting_its_workers_imports_no_scikit_learn(data_dir):
    """Issue 22: ``sts bench --model`` starts its workers after reading its datasets and the model's card, before
    the second this process spends importing scikit-learn (its workers start on the core it leaves idle)."""
    import subprocess
    code = ("import sys; from semsts import bench, options; from semsts.baselines import bench_predictions as b, registry; "
            "from semsts.baselines.model_card import read_card; from semsts.core import workers; "
            "from semsts.scoring import conventions; from semsts.scoring.bench import FAMILY; "
            "ds, _ = b.present_datasets(['stsb-test'], sys.argv[1]); registry.system_names(); "
            "assert len(b.scored_subset(ds[0].subsets[0])[0].pairs) == 1379; "
            "assert read_card(sys.argv[2])['feature_set'] == 'reference'; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'scipy', 'skops', 'nltk')))")
    done = subprocess.run([sys.executable, "-c", code, str(data_dir), str(ROOT / "models" / "stsb.skops")],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.strip() == "[]", (done.stdout, done.stderr)
