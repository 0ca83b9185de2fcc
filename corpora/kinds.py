"""Dataset kinds: one object per kind of dataset (STS folder, STS Benchmark, SICK, CLSS, TYPED, MTEB's JSONL
exports of BIOSSES and STS22, a user's table), owning where its files are, how they are read, its score range and its output files.

Named datasets (:mod:`semsts.corpora.datasets`) and a user's files (:mod:`semsts.corpora.user_data`)
read through the same objects; the scorer asks a dataset's kind (``scored_as``) how it is scored
instead of switching on names of its own.
"""
from __future__ import annotations

import functools
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from semsts.core.errors import InvalidValue, quote

from . import formats, jsonl, sick, tables, typed2013
from .errors import FormatError
from .formats import check_regular, in_place

CLSS_LEVELS = ("paragraph2sentence", "sentence2phrase", "phrase2word", "word2sense")
CLSS_FOLDERS = {"trial": "trial", "train": "training", "test": "test"}
STS_INPUT = re.compile(r"^(STS|STS20\d\d)\.input\.(.+)\.txt$")
STS_GOLD = re.compile(r"^(STS|STS20\d\d)\.gs\.(.+)\.txt$")

# --- What each task reports: one table, here because every reader may import the data layer (the scorer's tasks and
# conventions, the published leaderboards' reader), and the data layer may not import the scorer.

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


class Kind:
    """What every dataset kind knows; one instance per kind, in :data:`KINDS`."""

    name: ClassVar[str] = ""
    score_range: ClassVar[tuple] = formats.STS_RANGE
    scored_as: ClassVar[str] = "sts"  # the scorer's task for it: sts, clss or typed
    width: ClassVar[int | None] = None  # scores per pair; None: one
    no_gold: ClassVar[str] = "gold file"  # what a user's file lacks when it cannot be scored
    pins: ClassVar[str] = ""  # what :meth:`differences` holds a named dataset's files to, if the kind pins them

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def locate(self, spec, folder: Path) -> list[tuple[str, Path, Path]]:
        """``(subset, input path, gold path)`` of every subset of the named dataset ``spec`` present in ``folder``."""
        raise NotImplementedError

    def read(self, dataset: str, sub: str, inp: Path, gold_path: Path | None, *, split: str = "", score_range=()):
        """The :class:`~semsts.corpora.datasets.Subset` of one input file and its gold (None: unscored); ``score_range``
        the gold's range when it is not the kind's own (a user's file; () for the kind's)."""
        raise NotImplementedError

    def output_name(self, sub: str, split: str = "") -> str:
        return f"STS.output.{sub}.txt"

    def missing_note(self, dataset: str, folder: Path, sub: str) -> str:
        return f"{dataset}: subset {sub} skipped: not in the data root"

    def notes(self, folder: Path, spec=None) -> list[str]:
        """Notes on the files of a named dataset beyond its missing subsets."""
        return []

    def differences(self, folder: Path, spec) -> list[str]:
        """How a named dataset's files differ from the official release's where the kind pins them beyond the
        manifest's SHA-256 (a fetch refuses them unless --unverified); [] when it pins nothing more."""
        return []

    def check_output(self, path, n_expected=None, score_range=formats.STS_RANGE) -> list:
        """Every FormatError of one output file of this kind."""
        return formats.check_output(path, n_expected, score_range)

    def read_output(self, path, n_expected: int, score_range=formats.STS_RANGE):
        """``(scores, confidences or None)`` of a valid output file."""
        return formats.read_output(path, n_expected, score_range)

    def write_output(self, path, scores, confidences=None, score_range=formats.STS_RANGE) -> None:
        """Write an output file atomically, refusing a NaN or out-of-range score."""
        formats.write_output(path, scores, confidences, score_range=score_range)

    def _subset(self, dataset, sub, pairs, gold, inp, gold_path, ids, split, score_range):
        from .datasets import Subset
        return Subset(dataset, sub, self, pairs, gold, inp, gold_path, ids, self.output_name(sub, split), tuple(score_range))


def same_length(inp: Path, n_in: int, gold: Path, n_gold: int) -> None:
    if n_in != n_gold:
        raise FormatError(gold, n_gold or None, f"has {n_gold} gold lines but {inp.name} has {n_in} pairs")


class STSFolder(Kind):
    """An STS year folder (2012-2017): ``STS.input.X.txt`` with ``STS.gs.X.txt`` (or ``STS2016.`` names) per subset."""

    name = "sts"

    def scan(self, folder: Path) -> dict[str, tuple[Path, Path | None]]:
        """Subset -> (input, its gold or None) of every input file in ``folder``; two inputs of one subset are refused."""
        found = {}
        for inp in sorted(folder.iterdir()) if folder.is_dir() else ():
            match = STS_INPUT.match(inp.name)
            if not match:  # a folder, FIFO or device of an input's name is refused by the reader, by name
                continue
            prefix, subset = match.groups()
            if subset in found:
                raise FormatError(inp, None, f"subset {subset} has two input files: {found[subset][0].name} and {inp.name}")
            found[subset] = (inp, self.gold_of(folder, prefix, subset))
        return found

    @staticmethod
    def gold_of(folder: Path, prefix: str, subset: str) -> Path | None:
        """The gold file of an STS input: the same naming first, else the other (``STS.`` / ``STS2016.``)."""
        same = folder / f"{prefix}.gs.{subset}.txt"
        if in_place(same):
            return same
        others = [p for p in sorted(folder.glob("STS*.gs.*.txt")) if (m := STS_GOLD.match(p.name)) and m.group(2) == subset]
        return others[0] if others else None

    def locate(self, spec, folder):
        found = [(sub, inp, gold) for sub, (inp, gold) in self.scan(folder).items()
                 if gold is not None and (not spec.expected or sub in spec.expected)]
        order = {n: i for i, n in enumerate(spec.expected)}
        return sorted(found, key=lambda t: (order.get(t[0], len(order)), t[0]))

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        pairs = formats.read_sts_input(inp)
        if not pairs:
            raise FormatError(inp, None, "holds no pairs; expected one pair per line")
        if gold_path is None:
            gold = np.full(len(pairs), math.nan)
        else:
            gold = formats.read_gold(gold_path, tuple(score_range) or self.score_range)
            same_length(inp, len(pairs), gold_path, len(gold))
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, [], split, score_range)

    def missing_note(self, dataset, folder, sub):
        if list(folder.glob(f"STS*.input.{sub}.txt")):
            return f"{dataset}: subset {sub} skipped: its input has no gold file in {folder}"
        return super().missing_note(dataset, folder, sub)

    def notes(self, folder, spec=None):
        """The files in the folder that no registered dataset reads (a file another dataset of the folder reads, as
        each STS 2017 track is, is no news): not read."""
        if spec is None or not spec.expected:
            return []
        known = getattr(spec, "folder_subsets", spec.expected)
        others = [sub for sub in self.scan(folder) if sub not in known]
        return [f"{spec.name}: files of subsets no registered dataset reads, not read: {', '.join(others)} "
                f"(in {folder})"] if others else []


# SemEval-2017 Task 1's tracks, in the paper's order: file subset -> the paper's column label (the archive's readme
# names the seven input files; track 4 is split into 4a, SNLI, and 4b, WMT news).
STS2017_TRACKS = {"track1.ar-ar": "ar-ar", "track2.ar-en": "ar-en", "track3.es-es": "es-es", "track4a.es-en": "es-en",
                  "track4b.es-en": "es-en WMT", "track5.en-en": "en-en", "track6.tr-en": "tr-en"}
STS2017_CROSSLINGUAL = ("track2.ar-en", "track4a.es-en", "track4b.es-en", "track6.tr-en")
STS2017_HALVED = "track6.tr-en"  # its input holds twice as many pairs as its gold has lines


class STS2017(STSFolder):
    """SemEval-2017 Task 1's archive (every track an STS folder file pair), scored per track and by the primary score.

    Track 6 (tr-en) ships 500 input pairs for 250 gold lines: gold line i scores input line i (the alignment of a
    line-by-line paste of the two files) and the other 250 pairs are run but unscored; any other count is refused.
    """

    name = "sts2017"
    scored_as = "sts2017"
    tracks: ClassVar[dict] = STS2017_TRACKS

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        if sub != STS2017_HALVED or gold_path is None:
            return super().read(dataset, sub, inp, gold_path, split=split, score_range=score_range)
        pairs = formats.read_sts_input(inp)
        gold = formats.read_gold(gold_path, tuple(score_range) or self.score_range)
        if len(gold) and len(pairs) == 2 * len(gold):
            gold = np.concatenate([gold, np.full(len(gold), math.nan)])
        elif len(pairs) != len(gold):
            raise FormatError(gold_path, len(gold) or None,
                              f"has {len(gold)} gold lines but {inp.name} has {len(pairs)} pairs; expected as many "
                              "gold lines as pairs, or the official layout of track 6: twice as many pairs as gold "
                              "lines (500 for 250)")
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, [], split, score_range)

    def notes(self, folder, spec=None):
        notes = super().notes(folder, spec)
        inp, gold = folder / f"STS.input.{STS2017_HALVED}.txt", folder / f"STS.gs.{STS2017_HALVED}.txt"
        if spec is not None and STS2017_HALVED in spec.expected and in_place(inp) and in_place(gold):
            n_in, n_gold = len(formats.read_lines(inp)), len(formats.read_lines(gold))
            if n_gold and n_in == 2 * n_gold:
                notes.append(f"{spec.name}: {STS2017_HALVED}: {n_in} pairs for {n_gold} gold lines: gold line i "
                             f"scores pair i, pairs {n_gold + 1}-{n_in} are run but unscored (the organizers' own "
                             "alignment is not confirmed)")
        return notes


class STSBenchmark(Kind):
    """The STS Benchmark: one csv per split (genre, file, year, id, score, sentence1, sentence2), scores in [0, 5]."""

    name = "stsb"

    def locate(self, spec, folder):
        path = folder / f"sts-{spec.split}.csv"
        return [(f"sts-{spec.split}", path, path)] if in_place(path) else []

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        if tuple(score_range) not in ((), formats.STS_RANGE):
            raise InvalidValue(f"{inp}: the STS Benchmark format fixes its scores to [0, 5]; score_range cannot change that")
        pairs, gold, meta = formats.read_stsb(inp)
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, [m["id"] for m in meta], split, score_range)


class STSBenchmarkV2(STSBenchmark):
    """MTEB's ``STSBenchmark.v2``, derived from the official STS Benchmark files: a split's pairs without those
    whose order-insensitive sentence pair occurs twice or more in the split (every copy goes) or occurs in one
    of the other two splits (mteb's task description; official files: test 1,362 of 1,379, dev 1,485 of 1,500)."""

    name = "stsb-v2"
    SPLITS: ClassVar[tuple] = ("train", "dev", "test")
    OFFICIAL_PAIRS: ClassVar[dict] = {"train": 5749, "dev": 1500, "test": 1379}  # the official release's files

    def locate(self, spec, folder):
        path = folder / f"sts-{spec.split}.csv"
        return [(f"sts-{spec.split}.v2", path, path)] if in_place(path) else []

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        if tuple(score_range) not in ((), formats.STS_RANGE):
            raise InvalidValue(f"{inp}: the STS Benchmark format fixes its scores to [0, 5]; score_range cannot change that")
        pairs, gold, meta = formats.read_stsb(inp)
        others = set()
        for other in self.SPLITS:
            if other != split:
                others.update(v2_key(p) for p in self._sibling(dataset, inp.parent / f"sts-{other}.csv"))
        keep = v2_keep(pairs, others)
        return self._subset(dataset, sub, [p for p, k in zip(pairs, keep) if k], gold[keep], inp, gold_path,
                            [m["id"] for m, k in zip(meta, keep) if k], split, score_range)

    @staticmethod
    def _sibling(dataset: str, path: Path) -> list:
        """Another split's pairs, read and checked as its own dataset reads them (missing or empty: refused)."""
        try:
            pairs = formats.read_stsb(path)[0]
            if not pairs:
                raise FormatError(path, None, "holds no pairs; expected one pair per line")
        except FormatError as exc:
            raise FormatError(exc.path, exc.line, f"{exc.message} ({dataset} is derived from all three STS Benchmark "
                                                  "splits)") from None
        return pairs

    def notes(self, folder, spec=None):
        """A split whose pair count is not the official file's: the derived split is not MTEB's."""
        notes = []
        for split, official in self.OFFICIAL_PAIRS.items():
            n = len(formats.read_lines(folder / f"sts-{split}.csv"))
            if n != official:
                notes.append(f"{spec.name if spec else self.name}: {folder / f'sts-{split}.csv'} holds {n:,} pairs, the "
                             f"official file {official:,}: the split derived from it is not MTEB's STSBenchmark.v2")
        return notes


class STSCompanion(STSBenchmark):
    """The STS Benchmark's companion (``Stscompanion.tar.gz``): ``sts-mt.csv`` and ``sts-other.csv``, the English STS
    2012-2016 sets the benchmark left out, rows of file, year, id, score, sentence1, sentence2[, licence fields…].
    Each source file (its file and year: OnWN of 2012, 2013 and 2014 are three) is a subset, in the file's order."""

    name = "stscompanion"
    pins = "the official pairs per source file"
    # Pairs per source file of the official files: the readme's table, whose SMTeuroparl "1293" is 1,193 (the
    # 459 + 734 pairs of the 2012 test and training files; 1,836 in sts-mt.csv) and the scored lines of those files.
    OFFICIAL_PAIRS: ClassVar[dict] = {
        "mt": {"SMTeuroparl.2012test": 459, "surprise.SMTnews.2012test": 399, "SMTeuroparl.2012train": 734,
               "postediting.2016": 244},
        "other": {"surprise.OnWN.2012test": 750, "OnWN.2013": 561, "OnWN.2014": 750, "FNWN.2013": 189,
                  "tweet-news.2014": 750, "belief.2015": 375, "plagiarism.2016": 230, "question-question.2016": 209},
    }
    _NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # a subset's name becomes an output file's name

    @staticmethod
    def _parsed(path: Path) -> tuple:
        """``formats.read_stsb`` of a companion file, read once per version of it (a load asks for every subset)."""
        try:
            st = os.stat(path)
        except OSError:
            return formats.read_stsb(path, formats.COMPANION_COLUMNS)  # refused there, by name
        return _read_companion(str(path), st.st_ino, st.st_mtime_ns, st.st_size)

    def subsets(self, path: Path) -> dict:
        """Subset (``file.year``) -> the numbers of its rows in the file, in the order subsets first occur."""
        found: dict = {}
        for number, row in enumerate(self._parsed(path)[2], 1):
            sub = f"{row['file']}.{row['year']}"
            if not self._NAME.fullmatch(sub):
                raise FormatError(path, number, "expected a source file name and year of letters, digits, '.', '-' "
                                                f"and '_', got {quote(row['file'])} and {quote(row['year'])}")
            found.setdefault(sub, []).append(number - 1)
        if not found:
            raise FormatError(path, None, "holds no pairs; expected one pair per line")
        return found

    def locate(self, spec, folder):
        path = folder / f"sts-{spec.split}.csv"
        return [(sub, path, path) for sub in self.subsets(path)] if in_place(path) else []

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        if tuple(score_range) not in ((), formats.STS_RANGE):
            raise InvalidValue(f"{inp}: the STS Benchmark format fixes its scores to [0, 5]; score_range cannot change that")
        rows = self.subsets(inp).get(sub)
        if rows is None:
            raise FormatError(inp, None, f"holds no rows of the source file and year {sub}")
        pairs, gold, meta = self._parsed(inp)
        return self._subset(dataset, sub, [pairs[i] for i in rows], gold[rows], inp, gold_path,
                            [meta[i]["id"] for i in rows], split, score_range)

    def missing_note(self, dataset, folder, sub):
        return f"{dataset}: the official release's source file {sub} is not in the file; its other files are read"

    def differences(self, folder, spec) -> list[str]:
        """How the named dataset's file under ``folder`` differs from the official release's pairs per source file
        (:data:`OFFICIAL_PAIRS`): a file or source file missing, one the release does not hold, another count."""
        official, path = self.OFFICIAL_PAIRS.get(spec.split, {}), folder / f"sts-{spec.split}.csv"
        if not in_place(path):
            return [f"{spec.name}: no {path.name}"]
        found = self.subsets(path)
        out = [f"{spec.name}: {path.name} lacks {sub} ({n:,} pairs in the official file)"
               for sub, n in official.items() if sub not in found]
        for sub, rows in found.items():
            if sub not in official:
                out.append(f"{spec.name}: {path.name} holds {len(rows):,} pairs of {sub}, a source file the official "
                           "release does not hold")
            elif len(rows) != official[sub]:
                out.append(f"{spec.name}: {path.name} holds {len(rows):,} pairs of {sub}, the official file "
                           f"{official[sub]:,}")
        return out

    def notes(self, folder, spec=None):
        """A source file the official release does not hold, or whose pair count is not the release's (a missing
        one is a :meth:`missing_note`)."""
        if spec is None or not in_place(folder / f"sts-{spec.split}.csv"):
            return []
        return [d for d in self.differences(folder, spec) if " lacks " not in d]


@functools.lru_cache(maxsize=4)
def _read_companion(path: str, inode: int, mtime_ns: int, size: int) -> tuple:
    """One version (inode, mtime, size) of a companion file, parsed; callers copy what they keep."""
    return formats.read_stsb(Path(path), formats.COMPANION_COLUMNS)


def v2_key(pair) -> tuple:
    """The order-insensitive key of a sentence pair (MTEB's STSBenchmark.v2 deduplication)."""
    return tuple(sorted(pair))


def v2_keep(pairs, elsewhere) -> np.ndarray:
    """Which pairs STSBenchmark.v2 keeps: those whose key occurs once in ``pairs`` and not in ``elsewhere``."""
    from collections import Counter
    keys = [v2_key(p) for p in pairs]
    counts = Counter(keys)
    return np.array([counts[k] == 1 and k not in elsewhere for k in keys], dtype=bool)


class SICK(Kind):
    """SICK (SemEval-2014 Task 1): a headed TSV per split, relatedness in [1, 5]."""

    name = "sick"
    score_range = sick.SICK_RANGE

    def locate(self, spec, folder):
        path = folder / sick.FILES[spec.split]
        return [(path.stem, path, path)] if in_place(path) else []

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        pairs, gold, ids = sick.read_sick(inp, tuple(score_range) or self.score_range)
        if not pairs:
            raise FormatError(inp, 1, "a SICK header and no pairs after it; nothing to run or score")
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, ids, split, score_range)


class CLSS(Kind):
    """SemEval-2014 Task 3 (cross-level): a TSV input and a key per comparison level, scores in [0, 4]."""

    name = "clss"
    score_range = formats.CLSS_RANGE
    scored_as = "clss"

    def locate(self, spec, folder):
        sub = CLSS_FOLDERS[spec.split]
        found = []
        for level in CLSS_LEVELS:
            inp = folder / "data" / sub / f"{level}.{spec.split}.input.tsv"
            gold = folder / "keys" / sub / f"{level}.{spec.split}.gs.tsv"
            if in_place(inp) and in_place(gold):
                found.append((level, inp, gold))
        return found

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        pairs, ids = formats.read_clss_input(inp, sub)
        gold = formats.read_gold(gold_path, self.score_range)
        same_length(inp, len(pairs), gold_path, len(gold))
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, ids, split, score_range)

    def output_name(self, sub, split=""):
        return f"{sub}.{split}.output.tsv"


class Typed(Kind):
    """The *SEM 2013 TYPED pilot: pairs of Europeana records, eight scores per pair."""

    name = "typed"
    scored_as = "typed"
    width = len(typed2013.TYPES)

    def locate(self, spec, folder):
        inp, gold = folder / typed2013.INPUT_NAME, folder / typed2013.GOLD_NAME
        return [("europeana", inp, gold)] if in_place(inp) and in_place(gold) else []

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        pairs, ids = typed2013.read_pair_records(inp)
        gold = typed2013.read_typed_gold(gold_path)
        same_length(inp, len(pairs), gold_path, len(gold))
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, [f"{a} {b}" for a, b in ids], split, score_range)

    def output_name(self, sub, split=""):
        return typed2013.OUTPUT_NAME

    def notes(self, folder, spec=None):
        return typed2013.gone_notes(folder)

    def check_output(self, path, n_expected=None, score_range=formats.STS_RANGE):
        return typed2013.check_typed_output(path, n_expected, score_range=score_range)

    def read_output(self, path, n_expected, score_range=formats.STS_RANGE):
        return typed2013.read_typed_output(path, n_expected, score_range=score_range), None

    def write_output(self, path, scores, confidences=None, score_range=formats.STS_RANGE) -> None:
        typed2013.write_typed_output(path, scores, score_range=score_range)


class MTEBJsonl(Kind):
    """One split of an STS task as MTEB's Hugging Face dataset holds it: a JSONL file (``FILE``, kept under the
    name and compression it is published with) of sentence1, sentence2 and score; read by :mod:`.jsonl`."""

    name = "mteb-jsonl"
    file: ClassVar[str] = ""

    def locate(self, spec, folder):
        path = folder / self.file
        return [(spec.expected[0], path, path)] if in_place(path) else []

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        pairs, gold, ids = jsonl.read_jsonl(inp, tuple(score_range) or self.score_range)
        if not pairs:
            raise FormatError(inp, None, "holds no pairs; expected one JSON object per line")
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, ids, split, score_range)


class BIOSSES(MTEBJsonl):
    """BIOSSES (Soğancıoğlu et al. 2017): 100 biomedical sentence pairs, each the mean of five annotators' 0-4
    scores, as ``mteb/biosses-sts`` holds them (``test.jsonl.gz``)."""

    name = "biosses"
    score_range = (0.0, 4.0)
    file = "test.jsonl.gz"


class STS22(MTEBJsonl):
    """SemEval-2022 Task 8 (multilingual news article similarity), its English test pairs as
    ``mteb/sts22-crosslingual-sts`` holds them (``en/test.jsonl``): scores 1-4, 4 the most similar (mteb inverted
    the task's scale, where 1 was the most similar)."""

    name = "sts22"
    score_range = (1.0, 4.0)
    file = "test.jsonl"


class STS22V2(STS22):
    """MTEB's ``STS22.v2``, derived from the STS22 file: its pairs without those where a text is empty (mteb's task
    description: "removing pairs where one of entries contain empty sentences"; empty here: nothing but whitespace)."""

    name = "sts22-v2"

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        full = super().read(dataset, sub, inp, gold_path, split=split, score_range=score_range)
        keep = np.array([bool(a.strip()) and bool(b.strip()) for a, b in full.pairs], dtype=bool)
        if not keep.any():
            raise FormatError(inp, None, "every pair has an empty text; STS22.v2 keeps none")
        ids = [i for i, k in zip(full.ids, keep) if k] if full.ids else []
        return self._subset(dataset, sub, [p for p, k in zip(full.pairs, keep) if k], full.gold[keep], inp, gold_path,
                            ids, split, score_range)


def _non_empty(pairs) -> np.ndarray:
    """Which pairs have both texts non-empty (nothing but whitespace counts as empty): what MTEB's v2 tasks keep."""
    return np.array([bool(a.strip()) and bool(b.strip()) for a, b in pairs], dtype=bool)


class MTEBSubsets(Kind):
    """One split of a multilingual MTEB STS task, as its Hugging Face dataset holds it: one file per ``hf_subset``
    (a language or a language pair) at ``pattern`` (``{sub}``, ``{split}``), kept under its path in the repository.
    MTEB scores each subset on its own (cosine Spearman) and reports their plain mean as the task's score."""

    pattern: ClassVar[str] = ""

    def path_of(self, sub: str, split: str) -> str:
        """The subset's file, relative to the dataset's folder (its path in the Hugging Face repository)."""
        return self.pattern.format(sub=sub, split=split)

    def locate(self, spec, folder):
        found = []
        for sub in spec.expected:
            path = folder / self.path_of(sub, spec.split)
            if in_place(path):
                found.append((sub, path, path))
        return found

    def missing_note(self, dataset, folder, sub):
        return f"{dataset}: subset {sub} skipped: {self.path_of(sub, '?')} is not in {folder}"

    def pairs_of(self, inp: Path, score_range) -> tuple:
        pairs, gold, ids = jsonl.read_jsonl(inp, score_range)
        if not pairs:
            raise FormatError(inp, None, "holds no pairs; expected one JSON object per line")
        return pairs, gold, ids

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        pairs, gold, ids = self.pairs_of(inp, tuple(score_range) or self.score_range)
        return self._subset(dataset, sub, pairs, gold, inp, gold_path, ids, split, score_range)


class STS17Crosslingual(MTEBSubsets):
    """MTEB's STS17 (SemEval-2017 Task 1, its 11 monolingual and cross-lingual pairs, Korean added): 250 pairs a
    pair (ko-ko 2,846), scores 0-5, as ``mteb/sts17-crosslingual-sts`` holds them (``test/{pair}.jsonl.gz``)."""

    name = "mteb-sts17"
    pattern = "test/{sub}.jsonl.gz"


class STS22Crosslingual(MTEBSubsets):
    """MTEB's STS22 (SemEval-2022 Task 8, news articles), its 18 language subsets, scores 1-4 with 4 the most
    similar, as ``mteb/sts22-crosslingual-sts`` holds them (``{lang}/test.jsonl``, the files of ``sts2022-test``)."""

    name = "mteb-sts22"
    score_range = (1.0, 4.0)
    pattern = "{sub}/test.jsonl"


class STS22CrosslingualV2(STS22Crosslingual):
    """MTEB's ``STS22.v2``: each STS22 subset without the pairs where a text is empty (as :class:`STS22V2`)."""

    name = "mteb-sts22-v2"

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=()):
        pairs, gold, ids = self.pairs_of(inp, tuple(score_range) or self.score_range)
        keep = _non_empty(pairs)
        if not keep.any():
            raise FormatError(inp, None, "every pair has an empty text; STS22.v2 keeps none")
        return self._subset(dataset, sub, [p for p, k in zip(pairs, keep) if k], gold[keep], inp, gold_path,
                            [i for i, k in zip(ids, keep) if k] if ids else [], split, score_range)

    def output_name(self, sub, split=""):
        return f"STS.output.{sub}.v2.txt"


class STSBMultilingual(MTEBSubsets):
    """MTEB's STSBenchmarkMultilingualSTS: the STS Benchmark machine-translated (DeepL) into 9 languages, with the
    English original; scores 0-5, as ``mteb/stsb_multi_mt`` holds them (``{split}/{lang}.parquet``, read by
    :mod:`.parquet` with pyarrow; the score column is ``similarity_score``)."""

    name = "mteb-stsb-multi"
    pattern = "{split}/{sub}.parquet"
    COLUMNS: ClassVar[tuple] = ("sentence1", "sentence2", "similarity_score")

    def pairs_of(self, inp: Path, score_range) -> tuple:
        from . import parquet
        check_regular(inp)
        first, second, scores = parquet.read_columns(inp, self.COLUMNS)
        if not first:
            raise FormatError(inp, None, "holds no pairs; expected one row per pair")
        lo, hi = score_range
        for row, score in enumerate(scores, 1):
            if not math.isfinite(score) or not lo <= score <= hi:
                raise FormatError(inp, None, f"row {row}: similarity_score {score!r} is outside [{lo:g}, {hi:g}]")
        return list(zip(first, second)), np.asarray(scores, dtype=float), []

    def output_name(self, sub, split=""):
        return f"STS.output.{split}.{sub}.txt"


class Table(Kind):
    """A user's headed TSV/CSV of pairs (see :mod:`semsts.corpora.tables`), scored like the STS tasks."""

    name = "table"
    no_gold = "score column"

    def read(self, dataset, sub, inp, gold_path, *, split="", score_range=(), columns=None):
        table = tables.read_table(inp, columns, tuple(score_range) or self.score_range)
        gold = table.gold if table.gold is not None else np.full(len(table.pairs), math.nan)
        return self._subset(dataset, sub, table.pairs, gold, inp, inp if table.gold is not None else None,
                            table.ids, split, score_range)


KINDS = {k.name: k for k in (STSFolder(), STSBenchmark(), STSBenchmarkV2(), SICK(), CLSS(), Typed(), BIOSSES(), STS22(),
                              STS22V2(), Table())}
KINDS["stscompanion"] = STSCompanion()
KINDS[STS2017.name] = STS2017()  # SemEval-2017's tracks (an STS folder with track 6's halved gold)


# MTEB's multilingual STS tasks, one file per language or pair (their datasets: corpora.datasets)
KINDS.update({k.name: k for k in (STS17Crosslingual(), STS22Crosslingual(), STS22CrosslingualV2(), STSBMultilingual())})


def output_kind(path) -> Kind:
    """The kind whose output format a lone output file has: TYPED's eight columns, else an STS file."""
    return KINDS["typed" if typed2013.is_typed_file(path) else "sts"]
