"""A dozen TYPED pairs in the official layout go through reading, typed-tfidf, the output file, validation
and scoring (library, `sts run`, `python evaluate.py`); mixed kinds are refused."""
import numpy as np
import pytest

from semsts import cli, corpora, evaluate
from semsts.baselines import make_system, run_system
from semsts.baselines.demo_scoreboard import demo_scoreboard
from semsts.corpora import typed2013
from semsts.demo import demo_correlations
from tests.conftest import GOLD, write


def test_a_dozen_pairs_go_through_the_whole_pipeline(typed_root, tmp_path):
    ds = corpora.load("typed2013-test", typed_root)
    (sub,) = ds.subsets
    assert (len(sub), sub.n_scored, sub.gold.shape, ds.notes) == (12, 12, (12, 8), ())
    assert typed2013.parse_record(sub.pairs[0][1])["dcSubject"] == ["streets", "shops"]  # the repeated field
    assert "Malmö" in sub.pairs[3][0] and sub.pairs[4][0] == ""
    (path,) = run_system("typed-tfidf", ds, tmp_path / "run")
    assert path.name == "STS.output.europeana.txt"
    assert list(corpora.check_typed_output(path, 12)) == []
    output = corpora.read_typed_output(path, 12)
    predicted = make_system("typed-tfidf").fit(sub.pairs).predict(sub.pairs)
    assert np.allclose(output, predicted, atol=1e-6)
    assert np.all(output[4] == 0) and np.allclose(output[11][[0, 3, 5, 6, 7]], 5)  # empty record; a record with itself
    assert output[0][1] == pytest.approx(5, abs=1e-6)  # the same creator
    report = evaluate.score_run(ds, tmp_path / "run")
    for j, name in enumerate(typed2013.TYPES):
        assert report["types"][name] == pytest.approx(evaluate.pearson(output[:, j], GOLD[:, j]))
    assert report["mean"] == pytest.approx(np.mean([report["types"][t] for t in typed2013.TYPES]))
    again = run_system("typed-tfidf", ds, tmp_path / "again")
    assert again[0].read_bytes() == path.read_bytes()


def test_command_lines_write_validate_and_score_like_correlation_typed(typed_root, tmp_path, capsys):
    out = tmp_path / "run"
    assert cli.main(["run", "typed-tfidf", "--test", "typed2013-test", "--out", str(out), "--data-dir", str(typed_root),
                     "--quiet"]) == 0
    system = out / typed2013.OUTPUT_NAME
    gold = typed_root / "typed2013" / "test" / typed2013.GOLD_NAME
    capsys.readouterr()
    assert evaluate.main([str(gold), str(system)]) == 0
    lines = capsys.readouterr().out.splitlines()
    labels = ["General", "Author", "People involved", "Time", "Location", "Event", "Subject", "Description"]
    assert [line.split(":")[0] for line in lines] == [f"Pearson ({label})" for label in labels] + ["Pearson mean"]
    result = evaluate.score_typed(corpora.read_typed_output(system), GOLD)
    assert lines[-1] == f"Pearson mean: {result['mean']:.5f}"
    assert evaluate.main(["--dataset", "typed2013-test", "--run", str(out), "--data-dir", str(typed_root)]) == 0
    table = capsys.readouterr().out
    header, row = [line for line in table.splitlines() if line.startswith(("  ", "Pearson"))][:2]
    assert header.split() == "General Author People involved Time Location Event Subject Description Mean".split()
    assert row.split()[-1] == f"{result['mean']:.5f}"
    assert evaluate.main(["--check", str(system), "--dataset", "typed2013-test", "--subset", "europeana",
                          "--data-dir", str(typed_root)]) == 0
    write(system, system.read_text().splitlines()[0] + "\n")
    assert evaluate.main([str(gold), str(system)]) == 1
    assert "has 1 lines, the input has 12 pairs" in capsys.readouterr().err


def test_mixed_kinds_are_refused_clearly(typed_root, tmp_path, data_dir, capsys):
    typed_ds = corpora.load("typed2013-test", typed_root)
    with pytest.raises(ValueError, match="typed2013-test is TYPED data .* use a TYPED system such as typed-tfidf"):
        run_system("token-cosine", typed_ds, tmp_path / "x")
    assert cli.main(["run", "typed-tfidf", "--test", "sts2012-test", "--out", str(tmp_path / "y"),
                     "--data-dir", str(data_dir)]) == 1
    assert "TypedTfidf is a TYPED system" in capsys.readouterr().err
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
    (row,) = demo_scoreboard(["typed-tfidf"], scorer=demo_correlations)  # asked for by name; by default the demo leaves it out
    assert "TypedTfidf is a TYPED system: it scores pairs of Europeana records" in row.error


def test_compare_places_typed_runs_by_their_mean(typed_root, tmp_path, capsys):
    """TYPED runs are ranked by the mean of the eight types' Pearsons: among themselves, and among the
    *SEM 2013 Table 3 runs with --published (its columns are the eight types)."""
    ds = corpora.load("typed2013-test", typed_root)
    (path,) = run_system("typed-tfidf", ds, tmp_path / "tfidf")
    worse = corpora.read_typed_output(path, 12)
    worse[:, :4] = worse[::-1, :4]  # four types scrambled
    corpora.write_typed_output(tmp_path / "worse" / path.name, worse)
    runs = {"tfidf": tmp_path / "tfidf", "worse": tmp_path / "worse"}
    reports = {name: evaluate.score_run(ds, run_dir) for name, run_dir in runs.items()}
    cmp = evaluate.compare_runs(ds, runs, published=False, resamples=50)
    assert [r["name"] for r in cmp["rows"]] == ["tfidf", "worse"] and reports["tfidf"]["mean"] > reports["worse"]["mean"]
    for row in cmp["rows"]:
        assert row["scores"]["mean"] == reports[row["name"]]["mean"]
        assert row["scores"]["time"] == reports[row["name"]]["types"]["time"]
    assert [row["ranks"]["mean"] for row in cmp["rows"]] == [1, 2] and cmp["n"] == 12  # twelve record pairs
    assert cmp["primary"] == "mean" and len(cmp["significance"]) == 1

    published = evaluate.compare_runs(ds, runs, resamples=50)
    table3 = [r for r in published["rows"] if not r["ours"]]
    assert len(table3) == 15 and any("Table 3" in note for note in published["notes"])  # 14 runs and the baseline
    for row in (r for r in published["rows"] if r["ours"]):
        mean = round(reports[row["name"]]["mean"], 4)
        assert row["ranks"]["mean"] == 1 + sum(1 for r in table3 if r["ranks"]["mean"] and r["scores"]["mean"] > mean)
    capsys.readouterr()
    argv = ["compare", "--dataset", "typed2013-test", "--data-dir", str(typed_root), "--resamples", "50", "--published", "--all",
            *(a for name, d in runs.items() for a in ("--run", f"{name}={d}")), "--report", str(tmp_path / "html")]
    assert cli.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if line.startswith("Run "))  # under the title, however it wraps
    assert header.split()[:4] == ["Run", "General", "Author", "People"] and any("baseline" in line for line in lines)
    assert (tmp_path / "html" / "index.html").is_file()


def test_a_typed_systems_score_is_the_mean_of_the_types_pearsons(typed_root):
    """As the *SEM 2013 paper (and the scorer) report TYPED runs: the plain mean of eight Pearsons, not R²."""
    from scipy.stats import pearsonr
    (sub,) = corpora.load("typed2013-test", typed_root).subsets
    system = make_system("typed-tfidf").fit(sub.pairs)
    predicted = system.predict(sub.pairs)
    expected = np.mean([pearsonr(predicted[:, j], GOLD[:, j])[0] for j in range(len(typed2013.TYPES))])
    assert system.score(sub.pairs, GOLD) == pytest.approx(expected, abs=1e-12)
