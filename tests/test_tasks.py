"""Tests of semsts.scoring.tasks: dataset kinds and tasks, the Signature and the Report."""
import json
from types import SimpleNamespace

import pytest

from semsts import corpora, evaluate
from semsts.corpora.datasets import SPECS
from semsts.scoring import STS, TASKS, Signature, task_for

# --- Dataset kinds and tasks, the Signature and the Report: every dataset kind names the task that scores it,
# scoring has no kind switch of its own, and a new task is one class.


def test_every_dataset_kind_is_scored_by_a_task():
    assert set(corpora.KINDS) == {"sts", "stsb", "stsb-v2", "sick", "clss", "typed", "biosses", "sts22", "sts22-v2",
                                  "table", "stscompanion", "sts2017", "mteb-sts17", "mteb-sts22",
                                  "mteb-sts22-v2", "mteb-stsb-multi"}
    assert {s.kind.name for s in SPECS.values()} == set(corpora.KINDS) - {"table"}  # a table is a user's file
    by_task = {name: type(task_for(SimpleNamespace(kind=kind))).__name__ for name, kind in corpora.KINDS.items()}
    assert by_task == {"sts": "STS", "stsb": "STS", "stsb-v2": "STS", "sick": "STS", "table": "STS", "clss": "CLSS",
                       "typed": "TYPED", "biosses": "STS", "sts22": "STS", "sts22-v2": "STS", "stscompanion": "STS",
                       "sts2017": "STS2017", "mteb-sts17": "STS", "mteb-sts22": "STS", "mteb-sts22-v2": "STS",
                       "mteb-stsb-multi": "STS"}
    assert set(TASKS) == {"sts", "clss", "typed", "sts2017"}  # one per way of scoring, no empty subclasses
    with pytest.raises(ValueError, match="unknown task 'nope'; known: sts, clss, sts2017, typed"):
        task_for(SimpleNamespace(kind=SimpleNamespace(scored_as="nope")))


def test_each_kind_owns_its_range_and_output_names():
    k = corpora.KINDS
    assert [k[n].score_range for n in ("sts", "stsb", "sick", "clss", "typed", "table", "biosses", "sts22", "sts22-v2")] == [
        (0.0, 5.0), (0.0, 5.0), (1.0, 5.0), (0.0, 4.0), (0.0, 5.0), (0.0, 5.0), (0.0, 4.0), (1.0, 4.0), (1.0, 4.0)]
    assert k["biosses"].output_name("biosses") == "STS.output.biosses.txt"
    assert k["clss"].output_name("word2sense", "test") == "word2sense.test.output.tsv"
    assert k["typed"].output_name("europeana", "test") == "STS.output.europeana.txt"
    assert k["sick"].output_name("SICK_test_annotated") == "STS.output.SICK_test_annotated.txt"
    assert str(k["table"]) == "table" and k["table"].no_gold.startswith("score column (none of score, ")


def test_scoring_never_switches_on_kind_names():
    """The scorer asks a dataset's kind; it does not compare kind names of its own."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    pattern = re.compile(r"""kind\s*(==|!=|in)\s*\(?["']|KINDS\[""")
    for path in sorted((root / "scoring").glob("*.py")) + [root / "baselines" / "run.py"]:
        found = [i for i, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
        assert not found, f"{path.name}:{found[0]} switches on a kind name"


def test_a_new_task_is_one_class():
    class Toy(STS):
        name = "toy"
        aggregates = "all=pooled"

    try:
        assert isinstance(task_for(SimpleNamespace(kind=SimpleNamespace(scored_as="toy"))), Toy)
        figures = {"subsets": {"a": {"n": 3, "n_unscored": 1, "weighted_pearson": None}}}
        assert "|agg:all=pooled|" in str(TASKS["toy"].signature("d", figures))
    finally:
        del TASKS["toy"]


def test_signature_fields_in_order_with_the_version_last():
    sig = Signature([("dataset", "x"), ("n", 12)])
    assert str(sig) == f"dataset:x|n:12|version:{evaluate.__version__}"
    assert sig.get("n") == "12" and sig.get("missing") is None
    assert sig == Signature([("dataset", "x"), ("n", 12)]) != Signature([("dataset", "y"), ("n", 12)])


def test_report_renders_its_task_layout():
    """A TYPED report has no subsets; every rendering and the dictionary follow the task's keys."""
    report = evaluate.Report("typed2013-test", TASKS["typed"],
                             {"n": 3, "types": dict.fromkeys(("general", "author"), 0.5), "mean": 0.5},
                             Signature([("dataset", "typed2013-test")]))
    assert list(report.as_dict()) == ["dataset", "kind", "n", "types", "mean", "notes", "signature"]
    assert report["signature"] == str(report.signature) and report.get("subsets") is None
    assert json.loads(report.render("json"))["kind"] == "typed"
    assert report.render("csv").splitlines()[0] == "dataset,type,n,pearson,signature"


def test_a_run_folder_that_is_not_there_is_one_error_not_one_per_file(tmp_path):
    ds = corpora.load("demo-test")
    (error,) = evaluate.validate_run(ds, tmp_path / "nothere")
    assert str(error) == f"{tmp_path / 'nothere'}: no such run folder"
    (tmp_path / "a-file").write_text("1\n")
    (error,) = evaluate.validate_run(ds, tmp_path / "a-file")
    assert str(error) == f"{tmp_path / 'a-file'}: is not a folder"
