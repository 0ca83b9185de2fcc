"""What each task reports: one table (:data:`REPORTS`), here because every reader may import the data layer (the
scorer's tasks and conventions, the published leaderboards' reader), and the data layer may not import the scorer."""
from __future__ import annotations

from dataclasses import dataclass

# How a reported measure follows from the per-part Pearsons (semsts.scoring.aggregates computes each; a published
# table's ``given`` measure is printed by the paper, not recomputed).
RULES = ("pooled", "normalized", "weighted", "mean", "sum", "given")


@dataclass(frozen=True)
class Measure:
    """One figure a task reports: its key (a leaderboard column, a report's figure), label and rule (:data:`RULES`)."""

    key: str
    label: str
    rule: str


@dataclass(frozen=True)
class Reported:
    """What a task reports: its measures in its order, the one it is ranked by, and the paper that says so
    (empty for the scorer's own tasks, which rank a dataset no paper ranks)."""

    measures: tuple
    primary: str
    paper: str = ""

    def rules(self) -> dict:
        """Measure key -> rule, in order (a leaderboard's ``# aggregate:`` line)."""
        return {m.key: m.rule for m in self.measures}

    def figures(self) -> tuple:
        """``(label, rule)`` of each measure, in order."""
        return tuple((m.label, m.rule) for m in self.measures)


_ALL, _ALLNORM = Measure("all", "ALL", "pooled"), Measure("allnorm", "ALLnorm", "normalized")
_MEAN = Measure("mean", "Mean", "weighted")
_PEARSON = Measure("pearson", "Pearson", "pooled")
REPORTS = {
    # the scorer's tasks (a kind's ``scored_as``): what ``compare`` ranks a dataset by when no paper ranks it
    "sts": Reported((_ALL, _ALLNORM, _MEAN), "mean"),
    "clss": Reported((Measure("official", "Official (sum)", "sum"),), "official"),
    "typed": Reported((Measure("mean", "Mean", "mean"),), "mean"),
    # the task papers (a dataset's name up to its first "-"): their own figures, in the paper's order
    "sts2012": Reported((_ALL, _ALLNORM, _MEAN), "all", "Agirre et al. 2012, ALL, ALLnrm and Mean"),
    **{t: Reported((_MEAN,), "mean", f"the {t[3:]} task paper: Mean (size-weighted; 2013 over the subsets present)")
       for t in ("sts2013", "sts2014", "sts2015", "sts2016")},
    "sts2017": Reported((Measure("primary", "Primary", "mean"),), "primary",
                        "Cer et al. 2017 (SemEval-2017 Task 1): each track's Pearson; the primary score is their plain "
                        "mean over the seven tracks (a one-track dataset: that track's Pearson)"),
    "stsb": Reported((_PEARSON,), "pearson", "Cer et al. 2017: Pearson on the test set"),
    "sick2014": Reported((_PEARSON,), "pearson", "Marelli et al. 2014: Pearson on the test set"),
    "stscompanion": Reported((_PEARSON,), "pearson", "the STS-B companion's readme: Pearson over the file (no "
                             "published table)"),
}
