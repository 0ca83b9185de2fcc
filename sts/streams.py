"""The command lines' standard streams when they are closed, their reader has gone, or they cannot be written.

``sts … >&-`` leaves Python no stdout (``None``): print would drop the output, a write or a worker pool's
start-up would raise, so a closed stream stands in as the null device, as print treats it. A reader that goes
away (``sts … | head -1``) has what it wanted: the command ends quietly with its code. A stream that cannot
be written (``> /dev/full``) gives one ``error:`` line, never a traceback. While a command works, what Python
code prints goes to stderr (:func:`stdout_to_stderr`), so that a user's encoder that prints cannot get into the
command's result.
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
    flush of what is left in its buffer raises nothing (as Python's documentation of SIGPIPE does)."""
    devnull, fd = os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno()
    if devnull != fd:
        os.dup2(devnull, fd)
        os.close(devnull)


def stdout_to_stderr():
    """Within the block, what Python code prints to ``sys.stdout`` goes to stderr: a user's encoder that prints
    cannot get into the command's output (``sts bench --format json``), written after the block."""
    return contextlib.redirect_stdout(sys.stderr)

