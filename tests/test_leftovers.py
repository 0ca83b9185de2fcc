"""Issue 12, defect 8: the next fetch or run removes what a killed one left behind, and says so."""
import fcntl
import os
import time

from test_fetch import data_main, make_tar, stsb_members

import sts


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


def test_run_removes_the_temporary_files_a_killed_run_left(data_dir, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / ".STS.output.MSRpar.txt.k1ll3d_x.tmp").write_text("0.5\n")
    (out / ".notes.txt").write_text("mine\n")  # not a temporary file of ours: kept
    assert sts.main(["run", "random", "--test", "sts2012-test", "--out", str(out), "--data-dir", str(data_dir),
                     "--quiet"]) == 0
    assert (f"note: removed 1 temporary file(s) an interrupted run left in {out}: "
            ".STS.output.MSRpar.txt.k1ll3d_x.tmp") in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == [".notes.txt"]
