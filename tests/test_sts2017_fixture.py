"""STS 2017 (what `sts data fetch all` adds) works in every command, on a fixture in its official format:
sts2017/test/STS.input.track5.en-en.txt and STS.gs.track5.en-en.txt, as 2012-2016 (issue 23, case 4)."""
import pytest

from semsts import cli, corpora


@pytest.fixture
def root(tmp_path):
    demo = corpora.load("demo-test")
    folder = tmp_path / "sts2017" / "test"
    folder.mkdir(parents=True)
    pairs, gold = demo.pairs[:250], demo.subsets[0].gold[:250]
    (folder / "STS.input.track5.en-en.txt").write_text("".join(f"{a}\t{b}\n" for a, b in pairs), encoding="utf-8")
    (folder / "STS.gs.track5.en-en.txt").write_text("".join(f"{g:g}\n" for g in gold), encoding="utf-8")
    return tmp_path


def test_sts2017_loads_runs_scores_and_benches(root, tmp_path, capsys):
    ds = corpora.load("sts2017-test", root)
    assert [s.name for s in ds] == ["track5.en-en"] and len(ds.pairs) == 250
    out = tmp_path / "out"
    assert cli.main(["run", "token-cosine", "--test", "sts2017-test", "--out", str(out), "--data-dir", str(root),
                     "--quiet"]) == 0
    assert cli.main(["eval", "--dataset", "sts2017-test", "--run", str(out), "--data-dir", str(root)]) == 0
    assert "track5.en-en" in capsys.readouterr().out
    args = ["bench", "token-cosine", "--datasets", "sts2017-test", "--data-dir", str(root), "--quiet"]
    for convention in ("official", "senteval", "simcse", "mteb"):
        args += ["--convention", convention]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "STS17" in out


def test_a_bench_refuses_an_unknown_convention_before_predicting(root, monkeypatch, capsys):
    from semsts.baselines import bench_predictions as bench
    from semsts.scoring import conventions
    monkeypatch.setattr(conventions, "OFFICIAL_TASKS", tuple(t for t in conventions.OFFICIAL_TASKS if t != "sts2017"))
    monkeypatch.setattr(bench, "predict_family", lambda *a, **k: pytest.fail("predicted before checking"))
    assert cli.main(["bench", "token-cosine", "--datasets", "sts2017-test", "--data-dir", str(root), "--quiet"]) == 1
    assert "no official convention known for 'sts2017-test'" in capsys.readouterr().err
