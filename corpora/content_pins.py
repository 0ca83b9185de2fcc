"""Content pins: mteb's published descriptive statistics of the MTEB files we fetch (BIOSSES, STS22, STS17, stsb_multi_mt;
the multilingual tasks per ``hf_subset``).

No SHA-256 of those files is published where we can read it, but mteb publishes, per task and revision, the
pair count, each side's text lengths and unique texts, and the min/average/max score (``content_pins.json``
names the file and version they come from). :func:`figures` computes the same figures as mteb does on what
was received, so a file that is not the one mteb describes (other pairs, inverted scores) is told apart.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import NamedTuple

from . import datasets

PINS_PATH = Path(__file__).resolve().parent / "content_pins.json"
REL_TOL = 1e-9  # averages: mteb sums in its row order, we in the file's, so the last bits may differ


class Difference(NamedTuple):
    """One figure that is not mteb's: its name (as mteb's JSON nests it), the pinned value and the computed one."""

    figure: str
    expected: object
    got: object

    def __str__(self) -> str:
        return f"{self.figure} expected {self.expected!r}, got {self.got!r}"


def load_pins(path=None) -> dict:
    """``{release: {"dataset", "file", "source", "figures"}}``."""
    return json.loads(Path(path or PINS_PATH).read_text(encoding="utf-8"))["releases"]


def pin_of(release: str) -> dict | None:
    return load_pins().get(release)


def _side(texts: list[str]) -> dict:
    lengths = [len(t) for t in texts]  # characters (code points), as Python's len: what mteb counts
    return {"total_text_length": sum(lengths), "min_text_length": min(lengths),
            "average_text_length": sum(lengths) / len(lengths), "max_text_length": max(lengths),
            "unique_texts": len(set(texts))}


def figures(pairs, scores) -> dict:
    """mteb's descriptive statistics of an STS split (``AbsTaskSTS``): the raw sentence1/sentence2 strings and the
    raw scores (before any normalisation), unique pairs counted regardless of side."""
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    scores = [float(s) for s in scores]
    one, two = _side(first), _side(second)
    return {"num_samples": len(pairs),
            "number_of_characters": one["total_text_length"] + two["total_text_length"],
            "unique_pairs": len({(a, b) if a <= b else (b, a) for a, b in pairs}),
            "text1_statistics": one, "text2_statistics": two,
            "label_statistics": {"min_score": min(scores), "avg_score": sum(scores) / len(scores),
                                 "max_score": max(scores)}}


def _flat(tree: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def compare(expected: dict, got: dict) -> list[Difference]:
    """The figures of ``expected`` that ``got`` does not match: counts exactly, averages to REL_TOL."""
    got = _flat(got)
    diffs = []
    for name, want in _flat(expected).items():
        have = got.get(name)
        if isinstance(want, float) or isinstance(have, float):
            same = have is not None and math.isclose(want, have, rel_tol=REL_TOL, abs_tol=0.0)
        else:
            same = have == want
        if not same:
            diffs.append(Difference(name, want, have))
    return diffs


def differences(release: str, root) -> list[Difference] | None:
    """How the release's dataset under ``root`` differs from mteb's figures; None when the release has no pin.

    The dataset is read with its own reader (a file that does not parse is that reader's FormatError).
    """
    pin = pin_of(release)
    if pin is None:
        return None
    if "subsets" in pin:
        # a multilingual task: each subset's figures as mteb gives them per hf_subset, one absent a difference too
        return [d for check in (pin, *pin.get("more", ())) for _, _, diffs in subset_checks(check, root) for d in diffs]
    dataset = datasets.load(pin["dataset"], root)
    return compare(pin["figures"], figures(dataset.pairs, dataset.gold))


def subset_checks(check: dict, root) -> list[tuple]:
    """``(dataset/subset, its Subset or None when absent, its differences)`` of each subset a multilingual pin names
    (``sts data verify`` names each file)."""
    loaded = {sub.name: sub for sub in datasets.load(check["dataset"], root)}
    out = []
    for name, want in check["subsets"].items():
        label = f"{check['dataset']}/{name}"
        if name not in loaded:
            out.append((label, None, [Difference(label, "present", "absent")]))
            continue
        sub = loaded[name]
        out.append((label, sub, [d._replace(figure=f"{label}: {d.figure}")
                                 for d in compare(want, figures(sub.pairs, sub.gold))]))
    return out


def unverified_note(release: str, root) -> str:
    """What ``sts data list`` and a fetch say of a release under ``root`` whose files are not those mteb describes (an
    install with --unverified); '' when they are, nothing pins them or they cannot be read (the listing says so)."""
    from .errors import DatasetNotFound, FormatError
    try:
        diffs = differences(release, root)
    except (DatasetNotFound, FormatError, OSError):
        return ""
    return f"installed unverified: {not_described(release, diffs)}" if diffs else ""


def not_described(release: str, diffs: list[Difference]) -> str:
    """``FILE is not the file mteb describes for TASK (differences)`` (a multilingual pin: ``its files are not those``)."""
    pin = pin_of(release)
    what = "its files are not those" if "subsets" in pin else f"{Path(pin['file']).name} is not the file"
    return f"{what} mteb describes for {pin['task']} ({describe(diffs)})"


def describe(diffs: list, most: int = 3) -> str:
    """``figure expected X, got Y; …`` for the first ``most`` differences (Differences or a kind's lines)."""
    shown = "; ".join(str(d) for d in diffs[:most])
    return shown + (f"; and {len(diffs) - most} more" if len(diffs) > most else "")
