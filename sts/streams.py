"""The command lines' standard streams when they are closed, their reader has gone, or they cannot be written.

``sts … >&-`` leaves Python no stdout (``None``): print would drop the output, a write or a worker pool's
start-up would raise, so a closed stream stands in as the null device, as print treats it. A reader that goes
away (``sts … | head -1``) has what it wanted: the command ends quietly with its code. A stream that cannot
be written (``> /dev/full``) gives one ``error:`` line, never a traceback. While a command works, stdout is
stderr (:func:`stdout_to_stderr`), so that only its result reaches stdout; an interrupted command's progress
bars end their lines before it says so (:func:`end_progress_lines`).
"""
from __future__ import annotations

import contextlib
import os
import sys


def stand_in_for_closed() -> None:
    """Point ``sys.stdout`` / ``sys.stderr`` at the null device where the shell closed them (``None``): on the
    descriptor itself (1 or 2), which the worker processes inherit (a worker with no stderr fails to start)."""
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None:
            null = os.open(os.devnull, os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)  # inheritable, as the descriptor the shell would have given
                os.close(null)
            else:
                os.set_inheritable(fd, True)
            setattr(sys, name, open(fd, "w", encoding="utf-8", closefd=False))


def quiet_closed_stdout() -> None:
    """Point stdout at /dev/null after it failed (its reader went away, its disk is full), so that the exit's
    flush of what is left in its buffer raises nothing."""
    devnull, fd = os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno()
    if devnull != fd:
        os.dup2(devnull, fd)
        os.close(devnull)


def write_error(exc: OSError) -> str:
    """The one line that says an output stream could not be written (or another system error no command caught)."""
    if exc.filename is not None:
        return f"error: {exc.filename}: {exc.strerror or exc}"
    return f"error: cannot write the output: {exc.strerror or exc}"


@contextlib.contextmanager
def stdout_to_stderr():
    """Within the block, what anything writes to stdout goes to stderr: ``sys.stdout`` is stderr, and so is
    descriptor 1, which C code writes to and the worker processes started meanwhile inherit. A user's encoder
    that prints cannot get into the command's output (``sts bench --format json``), written after the block."""
    saved = sys.stdout
    if saved is not None:
        saved.flush()  # what is already ours goes out first
    try:
        kept = os.dup(1)  # not inheritable: no worker holds the real stdout
    except OSError:  # no descriptor 1 (an embedding host): Python's level only
        kept = None
    else:
        try:
            os.dup2(2, 1)
        except OSError:  # no descriptor 2 either
            os.close(kept)
            kept = None
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = saved
        if kept is not None:
            with contextlib.suppress(OSError, ValueError):  # text written past sys.stdout (sys.__stdout__) is stderr's
                sys.stderr.flush()
                if saved is not None:
                    saved.flush()
            os.dup2(kept, 1)
            os.close(kept)


def in_a_log() -> bool:
    """Whether stderr is a log (not a terminal): there a closed progress bar keeps its last state on its own line,
    so the log shows how far each bar got and the next line never starts after a carriage return; on a terminal
    closed bars are wiped."""
    isatty = getattr(sys.stderr, "isatty", None)
    return not (isatty and isatty())


def end_progress_lines() -> None:
    """Close the progress bars an interrupted command left drawn on stderr (innermost first), so that the next line
    starts at column 0: in a log each ends its line (:func:`in_a_log`), on a terminal it is wiped."""
    from .bars import close_all
    with contextlib.suppress(OSError, ValueError):
        close_all()  # the plain lines of a log: each bar's last state
    tqdm = getattr(sys.modules.get("tqdm"), "tqdm", None)  # not imported: no bar was drawn
    for bar in sorted(getattr(tqdm, "_instances", ()), key=lambda bar: -abs(getattr(bar, "pos", 0))):
        with contextlib.suppress(OSError, ValueError):
            bar.leave = bar.leave or in_a_log()
            bar.close()


def output_done() -> None:
    """The command's output is complete: from here to the end of the process (a user's encoder's exit handlers
    among what runs then), stdout is stderr, as it was while the command worked."""
    with contextlib.suppress(OSError, ValueError):
        if sys.stdout is not None:
            sys.stdout.flush()
        os.dup2(2, 1)
    sys.stdout = sys.stderr
