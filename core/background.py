"""A thread pool that the caller does not wait for when it leaves early.

A ``ThreadPoolExecutor``'s block joins its threads when it is left. After Ctrl-C that can be for ever: an interrupt
that lands inside an import can leave Python's import lock held by the main thread, and a thread that then imports
waits on it (``sts bench --model`` hung so as it loaded its model). The exit after Ctrl-C is bounded by
``semsts.cli``; this keeps the block's own exit from waiting before it.
"""
from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator


@contextlib.contextmanager
def thread_pool(workers: int) -> Iterator[ThreadPoolExecutor]:
    """A ``ThreadPoolExecutor`` that is waited for when its block ends as written, and not when an error or Ctrl-C
    leaves it (its queued tasks are cancelled)."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="semsts")  # the suite's (semsts.cli.entry)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
