"""The named datasets, their subsets, and where each lives under the data root."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import formats, sick, typed2013
from .errors import DatasetNotFound, FormatError
from .paths import data_root, demo_root, missing_root

CLSS_LEVELS = ("paragraph2sentence", "sentence2phrase", "phrase2word", "word2sense")


@dataclass(frozen=True, eq=False)
class Subset:
    """One scored file of a dataset: its pairs, gold scores (NaN = not scored) and paths.

    ``gold_path`` is None when there is no gold at all (a user's file without scores).
    """

    dataset: str
    name: str
    kind: str  # "sts", "stsb", "clss", "typed", "sick" or "table" (a user's TSV/CSV)
    pairs: list
    gold: np.ndarray
    input_path: Path
    gold_path: Path | None
    ids: list = field(default_factory=list)
    output_name: str = ""
    bounds: tuple = ()  # the gold range when it is not the kind's own (a user's file)

    def __len__(self) -> int:
        return len(self.pairs)

    def __repr__(self) -> str:
        return (f"<Subset {self.dataset}/{self.name}: {len(self)} pairs, {self.n_scored} scored, "
                f"range [{self.score_range[0]:g}, {self.score_range[1]:g}]>")

    @property
    def score_range(self) -> tuple[float, float]:
        if self.bounds:
            return tuple(self.bounds)
        return {"clss": formats.CLSS_RANGE, "sick": sick.SICK_RANGE}.get(self.kind, formats.STS_RANGE)

    @property
    def has_gold(self) -> bool:
        return self.gold_path is not None

    @property
    def n_scored(self) -> int:
        """Pairs with gold; a TYPED pair (a row of eight) counts once."""
        return int(np.count_nonzero(~np.isnan(self.gold).reshape(len(self.gold), -1).any(axis=1)))


@dataclass(frozen=True, eq=False)
class Dataset:
    """A named dataset: its subsets in a fixed order, and notes on subsets left out."""

    name: str
    kind: str
    subsets: tuple
    notes: tuple = ()
    path: Path | None = None  # a user's file or folder: where it was read from (None for a named dataset)
    sha256: str = ""  # … and its digest (see corpora.user_data.digest), for signatures

    def __iter__(self):
        return iter(self.subsets)

    def __len__(self) -> int:
        return len(self.subsets)

    def __repr__(self) -> str:
        subs = ", ".join(f"{s.name} ({len(s)}" + (f", {s.n_scored} scored)" if s.n_scored != len(s) else ")")
                         for s in self.subsets)
        scored = sum(s.n_scored for s in self.subsets)
        total = sum(len(s) for s in self.subsets)
        return f"<Dataset {self.name} ({self.kind}): {total} pairs, {scored} scored; {subs}>"

    @property
    def has_gold(self) -> bool:
        """Every subset has gold scores (a user's file without a score column has none)."""
        return all(s.has_gold for s in self.subsets)

    def require_gold(self) -> None:
        """Raise a ValueError naming the files without scores; for code that scores or trains."""
        missing = [s for s in self.subsets if not s.has_gold]
        if missing:
            what = "score column" if missing[0].kind == "table" else "gold file"
            files = ", ".join(str(s.input_path) for s in missing)
            raise ValueError(f"{files} {'has' if len(missing) == 1 else 'have'} no {what}: "
                             "it can be run but not scored or trained on")

    def subset(self, name: str) -> Subset:
        for sub in self.subsets:
            if sub.name == name:
                return sub
        raise KeyError(f"{self.name} has no subset {name!r}; it has {', '.join(s.name for s in self.subsets)}")

    @property
    def pairs(self) -> list:
        return [pair for sub in self.subsets for pair in sub.pairs]

    @property
    def gold(self) -> np.ndarray:
        return np.concatenate([sub.gold for sub in self.subsets]) if self.subsets else np.zeros(0)


@dataclass(frozen=True)
class Spec:
    """How to find a named dataset under a root."""

    name: str
    kind: str
    folder: str
    description: str
    expected: tuple = ()  # subsets the task published, in the paper's order
    split: str = ""  # CLSS and STS Benchmark file split name
    licensed_out: tuple = ()  # subsets whose input is not freely distributed


def _sts(name, folder, description, expected=(), licensed_out=()):
    return Spec(name, "sts", folder, description, tuple(expected), "", tuple(licensed_out))


SPECS = {s.name: s for s in [
    _sts("sts2012-train", "sts2012/train", "SemEval-2012 Task 6 training data",
         ["MSRpar", "MSRvid", "SMTeuroparl"]),
    _sts("sts2012-test", "sts2012/test", "SemEval-2012 Task 6 test data with gold",
         ["MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews"]),
    _sts("sts2013-test", "sts2013/test", "*SEM 2013 CORE test data with gold",
         ["headlines", "OnWN", "FNWN", "SMT"], licensed_out=["SMT"]),
    _sts("sts2014-test", "sts2014/test", "SemEval-2014 Task 10 English test data with gold",
         ["deft-forum", "deft-news", "headlines", "images", "OnWN", "tweet-news"]),
    _sts("sts2015-test", "sts2015/test", "SemEval-2015 Task 2 English test data with gold",
         ["answers-forums", "answers-students", "belief", "headlines", "images"]),
    _sts("sts2016-test", "sts2016/test", "SemEval-2016 Task 1 English test data with gold",
         ["answer-answer", "headlines", "plagiarism", "postediting", "question-question"]),
    _sts("sts2017-test", "sts2017/test", "SemEval-2017 Task 1 track 5 (English) test data with gold",
         ["track5.en-en"]),
    Spec("stsb-train", "stsb", "stsbenchmark", "STS Benchmark training split", ("sts-train",), "train"),
    Spec("stsb-dev", "stsb", "stsbenchmark", "STS Benchmark development split", ("sts-dev",), "dev"),
    Spec("stsb-test", "stsb", "stsbenchmark", "STS Benchmark test split", ("sts-test",), "test"),
    Spec("clss2014-trial", "clss", "clss2014", "SemEval-2014 Task 3 CLSS trial data", CLSS_LEVELS, "trial"),
    Spec("clss2014-train", "clss", "clss2014", "SemEval-2014 Task 3 CLSS training data", CLSS_LEVELS, "train"),
    Spec("clss2014-test", "clss", "clss2014", "SemEval-2014 Task 3 CLSS test data", CLSS_LEVELS, "test"),
    Spec("sick2014-train", "sick", "sick2014", "SICK (SemEval-2014 Task 1) training pairs, relatedness 1-5",
         ("SICK_train",), "train"),
    Spec("sick2014-trial", "sick", "sick2014", "SICK (SemEval-2014 Task 1) trial pairs, relatedness 1-5",
         ("SICK_trial",), "trial"),
    Spec("sick2014-test", "sick", "sick2014", "SICK (SemEval-2014 Task 1) test pairs with gold, relatedness 1-5",
         ("SICK_test_annotated",), "test"),
    Spec("demo-train", "stsb", "<demo>", "Demo: STS Benchmark captions (CC BY-SA), train", ("sts-train",), "train"),
    Spec("demo-dev", "stsb", "<demo>", "Demo: STS Benchmark captions (CC BY-SA), dev", ("sts-dev",), "dev"),
    Spec("demo-test", "stsb", "<demo>", "Demo: STS Benchmark captions (CC BY-SA), test", ("sts-test",), "test"),
    Spec("typed2013-train", "typed", "typed2013/train", "*SEM 2013 TYPED pilot training pairs (Europeana records)", ("europeana",), "train"),
    Spec("typed2013-test", "typed", "typed2013/test", "*SEM 2013 TYPED pilot test pairs (Europeana records)", ("europeana",), "test"),
]}

CLSS_FOLDERS = {"trial": "trial", "train": "training", "test": "test"}
_STS_INPUT = re.compile(r"^(STS|STS20\d\d)\.input\.(.+)\.txt$")
_STS_GOLD = re.compile(r"^(STS|STS20\d\d)\.gs\.(.+)\.txt$")


def dataset_names() -> list[str]:
    return list(SPECS)


def spec(name: str) -> Spec:
    try:
        return SPECS[name]
    except KeyError:
        raise DatasetNotFound(f"unknown dataset {name!r}; known: {', '.join(SPECS)}") from None


def folder_of(name: str, data_dir=None) -> Path:
    s = spec(name)
    return demo_root() if s.folder == "<demo>" else data_root(data_dir) / s.folder


def locate(name: str, data_dir=None) -> list[tuple[str, Path, Path]]:
    """``(subset, input path, gold path)`` for every subset present, in the task's order."""
    s = spec(name)
    folder = folder_of(name, data_dir)
    if s.kind == "stsb":
        path = folder / f"sts-{s.split}.csv"
        return [(f"sts-{s.split}", path, path)] if path.is_file() else []
    if s.kind == "sick":
        path = folder / sick.FILES[s.split]
        return [(path.stem, path, path)] if path.is_file() else []
    if s.kind == "clss":
        sub = CLSS_FOLDERS[s.split]
        found = []
        for level in CLSS_LEVELS:
            inp = folder / "data" / sub / f"{level}.{s.split}.input.tsv"
            gold = folder / "keys" / sub / f"{level}.{s.split}.gs.tsv"
            if inp.is_file() and gold.is_file():
                found.append((level, inp, gold))
        return found
    if s.kind == "typed":
        inp, gold = folder / typed2013.INPUT_NAME, folder / typed2013.GOLD_NAME
        return [("europeana", inp, gold)] if inp.is_file() and gold.is_file() else []
    found = {}
    if folder.is_dir():
        for inp in sorted(folder.iterdir()):
            match = _STS_INPUT.match(inp.name)
            if not match:
                continue
            prefix, subset = match.groups()
            gold = _sts_gold(folder, prefix, subset)
            if gold is None:
                continue
            if subset in found:
                raise FormatError(inp, None, f"subset {subset} has two input files: {found[subset][1].name} and {inp.name}")
            found[subset] = (subset, inp, gold)
    order = {n: i for i, n in enumerate(s.expected)}
    return sorted(found.values(), key=lambda t: (order.get(t[0], len(order)), t[0]))


def _sts_gold(folder: Path, prefix: str, subset: str) -> Path | None:
    """The gold file of an STS input: the same naming first, else the other (``STS.`` / ``STS2016.``)."""
    same = folder / f"{prefix}.gs.{subset}.txt"
    if same.is_file():
        return same
    others = [p for p in sorted(folder.glob("STS*.gs.*.txt")) if _gold_subset(p.name) == subset]
    return others[0] if others else None


def _gold_subset(filename: str) -> str | None:
    match = _STS_GOLD.match(filename)
    return match.group(2) if match else None


def load(name: str, data_dir=None) -> Dataset:
    """Read a named dataset from the data root; missing licensed subsets become notes."""
    s = spec(name)
    located = locate(name, data_dir)
    if not located:
        absent = None if s.folder == "<demo>" else missing_root(data_dir)
        raise DatasetNotFound(
            f"dataset {name!r} is not in {folder_of(name, data_dir)}"
            + (f": {absent}" if absent else "")
            + f"; run `sts data fetch {name}` or point --data-dir / STS_DATA at a data root")
    subsets = [_read_subset(s, sub, inp, gold) for sub, inp, gold in located]
    for subset in subsets:
        if not len(subset):
            raise FormatError(subset.input_path, None, "holds no pairs; expected one pair per line")
    present = {sub for sub, _, _ in located}
    notes = []
    folder = folder_of(name, data_dir)
    for missing in s.expected:
        if missing in present:
            continue
        if missing in s.licensed_out:
            notes.append(f"{name}: subset {missing} skipped: its input is LDC-licensed and not in the data root")
        elif s.kind == "sts" and list(folder.glob(f"STS*.input.{missing}.txt")):
            notes.append(f"{name}: subset {missing} skipped: its input has no gold file in {folder}")
        else:
            notes.append(f"{name}: subset {missing} skipped: not in the data root")
    if s.kind == "typed":
        notes += typed2013.gone_notes(folder)
    return Dataset(name, s.kind, tuple(subsets), tuple(notes))


def _read_subset(s: Spec, sub: str, inp: Path, gold_path: Path) -> Subset:
    if s.kind == "stsb":
        pairs, gold, meta = formats.read_stsb(inp)
        return Subset(s.name, sub, "stsb", pairs, gold, inp, gold_path,
                      [m["id"] for m in meta], f"STS.output.{sub}.txt")
    if s.kind == "sick":
        pairs, gold, ids = sick.read_sick(inp)
        return Subset(s.name, sub, "sick", pairs, gold, inp, gold_path, ids, f"STS.output.{sub}.txt")
    if s.kind == "clss":
        pairs, ids = formats.read_clss_input(inp, sub)
        gold = formats.read_gold(gold_path, formats.CLSS_RANGE)
        _same_length(inp, len(pairs), gold_path, len(gold))
        return Subset(s.name, sub, "clss", pairs, gold, inp, gold_path, ids, f"{sub}.{s.split}.output.tsv")
    if s.kind == "typed":
        pairs, ids = typed2013.read_pair_records(inp)
        gold = typed2013.read_typed_gold(gold_path)
        _same_length(inp, len(pairs), gold_path, len(gold))
        return Subset(s.name, sub, "typed", pairs, gold, inp, gold_path, [f"{a} {b}" for a, b in ids], typed2013.OUTPUT_NAME)
    pairs = formats.read_sts_input(inp)
    gold = formats.read_gold(gold_path, formats.STS_RANGE)
    _same_length(inp, len(pairs), gold_path, len(gold))
    return Subset(s.name, sub, "sts", pairs, gold, inp, gold_path, [], f"STS.output.{sub}.txt")


def _same_length(inp: Path, n_in: int, gold: Path, n_gold: int) -> None:
    if n_in != n_gold:
        raise FormatError(gold, n_gold or None, f"has {n_gold} gold lines but {inp.name} has {n_in} pairs")
