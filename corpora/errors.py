"""Errors raised by the data layer; each names the file and line at fault."""
from __future__ import annotations

MAX_QUOTE = 60  # characters of a bad value quoted in a message
MAX_MESSAGE = 400  # characters of a message, whatever it quotes


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


class FormatError(ValueError):
    """A file does not follow its format: ``path:line: what is wrong`` (the message bounded in length)."""

    def __init__(self, path, line: int | None, message: str):
        if len(message) > MAX_MESSAGE:
            message = f"{message[:MAX_MESSAGE]}… (message cut, {len(message):,} characters)"
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


class DatasetNotFound(FileNotFoundError):
    """A named dataset is unknown or absent from the data root."""


class Note(UserWarning):
    """Something a user should know that does not stop the run; the command line prints it as ``note: …``."""
