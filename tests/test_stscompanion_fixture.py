"""The STS Benchmark's companion (issue 36, item 4): its two files read as datasets with one subset per source file,
fetched from an archive in the organizers' layout, run, scored and benched like stsb-test. The data is not on this
machine: every test writes its fixture in the official format (tests/full_root.py's rows, the demo pairs cycled)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import numpy as np
import pytest

from semsts import cli, corpora
from semsts.baselines.regimes import REGIMES
from semsts.core.stats import pearson
from semsts.corpora import fetch
from semsts.corpora.kinds import KINDS
from tests.conftest import SMALL, data_main, doc_blocks, leftovers
from tests.full_root import companion_rows

OFFICIAL = KINDS["stscompanion"].official
# A small file in the layout: a quote inside a text (no CSV quoting) and a row with two licence fields.
SMALL_MT = ('SMTeuroparl\t2012test\t0000\t4.500\tHe said "yes".\tHe said yes.\n'
            "SMTeuroparl\t2012test\t0001\t1.000\tA cat sleeps.\tThe market fell.\n"
            "surprise.SMTnews\t2012test\t0000\t3.250\tThe vote is today.\tThe vote takes place today.\n"
            "postediting\t2016\t2991\t5\tA dog runs.\tA dog is running.\tEAMT11 (licence) target\tEAMT11 (licence) "
            "target_postedited\n"
            "postediting\t2016\t3004\t0\tRain fell.\tThe bank opened.\tEAMT11 (licence) target\tEAMT11 (licence) target\n")


def archive(path: Path, files: dict, links=()) -> Path:
    """A tar.gz holding ``stscompanion/NAME`` for each file (name -> text) and a readme, as the organizers' does."""
    with tarfile.open(path, "w:gz") as tf:
        for name, text in {"readme.txt": "STS Benchmark: Companion English datasets\n", **files}.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(f"stscompanion/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        for name, target in links:
            info = tarfile.TarInfo(f"stscompanion/{name}")
            info.type, info.linkname = tarfile.SYMTYPE, target
            tf.addfile(info)
    return path


def official_files() -> dict:
    """Both files with the official release's pairs per source file (fixture text)."""
    return {f"sts-{split}.csv": "".join(companion_rows(counts)) for split, counts in OFFICIAL.items()}


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """A data root the companion was fetched into, from a fixture archive with the official pairs per source file."""
    folder = tmp_path_factory.mktemp("companion")
    assert fetch.fetch("stscompanion-mt", folder / "root", archives=[archive(folder / "Stscompanion.tar.gz",
                                                                             official_files())]) is not None
    return folder / "root"


def test_the_kind_reads_each_source_file_as_a_subset_keeping_quotes_and_dropping_licence_fields(tmp_path):
    path = tmp_path / "stscompanion" / "sts-mt.csv"
    path.parent.mkdir()
    path.write_text(SMALL_MT, encoding="utf-8")
    ds = corpora.load("stscompanion-mt", tmp_path)
    assert [(s.name, len(s)) for s in ds] == [("SMTeuroparl.2012test", 2), ("surprise.SMTnews.2012test", 1),
                                              ("postediting.2016", 2)]
    sub = ds.subset("SMTeuroparl.2012test")
    assert sub.pairs[0] == ('He said "yes".', "He said yes.") and sub.ids == ["0000", "0001"]
    assert ds.subset("postediting.2016").pairs == [("A dog runs.", "A dog is running."), ("Rain fell.", "The bank opened.")]
    assert ds.subset("postediting.2016").ids == ["2991", "3004"]
    assert ds.gold.tolist() == [4.5, 1.0, 3.25, 5.0, 0.0] and sub.output_name == "STS.output.SMTeuroparl.2012test.txt"
    assert "stscompanion-mt: the official release's source file SMTeuroparl.2012train is not in the file; its other " \
           "files are read" in ds.notes
    assert "stscompanion-mt: sts-mt.csv holds 2 pairs of SMTeuroparl.2012test, the official file 459" in ds.notes
    # a user's file of this layout reads the same way, by its first line
    mine = corpora.resolve(str(path))
    assert mine.kind is KINDS["stscompanion"] and [len(s) for s in mine] == [2, 1, 2] and mine.sha256


@pytest.mark.parametrize("line, number, expected", [
    ("SMTeuroparl\t2012test\t0002\t4.0\tonly one text\n", 3,
     "sts-mt.csv:3: expected 6 or more tab-separated fields (file, year, id, score, sentence1, sentence2), got 5"),
    ("SMTeuroparl\t2012test\t0002\t5.5\tA b.\tA c.\n", 3, "sts-mt.csv:3: gold score 5.5 is outside [0, 5]"),
    ("../../x\t2012test\t0002\t4.0\tA b.\tA c.\n", 3, "sts-mt.csv:3: expected a source file name and year of letters"),
])
def test_a_malformed_row_is_one_error_line_naming_file_and_line(tmp_path, capsys, line, number, expected):
    path = tmp_path / "root" / "stscompanion" / "sts-mt.csv"
    path.parent.mkdir(parents=True)
    rows = SMALL_MT.splitlines(keepends=True)
    path.write_text("".join(rows[:number - 1] + [line] + rows[number - 1:]), encoding="utf-8")
    out = tmp_path / "out"
    for argv in (["run", "token-cosine", "--test", "stscompanion-mt", "--out", str(out), "--quiet"],
                 ["eval", "--dataset", "stscompanion-mt", "--run", str(out)],
                 ["bench", "token-cosine", "--datasets", "stscompanion-mt", "--quiet"]):
        assert cli.main([*argv, "--data-dir", str(tmp_path / "root")]) != 0
        captured = capsys.readouterr()
        err = captured.err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: ") and expected in err[0], (argv, err)
        assert "Traceback" not in captured.err
    assert not out.exists()


def test_fetch_from_the_archive_installs_both_files_with_their_source_files(root):
    assert sorted(p.name for p in (root / "stscompanion").iterdir()) == ["readme.txt", "sts-mt.csv", "sts-other.csv"]
    for name, split in (("stscompanion-mt", "mt"), ("stscompanion-other", "other")):
        ds = corpora.load(name, root)
        assert {s.name: len(s) for s in ds} == OFFICIAL[split] and not ds.notes
    assert sum(OFFICIAL["mt"].values()) == 1836 and sum(OFFICIAL["other"].values()) == 3814  # the counts
    assert fetch.source_of("stscompanion-other").urls == ("http://ixa2.si.ehu.es/stswiki/images/e/ee/Stscompanion.tar.gz",)


def test_fetch_refuses_other_pairs_unless_unverified_and_then_notes_them(tmp_path, capsys):
    small = archive(tmp_path / "small.tar.gz", {"sts-mt.csv": SMALL_MT, "sts-other.csv": "".join(
        companion_rows(OFFICIAL["other"]))})
    root = tmp_path / "root"
    assert data_main("--data-dir", root, "fetch", "stscompanion", "--archive", small) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: stscompanion: not the official release's pairs (stscompanion-mt: "
                                               "sts-mt.csv lacks SMTeuroparl.2012train (734 pairs in the official file)")
    assert err[0].endswith("refused (--unverified installs it anyway)") and not root.exists()
    assert data_main("--data-dir", root, "fetch", "stscompanion", "--archive", small, "--unverified") == 0
    out = capsys.readouterr().out
    assert "  stscompanion-mt: SMTeuroparl.2012test (2), surprise.SMTnews.2012test (1), postediting.2016 (2)\n" in out
    assert "  note: stscompanion-mt: sts-mt.csv holds 1 pairs of surprise.SMTnews.2012test, the official file 399\n" in out
    assert "  stscompanion-other: surprise.OnWN.2012test (750)," in out and leftovers(root) == []
    assert data_main("--data-dir", root, "verify", "stscompanion-mt", "stscompanion-other") == 1
    shown = capsys.readouterr().out.splitlines()
    assert shown[0].startswith("MISMATCH stscompanion/sts-mt.csv  (not the official pairs per source file: "
                               "stscompanion-mt: sts-mt.csv lacks SMTeuroparl.2012train")
    assert shown[1].startswith("OK       stscompanion/sts-other.csv  (the official pairs per source file)")
    assert shown[2].endswith(": 1 OK, 1 MISMATCH, 0 MISSING")


def test_fetch_refuses_a_hostile_archive_before_installing_anything(tmp_path, capsys):
    root = tmp_path / "root"
    for bad in (archive(tmp_path / "link.tar.gz", official_files(), links=[("sts-test.csv", "/etc/passwd")]),
                archive(tmp_path / "up.tar.gz", {**official_files(), "../../evil.csv": "x"})):
        assert data_main("--data-dir", root, "fetch", "stscompanion-mt", "--archive", bad) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: ") and "refused" in err[0], err
    assert not root.exists() and not (tmp_path / "evil.csv").exists()


def _pearson_over_file(root: Path, split: str, out: Path) -> float:
    """The readme's official figure computed here from the files: the Pearson of the gold column of the file and
    the run's outputs laid back in the file's row order."""
    rows = [line.split("\t") for line in (root / "stscompanion" / f"sts-{split}.csv").read_text("utf-8").splitlines()]
    lines = {}
    for sub in dict.fromkeys(f"{r[0]}.{r[1]}" for r in rows):
        lines[sub] = iter((out / f"STS.output.{sub}.txt").read_text().split())
    predicted = [float(next(lines[f"{r[0]}.{r[1]}"])) for r in rows]
    return pearson(np.array(predicted), np.array([float(r[3]) for r in rows]))


def test_run_writes_one_output_per_source_file_and_eval_breaks_the_score_down(root, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["run", "token-cosine", "--test", "stscompanion-mt", "--out", str(out), "--data-dir", str(root),
                     "--quiet"]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in out.glob("STS.output.*")) == sorted(f"STS.output.{s}.txt" for s in OFFICIAL["mt"])
    assert cli.main(["eval", "--dataset", "stscompanion-mt", "--run", str(out), "--data-dir", str(root),
                     "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    text = json.dumps(report)
    assert all(f'"{sub}"' in text for sub in OFFICIAL["mt"])
    assert cli.main(["eval", "--dataset", "stscompanion-mt", "--run", str(out), "--data-dir", str(root)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in shown if line.split()[:1] and line.split()[0] in OFFICIAL["mt"]] == [
        [sub, str(n)] for sub, n in OFFICIAL["mt"].items()]
    everything = next(line.split() for line in shown if line.startswith("ALL "))
    assert everything[1] == "1836" and everything[2] == f"{_pearson_over_file(root, 'mt', out):.5f}"


def test_bench_scores_the_companion_like_stsb_with_no_mteb_figure(root, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["run", "token-cosine", "--test", "stscompanion-other", "--out", str(out), "--data-dir", str(root),
                     "--quiet"]) == 0
    assert cli.main(["bench", "token-cosine", "--datasets", "stscompanion-mt,stscompanion-other", "--data-dir",
                     str(root), "--format", "json", "--resamples", "0", "--quiet"]) == 0
    captured = capsys.readouterr()
    row = json.loads(captured.out)["rows"][0]
    other = row["datasets"]["stscompanion-other"]
    assert other["official"]["Pearson"] == pytest.approx(_pearson_over_file(root, "other", out), abs=1e-8)
    assert other["subsets"] == OFFICIAL["other"] and other["mteb"] is None and row["mteb_mean"] is None
    assert set(other["senteval"]) == {"pearson", "spearman"}
    assert "stscompanion:pearson-over-file" in row["signatures"]["official"]
    assert list(row["signatures"]) == ["official", "senteval"]  # the conventions whose tables cover it
    assert cli.main(["bench", "token-cosine", "--datasets", "stscompanion-mt", "--data-dir", str(root),
                     "--resamples", "0"]) == 0
    captured = capsys.readouterr()
    assert [line for line in captured.err.splitlines() if line.startswith("note:")] == [
        "note: no SimCSE or MTEB table: those conventions cover none of the datasets of this bench (STS-B companion "
        "MT); shown: official, SentEval"]
    assert [line.split(":")[0] for line in captured.out.splitlines() if line.startswith(("official:", "SentEval:",
                                                                                          "SimCSE", "MTEB"))] == [
        "official", "SentEval"]
    assert cli.main(["bench", "token-cosine", "--datasets", "stscompanion-other", "--data-dir", str(root),
                     "--convention", "official", "--resamples", "0", "--quiet"]) == 0
    shown = capsys.readouterr().out
    assert next(line.split() for line in shown.splitlines() if line.startswith("token-cosine ")) == [
        "token-cosine", f"{other['official']['Pearson']:.5f}"]
    assert "no MTEB figure for STS-B companion other: no MTEB task holds it" in shown


def test_no_regime_trains_on_the_companion_and_training_on_it_works_when_asked(root, tmp_path, capsys):
    """Its pairs are 2012-2016 evaluation pairs: no named regime's training or dev data is the companion."""
    for regime in REGIMES.values():
        assert not [d for d in (*regime.train, regime.dev or "") if d.startswith("stscompanion")], regime.name
    small = tmp_path / "root" / "stscompanion"
    small.mkdir(parents=True)
    (small / "sts-mt.csv").write_text("".join(companion_rows({"SMTeuroparl.2012test": 30, "postediting.2016": 20})),
                                      encoding="utf-8")
    assert cli.main(["train", "--train", "stscompanion-mt", "--save", str(tmp_path / "m.skops"), *SMALL,
                     "--regressor", "ridge", "--data-dir", str(tmp_path / "root"), "--quiet"]) == 0
    card = json.loads((tmp_path / "m.json").read_text())
    assert card["training_data"]["datasets"] == ["stscompanion-mt"]


def test_the_documented_commands_run_on_a_fixture_archive(tmp_path):
    """docs/data.md's companion block, run as written in a folder holding a fixture Stscompanion.tar.gz."""
    block = next(b for b in doc_blocks("docs/data.md") if "stscompanion-mt --archive" in b.text)
    archive(tmp_path / "Stscompanion.tar.gz", official_files())
    env = {**os.environ, "STS_DATA": str(tmp_path / "root"), "HOME": str(tmp_path),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-e", "-c", block.text], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "stscompanion: installed in" in done.stdout and "STS-B companion other Pearson" in done.stdout
    assert "postediting.2016" in done.stdout and (tmp_path / "runs" / "companion-mt").is_dir()
