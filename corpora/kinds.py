"""Dataset kinds: one declarative record per kind of dataset (STS folder, STS Benchmark, SICK, CLSS, TYPED, MTEB's
JSONL and Parquet exports, a user's table), as mteb's ``TaskMetadata``: its facts (where its files are, its score
range, the task that scores it, its output files) and the one reader it needs.

Named datasets (:mod:`semsts.corpora.datasets`) and a user's files (:mod:`semsts.corpora.user_data`)
read through the same records; the scorer asks a dataset's kind (``scored_as``) how it is scored
instead of switching on names of its own.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np

from semsts.core.errors import InvalidValue, quote

from . import formats, jsonl, sick, tables, typed2013
from .errors import FormatError
from .formats import check_regular, in_place

CLSS_LEVELS = ("paragraph2sentence", "sentence2phrase", "phrase2word", "word2sense")
CLSS_FOLDERS = {"trial": "trial", "train": "training", "test": "test"}
STS_INPUT = re.compile(r"^(STS|STS20\d\d)\.input\.(.+)\.txt$")
STS_GOLD = re.compile(r"^(STS|STS20\d\d)\.gs\.(.+)\.txt$")


class Read(NamedTuple):
    """What a kind's reader is asked: one subset's input file and gold (None: unscored), the score range (the
    kind's, or ``given``: a user's), and which dataset, subset and split it is."""

    dataset: str
    sub: str
    split: str
    inp: Path
    gold: Path | None
    score_range: tuple
    given: tuple = ()
    columns: tuple | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Kind:
    """One kind of dataset: its facts and its reader, in :data:`KINDS`.

    ``reader(Read) -> (pairs, gold or None, ids, lines)``: ``lines`` the line of the input file where each pair's row
    starts, () when pair i is on line i + 1. ``files`` (and ``gold`` when the gold is another file) is where each
    subset's file is under the dataset's folder, a pattern of ``{sub}``, ``{split}`` and ``{split_dir}`` (CLSS's
    folder of a split); a kind whose subsets are found in its folder or file has ``find(spec, folder)`` instead."""

    name: str
    reader: Callable
    files: str = ""
    gold: str = ""
    find: Callable | None = None
    score_range: tuple = formats.STS_RANGE
    scored_as: str = "sts"  # the scorer's task for it: sts, sts2017, clss or typed
    width: int | None = None  # scores per pair; None: one
    no_gold: str = "gold file"  # what a user's file lacks when it cannot be scored
    pins: str = ""  # what :meth:`differences` holds a named dataset's files to, if the kind pins them
    output: str = "STS.output.{sub}.txt"  # a subset's output file ({sub}, {split})
    missing: str | Callable = "{dataset}: subset {sub} skipped: not in the data root"
    noter: Callable | None = None  # (folder, spec) -> notes on a named dataset's files beyond its missing subsets
    differ: Callable | None = None  # (folder, spec) -> how its files differ from the official release's
    official: dict = field(default_factory=dict)  # the official release's pairs (per split or per source file)

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def path_of(self, pattern: str, sub: str, split: str) -> str:
        return pattern.format(sub=sub, split=split, split_dir=CLSS_FOLDERS.get(split, split))

    def locate(self, spec, folder: Path) -> list[tuple[str, Path, Path]]:
        """``(subset, input path, gold path)`` of every subset of the named dataset ``spec`` present in ``folder``."""
        if self.find is not None:
            return self.find(spec, folder)
        found = []
        for sub in spec.expected:
            inp = folder / self.path_of(self.files, sub, spec.split)
            gold = folder / self.path_of(self.gold, sub, spec.split) if self.gold else inp
            if in_place(inp) and in_place(gold):
                found.append((sub, inp, gold))
        return found

    def read(self, dataset: str, sub: str, inp: Path, gold_path: Path | None, *, split: str = "", score_range=(),
             columns=None):
        """The :class:`~semsts.corpora.datasets.Subset` of one input file and its gold (None: unscored); ``score_range``
        the gold's range when it is not the kind's own (a user's file; () for the kind's)."""
        from .datasets import Subset
        given = tuple(score_range)
        pairs, gold, ids, lines = self.reader(Read(dataset, sub, split, inp, gold_path, given or self.score_range,
                                                   given, columns))
        if gold is None:
            gold, gold_path = np.full(len(pairs), math.nan), None
        return Subset(dataset, sub, self, pairs, gold, inp, gold_path, ids, self.output_name(sub, split), given,
                      tuple(lines))

    def output_name(self, sub: str, split: str = "") -> str:
        return self.output.format(sub=sub, split=split)

    def missing_note(self, dataset: str, folder: Path, sub: str) -> str:
        if callable(self.missing):
            return self.missing(dataset, folder, sub)
        return self.missing.format(dataset=dataset, sub=sub, folder=folder, file=self.path_of(self.files, sub, "?"))

    def notes(self, folder: Path, spec) -> list[str]:
        """Notes on the files of a named dataset beyond its missing subsets."""
        return self.noter(folder, spec) if self.noter else []

    def differences(self, folder: Path, spec) -> list[str]:
        """How a named dataset's files differ from the official release's where the kind pins them beyond the
        manifest's SHA-256 (a fetch refuses them unless --unverified); [] when it pins nothing more."""
        return self.differ(folder, spec) if self.differ else []

    def check_output(self, path, n_expected=None, score_range=formats.STS_RANGE) -> list:
        """Every FormatError of one output file of this kind."""
        if self.width:
            return typed2013.check_typed_output(path, n_expected, score_range=score_range)
        return formats.check_output(path, n_expected, score_range)

    def read_output(self, path, n_expected: int, score_range=formats.STS_RANGE):
        """``(scores, confidences or None)`` of a valid output file."""
        if self.width:
            return typed2013.read_typed_output(path, n_expected, score_range=score_range), None
        return formats.read_output(path, n_expected, score_range)

    def write_output(self, path, scores, confidences=None, score_range=formats.STS_RANGE, exact=False) -> None:
        """Write an output file atomically, refusing a NaN or out-of-range score (``exact``: single scores with every
        digit, :func:`formats.format_score`)."""
        if self.width:
            typed2013.write_typed_output(path, scores, score_range=score_range)
        else:
            formats.write_output(path, scores, confidences, score_range=score_range, exact=exact)


def same_length(inp: Path, n_in: int, gold: Path, n_gold: int) -> None:
    if n_in != n_gold:
        raise FormatError(gold, n_gold or None, f"has {n_gold} gold lines but {inp.name} has {n_in} pairs")


def kept(rows, keep) -> tuple:
    """``(pairs, gold, ids, lines)`` of ``rows`` (pairs, gold, ids; pair i on line i + 1) cut to the pairs ``keep``
    marks, each keeping the line of its row."""
    pairs, gold, ids = rows
    return ([p for p, k in zip(pairs, keep) if k], gold[keep], [i for i, k in zip(ids, keep) if k] if ids else [],
            [n for n, k in enumerate(keep, 1) if k])


# --- STS folders (2012-2017): ``STS.input.X.txt`` with ``STS.gs.X.txt`` (or ``STS2016.`` names) per subset


def scan_sts(folder: Path) -> dict[str, tuple[Path, Path | None]]:
    """Subset -> (input, its gold or None) of every input file in ``folder``; two inputs of one subset are refused."""
    found = {}
    for inp in sorted(folder.iterdir()) if folder.is_dir() else ():
        match = STS_INPUT.match(inp.name)
        if not match:  # a folder, FIFO or device of an input's name is refused by the reader, by name
            continue
        prefix, subset = match.groups()
        if subset in found:
            raise FormatError(inp, None, f"subset {subset} has two input files: {found[subset][0].name} and {inp.name}")
        found[subset] = (inp, sts_gold_of(folder, prefix, subset))
    return found


def sts_gold_of(folder: Path, prefix: str, subset: str) -> Path | None:
    """The gold file of an STS input: the same naming first, else the other (``STS.`` / ``STS2016.``); two of another
    naming are refused."""
    same = folder / f"{prefix}.gs.{subset}.txt"
    if in_place(same):
        return same
    others = [p for p in sorted(folder.glob("STS*.gs.*.txt")) if (m := STS_GOLD.match(p.name)) and m.group(2) == subset]
    if len(others) > 1:
        raise FormatError(folder / f"{prefix}.input.{subset}.txt", None, f"has no gold file {same.name} but two of "
                          f"another naming: {others[0].name} and {others[1].name}; which is its gold is not clear")
    return others[0] if others else None


def _find_sts(spec, folder):
    found = [(sub, inp, gold) for sub, (inp, gold) in scan_sts(folder).items()
             if gold is not None and (not spec.expected or sub in spec.expected)]
    order = {n: i for i, n in enumerate(spec.expected)}
    return sorted(found, key=lambda t: (order.get(t[0], len(order)), t[0]))


def _read_sts(r: Read):
    pairs = formats.read_sts_input(r.inp)
    if not pairs:
        raise FormatError(r.inp, None, "holds no pairs; expected one pair per line")
    gold = None
    if r.gold is not None:
        gold = formats.read_gold(r.gold, r.score_range)
        same_length(r.inp, len(pairs), r.gold, len(gold))
    return pairs, gold, [], ()


def _sts_missing(dataset, folder, sub):
    if list(folder.glob(f"STS*.input.{sub}.txt")):
        return f"{dataset}: subset {sub} skipped: its input has no gold file in {folder}"
    return f"{dataset}: subset {sub} skipped: not in the data root"


def _sts_notes(folder, spec):
    """The files in the folder that no registered dataset reads (a file another dataset of the folder reads, as
    each STS 2017 track is, is no news): not read."""
    if spec is None or not spec.expected:
        return []
    known = getattr(spec, "folder_subsets", spec.expected)
    others = [sub for sub in scan_sts(folder) if sub not in known]
    return [f"{spec.name}: files of subsets no registered dataset reads, not read: {', '.join(others)} "
            f"(in {folder})"] if others else []


# SemEval-2017 Task 1's tracks, in the paper's order: file subset -> the paper's column label (the archive's readme
# names the seven input files; track 4 is split into 4a, SNLI, and 4b, WMT news). Track 6 (tr-en) ships 500 input
# pairs for 250 gold lines: gold line i scores input line i (the alignment of a line-by-line paste of the two files)
# and the other 250 pairs are run but unscored; any other count is refused.
STS2017_TRACKS = {"track1.ar-ar": "ar-ar", "track2.ar-en": "ar-en", "track3.es-es": "es-es", "track4a.es-en": "es-en",
                  "track4b.es-en": "es-en WMT", "track5.en-en": "en-en", "track6.tr-en": "tr-en"}
STS2017_CROSSLINGUAL = ("track2.ar-en", "track4a.es-en", "track4b.es-en", "track6.tr-en")
STS2017_HALVED = "track6.tr-en"  # its input holds twice as many pairs as its gold has lines,
HALVED_COUNTS = (500, 250)  # exactly these: input pairs, gold lines (another 2:1 is refused)


def _read_sts2017(r: Read):
    if r.sub != STS2017_HALVED or r.gold is None:
        return _read_sts(r)
    pairs = formats.read_sts_input(r.inp)
    gold = formats.read_gold(r.gold, r.score_range)
    if (len(pairs), len(gold)) == HALVED_COUNTS:
        gold = np.concatenate([gold, np.full(len(gold), math.nan)])
    elif len(pairs) != len(gold):
        raise FormatError(r.gold, len(gold) or None,
                          f"has {len(gold)} gold lines but {r.inp.name} has {len(pairs)} pairs; expected as many "
                          "gold lines as pairs, or track 6's official layout, 500 pairs for 250 gold lines")
    return pairs, gold, [], ()


def _sts2017_notes(folder, spec):
    notes = _sts_notes(folder, spec)
    inp, gold = folder / f"STS.input.{STS2017_HALVED}.txt", folder / f"STS.gs.{STS2017_HALVED}.txt"
    if spec is not None and STS2017_HALVED in spec.expected and in_place(inp) and in_place(gold):
        n_in, n_gold = len(formats.read_lines(inp)), len(formats.read_lines(gold))
        if (n_in, n_gold) == HALVED_COUNTS:
            notes.append(f"{spec.name}: {STS2017_HALVED}: {n_in} pairs for {n_gold} gold lines: gold line i "
                         f"scores pair i, pairs {n_gold + 1}-{n_in} are run but unscored (the organizers' own "
                         "alignment is not confirmed)")
    return notes


# --- The STS Benchmark: one csv per split (genre, file, year, id, score, sentence1, sentence2), scores in [0, 5]; its
# v2 as MTEB derives it, and its companion


def _stsb_range(r: Read) -> None:
    if r.given not in ((), formats.STS_RANGE):
        raise InvalidValue(f"{r.inp}: the STS Benchmark format fixes its scores to [0, 5]; score_range cannot change that")


def _read_stsb(r: Read):
    _stsb_range(r)
    pairs, gold, meta = formats.read_stsb(r.inp)
    return pairs, gold, [m["id"] for m in meta], ()


def v2_key(pair) -> tuple:
    """The order-insensitive key of a sentence pair (MTEB's STSBenchmark.v2 deduplication)."""
    return tuple(sorted(pair))


def v2_keep(pairs, elsewhere) -> np.ndarray:
    """Which pairs STSBenchmark.v2 keeps: those whose key occurs once in ``pairs`` and not in ``elsewhere``."""
    keys = [v2_key(p) for p in pairs]
    counts = Counter(keys)
    return np.array([counts[k] == 1 and k not in elsewhere for k in keys], dtype=bool)


STSB_SPLITS = {"train": 5749, "dev": 1500, "test": 1379}  # the official release's pairs per split


def _stsb_sibling(dataset: str, path: Path) -> list:
    """Another split's pairs, read and checked as its own dataset reads them (missing or empty: refused)."""
    try:
        pairs = formats.read_stsb(path)[0]
        if not pairs:
            raise FormatError(path, None, "holds no pairs; expected one pair per line")
    except FormatError as exc:
        raise FormatError(exc.path, exc.line, f"{exc.message} ({dataset} is derived from all three STS Benchmark "
                                              "splits)") from None
    return pairs


def _read_stsb_v2(r: Read):
    """MTEB's ``STSBenchmark.v2``: a split's pairs without those whose order-insensitive sentence pair occurs twice or
    more in the split (every copy goes) or occurs in one of the other two splits (mteb's task description; official
    files: test 1,362 of 1,379, dev 1,485 of 1,500)."""
    pairs, gold, ids, _ = _read_stsb(r)
    others = set()
    for other in STSB_SPLITS:
        if other != r.split:
            others.update(v2_key(p) for p in _stsb_sibling(r.dataset, r.inp.parent / f"sts-{other}.csv"))
    return kept((pairs, gold, ids), v2_keep(pairs, others))


def _stsb_v2_notes(folder, spec):
    """A split whose pair count is not the official file's: the derived split is not MTEB's."""
    notes = []
    for split, official in STSB_SPLITS.items():
        n = len(formats.read_lines(folder / f"sts-{split}.csv"))
        if n != official:
            notes.append(f"{spec.name}: {folder / f'sts-{split}.csv'} holds {n:,} pairs, the "
                         f"official file {official:,}: the split derived from it is not MTEB's STSBenchmark.v2")
    return notes


# The STS Benchmark's companion (``Stscompanion.tar.gz``): ``sts-mt.csv`` and ``sts-other.csv``, the English STS
# 2012-2016 sets the benchmark left out, rows of file, year, id, score, sentence1, sentence2[, licence fields…]. Each
# source file (its file and year: OnWN of 2012, 2013 and 2014 are three) is a subset, in the file's order. Pairs per
# source file of the official files: the readme's table, whose SMTeuroparl "1293" is 1,193 (the 459 + 734 pairs of the
# 2012 test and training files; 1,836 in sts-mt.csv) and the scored lines of those files.
COMPANION_PAIRS = {
    "mt": {"SMTeuroparl.2012test": 459, "surprise.SMTnews.2012test": 399, "SMTeuroparl.2012train": 734,
           "postediting.2016": 244},
    "other": {"surprise.OnWN.2012test": 750, "OnWN.2013": 561, "OnWN.2014": 750, "FNWN.2013": 189,
              "tweet-news.2014": 750, "belief.2015": 375, "plagiarism.2016": 230, "question-question.2016": 209},
}
_SOURCE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # a subset's name becomes an output file's name


def companion_subsets(path: Path, meta=None) -> dict:
    """Subset (``file.year``) -> the numbers of its rows in the file, in the order subsets first occur (``meta``: the
    rows' fields, when the file was read already)."""
    found: dict = {}
    for number, row in enumerate(formats.read_stsb(path, formats.COMPANION_COLUMNS)[2] if meta is None else meta, 1):
        sub = f"{row['file']}.{row['year']}"
        if not _SOURCE_NAME.fullmatch(sub):
            raise FormatError(path, number, "expected a source file name and year of letters, digits, '.', '-' "
                                            f"and '_', got {quote(row['file'])} and {quote(row['year'])}")
        found.setdefault(sub, []).append(number - 1)
    if not found:
        raise FormatError(path, None, "holds no pairs; expected one pair per line")
    return found


def _read_companion_subset(r: Read):
    _stsb_range(r)
    pairs, gold, meta = formats.read_stsb(r.inp, formats.COMPANION_COLUMNS)
    rows = companion_subsets(r.inp, meta).get(r.sub)
    if rows is None:
        raise FormatError(r.inp, None, f"holds no rows of the source file and year {r.sub}")
    return [pairs[i] for i in rows], gold[rows], [meta[i]["id"] for i in rows], [i + 1 for i in rows]


def _companion_differences(folder, spec) -> list[str]:
    """How the named dataset's file under ``folder`` differs from the official release's pairs per source file
    (:data:`COMPANION_PAIRS`): a file or source file missing, one the release does not hold, another count."""
    official, path = COMPANION_PAIRS.get(spec.split, {}), folder / f"sts-{spec.split}.csv"
    if not in_place(path):
        return [f"{spec.name}: no {path.name}"]
    found = companion_subsets(path)
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


def _companion_notes(folder, spec):
    """A source file the official release does not hold, or whose pair count is not the release's (a missing one is
    a missing subset's note)."""
    if spec is None or not in_place(folder / f"sts-{spec.split}.csv"):
        return []
    return [d for d in _companion_differences(folder, spec) if " lacks " not in d]


def _find_companion(spec, folder):
    path = folder / f"sts-{spec.split}.csv"
    return [(sub, path, path) for sub in companion_subsets(path)] if in_place(path) else []


# --- SICK, CLSS, TYPED and a user's table


def _read_sick(r: Read):
    pairs, gold, ids = sick.read_sick(r.inp, r.score_range)
    if not pairs:
        raise FormatError(r.inp, 1, "a SICK header and no pairs after it; nothing to run or score")
    return pairs, gold, ids, range(2, len(pairs) + 2)  # after the header line


def _read_clss(r: Read):
    pairs, ids = formats.read_clss_input(r.inp, r.sub)
    gold = formats.read_gold(r.gold, formats.CLSS_RANGE)
    same_length(r.inp, len(pairs), r.gold, len(gold))
    return pairs, gold, ids, ()


def _read_typed(r: Read):
    pairs, ids = typed2013.read_pair_records(r.inp)
    gold = typed2013.read_typed_gold(r.gold)
    same_length(r.inp, len(pairs), r.gold, len(gold))
    return pairs, gold, [f"{a} {b}" for a, b in ids], ()


def _read_table(r: Read):
    table = tables.read_table(r.inp, r.columns, r.score_range)
    return table.pairs, table.gold, table.ids, table.lines


# --- MTEB's exports: JSONL (one file, or one per language) and Parquet


def _read_jsonl(r: Read):
    pairs, gold, ids = jsonl.read_jsonl(r.inp, r.score_range)
    if not pairs:
        raise FormatError(r.inp, None, "holds no pairs; expected one JSON object per line")
    return pairs, gold, ids, ()


def _read_jsonl_v2(r: Read):
    """MTEB's ``STS22.v2``: the pairs without those where a text is empty (mteb's task description: "removing pairs
    where one of entries contain empty sentences"; empty here: nothing but whitespace)."""
    pairs, gold, ids, _ = _read_jsonl(r)
    keep = np.array([bool(a.strip()) and bool(b.strip()) for a, b in pairs], dtype=bool)
    if not keep.any():
        raise FormatError(r.inp, None, "every pair has an empty text; STS22.v2 keeps none")
    return kept((pairs, gold, ids), keep)


STSB_MULTI_COLUMNS = ("sentence1", "sentence2", "similarity_score")


def pairs_of_parquet(inp: Path, score_range) -> tuple:
    from . import parquet
    check_regular(inp)
    first, second, scores = parquet.read_columns(inp, STSB_MULTI_COLUMNS)
    if not first:
        raise FormatError(inp, None, "holds no pairs; expected one row per pair")
    lo, hi = score_range
    for row, score in enumerate(scores, 1):
        if not math.isfinite(score) or not lo <= score <= hi:
            raise FormatError(inp, None, f"row {row}: similarity_score {score!r} is outside [{lo:g}, {hi:g}]")
    return list(zip(first, second)), np.asarray(scores, dtype=float), []


def _read_parquet(r: Read):
    return *pairs_of_parquet(r.inp, r.score_range), ()


_MTEB_MISSING = "{dataset}: subset {sub} skipped: {file} is not in {folder}"
_KINDS = (
    Kind("sts", _read_sts, find=_find_sts, missing=_sts_missing, noter=_sts_notes),
    Kind("stsb", _read_stsb, "sts-{split}.csv"),
    Kind("stsb-v2", _read_stsb_v2, "sts-{split}.csv", noter=_stsb_v2_notes, official=STSB_SPLITS),
    Kind("sick", _read_sick, "{sub}.txt", score_range=sick.SICK_RANGE),
    Kind("clss", _read_clss, "data/{split_dir}/{sub}.{split}.input.tsv", "keys/{split_dir}/{sub}.{split}.gs.tsv",
         score_range=formats.CLSS_RANGE, scored_as="clss", output="{sub}.{split}.output.tsv"),
    Kind("typed", _read_typed, typed2013.INPUT_NAME, typed2013.GOLD_NAME, scored_as="typed",
         width=len(typed2013.TYPES), output=typed2013.OUTPUT_NAME, noter=lambda folder, spec: typed2013.gone_notes(folder)),
    # BIOSSES (Soğancıoğlu et al. 2017): 100 biomedical sentence pairs, each the mean of five annotators' 0-4 scores,
    # as ``mteb/biosses-sts`` holds them
    Kind("biosses", _read_jsonl, "test.jsonl.gz", score_range=(0.0, 4.0)),
    # SemEval-2022 Task 8 (multilingual news article similarity), its English test pairs as
    # ``mteb/sts22-crosslingual-sts`` holds them: scores 1-4, 4 the most similar (mteb inverted the task's scale)
    Kind("sts22", _read_jsonl, "test.jsonl", score_range=(1.0, 4.0)),
    Kind("sts22-v2", _read_jsonl_v2, "test.jsonl", score_range=(1.0, 4.0)),
    Kind("table", _read_table, no_gold=tables.NO_SCORE),  # a user's headed TSV/CSV (corpora.tables)
    Kind("stscompanion", _read_companion_subset, find=_find_companion, pins="the official pairs per source file",
         missing="{dataset}: the official release's source file {sub} is not in the file; its other files are read",
         noter=_companion_notes, differ=_companion_differences, official=COMPANION_PAIRS),
    Kind("sts2017", _read_sts2017, find=_find_sts, scored_as="sts2017", missing=_sts_missing, noter=_sts2017_notes),
    # MTEB's multilingual STS tasks, one file per hf_subset (a language or pair) at its path in the Hugging Face
    # repository; MTEB scores each subset on its own and reports their plain mean as the task's score
    Kind("mteb-sts17", _read_jsonl, "test/{sub}.jsonl.gz", missing=_MTEB_MISSING),
    Kind("mteb-sts22", _read_jsonl, "{sub}/test.jsonl", score_range=(1.0, 4.0), missing=_MTEB_MISSING),
    Kind("mteb-sts22-v2", _read_jsonl_v2, "{sub}/test.jsonl", score_range=(1.0, 4.0), missing=_MTEB_MISSING,
         output="STS.output.{sub}.v2.txt"),
    # STSBenchmarkMultilingualSTS: the STS Benchmark machine-translated (DeepL) into 9 languages with the English
    # original, as ``mteb/stsb_multi_mt`` holds them (Parquet; the score column is ``similarity_score``)
    Kind("mteb-stsb-multi", _read_parquet, "{split}/{sub}.parquet", missing=_MTEB_MISSING,
         output="STS.output.{split}.{sub}.txt"),
)
KINDS = {k.name: k for k in _KINDS}


def output_kind(path) -> Kind:
    """The kind whose output format a lone output file has: TYPED's eight columns, else an STS file."""
    return KINDS["typed" if typed2013.is_typed_file(path) else "sts"]
