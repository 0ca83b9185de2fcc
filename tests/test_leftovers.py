"""Issue 12, defect 8: the next fetch or run removes what a killed one left behind, and says so."""
import fcntl
import os
import time

from test_fetch import data_main, make_tar, stsb_members

from semsts import cli


def test_fetch_removes_stale_fetch_folders_but_not_a_running_ones(tmp_path, capsys, no_manifest):
    root = tmp_path / "root"
    stale = root / ".fetch-killed1"
    (stale / "x0").mkdir(parents=True)
    (stale / "x0" / "big.bin").write_bytes(bytes(3 << 20))
    old = time.time() - 3600
    os.utime(stale, (old, old))
    running = root / ".fetch-running"
    running.mkdir()
    with open(running / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a fetch at work in another process
        archive = make_tar(tmp_path / "a.tar.gz", stsb_members())
        assert data_main("--data-dir", root, "fetch", "stsb-dev", "--archive", archive, "--quiet") == 0
    err = capsys.readouterr().err
    assert "note: removed .fetch-killed1 (3.0 MiB), left by an interrupted fetch" in err
    assert not stale.exists() and running.is_dir() and (root / "stsbenchmark").is_dir()


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
