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


def _nonempty(expected: str):
    """An argparse ``type``: a text that is not empty (an empty path would mean the current folder, an empty
    name or address the default); the error says what ``expected`` instead."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"is empty; {expected}")
        return text
    return parse


nonempty_path = _nonempty("name a directory (use . for the current one)")  # a directory path
nonempty_file = _nonempty("name a file")  # a file path
nonempty = _nonempty("give a value, or leave the option out")  # a name, path or address
