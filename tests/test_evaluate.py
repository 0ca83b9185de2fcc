"""Tests of semsts.evaluate, the scorer: its command line, in-memory scoring and the papers figures."""
from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import write
from semsts import baselines, cli, corpora, evaluate
from semsts.baselines.run import run_system

# --- The scorer's command line on files the tests write: every form, every report format, every bad input.


GOLD = "1\n2\n\n4\n5\n"  # line 3 unscored
SYS = "1.5\n2.0\n3.0\n3.5\n5.0\n"
# Pearson of SYS against GOLD with line 3 dropped: x = [1.5, 2, 3.5, 5], y = [1, 2, 4, 5]
# means 3 and 3; sxy = 3 + 1 + .5 + 4 = 8.5; sxx = 2.25 + 1 + .25 + 4 = 7.5; syy = 10
R_BY_HAND = 8.5 / math.sqrt(75)


def run(argv, capsys):
    code = evaluate.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def pair(tmp_path):
    return write(tmp_path / "STS.gs.x.txt", GOLD), write(tmp_path / "STS.output.x.txt", SYS)


def test_gold_sys_prints_like_correlation_pl(pair, capsys):
    code, out, err = run([str(p) for p in pair], capsys)
    assert code == 0
    assert out == f"Pearson: {R_BY_HAND:.5f}\n"
    assert "unscored:dropped(1)" in err and "version:" in err


BAD_OUTPUTS = {
    "nan": ("1\n2\nnan\n4\n5\n", ":3: expected a finite score"),
    "inf": ("1\n2\n3\n-inf\n5\n", ":4: expected a finite score"),
    "not a number": ("1\n2\nthree\n4\n5\n", ":3: expected a score as a number, got 'three'"),
    "out of range": ("1\n2\n3\n4\n5.5\n", ":5: score 5.5 is outside [0, 5]"),
    "negative": ("-0.1\n2\n3\n4\n5\n", ":1: score -0.1 is outside [0, 5]"),
    "confidence > 100": ("1\t50\n2\t50\n3\t101\n4\t50\n5\t50\n", ":3: confidence 101 is outside [0, 100]"),
    "confidence nan": ("1\t50\n2\tnan\n3\t50\n4\t50\n5\t50\n", ":2: expected a finite confidence"),
    "empty line": ("1\n2\n\n4\n5\n", ":3: empty line"),
    "too few lines": ("1\n2\n3\n4\n", ":4: has 4 lines, the input has 5 pairs"),
    "too many lines": ("1\n2\n3\n4\n5\n1\n", ":6: has 6 lines, the input has 5 pairs"),
    "three fields": ("1\n2\t3\t4\n3\n4\n5\n", ":2: expected 'score' or 'score<TAB>confidence'"),
    "some confidences": ("1\t50\n2\n3\n4\n5\n", "1 of 5 lines carry a confidence"),
}


@pytest.mark.parametrize("case", BAD_OUTPUTS, ids=list(BAD_OUTPUTS))
def test_gold_sys_refuses_a_bad_output(tmp_path, capsys, case):
    text, message = BAD_OUTPUTS[case]
    gold = write(tmp_path / "gold.txt", GOLD)
    bad = write(tmp_path / "bad.txt", text)
    code, out, err = run([str(gold), str(bad)], capsys)
    assert code == 1 and out == ""
    assert f"{bad}" in err and message in err
    assert "Traceback" not in err and all(line.startswith("error: ") for line in err.splitlines())


@pytest.mark.parametrize("case", BAD_OUTPUTS, ids=list(BAD_OUTPUTS))
def test_check_reports_file_and_line(sts_root, capsys, case):
    text, message = BAD_OUTPUTS[case]
    bad = write(sts_root / "out" / "STS.output.answers-forums.txt", text)
    code, out, err = run(["--check", str(bad), "--dataset", "sts2015-test", "--subset", "answers-forums",
                          "--data-dir", str(sts_root)], capsys)
    assert code == 1 and "OK" not in out
    assert message in err and err.startswith(f"error: {bad}")
    lines = err.splitlines()  # one error, one line; more (a bad line and the count it throws off): each, then how many
    assert all(line.startswith("error: ") for line in lines)
    assert len(lines) == 1 or (len(lines) > 2 and lines[-1] == f"error: {bad}: {len(lines) - 1} errors; "
                                                               "the output file is not valid")


def test_check_reports_every_bad_line(tmp_path, capsys):
    bad = write(tmp_path / "bad.txt", "nan\n2\n9\n\n")
    code, _, err = run(["--check", str(bad)], capsys)
    assert code == 1
    assert [line.split(": ")[1] for line in err.splitlines()[:3]] == [f"{bad}:1", f"{bad}:3", f"{bad}:4"]
    assert err.splitlines()[-1] == f"error: {bad}: 3 errors; the output file is not valid"


def test_check_passes_a_good_output(sts_root, capsys):
    good = write(sts_root / "STS.output.belief.txt", "0\n5\n2.5\n")
    code, out, _ = run(["--check", str(good), "--dataset", "sts2015-test", "--subset", "belief",
                        "--data-dir", str(sts_root)], capsys)
    assert code == 0 and out == f"{good}: Output file is OK!\n"


def test_check_without_dataset_uses_the_range(tmp_path, capsys):
    out4 = write(tmp_path / "clss.tsv", "4\n0\n3.5\n")
    assert run(["--check", str(out4), "--range", "0-4"], capsys)[0] == 0
    assert run(["--check", str(write(tmp_path / "c5.tsv", "4.5\n")), "--range", "0-4"], capsys)[0] == 1
    assert run(["--check", str(write(tmp_path / "s.txt", "5\n"))], capsys)[0] == 0


def test_range_option_for_gold_sys(tmp_path, capsys):
    gold = write(tmp_path / "gold.tsv", "0\n1\n4\n")
    assert run([str(gold), str(write(tmp_path / "a.tsv", "0\n2\n4\n")), "--range", "0-4"], capsys)[0] == 0
    code, _, err = run([str(gold), str(write(tmp_path / "b.tsv", "0\n2\n4.5\n")), "--range", "0-4"], capsys)
    assert code == 1 and "4.5 is outside [0, 4]" in err
    with pytest.raises(SystemExit):
        evaluate.main([str(gold), str(gold), "--range", "five"])


def test_bad_gold_is_an_error_naming_the_line(tmp_path, capsys):
    gold = write(tmp_path / "gold.txt", "1\nNaN\n3\n")
    code, _, err = run([str(gold), str(write(tmp_path / "s.txt", "1\n2\n3\n"))], capsys)
    assert code == 1 and f"{gold}:2: expected a finite gold score" in err


def test_constant_output_has_no_pearson(pair, tmp_path, capsys):
    const = write(tmp_path / "const.txt", "2.5\n" * 5)
    code, out, _ = run([str(pair[0]), str(const)], capsys)
    assert code == 0 and out.startswith("Pearson: n/a")


@pytest.mark.parametrize("gold_text", ["\n\n\n", "\n", " \n\t\n\n"])
def test_gold_with_every_line_blank_is_one_error_not_an_undefined_pearson(tmp_path, capsys, gold_text):
    """Issue 44, kind 7: no gold score at all is nothing to correlate with, not a constant side (exit 0, n/a)."""
    gold = write(tmp_path / "gold.txt", gold_text)
    sys_file = write(tmp_path / "s.txt", "".join(f"{i}\n" for i in range(gold_text.count("\n"))))
    code, out, err = run([str(gold), str(sys_file)], capsys)
    assert code == 1 and out == ""
    assert err.splitlines() == [f"error: {gold}: has no gold score: its {gold_text.count(chr(10))} line(s) are all "
                                "blank (not scored), so there is nothing to correlate with"]


def test_a_gold_file_of_4_gib_is_one_error_line_not_read(tmp_path, capsys):
    """Issue 44, kind 6: a plain data file of 4 GiB (a hole: it takes no disk) was read whole (MemoryError)."""
    gold = tmp_path / "gold.txt"
    with open(gold, "wb") as handle:
        handle.truncate(4 << 30)
    sys_file = write(tmp_path / "s.txt", "1\n")
    code, out, err = run([str(gold), str(sys_file)], capsys)
    assert code == 1 and out == ""
    assert err.splitlines() == [f"error: {gold}: 4,294,967,296 bytes, more than a data file holds (at most "
                                "67,108,864); refused"]


# --------------------------------------------------------------------------- run directories

SUBSETS = {  # sts2015-test layout: answers-forums with an unscored pair, belief complete
    "answers-forums": (["a b\tb c", "a\ta", "x y z\tx", "p q\tq p", "m\tn"], "1\n5\n\n3\n0\n"),
    "belief": (["one two\ttwo", "three\tthree", "four\tfive"], "2\n5\n0\n"),
}


@pytest.fixture
def sts_root(tmp_path):
    root = tmp_path / "data"
    for name, (lines, gold) in SUBSETS.items():
        write(root / "sts2015" / "test" / f"STS.input.{name}.txt", "\n".join(lines) + "\n")
        write(root / "sts2015" / "test" / f"STS.gs.{name}.txt", gold)
    return root


def _run_dir(root, outputs):
    out = root / "run"
    for name, text in outputs.items():
        write(out / f"STS.output.{name}.txt", text)
    return out


GOOD_RUN = {"answers-forums": "1.2\n4.0\n2.0\n3.1\n0.5\n", "belief": "1.0\n4.5\n0.5\n"}


def test_json_report_shape_and_numbers(sts_root, capsys):
    out = _run_dir(sts_root, GOOD_RUN)
    code, text, _ = run(["--dataset", "sts2015-test", "--run", str(out), "--data-dir", str(sts_root),
                         "--format", "json"], capsys)
    assert code == 0
    report = json.loads(text)
    assert {"dataset", "subsets", "all", "allnorm", "mean", "unweighted_mean", "signature"} <= set(report)
    assert report["dataset"] == "sts2015-test"
    forums = report["subsets"]["answers-forums"]
    assert {"n", "pearson", "spearman", "ci95"} <= set(forums)
    assert forums["n"] == 4 and forums["n_unscored"] == 1 and len(forums["ci95"]) == 2
    x, y = [1.2, 4.0, 3.1, 0.5], [1, 5, 3, 0]
    assert forums["pearson"] == pytest.approx(evaluate.pearson(x, y), abs=1e-8)
    r_belief = evaluate.pearson([1.0, 4.5, 0.5], [2, 5, 0])
    assert report["mean"] == pytest.approx((4 * forums["pearson"] + 3 * r_belief) / 7, abs=1e-8)
    assert report["unweighted_mean"] == pytest.approx((forums["pearson"] + r_belief) / 2, abs=1e-8)
    assert report["all"] == pytest.approx(evaluate.pearson(x + [1.0, 4.5, 0.5], y + [2, 5, 0]), abs=1e-8)


def test_signature_names_every_choice(sts_root, capsys):
    out = _run_dir(sts_root, GOOD_RUN)
    _, text, _ = run(["--dataset", "sts2015-test", "--run", str(out), "--data-dir", str(sts_root)], capsys)
    sig = text.splitlines()[-1].removeprefix("signature: ")
    fields = dict(f.split(":", 1) for f in sig.split("|"))
    assert list(fields)[0] == "dataset" and list(fields)[-1] == "version"
    assert fields["dataset"] == "sts2015-test"
    assert fields["subsets"] == "answers-forums=4,belief=3"
    assert fields["missing"] == "answers-students,headlines,images"
    assert fields["unscored"] == "dropped(1)"
    assert fields["agg"] == "all=pooled,allnorm=lsq-per-subset,mean=size-weighted,umean=plain"
    assert (fields["corr"], fields["nan"], fields["conf"], fields["boot"]) == ("pearson", "error", "none", "none")
    assert fields["version"] == evaluate.__version__
    assert "note: sts2015-test: subset headlines skipped" in text


def test_every_format_carries_the_signature_and_is_stable(sts_root, capsys):
    out = _run_dir(sts_root, GOOD_RUN)
    base = ["--dataset", "sts2015-test", "--run", str(out), "--data-dir", str(sts_root)]
    texts = {}
    for fmt in evaluate.RENDERERS:
        texts[fmt] = run(base + ["--format", fmt], capsys)[1]
        assert run(base + ["--format", fmt], capsys)[1] == texts[fmt]
    sig = json.loads(texts["json"])["signature"]
    assert all(sig in t for t in texts.values())
    rows = list(csv.DictReader(io.StringIO(texts["csv"])))
    assert [r["row"] for r in rows] == ["answers-forums", "belief", "ALL", "ALLnorm",
                                        "Mean (size-weighted)", "Mean (unweighted)"]
    assert all(r["signature"] == sig for r in rows)
    assert "| answers-forums | 4 |" in texts["markdown"]


def test_confidences_give_weighted_pearson(sts_root, capsys):
    run_dir = _run_dir(sts_root, {"answers-forums": "1.2\t10\n4.0\t100\n2.0\t1\n3.1\t50\n0.5\t100\n",
                                  "belief": "1.0\t100\n4.5\t20\n0.5\t100\n"})
    _, text, _ = run(["--dataset", "sts2015-test", "--run", str(run_dir), "--data-dir", str(sts_root),
                      "--format", "json"], capsys)
    report = json.loads(text)
    forums = report["subsets"]["answers-forums"]
    assert forums["weighted_pearson"] == pytest.approx(
        evaluate.pearson([1.2, 4.0, 3.1, 0.5], [1, 5, 3, 0], weights=[10, 100, 50, 100]), abs=1e-8)
    assert forums["pearson"] == pytest.approx(evaluate.pearson([1.2, 4.0, 3.1, 0.5], [1, 5, 3, 0]), abs=1e-8)
    assert report["all_weighted"] is not None
    assert "conf:ignored(+weighted-pearson)" in report["signature"]


def test_constant_subset_keeps_other_aggregates(sts_root, capsys):
    run_dir = _run_dir(sts_root, {"answers-forums": GOOD_RUN["answers-forums"], "belief": "3\n3\n3\n"})
    code, text, _ = run(["--dataset", "sts2015-test", "--run", str(run_dir), "--data-dir", str(sts_root),
                         "--format", "json"], capsys)
    report = json.loads(text)
    assert code == 0
    assert report["subsets"]["belief"]["pearson"] is None and report["subsets"]["belief"]["ci95"] == [None, None]
    assert report["mean"] is None and report["unweighted_mean"] is None
    assert report["all"] is not None and report["allnorm"] is not None
    _, text, _ = run(["--dataset", "sts2015-test", "--run", str(run_dir), "--data-dir", str(sts_root)], capsys)
    assert "n/a" in text


def test_missing_output_is_an_error_naming_the_file(sts_root, capsys):
    run_dir = _run_dir(sts_root, {"answers-forums": GOOD_RUN["answers-forums"]})
    code, out, err = run(["--dataset", "sts2015-test", "--run", str(run_dir), "--data-dir", str(sts_root)], capsys)
    assert code == 1 and out == ""
    assert f"{run_dir / 'STS.output.belief.txt'}: output file is missing" in err
    assert "--check" not in err and "Traceback" not in err  # no line to check: the pointer would add nothing


def test_invalid_output_in_a_run_is_refused(sts_root, capsys):
    run_dir = _run_dir(sts_root, {"answers-forums": "1\n2\n3\n4\n", "belief": "1\nnan\n2\n"})
    code, out, err = run(["--dataset", "sts2015-test", "--run", str(run_dir), "--data-dir", str(sts_root)], capsys)
    assert code == 1 and out == ""
    assert "STS.output.answers-forums.txt:4: has 4 lines, the input has 5 pairs" in err
    assert "check a file with `python evaluate.py --check FILE --dataset sts2015-test --subset NAME`" in err
    assert "STS.output.belief.txt:2: expected a finite score" in err


def test_unknown_dataset_and_subset_are_clear_errors(sts_root, capsys):
    code, _, err = run(["--dataset", "nope", "--run", str(sts_root)], capsys)
    assert code == 1 and "'nope' is neither a known dataset nor an existing file" in err
    code, _, err = run(["--check", str(sts_root), "--dataset", "sts2015-test", "--subset", "nope",
                        "--data-dir", str(sts_root)], capsys)
    assert code == 1 and "has no subset 'nope'" in err


def test_form_mistakes_are_usage_errors(capsys):
    for argv in ([], ["only-one"], ["--dataset", "sts2012-test"], ["--check", "f", "--subset", "x"], ["--run", "d"],
                 ["--check", "f", "--run", "d"], ["g", "s", "--check", "f"], ["g", "s", "--dataset", "sts2012-test"]):
        with pytest.raises(SystemExit) as info:
            evaluate.main(argv)
        assert info.value.code == 2
    capsys.readouterr()


@pytest.mark.parametrize("extra, message", [
    (["--subset", "belief"], "--subset goes with --check SYS --dataset NAME"),
    (["--format", "json"], "--format goes with --dataset NAME --run DIR"),
])
def test_an_option_a_form_does_not_use_is_refused(sts_root, pair, capsys, extra, message):
    """--subset with --run or GOLD SYS, --format with GOLD SYS or --check: a usage error, not ignored."""
    out = _run_dir(sts_root, GOOD_RUN)
    forms = [[str(p) for p in pair]]
    forms.append(["--dataset", "sts2015-test", "--run", str(out), "--data-dir", str(sts_root)] if extra[0] == "--subset"
                 else ["--check", str(pair[1])])
    for form in forms:
        with pytest.raises(SystemExit) as info:
            evaluate.main([*form, *extra])
        assert info.value.code == 2 and message in capsys.readouterr().err, form


def test_sts_eval_dispatches_every_form(sts_root, pair, capsys):
    out = _run_dir(sts_root, GOOD_RUN)
    assert cli.main(["eval", str(pair[0]), str(pair[1])]) == 0
    assert capsys.readouterr().out == f"Pearson: {R_BY_HAND:.5f}\n"
    assert cli.main(["eval", "--dataset", "sts2015-test", "--run", str(out), "--data-dir", str(sts_root)]) == 0
    assert "signature: dataset:sts2015-test" in capsys.readouterr().out
    assert cli.main(["eval", "--check", str(out / "STS.output.belief.txt"), "--dataset", "sts2015-test",
                     "--subset", "belief", "--data-dir", str(sts_root)]) == 0


def test_subcommands_get_the_rest_of_the_line(monkeypatch):
    seen = []
    monkeypatch.setitem(evaluate.SUBCOMMANDS, "compare", lambda argv: seen.append(argv) or 0)
    assert evaluate.main(["compare", "a", "--b"]) == 0
    assert seen == [["a", "--b"]]


# --------------------------------------------------------------------------- CLSS

CLSS_INPUT = {"paragraph2sentence": "a b c\ta\tp1", "sentence2phrase": "a b\tb\ts1",
              "phrase2word": "a b\ta\tw1", "word2sense": "bank\tbank%1:14:00::\tbank#n#1\tk1"}


@pytest.fixture
def clss_root(tmp_path):
    root = tmp_path / "data"
    for level, line in CLSS_INPUT.items():
        write(root / "clss2014" / "data" / "test" / f"{level}.test.input.tsv", (line + "\n") * 4)
        write(root / "clss2014" / "keys" / "test" / f"{level}.test.gs.tsv", "0\n1\n3\n4\n")
    return root


def test_clss_official_score_is_the_sum_of_pearsons(clss_root, capsys):
    scores = {"paragraph2sentence": "0\n1\n3\n4\n", "sentence2phrase": "0.5\n1\n2\n4\n",
              "phrase2word": "4\n0\n3\n1\n", "word2sense": "1\n1.5\n2\n3.5\n"}
    out = clss_root / "run"
    for level, text in scores.items():
        write(out / f"{level}.test.output.tsv", text)
    base = ["--dataset", "clss2014-test", "--run", str(out), "--data-dir", str(clss_root)]
    report = json.loads(run(base + ["--format", "json"], capsys)[1])
    gold = [0, 1, 3, 4]
    rs = [evaluate.pearson(np.loadtxt(out / f"{lvl}.test.output.tsv"), gold) for lvl in CLSS_INPUT]
    assert report["official"] == pytest.approx(sum(rs), abs=1e-7)
    assert report["spearman_sum"] == pytest.approx(
        sum(evaluate.spearman(np.loadtxt(out / f"{lvl}.test.output.tsv"), gold) for lvl in CLSS_INPUT), abs=1e-7)
    assert "official=sum-pearson" in report["signature"]
    text = run(base, capsys)[1]
    header = text.splitlines()[2].split()
    assert header == ["Para-2-Sent", "Sent-2-Phr", "Phr-2-Word", "Word-2-Sense", "Official", "(sum)"]
    assert text.splitlines()[3].split()[-1] == f"{sum(rs):.5f}"
    assert text.splitlines()[4].startswith("Spearman")


def test_clss_range_is_zero_to_four(clss_root, capsys):
    out = clss_root / "run"
    for level in CLSS_INPUT:
        write(out / f"{level}.test.output.tsv", "0\n1\n3\n4.5\n")
    code, _, err = run(["--dataset", "clss2014-test", "--run", str(out), "--data-dir", str(clss_root)], capsys)
    assert code == 1 and "paragraph2sentence.test.output.tsv:4: score 4.5 is outside [0, 4]" in err


def test_unscored_pairs_are_shown_in_text_and_csv(sts_root, capsys):
    out = _run_dir(sts_root, GOOD_RUN)
    base = ["--dataset", "sts2015-test", "--run", str(out), "--data-dir", str(sts_root)]
    text = run(base, capsys)[1]
    assert "unscored (dropped)" in text.splitlines()[2]
    assert text.splitlines()[3].split()[:3] == ["answers-forums", "4", "1"]
    rows = list(csv.DictReader(io.StringIO(run(base + ["--format", "csv"], capsys)[1])))
    assert [r["n_unscored"] for r in rows[:3]] == ["1", "0", "1"]


# --- End to end on the official data: ``sts run`` output files, ``--check``, and the papers' figures from the scorer.
# token-cosine and random reproduce the STS 2012 and 2013 papers' baseline rows through the files they write.


TABLE1 = {"MSRpar": .4334, "MSRvid": .2996, "SMTeuroparl": .4542, "surprise.OnWN": .5864, "surprise.SMTnews": .3908}
TABLE2 = {"headlines": .5399, "OnWN": .2828, "FNWN": .2146}


@pytest.fixture(scope="module")
def tc2012(data_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("tc2012")
    assert cli.main(["run", "token-cosine", "--data-dir", str(data_dir), "--test", "sts2012-test",
                           "--out", str(out), "--quiet"]) == 0
    return out


def _report(capsys, data_dir, dataset, run_dir, fmt="json"):
    assert evaluate.main(["--dataset", dataset, "--run", str(run_dir), "--data-dir", str(data_dir),
                          "--format", fmt]) == 0
    return capsys.readouterr().out


def test_token_cosine_sts2012_through_the_files(tc2012, data_dir, capsys):
    report = json.loads(_report(capsys, data_dir, "sts2012-test", tc2012))
    for name, published in TABLE1.items():
        assert round(report["subsets"][name]["pearson"], 4) == published, name
    assert report["all"] == pytest.approx(.3110, abs=5e-4)
    assert report["allnorm"] == pytest.approx(.6732, abs=5e-4)
    assert report["mean"] == pytest.approx(.4356, abs=5e-4)
    assert report["signature"].startswith("dataset:sts2012-test|subsets:MSRpar=750,MSRvid=750,SMTeuroparl=459,")
    assert "|missing:none|" in report["signature"] and "|unscored:dropped(0)|" in report["signature"]


def test_token_cosine_sts2013_notes_the_missing_smt(data_dir, tmp_path, capsys):
    assert cli.main(["run", "token-cosine", "--data-dir", str(data_dir), "--test", "sts2013-test",
                           "--out", str(tmp_path), "--quiet"]) == 0
    capsys.readouterr()
    report = json.loads(_report(capsys, data_dir, "sts2013-test", tmp_path))
    assert list(report["subsets"]) == list(TABLE2)
    for name, published in TABLE2.items():
        assert report["subsets"][name]["pearson"] == pytest.approx(published, abs=5e-4), name
    assert "|missing:SMT(licensed)|" in report["signature"]
    assert any("SMT" in note and "LDC" in note for note in report["notes"])
    assert "note: sts2013-test: subset SMT skipped" in _report(capsys, data_dir, "sts2013-test", tmp_path, "text")


def test_run_outputs_pass_check(tc2012, data_dir, capsys):
    for sub in corpora.load("sts2012-test", data_dir):
        code = evaluate.main(["--check", str(tc2012 / sub.output_name), "--dataset", "sts2012-test",
                              "--subset", sub.name, "--data-dir", str(data_dir)])
        assert code == 0, capsys.readouterr().err
        assert capsys.readouterr().out.endswith("Output file is OK!\n")


def test_reports_do_not_depend_on_hash_order(tc2012, data_dir, capsys):
    """Another process with another string-hash seed writes the same bytes in every format (no set or
    hash order leaks into a report)."""
    here = "".join(_report(capsys, data_dir, "sts2012-test", tc2012, fmt) for fmt in evaluate.RENDERERS)
    code = ("import sys; from semsts import corpora, evaluate; r = evaluate.score_run(corpora.load('sts2012-test', sys.argv[1]), sys.argv[2]);"
            "sys.stdout.write(''.join(r.render(f) for f in evaluate.RENDERERS))")
    there = subprocess.run([sys.executable, "-c", code, str(data_dir), str(tc2012)], capture_output=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": "12345"}, cwd=Path(__file__).resolve().parents[1])
    assert there.stdout == here.encode()


def test_gold_sys_form_prints_the_published_msrpar(tc2012, data_dir, capsys):
    gold = data_dir / "sts2012" / "test" / "STS.gs.MSRpar.txt"
    assert evaluate.main([str(gold), str(tc2012 / "STS.output.MSRpar.txt")]) == 0
    assert capsys.readouterr().out == "Pearson: 0.43340\n"


def test_random_allnorm_over_ten_seeds_through_the_files(data_dir, tmp_path):
    from semsts.baselines import RandomBaseline
    ds = corpora.load("sts2012-test", data_dir)
    allnorm = []
    for seed in range(10):
        run_system(RandomBaseline(seed=seed), ds, tmp_path / str(seed))
        allnorm.append(evaluate.score_run(ds, tmp_path / str(seed))["allnorm"])
    assert np.mean(allnorm) == pytest.approx(.58914, abs=0.01)


def test_whitespace_tokens_follow_perl_split():
    from semsts.baselines.token_cosine import whitespace_tokens
    assert whitespace_tokens(" have sex with") == ["", "have", "sex", "with"]
    assert whitespace_tokens("a  b\t c  ") == ["a", "b", "c"]
    assert whitespace_tokens("") == []


def test_fisher_interval_of_the_2012_winner():
    lo, hi = evaluate.fisher_ci(.8239, 3108)
    assert (round(lo, 4), round(hi, 4)) == (.8123, .8349)


# --- In-memory scoring (issue 14): ``evaluate.score`` gives the report the files path gives, and
# refuses predictions an output file could not hold, naming the subset and the pair index.


def test_in_memory_scores_give_the_files_report(tmp_path):
    test = corpora.load("demo-test")
    baselines.run_system("token-cosine", test, tmp_path / "out")
    from_files = evaluate.score_run(test, tmp_path / "out")
    (sub,) = test.subsets
    scores, _ = corpora.read_output(tmp_path / "out" / sub.output_name, len(sub))
    for given in (test, "demo-test"):
        for predictions in (scores, {sub.name: scores}, list(scores)):
            in_memory = evaluate.score(given, predictions)
            assert isinstance(in_memory, evaluate.Report)
            assert in_memory.signature == from_files.signature
            for form in evaluate.RENDERERS:
                assert in_memory.render(form) == from_files.render(form)
    assert evaluate.render_text(in_memory) == from_files.render("text")


def test_a_users_file_is_signed_by_name_and_hash(tmp_path):
    path = tmp_path / "mine.tsv"
    path.write_text("s1\ts2\tscore\n" + "".join(f"a {i}\tb {i}\t{i % 6}\n" for i in range(12)))
    report = evaluate.score(path, np.arange(12) % 6 * 0.9)
    assert report.signature.get("dataset") == f"file=mine.tsv,sha256={corpora.resolve(path).sha256}"


@pytest.mark.parametrize("change, message", [
    (lambda s: np.r_[s[:5], np.nan, s[6:]], "subset 'sts-test', pair index 5: prediction nan is not a finite number"),
    (lambda s: np.r_[s[:2], np.inf, s[3:]], "subset 'sts-test', pair index 2: prediction inf is not a finite number"),
    (lambda s: np.r_[s[:7], 9.0, s[8:]], "subset 'sts-test', pair index 7: prediction 9 is outside the task range [0, 5]"),
    (lambda s: np.r_[s[:7], -0.5, s[8:]], "subset 'sts-test', pair index 7: prediction -0.5 is outside"),
    (lambda s: s[:-1], "subset 'sts-test': 374 predictions for 375 pairs (pair index 374 has no prediction)"),
    (lambda s: np.r_[s, 1.0], "subset 'sts-test': 376 predictions for 375 pairs"),
])
def test_bad_predictions_are_refused_like_bad_output_files(change, message):
    test = corpora.load("demo-test")
    gold = test.subsets[0].gold
    with pytest.raises(ValueError) as info:
        evaluate.score(test, change(gold.copy()))
    assert message in str(info.value)


def test_a_bad_prediction_names_the_file_and_line_of_its_pairs_row(tmp_path):
    path = tmp_path / "mine.csv"  # a header, then a record over three lines: pair index 2 starts on line 6
    path.write_text('s1,s2,score\na,b,1\n"c\nd\ne",f,2\ng,h,3\n', encoding="utf-8")
    with pytest.raises(ValueError) as info:
        evaluate.score(path, [1.0, 2.0, 9.0])
    assert str(info.value) == (f"{path}:6: subset 'mine', pair index 2: prediction 9 is outside the task range "
                               "[0, 5]")


def test_subsets_must_match_and_a_multi_subset_dataset_needs_a_dict():
    test = corpora.load("sts2012-test")
    with pytest.raises(ValueError, match="give predictions as a dict"):
        evaluate.score(test, np.zeros(10))
    with pytest.raises(ValueError, match="missing: .*MSRvid"):
        evaluate.score(test, {"MSRpar": np.zeros(len(test.subset("MSRpar")))})


def test_rendering_figures_without_a_report_says_what_is_needed():
    with pytest.raises(TypeError, match="expected a Report"):
        evaluate.render_text(evaluate.score_subsets([("a", [1.0, 2.0, 3.0], [1.0, 2.5, 2.0])]))


def test_load_model_is_public():
    assert baselines.load_model is baselines.model_file.load_model


@pytest.mark.parametrize("argv", [["--bogus"], ["--version"]])
def test_an_unknown_option_is_named_before_a_missing_form(argv, capsys):
    """An option the scorer does not know is what argparse reports, not that no form was given (issue 33's
    command tree first said "one of the arguments GOLD SYS --run --check is required" here)."""
    from semsts.evaluate import main
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"evaluate.py: error: unrecognized arguments: {argv[0]}"
