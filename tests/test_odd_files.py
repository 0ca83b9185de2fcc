"""Issue 12, defect 5: a dangling link, a folder or a FIFO in the data root is one line, not a stop or a hang."""
import os
import subprocess
import sys
from pathlib import Path

from conftest import write

ROOT = Path(__file__).resolve().parents[1]


def test_odd_files_are_one_line_each_and_the_listing_goes_on(tmp_path):
    root = tmp_path / "root"
    write(root / "sts2012/test/STS.input.MSRpar.txt", "a\tb\n")
    (root / "sts2012/test/STS.gs.MSRpar.txt").symlink_to(tmp_path / "nowhere")  # dangling
    write(root / "sts2013/test/STS.input.headlines.txt", "a\tb\n")
    (root / "sts2013/test/STS.gs.headlines.txt").mkdir()  # a folder
    write(root / "sts2015/test/STS.gs.images.txt", "3\n")
    os.mkfifo(root / "sts2015/test/STS.input.images.txt")  # a FIFO: reading it would wait forever
    write(root / "sts2016/test/STS2016.input.headlines.txt", "a\tb\n")
    write(root / "sts2016/test/STS2016.gs.headlines.txt", "3\n")
    result = subprocess.run([sys.executable, "-m", "semsts", "data", "--data-dir", str(root), "list"], cwd=ROOT,
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    row = {line.split()[0]: line for line in result.stdout.splitlines()[1:] if line and not line.startswith(" ")}
    assert row["sts2012-test"].endswith(f"INVALID  {root}/sts2012/test/STS.gs.MSRpar.txt: a link to nothing (dangling)")
    assert row["sts2013-test"].endswith(f"INVALID  {root}/sts2013/test/STS.gs.headlines.txt: is a folder, not a regular file")
    assert row["sts2015-test"].endswith(
        f"INVALID  {root}/sts2015/test/STS.input.images.txt: is a FIFO (named pipe), not a regular file")
    assert row["sts2016-test"].split()[1:3] == ["present", "1"] and row["demo-test"].split()[1] == "present"


def test_run_on_a_fifo_input_fails_with_one_line(tmp_path):
    root = tmp_path / "root"
    write(root / "sts2015/test/STS.gs.images.txt", "3\n")
    os.mkfifo(root / "sts2015/test/STS.input.images.txt")
    result = subprocess.run([sys.executable, "-m", "semsts", "run", "token-cosine", "--test", "sts2015-test", "--out",
                             str(tmp_path / "out"), "--data-dir", str(root)], cwd=ROOT, capture_output=True, text=True,
                            timeout=20)
    assert result.returncode == 1
    assert result.stderr == f"error: {root}/sts2015/test/STS.input.images.txt: is a FIFO (named pipe), not a regular file\n"
