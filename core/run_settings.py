"""How a run executes (workers, joblib backend, dask scheduler, progress), set by the caller around it.

Estimators hold only what defines a model; ``with run_settings(n_jobs=2): system.fit(…)`` runs
featurization and the CV fits on two workers, with the same result as one.
"""
from __future__ import annotations

import os
from contextlib import ExitStack, contextmanager

from joblib import parallel_config
from threadpoolctl import threadpool_limits

from semsts.core.errors import InvalidValue
from semsts.core.extras import need
from semsts.core.progress import reporting

BACKENDS = ("loky", "threading", "dask")


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a container or ``taskset`` narrows)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity on this platform
        return os.cpu_count() or 1


@contextmanager
def run_settings(*, n_jobs: int = 1, backend: str = "loky", scheduler=None, progress=None):
    """Within the block, joblib work runs on ``n_jobs`` workers of ``backend`` (dask: on the cluster at
    ``scheduler``) and featurization passes its chunks through ``progress``; joblib refuses another ``backend``."""
    if backend == "dask" and not scheduler:
        raise InvalidValue("backend 'dask' needs a scheduler address (--scheduler HOST:PORT)")
    with ExitStack() as stack:
        if backend == "dask":  # a dask.distributed client on the scheduler for the block, closed after it
            client = stack.enter_context(need("dask.distributed", "dask", "--backend dask").Client(scheduler, set_as_default=False))
            stack.enter_context(client.as_current())
        stack.enter_context(parallel_config(backend=backend, n_jobs=n_jobs))
        # one BLAS thread in this process (loky gives each worker its share of the cores): OpenBLAS's own
        # threads only oversubscribe the cores a run was given (TruncatedSVD 15-25x slower under load)
        stack.enter_context(threadpool_limits(limits=1, user_api="blas"))
        stack.enter_context(reporting(progress))
        yield
