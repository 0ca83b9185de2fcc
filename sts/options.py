"""What the command lines share: the options that set how a run goes (``--n-jobs``, ``--backend``,
``--scheduler``: :func:`settings`), ``--columns``, and the progress bar on stderr that ``--quiet`` leaves out."""
from __future__ import annotations

import argparse
import threading
import time

from semsts import argtypes, bars, corpora
from semsts.core.run_settings import BACKENDS, available_cores, run_settings


def add_n_jobs(p, threads: str = "the SVR grid's fits") -> None:
    """``--n-jobs``: worker processes, and ``threads`` for what else the command runs in parallel."""
    p.add_argument("--n-jobs", type=argtypes.int_at_least(1), default=available_cores(), metavar="N",
                   help=f"worker processes that featurize and predict 6,000 pairs or more, and threads for {threads} "
                        f"(default and most: the cores this process may use, {available_cores()} here)")


def add_parallel_options(p) -> None:
    """``--n-jobs``, ``--backend`` and ``--scheduler`` (``sts run``, ``sts train``)."""
    add_n_jobs(p)
    p.add_argument("--backend", choices=BACKENDS, default="loky", help="joblib backend (dask: a cluster)")
    p.add_argument("--scheduler", help="dask scheduler address HOST:PORT for --backend dask")


def add_caching(p) -> None:
    """``--no-cache`` and ``--cache-version V`` (``sts run``, ``sts bench``) as ``args.cache``, a system's ``cache``:
    False, the version declared, else True (a user's function is cached when it declares its own ``cache_version``)."""
    group = p.add_mutually_exclusive_group()
    group.add_argument("--no-cache", dest="cache", action="store_false",
                       help="encode every text (score every pair) again: neither read nor write the per-user embedding "
                            "and pair-score caches (for a --scorer with --model too)")
    group.add_argument("--cache-version", dest="cache", metavar="V",
                       help="the version of your package.module:function encoders and scorers: their embeddings (pair "
                            "scores) are cached under it, so change it when they change (default: the function's "
                            "cache_version attribute; without either, nothing of it is cached)")
    p.set_defaults(cache=True)


def add_columns_option(p) -> None:
    p.add_argument("--columns", type=_columns, metavar="TEXT1,TEXT2[,SCORE]",
                   help="header names of the text (and score) columns of a plain TSV/CSV file")


def _columns(text: str) -> tuple:
    try:
        return corpora.tables.parse_columns(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def settings(args, progress=None):
    """The run settings the command line asks for (``--n-jobs``, ``--backend``, ``--scheduler``); on this machine,
    no more workers than the cores the process may use (each would only slow the others, and hold its own memory)."""
    n_jobs = args.n_jobs
    if args.backend != "dask" and n_jobs > available_cores():
        import warnings

        from semsts.core.errors import Note
        warnings.warn(Note(f"--n-jobs {n_jobs}: this process may use {available_cores()} core(s); "
                           f"running {available_cores()} worker(s)"), stacklevel=2)
        n_jobs = available_cores()
    return run_settings(n_jobs=n_jobs, backend=args.backend, scheduler=args.scheduler, progress=progress)


def progress_bar(args):
    """The command's progress hook on stderr (None with ``--quiet``); its step lines count the seconds from the
    first hook the command made, whichever bar shows them."""
    if args.quiet:
        return None
    args.started = getattr(args, "started", None) or time.monotonic()
    return _Bar(start=args.started)


class _Bar:
    """A picklable progress hook on stderr: bars over featurization chunks, over CV fits and folds and over the
    texts an encoder encodes (done/total, rate, time left), and one line per step (loading, final fit,
    predicting). While a step or a bar waits on one long item (an SVR fit, a batch of texts), the elapsed time
    is redrawn every ``tick`` seconds, so stderr never stays still. On a terminal the bars are live; in a log
    they are plain lines (:mod:`semsts.bars`). What an encoder (a scorer) read from the embedding (pair-score) cache is said in a note
    when the step ends (:meth:`close`)."""

    def __init__(self, tick: float = 2.0, start: float | None = None):
        self.tick = tick
        self.start = time.monotonic() if start is None else start
        self._beat = None
        self._cache = {}  # cache folder -> [texts read from it, texts encoded], since the step began

    def __getstate__(self):
        return {"tick": self.tick, "start": self.start, "_beat": None, "_cache": {}}

    def __call__(self, chunks):
        return self.over(chunks, "featurizing", unit="chunk")

    def over(self, items, desc: str, unit: str = "it"):
        self._end_beat(handed_over=True)
        return self._ticking(bars.bar(items, desc=desc, unit=unit, leave=False))

    def count(self, total: int, desc: str, unit: str):
        """A bar of ``total`` items, moved by ``update(n)``, ended by ``close()`` (:func:`semsts.core.progress.counting`)."""
        self._end_beat(handed_over=True)
        return _Heartbeat(bars.bar(total=total, desc=desc, unit=unit, leave=False, brief=True), self.tick)

    def cached(self, found: int, total: int, where, *, unit: str = "texts", cache: str = "embedding cache") -> None:
        """``found`` of ``total`` items came from the ``cache`` at ``where`` (said when the step ends)."""
        tally = self._cache.setdefault((str(where), unit, cache), [0, 0])
        tally[0] += found
        tally[1] += total

    def step(self, text: str) -> None:
        self.close()
        bars.write(f"[{time.monotonic() - self.start:5.0f}s] {text}")
        self._beat = _Heartbeat(bars.bar(desc="  working", bar_format="{desc}: {elapsed}", leave=False), self.tick)

    def close(self) -> None:
        """End the current step: its elapsed-time line, and a note of what came from the embedding and pair-score caches."""
        self._end_beat()
        tallies, self._cache = self._cache, {}
        for (where, unit, cache), (found, total) in tallies.items():
            from semsts.notes import note
            if found:
                note(f"{found:,} of {total:,} {unit} from the {cache} ({where})")
            else:
                verb = "encoded" if unit == "texts" else "computed"
                note(f"{total:,} {unit} {verb} and kept in the {cache} ({where})")

    def _end_beat(self, handed_over: bool = False) -> None:
        """Stop the step's elapsed-time ticker; ``handed_over`` to a bar that shows the step's progress, a log gets
        no line of its last state (the bar's lines follow), else it does."""
        if self._beat is not None:
            if handed_over:
                self._beat.bar.final_line = False
            self._beat.stop()
            self._beat = None

    def _ticking(self, bar):
        beat = _Heartbeat(bar, self.tick)
        try:
            yield from bar
        finally:
            beat.stop()


class _Heartbeat:
    """Redraws a bar every ``tick`` seconds (:func:`semsts.bars.tick`) from a daemon thread until stopped (then closes
    it); as a counter (:meth:`_Bar.count`), moved by ``update(n)`` and ended by ``close()``."""

    def __init__(self, bar, tick: float):
        self.bar, self.done = bar, threading.Event()
        self.thread = threading.Thread(target=self._run, args=(tick,), daemon=True)
        self.thread.start()

    def _run(self, tick: float) -> None:
        while not self.done.wait(tick):
            bars.tick(self.bar)

    def stop(self) -> None:
        self.done.set()
        self.thread.join()
        self.bar.close()

    def update(self, n: int) -> None:
        self.bar.update(n)

    def close(self) -> None:
        self.stop()
