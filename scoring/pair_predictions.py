"""``sts bench --save-predictions DIR``: each bench row's scored pairs with their texts, gold and prediction, one
JSON Lines file per row and dataset, and the worst pairs the report lists.

The pairs come from the rows themselves (each dataset's ``subset -> (gold, prediction)`` parts, the values the
figures were computed from) joined with the datasets' texts, so any kind of row (system, model, encoder, runs, a
future one) is saved the same way. The folder is owned as ``sts run --out`` owns its own: a manifest
(:data:`MANIFEST`) names what a save wrote; nothing else in the folder is replaced or removed.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from semsts import corpora
from semsts.core.errors import InvalidValue
from semsts.core.files import atomic_open, missing_folders, remove_empty, remove_temps, sha256_of_file, tagged_temps

from .bench import MTEB_POOLS

FORMAT = 1
MANIFEST = "predictions.json"
README = "README.txt"
SUFFIX = ".jsonl"
FIELDS = ("subset", "pair", "id", "gold", "prediction", "sentence1", "sentence2")
WORST = 10  # the pairs the report lists per row and dataset
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,79}")

README_TEXT = """Per-pair predictions of `sts bench --save-predictions` (format {format}).

One file per bench row and dataset, named ROW.DATASET.jsonl: ROW is the row's label as the tables print it when
that label is made of letters, digits and . _ + - (else those characters with a short hash of the whole label, so
two labels never share a name); DATASET is the registered dataset name. {manifest} lists every file with its row's
label, dataset and pair count.

Each line is one JSON object, one per gold-scored pair of the dataset, in the dataset's order, with the keys:
  subset      the subset (the file of the dataset) the pair is in
  pair        the pair's 1-based position in that subset as read (the line of an STS.input.*.txt file or of the
              STS Benchmark csv; SICK's files have a header line first; a derived dataset, e.g. stsb-v2-test,
              numbers the pairs it keeps)
  id          the pair's id in the file where its format has one (STS Benchmark, SICK, MTEB's files), else null
  gold        the gold score
  prediction  the prediction the bench scored: the system's score mapped onto the task's range, clipped and
              rounded to six decimals, as an output file of `sts run` holds it
  sentence1, sentence2  the two texts

MTEB's SICK-R figure is the Spearman correlation over all of SICK (train, trial and test): a row with an MTEB
SICK-R figure also has ROW.sick2014-train.jsonl and ROW.sick2014-trial.jsonl; the other conventions' SICK-R figures
use ROW.sick2014-test.jsonl alone.

Files:
{files}
"""


@dataclass(frozen=True)
class PairTable:
    """One row's scored pairs of one dataset: what a prediction file holds (``figure``: the dataset whose figure the
    pairs count in; a dataset MTEB pools into another's figure names that one)."""

    row: str
    dataset: str
    figure: str
    row_number: int  # the row's place among the bench's rows (two rows may share a label)
    subset: tuple
    pair: tuple
    ids: tuple
    sentence1: tuple
    sentence2: tuple
    gold: np.ndarray
    prediction: np.ndarray

    def __len__(self) -> int:
        return len(self.pair)

    def records(self):
        for i in range(len(self)):
            yield {"subset": self.subset[i], "pair": self.pair[i], "id": self.ids[i], "gold": float(self.gold[i]),
                   "prediction": float(self.prediction[i]), "sentence1": self.sentence1[i],
                   "sentence2": self.sentence2[i]}


def _table(row: str, number: int, ds, figure: str, parts: dict, prefix: str = "") -> PairTable:
    """The table of ``ds``'s scored pairs and ``parts`` (subset -> (gold, prediction) of the scored pairs)."""
    cols = {k: [] for k in ("subset", "pair", "ids", "sentence1", "sentence2", "gold", "prediction")}
    for sub in ds:
        gold = np.asarray(sub.gold, dtype=float)
        if gold.ndim != 1:
            raise InvalidValue(f"{ds.name}: its gold scores are not one per pair; no prediction file is written for it")
        keep = np.flatnonzero(~np.isnan(gold))
        scored_gold, prediction = (np.asarray(v, dtype=float) for v in parts[prefix + sub.name])
        if len(scored_gold) != len(keep) or not np.array_equal(scored_gold, gold[keep]):
            raise InvalidValue(f"{sub.input_path}: its scored pairs are not those the bench scored (did the file change "
                               "while it ran?); run the bench again")
        cols["subset"] += [sub.name] * len(keep)
        cols["pair"] += [int(i) + 1 for i in keep]
        cols["ids"] += [sub.ids[i] for i in keep] if sub.ids else [None] * len(keep)
        cols["sentence1"] += [sub.pairs[i][0] for i in keep]
        cols["sentence2"] += [sub.pairs[i][1] for i in keep]
        cols["gold"].append(scored_gold)
        cols["prediction"].append(prediction)
    gold, prediction = (np.concatenate(cols.pop(k)) for k in ("gold", "prediction"))
    return PairTable(row, ds.name, figure, number, *(tuple(cols[k]) for k in ("subset", "pair", "ids", "sentence1", "sentence2")),
                     gold, prediction)


def pair_tables(rows, data_dir=None) -> list[PairTable]:
    """Every row's tables: one per dataset it has figures for, then the datasets MTEB pools into one of its figures.
    The texts are read again from the data root, and each subset's gold checked against the gold the row holds."""
    loaded: dict = {}

    def dataset(name):
        if name not in loaded:
            loaded[name] = corpora.load(name, data_dir)
        return loaded[name]
    out = []
    for number, r in enumerate(rows):
        pooled = []
        for d, f in r.figures.items():
            out.append(_table(r.system, number, dataset(d), d, f.parts))
            if d in MTEB_POOLS and f.mteb_parts is not None:
                pooled += [_table(r.system, number, dataset(p), d, f.mteb_parts, prefix=f"{p}/") for p in MTEB_POOLS[d]]
        out += pooled
    return out


def row_slug(label: str) -> str:
    """A file-name part for a row label: the label itself when it is made of safe characters, else those characters
    and 8 hex digits of the label's SHA-256 (``regression (m.skops)`` -> ``regression_m.skops-1a2b3c4d``)."""
    if _SAFE.fullmatch(label) and not label.endswith("."):
        return label
    cleaned = re.sub(r"[^A-Za-z0-9_.+-]+", "_", label).strip("._+-")[:60] or "row"
    return f"{cleaned}-{hashlib.sha256(label.encode('utf-8')).hexdigest()[:8]}"


def file_names(tables) -> list[str]:
    """Each table's file name, ``ROW.DATASET.jsonl``; a row whose ROW another row took already (the same label twice,
    or labels differing only in case, which some file systems do not tell apart) gets ``ROW-2``, ``ROW-3`` …"""
    bases: dict = {}
    for t in tables:
        key = (t.row_number, t.row)
        if key not in bases:
            base, k, taken = row_slug(t.row), 1, {b.lower() for b in bases.values()}
            while (f"{base}-{k}" if k > 1 else base).lower() in taken:
                k += 1
            bases[key] = f"{base}-{k}" if k > 1 else base
    names = [f"{bases[(t.row_number, t.row)]}.{t.dataset}{SUFFIX}" for t in tables]
    if len({n.lower() for n in names}) != len(names):
        raise InvalidValue("two prediction tables of one row and dataset; nothing is written")
    return names


def check_folder(folder) -> dict | None:
    """Refuse a ``folder`` a save could not write without replacing a file it did not write, before minutes of
    predicting: it must be absent, or a folder whose prediction files (``*.jsonl``) and README an earlier save's
    manifest names. Other files are kept. Returns the earlier manifest (None without one)."""
    folder = Path(folder)
    if not folder.exists():
        return None
    if not folder.is_dir():
        raise InvalidValue(f"{folder}: not a folder (--save-predictions takes a folder, new or not: it replaces only "
                           "the files an earlier --save-predictions wrote there and leaves the others alone)")
    manifest = None
    if os.path.lexists(folder / MANIFEST):
        from semsts.core.files import read_record
        try:
            manifest = read_record(folder / MANIFEST)  # bounded, never waited on (a FIFO)
        except ValueError:
            manifest = None
        if not (isinstance(manifest, dict) and manifest.get("sts_bench_predictions") == FORMAT
                and isinstance(manifest.get("files"), dict)):
            raise InvalidValue(f"{folder / MANIFEST}: not a manifest of `sts bench --save-predictions` (format "
                               f"{FORMAT}); give a new folder, or move it away")
    listed = manifest["files"] if manifest else {}
    foreign = [p.name for p in sorted(folder.iterdir()) if _ours(p.name) and p.name not in listed]
    if foreign:
        raise InvalidValue(f"{folder}: holds {', '.join(foreign[:5])}{' …' if len(foreign) > 5 else ''}, which no "
                           f"--save-predictions wrote ({MANIFEST} does not name it); a save would replace such files: "
                           "give a new folder, or move them away")
    return manifest


def _ours(name: str) -> bool:
    """A name a save writes: a prediction file or the README."""
    return name.endswith(SUFFIX) or name == README


def _line(record: dict) -> str:
    try:
        return json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError:
        raise InvalidValue(f"pair {record['pair']} of {record['subset']}: a gold score or prediction is not a finite "
                           "number; nothing is written for it") from None


def _readme(tables, names) -> str:
    files = "\n".join(f"  {name}  row {t.row!r}, {t.dataset}" + (f" (pooled into {t.figure}'s MTEB figure)"
                                                                 if t.figure != t.dataset else "") + f", {len(t)} pairs"
                      for t, name in zip(tables, names))
    return README_TEXT.format(format=FORMAT, manifest=MANIFEST, files=files)


def _write_manifest(folder: Path, tag: str, files: dict, complete: bool) -> None:
    doc = {"sts_bench_predictions": FORMAT, "complete": complete, "temp_tag": tag, "fields": list(FIELDS),
           "files": dict(sorted(files.items()))}
    with atomic_open(folder / MANIFEST) as handle:
        handle.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


def save_predictions(tables, folder) -> list[Path]:
    """Write each table as ``folder/ROW.DATASET.jsonl`` (each file renamed into place once whole), a README and the
    manifest; the files an earlier save wrote there and this one does not are removed. On a failure this save's
    files are removed again, and the folder if it created it. Returns the prediction files."""
    folder = Path(folder)
    earlier = check_folder(folder) or {}
    old, old_tag = earlier.get("files", {}), earlier.get("temp_tag")
    names = file_names(tables)
    created = missing_folders(folder)
    tag = secrets.token_hex(4)
    written: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # a save killed from here on leaves a manifest naming every file it may have written, so the next save may
        # replace them, and its temporaries (named by its tag), so the next save removes them
        _write_manifest(folder, tag, {**old, **dict.fromkeys([*names, README])}, complete=False)
        remove_temps(folder, old_tag)
        files = {}
        with tagged_temps(tag):
            for t, name in zip(tables, names):
                with atomic_open(folder / name) as handle:
                    for record in t.records():
                        handle.write(_line(record))
                written.append(folder / name)
                files[name] = {"row": t.row, "dataset": t.dataset, "figure": t.figure, "pairs": len(t),
                               "sha256": sha256_of_file(folder / name)}
            with atomic_open(folder / README) as handle:
                handle.write(_readme(tables, names))
            written.append(folder / README)
            files[README] = {"sha256": sha256_of_file(folder / README)}
            for name in old:
                if name not in files and _ours(name) and (folder / name).exists():
                    (folder / name).unlink()
            _write_manifest(folder, tag, files, complete=True)
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        if folder.is_dir():
            remove_temps(folder, tag)
        if created:
            (folder / MANIFEST).unlink(missing_ok=True)
            remove_empty(created)
        raise
    return written[:-1]


def percentile_ranks(values) -> np.ndarray:
    """Each value's rank among ``values`` on [0, 1] (ties share their mean rank; one value: 0.5)."""
    from scipy.stats import rankdata
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return np.full(len(values), 0.5)
    return (rankdata(values) - 1) / (len(values) - 1)


def worst_pairs(table: PairTable, n: int = WORST) -> list[tuple[int, float]]:
    """The ``n`` pairs whose gold and prediction disagree most, as ``(index, gap)``: gap = |percentile rank of the
    gold - percentile rank of the prediction| among the table's pairs, the ranks a Spearman correlation compares
    (a prediction on another scale than the gold is compared fairly); ties in the order of the file."""
    gaps = np.round(np.abs(percentile_ranks(table.gold) - percentile_ranks(table.prediction)), 9)  # last bits tie
    order = np.argsort(-gaps, kind="stable")[:n]
    return [(int(i), float(gaps[i])) for i in order]

