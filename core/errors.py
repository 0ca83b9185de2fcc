"""The library's error base class, its notes and the helpers its messages quote values with: an error a user can act
on is an :class:`STSError`, whichever layer raises it, so the command line reports them all in one place."""
from __future__ import annotations

MAX_QUOTE = 60  # characters of a bad value quoted in a message
MAX_MESSAGE = 400  # characters of a message, whatever it quotes


class STSError(Exception):
    """An error a user can act on (a dataset, a file, a value, a package); the command line prints it as one
    ``error: …`` line. Each subclass keeps its builtin base too (``ValueError``, ``OSError`` …), so that
    ``except ValueError`` callers still catch it."""


class InvalidValue(STSError, ValueError):
    """A value the library cannot use: an option, a setting or what a file holds."""


class Unavailable(STSError, RuntimeError):
    """Something the run needs is not there to be used (a package, a loading step)."""


class WriteFailed(OSError, STSError):
    """A file the suite was writing could not be written (a full disk); the message names it and what is left."""


class Note(UserWarning):
    """Something a user should know that does not stop the run; the command line prints it as ``note: …``."""


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """``repr`` of at most ``limit`` characters of ``text``, saying how long it was when cut."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def shown(text, limit: int = MAX_QUOTE) -> str:
    """``text`` (a value read from a file, e.g. a model card's) as a message may show it: control and format
    characters (ESC, CR, LF, bidi overrides) escaped as ``\\x1b``, ``\\u202e``, and at most ``limit`` characters of it,
    saying how long it was when cut; a short printable text is shown as it is."""
    text = str(text)
    cut = f"… ({len(text):,} characters)" if len(text) > limit else ""
    text = text[:limit]
    if not text.isprintable():
        text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    return text + cut
