"""Tests of ``GOLD SYS`` without numpy (semsts.scoring.plain_files): on every file it takes, the same figure and
signature as the full scorer; every file the full scorer refuses, it hands over; and it starts without numpy."""
from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semsts import corpora, evaluate
from semsts.corpora import formats
from semsts.scoring.plain_files import _NUMBER, score_plain_files
from semsts.scoring.runs import file_signature, score_files

ROOT = Path(__file__).resolve().parents[1]


def full_way(gold_path, sys_path) -> tuple[float, str] | None:
    """The full scorer's figure and signature, or None where it refuses the files."""
    try:
        gold = formats.read_gold(gold_path)
        if not len(gold) or list(formats.check_output(sys_path, len(gold))):
            return None
        return score_files(gold_path, sys_path), str(file_signature(sys_path, gold))
    except corpora.FormatError:
        return None


def test_the_number_syntax_is_the_formats_one():
    assert _NUMBER.pattern == formats._NUMBER.pattern


def gold_files():
    root = Path(os.environ.get("STS_DATA", "../shared/data"))
    return sorted(p for year in ("sts2012", "sts2013", "sts2014", "sts2015", "sts2016")
                  for p in (root / year).glob("*/STS.gs.*.txt"))


def test_every_official_gold_file_scores_the_same_both_ways(tmp_path):
    """Each gold file against a system file of its own length (a shuffled copy of another's scores, with
    the 2015-2016 unscored lines): the same printed figure and signature, to the last bit of the figure's
    five decimals, and the figures equal within 1e-12."""
    files = gold_files()
    assert len(files) >= 20, "the official data root is needed: STS_DATA"
    rng = np.random.default_rng(1)
    taken = 0
    for path in files:
        n = len(formats.read_lines(path))
        scores = np.round(rng.uniform(0, 5, n), 6)
        system = tmp_path / f"STS.output.{path.name}"
        formats.write_output(system, scores)
        plain, full = score_plain_files(path, system), full_way(path, system)
        assert full is not None
        if plain is None:  # only a gold file with a line the plain way does not read (none in the official data)
            continue
        taken += 1
        assert f"{plain[0]:.5f}" == f"{full[0]:.5f}" and abs(plain[0] - full[0]) < 1e-12, path
        assert str(plain[1]) == full[1]
    assert taken == len(files)


LINES = st.one_of(st.sampled_from(["", " ", "0", "5", "5.0", "2.5", "  3.25 ", "1e0", ".5", "+1", "-0", "5.0000001",
                                   "-0.1", "nan", "inf", "three", "1\t50", "1\t2\t3", "٣", "1_0", "\r", "# 1"]),
                  st.floats(0, 5).map(lambda v: f"{v:.6f}"), st.floats(-1, 6).map(str))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(gold=st.lists(LINES, min_size=0, max_size=8), system=st.lists(LINES, min_size=0, max_size=8),
       bom=st.booleans(), crlf=st.booleans())
def test_the_plain_way_takes_only_what_the_full_way_takes(tmp_path, gold, system, bom, crlf):
    end = "\r\n" if crlf else "\n"
    g, s = tmp_path / "gold.txt", tmp_path / "sys.txt"
    g.write_bytes((b"\xef\xbb\xbf" if bom else b"") + "".join(v + end for v in gold).encode())
    s.write_bytes("".join(v + end for v in system).encode())
    plain, full = score_plain_files(g, s), full_way(g, s)
    if plain is None:
        return
    assert full is not None, "the plain way scored files that the full scorer refuses"
    assert f"{plain[0]:.5f}" == f"{full[0]:.5f}" and str(plain[1]) == full[1]


def test_what_the_plain_way_leaves_to_the_full_one(tmp_path):
    g = tmp_path / "gold.txt"
    g.write_text("1\n2\n3\n")
    cases = {"constant": "2\n2\n2\n", "confidences": "1\t9\n2\t9\n3\t9\n", "short": "1\n2\n", "empty line": "1\n\n3\n",
             "out of range": "1\n2\n7\n", "not UTF-8": b"1\n\xff\n3\n"}
    for name, text in cases.items():
        s = tmp_path / f"{name}.txt"
        s.write_bytes(text if isinstance(text, bytes) else text.encode())
        assert score_plain_files(g, s) is None, name
    assert score_plain_files(g, tmp_path / "missing.txt") is None
    assert score_plain_files(g, tmp_path) is None  # a folder


def test_a_fifo_is_left_to_the_full_way_without_a_hang(tmp_path, capsys):
    g = tmp_path / "gold.txt"
    g.write_text("1\n2\n3\n")
    fifo = tmp_path / "sys.txt"
    os.mkfifo(fifo)
    assert score_plain_files(g, fifo) is None
    assert evaluate.main([str(g), str(fifo)]) == 1
    assert capsys.readouterr().err == f"error: {fifo}: is a FIFO (named pipe), not a regular file\n"


def test_gold_sys_starts_without_numpy(tmp_path):
    """``python evaluate.py GOLD SYS`` on plain files imports no numpy (most of its start-up time was numpy's)."""
    g, s = tmp_path / "STS.gs.x.txt", tmp_path / "STS.output.x.txt"
    g.write_text("1\n2\n\n4\n5\n")
    s.write_text("1.5\n2.0\n3.0\n3.5\n5.0\n")
    probe = ("import runpy, sys\nsys.argv = ['evaluate.py', sys.argv[1], sys.argv[2]]\n"
             "try:\n    runpy.run_path('evaluate.py', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('numpy', 'scipy', 'sklearn') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe, str(g), str(s)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"Pearson: {8.5 / math.sqrt(75):.5f}\n[]\n"
    assert "unscored:dropped(1)" in done.stderr


def test_a_folder_or_a_dangling_link_as_sys_is_named_for_what_it_is(tmp_path, capsys):
    g = tmp_path / "gold.txt"
    g.write_text("1\n2\n3\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    for name, said in (("folder", "is a folder, not a regular file"), ("link", "a link to nothing (dangling)"),
                       ("missing", "output file is missing")):
        assert evaluate.main([str(g), str(tmp_path / name)]) == 1
        assert capsys.readouterr().err == f"error: {tmp_path / name}: {said}\n", name
