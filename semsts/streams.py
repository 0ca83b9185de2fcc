"""The command lines' standard streams when they are closed, their reader has gone, or they cannot be written.

``sts … >&-`` leaves Python no stdout (``None``): print would drop the output, a write or a worker pool's
start-up would raise, so a closed stream stands in as the null device, as print treats it. A reader that goes
away (``sts … | head -1``) has what it wanted: the command ends quietly with its code. A stream that cannot
be written (``> /dev/full``) gives one ``error:`` line, never a traceback.
"""
from __future__ import annotations

import os
import sys


def stand_in_for_closed() -> None:
    """Point ``sys.stdout`` / ``sys.stderr`` at the null device where the shell closed them (``None``)."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")


def quiet_closed_stdout() -> None:
    """Point stdout at /dev/null after it failed (its reader went away, its disk is full), so that the exit's
    flush of what is left in its buffer raises nothing."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def write_error(exc: OSError) -> str:
    """The one line that says an output stream could not be written (or another system error no command caught)."""
    if exc.filename is not None:
        return f"error: {exc.filename}: {exc.strerror or exc}"
    return f"error: cannot write the output: {exc.strerror or exc}"
