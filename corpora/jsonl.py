"""MTEB's Hugging Face exports of STS tasks (``mteb/biosses-sts``'s ``test.jsonl.gz``, ``mteb/sts22-crosslingual-sts``'s
``en/test.jsonl``): one JSON object a line with ``sentence1``, ``sentence2`` and ``score``, gzip-compressed or not.

The official readers' rules hold (UTF-8, a BOM and CRLF tolerated, ``FILE:LINE`` errors); a score must be a JSON
number in the task's range: a string, ``NaN``, ``Infinity`` or a missing score is an error, never a number.
"""
from __future__ import annotations

import gzip
import io
import json
import math
import zlib
from pathlib import Path

import numpy as np

from semsts.core.errors import MAX_QUOTE, quote
from semsts.core.files import MAX_DATA_BYTES

from .errors import FormatError
from .formats import check_regular, split_lines

FIELDS = ("sentence1", "sentence2", "score")


def read_bytes(path: Path) -> bytes:
    """The file's bytes, decompressed when it is gzip (by its magic bytes, not its name)."""
    check_regular(path)
    data = path.read_bytes()
    if not data.startswith(b"\x1f\x8b"):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = stream.read(MAX_DATA_BYTES + 1)  # decompressed, as bounded as a plain file
    except (OSError, EOFError, zlib.error) as exc:
        raise FormatError(path, None, f"a damaged or cut gzip file ({exc})") from None
    if len(out) > MAX_DATA_BYTES:
        raise FormatError(path, None, f"expands to more than {MAX_DATA_BYTES >> 20} MiB; not an STS task's split")
    return out


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def read_jsonl(path, score_range: tuple[float, float]) -> tuple[list[tuple[str, str]], np.ndarray, list[str]]:
    """``(pairs, gold, ids)`` of an MTEB JSONL export; ``ids`` are the lines' ``id`` fields when every line has one."""
    path = Path(path)
    pairs, gold, ids = [], [], []
    lo, hi = score_range
    for number, line in enumerate(split_lines(read_bytes(path), path), 1):
        try:
            row = json.loads(line, parse_constant=_refuse_constant)
        except ValueError as exc:
            shown = "an empty line" if not line.strip() else quote(line)
            raise FormatError(path, number, f"expected one JSON object per line, got {shown} ({exc})") from None
        except RecursionError:  # arrays or objects nested thousands deep: no STS row is
            raise FormatError(path, number, "expected one JSON object per line, got values nested too deeply "
                                            "to read") from None
        if not isinstance(row, dict):
            raise FormatError(path, number, f"expected a JSON object with {', '.join(FIELDS)}, got {type(row).__name__}")
        missing = [f for f in FIELDS if f not in row]
        if missing:
            raise FormatError(path, number, f"the object has no {', '.join(missing)} (expected {', '.join(FIELDS)})")
        texts = row["sentence1"], row["sentence2"]
        if not all(isinstance(t, str) for t in texts):
            raise FormatError(path, number, "expected sentence1 and sentence2 as JSON strings")
        for field, text in zip(FIELDS, texts):  # JSON's "\ud800" escape decodes to half a character: no writer takes it
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise FormatError(path, number, f"{field} holds a lone surrogate {json.dumps(text[exc.start])}, half "
                                                "of a character: not Unicode text") from None
        score = row["score"]
        # an integer is finite however long (math.isfinite would overflow on 10**400); the range refuses it
        if isinstance(score, bool) or not isinstance(score, (int, float)) or isinstance(score, float) and not math.isfinite(score):
            raise FormatError(path, number, f"expected a score as a JSON number, got {quote(json.dumps(score))}")
        if not lo <= score <= hi:
            shown = repr(score) if len(repr(score)) <= MAX_QUOTE else quote(repr(score))  # as formats.parse_number
            raise FormatError(path, number, f"score {shown} is outside [{lo:g}, {hi:g}]")
        pairs.append(texts)
        gold.append(float(score))
        ids.append(row.get("id"))
    keep_ids = all(i is not None for i in ids)
    return pairs, np.asarray(gold, dtype=float), [str(i) for i in ids] if keep_ids and ids else []
