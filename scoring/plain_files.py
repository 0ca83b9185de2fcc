"""``GOLD SYS`` scored without numpy: the organizers' correlation.pl starts in a few hundredths of a second,
and so must we (issue 22). Only the plain case is taken here: two regular UTF-8 files, gold lines that are
each one score in range or empty (not scored), as many system lines each one score in range, neither side
constant. Anything else returns None and goes the full way (:func:`semsts.scoring.runs.score_files`), which
says what is wrong; tests check that both ways print the same figure on every file this one takes.
"""
from __future__ import annotations

import math
import os
import re
import stat

from semsts.core.files import too_large
from semsts.core.stats import pearson_plain

from .signature import gold_sys_signature

# The number syntax of semsts.corpora.formats (a plain ASCII decimal); tests check that the two agree.
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _lines(path) -> list[str] | None:
    """The lines of a regular UTF-8 file as :func:`semsts.corpora.formats.read_lines` gives them; None otherwise."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode) or too_large(path):  # a FIFO would hang, a folder has no lines
            return None
        with open(path, "rb") as handle:
            data = handle.read()
        text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _score(line: str, lo: float, hi: float) -> float | None:
    text = line.strip()
    if not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) and lo <= value <= hi else None


def score_plain_files(gold_path, sys_path, score_range=(0.0, 5.0)) -> tuple[float, object] | None:
    """``(r, signature)`` of a plain GOLD SYS pair of files, or None when they need the full scorer."""
    gold_lines, sys_lines = _lines(gold_path), _lines(sys_path)
    if not gold_lines or sys_lines is None or len(gold_lines) != len(sys_lines):
        return None
    lo, hi = score_range
    gold, scores = [], []
    for g, s in zip(gold_lines, sys_lines):
        score = _score(s, lo, hi)
        if score is None:
            return None
        if not g.strip():
            continue  # a pair not scored: dropped, as correlation.pl drops it
        value = _score(g, lo, hi)
        if value is None:
            return None
        gold.append(value)
        scores.append(score)
    if len(set(gold)) < 2 or len(set(scores)) < 2:
        return None  # an undefined (or one-pair) correlation: the full scorer says why
    unscored = len(gold_lines) - len(gold)
    return pearson_plain(scores, gold), gold_sys_signature(sys_path, len(gold), unscored)
