"""Errors raised by the data layer; each names the file and line at fault."""
from __future__ import annotations


class FormatError(ValueError):
    """A file does not follow its format: ``path:line: what is wrong``."""

    def __init__(self, path, line: int | None, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


class DatasetNotFound(FileNotFoundError):
    """A named dataset is unknown or absent from the data root."""
