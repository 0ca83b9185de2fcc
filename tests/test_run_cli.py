"""Tests of semsts.run_cli, `sts run`: its output files, determinism, atomicity and --seed (and `sts data list`)."""
import subprocess
import sys

import pytest

from semsts import cli, corpora, evaluate
from semsts.corpora import formats

# --- End to end through the command lines: ``sts run`` outputs, their determinism and atomicity; ``sts data list``.


SUBSETS = ["MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews"]


def run(*argv):
    return cli.main([str(a) for a in argv])


def test_sts_run_writes_one_file_per_subset_in_range(data_dir, tmp_path, capsys):
    out = tmp_path / "tc"
    assert run("run", "token-cosine", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir) == 0
    printed = capsys.readouterr().out.split()
    assert sorted(p.name for p in out.iterdir()) == sorted([*(f"STS.output.{s}.txt" for s in SUBSETS), "sts-run.json"])
    assert len(printed) == 5
    ds = corpora.load("sts2012-test", data_dir)
    for sub in ds:
        path = out / sub.output_name
        lines = path.read_text().splitlines()
        assert len(lines) == len(sub)
        assert all(0.0 <= float(line) <= 5.0 for line in lines)
        assert list(formats.check_output(path, len(sub))) == []
        assert evaluate.main(["--check", str(path), "--dataset", "sts2012-test", "--subset", sub.name,
                              "--data-dir", str(data_dir)]) == 0


def test_running_twice_gives_byte_identical_files(data_dir, tmp_path):
    for name in ["a", "b"]:
        assert run("run", "random", "--test", "sts2012-test", "--out", tmp_path / name,
                   "--data-dir", data_dir, "--quiet") == 0
    for sub in SUBSETS:
        a = (tmp_path / "a" / f"STS.output.{sub}.txt").read_bytes()
        assert a == (tmp_path / "b" / f"STS.output.{sub}.txt").read_bytes(), sub


def test_an_interrupted_write_leaves_no_partial_file(data_dir, tmp_path, monkeypatch):
    out = tmp_path / "tc"
    assert run("run", "token-cosine", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet") == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    calls = {"n": 0}
    real = formats.format_score

    def dies_midway(value, exact=False):
        calls["n"] += 1
        if calls["n"] == 1000:  # inside the second file (MSRvid), after many lines were written
            raise KeyboardInterrupt
        return real(value, exact)

    monkeypatch.setattr(formats, "format_score", dies_midway)
    with pytest.raises(KeyboardInterrupt):
        run("run", "random", "--test", "sts2012-test", "--out", out, "--data-dir", data_dir, "--quiet")
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(after) == set(before)  # no temporary file left behind
    assert after["STS.output.MSRvid.txt"] == before["STS.output.MSRvid.txt"]  # the old file, whole
    assert after["STS.output.MSRpar.txt"] != before["STS.output.MSRpar.txt"]  # the first one was replaced whole
    fresh = tmp_path / "fresh" / "run"
    calls["n"] = 0
    with pytest.raises(KeyboardInterrupt):
        run("run", "random", "--test", "sts2012-test", "--out", fresh, "--data-dir", data_dir, "--quiet")
    assert list(tmp_path.iterdir()) == [out]  # the folders the run created are gone, with the file it wrote and its record


def test_sts_run_on_an_absent_dataset_says_how_to_get_it(tmp_path, capsys):
    assert run("run", "token-cosine", "--test", "sts2014-test", "--out", tmp_path / "o", "--data-dir", tmp_path) == 1
    assert "sts data fetch sts2014-test" in capsys.readouterr().err


def test_sts_data_list(data_dir, capsys):
    assert run("data", "--data-dir", data_dir, "list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"data root: {data_dir}"
    row, last = {}, None
    for line in lines[1:]:  # a row wrapped at the output's width goes on in lines under its text
        if line.startswith(" ") and not line.lstrip().startswith("note:") and last:
            row[last] += " " + line.strip()
        elif line and not line.startswith(" "):
            last = line.split()[0]
            row[last] = line
    assert max(map(len, lines[1:])) <= 120
    assert row["sts2012-test"].split()[1:3] == ["present", "3108"]
    assert "surprise.SMTnews (399)" in row["sts2012-test"]
    assert row["sts2014-test"].split()[1:3] == ["present", "3750"]
    assert "answers-forums (2000, 1625 not scored)" in row["sts2015-test"]
    if (data_dir / "sts2017" / "test").is_dir():  # a data root after `sts data fetch all`
        assert row["sts2017-test"].split()[1] == "present"
    else:
        assert row["sts2017-test"].split()[1] == "absent" and "`sts data fetch sts2017-test`" in row["sts2017-test"]
    assert row["demo-test"].split()[1:3] == ["present", "375"]
    assert any("note: sts2013-test: subset SMT skipped" in line and "LDC" in line for line in lines)


def test_list_shows_unscored_pairs_and_invalid_files(tmp_path, capsys):
    folder = tmp_path / "sts2015" / "test"
    folder.mkdir(parents=True)
    (folder / "STS.input.images.txt").write_text("a\tb\nc\td\n")
    (folder / "STS.gs.images.txt").write_text("3\n\n")
    (tmp_path / "sts2016" / "test").mkdir(parents=True)
    (tmp_path / "sts2016" / "test" / "STS2016.input.headlines.txt").write_text("a\tb\n")
    (tmp_path / "sts2016" / "test" / "STS2016.gs.headlines.txt").write_text("nan\n")
    assert run("data", "list", "--data-dir", tmp_path) == 0  # the option after the command works too
    out = capsys.readouterr().out
    assert "images (2, 1 not scored)" in out
    assert "sts2016-test     INVALID" in out and "STS2016.gs.headlines.txt:1: expected a finite gold score" in out


def test_module_forms_work():
    result = subprocess.run([sys.executable, "-m", "semsts", "data", "--help"], capture_output=True, text=True, check=True)
    assert "fetch" in result.stdout and "verify" in result.stdout and "list" in result.stdout


@pytest.mark.parametrize("argv, usage", [(["data", "verify", "--help"], "usage: sts data verify"),
                                         (["run", "--help"], "usage: sts run")])
def test_subcommand_usage_names_the_sts_command(capsys, argv, usage):
    with pytest.raises(SystemExit):
        cli.main(argv)
    assert capsys.readouterr().out.startswith(usage)


# --- ``sts run --seed`` sets the seed of a seeded system and is refused by a system without one.


def _run(*argv):
    return cli.main([str(a) for a in argv])


def test_seed_changes_random_scores_and_repeats_exactly(data_dir, tmp_path):
    outs = {}
    for name, seed in [("a", 1), ("b", 1), ("c", 2)]:
        assert _run("run", "random", "--seed", seed, "--test", "sts2013-test", "--out", tmp_path / name,
                    "--data-dir", data_dir, "--quiet") == 0
        outs[name] = (tmp_path / name / "STS.output.headlines.txt").read_bytes()
    assert outs["a"] == outs["b"]
    assert outs["a"] != outs["c"]


def test_seed_on_an_unseeded_system_is_an_error(data_dir, tmp_path, capsys):
    assert _run("run", "token-cosine", "--seed", 3, "--test", "sts2013-test", "--out", tmp_path,
                "--data-dir", data_dir) == 1
    assert "takes no seed" in capsys.readouterr().err
