"""SICK (SemEval-2014 Task 1) as a named dataset: read, validated, listed, fetched and in the manifest."""
import shutil

import numpy as np
import pytest

from conftest import write
from semsts import corpora
from semsts.corpora import FormatError, fetch, manifest, sick, sources
from tests.conftest import data_main, leftovers, make_zip

HEADER = "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"


def sick_file(path, rows, header=HEADER):
    return write(path, header + "".join("\t".join(map(str, row)) + "\n" for row in rows))


def test_the_official_files_read_with_ids_and_range(data_dir):
    counts = {n: len(corpora.load(f"sick2014-{n}", data_dir).pairs) for n in ("train", "trial", "test")}
    assert counts == {"train": 4500, "trial": 500, "test": 4927}
    test = corpora.load("sick2014-test", data_dir).subset("SICK_test_annotated")
    assert test.kind.name == "sick" and test.score_range == (1.0, 5.0) and test.n_scored == 4927
    assert test.ids[:2] == ["6", "7"] and test.ids[-1] == "9996" and len(set(test.ids)) == 4927
    assert test.gold[:2].tolist() == [3.3, 3.7] and test.gold[-1] == 1.0
    assert test.pairs[-1] == ("A man is in a parking lot and is playing tennis against a large wall",
                              "The snowboarder is leaping fearlessly over white snow")
    assert test.gold.min() == 1.0 and test.gold.max() == 5.0
    assert round(float(test.gold.mean()), 6) == 3.530021  # 17392.415 / 4927, summed from the file by hand
    train = corpora.load("sick2014-train", data_dir).subset("SICK_train")
    assert train.ids[0] == "1" and train.gold[0] == 4.5
    assert train.pairs[0][0] == "A group of kids is playing in a yard and an old man is standing in the background"
    assert test.output_name == "STS.output.SICK_test_annotated.txt"


def test_fixture_reads_and_each_bad_line_names_file_and_line(tmp_path):
    path = sick_file(tmp_path / "sick2014" / "SICK_trial.txt",
                     [(4, "a b", "c d", 3.6, "CONTRADICTION"), (24, "e", "f", "1", "NEUTRAL")])
    sub = corpora.load("sick2014-trial", tmp_path).subset("SICK_trial")
    assert sub.ids == ["4", "24"] and sub.gold.tolist() == [3.6, 1.0] and sub.pairs == [("a b", "c d"), ("e", "f")]
    cases = [
        ([(1, "a", "b", 0.5, "NEUTRAL")], r":2: relatedness score 0.5 is outside \[1, 5\]"),
        ([(1, "a", "b", "nan", "NEUTRAL")], ":2: expected a finite relatedness score, got 'nan'"),
        ([(1, "a", "b", "", "NEUTRAL")], ":2: expected a relatedness score, got an empty field"),
        ([(1, "a", "b", 3, "NEUTRAL"), (1, "c", "d", 3, "NEUTRAL")], ":3: pair_ID 1 repeats line 2"),
        ([(1, "a", "b", 3, "maybe")], ":2: expected an entailment judgment .*got 'maybe'"),
        ([(1, "a", "b", 3)], ":2: expected 5 tab-separated fields as the header has, got 4"),
    ]
    for rows, message in cases:
        sick_file(path, rows)
        with pytest.raises(FormatError, match=message):
            corpora.load("sick2014-trial", tmp_path)
    sick_file(path, [(1, "a", "b", 3, "NEUTRAL")], header="id\ts1\ts2\tscore\tlabel\n")
    with pytest.raises(FormatError, match=r"SICK_trial.txt:1: expected the SICK header pair_ID<TAB>sentence_A"):
        corpora.load("sick2014-trial", tmp_path)


def test_listed_and_absent_with_how_to_get_it(data_dir, tmp_path, capsys):
    assert data_main("--data-dir", data_dir, "list") == 0
    out = capsys.readouterr().out
    assert "sick2014-test    present    4927 pairs: SICK_test_annotated (4927)" in out
    assert "sick2014-train   present    4500 pairs" in out
    assert data_main("--data-dir", tmp_path, "list") == 0
    assert "sick2014-trial   absent   SICK (SemEval-2014 Task 1) trial pairs, relatedness 1-5; `sts data fetch sick2014-trial`" in capsys.readouterr().out


def test_in_the_manifest_and_verified(data_dir, tmp_path, capsys):
    stored = manifest.load_manifest()
    assert {rel for rel in stored if rel.startswith("sick2014/")} == {
        "sick2014/SICK_train.txt", "sick2014/SICK_trial.txt", "sick2014/SICK_test_annotated.txt"}
    shutil.copytree(data_dir / "sick2014", tmp_path / "sick2014")
    assert data_main("--data-dir", tmp_path, "verify", "sick2014-test", "--quiet") == 0
    assert "3 OK, 0 MISMATCH, 0 MISSING" in capsys.readouterr().out


def test_fetch_from_the_task_address_through_a_mirror(server, tmp_path, capsys, no_manifest):
    served, url = server
    assert sources.source_of("sick2014-test").urls == tuple(
        f"http://alt.qcri.org/semeval2014/task1/data/uploads/{n}"
        for n in ("sick_train.zip", "sick_trial.zip", "sick_test_annotated.zip"))
    rows = [(1, "a", "b", 4.5, "NEUTRAL"), (2, "c", "d", 1, "ENTAILMENT")]
    for split, filename in sick.FILES.items():
        content = (tmp_path / "x" / filename)
        sick_file(content, rows)
        make_zip(served / f"sick_{'test_annotated' if split == 'test' else split}.zip", {filename: content.read_text()})
    root = tmp_path / "root"
    assert data_main("--data-dir", root, "fetch", "sick2014-test", "--mirror", url, "--quiet") == 0
    out = capsys.readouterr().out
    assert "sick2014: installed in" in out and "sick2014-trial: SICK_trial (2)" in out
    assert sorted(p.name for p in (root / "sick2014").iterdir()) == sorted(sick.FILES.values())
    assert corpora.load("sick2014-train", root).subset("SICK_train").ids == ["1", "2"]
    assert leftovers(root) == []


def test_fetch_with_hand_downloaded_archives_checks_the_manifest(data_dir, tmp_path, capsys):
    archives = [make_zip(tmp_path / f"sick_{n}.zip", {f"SICK/{f}": (data_dir / "sick2014" / f).read_bytes().decode()})
                for n, f in [("train", "SICK_train.txt"), ("trial", "SICK_trial.txt"),
                             ("test_annotated", "SICK_test_annotated.txt")]]
    root = tmp_path / "root"
    argv = ["--data-dir", root, "fetch", "sick2014-test", "--quiet"] + [a for z in archives for a in ("--archive", z)]
    assert data_main(*argv) == 0
    assert len(corpora.load("sick2014-test", root).pairs) == 4927
    capsys.readouterr()
    bad = make_zip(tmp_path / "bad.zip", {"SICK_test_annotated.txt": HEADER + "6\ta\tb\t3.3\tNEUTRAL\n"})
    with pytest.raises(sources.FetchError, match=r"SHA-256 manifest: sick2014/SICK_test_annotated.txt \(size"):
        fetch.fetch("sick2014-test", tmp_path / "other", archives=[archives[0], archives[1], bad])
    with pytest.raises(sources.FetchError, match="has no file 'SICK_test_annotated.txt'"):
        fetch.fetch("sick2014-test", tmp_path / "other", archives=archives[:2])
    assert not (tmp_path / "other" / "sick2014").exists()


def test_reprs_are_short(data_dir):
    ds = corpora.load("sick2014-test", data_dir)
    assert repr(ds) == "<Dataset sick2014-test (sick): 4927 pairs, 4927 scored; SICK_test_annotated (4927)>"
    assert repr(ds.subsets[0]) == "<Subset sick2014-test/SICK_test_annotated: 4927 pairs, 4927 scored, range [1, 5]>"
    ds = corpora.load("sts2015-test", data_dir)
    assert str(ds).startswith("<Dataset sts2015-test (sts): 8500 pairs, 3000 scored; answers-forums (2000, 375 scored), ")
    assert len(repr(ds)) < 300 and isinstance(ds.gold, np.ndarray)


# --- Issue 23, case 9: a long CSV field, complex embeddings.


def test_a_header_only_sick_file_is_refused(tmp_path, data_dir):
    header = (data_dir / "sick2014" / "SICK_trial.txt").read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "SICK_mine.txt").write_text(header + "\n")
    with pytest.raises(corpora.FormatError, match="a SICK header and no pairs after it"):
        corpora.load_path(tmp_path / "SICK_mine.txt")
