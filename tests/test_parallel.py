"""Tests of semsts.baselines.parallel: featurization on a dask.distributed cluster gives identical results."""
import numpy as np
import pytest

from semsts import corpora
from semsts.baselines.parallel import run_settings
from semsts.baselines.regression import FeatureRegression

# --- Featurization on a dask.distributed cluster (joblib's dask backend) gives identical results.


distributed = pytest.importorskip("dask.distributed")  # a declared dev dependency: present in CI


@pytest.mark.slow  # about 20 s: starts a dask cluster
def test_dask_local_cluster_gives_identical_predictions():
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
    assert np.array_equal(on_cluster, local.predict(unseen))
    assert remote.best_params_ == local.best_params_ and remote.cv_score_ == local.cv_score_
