"""Tests of semsts.corpora.datasets: named datasets found under the data root, and odd files there."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import write
from semsts import corpora
from semsts.corpora import DatasetNotFound, FormatError, datasets, paths

# --- Named datasets: how subsets are found under the data root, notes, and the root's precedence.


def sts_files(folder, subset, n=2, prefix="STS", gold=True, gold_lines=None):
    write(folder / f"{prefix}.input.{subset}.txt", "".join(f"a {i}\tb {i}\n" for i in range(n)))
    if gold:
        write(folder / f"{prefix}.gs.{subset}.txt", gold_lines if gold_lines is not None else "3\n" * n)


def test_subsets_in_the_papers_order_and_unexpected_last(tmp_path):
    folder = tmp_path / "sts2012" / "test"
    for name in ["surprise.SMTnews", "MSRvid", "zzz", "MSRpar"]:
        sts_files(folder, name)
    write(folder / "00-readme.txt", "not data\n")
    write(folder / "STS.gs.ALL.txt", "3\n" * 8)  # a gold without input: ignored
    ds = corpora.load("sts2012-test", tmp_path)
    assert [s.name for s in ds] == ["MSRpar", "MSRvid", "surprise.SMTnews"]  # zzz: not registered, not read
    assert all(len(s) == 2 and s.output_name == f"STS.output.{s.name}.txt" for s in ds)
    assert len(ds.pairs) == 6 and len(ds.gold) == 6
    assert [n for n in ds.notes if "zzz" in n] == [f"sts2012-test: files of subsets no registered dataset reads, "
                                                   f"not read: zzz (in {folder})"]


def test_2016_naming_is_accepted(tmp_path):
    folder = tmp_path / "sts2016" / "test"
    sts_files(folder, "headlines", prefix="STS2016")
    sts_files(folder, "plagiarism", prefix="STS2016", n=3)
    ds = corpora.load("sts2016-test", tmp_path)
    assert [s.name for s in ds] == ["headlines", "plagiarism"]
    assert ds.subset("plagiarism").gold_path.name == "STS2016.gs.plagiarism.txt"
    assert ds.subset("plagiarism").output_name == "STS.output.plagiarism.txt"


def test_mixed_naming_finds_the_gold(tmp_path):
    folder = tmp_path / "sts2016" / "test"
    write(folder / "STS2016.input.headlines.txt", "a\tb\n")
    write(folder / "STS.gs.headlines.txt", "2\n")
    assert corpora.load("sts2016-test", tmp_path).subset("headlines").gold.tolist() == [2.0]


def test_two_inputs_for_one_subset_is_an_error(tmp_path):
    folder = tmp_path / "sts2016" / "test"
    sts_files(folder, "headlines", prefix="STS2016")
    sts_files(folder, "headlines", prefix="STS")
    with pytest.raises(FormatError, match="two input files"):
        corpora.load("sts2016-test", tmp_path)


def test_input_without_gold_is_ignored_with_a_note(tmp_path):
    folder = tmp_path / "sts2015" / "test"
    sts_files(folder, "images")
    sts_files(folder, "belief", gold=False)
    ds = corpora.load("sts2015-test", tmp_path)
    assert [s.name for s in ds] == ["images"]
    assert any("belief" in note and "no gold" in note for note in ds.notes)


def test_sts2013_smt_absent_is_a_one_line_note(tmp_path):
    folder = tmp_path / "sts2013" / "test"
    for name in ["headlines", "OnWN", "FNWN"]:
        sts_files(folder, name)
    write(folder / "STS.gs.SMT.txt", "3\n" * 5)  # the official release ships the SMT gold, not its input
    ds = corpora.load("sts2013-test", tmp_path)
    assert [s.name for s in ds] == ["headlines", "OnWN", "FNWN"]
    (note,) = ds.notes
    assert "SMT" in note and "LDC" in note and "\n" not in note


def test_sts2013_smt_is_used_when_the_licensed_input_is_there(tmp_path):
    folder = tmp_path / "sts2013" / "test"
    sts_files(folder, "headlines")
    sts_files(folder, "SMT", n=5)
    ds = corpora.load("sts2013-test", tmp_path)
    assert [s.name for s in ds] == ["headlines", "SMT"]
    assert not any("SMT" in n for n in ds.notes)


def test_empty_gold_lines_are_kept_as_nan(tmp_path):
    sts_files(tmp_path / "sts2015" / "test", "images", n=3, gold_lines="1\n\n4\n")
    sub = corpora.load("sts2015-test", tmp_path).subset("images")
    assert len(sub) == 3 and sub.n_scored == 2 and np.isnan(sub.gold[1])


@pytest.mark.parametrize("gold_lines, n_gold", [("1\n2\n", 2), ("1\n2\n3\n4\n", 4)])
def test_gold_count_differs_from_input_count(tmp_path, gold_lines, n_gold):
    sts_files(tmp_path / "sts2014" / "test", "images", n=3, gold_lines=gold_lines)
    with pytest.raises(FormatError, match=rf"STS.gs.images.txt.*has {n_gold} gold lines but STS.input.images.txt has 3 pairs"):
        corpora.load("sts2014-test", tmp_path)


def test_empty_input_file_is_an_error(tmp_path):
    sts_files(tmp_path / "sts2014" / "test", "images", n=0, gold_lines="")
    with pytest.raises(FormatError, match=r"STS.input.images.txt: holds no pairs"):
        corpora.load("sts2014-test", tmp_path)


def test_bad_line_inside_a_dataset_names_file_and_line(tmp_path):
    sts_files(tmp_path / "sts2014" / "test", "images", n=3, gold_lines="1\nx\n4\n")
    with pytest.raises(FormatError) as err:
        corpora.load("sts2014-test", tmp_path)
    assert err.value.path.endswith("STS.gs.images.txt") and err.value.line == 2


def test_clss_layout_and_ranges(tmp_path):
    root = tmp_path / "clss2014"
    write(root / "data" / "trial" / "phrase2word.trial.input.tsv", "a phrase\tword\tp2w_1\n")
    write(root / "keys" / "trial" / "phrase2word.trial.gs.tsv", "3.5\n")
    write(root / "data" / "trial" / "word2sense.trial.input.tsv", "dog\tdog%1:05:00::\tdog#n#1\tw_1\n")  # no key: skipped
    ds = corpora.load("clss2014-trial", tmp_path)
    (sub,) = ds.subsets
    assert sub.name == "phrase2word" and sub.ids == ["p2w_1"] and sub.score_range == (0.0, 4.0)
    assert sub.output_name == "phrase2word.trial.output.tsv"
    assert any("word2sense" in n for n in ds.notes)


def test_stsb_split_files(tmp_path):
    row = "main-news\theadlines\t2013\t0001\t4.0\tA.\tB.\n"
    write(tmp_path / "stsbenchmark" / "sts-dev.csv", row * 3)
    ds = corpora.load("stsb-dev", tmp_path)
    assert [s.name for s in ds] == ["sts-dev"] and len(ds.subset("sts-dev")) == 3
    assert ds.subset("sts-dev").ids == ["0001"] * 3
    with pytest.raises(DatasetNotFound, match="sts data fetch stsb-test"):
        corpora.load("stsb-test", tmp_path)


def test_unknown_and_absent_datasets(tmp_path):
    with pytest.raises(DatasetNotFound, match="unknown dataset 'sts1999'"):
        corpora.load("sts1999", tmp_path)
    with pytest.raises(DatasetNotFound, match="not in"):
        corpora.load("sts2012-train", tmp_path)
    with pytest.raises(KeyError, match="has no subset"):
        sts_files(tmp_path / "sts2012" / "train", "MSRpar")
        corpora.load("sts2012-train", tmp_path).subset("MSRvid")


def test_data_root_precedence(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv(paths.ENV_VAR, raising=False)
    for xdg in ["", "relative/cache"]:  # unset, empty or relative: ~/.cache as the XDG spec says
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        assert corpora.data_root() == tmp_path / "home" / ".cache" / "sts" / "data"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert corpora.data_root() == tmp_path / "cache" / "sts" / "data"
    monkeypatch.setenv(paths.ENV_VAR, str(tmp_path / "env"))
    assert corpora.data_root() == tmp_path / "env"
    assert corpora.data_root(tmp_path / "flag") == tmp_path / "flag"
    # and loading follows it: the flag's root wins over STS_DATA
    sts_files(tmp_path / "flag" / "sts2012" / "train", "MSRpar", n=1)
    sts_files(tmp_path / "env" / "sts2012" / "train", "MSRpar", n=2)
    assert len(corpora.load("sts2012-train", tmp_path / "flag").pairs) == 1
    assert len(corpora.load("sts2012-train").pairs) == 2


def test_official_data_counts(data_dir):
    expected = {"sts2012-train": [750, 750, 734], "sts2012-test": [750, 750, 459, 750, 399],
                "sts2013-test": [750, 561, 189], "stsb-train": [5749], "stsb-dev": [1500], "stsb-test": [1379],
                "clss2014-trial": [34, 36, 38, 48], "clss2014-train": [500] * 4, "clss2014-test": [500] * 4}
    for name, counts in expected.items():
        ds = corpora.load(name, data_dir)
        assert [len(s) for s in ds] == counts, name
        assert all(s.n_scored == len(s) for s in ds), name


def test_every_dataset_has_a_spec():
    names = datasets.dataset_names()
    assert names[:3] == ["sts2012-train", "sts2012-test", "sts2013-test"]
    assert {"sts2017-test", "stsb-test", "clss2014-test", "demo-train", "demo-dev", "demo-test"} <= set(names)


# --- Issue 12, defect 5: a dangling link, a folder or a FIFO in the data root is one line, not a stop or a hang.


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


def test_stsb_v2_is_mteb_dedup_of_the_official_files(data_dir):
    """MTEB's STSBenchmark.v2 from the official files: test 1,362 of 1,379 pairs, dev 1,485 of 1,500."""
    from semsts.corpora.kinds import v2_key
    test, dev = corpora.load("stsb-v2-test", data_dir), corpora.load("stsb-v2-dev", data_dir)
    assert [s.name for s in test] == ["sts-test.v2"] and len(test.pairs) == 1362 and len(dev.pairs) == 1485
    full = {s: corpora.load(f"stsb-{s}", data_dir).subsets[0] for s in ("train", "dev", "test")}
    keys = {s: [v2_key(p) for p in sub.pairs] for s, sub in full.items()}
    kept = {v2_key(p) for p in test.pairs}
    for key in kept:  # once in test, in neither other split
        assert keys["test"].count(key) == 1 and key not in keys["train"] and key not in keys["dev"]
    # what is dropped is dropped for the rule's reasons, and gold and ids stay with their pairs
    dropped = [k for k in keys["test"] if k not in kept]
    assert len(dropped) == 17 and all(keys["test"].count(k) > 1 or k in keys["train"] or k in keys["dev"] for k in dropped)
    order = [i for i, k in enumerate(keys["test"]) if k in kept]  # the file's order, gold and ids alongside
    sub = test.subsets[0]
    assert sub.pairs == [full["test"].pairs[i] for i in order] and sub.ids == [full["test"].ids[i] for i in order]
    assert list(sub.gold) == [full["test"].gold[i] for i in order]


def test_stsb_v2_rule_on_a_tiny_root(tmp_path):
    """Order-insensitive keys; every copy of a pair repeated in the split goes; so does a pair of another split."""
    line = "main-captions\tMSRvid\t2012test\t{:04d}\t{}\t{}\t{}\n"
    files = {"train": [("A b.", "C d.")],
             "dev": [("E f.", "G h.")],
             "test": [("C d.", "A b."), ("X.", "Y."), ("Y.", "X."), ("P.", "Q."), ("G h.", "E f."), ("R.", "S.")]}
    folder = tmp_path / "stsbenchmark"
    for split, pairs in files.items():
        write(folder / f"sts-{split}.csv", "".join(line.format(i, 1 + i % 4, a, b) for i, (a, b) in enumerate(pairs)))
    test = corpora.load("stsb-v2-test", tmp_path)
    assert test.pairs == [("P.", "Q."), ("R.", "S.")] and list(test.subsets[0].gold) == [4.0, 2.0]
    assert test.subsets[0].ids == ["0003", "0005"]
    (folder / "sts-train.csv").unlink()  # the rule needs all three splits: without one it is refused, naming it
    with pytest.raises(corpora.FormatError, match=r"sts-train\.csv: no such file \(stsb-v2-test is derived from"):
        corpora.load("stsb-v2-test", tmp_path)


# --- Issue 24, part 3c: BIOSSES and STS22 en, in MTEB's Hugging Face files, work in every command (fixtures from
# tests/full_root.py, in the layout `sts data fetch` installs).


@pytest.fixture
def mteb_root(tmp_path):
    from full_root import biosses, sts2022
    root = tmp_path / "root"
    biosses(root)
    sts2022(root)
    return root


def test_biosses_and_sts22_list_run_eval_and_bench(mteb_root, tmp_path, capsys):
    import json

    from scipy.stats import spearmanr

    from semsts import cli
    from semsts.scoring.runs import run_predictions
    root = ["--data-dir", str(mteb_root)]
    assert cli.main(["data", "list", *root]) == 0
    out = capsys.readouterr().out
    assert "biosses-test     present     100 pairs: biosses (100)" in out
    assert "sts2022-test     present     120 pairs: en (120)" in out
    assert "sts2022-v2-test  present     119 pairs: en.v2 (119)" in out
    runs, ranges = {}, {"biosses-test": (0, 4), "sts2022-test": (1, 4), "sts2022-v2-test": (1, 4)}
    for name, (lo, hi) in ranges.items():
        ds = corpora.load(name, mteb_root)
        assert ds.subsets[0].score_range == (lo, hi) and lo <= ds.gold.min() and ds.gold.max() <= hi
        runs[name] = tmp_path / name
        assert cli.main(["run", "token-cosine", "--test", name, "--out", str(runs[name]), "--quiet", *root]) == 0
        written = run_predictions(ds, runs[name])[ds.subsets[0].name]
        assert len(written) == len(ds.pairs) and lo <= written.min() and written.max() <= hi  # in the gold's range
        assert cli.main(["eval", "--dataset", name, "--run", str(runs[name]), *root]) == 0
        assert f"{ds.subsets[0].name}={len(ds.pairs)}" in capsys.readouterr().out
    names = ",".join(ranges)
    assert cli.main(["bench", "token-cosine", "--datasets", names, "--format", "json", "--quiet", *root]) == 0
    doc = json.loads(capsys.readouterr().out)["rows"][0]
    for name in ranges:
        ds = corpora.load(name, mteb_root)
        written = run_predictions(ds, runs[name])[ds.subsets[0].name]
        figures = doc["datasets"][name]
        assert figures["mteb"] == pytest.approx(100 * spearmanr(ds.gold, written)[0], abs=1e-7)  # MTEB: cosine Spearman
        assert figures["official"] == {} and figures["senteval"] is None and figures["simcse"] is None  # MTEB only
    assert list(doc["signatures"]) == ["mteb"] and "biosses-test=100" in doc["signatures"]["mteb"]  # MTEB's alone
    assert cli.main(["bench", "token-cosine", "--suite", "mteb-eng-v2", "--convention", "mteb", "--quiet", *root]) == 0
    out = capsys.readouterr().out
    assert "BIOSSES" in out and "STS22.v2 en" in out and "data:biosses-test=100,sts2022-v2-test=119" in out
    assert "absent: sts2012-test" in out


def test_sts22_v2_drops_only_the_pairs_with_an_empty_text(mteb_root):
    full, v2 = corpora.load("sts2022-test", mteb_root), corpora.load("sts2022-v2-test", mteb_root)
    empty = [i for i, (a, b) in enumerate(full.pairs) if not a.strip() or not b.strip()]
    assert empty == [7]
    assert v2.pairs == full.pairs[:7] + full.pairs[8:]
    assert v2.gold.tolist() == np.delete(full.gold, 7).tolist()


def test_a_score_outside_the_tasks_own_range_is_refused(mteb_root):
    import gzip
    path = mteb_root / "biosses" / "test.jsonl.gz"
    text = gzip.decompress(path.read_bytes()).decode().splitlines()
    text[2] = text[2].rsplit('"score": ', 1)[0] + '"score": 4.5}'  # BIOSSES is 0-4 (STS's 0-5 would take it)
    path.write_bytes(gzip.compress(("\n".join(text) + "\n").encode()))
    with pytest.raises(FormatError, match=r"test\.jsonl\.gz:3: score 4\.5 is outside \[0, 4\]"):
        corpora.load("biosses-test", mteb_root)
    sts22 = mteb_root / "sts2022" / "en" / "test.jsonl"
    sts22.write_text(sts22.read_text().replace('"score": ', '"score": 0.5, "was": ', 1), encoding="utf-8")
    with pytest.raises(FormatError, match=r"test\.jsonl:1: score 0\.5 is outside \[1, 4\]"):
        corpora.load("sts2022-test", mteb_root)
