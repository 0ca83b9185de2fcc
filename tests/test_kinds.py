"""Dataset kinds (corpora.kinds), issue 36 part 3: MTEB's multilingual STS (STS17's 11 pairs, STS22's and STS22.v2's 18 subsets,
STSBenchmarkMultilingualSTS's 10 languages) as datasets in every command, fetched from MTEB's files at their paths and
pinned per subset by mteb's figures, and benched as mteb scores them: each subset's cosine Spearman, a task their mean.

The data is not on this machine: the fixtures (tests/full_root.py) are files in the official formats (gzipped JSONL,
JSONL, Parquet written by pyarrow) holding texts of our own in the subsets' languages (Arabic, Chinese, Korean …)."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy.stats import spearmanr

from semsts import cli, corpora
from semsts.corpora import content_pins, fetch
from semsts.corpora.datasets import STS17_PAIRS, STS22_LANGUAGES, STSB_MULTI_LANGUAGES
from semsts.corpora.errors import FormatError
from semsts.corpora.sources import FetchError
from semsts.scoring.runs import run_predictions

NAMES = ("sts17-ml-test", "sts22-ml-test", "sts22-v2-ml-test", "stsbmt-test", "stsbmt-dev")


@pytest.fixture(scope="module")
def ml_root(tmp_path_factory):
    from full_root import mteb_multilingual
    root = tmp_path_factory.mktemp("ml") / "root"
    mteb_multilingual(root)
    return root


# --- the datasets


def test_every_subset_is_registered_in_the_tasks_order(ml_root):
    assert len(STS17_PAIRS) == 11 and len(STS22_LANGUAGES) == 18 and len(STSB_MULTI_LANGUAGES) == 10
    expected = {"sts17-ml-test": STS17_PAIRS, "sts22-ml-test": STS22_LANGUAGES, "sts22-v2-ml-test": STS22_LANGUAGES,
                "stsbmt-test": STSB_MULTI_LANGUAGES, "stsbmt-dev": STSB_MULTI_LANGUAGES}
    for name, subsets in expected.items():
        ds = corpora.load(name, ml_root)
        assert tuple(s.name for s in ds) == subsets and ds.notes == ()
    ranges = {"sts17-ml-test": (0, 5), "sts22-ml-test": (1, 4), "stsbmt-test": (0, 5)}
    for name, (lo, hi) in ranges.items():
        ds = corpora.load(name, ml_root)
        assert ds.subsets[0].score_range == (lo, hi) and lo <= ds.gold.min() and ds.gold.max() <= hi
    ar = corpora.load("sts17-ml-test", ml_root).subset("ar-ar")
    assert "القطة" in " ".join(a for a, _ in ar.pairs)  # the texts as written, Arabic and Chinese unchanged
    zh = corpora.load("sts22-ml-test", ml_root).subset("zh")
    assert any("红色" in a for a, _ in zh.pairs)


def test_stsb_multi_scores_are_the_float32_values_of_the_file(ml_root):
    path = ml_root / "mteb" / "stsb_multi_mt" / "dev" / "zh.parquet"
    sub = corpora.load("stsbmt-dev", ml_root).subset("zh")
    table = pq.read_table(path)
    assert sub.pairs == list(zip(table["sentence1"].to_pylist(), table["sentence2"].to_pylist()))
    assert sub.gold.tolist() == table["similarity_score"].to_pylist()  # float32 read exactly, as mteb's figures see it


def test_sts22_v2_drops_only_the_pairs_with_an_empty_text(ml_root):
    full, v2 = corpora.load("sts22-ml-test", ml_root), corpora.load("sts22-v2-ml-test", ml_root)
    for a, b in zip(full, v2):
        empty = [i for i, (x, y) in enumerate(a.pairs) if not x.strip() or not y.strip()]
        assert empty == ([3] if a.name == "de" else [])
        assert b.pairs == [p for i, p in enumerate(a.pairs) if i not in empty]
        assert b.gold.tolist() == np.delete(a.gold, empty).tolist()
    assert v2.subset("de").output_name == "STS.output.de.v2.txt" != full.subset("de").output_name


def test_a_missing_subset_is_a_note_and_a_bad_score_an_error(ml_root, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(ml_root, root)
    (root / "mteb" / "sts17-crosslingual-sts" / "test" / "ko-ko.jsonl.gz").unlink()
    ds = corpora.load("sts17-ml-test", root)
    assert len(ds) == 10 and ds.notes == (f"sts17-ml-test: subset ko-ko skipped: test/ko-ko.jsonl.gz is not in "
                                          f"{root / 'mteb' / 'sts17-crosslingual-sts'}",)
    path = root / "mteb" / "sts22-crosslingual-sts" / "fr" / "test.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace('"score": ', '"score": 0.5, "was": ', 1)  # STS22 is 1-4
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"fr/test\.jsonl:2: score 0\.5 is outside \[1, 4\]"):
        corpora.load("sts22-ml-test", root)
    table = pq.read_table(root / "mteb" / "stsb_multi_mt" / "test" / "pt.parquet")
    scores = table["similarity_score"].to_pylist()
    scores[4] = 5.5
    pq.write_table(table.set_column(2, "similarity_score", pa.array(scores, pa.float32())),
                   root / "mteb" / "stsb_multi_mt" / "test" / "pt.parquet")
    with pytest.raises(FormatError, match=r"pt\.parquet: row 5: similarity_score 5\.5 is outside \[0, 5\]"):
        corpora.load("stsbmt-test", root)


def test_list_run_and_eval_every_dataset(ml_root, tmp_path, capsys):
    root = ["--data-dir", str(ml_root)]
    assert cli.main(["data", "list", *root]) == 0
    out = capsys.readouterr().out
    assert "sts17-ml-test    present     440 pairs: ar-ar (40), en-ar (40)" in out
    assert "sts22-v2-ml-test present     539 pairs: ar (30), de (29), de-en (30)" in out
    assert "stsbmt-dev       present     400 pairs: de (40)" in out
    for name in NAMES:
        ds = corpora.load(name, ml_root)
        out_dir = tmp_path / name
        assert cli.main(["run", "token-cosine", "--test", name, "--out", str(out_dir), "--quiet", *root]) == 0
        written = run_predictions(ds, out_dir)
        lo, hi = ds.subsets[0].score_range
        assert all(len(written[s.name]) == len(s) and lo <= written[s.name].min() <= written[s.name].max() <= hi
                   for s in ds)
        assert cli.main(["eval", "--dataset", name, "--run", str(out_dir), *root]) == 0
        said = capsys.readouterr().out
        assert all(f"{s.name}={len(s)}" in said for s in ds)


# --- the bench: MTEB's figures per subset and per task


def test_bench_gives_each_subsets_spearman_and_the_tasks_mean(ml_root, tmp_path, capsys):
    root = ["--data-dir", str(ml_root)]
    assert cli.main(["bench", "token-cosine", "--datasets", ",".join(NAMES), "--format", "json", "--quiet",
                     *root]) == 0
    doc = json.loads(capsys.readouterr().out)["rows"][0]
    each = {}
    for name in NAMES:
        ds = corpora.load(name, ml_root)
        out_dir = tmp_path / name
        assert cli.main(["run", "token-cosine", "--test", name, "--out", str(out_dir), "--quiet", *root]) == 0
        written = run_predictions(ds, out_dir)
        each[name] = {s.name: 100 * spearmanr(s.gold, written[s.name])[0] for s in ds}  # scipy, as mteb computes it
    for name in ("sts17-ml-test", "sts22-ml-test", "sts22-v2-ml-test", "stsbmt-dev"):
        figures = doc["datasets"][name]
        assert figures["mteb_subsets"] == pytest.approx(each[name], abs=1e-7)
        assert figures["mteb"] == pytest.approx(np.mean(list(each[name].values())), abs=1e-7)  # the plain mean
        assert figures["official"] == {} and figures["senteval"] is None and figures["simcse"] is None  # MTEB only
    # STSBenchmarkMultilingualSTS: mteb evaluates dev and test and averages all 20 (split, language) scores
    test = doc["datasets"]["stsbmt-test"]
    assert len(test["mteb_subsets"]) == 20 and test["mteb_n"] == 900
    assert test["mteb"] == pytest.approx(np.mean([*each["stsbmt-test"].values(), *each["stsbmt-dev"].values()]),
                                         abs=1e-7)
    assert doc["mteb_mean"] == pytest.approx(np.mean([doc["datasets"][n]["mteb"] for n in NAMES]), abs=1e-7)
    assert "multilingual:mean-of-subsets" in doc["signatures"]["mteb"] and "stsbmt-test-n:900" in doc["signatures"]["mteb"]
    assert list(doc["signatures"]) == ["mteb"]  # the one convention covering them


def test_the_suite_shows_the_mteb_tables_alone(ml_root, capsys):
    root = ["--data-dir", str(ml_root)]
    assert cli.main(["bench", "token-cosine", "--suite", "mteb-multilingual", "--quiet", *root]) == 0
    out = capsys.readouterr().out
    assert 'SimCSE/SBERT "all"' not in out and "SentEval: Pearson" not in out and out.startswith("MTEB: main score")
    header = next(line for line in out.splitlines() if line.startswith("system"))
    assert header.split() == ["system", "STS17", "STS22.v2", "STSBMultilingual", "mean"]
    assert "MTEB by subset" in out
    assert "data:sts17-ml-test=440,sts22-v2-ml-test=539,stsbmt-test=500" in out
    rows = [line.split() for line in out.splitlines() if line.startswith(("STS17 ", "STS22.v2 ", "STSBMultilingual "))]
    assert len(rows) == 11 + 18 + 20 and [r[1] for r in rows[:2]] == ["ar-ar", "en-ar"]
    assert all(r[3].startswith("[") for r in rows)  # each subset's bootstrap interval
    # --published: no published row has a figure of these tasks (mteb-sts.tsv: STS17 en-en and STS22 en only)
    assert cli.main(["bench", "token-cosine", "--suite", "mteb-multilingual", "--published", "--resamples", "0",
                     "--quiet", *root]) == 0
    placed = capsys.readouterr().out
    assert "rank" not in placed and placed.splitlines()[2].split() == ["system", "STS17", "STS22.v2", "STSBMultilingual",
                                                                      "mean"]


# --- fetching: MTEB's files at their paths, pinned per subset


@pytest.fixture
def fixture_pins(ml_root, tmp_path, monkeypatch):
    """mteb's pins holding the fixtures' figures (computed as mteb does) instead of mteb's: the real files are not here."""
    pins = content_pins.load_pins()
    for pin in pins.values():
        for check in (pin, *pin.get("more", ())):
            if "subsets" in check:
                check["subsets"] = {s.name: content_pins.figures(s.pairs, s.gold)
                                    for s in corpora.load(check["dataset"], ml_root)}
    path = tmp_path / "pins.json"
    path.write_text(json.dumps({"releases": pins}), encoding="utf-8")
    monkeypatch.setattr(content_pins, "PINS_PATH", path)


@pytest.mark.parametrize("name, release", [("sts17-ml-test", "sts17-crosslingual-sts"),
                                           ("sts22-v2-ml-test", "sts22-crosslingual-sts"),
                                           ("stsbmt-dev", "stsb_multi_mt")])
def test_fetch_from_a_mirror_serving_the_repository(ml_root, tmp_path, fixture_pins, name, release):
    root = tmp_path / "data"
    assert fetch.fetch(name, root, mirror=ml_root.as_uri()) == root / "mteb" / release
    for a, b in zip(corpora.load(name, root), corpora.load(name, ml_root)):
        assert a.pairs == b.pairs and a.gold.tolist() == b.gold.tolist()
    assert [p.name for p in root.iterdir()] == ["mteb"]  # nothing left of the download


def test_files_that_are_not_mtebs_are_refused_naming_the_subset(ml_root, tmp_path):
    root = tmp_path / "data"
    mirror = ml_root.as_uri()
    with pytest.raises(FetchError, match=r"mteb-sts17: its files are not those mteb describes for STS17 "
                                         r"\(sts17-ml-test/ar-ar: num_samples expected 250, got 40"):
        fetch.fetch("sts17-ml-test", root, mirror=mirror)
    assert not (root / "mteb").exists()
    assert fetch.fetch("sts17-ml-test", root, mirror=mirror, unverified=True) == root / "mteb" / "sts17-crosslingual-sts"


def test_an_unverified_install_is_listed_as_such_and_verify_names_each_file(ml_root, tmp_path, capsys):
    """The fixture's files are not mteb's (the real pins): verify names each of the 11 files, list flags the install."""
    root = tmp_path / "data"
    fetch.fetch("sts17-ml-test", root, mirror=ml_root.as_uri(), unverified=True)
    assert cli.main(["data", "--data-dir", str(root), "verify", "sts17-ml-test"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines[:-1]] == [
        ["MISMATCH", f"mteb/sts17-crosslingual-sts/test/{pair}.jsonl.gz"] for pair in STS17_PAIRS]
    assert all(f"not what mteb describes for STS17 {pair}: num_samples expected " in line
               for pair, line in zip(STS17_PAIRS, lines))
    assert lines[-1] == f"{root}: 0 OK, 11 MISMATCH, 0 MISSING"
    assert cli.main(["data", "--data-dir", str(root), "list"]) == 0
    listing = " ".join(capsys.readouterr().out.split())
    assert ("note: sts17-ml-test: installed unverified: its files are not those mteb describes for STS17 "
            "(sts17-ml-test/ar-ar: num_samples expected 250, got 40") in listing


def test_verify_checks_every_subset_of_every_dataset_a_pin_names(ml_root, fixture_pins, capsys):
    assert cli.main(["data", "--data-dir", str(ml_root), "verify", "stsbmt-test"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines[:-1]] == [
        ["OK", f"mteb/stsb_multi_mt/{split}/{lang}.parquet"] for split in ("test", "dev") for lang in STSB_MULTI_LANGUAGES]
    assert lines[-1] == f"{ml_root}: 20 OK, 0 MISMATCH, 0 MISSING"


def test_fetch_by_hand_takes_a_copy_of_the_repository(ml_root, tmp_path, fixture_pins):
    root = tmp_path / "data"
    copy = ml_root / "mteb" / "sts22-crosslingual-sts"
    assert fetch.fetch("sts22-ml-test", root, archives=[copy]) == root / "mteb" / "sts22-crosslingual-sts"
    assert len(corpora.load("sts22-ml-test", root)) == 18
    with pytest.raises(FetchError, match="--archive takes one folder holding the release's files at their paths"):
        fetch.fetch("stsbmt-test", tmp_path / "other", archives=[copy / "ar" / "test.jsonl"])
    partial = tmp_path / "partial"
    shutil.copytree(ml_root / "mteb" / "stsb_multi_mt", partial)
    (partial / "dev" / "ru.parquet").unlink()
    with pytest.raises(FetchError, match=r"has no file 'dev/ru\.parquet'"):
        fetch.fetch("stsbmt-test", tmp_path / "other", archives=[partial])
    assert not (tmp_path / "other" / "mteb").exists()


def test_compare_and_train_take_them_too(ml_root, tmp_path, capsys):
    root = ["--data-dir", str(ml_root)]
    for system in ("token-cosine", "random"):
        assert cli.main(["run", system, "--test", "sts17-ml-test", "--out", str(tmp_path / system), "--quiet",
                         *root]) == 0
    assert cli.main(["compare", "--dataset", "sts17-ml-test", "--run", f"tc={tmp_path / 'token-cosine'}",
                     "--run", f"rnd={tmp_path / 'random'}", "--resamples", "100", *root]) == 0
    out = capsys.readouterr().out
    assert "ar-ar" in out and "ko-ko" in out and "nl-en" in out
    model = tmp_path / "m.skops"
    assert cli.main(["train", "--train", "stsbmt-dev", "--test", "stsbmt-test", "--feature-set", "takelab",
                     "--regressor", "ridge", "--save", str(model), "--quiet", *root]) == 0
    card = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    assert card["training_data"]["datasets"] == ["stsbmt-dev"]


# --- the pages' commands (docs/data.md and docs/compare.md show them; the data is not here, so they run on fixtures)


def _shown(page: str) -> list[list[str]]:
    """The commands of ``page``'s blocks this file tests, each as its arguments after ``sts``."""
    import shlex

    from conftest import doc_blocks
    blocks = [b for b in doc_blocks(page) if b.how == ("tested-by", "tests/test_kinds.py")]
    assert blocks, page
    commands = [shlex.split(line.split("#")[0]) for b in blocks for line in b.text.splitlines() if line.strip()]
    assert all(c[0] == "sts" for c in commands)
    return [c[1:] for c in commands]


def test_the_fetch_commands_of_docs_data_md(ml_root, tmp_path, fixture_pins, monkeypatch, capsys):
    root = tmp_path / "data"
    monkeypatch.setenv("STS_DATA", str(root))
    monkeypatch.setenv("STS_MIRROR", ml_root.as_uri())  # another data root serves the files at their paths
    for args in _shown("docs/data.md"):
        assert cli.main([*args, "--quiet"]) == 0, args
    capsys.readouterr()
    for name in NAMES:
        assert [s.name for s in corpora.load(name, root)] == [s.name for s in corpora.load(name, ml_root)]


def test_the_bench_commands_of_docs_compare_md(ml_root, monkeypatch, capsys):
    monkeypatch.setenv("STS_DATA", str(ml_root))
    outputs = []
    for args in _shown("docs/compare.md"):
        assert cli.main([*args, "--quiet"]) == 0, args
        outputs.append(capsys.readouterr().out)
    assert "MTEB by subset" in outputs[0]
    doc = json.loads(outputs[1])["rows"][0]["datasets"]
    assert len(doc["sts22-ml-test"]["mteb_subsets"]) == len(doc["sts22-v2-ml-test"]["mteb_subsets"]) == 18
