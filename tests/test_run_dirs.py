"""Issue 12, defect 4: a run owns its output directory; the scorer refuses a mixture of runs."""
import json
import shutil

from semsts import cli, evaluate
from semsts.baselines import run as run_module


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
    real, calls = run_module.predict_subset, []

    def dies_on_the_third(system, sub):
        calls.append(sub.name)
        if len(calls) == 3:
            raise ValueError("WordNet is not installed")  # how `sts run lcs` failed midway without WordNet
        return real(system, sub)

    monkeypatch.setattr(run_module, "predict_subset", dies_on_the_third)
    assert main("run", "random", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 1
    capsys.readouterr()
    assert score(data_dir, out) == 1
    err = capsys.readouterr().err
    assert (f"{out}/sts-run.json: the run of random on sts2012-test did not complete (interrupted, failed or "
            "still writing); its files may mix with older ones: rerun it") in err


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
