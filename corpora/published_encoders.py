"""SimCSE's Table 5 of published sentence encoders, read as the paper prints it (Spearman x 100).

The table ships as the leaderboard ``simcse2021-table5`` (figures stored as correlations, columns
named by our datasets); this module gives its rows in the paper's units for bench-style layouts.
"""
from __future__ import annotations

from dataclasses import dataclass

from .leaderboards import load_leaderboard

NAME = "simcse2021-table5"
DATASETS = ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test", "stsb-test", "sick2014-test")


@dataclass(frozen=True)
class Contender:
    """One published encoder: its seven figures and printed Avg. (Spearman x 100), its section."""

    name: str
    supervised: bool  # the paper's "supervised" section (trained on NLI data); no row trained on STS data
    figures: dict  # dataset name -> figure as printed
    average: float  # Avg. as printed
    marks: str
    notes: str

    @property
    def recomputed_average(self) -> float:
        """The plain mean of the seven printed figures (what Avg. should be)."""
        return sum(self.figures[d] for d in DATASETS) / len(DATASETS)


def contenders() -> list[Contender]:
    """The table's rows in the paper's order."""
    board = load_leaderboard(NAME)
    return [Contender(row.name, row.flagged("supervised"), {d: round(100 * row.scores[d], 2) for d in DATASETS},
                      round(100 * row.scores["avg"], 2), row.marks, row.notes)
            for row in board.rows]


def labels() -> dict:
    """Each dataset's column label in the paper (``sts2012-test`` -> ``STS12``)."""
    board = load_leaderboard(NAME)
    return {d: board.label(d) for d in DATASETS}


MTEB_NAME = "mteb-sts"
MTEB_CORE = DATASETS  # the seven tasks of MTEB's original English STS selection, SimCSE's columns
MTEB_DATASETS = (*DATASETS, "sts2017-test", "sts2022-test")  # STS17 en-en and STS22 en where published


@dataclass(frozen=True)
class MtebContender:
    """One model's MTEB STS main scores (correlations, as stored) and where they were read from."""

    name: str
    figures: dict  # dataset name -> correlation; a task not read is absent
    revision: str
    mteb_version: str
    source_kind: str  # revision | mtebpaper | external (self-reported, not an MTEB run) | revision+mtebpaper | revision+external
    source: str
    trained_on_sts_text: str  # what mteb's model metadata says of STS data among the model's training data
    marks: str
    notes: str

    @property
    def trained_on_sts(self) -> bool | None:
        """True where mteb's model metadata names an STS task among the model's training datasets (marked †),
        False where it names training datasets and none is one, None where it does not say."""
        return {"yes": True, "no": False}.get(self.trained_on_sts_text.split(":")[0].split(" ")[0])


def mteb_contenders(*, sts_trained: bool = True) -> list[MtebContender]:
    """The rows of ``corpora/leaderboards/mteb-sts.tsv`` in the file's order; without those trained on STS data
    (:attr:`MtebContender.trained_on_sts`) when ``sts_trained`` is False."""
    board = load_leaderboard(MTEB_NAME)
    rows = [MtebContender(row.name, {d: row.scores[d] for d in MTEB_DATASETS if d in row.scores},
                          row.text["revision"], row.text["mteb_version"], row.text["source_kind"], row.text["source"],
                          row.text["trained_on_sts"], row.marks, row.notes)
            for row in board.rows]
    return [r for r in rows if sts_trained or r.trained_on_sts is not True]
