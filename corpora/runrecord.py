"""Run directories: a run owns its output folder and leaves a small record of what it wrote (the tool's one scheme
of a folder it wrote, :mod:`semsts.core.files`: a record naming its files and the tag of its temporaries).

While a run writes, it holds a lock (``.sts-run.lock``, an ``flock``, so a killed run frees it) and
its record ``sts-run.json`` says ``"complete": false``; the record is rewritten last with the SHA-256
of every file written. The scorer reads a folder only if its files all come from one complete run
(or, as for files written by hand, there is no record at all).
"""
from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from pathlib import Path

from semsts.core import files
from semsts.core.errors import STSError

from .errors import FormatError
from .manifest import sha256

RECORD_NAME = "sts-run.json"
LOCK_NAME = ".sts-run.lock"
FORMAT = 1


class RunBusy(OSError, STSError):
    """Another run is writing into the folder."""


class RunDir:
    """The folder a run owns: ``add`` each file once written; the record is completed on leaving."""

    def __init__(self, path: Path, system: str, dataset: str, model_sha256: str | None, dataset_sha256: str = ""):
        self.path, self.system, self.dataset, self.model_sha256 = path, system, dataset, model_sha256
        self.dataset_sha256 = dataset_sha256
        self.temp_tag = files.new_tag()  # names this run's temporary files (see clean_stale)
        self.files: dict[str, str] = {}

    def add(self, path) -> None:
        self.files[Path(path).name] = sha256(path)

    def _write(self, complete: bool) -> None:
        record = {"sts_run": FORMAT, "complete": complete, "system": self.system, "dataset": self.dataset,
                  "model_sha256": self.model_sha256, "files": dict(sorted(self.files.items())),
                  "temp_tag": self.temp_tag}
        if self.dataset_sha256:  # a user's file or folder: what it held when the run read it
            record["dataset_sha256"] = self.dataset_sha256
        files.write_text_atomic(self.path / RECORD_NAME, json.dumps(record, indent=1) + "\n")


@contextmanager
def _locked(out_dir: Path):
    """Hold ``out_dir``'s lock (RunBusy if another run holds it); the holder removes the lock file after."""
    out_dir.mkdir(parents=True, exist_ok=True)
    lock_path = out_dir / LOCK_NAME
    with open(lock_path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise RunBusy(f"{out_dir}: another run is writing into this directory ({LOCK_NAME} is held); "
                          "wait for it or choose another --out") from None
        try:
            yield
        finally:
            os.unlink(lock_path)  # only the holder removes the lock


@contextmanager
def owned(out_dir, system: str, dataset: str, model_sha256: str | None = None, dataset_sha256: str = ""):
    """Lock ``out_dir``, mark it incomplete, yield a RunDir; on success write the complete record.

    On a failure, a folder that was there before keeps the incomplete record (the scorer refuses it, the next run
    cleans it); a folder this run created is removed with what the run wrote in it, and the parents it created."""
    out_dir = Path(out_dir)
    created = files.missing_folders(out_dir)
    try:
        with _locked(out_dir):
            run = RunDir(out_dir, system, dataset, model_sha256, dataset_sha256)
            try:
                run._write(complete=False)  # from here on, a failure leaves a folder the scorer refuses
                with files.tagged_temps(run.temp_tag):
                    yield run
                    run._write(complete=True)
            except BaseException:
                if created:  # what the failed run wrote in the folder it created: outputs, temporaries, record
                    files.remove_listed(out_dir, run.files)
                    (out_dir / RECORD_NAME).unlink(missing_ok=True)
                    files.remove_temps(out_dir, run.temp_tag)
                raise
    except BaseException:
        files.remove_empty(created)
        raise


def clean_stale(out_dir) -> list[Path]:
    """Remove the temporary files a killed run left in ``out_dir``; the paths removed.

    Only what that run can be proven to have written: its record, left incomplete, names the tag its
    temporary files carry (``.NAME.TAG.tmp``). A user's files and another program's temporaries are kept.
    Only with the directory's lock held, so a run that is writing keeps its files.
    """
    out_dir = Path(out_dir)
    if not out_dir.is_dir():
        return []
    try:
        with _locked(out_dir):
            try:
                record = read_record(out_dir)
            except FormatError:
                return []
            if record is None or record["complete"] is True:
                return []
            return files.remove_temps(out_dir, record.get("temp_tag"))
    except RunBusy:
        return []


def read_record(run_dir) -> dict | None:
    """The run record of ``run_dir``, None when there is none (files written by hand)."""
    path = Path(run_dir) / RECORD_NAME
    try:
        record = files.read_record(path)
    except ValueError as exc:
        raise FormatError(path, None, f"run record {exc}") from None
    if record is None:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("files"), dict) or "complete" not in record:
        raise FormatError(path, None, "not a run record: expected an object with 'complete' and 'files'")
    if not (isinstance(record.get("system"), str) and isinstance(record.get("dataset"), str)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in record["files"].items())):
        raise FormatError(path, None, "not a run record: 'system' and 'dataset' must be strings and 'files' "
                                      "must map file names to SHA-256 digests")
    return record


def check_run(run_dir, dataset: str, names, *, dataset_sha256: str = "") -> list[FormatError]:
    """Why the files ``names`` of ``run_dir`` do not all come from one complete run of ``dataset`` (empty: they do).

    A user's dataset (``dataset_sha256`` given) is the one the run read only if its content is unchanged;
    named by another path, the same content is the same dataset."""
    run_dir = Path(run_dir)
    try:
        record = read_record(run_dir)
    except FormatError as exc:
        return [exc]
    if record is None:
        return []
    path = run_dir / RECORD_NAME
    who = f"{record.get('system')} on {record.get('dataset')}"
    if record["complete"] is not True:
        return [FormatError(path, None, f"the run of {who} did not complete (interrupted, failed or still "
                                        "writing); its files may mix with older ones: rerun it")]
    recorded = record.get("dataset_sha256")
    if dataset_sha256 and isinstance(recorded, str) and recorded:
        if recorded != dataset_sha256:
            return [FormatError(path, None, f"records a run of {who} when it held SHA-256 {recorded[:12]}…; it "
                                            f"now holds {dataset_sha256[:12]}…: the dataset changed since the run, "
                                            "so its outputs no longer match it: rerun")]
    elif record.get("dataset") != dataset:
        return [FormatError(path, None, f"records a run of {who}, not of {dataset}")]
    errors = []
    for name in names:
        file = run_dir / name
        if not file.is_file():
            continue  # the output check names a missing file
        if name not in record["files"]:
            errors.append(FormatError(file, None, f"not written by the run recorded in {RECORD_NAME} ({who}); "
                                                  "the directory mixes two runs"))
        elif sha256(file) != record["files"][name]:
            errors.append(FormatError(file, None, f"changed since the run recorded in {RECORD_NAME} ({who}) "
                                                  f"wrote it; the directory mixes two runs (rerun, or delete {RECORD_NAME} to score the files as they are)"))
    return errors
