"""Errors raised by the data layer (subclasses of :class:`semsts.core.errors.STSError`); each names the file, line
or dataset at fault."""
from __future__ import annotations

from semsts.core.errors import MAX_MESSAGE, STSError


class FormatError(ValueError, STSError):
    """A file does not follow its format: ``path:line: what is wrong`` (the message bounded in length)."""

    def __init__(self, path, line: int | None, message: str):
        if len(message) > MAX_MESSAGE:
            message = f"{message[:MAX_MESSAGE]}… (message cut, {len(message):,} characters)"
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


class DatasetNotFound(FileNotFoundError, STSError):
    """A named dataset is unknown or absent from the data root."""


class SubsetNotFound(KeyError, STSError):
    """A dataset (or a leaderboard) has no part of that name; the message says which it has."""

