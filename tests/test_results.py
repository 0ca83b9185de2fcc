"""Every result (a Report, a Comparison, a Bench) is a typed object with the one rendering protocol: each
renders in every form of FORMATS, and each form is well-formed (JSON and CSV parse, HTML's tags balance)."""
import csv
import io
import json
from html.parser import HTMLParser

import numpy as np
import pytest

from semsts import corpora, evaluate
from semsts.baselines import make_system, run_system
from semsts.scoring import FORMATS, Bench, Comparison, Report, Result
from semsts.scoring.bench import bench_row


class _Tags(HTMLParser):
    VOID = {"meta", "br", "img"}

    def __init__(self):
        super().__init__()
        self.open = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing"


def _results(tmp_path):
    test = corpora.load("demo-test")
    (sub,) = test
    report = evaluate.score(test, np.clip(np.asarray(sub.gold) + 0.3, 0, 5))
    runs = {name: tmp_path / name for name in ("a", "b")}
    run_system(make_system("token-cosine"), test, runs["a"], [])
    run_system(make_system("random", seed=1), test, runs["b"], [])
    comparison = evaluate.compare_runs(test, runs, resamples=20)
    parts = {"stsb-test": {"sts-test": ([1, 2, 3], [1.0, 3.0, 2.0])}}
    ds = corpora.Dataset("stsb-test", corpora.KINDS["stsb"], (corpora.Subset(
        "stsb-test", "sts-test", corpora.KINDS["stsb"], [("a", "b")] * 3, np.array([1.0, 2, 3]), None, None),))
    bench = Bench((bench_row("toy", [ds], parts),))
    return {"report": report, "comparison": comparison, "bench": bench}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return _results(tmp_path_factory.mktemp("runs"))


@pytest.mark.parametrize("form", FORMATS)
@pytest.mark.parametrize("what", ["report", "comparison", "bench"])
def test_every_result_renders_in_every_form(results, what, form):
    result = results[what]
    assert isinstance(result, Result) and type(result) in (Report, Comparison, Bench)
    text = result.render(form)
    assert text.endswith("\n") and text.strip()
    if form == "json":
        assert isinstance(json.loads(text), dict)
    elif form == "csv":
        assert len(list(csv.reader(io.StringIO(text)))) >= 2
    elif form == "latex":
        assert text.count(r"\begin{tabular}") == text.count(r"\end{tabular}") >= 1
    elif form == "html":
        parser = _Tags()
        parser.feed(text)
        assert parser.open == [] and "<table>" in text


def test_an_unknown_form_is_refused_by_name(results):
    with pytest.raises(ValueError, match="unknown format 'pdf'; known: text, markdown, csv, latex, json, html"):
        results["report"].render("pdf")


def test_a_comparison_still_reads_as_its_dictionary(results):
    cmp = results["comparison"]
    assert cmp["dataset"] == "demo-test" and {r["name"] for r in cmp["rows"] if r["ours"]} == {"a", "b"}
    assert json.loads(cmp.render("json"))["dataset"] == "demo-test"
