"""``sts bench --save-predictions DIR`` (semsts.scoring.pair_predictions): the files hold the pairs the bench scored,
checked against the bench's printed figures and the official files by independent computations; the folder is
written whole or not at all and nothing the saves did not write is replaced; odd row labels give safe names."""
import csv
import json
import os
import re

import numpy as np
import pytest
from scipy.stats import pearsonr, spearmanr

from conftest import write
from semsts import cli, corpora
from semsts.scoring import pair_predictions as pp
from semsts.scoring.bench import bench_row

# (the JSON holds figures to 8 decimals: abs=1e-8 below)
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\.jsonl")


def _read(path) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _bench(argv, capsys) -> dict:
    assert cli.main(["bench", *argv, "--format", "json", "--quiet"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _manifest(folder) -> dict:
    return json.loads((folder / pp.MANIFEST).read_text(encoding="utf-8"))


def test_the_files_give_the_benchs_figures(tmp_path, data_dir, toy_encoder, capsys):
    """Every printed figure of every row (a system, an encoder), recomputed with scipy from the saved files alone."""
    out = tmp_path / "preds"
    doc = _bench(["token-cosine", "--encoder", "toy_encoder:encode", "--datasets",
                  "sts2012-test,stsb-test,sick2014-test", "--resamples", "0", "--save-predictions", str(out),
                  "--data-dir", str(data_dir)], capsys)
    manifest = _manifest(out)
    assert manifest["complete"] is True and manifest["fields"] == list(pp.FIELDS)
    names = {(v["row"], v["dataset"]): k for k, v in manifest["files"].items() if k.endswith(".jsonl")}
    assert len(names) == 2 * 5  # two rows, three datasets and SICK's train and trial sets (MTEB's SICK-R pools them)
    assert names[("token-cosine", "stsb-test")] == "token-cosine.stsb-test.jsonl"
    assert all(SAFE_NAME.fullmatch(n) for n in names.values())
    assert sorted(p.name for p in out.iterdir()) == sorted([*names.values(), pp.README, pp.MANIFEST])
    for row in doc["rows"]:
        for dataset, figures in row["datasets"].items():
            records = _read(out / names[(row["system"], dataset)])
            assert list(records[0]) == list(pp.FIELDS) and len(records) == figures["n"]
            gold = np.array([r["gold"] for r in records])
            pred = np.array([r["prediction"] for r in records])
            assert figures["simcse"] == pytest.approx(100 * spearmanr(gold, pred).statistic, abs=1e-8)
            by_subset = {}
            for r in records:
                by_subset.setdefault(r["subset"], []).append((r["gold"], r["prediction"]))
            assert {s: len(v) for s, v in by_subset.items()} == figures["subsets"]
            pearsons = [pearsonr(*np.array(v).T).statistic for v in by_subset.values()]
            assert figures["senteval"]["pearson"]["mean"] == pytest.approx(np.mean(pearsons), abs=1e-8)
            if dataset == "sts2012-test":
                assert figures["official"]["ALL"] == pytest.approx(pearsonr(gold, pred).statistic, abs=1e-8)
            else:
                assert figures["official"]["Pearson"] == pytest.approx(pearsonr(gold, pred).statistic, abs=1e-8)
            if dataset == "sick2014-test":  # MTEB's SICK-R: all three files
                pooled = records + _read(out / names[(row["system"], "sick2014-train")]) + \
                    _read(out / names[(row["system"], "sick2014-trial")])
                assert len(pooled) == figures["mteb_n"] == 9927
                mteb = spearmanr([r["gold"] for r in pooled], [r["prediction"] for r in pooled]).statistic
                assert figures["mteb"] == pytest.approx(100 * mteb, abs=1e-8)
            else:
                assert figures["mteb"] == figures["simcse"]
    assert (f"{names[('toy_encoder:encode', 'stsb-test')]}  row 'toy_encoder:encode', stsb-test, 1379 pairs"
            in (out / pp.README).read_text(encoding="utf-8"))


def test_each_record_is_its_line_of_the_official_files(tmp_path, data_dir, capsys):
    """Texts, gold and id from the official files read here by hand; predictions as `sts run` writes them."""
    out = tmp_path / "preds"
    _bench(["token-cosine", "--datasets", "sts2012-test,stsb-test,sick2014-test", "--resamples", "0",
            "--save-predictions", str(out), "--data-dir", str(data_dir)], capsys)
    for r in _read(out / "token-cosine.sts2012-test.jsonl")[::97]:
        folder = data_dir / "sts2012" / "test"
        line = (folder / f"STS.input.{r['subset']}.txt").read_text(encoding="utf-8").splitlines()[r["pair"] - 1]
        assert line.split("\t") == [r["sentence1"], r["sentence2"]] and r["id"] is None
        gold = (folder / f"STS.gs.{r['subset']}.txt").read_text(encoding="utf-8").splitlines()[r["pair"] - 1]
        assert float(gold) == r["gold"]
    with open(data_dir / "stsbenchmark" / "sts-test.csv", encoding="utf-8") as handle:
        stsb = [line.rstrip("\n").split("\t") for line in handle]
    for r in _read(out / "token-cosine.stsb-test.jsonl")[::53]:
        fields = stsb[r["pair"] - 1]
        assert (fields[3], float(fields[4]), fields[5], fields[6]) == (r["id"], r["gold"], r["sentence1"], r["sentence2"])
    with open(data_dir / "sick2014" / "SICK_test_annotated.txt", encoding="utf-8") as handle:
        sick = list(csv.reader(handle, delimiter="\t"))
    for r in _read(out / "token-cosine.sick2014-test.jsonl")[::211]:
        fields = sick[r["pair"]]  # the header is line 1, pair 1 is line 2
        assert (fields[0], fields[1], fields[2], float(fields[3])) == (r["id"], r["sentence1"], r["sentence2"], r["gold"])
    run = tmp_path / "run"
    assert cli.main(["run", "token-cosine", "--test", "stsb-test", "--out", str(run), "--quiet",
                     "--data-dir", str(data_dir)]) == 0
    written = (run / "STS.output.sts-test.txt").read_text(encoding="utf-8").split()
    assert [r["prediction"] for r in _read(out / "token-cosine.stsb-test.jsonl")] == [float(v) for v in written]


def test_a_runs_row_saves_its_scored_pairs_only(tmp_path, data_dir, capsys):
    """STS 2015's input holds 8,500 pairs, 3,000 scored: the file holds those, at their lines of the run's output."""
    run = tmp_path / "run"
    assert cli.main(["run", "token-cosine", "--test", "sts2015-test", "--out", str(run), "--quiet",
                     "--data-dir", str(data_dir)]) == 0
    out = tmp_path / "preds"
    doc = _bench(["--runs", str(run), "--resamples", "0", "--save-predictions", str(out), "--data-dir", str(data_dir)],
                 capsys)
    records = _read(out / "token-cosine.sts2015-test.jsonl")
    assert len(records) == doc["rows"][0]["datasets"]["sts2015-test"]["n"] == 3000
    outputs = {}
    for r in records:
        if r["subset"] not in outputs:
            outputs[r["subset"]] = (run / f"STS.output.{r['subset']}.txt").read_text(encoding="utf-8").splitlines()
        assert float(outputs[r["subset"]][r["pair"] - 1]) == r["prediction"]
    assert sum(len(v) for v in outputs.values()) == 8500


# --- odd row labels


@pytest.mark.parametrize("label", ["a/b", "../../etc/passwd", "regression (stsb.skops)", "mypkg.embed:encode", "",
                                   ".hidden", "x" * 300, "モデル", "a\nb", "tab\there", "NUL\0", "C:\\evil", "dot."])
def test_a_row_label_gives_a_safe_name(label):
    slug = pp.row_slug(label)
    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,79}", slug) and not slug.endswith(".")
    assert pp.row_slug(label) == slug  # predictable
    assert slug != pp.row_slug(label + "?")  # a hash keeps labels apart that clean to the same characters


def test_safe_labels_are_kept_and_clashing_ones_numbered(data_dir):
    dataset = corpora.load("stsb-test", data_dir)
    sub = dataset.subsets[0]
    parts = {"stsb-test": {sub.name: (sub.gold, sub.gold)}}
    labels = ["token-cosine", "a/b", "a:b", "Mine", "mine", "token-cosine"]
    rows = [bench_row(label, [dataset], parts) for label in labels]
    names = pp.file_names(pp.pair_tables(rows, data_dir))
    assert names[0] == "token-cosine.stsb-test.jsonl" and names[4] == "mine-2.stsb-test.jsonl"
    assert names[5] == "token-cosine-2.stsb-test.jsonl"
    assert len({n.lower() for n in names}) == len(names) and all(SAFE_NAME.fullmatch(n) for n in names)


def test_odd_labels_stay_in_the_folder_and_escaped_in_the_report(tmp_path, data_dir):
    pytest.importorskip("matplotlib")
    from semsts.scoring.bench_html import write_bench_report
    dataset = corpora.load("stsb-test", data_dir)
    sub = dataset.subsets[0]
    evil = "../x/<script>alert(1)</script>"
    rows = [bench_row(evil, [dataset], {"stsb-test": {sub.name: (sub.gold, sub.gold[::-1].copy())}})]
    tables = pp.pair_tables(rows, data_dir)
    out = tmp_path / "a" / "preds"
    (written,) = pp.save_predictions(tables, out)
    assert written.parent == out and SAFE_NAME.fullmatch(written.name) and not (tmp_path / "a" / "x").exists()
    assert _manifest(out)["files"][written.name]["row"] == evil
    page = write_bench_report(rows, tmp_path / "rep", conventions=("simcse",), pairs=tables,
                              predictions=out).read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f'href="../a/preds/{written.name}"' in page


# --- the folder: whole or nothing, and only what a save wrote is replaced


def _tables(data_dir, label="token-cosine"):
    dataset = corpora.load("stsb-test", data_dir)
    sub = dataset.subsets[0]
    return pp.pair_tables([bench_row(label, [dataset], {"stsb-test": {sub.name: (sub.gold, sub.gold)}})], data_dir)


def test_an_existing_folder_keeps_other_files_and_a_new_save_replaces_the_old(tmp_path, data_dir):
    out = tmp_path / "preds"
    write(out / "notes.txt", "mine\n")
    pp.save_predictions(_tables(data_dir, "first"), out)
    assert (out / "first.stsb-test.jsonl").is_file()
    pp.save_predictions(_tables(data_dir, "second"), out)  # the first save's files go: the folder is one bench's
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["notes.txt", "second.stsb-test.jsonl", pp.README, pp.MANIFEST])
    assert (out / "notes.txt").read_text() == "mine\n"
    assert set(_manifest(out)["files"]) == {"second.stsb-test.jsonl", pp.README}


@pytest.mark.parametrize("name", ["token-cosine.stsb-test.jsonl", "other.jsonl", pp.README])
def test_a_file_no_save_wrote_is_refused_before_predicting(tmp_path, data_dir, capsys, name):
    out = tmp_path / "preds"
    write(out / name, "mine\n")
    code = cli.main(["bench", "token-cosine", "--datasets", "stsb-test", "--save-predictions", str(out), "--quiet",
                     "--data-dir", str(data_dir)])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""  # refused before anything was predicted or printed
    assert captured.err.startswith(f"error: {out}: holds {name}, which no --save-predictions wrote")
    assert len(captured.err.splitlines()) == 1
    assert [p.name for p in out.iterdir()] == [name] and (out / name).read_text() == "mine\n"


def test_a_file_for_a_folder_or_another_manifest_is_refused(tmp_path, data_dir):
    write(tmp_path / "afile", "x")
    with pytest.raises(ValueError, match=r"not a folder \(--save-predictions takes a folder, new or not: it replaces "
                                         "only the files an earlier --save-predictions wrote there and leaves the "
                                         r"others alone\)"):
        pp.check_folder(tmp_path / "afile")
    write(tmp_path / "bad" / pp.MANIFEST, "{not json")
    with pytest.raises(ValueError, match="not a manifest of `sts bench --save-predictions`"):
        pp.save_predictions(_tables(data_dir), tmp_path / "bad")
    assert [p.name for p in (tmp_path / "bad").iterdir()] == [pp.MANIFEST]


def test_a_forged_manifest_gets_no_file_of_the_users_replaced_or_removed(tmp_path, data_dir):
    """Issue 44: a save removed every file an earlier manifest named, a path outside the folder too. It now removes
    and replaces only its own names of files that are what the manifest says a save wrote (their SHA-256)."""
    import hashlib
    out = tmp_path / "preds"
    pp.save_predictions(_tables(data_dir, "first"), out)
    manifest = _manifest(out)
    write(tmp_path / "outside.jsonl", "mine\n")
    write(out / "mine.jsonl", "mine\n")
    digest = hashlib.sha256(b"mine\n").hexdigest()
    manifest["files"].update({"../outside.jsonl": {"sha256": digest}, "mine.jsonl": {"sha256": "0" * 64}})
    write(out / pp.MANIFEST, json.dumps(manifest))
    with pytest.raises(ValueError, match="holds mine.jsonl, which no --save-predictions wrote"):
        pp.save_predictions(_tables(data_dir, "second"), out)
    assert (out / "mine.jsonl").read_text() == "mine\n"
    (out / "mine.jsonl").rename(tmp_path / "mine.jsonl")
    pp.save_predictions(_tables(data_dir, "second"), out)
    assert sorted(p.name for p in out.iterdir()) == sorted(["second.stsb-test.jsonl", pp.README, pp.MANIFEST])
    assert (tmp_path / "outside.jsonl").read_text() == "mine\n"


def test_a_save_that_fails_is_one_error_line_and_prints_no_table(tmp_path, data_dir, monkeypatch, capsys):
    """Issue 44: the tables came first, then a failing save's error; the files are now written before the tables."""
    def full(record):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(pp, "_line", full)
    code = cli.main(["bench", "token-cosine", "--datasets", "stsb-test", "--resamples", "0", "--save-predictions",
                     str(tmp_path / "preds"), "--data-dir", str(data_dir)])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == "" and not (tmp_path / "preds").exists()
    assert captured.err.splitlines()[-1] == "error: cannot write the output: No space left on device"


def test_a_manifest_of_4_gib_or_a_fifo_is_refused_unread(tmp_path):
    """A predictions.json in the chosen folder is read bounded (core.files.read_record): one of 4 GiB (a hole) is not
    read whole (MemoryError), a FIFO not waited on."""
    (tmp_path / "big").mkdir()
    with open(tmp_path / "big" / pp.MANIFEST, "wb") as handle:
        handle.truncate(4 << 30)
    (tmp_path / "f").mkdir()
    os.mkfifo(tmp_path / "f" / pp.MANIFEST)
    for folder in (tmp_path / "big", tmp_path / "f"):
        with pytest.raises(ValueError, match="not a manifest of `sts bench --save-predictions`"):
            pp.check_folder(folder)


def _fail_on_second_file(monkeypatch):
    calls = []
    real = pp._line

    def line(record):
        if record["pair"] == 1:
            calls.append(1)
            if len(calls) == 2:
                raise OSError(28, "No space left on device")
        return real(record)
    monkeypatch.setattr(pp, "_line", line)


def test_a_failed_save_leaves_no_folder_it_created(tmp_path, data_dir, monkeypatch):
    tables = _tables(data_dir, "one") + _tables(data_dir, "two")
    _fail_on_second_file(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        pp.save_predictions(tables, tmp_path / "new" / "preds")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_save_in_an_existing_folder_removes_what_it_wrote(tmp_path, data_dir, monkeypatch):
    out = tmp_path / "preds"
    write(out / "notes.txt", "mine\n")
    tables = _tables(data_dir, "one") + _tables(data_dir, "two")
    _fail_on_second_file(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        pp.save_predictions(tables, out)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", pp.MANIFEST]  # no half-written file, no temporary
    assert _manifest(out)["complete"] is False
    monkeypatch.undo()
    pp.save_predictions(tables, out)  # the incomplete save's folder is taken again
    assert _manifest(out)["complete"] is True and (out / "two.stsb-test.jsonl").is_file()


def test_a_killed_saves_temporaries_are_removed_by_the_next(tmp_path, data_dir):
    out = tmp_path / "preds"
    pp.save_predictions(_tables(data_dir), out)
    tag = _manifest(out)["temp_tag"]
    write(out / f".token-cosine.stsb-test.jsonl.{tag}.tmp", "half")
    write(out / ".someone-else.tmp", "theirs")
    pp.save_predictions(_tables(data_dir), out)
    assert not (out / f".token-cosine.stsb-test.jsonl.{tag}.tmp").exists()
    assert (out / ".someone-else.tmp").read_text() == "theirs"  # a temporary no save made is left alone


# --- the report's worst pairs


def test_the_worst_pairs_are_those_of_the_largest_rank_gap():
    gold = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    pred = np.array([0.9, 0.1, 0.2, 0.3, 0.4, 0.5])  # another scale: the first pair is out of rank order, the rest
    # one place each (gold ranks 0.2 … 1.0, prediction ranks 0 … 0.8)
    table = pp.PairTable("r", "d", "d", 0, ("s",) * 6, tuple(range(1, 7)), (None,) * 6, ("a",) * 6, ("b",) * 6,
                         gold, pred)
    worst = pp.worst_pairs(table, 3)
    assert worst[0] == (0, 1.0)  # the lowest gold, the highest prediction: ranks 0 and 1
    assert worst[1:] == [(1, 0.2), (2, 0.2)]  # ties in the order of the file


def test_mteb_only_datasets_from_their_files(tmp_path, capsys):
    """BIOSSES and STS22.v2 en (fixtures in MTEB's formats): the MTEB figure from the file; STS22.v2 without the pair
    with an empty text, numbering the pairs it keeps."""
    from full_root import biosses, sts2022
    root = tmp_path / "data"
    biosses(root)
    sts2022(root)
    out = tmp_path / "preds"
    doc = _bench(["token-cosine", "--datasets", "biosses-test,sts2022-v2-test", "--resamples", "0",
                  "--save-predictions", str(out), "--data-dir", str(root)], capsys)
    figures = doc["rows"][0]["datasets"]
    for dataset, n in (("biosses-test", 100), ("sts2022-v2-test", 119)):
        records = _read(out / f"token-cosine.{dataset}.jsonl")
        assert len(records) == figures[dataset]["n"] == n
        mteb = spearmanr([r["gold"] for r in records], [r["prediction"] for r in records]).statistic
        assert figures[dataset]["mteb"] == pytest.approx(100 * mteb, abs=1e-8)
    source = [json.loads(line) for line in (root / "sts2022" / "en" / "test.jsonl").read_text().splitlines()]
    kept = [row for row in source if row["sentence1"].strip() and row["sentence2"].strip()]
    records = _read(out / "token-cosine.sts2022-v2-test.jsonl")
    assert [r["pair"] for r in records] == list(range(1, 120))
    assert [(r["sentence1"], r["sentence2"], r["gold"]) for r in records] == [
        (row["sentence1"], row["sentence2"], row["score"]) for row in kept]


@pytest.mark.parametrize("manifest", ["[" * 100_000 + "]" * 100_000, '{"files": ' + '{"a": ' * 50_000 + "1" + "}" * 50_001])
def test_a_manifest_nested_thousands_deep_is_refused_in_one_error_line(tmp_path, capsys, manifest):
    """Issue 44, kind 7: a forged predictions.json nested 100,000 deep gave a RecursionError traceback."""
    write(tmp_path / "out" / pp.MANIFEST, manifest)
    assert cli.main(["bench", "--encoder", "jaccard", "--datasets", "stsb-test", "--save-predictions",
                     str(tmp_path / "out"), "--quiet"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"error: {tmp_path / 'out' / pp.MANIFEST}: not a manifest of `sts bench --save-predictions` (format 1); give a "
        "new folder, or move it away"]
    assert [p.name for p in (tmp_path / "out").iterdir()] == [pp.MANIFEST]
