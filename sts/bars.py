"""The command lines' progress displays on stderr, drawn by tqdm: live bars on a terminal, plain lines in a log.

Written to a file or a pipe, a live bar is a log full of carriage returns and escape codes, so there each bar is
tqdm's line written whole (:class:`LogBar`): one each tenth of a known total once the loop has run a second (else
one a minute), one a minute while a loop waits on an item (:func:`tick`), and its last state when it closes (none
for one of many brief loops done within a second; a stopped loop always says how far it got). :func:`bar` picks one, :func:`write` writes a line under them.
"""
from __future__ import annotations

import contextlib
import sys
import time
import weakref

from tqdm import tqdm

_OPEN: "weakref.WeakSet[tqdm]" = weakref.WeakSet()  # the bars not yet closed (close_all ends them)
_LAST_LINE = [0.0]  # when a log bar last wrote a line


def on_a_terminal() -> bool:
    """Whether stderr is a terminal (live bars) or a log (plain lines)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, OSError, ValueError):  # no stderr, or a closed one
        return False


def bar(iterable=None, *, brief: bool = False, **options):
    """A tqdm bar on stderr taking tqdm's options: live on a terminal, a :class:`LogBar` in a log. ``brief``: one
    of many short loops (each subset's texts encoded), of which a log shows none done within a second."""
    if on_a_terminal():
        display = tqdm(iterable, file=sys.stderr, **options)
    else:
        display = LogBar(iterable, brief=brief, **options)
    if not display.disable:
        _OPEN.add(display)
    return display


def write(text: str) -> None:
    """``text`` on a line of its own on stderr, under the live bars on a terminal (which are redrawn after it)."""
    if on_a_terminal():
        tqdm.write(text, file=sys.stderr)
    else:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def tick(display) -> None:
    """A heartbeat while one item takes long: a live bar redraws its elapsed time; a log gets a line when no bar
    has written one for a minute."""
    if not isinstance(display, LogBar) or time.monotonic() - _LAST_LINE[0] >= LogBar.every:
        display.refresh()


def close_all() -> None:
    """Close the bars an interrupted command left drawn on stderr, innermost first, so that the next line starts at
    column 0: a log gets each one's last state on a line of its own, a terminal's are wiped (unless kept)."""
    for display in sorted(_OPEN, key=lambda display: -abs(getattr(display, "pos", 0))):
        with contextlib.suppress(OSError, ValueError):  # a closed stderr
            display.close()


class LogBar(tqdm):
    """A tqdm bar written as whole lines (no carriage return, no escape code): tqdm's own line of its state."""

    every = 60.0  # seconds: a heartbeat's line in a quiet minute
    quick = 1.0  # seconds: a loop writes nothing on its way sooner, and a brief one done sooner nothing at all
    final_line = True  # False: close writes no line of the last state (another bar took over)
    shown = None  # n as the last line showed it
    monitor_interval = 0  # no tqdm monitor thread, which would make the lines more frequent

    def __init__(self, iterable=None, *, brief: bool = False, **options):
        self.brief = brief
        total = options.get("total", len(iterable) if hasattr(iterable, "__len__") else None)
        _LAST_LINE[0] = max(_LAST_LINE[0], time.monotonic())
        super().__init__(iterable, file=sys.stderr, ascii=True, delay=self.quick, maxinterval=float("inf"),
                         mininterval=0 if total else self.every,
                         miniters=max(1, total // 10) if total else None, **options)

    def display(self, msg=None, pos=None):
        if msg is None:  # tqdm's '' wipes a bar from a terminal: nothing to wipe in a log
            sys.stderr.write(f"{self}\n")
            sys.stderr.flush()
            self.shown, _LAST_LINE[0] = self.n, time.monotonic()
        return False

    def clear(self, nolock=False):
        pass  # nothing drawn to wipe

    def close(self):
        stopped = self.total and self.n < self.total  # a stopped loop always says how far it got
        quick = self.brief and self._time() - self.start_t < self.quick
        if not self.disable and self.final_line and (stopped or not quick) and \
                (self.shown != self.n or self.bar_format is not None):
            self.display()  # (a ticker's last line: its time)
        self.leave = False  # tqdm's own ending is a terminal's
        super().close()
