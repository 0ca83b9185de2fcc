"""One reproducibility signature, as sacrebleu has: ``key:value|…|version:X``."""
from __future__ import annotations

from pathlib import PurePath

VERSION = "1.0.0"


class Signature:
    """Every choice that makes two sets of numbers incomparable, as ordered ``key:value`` fields.

    The scorer's version always comes last. ``str(signature)`` is the printed form.
    """

    def __init__(self, fields, *, version: str = VERSION):
        self.fields = tuple((str(k), str(v)) for k, v in fields) + (("version", version),)

    def __str__(self) -> str:
        return "|".join(f"{k}:{v}" for k, v in self.fields)

    def __repr__(self) -> str:
        return f"Signature({str(self)!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Signature) and self.fields == other.fields

    def __hash__(self) -> int:
        return hash(self.fields)

    def get(self, key: str) -> str | None:
        """The value of one field, or None."""
        return dict(self.fields).get(key)


def gold_sys_signature(sys_path, n_scored: int, n_unscored: int) -> Signature:
    """The signature of a GOLD SYS score: the file, the pairs scored and the choices made."""
    return Signature([("file", PurePath(sys_path).name), ("n", n_scored), ("unscored", f"dropped({n_unscored})"),
                      ("corr", "pearson"), ("conf", "ignored"), ("nan", "error")])
