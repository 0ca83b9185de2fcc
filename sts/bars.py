"""The command lines' progress displays on stderr: live tqdm bars on a terminal, plain lines in a log.

On a terminal a bar redraws itself in place (carriage returns, cursor moves). Written to a file or a pipe,
that is a log full of control characters, so there every display here is :class:`PlainBar`: whole lines
ending in a newline, with no ``\\r`` and no escape code: one when a loop passes each tenth of its total once it
has run a second (a line per item of a short loop), one every :data:`PlainBar.every`
seconds for a loop of no known total or while one item takes long and no bar writes, and its last state
when it closes (none for one of many brief loops done within a second). :func:`bar` picks one, :func:`write` writes a line under them.
"""
from __future__ import annotations

import math
import sys
import threading
import time
import weakref

_OPEN: "weakref.WeakSet[PlainBar]" = weakref.WeakSet()  # the plain bars not yet closed (end_progress_lines ends them)
_WRITING = threading.Lock()
_LAST = {}  # clock -> when the last line of a bar on that clock was written (a heartbeat waits for a quiet minute)


def on_a_terminal() -> bool:
    """Whether stderr is a terminal (live bars) or a log (plain lines)."""
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed stream
        return False


def bar(iterable=None, *, brief: bool = False, **options):
    """A progress display on stderr taking tqdm's options (``desc``, ``total``, ``unit``, ``unit_scale``,
    ``leave``, ``bar_format``, ``disable``): a tqdm bar on a terminal, a :class:`PlainBar` in a log. ``brief``: one
    of many short loops (each subset's texts encoded), of which a log shows none done within a second."""
    if on_a_terminal():
        from tqdm import tqdm
        return tqdm(iterable, file=sys.stderr, **options)
    return PlainBar(iterable, brief=brief, **options)


def write(text: str) -> None:
    """``text`` on a line of its own on stderr, under the live bars on a terminal (which are redrawn after it)."""
    if on_a_terminal():
        from tqdm import tqdm
        tqdm.write(text, file=sys.stderr)
    else:
        _line(text)


def _line(text: str) -> None:
    with _WRITING:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def close_all() -> None:
    """Close the plain bars still open (an interrupted command): each writes its last state on a line."""
    for plain in list(_OPEN):
        plain.close()


class PlainBar:
    """tqdm's interface as used here (iterate, ``update``, ``refresh``, ``close``, ``n``, ``total``), written as
    plain lines: ``desc: 40% 1,024/2,560 texts [00:06<00:09, 170.2 texts/s]``.

    A line when ``n`` passes each tenth of ``total`` (``steps`` of them) once the loop has run :data:`quick`
    seconds, or, with no total, at most every :data:`every` seconds; ``refresh`` (a heartbeat while one item takes
    long) writes one after :data:`every` seconds with no line of any bar; ``close`` writes the last state unless the
    last line showed it, or the loop is ``brief`` (one of many) and was done within :data:`quick` seconds (a stopped
    loop always says how far it got)."""

    every = 60.0  # seconds between the lines of a loop that has no total, or that waits on one item
    steps = 10
    quick = 1.0  # seconds: a loop writes no line on its way sooner, and a brief one done sooner none at all

    def __init__(self, iterable=None, *, desc: str = "", total=None, unit: str = "it", unit_scale: bool = False,
                 bar_format: str | None = None, disable: bool = False, leave=True, file=None, brief: bool = False,
                 clock=time.monotonic, **_ignored):
        if total is None and iterable is not None:
            try:
                total = len(iterable)
            except TypeError:
                total = None
        self.iterable, self.desc, self.total, self.unit, self.unit_scale = iterable, desc, total, unit, unit_scale
        self.bar_format, self.disable, self.brief, self.clock = bar_format, disable, brief, clock
        self.n = 0
        self.start = self._last_time = clock()
        self._tenth = 0  # the tenths of the total the lines have shown
        self._shown = None  # n as the last line showed it
        self.closed = disable
        self.final_line = True  # False: close writes no line of the last state (another display took over)
        if not disable:
            _OPEN.add(self)

    def __len__(self):
        return self.total if self.total is not None else len(self.iterable)

    def __iter__(self):
        try:
            for item in self.iterable:
                yield item
                self.update(1)
        finally:
            self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def update(self, n: int = 1) -> None:
        if self.disable or self.closed:
            return
        self.n += n
        if self.total:
            tenth = min(self.steps, math.floor(self.steps * self.n / self.total))
            if tenth > self._tenth:
                self._tenth = tenth
                if self.clock() - self.start >= self.quick:  # a loop done in a blink says nothing on its way
                    self._show()
        elif self.clock() - self._last_time >= self.every:
            self._show()

    def refresh(self) -> None:
        """A heartbeat: a line if no bar has written one for :data:`every` seconds (an inner bar's lines do)."""
        if not (self.disable or self.closed) and \
                self.clock() - max(self._last_time, _LAST.get(self.clock, self._last_time)) >= self.every:
            self._show()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        _OPEN.discard(self)
        if not self.final_line or (self._shown == self.n and self.bar_format is None):
            return
        quick_and_done = (self.brief and self.total and self.n >= self.total and self._shown is None
                          and self.clock() - self.start < self.quick)
        if not quick_and_done:  # a ticker's last line is its elapsed time; a stopped loop's, how far it got
            self._show()

    def set_description(self, desc: str, refresh: bool = True) -> None:
        self.desc = desc

    def _show(self) -> None:
        self._shown, self._last_time = self.n, self.clock()
        _LAST[self.clock] = self._last_time
        _line(str(self))

    def __str__(self) -> str:
        from tqdm import tqdm
        elapsed = self.clock() - self.start
        if self.bar_format is not None:
            text = tqdm.format_meter(self.n, self.total, elapsed, prefix=self.desc, bar_format=self.bar_format)
            return text.replace("\r", " ").replace("\x1b", " ")
        unit = self.unit if self.unit_scale else f" {self.unit}" if self.unit != "it" else ""
        rate = self.n / elapsed if elapsed > 0 else None
        if rate is None:
            speed = f"? {self.unit}/s"
        elif self.unit_scale:
            speed = f"{tqdm.format_sizeof(rate)}{self.unit}/s"
        elif rate and rate < 1:  # a slow loop: seconds per item, as tqdm shows it
            speed = f"{1 / rate:,.1f} s/{self.unit}"
        else:
            speed = f"{rate:,.1f} {self.unit}/s"
        times = tqdm.format_interval(elapsed)
        if self.total:
            left = tqdm.format_interval((self.total - self.n) / rate) if rate and self.n <= self.total else "?"
            counts = f"{100 * self.n / self.total:3.0f}% {self._count(self.n)}/{self._count(self.total)}{unit}"
            times += f"<{left}"
        else:
            counts = f"{self._count(self.n)}{unit}"
        return f"{self.desc}: {counts} [{times}, {speed}]"

    def _count(self, n) -> str:
        if self.unit_scale:
            from tqdm import tqdm
            return tqdm.format_sizeof(n)
        return f"{n:,}"
