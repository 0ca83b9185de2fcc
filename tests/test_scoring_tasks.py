"""Task kinds, the Signature and the Report: every dataset kind has a scorer, and a new kind is one class."""
import json

import pytest

from semsts import evaluate
from semsts.corpora.datasets import SPECS
from semsts.scoring import KINDS, STS, Signature, task_for


def test_every_dataset_kind_has_a_task_kind():
    assert {s.kind for s in SPECS.values()} <= set(KINDS)
    assert [type(task_for(kind)).__name__ for kind in ("sts", "stsb", "sick", "table", "clss", "typed")] == [
        "STS", "STSB", "SICK", "Table", "CLSS", "TYPED"]
    with pytest.raises(ValueError, match="unknown task kind 'nope'; known: sts, stsb, sick, table, clss, typed"):
        task_for("nope")


def test_a_new_task_kind_is_one_class():
    class Toy(STS):
        name = "toy"
        aggregates = "all=pooled"

    try:
        assert isinstance(task_for("toy"), Toy)
        figures = {"subsets": {"a": {"n": 3, "n_unscored": 1, "weighted_pearson": None}}}
        assert "|agg:all=pooled|" in str(task_for("toy").signature("d", figures))
    finally:
        del KINDS["toy"]


def test_signature_fields_in_order_with_the_version_last():
    sig = Signature([("dataset", "x"), ("n", 12)])
    assert str(sig) == f"dataset:x|n:12|version:{evaluate.__version__}"
    assert sig.get("n") == "12" and sig.get("missing") is None
    assert sig == Signature([("dataset", "x"), ("n", 12)]) != Signature([("dataset", "y"), ("n", 12)])


def test_report_renders_its_task_layout():
    """A TYPED report has no subsets; every rendering and the dictionary follow the task's keys."""
    report = evaluate.Report("typed2013-test", task_for("typed"),
                             {"n": 3, "types": dict.fromkeys(("general", "author"), 0.5), "mean": 0.5},
                             Signature([("dataset", "typed2013-test")]))
    assert list(report.as_dict()) == ["dataset", "kind", "n", "types", "mean", "notes", "signature"]
    assert report["signature"] == str(report.signature) and report.get("subsets") is None
    assert json.loads(report.render("json"))["kind"] == "typed"
    assert report.render("csv").splitlines()[0] == "dataset,type,n,pearson,signature"
