"""Tests of semsts.corpora.runrecord: a run owns its output folder and its record of what it wrote."""
import json
import os
import shutil
import threading

import pytest

from semsts import cli, evaluate
from semsts.baselines import run as run_module
from semsts.corpora.wordnet import WordNetNotFound
from tests.conftest import pairs_tsv

# --- Issue 12, defect 4: a run owns its output directory; the scorer refuses a mixture of runs.


def main(*argv):
    return cli.main([str(a) for a in argv])


def score(data_dir, out):
    return evaluate.main(["--dataset", "sts2012-test", "--run", str(out), "--data-dir", str(data_dir)])


def test_a_complete_run_scores_and_records_what_it_wrote(data_dir, tmp_path, capsys):
    out = tmp_path / "tc"
    assert main("run", "token-cosine", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 0
    record = json.loads((out / "sts-run.json").read_text())
    assert record["complete"] is True and record["system"] == "token-cosine" and record["dataset"] == "sts2012-test"
    assert sorted(record["files"]) == sorted(p.name for p in out.glob("STS.output.*.txt")) and len(record["files"]) == 5
    assert not (out / ".sts-run.lock").exists()
    assert score(data_dir, out) == 0


def test_an_interrupted_run_over_another_systems_files_is_refused(data_dir, tmp_path, monkeypatch, capsys):
    out = tmp_path / "mixed"
    assert main("run", "token-cosine", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 0
    real, calls = run_module.predict_group, []

    def dies_on_the_third(system, subsets):
        calls.append(subsets[0].name)
        if len(calls) == 3:
            raise WordNetNotFound("WordNet is not installed")  # how `sts run lcs` failed midway without WordNet
        return real(system, subsets)

    monkeypatch.setattr(run_module, "predict_group", dies_on_the_third)
    assert main("run", "random", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 1
    capsys.readouterr()
    assert score(data_dir, out) == 1
    err = capsys.readouterr().err
    assert (f"{out}/sts-run.json: the run of random on sts2012-test did not complete (interrupted, failed or "
            "still writing); its files may mix with older ones: rerun it") in err


def test_a_failed_run_removes_the_folders_it_created_and_only_what_it_wrote_there(data_dir, tmp_path, monkeypatch,
                                                                                    capsys):
    real, calls = run_module.predict_group, []

    def dies_on_the_third(system, subsets):
        calls.append(subsets[0].name)
        if len(calls) == 3:
            raise WordNetNotFound("WordNet is not installed")
        return real(system, subsets)

    monkeypatch.setattr(run_module, "predict_group", dies_on_the_third)
    out = tmp_path / "new" / "deeper" / "run"
    assert main("run", "random", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 1
    assert capsys.readouterr().err == "error: WordNet is not installed\n"
    assert list(tmp_path.iterdir()) == []  # run/, deeper/ and new/ were made by the run: all gone
    (tmp_path / "new").mkdir()  # a parent that was there stays
    calls.clear()
    assert main("run", "random", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 1
    assert list(tmp_path.iterdir()) == [tmp_path / "new"] and list((tmp_path / "new").iterdir()) == []

    def writes_beside_then_dies(system, subsets):  # a file another program put in the new folder meanwhile is kept
        calls.append(subsets[0].name)
        if len(calls) == 2:
            (out / "notes.txt").write_text("mine")
            raise WordNetNotFound("WordNet is not installed")
        return real(system, subsets)

    calls.clear()
    monkeypatch.setattr(run_module, "predict_group", writes_beside_then_dies)
    assert main("run", "random", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 1
    assert [p.name for p in out.iterdir()] == ["notes.txt"]  # its own output file and record removed, the folder kept
    assert not (tmp_path / "new" / "deeper" / "run" / "sts-run.json").exists()


def test_a_file_from_another_run_is_named(data_dir, tmp_path, capsys):
    for name, system in [("a", "token-cosine"), ("b", "random")]:
        assert main("run", system, "--test", "sts2012-test", "--out", tmp_path / name, "--data-dir", data_dir, "--quiet") == 0
    shutil.copy(tmp_path / "b" / "STS.output.MSRvid.txt", tmp_path / "a" / "STS.output.MSRvid.txt")
    capsys.readouterr()
    assert score(data_dir, tmp_path / "a") == 1
    assert (f"{tmp_path}/a/STS.output.MSRvid.txt: changed since the run recorded in sts-run.json (token-cosine on "
            "sts2012-test) wrote it; the directory mixes two runs") in capsys.readouterr().err


def test_two_runs_into_one_directory_at_once(data_dir, tmp_path, capsys):
    from semsts.corpora import runrecord
    out = tmp_path / "busy"
    with runrecord.owned(out, "first", "sts2012-test"):  # another run is writing here
        assert main("run", "random", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 1
        assert (f"error: {out}: another run is writing into this directory (.sts-run.lock is held); wait for it "
                "or choose another --out") in capsys.readouterr().err
        assert not list(out.glob("STS.output.*"))


def test_files_written_by_hand_still_score(data_dir, tmp_path):
    out = tmp_path / "hand"
    assert main("run", "token-cosine", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 0
    (out / "sts-run.json").unlink(missing_ok=True)
    assert score(data_dir, out) == 0


def test_the_check_hint_comes_only_with_errors_at_a_line(data_dir, tmp_path, capsys):
    """A run of another dataset is named as such, without a pointer to --check; a short file gets it."""
    out = tmp_path / "tc"
    assert main("run", "token-cosine", "--test", "sts2013-test", "--out", out, "--data-dir", data_dir, "--quiet") == 0
    capsys.readouterr()
    assert score(data_dir, out) == 1
    err = capsys.readouterr().err
    assert "records a run of token-cosine on sts2013-test, not of sts2012-test" in err and "--check" not in err
    out = tmp_path / "short"
    assert main("run", "token-cosine", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 0
    (record := out / "sts-run.json").unlink()  # a run written by hand: no record
    assert not record.exists()
    msr = out / "STS.output.MSRpar.txt"
    msr.write_text("".join(msr.read_text().splitlines(keepends=True)[:5]))
    capsys.readouterr()
    assert score(data_dir, out) == 1
    err = capsys.readouterr().err
    assert "STS.output.MSRpar.txt:5: has 5 lines" in err and "--check FILE --dataset sts2012-test" in err


# --- A run record names what its dataset held: a user's file changed since the run is refused when scored, the same
# file named by another path is accepted, and only a record that is complete (true, not "false") counts.


def run_then_eval(tmp_path, capsys, change=None, name=None):
    data = pairs_tsv(tmp_path / "mine.tsv", 40, 3)
    out = tmp_path / "out"
    assert cli.main(["run", "token-cosine", "--test", str(data), "--out", str(out), "--quiet"]) == 0
    if change:
        change(data, out)
    code = cli.main(["eval", "--dataset", name or str(data), "--run", str(out)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_dataset_changed_since_the_run_is_refused(tmp_path, capsys):
    def reverse(data, out):
        lines = data.read_text().splitlines()
        data.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    code, out, err = run_then_eval(tmp_path, capsys, reverse)
    assert code == 1 and "Pearson" not in out
    assert "the dataset changed since the run" in err and "sts-run.json" in err


def test_the_same_file_by_another_path_is_the_same_dataset(tmp_path, capsys, monkeypatch):
    os.makedirs(tmp_path / "sub")
    monkeypatch.chdir(tmp_path / "sub")
    code, out, err = run_then_eval(tmp_path, capsys, name="../mine.tsv")
    assert code == 0 and "Pearson" in out, err


def test_a_record_whose_complete_is_the_string_false_is_incomplete(tmp_path, capsys):
    def stringly(data, out):
        record = json.loads((out / "sts-run.json").read_text())
        record["complete"] = "false"
        (out / "sts-run.json").write_text(json.dumps(record))
    code, out, err = run_then_eval(tmp_path, capsys, stringly)
    assert code == 1 and "did not complete" in err


# --- A run folder to score may come from someone else (its outputs are untrusted files): its record is read only if
# it is a regular file (no hang on a FIFO, nothing read from a device) and a deeply nested record is one error line.


def run(tmp_path, out, *extra):
    data = pairs_tsv(tmp_path / "mine.tsv", 20, 3)
    return cli.main(["run", "token-cosine", "--test", str(data), "--out", str(out), "--quiet", *extra])


def within(seconds, fn):
    """``fn()``'s result, failing the test (not hanging it) if it takes longer than ``seconds``."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "hung"
    return result["value"]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "nested"])
def test_a_record_that_is_no_regular_file_or_too_deep_is_one_error_line(tmp_path, capsys, kind):
    out = tmp_path / "out"
    assert run(tmp_path, out) == 0
    record = out / "sts-run.json"
    record.unlink()
    if kind == "fifo":
        os.mkfifo(record)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", record)
    else:
        record.write_text('{"complete": true, "files": {}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code = within(20, lambda: cli.main(["eval", "--dataset", str(tmp_path / "mine.tsv"), "--run", str(out)]))
    err = capsys.readouterr().err
    assert code == 1 and "sts-run.json" in err and "Traceback" not in err


@pytest.mark.parametrize("change", [{"dataset": None}, {"system": ["a", "b"]}, {"files": {"x": 5}}, {"drop": "dataset"}])
def test_bench_runs_with_a_malformed_record_is_one_error_line(tmp_path, capsys, change):
    import json
    out = tmp_path / "out"
    assert run(tmp_path, out) == 0
    record = json.loads((out / "sts-run.json").read_text())
    if "drop" in change:
        del record[change["drop"]]
    else:
        record.update(change)
    (out / "sts-run.json").write_text(json.dumps(record))
    assert cli.main(["bench", "--runs", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "not a run record" in err[0], err


# --- Issue 12, defect 8: the next fetch or run removes what a killed one left behind, and says so.


def test_run_removes_the_temporary_files_a_killed_run_left_and_nothing_else(data_dir, tmp_path, capsys):
    """Issue 23, case 6: only what the killed run is proven to have written (its record names the tag its
    temporaries carry) is removed; a user's own '.X.XXXXXXXX.tmp' and another program's temporaries are kept."""
    import json
    out = tmp_path / "out"
    out.mkdir()
    (out / "sts-run.json").write_text(json.dumps({"sts_run": 1, "complete": False, "system": "random",
                                                  "dataset": "sts2012-test", "files": {}, "temp_tag": "0badf00d"}))
    (out / ".STS.output.MSRpar.txt.0badf00d.tmp").write_text("0.5\n")  # the killed run's
    theirs = [".STS.output.MSRvid.txt.k1ll3d_x.tmp", ".notes.txt", ".m.skops.0123abcd.model.tmp"]
    for name in theirs:
        (out / name).write_text("mine\n")
    assert cli.main(["run", "random", "--test", "sts2012-test", "--out", str(out), "--data-dir", str(data_dir),
                     "--quiet"]) == 0
    assert (f"note: removed 1 temporary file(s) an interrupted run left in {out}: "
            ".STS.output.MSRpar.txt.0badf00d.tmp") in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == sorted(theirs)
    tag = json.loads((out / "sts-run.json").read_text())["temp_tag"]  # what this run's temporaries were named by
    assert len(tag) == 8 and tag != "0badf00d"
