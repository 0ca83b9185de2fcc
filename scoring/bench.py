"""``sts bench``'s figures: one system's predictions over the STS family under every convention papers use.

A system's bench row holds, per dataset, the figures of :mod:`semsts.scoring.conventions` (official, SentEval,
SimCSE/SBERT "all", MTEB) computed from ``subset -> (gold, prediction)`` parts of the scored pairs.
Each convention has one signature naming its choices and the data it stands on.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import aggregates
from . import conventions as cv
from .results import number
from .signature import Signature
from .tasks import missing_subsets

# The test sets a bench can cover, in the SimCSE table's order; sts2017-test only when present.
FAMILY = ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test", "stsb-test",
          "sick2014-test", "sts2017-test", "stsb-v2-test", "biosses-test", "sts2022-test", "sts2022-v2-test")
# The STS-B companion (evaluation only): benched when named (--datasets), in no suite; no MTEB task holds it.
FAMILY += ("stscompanion-mt", "stscompanion-other")
OPTIONAL = ("sts2017-test",)
# Named selections (``sts bench --suite``). classic: SimCSE's seven and STS17 when present. mteb-eng-v2: the STS
# tasks of MTEB's "MTEB(eng, v2)" benchmark (mteb's benchmarks definition: STS12-15, STS17 en-en, STSBenchmark,
# SICK-R, BIOSSES and STS22.v2 en; no STS16, and STSBenchmark the original, not STSBenchmark.v2).
SUITES = {
    "classic": ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test", "stsb-test",
                "sick2014-test", "sts2017-test"),
    "mteb-eng-v2": ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "stsb-test", "sick2014-test",
                    "sts2017-test", "biosses-test", "sts2022-v2-test"),
}
# MTEB's SICK-R "test" split is all of SICK: its figure needs these datasets' predictions too.
MTEB_POOLS = {"sick2014-test": ("sick2014-train", "sick2014-trial")}
# MTEB's multilingual STS tasks (corpora.datasets), each figure the mean of its subsets' (conventions.mteb_by_subset).
# mteb-multilingual: STS17 and STS22.v2 with all their subsets (as "MTEB(Multilingual, v2)" selects them) and
# STSBenchmarkMultilingualSTS, whose task score mteb averages over its dev and test splits: stsbmt-test's MTEB
# figure pools stsbmt-dev's subsets as SICK-R's pools SICK's other sets.
MULTILINGUAL = ("sts17-ml-test", "sts22-ml-test", "sts22-v2-ml-test", "stsbmt-test", "stsbmt-dev")
FAMILY = (*FAMILY, *MULTILINGUAL)
SUITES["mteb-multilingual"] = ("sts17-ml-test", "sts22-v2-ml-test", "stsbmt-test")
MTEB_POOLS["stsbmt-test"] = ("stsbmt-dev",)
# SimCSE's Table 5 columns, in its order; Avg. is their plain mean.
SIMCSE_DATASETS = ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test", "stsb-test",
                   "sick2014-test")
LABELS = {"sts2012-test": "STS12", "sts2013-test": "STS13", "sts2014-test": "STS14", "sts2015-test": "STS15",
          "sts2016-test": "STS16", "sts2017-test": "STS17", "stsb-test": "STS-B", "sick2014-test": "SICK-R",
          "stsb-v2-test": "STS-B v2", "biosses-test": "BIOSSES", "sts2022-test": "STS22 en", "sts2022-v2-test": "STS22.v2 en"}
LABELS.update({"stscompanion-mt": "STS-B companion MT", "stscompanion-other": "STS-B companion other"})
# SemEval-2017's other tracks, each its own dataset, and all seven (official convention only: conventions.official_only).
STS2017_TRACK_DATASETS = ("sts2017-ar-ar-test", "sts2017-ar-en-test", "sts2017-es-es-test", "sts2017-es-en-test",
                          "sts2017-es-en-wmt-test", "sts2017-tr-en-test")
FAMILY = (*FAMILY, "sts2017-all-test", *STS2017_TRACK_DATASETS)
LABELS.update({"sts2017-test": "STS17 en-en", "sts2017-all-test": "STS17 (7 tracks)",
               **{d: f"STS17 {d[8:-5]}" for d in STS2017_TRACK_DATASETS}})  # track 5 named, beside the others
LABELS.update({"sts17-ml-test": "STS17", "sts22-ml-test": "STS22", "sts22-v2-ml-test": "STS22.v2",
               "stsbmt-test": "STSBMultilingual", "stsbmt-dev": "STSBMultilingual dev"})
CONVENTIONS = {  # name -> (title, the signature's fields before the data)
    "official": ("official: each task paper's own figure (Pearson; 2012 ALL, ALLnorm, Mean; 2013-2016 Mean; 2017 "
                 "Primary, the mean of its tracks)",
                 [("convention", "official"), ("corr", "pearson"), ("sts2012", "ALL,ALLnorm,Mean"),
                  ("sts2013-2016", "Mean=size-weighted"), ("sts2017", "Primary=mean-of-tracks"), ("stsb,sick", "test")]),
    "senteval": ("SentEval: Pearson and Spearman of each subset, their mean and size-weighted mean (wmean)",
                 [("convention", "senteval"), ("corr", "pearson,spearman"), ("agg", "mean,wmean=scored-pairs")]),
    "simcse": ('SimCSE/SBERT "all": Spearman x 100 of the pooled subsets; STS-B and SICK-R test; '
               "Avg. = the mean of the seven printed figures",
               [("convention", "simcse"), ("corr", "spearman"), ("agg", "pooled"), ("scale", "100"),
                ("avg", "mean-of-7-printed")]),
    "mteb": ("MTEB: main score, cosine Spearman x 100 of the task's test split (SICK-R: all of SICK; BIOSSES and "
             "STS22 are scored by this convention only)",
             [("convention", "mteb"), ("corr", "spearman"), ("agg", "pooled-test-split"),
              ("sick-r", "train+trial+test"), ("scale", "100")]),
}


CONVENTION_NAMES = {"official": "official", "senteval": "SentEval", "simcse": "SimCSE", "mteb": "MTEB"}


def covers(convention: str, dataset: str) -> bool:
    """Whether ``convention``'s table has a figure of ``dataset``: SimCSE's a column of its seven, SentEval's the
    family but MTEB's own tasks and the 2017 tracks, the official one every task whose paper it knows, MTEB's every
    task it holds but the 2017 tracks (its STS17 is its own files)."""
    if convention == "simcse":
        return dataset in SIMCSE_DATASETS
    if convention == "official":
        return not cv.mteb_only(dataset)
    if convention == "senteval":
        return not (cv.mteb_only(dataset) or cv.official_only(dataset))
    return cv.in_mteb(dataset) and not cv.official_only(dataset)


def covering(conventions, datasets) -> tuple:
    """Those of ``conventions`` whose tables cover at least one of ``datasets`` (the others would be empty)."""
    return tuple(c for c in conventions if any(covers(c, d) for d in datasets))


def uncovered_note(conventions, datasets) -> str:
    """What a bench says of the ``conventions`` it leaves out (:func:`covering`): which, and which cover the datasets."""
    shown = covering(conventions, datasets)
    left = [CONVENTION_NAMES[c] for c in conventions if c not in shown]
    if not left:
        return ""
    named = ", ".join(LABELS.get(d, d) for d in datasets)
    left = ", ".join(left[:-1]) + " or " + left[-1] if len(left) > 1 else left[0]
    return (f"no {left} table: {'that convention covers' if ' or ' not in left else 'those conventions cover'} "
            f"none of the datasets of this bench ({named}); "
            + (f"shown: {', '.join(CONVENTION_NAMES[c] for c in shown)}" if shown else
               "covered by " + ", ".join(f"--convention {c}" for c in covering(CONVENTIONS, datasets))))


@dataclass(frozen=True)
class DatasetFigures:
    """One dataset's figures under each convention (NaN: undefined, None: not computable here)."""

    dataset: str
    sizes: dict  # subset -> scored pairs
    official: dict  # the paper's label -> value (empty: an MTEB-only task)
    senteval: dict | None  # "pearson" | "spearman" -> {"mean": …, "wmean": …} (None: an MTEB-only task)
    simcse: float | None
    mteb: float | None
    missing: tuple = ()  # subsets the task published that are absent (2013's SMT)
    mteb_n: int | None = None  # pairs behind the MTEB figure
    # the scored (gold, prediction) pairs the figures are computed from, for resampling: subset -> pairs; MTEB's pool
    parts: dict = field(default_factory=dict, compare=False, repr=False)
    mteb_parts: dict | None = field(default=None, compare=False, repr=False)
    mteb_subsets: dict | None = None  # a multilingual MTEB task: each subset's figure, whose mean is ``mteb``

    @property
    def n(self) -> int:
        return sum(self.sizes.values())


def dataset_figures(dataset: str, parts: cv.Parts, *, missing=(), mteb_parts: cv.Parts | None = None) -> DatasetFigures:
    """The figures of ``parts`` (subset -> (gold, prediction)) of ``dataset``. MTEB's SICK-R pools all
    of SICK: without ``mteb_parts`` (the parts of all three SICK datasets) its figure is None."""
    pool = mteb_parts if dataset in MTEB_POOLS else parts
    only, official_only = cv.mteb_only(dataset), cv.official_only(dataset)
    pool = None if official_only or not cv.in_mteb(dataset) else pool  # no MTEB figure: the 2017 tracks, the companion
    scored = cv.scored_parts(parts)
    by_subset = cv.mteb_subsets(pool) if pool and cv.mteb_by_subset(dataset) else None
    return DatasetFigures(
        dataset=dataset, sizes=cv.sizes(parts), official={} if only else cv.official(dataset, parts),
        senteval=None if only or official_only else cv.senteval(parts)["all"],
        simcse=None if only or official_only else cv.simcse(parts),
        mteb=(aggregates.mean(by_subset.values()) if by_subset is not None else cv.mteb(pool)) if pool else None,
        missing=tuple(missing),
        mteb_n=sum(cv.sizes(pool).values()) if pool else None, parts=scored,
        mteb_parts=(scored if pool is parts else cv.scored_parts(pool)) if pool else None, mteb_subsets=by_subset)


@dataclass(frozen=True)
class BenchRow:
    """One system over the family: its name, how it was made, and its figures per dataset."""

    system: str
    figures: dict  # dataset -> DatasetFigures, in the family's order
    source: str = ""  # how the predictions were made (system, model file and hash, encoder, runs)
    trained_on_sts: bool = False  # fitted on STS-family gold (not comparable with SimCSE's rows)
    notes: tuple = field(default_factory=tuple)
    ci: dict = field(default_factory=dict)  # figure key (:func:`figure_values`) -> 95% bootstrap interval


    def simcse(self, dataset: str) -> float | None:
        figures = self.figures.get(dataset)
        return None if figures is None else figures.simcse

    @property
    def simcse_average(self) -> float | None:
        """SimCSE's Avg. over its seven columns; None unless all seven are here."""
        values = [self.simcse(d) for d in SIMCSE_DATASETS]
        return None if any(v is None for v in values) else cv.simcse_average(values)

    @property
    def mteb_tasks(self) -> tuple:
        """The datasets with an MTEB figure."""
        return tuple(d for d, f in self.figures.items() if f.mteb is not None)

    @property
    def mteb_mean(self) -> float | None:
        """The plain mean of the row's MTEB figures (as MTEB's leaderboard averages its tasks); None without any."""
        tasks = self.mteb_tasks
        return aggregates.mean([self.figures[d].mteb for d in tasks]) if tasks else None


def figure_values(row: BenchRow) -> dict:
    """Every figure of a row by key: ``("official", dataset, label)``, ``("senteval", dataset, corr, agg)``,
    ``("simcse", dataset)``, ``("simcse", "Avg.")``, ``("mteb", dataset)``, ``("mteb", "mean")``."""
    out = {}
    for d, f in row.figures.items():
        out.update({("official", d, label): v for label, v in f.official.items()})
        if f.senteval is not None:  # None where the MTEB convention alone scores the dataset (BIOSSES, STS22)
            out.update({("senteval", d, corr, agg): v for corr, aggs in f.senteval.items() for agg, v in aggs.items()})
            out[("simcse", d)] = f.simcse
        if f.mteb is not None:
            out[("mteb", d)] = f.mteb
    if row.simcse_average is not None:
        out[("simcse", "Avg.")] = row.simcse_average
    if row.mteb_mean is not None:
        out[("mteb", "mean")] = row.mteb_mean
    return out


def data_field(figures) -> str:
    """The data a convention's figures stand on: each dataset with its scored pairs and absent subsets."""
    out = []
    for f in figures:
        text = f"{f.dataset}={f.n}"
        if f.missing:
            text += "-" + "-".join(f.missing)
        out.append(text)
    return ",".join(out)


def signature(convention: str, figures) -> Signature:
    """The signature of one convention's figures over ``figures`` (DatasetFigures of one run)."""
    fields = list(CONVENTIONS[convention][1])
    figures = [f for f in figures if covers(convention, f.dataset)]  # the data its table's figures stand on
    if convention == "official" and not all(cv.in_mteb(f.dataset) for f in figures):
        fields.append(("stscompanion", "pearson-over-file"))  # the companion's readme: one Pearson over each file
    if convention == "mteb":
        pooled = [f for f in figures if f.mteb_n is not None and f.mteb_n != f.n]
        fields += [("sick-r-n" if f.dataset == "sick2014-test" else f"{f.dataset}-n", str(f.mteb_n)) for f in pooled]
        if any(cv.mteb_by_subset(f.dataset) for f in figures):
            fields.append(("multilingual", "mean-of-subsets"))
    return Signature(fields + [("pairs", "scored"), ("data", data_field(figures))])


def fmt100(value: float | None) -> str:
    """A figure x 100 as SimCSE prints it (two decimals); ``n/a`` when undefined, '-' where there is none."""
    return "-" if value is None else number(value, ".2f")


def bench_row(system: str, datasets, parts: dict, *, pools=None, source: str = "", trained_on_sts: bool = False,
              notes=()) -> BenchRow:
    """A row over ``datasets`` (corpora.Dataset) from ``parts`` (dataset name -> subset -> (gold,
    prediction)) and ``pools`` (the same for the datasets of :data:`MTEB_POOLS`). A dataset whose MTEB
    pool is not all there gets no MTEB figure."""
    pools = pools or {}
    figures = {}
    for ds in sorted(datasets, key=lambda d: FAMILY.index(d.name) if d.name in FAMILY else len(FAMILY)):
        needed = MTEB_POOLS.get(ds.name, ())
        mteb_parts = None
        if all(n in pools for n in needed):
            mteb_parts = {**{f"{n}/{s}": v for n in needed for s, v in pools[n].items()}, **parts[ds.name]}
        figures[ds.name] = dataset_figures(ds.name, parts[ds.name], missing=missing_subsets(ds), mteb_parts=mteb_parts)
    return BenchRow(system, figures, source, trained_on_sts, tuple(notes))
