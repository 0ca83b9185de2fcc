"""Ending a process without freeing its tables one by one: the ``sts`` process's exit and its loky workers'.

A process that has read WordNet, the word vectors, a model and their caches spends 0.3-0.6 s of CPU at the
ordinary exit freeing millions of objects no one will use again; a worker pool's caller waits for that too.
Both exits here flush the streams first and keep the ordinary exit under a profiler, tracer or coverage,
which write their results at it.
"""
from __future__ import annotations

import atexit
import os
import signal
import sys
import threading

_REGISTERED: list = []  # this process's pid once a worker's exit is registered (a forked child gets its own)


def observed() -> bool:
    """Whether a profiler, tracer or monitoring tool (cProfile, coverage, a debugger) watches this process: it
    writes its results at the ordinary exit."""
    monitoring = getattr(sys, "monitoring", None)
    tools = monitoring is not None and any(monitoring.get_tool(i) is not None for i in range(6))
    return sys.gettrace() is not None or sys.getprofile() is not None or tools


def flush_streams(code: int = 0) -> int:
    """Flush stdout and stderr (either may be None or closed); the exit code then, as Python gives it when
    stdout's reader has gone (``… | head``): 120."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = code or (120 if stream is sys.stdout else 0)
    return code


def in_loky_worker() -> bool:
    """Whether this process is a loky worker (joblib's default pool), whose pool waits for it at the caller's exit."""
    import multiprocessing
    if multiprocessing.current_process().name == "MainProcess":
        return False
    try:
        from joblib.externals.loky.backend.process import LokyProcess
    except ImportError:
        return False
    return isinstance(multiprocessing.current_process(), LokyProcess)


def end_worker_unfreed() -> None:
    """In a loky worker (nowhere else: a dask or multiprocessing worker's exit is its owner's), have its exit
    skip the freeing: the last exit handler to be registered runs first, flushes and ends the process, with
    status 0 (loky reads a worker's status only when one dies during a run, whose error it has printed)."""
    if _REGISTERED == [os.getpid()] or not in_loky_worker():
        return
    _REGISTERED[:] = [os.getpid()]
    atexit.register(_end_now)


# bytes a loky worker may grow by after its first task before loky calls it a leak and restarts it (loky: 300 MB)
TABLES_ALLOWANCE = 8 << 30


def keep_tables_as_no_leak() -> None:
    """In a loky worker: the tables featurizing loads (WordNet, GloVe, the gloss space, WordLlama's rows: hundreds of
    MB) are kept on purpose. Loky would call that growth a leak and restart the worker mid-run, cold, and before its
    first chunk the new worker answers Ctrl-C with a traceback."""
    executor = sys.modules.get("joblib.externals.loky.process_executor")
    if in_loky_worker() and executor is not None and getattr(executor, "_MAX_MEMORY_LEAK_SIZE", 0) < TABLES_ALLOWANCE:
        executor._MAX_MEMORY_LEAK_SIZE = TABLES_ALLOWANCE


def leave_ctrl_c_to_the_caller() -> None:
    """In a loky worker: ignore Ctrl-C, which a terminal sends to the whole process group. The process that started
    the worker answers it and ends its workers (joblib aborts them); a worker would only print a traceback."""
    if in_loky_worker() and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _end_now() -> None:
    """A worker's last exit handler: its streams flushed, the process ended here, unless something watches it."""
    if observed():
        return
    flush_streams()
    os._exit(0)
