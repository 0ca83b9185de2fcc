"""End to end on the official data: ``sts run`` output files, ``--check``, and the papers' figures from the scorer.

token-cosine and random reproduce the STS 2012 and 2013 papers' baseline rows through the files they write.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from semsts import corpora, evaluate
from semsts.baselines.run import run_system
from semsts.run_cli import main as baselines_main

TABLE1 = {"MSRpar": .4334, "MSRvid": .2996, "SMTeuroparl": .4542, "surprise.OnWN": .5864, "surprise.SMTnews": .3908}
TABLE2 = {"headlines": .5399, "OnWN": .2828, "FNWN": .2146}


@pytest.fixture(scope="module")
def tc2012(data_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("tc2012")
    assert baselines_main(["--data-dir", str(data_dir), "run", "token-cosine", "--test", "sts2012-test",
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
    assert baselines_main(["--data-dir", str(data_dir), "run", "token-cosine", "--test", "sts2013-test",
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
