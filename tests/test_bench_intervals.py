"""``sts bench``'s bootstrap intervals and paired tests: against a plain loop over hand-drawn resamples, seeded,
the extreme paired cases, published rows left alone, and through the command line."""
import json
import re

import numpy as np
import pytest
from scipy.stats import rankdata

from semsts import cli, corpora
from semsts.core.stats import pearson as _pearson
from semsts.scoring.aggregates import SubsetScore
from semsts.scoring.bench import BenchRow, bench_row, dataset_figures, figure_values
from semsts.scoring.bench_intervals import bootstrap_rows, closed_form
from semsts.scoring.bench_tables import CI_LABEL, published_table, render
from semsts.scoring.correlations import dense_codes, rank_rows
from semsts.scoring.significance import aggregate_ci, bootstrap_p, fisher_ci

RNG = np.random.default_rng(11)
G12A, G12B = RNG.integers(0, 6, 14).astype(float), RNG.integers(0, 6, 9).astype(float)
GSICK, GTRAIN, GTRIAL = RNG.uniform(1, 5, 10), RNG.uniform(1, 5, 7), RNG.uniform(1, 5, 5)


def _dataset(name, subsets):
    kind = corpora.KINDS["sts"]
    return corpora.Dataset(name, kind, tuple(corpora.Subset(name, s, kind, [("a", "b")] * len(g), np.asarray(g, float),
                                                            corpora.paths.Path("x"), None) for s, g in subsets.items()))


DATASETS = [_dataset("sts2012-test", {"A": G12A, "B": G12B}), _dataset("sick2014-test", {"SICK_test": GSICK})]


def _row(name, system):
    """A row over STS12 (two subsets) and SICK-R with MTEB's pool; ``system(gold)`` gives the predictions."""
    parts = {"sts2012-test": {"A": (G12A, system(G12A)), "B": (G12B, system(G12B))},
             "sick2014-test": {"SICK_test": (GSICK, system(GSICK))}}
    pools = {"sick2014-train": {"train": (GTRAIN, system(GTRAIN))}, "sick2014-trial": {"trial": (GTRIAL, system(GTRIAL))}}
    return bench_row(name, DATASETS, parts, pools=pools)


def _noisy(scale, seed):
    rng = np.random.default_rng(seed)
    return lambda g: np.round(g + scale * rng.normal(size=len(g)), 1)  # rounded: ties in the predictions too


def _by_loop(row, resamples, seed):
    """Each figure on each resample, drawn by hand (stratum by stratum, in the order the rows list their subsets:
    STS12's A and B, SICK's train and trial pool, SICK's test) and scored by the plain one-resample code."""
    f12, fsick = row.figures["sts2012-test"], row.figures["sick2014-test"]
    strata = [f12.parts["A"], f12.parts["B"], fsick.parts["SICK_test"],
              fsick.mteb_parts["sick2014-train/train"], fsick.mteb_parts["sick2014-trial/trial"]]
    rng = np.random.default_rng(seed)
    values = {}
    for _ in range(resamples):
        drawn = []
        for gold, pred in strata:
            idx = rng.integers(0, len(gold), size=len(gold))
            drawn.append((gold[idx], pred[idx]))
        a, b, test, train, trial = drawn
        again = BenchRow(row.system, {
            "sts2012-test": dataset_figures("sts2012-test", {"A": a, "B": b}),
            "sick2014-test": dataset_figures("sick2014-test", {"SICK_test": test}, mteb_parts={
                "sick2014-train/train": train, "sick2014-trial/trial": trial, "SICK_test": test})})
        for key, value in figure_values(again).items():
            values.setdefault(key, []).append(value)
    return {key: tuple(np.percentile(v, [2.5, 97.5])) for key, v in values.items()}


def _ci_lines(text):
    return sum(line.startswith(CI_LABEL) for line in text.splitlines())


def test_rank_rows_are_scipys_average_ranks_of_each_resample():
    values = np.round(RNG.normal(size=40), 1)
    codes = dense_codes(values)
    idx = RNG.integers(0, 40, size=(6, 40))
    assert np.array_equal(rank_rows(codes[idx]), np.array([rankdata(values[i]) for i in idx]))


def test_every_interval_equals_a_plain_loop_over_the_same_resamples():
    row = _row("noisy", _noisy(1.5, 1))
    (boot_row,), boot = bootstrap_rows([row], resamples=60, seed=5)
    expected = _by_loop(row, 60, 5)
    assert set(boot_row.ci) == set(expected) == set(figure_values(row))
    assert ("mteb", "sick2014-test") in expected and ("official", "sts2012-test", "ALLnorm") in expected
    closed = closed_form(row)  # the Pearson figures with a closed-form interval, as eval and compare give them
    assert ("official", "sts2012-test", "ALL") in closed and ("official", "sts2012-test", "ALLnorm") not in closed
    assert ("senteval", "sts2012-test", "pearson", "wmean") in closed and not any(k[0] in ("simcse", "mteb") for k in closed)
    for key, (lo, hi) in expected.items():
        assert boot_row.ci[key] == pytest.approx(closed.get(key, (lo, hi)), abs=1e-9), key
    figures = row.figures["sts2012-test"]
    scores = [SubsetScore(n, _pearson(p, g), len(g)) for n, (g, p) in figures.parts.items()]
    assert closed[("official", "sts2012-test", "ALL")] == fisher_ci(figures.official["ALL"], sum(s.n for s in scores))
    assert closed[("official", "sts2012-test", "Mean")] == aggregate_ci(scores, "weighted")
    assert boot.tests == () and (boot.seed, boot.resamples) == (5, 60)


def test_the_same_seed_gives_the_same_intervals_and_another_seed_others():
    rows = [_row("a", _noisy(1.0, 2)), _row("b", _noisy(2.0, 3))]
    first, boot = bootstrap_rows(rows, resamples=40, seed=0)
    again, boot_again = bootstrap_rows(rows, resamples=40, seed=0)
    assert [r.ci for r in first] == [r.ci for r in again] and boot == boot_again
    other, _ = bootstrap_rows(rows, resamples=40, seed=1)
    assert first[0].ci[("simcse", "sts2012-test")] != other[0].ci[("simcse", "sts2012-test")]
    assert bootstrap_rows(rows, resamples=0, seed=0) == (tuple(rows), None)


def test_the_resamples_give_the_same_figures_whatever_the_threads_and_chunks(monkeypatch):
    """Issue 22: chunks of resamples run in threads; the figures (and so intervals and tests) stay the same."""
    from semsts.scoring import bench_intervals
    rows = [_row("a", _noisy(1.0, 2)), _row("b", _noisy(2.0, 3))]
    one = bench_intervals.resampled_figures(rows, resamples=45, seed=3)
    monkeypatch.setattr(bench_intervals, "CHUNK_PAIRS", 1_000)  # many small chunks, several in flight
    for threads in (1, 2, 3):
        many = bench_intervals.resampled_figures(rows, resamples=45, seed=3, threads=threads)
        assert [sorted(d) for d in many] == [sorted(d) for d in one]
        assert all(np.array_equal(m[k], o[k], equal_nan=True) for m, o in zip(many, one) for k in o)


def test_paired_tests_the_gold_itself_against_a_system_and_a_system_against_itself():
    gold, noisy = _row("gold", lambda g: np.asarray(g, float)), _row("noisy", _noisy(2.0, 4))
    twin = _row("twin", _noisy(2.0, 4))
    _, boot = bootstrap_rows([gold, noisy, twin], resamples=200, seed=0)
    by = {(t["a"], t["b"], tuple(t["figure"])): t for t in boot.tests}
    for figure in [("simcse", "sts2012-test"), ("official", "sts2012-test", "ALL"), ("mteb", "sick2014-test"),
                   ("mteb", "mean"), ("senteval", "sts2012-test", "spearman", "wmean")]:
        t = by[("gold", "noisy", figure)]
        assert t["difference"] > 0 and t["ci95"][0] > 0 and t["p"] == 0.0, figure
        same = by[("noisy", "twin", figure)]
        assert same["difference"] == 0 and same["ci95"] == [0, 0] and same["p"] == 1.0
    assert len(boot.tests) == 3 * len(figure_values(gold))


def test_the_two_sided_p_doubles_the_smaller_tail():
    assert bootstrap_p([1, 2, -1, 3]) == 0.25
    assert bootstrap_p([1, 2, -1, 3], two_sided=True) == 0.5
    assert bootstrap_p([-1, -2, -3, 1], two_sided=True) == 0.5
    assert bootstrap_p([0, 0], two_sided=True) == 1.0 and bootstrap_p([1, 2, np.nan], two_sided=True) == 0.0


def test_rows_on_different_pairs_of_one_subset_are_refused():
    other = bench_row("other", DATASETS[:1], {"sts2012-test": {"A": (G12A[::-1], G12A), "B": (G12B, G12B)}})
    with pytest.raises(ValueError, match="scored pairs of sts2012-test/A differ"):
        bootstrap_rows([_row("a", _noisy(1.0, 2)), other], resamples=5)


def test_published_rows_print_no_interval_ours_one_line_each():
    figures = {d: dataset_figures(d, {"x": (np.arange(6.0), np.array([0, 2, 1, 3, 5, 4.0]))}) for d in
               ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test", "stsb-test",
                "sick2014-test")}
    rows, boot = bootstrap_rows([BenchRow("mine", figures), BenchRow("yours", figures)], resamples=30)
    _, body, _ = published_table(rows)
    ci_lines = [i for i, line in enumerate(body) if line[0] == CI_LABEL]
    assert [body[i - 1][0] for i in ci_lines] == ["mine", "yours"]
    assert all(cell.startswith("[") for cell in body[ci_lines[0]][1:])
    text = render(rows, published=True, conventions=("simcse", "mteb"), bootstrap=boot)
    lines = text.splitlines()
    under = [lines[i - 1].split()[0] for i, line in enumerate(lines) if line.startswith(CI_LABEL)]
    blocks = sum(line.startswith("model ") for line in lines)  # a wide table comes in blocks of columns
    assert blocks >= 2 and under == ["mine", "yours"] * blocks  # two rows of ours in each block of two tables
    assert "paired tests" in text and "SimCSE Avg." in text and "MTEB mean" in text


def test_sts_bench_prints_intervals_and_tests_and_keeps_its_json_figures(data_dir, capsys):
    root = ["--data-dir", str(data_dir), "--datasets", "stsb-test", "--quiet", "--convention", "simcse"]
    assert cli.main(["bench", "token-cosine", "random", *root, "--resamples", "50", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert _ci_lines(text) == 2 and "paired tests" in text and "50 resamples, seed 3" in " ".join(text.split())
    assert cli.main(["bench", "token-cosine", "random", *root, "--resamples", "50", "--seed", "3", "--format",
                     "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    figures = doc["rows"][0]["datasets"]["stsb-test"]
    assert doc["intervals"]["pearson_pooled"].startswith("Fisher z") and "bootstrap" in doc["intervals"]["other"]
    assert isinstance(figures["mteb"], float) and isinstance(figures["official"]["Pearson"], float)
    lo, hi = figures["ci"]["simcse"]
    assert lo < figures["simcse"] < hi
    assert doc["bootstrap"]["seed"] == 3 and doc["bootstrap"]["resamples"] == 50
    test = next(t for t in doc["paired_tests"] if t["figure"] == ["simcse", "stsb-test"])
    assert (test["a"], test["b"]) == ("token-cosine", "random") and test["p"] == 0.0
    assert cli.main(["bench", "token-cosine", *root, "--resamples", "0", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "ci" not in doc["rows"][0]["datasets"]["stsb-test"] and "paired_tests" not in doc
    for form in ("markdown", "csv", "latex", "html"):
        assert cli.main(["bench", "token-cosine", "random", *root, "--resamples", "20", "--format", form]) == 0
        out = capsys.readouterr().out
        assert re.search(r"95\\?% CI", out), form
        assert out.count("[") >= 3 and "0.000" in out, form  # two rows' intervals, the test's


@pytest.mark.parametrize("argv", [["--resamples", "-1"], ["--resamples", "100001"], ["--seed", "-1"]])
def test_resamples_and_seed_are_bounded_as_compare_bounds_them(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bench", "token-cosine", *argv])
    assert exit_.value.code == 2 and "error:" in capsys.readouterr().err
