"""SICK (SemEval-2014 Task 1, Marelli et al. 2014): its tab-separated files with a header line.

``pair_ID<TAB>sentence_A<TAB>sentence_B<TAB>relatedness_score<TAB>entailment_judgment``; relatedness
is a mean of crowd ratings on a 1-5 scale, so the range is [1, 5], and every pair is scored.
"""
from __future__ import annotations

import numpy as np

from .errors import FormatError
from .formats import parse_number, read_lines

SICK_RANGE = (1.0, 5.0)
HEADER = ("pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_judgment")
JUDGMENTS = ("NEUTRAL", "ENTAILMENT", "CONTRADICTION")
FILES = {"train": "SICK_train.txt", "trial": "SICK_trial.txt", "test": "SICK_test_annotated.txt"}


def is_header(line: str) -> bool:
    """True for SICK's header line (extra columns after the five are allowed)."""
    return tuple(line.split("\t")[:len(HEADER)]) == HEADER


def read_sick(path, score_range: tuple[float, float] = SICK_RANGE) -> tuple[list[tuple[str, str]], np.ndarray, list[str]]:
    """``(pairs, relatedness, pair ids)``; the header, every field, each judgment and unique ids are checked."""
    lines = read_lines(path)
    if not lines or not is_header(lines[0]):
        got = repr(lines[0][:80]) if lines else "an empty file"
        raise FormatError(path, 1, f"expected the SICK header {'<TAB>'.join(HEADER)}, got {got}")
    width = len(lines[0].split("\t"))
    pairs, gold, ids, seen = [], [], [], {}
    for number, line in enumerate(lines[1:], 2):
        fields = line.split("\t")
        if len(fields) != width:
            raise FormatError(path, number, f"expected {width} tab-separated fields as the header has, got {len(fields)}")
        ident, first, second, score, judgment = fields[:5]
        if not ident.strip():
            raise FormatError(path, number, "expected a pair_ID, got an empty field")
        if ident in seen:
            raise FormatError(path, number, f"pair_ID {ident} repeats line {seen[ident]}")
        seen[ident] = number
        if not score.strip():
            raise FormatError(path, number, "expected a relatedness score, got an empty field (SICK scores every pair)")
        gold.append(parse_number(score, path, number, "relatedness score", score_range))
        if judgment not in JUDGMENTS:
            raise FormatError(path, number, f"expected an entailment judgment ({', '.join(JUDGMENTS)}), got {judgment!r}")
        pairs.append((first, second))
        ids.append(ident)
    return pairs, np.asarray(gold, dtype=float), ids
