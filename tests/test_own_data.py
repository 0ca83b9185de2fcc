"""Issue 14's acceptance: the regression trained on a user's TSV, run on a second file and scored,
from the command line and from Python, with a signature naming the file and its SHA-256."""
from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from semsts import baselines, cli, corpora, evaluate

WORDS = "cat dog man woman car road sun sky tree river bird fish house city child ball".split()
# The regression system with a small feature set (no WordNet or vector families) so the test runs in seconds.
SMALL = ["--feature-set", "takelab", "--exclude", "wordnet", "--exclude", "gloss",
         "--exclude", "distributional", "--exclude", "embedding"]
SMALL_PARAMS = {"feature_set": "takelab", "exclude": ("wordnet", "gloss", "distributional", "embedding")}


def pairs_tsv(path, n: int, seed: int, *, scores: bool = True):
    """``n`` pairs sharing 0-5 of five words, scored by how many they share (a learnable signal)."""
    rng = random.Random(seed)
    lines = ["sentence1\tsentence2" + ("\tscore" if scores else "")]
    for _ in range(n):
        a = rng.sample(WORDS, 5)
        k = rng.randint(0, 5)
        b = a[:k] + rng.sample(WORDS, 5 - k)
        lines.append(f"a {' '.join(a)} .\tthe {' '.join(b)} ." + (f"\t{k:.1f}" if scores else ""))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    train = pairs_tsv(tmp_path / "train.tsv", 59, 1)  # 60 lines with the header
    test = pairs_tsv(tmp_path / "test.tsv", 40, 2)
    assert len(train.read_text().splitlines()) == 60
    return train, test


def expected_field(path) -> str:
    return f"file={path.name},sha256={hashlib.sha256(path.read_bytes()).hexdigest()}"


def test_train_run_and_score_a_users_files_on_the_command_line(files, tmp_path, capsys):
    train, test = files
    model = tmp_path / "m.skops"
    assert cli.main(["train", "regression", "--train", str(train), "--test", str(test), "--save", str(model),
                     "--quiet", *SMALL]) == 0
    out_dir = tmp_path / "out"
    assert cli.main(["run", "regression", "--model", str(model), "--test", str(test), "--out", str(out_dir),
                     "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["eval", "--dataset", str(test), "--run", str(out_dir), "--format", "json"]) == 0
    import json
    report = json.loads(capsys.readouterr().out)
    assert report["signature"].startswith(f"dataset:{expected_field(test)}|subsets:test=40|")
    assert report["all"] > 0.8  # the shared-word signal is learnt


def test_a_file_without_scores_runs_but_is_not_scored_or_trained_on(files, tmp_path, capsys):
    train, test = files
    bare = pairs_tsv(tmp_path / "bare.tsv", 10, 3, scores=False)
    model = tmp_path / "m.skops"
    assert cli.main(["train", "regression", "--train", str(bare), "--save", str(model), "--quiet", *SMALL]) == 1
    assert "bare.tsv has no score column: it can be run but not scored or trained on" in capsys.readouterr().err
    assert not model.exists()
    out_dir = tmp_path / "out"
    assert cli.main(["run", "token-cosine", "--test", str(bare), "--out", str(out_dir), "--quiet"]) == 0
    assert len((out_dir / "STS.output.bare.txt").read_text().splitlines()) == 10
    assert cli.main(["eval", "--dataset", str(bare), "--run", str(out_dir)]) == 1
    assert "no score column" in capsys.readouterr().err


def test_columns_name_the_fields_of_a_plain_table(tmp_path, capsys):
    path = tmp_path / "mine.csv"
    path.write_text("id,left,right,gold\n" + "".join(f"{i},a cat {i},a dog {i},{i % 5}\n" for i in range(8)))
    out_dir = tmp_path / "out"
    assert cli.main(["run", "token-cosine", "--test", str(path), "--columns", "left,right,gold",
                     "--out", str(out_dir), "--quiet"]) == 0
    assert cli.main(["eval", "--dataset", str(path), "--columns", "left,right,gold", "--run", str(out_dir)]) == 0
    assert f"signature: dataset:{expected_field(path)}|subsets:mine=8|" in capsys.readouterr().out


def test_run_regression_without_training_data_names_the_options(tmp_path, capsys):
    assert cli.main(["run", "regression", "--test", "stsb-test", "--out", str(tmp_path / "x")]) == 1
    err = capsys.readouterr().err
    assert "--train" in err and "--model" in err and "needs gold" not in err


def test_train_run_and_score_a_users_files_from_python(files, tmp_path):
    train_path, test_path = files
    train, test = corpora.resolve(train_path), corpora.resolve(test_path)
    system = baselines.make_system("regression").set_params(**SMALL_PARAMS)
    written = baselines.run_system(system, test, tmp_path / "out", [train])
    assert [p.name for p in written] == ["STS.output.test.txt"]
    from semsts.corpora import runrecord
    assert runrecord.read_record(tmp_path / "out")["system"] == "regression"  # as `sts run regression` records it
    report = evaluate.score_run(test, tmp_path / "out")
    assert str(report.signature).startswith(f"dataset:{expected_field(test_path)}|")
    assert report.signature.get("dataset") == expected_field(test_path)
    assert report["all"] > 0.8
    assert expected_field(test_path) in report.render("text")
    # The predictions the files hold are the system's, on the task range.
    scores = corpora.read_output(written[0], 40)[0]
    assert np.all((scores >= 0) & (scores <= 5))


def test_an_official_datasets_signature_is_unchanged(tmp_path):
    test = corpora.load("demo-test")
    written = baselines.run_system("token-cosine", test, tmp_path / "out")
    report = evaluate.score_run(test, tmp_path / "out")
    assert written and str(report.signature).startswith("dataset:demo-test|subsets:")
