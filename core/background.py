"""Work in threads beside the caller's, which the caller does not wait for when it leaves early.

A ``ThreadPoolExecutor``'s block joins its threads when it is left, and the exit joins them again. After Ctrl-C
that can be for ever: an interrupt that lands inside an import can leave Python's import lock held by the main
thread, and a thread that then imports waits on it (``sts bench --model`` hung so as it loaded its model).
"""
from __future__ import annotations

import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterator


class Background:
    """``function(*args)`` started now in a daemon thread; :meth:`result` waits for its value or raises its error."""

    def __init__(self, function: Callable, *args):
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(function, args), daemon=True)
        self._thread.start()

    def _run(self, function, args) -> None:
        try:
            self._value = function(*args)
        except BaseException as exc:  # handed to result(), in the caller's thread
            self._error = exc

    def result(self):
        self._thread.join()
        if self._error is not None:
            error, self._error = self._error, None
            raise error
        return self._value


@contextlib.contextmanager
def thread_pool(workers: int) -> Iterator[ThreadPoolExecutor]:
    """A ``ThreadPoolExecutor`` that is waited for when its block ends as written, and not when an error or Ctrl-C
    leaves it (its queued tasks are cancelled; the exit bounds the rest: see ``semsts.cli``)."""
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
