"""The named datasets, their subsets, and where each lives under the data root."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from semsts.core.errors import InvalidValue

from .errors import DatasetNotFound, FormatError, SubsetNotFound
from .kinds import CLSS_LEVELS, COMPANION_PAIRS, KINDS, STS2017_TRACKS, Kind
from .paths import data_root, demo_root, missing_root

__all__ = ["CLSS_LEVELS", "Dataset", "SPECS", "Spec", "Subset", "dataset_names", "folder_of", "load", "locate", "spec"]


@dataclass(frozen=True, eq=False)
class Subset:
    """One scored file of a dataset: its pairs, gold scores (NaN = not scored) and paths.

    ``gold_path`` is None when there is no gold at all (a user's file without scores).
    """

    dataset: str
    name: str
    kind: Kind  # its dataset kind (corpora.kinds): files, reader, range, output names
    pairs: list
    gold: np.ndarray
    input_path: Path
    gold_path: Path | None
    ids: list = field(default_factory=list)
    output_name: str = ""
    given_range: tuple = ()  # the score range when it is not the kind's own (a user's file); () for the kind's
    lines: tuple = ()  # the line of the input file where each pair's row starts; (): pair i on line i + 1

    def __len__(self) -> int:
        return len(self.pairs)

    def __repr__(self) -> str:
        return (f"<Subset {self.dataset}/{self.name}: {len(self)} pairs, {self.n_scored} scored, "
                f"range [{self.score_range[0]:g}, {self.score_range[1]:g}]>")

    @property
    def score_range(self) -> tuple[float, float]:
        return tuple(self.given_range) if self.given_range else self.kind.score_range

    def line(self, index: int) -> int:
        """The line of the input file where pair ``index`` (0-based) starts: the one home of a pair's FILE:LINE."""
        return self.lines[index] if self.lines else index + 1

    def pair_error(self, index: int, message: str) -> FormatError:
        """``message`` about pair ``index`` (0-based) as a FormatError at its file and line."""
        return FormatError(self.input_path, self.line(index), message)

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
    kind: Kind
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
            what = missing[0].kind.no_gold
            files = ", ".join(str(s.input_path) for s in missing)
            raise InvalidValue(f"{files} {'has' if len(missing) == 1 else 'have'} no {what}: "
                               "it can be run but not scored or trained on")

    def subset(self, name: str) -> Subset:
        for sub in self.subsets:
            if sub.name == name:
                return sub
        raise SubsetNotFound(f"{self.name} has no subset {name!r}; it has {', '.join(s.name for s in self.subsets)}")

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
    kind: Kind
    folder: str
    description: str
    expected: tuple = ()  # subsets the task published, in the paper's order
    split: str = ""  # CLSS and STS Benchmark file split name
    licensed_out: tuple = ()  # subsets whose input is not freely distributed

    @property
    def folder_subsets(self) -> tuple:
        """The subsets every registered dataset of this folder reads (the STS 2017 archive: one dataset a track)."""
        return tuple(sub for other in SPECS.values() if other.folder == self.folder for sub in other.expected)


STS, STSB, SICK, CLSS, TYPED = (KINDS[k] for k in ("sts", "stsb", "sick", "clss", "typed"))


def _sts(name, folder, description, expected=(), licensed_out=()):
    return Spec(name, STS, folder, description, tuple(expected), "", tuple(licensed_out))


# The 2017 tracks as datasets of their own (track 5 is ``sts2017-test``): track, the paper's label, name part.
_STS2017_NAMED = [(t, label, label.lower().replace(" ", "-")) for t, label in STS2017_TRACKS.items()
                  if t != "track5.en-en"]

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
    *(Spec(f"sts2017-{short}-test", KINDS["sts2017"], "sts2017/test",
           f"SemEval-2017 Task 1 {track.split('.')[0]} ({label}) test data with gold", (track,))
      for track, label, short in _STS2017_NAMED),
    Spec("sts2017-all-test", KINDS["sts2017"], "sts2017/test",
         "SemEval-2017 Task 1, all seven tracks: per track and the primary score (mean of the tracks' Pearsons)",
         tuple(STS2017_TRACKS)),
    Spec("stsb-train", STSB, "stsbenchmark", "STS Benchmark training split", ("sts-train",), "train"),
    Spec("stsb-dev", STSB, "stsbenchmark", "STS Benchmark development split", ("sts-dev",), "dev"),
    Spec("stsb-test", STSB, "stsbenchmark", "STS Benchmark test split", ("sts-test",), "test"),
    Spec("stsb-v2-dev", KINDS["stsb-v2"], "stsbenchmark",
         "MTEB's STSBenchmark.v2 development split: sts-dev without pairs repeated in it or in train/test", ("sts-dev.v2",),
         "dev"),
    Spec("stsb-v2-test", KINDS["stsb-v2"], "stsbenchmark",
         "MTEB's STSBenchmark.v2 test split: sts-test without pairs repeated in it or in train/dev", ("sts-test.v2",),
         "test"),
    Spec("stscompanion-mt", KINDS["stscompanion"], "stscompanion",
         "STS-B companion, MT-related pairs: SMTnews, SMTeuroparl 2012 and postediting 2016 (evaluation only)",
         tuple(COMPANION_PAIRS["mt"]), "mt"),
    Spec("stscompanion-other", KINDS["stscompanion"], "stscompanion",
         "STS-B companion, other pairs: OnWN 2012-2014, FNWN, tweet-news, belief, plagiarism, question-question "
         "(evaluation only)", tuple(COMPANION_PAIRS["other"]), "other"),
    Spec("clss2014-trial", CLSS, "clss2014", "SemEval-2014 Task 3 CLSS trial data", CLSS_LEVELS, "trial"),
    Spec("clss2014-train", CLSS, "clss2014", "SemEval-2014 Task 3 CLSS training data", CLSS_LEVELS, "train"),
    Spec("clss2014-test", CLSS, "clss2014", "SemEval-2014 Task 3 CLSS test data", CLSS_LEVELS, "test"),
    Spec("sick2014-train", SICK, "sick2014", "SICK (SemEval-2014 Task 1) training pairs, relatedness 1-5",
         ("SICK_train",), "train"),
    Spec("sick2014-trial", SICK, "sick2014", "SICK (SemEval-2014 Task 1) trial pairs, relatedness 1-5",
         ("SICK_trial",), "trial"),
    Spec("sick2014-test", SICK, "sick2014", "SICK (SemEval-2014 Task 1) test pairs with gold, relatedness 1-5",
         ("SICK_test_annotated",), "test"),
    Spec("demo-train", STSB, "<demo>", "Demo: STS Benchmark captions (CC BY-SA), train", ("sts-train",), "train"),
    Spec("demo-dev", STSB, "<demo>", "Demo: STS Benchmark captions (CC BY-SA), dev", ("sts-dev",), "dev"),
    Spec("demo-test", STSB, "<demo>", "Demo: STS Benchmark captions (CC BY-SA), test", ("sts-test",), "test"),
    Spec("typed2013-train", TYPED, "typed2013/train", "*SEM 2013 TYPED pilot training pairs (Europeana records)", ("europeana",), "train"),
    Spec("typed2013-test", TYPED, "typed2013/test", "*SEM 2013 TYPED pilot test pairs (Europeana records)", ("europeana",), "test"),
    Spec("biosses-test", KINDS["biosses"], "biosses",
         "BIOSSES: 100 biomedical sentence pairs, scores 0-4 (MTEB's BIOSSES, mteb/biosses-sts)", ("biosses",), "test"),
    Spec("sts2022-test", KINDS["sts22"], "sts2022/en",
         "SemEval-2022 Task 8 English test pairs, scores 1-4 (MTEB's STS22 en, mteb/sts22-crosslingual-sts)", ("en",), "test"),
    Spec("sts2022-v2-test", KINDS["sts22-v2"], "sts2022/en",
         "MTEB's STS22.v2 en: sts2022-test without the pairs where a text is empty", ("en.v2",), "test"),
]}


# MTEB's multilingual STS tasks, one dataset per task and split, its subsets the task's hf_subsets (languages or
# language pairs) in alphabetical order; their files as MTEB's Hugging Face datasets hold them (corpora.sources).
STS17_PAIRS = ("ar-ar", "en-ar", "en-de", "en-en", "en-tr", "es-en", "es-es", "fr-en", "it-en", "ko-ko", "nl-en")
STS22_LANGUAGES = ("ar", "de", "de-en", "de-fr", "de-pl", "en", "es", "es-en", "es-it", "fr", "fr-pl", "it", "pl",
                   "pl-en", "ru", "tr", "zh", "zh-en")
STSB_MULTI_LANGUAGES = ("de", "en", "es", "fr", "it", "nl", "pl", "pt", "ru", "zh")
SPECS.update({s.name: s for s in [
    Spec("sts17-ml-test", KINDS["mteb-sts17"], "mteb/sts17-crosslingual-sts",
         "MTEB's STS17: SemEval-2017 Task 1's 11 language pairs, scores 0-5 (mteb/sts17-crosslingual-sts)", STS17_PAIRS,
         "test"),
    Spec("sts22-ml-test", KINDS["mteb-sts22"], "mteb/sts22-crosslingual-sts",
         "MTEB's STS22: SemEval-2022 Task 8's 18 language subsets, scores 1-4 (mteb/sts22-crosslingual-sts)",
         STS22_LANGUAGES, "test"),
    Spec("sts22-v2-ml-test", KINDS["mteb-sts22-v2"], "mteb/sts22-crosslingual-sts",
         "MTEB's STS22.v2: sts22-ml-test without the pairs where a text is empty", STS22_LANGUAGES, "test"),
    Spec("stsbmt-test", KINDS["mteb-stsb-multi"], "mteb/stsb_multi_mt",
         "MTEB's STSBenchmarkMultilingualSTS test split: STS-B test in 10 languages, scores 0-5 (mteb/stsb_multi_mt)",
         STSB_MULTI_LANGUAGES, "test"),
    Spec("stsbmt-dev", KINDS["mteb-stsb-multi"], "mteb/stsb_multi_mt",
         "MTEB's STSBenchmarkMultilingualSTS dev split: STS-B dev in 10 languages, scores 0-5 (mteb/stsb_multi_mt)",
         STSB_MULTI_LANGUAGES, "dev"),
]})

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
    return s.kind.locate(s, folder_of(name, data_dir))


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
    subsets = [s.kind.read(name, sub, inp, gold, split=s.split) for sub, inp, gold in located]
    for subset in subsets:
        if not len(subset):
            raise FormatError(subset.input_path, None, "holds no pairs; expected one pair per line")
    present, folder = {sub for sub, _, _ in located}, folder_of(name, data_dir)
    notes = [f"{name}: subset {sub} skipped: its input is LDC-licensed and not in the data root" if sub in s.licensed_out
             else s.kind.missing_note(name, folder, sub) for sub in s.expected if sub not in present]
    notes += s.kind.notes(folder, s)
    return Dataset(name, s.kind, tuple(subsets), tuple(notes))
