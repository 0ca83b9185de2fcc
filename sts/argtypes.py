"""Argument types shared by the command lines: a bad value is a usage error (exit 2), never a traceback."""
from __future__ import annotations

import argparse


def int_at_least(minimum: int):
    """An argparse ``type``: a whole number ``>= minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number of at least {minimum}, got {value}")
        return value
    parse.__name__ = f"int>={minimum}"
    return parse


def int_between(minimum: int, maximum: int):
    """An argparse ``type``: a whole number in ``[minimum, maximum]`` (a bound that keeps a run finite)."""
    at_least = int_at_least(minimum)

    def parse(text: str) -> int:
        value = at_least(text)
        if value > maximum:
            raise argparse.ArgumentTypeError(f"expected a whole number of at most {maximum:,}, got {value:,}")
        return value
    parse.__name__ = f"{minimum}<=int<={maximum}"
    return parse


def nonempty_path(text: str) -> str:
    """An argparse ``type``: a directory path that is not the empty string (which would mean the current folder)."""
    return _nonempty(text, "name a directory (use . for the current one)")


def nonempty_file(text: str) -> str:
    """An argparse ``type``: a file path that is not the empty string."""
    return _nonempty(text, "name a file")


def nonempty(text: str) -> str:
    """An argparse ``type``: a name, path or address that is not the empty string (never read as "the default")."""
    return _nonempty(text, "give a value, or leave the option out")


def _nonempty(text: str, expected: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(f"is empty; {expected}")
    return text
