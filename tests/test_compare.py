"""``compare``: our runs placed among the published tables, intervals, significance and every format."""
import csv
import io
import json
import re

import numpy as np
import pytest

from conftest import write
from semsts import cli, corpora, evaluate
from semsts.baselines.run import run_system
from semsts.corpora import leaderboards
from semsts.scoring import ranking
from semsts.scoring.compare_tables import latex_escape

BASELINE_2013 = "baseline-tokencos"


@pytest.fixture(scope="module")
def official_runs(data_dir, tmp_path_factory):
    """token-cosine outputs for the 2012 and 2013 test sets, written by the runner."""
    root = tmp_path_factory.mktemp("runs")
    for name in ("sts2012-test", "sts2013-test"):
        run_system("token-cosine", corpora.load(name, data_dir), root / name)
    return root


def test_token_cosine_takes_the_published_baseline_ranks_2012(data_dir, official_runs):
    ds = corpora.load("sts2012-test", data_dir)
    cmp = evaluate.compare_runs(ds, {"token-cosine": official_runs / "sts2012-test"}, resamples=50)
    ours = next(r for r in cmp["rows"] if r["ours"])
    assert ours["ranks"] == {"all": 87, "allnorm": 85, "mean": 70}
    baseline = next(r for r in cmp["rows"] if r["name"] == "00-baseline/task6-baseline")
    assert baseline["ranks"] == {"all": 87, "allnorm": 85, "mean": 70}
    # placed right under the row it ties with, published ranks untouched
    names = [r["name"] for r in cmp["rows"]]
    assert names.index("token-cosine") == names.index("00-baseline/task6-baseline") + 1
    assert len(cmp["rows"]) == 90 and cmp["missing"] == []
    lo, hi = ours["ci95"]
    z, half = np.arctanh(ours["scores"]["all"]), evaluate.Z95 / np.sqrt(3108 - 3)  # Fisher z on 3108 pairs
    assert (lo, hi) == pytest.approx((np.tanh(z - half), np.tanh(z + half)))
    assert (round(lo, 4), round(hi, 4)) == (.2789, .3424)


def test_missing_smt_recomputes_the_published_aggregate_2013(data_dir, official_runs):
    ds = corpora.load("sts2013-test", data_dir)
    cmp = evaluate.compare_runs(ds, {"token-cosine": official_runs / "sts2013-test"}, resamples=50)
    assert cmp["missing"] == ["SMT"] and cmp["subsets"] == ["headlines", "OnWN", "FNWN"]
    ours = next(r for r in cmp["rows"] if r["ours"])
    baseline = next(r for r in cmp["rows"] if r["name"] == BASELINE_2013)
    for sub in cmp["subsets"]:
        assert round(ours["scores"][sub], 4) == baseline["scores"][sub], sub
    # the published Mean over headlines, OnWN and FNWN, weighted 750 / 561 / 189
    assert baseline["scores"]["mean"] == pytest.approx((.5399 * 750 + .2828 * 561 + .2146 * 189) / 1500)
    assert ours["ranks"]["mean"] == baseline["ranks"]["mean"]
    board = leaderboards.for_dataset("sts2013-test")
    recomputed = ranking.competition_ranks(
        [ranking.aggregate(board, r, "mean", subsets=cmp["subsets"], sizes={"headlines": 750, "OnWN": 561, "FNWN": 189})
         for r in board.rows if "mean" in r.ranks])
    assert sorted(r["ranks"]["mean"] for r in cmp["rows"] if not r["ours"] and r["ranks"]["mean"]) == sorted(recomputed)
    text = evaluate.render_compare_text(cmp)
    assert "SMT missing: each published Mean is recomputed as the size-weighted mean" in text
    assert "SMT" not in text.split("\n")[2]  # the header row has no SMT column


def test_clss_baselines_sit_where_the_published_baselines_would_rank(data_dir, tmp_path):
    """lcs and gst take the rank the paper's LCS and GST Baseline rows would have (both unranked there)."""
    ds = corpora.load("clss2014-test", data_dir)
    runs = {name: tmp_path / name for name in ("lcs", "gst")}
    for name, out in runs.items():
        run_system(name, ds, out)
    cmp = evaluate.compare_runs(ds, runs, resamples=20)
    board = leaderboards.for_dataset("clss2014-test")
    ranked = [ranking.value(board, r, "official") for r in board.rows if "official" in r.ranks]
    for ours, published in (("lcs", "LCS Baseline"), ("gst", "GST Baseline")):
        row = next(r for r in cmp["rows"] if r["name"] == ours)
        would = ranking.placed_rank(ranking.value(board, board.row(published), "official"), ranked)
        assert row["ranks"]["official"] == would, (ours, row["scores"]["official"])
        assert next(r for r in cmp["rows"] if r["name"] == published)["ranks"]["official"] is None
    assert (ranking.placed_rank(1.363, ranked), ranking.placed_rank(1.721, ranked)) == (25, 13)


# ----------------------------------------------------------------- small fixtures

def _tiny_root(tmp_path, n=40, seed=1):
    """An sts2013-test layout with a synthetic headlines subset of ``n`` pairs."""
    rng = np.random.default_rng(seed)
    gold = np.round(rng.uniform(0, 5, n), 2)
    root = tmp_path / "data"
    write(root / "sts2013" / "test" / "STS.input.headlines.txt", "".join(f"a{i} b\tb c{i}\n" for i in range(n)))
    write(root / "sts2013" / "test" / "STS.gs.headlines.txt", "".join(f"{g}\n" for g in gold))
    return root, gold


def _write_run(path, scores):
    corpora.write_output(path / "STS.output.headlines.txt", np.clip(scores, 0, 5))
    return path


@pytest.fixture
def tiny(tmp_path):
    root, gold = _tiny_root(tmp_path)
    rng = np.random.default_rng(7)
    runs = {"good": _write_run(tmp_path / "good", gold + rng.normal(0, 0.3, len(gold))),
            "noise": _write_run(tmp_path / "noise", rng.uniform(0, 5, len(gold)))}
    return root, runs


def test_significance_between_our_runs_and_the_best_published(tiny):
    root, runs = tiny
    ds = corpora.load("sts2013-test", root)
    cmp = evaluate.compare_runs(ds, runs, resamples=200)
    pair = next(t for t in cmp["significance"] if not t["published"])
    assert (pair["a"], pair["b"]) == ("good", "noise") and pair["significant"]
    assert pair["fisher_z"]["p"] < .05 and pair["williams"]["p"] < .05 and pair["bootstrap"]["p"] < .05
    assert pair["bootstrap"]["ci95"][0] > 0
    against = [t for t in cmp["significance"] if t["published"]]
    assert {t["published"] for t in against} == {"UMBC EBIQUITY-saiyan"}  # best on headlines alone (.7838)
    assert len(against) == 2 and all(t["williams"] is None and t["bootstrap"] is None for t in against)


def test_identical_runs_are_not_significantly_different(tiny):
    root, runs = tiny
    ds = corpora.load("sts2013-test", root)
    cmp = evaluate.compare_runs(ds, {"a": runs["good"], "b": runs["good"]}, published=False, resamples=100)
    (pair,) = cmp["significance"]
    assert pair["difference"] == 0 and not pair["significant"]
    assert [r["ranks"]["mean"] for r in cmp["rows"]] == [1, 1]  # without --published: ranked among ours, ties shared


def test_published_best_is_picked_by_the_recomputed_primary(tiny):
    root, runs = tiny
    cmp = evaluate.compare_runs(corpora.load("sts2013-test", root), {"good": runs["good"]}, resamples=10)
    best = max((r for r in cmp["rows"] if not r["ours"] and r["ranks"]["mean"]), key=lambda r: r["scores"]["mean"])
    assert best["ranks"]["mean"] == 1 and best["scores"]["mean"] == best["scores"]["headlines"]
    (test,) = cmp["significance"]
    assert test["published"] == best["name"]


def _cli(argv, capsys):
    code = evaluate.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_shape(tiny, capsys):
    root, runs = tiny
    code, out, _ = _cli(["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--published",
                         "--resamples", "20", "--format", "json"] + [f"--run={k}={v}" for k, v in runs.items()], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["dataset"] == "sts2013-test" and data["primary"] == "mean"
    ours = [r for r in data["rows"] if r["ours"]]
    assert [r["name"] for r in ours] == ["good", "noise"]
    for row in data["rows"]:
        assert set(row) >= {"name", "ours", "scores", "ranks", "ci95"}
        assert set(row["ranks"]) == {"mean"}
    assert len(data["rows"]) == 93 + 2


@pytest.mark.parametrize("fmt", list(evaluate.COMPARE_RENDERERS))
def test_every_format_is_deterministic_and_marks_ours(tiny, capsys, fmt):
    root, runs = tiny
    argv = ["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--published", "--resamples", "20",
            "--format", fmt, "--run", f"good={runs['good']}", "--run", f"noise={runs['noise']}"]
    first, second = _cli(argv, capsys), _cli(argv, capsys)
    assert first[0] == 0 and first[1] == second[1]
    out = first[1]
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        assert [r["name"] for r in rows if r["ours"] == "1"] == ["good", "noise"]
        assert rows[0]["mean_rank"] == "1"
    elif fmt == "latex":
        assert r"\textbf{good}" in out and r"\toprule" in out and "UMBC EBIQUITY-ParingWords" in out
    elif fmt == "markdown":
        assert "**good** (ours)" in out and "|---|" in out
    elif fmt == "text":
        assert "good (ours)" in out and "* good" not in out and "Significance of Mean" in out


def test_published_text_shows_ours_the_top_and_the_rows_around_ours(tiny, capsys):
    """Text and Markdown keep the top three rows, ours and two rows on each side of ours, each run of rows left
    out one line saying how many and their ranks; --all, CSV and JSON hold every row."""
    root, runs = tiny
    argv = ["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--published", "--resamples", "5",
            "--run", f"good={runs['good']}", "--run", f"noise={runs['noise']}"]
    code, full, _ = _cli([*argv, "--format", "json"], capsys)
    rows = json.loads(full)["rows"]
    names = [r["name"] for r in rows]
    ours = [i for i, r in enumerate(rows) if r["ours"]]
    kept = set(range(3)) | {j for i in ours for j in range(i - 2, i + 3) if 0 <= j < len(rows)}
    assert len(rows) == 95 and len(kept) < 20
    for form, marker in (("text", "{} (ours)"), ("markdown", "**{}** (ours)")):
        code, out, _ = _cli([*argv, "--format", form], capsys)
        table = out.split("\n\n")[1].splitlines()
        gaps = [line for line in table if "left out" in line]
        assert code == 0 and all("--all shows every row" in g for g in gaps) and gaps
        assert sum(int(g.split("… ")[1].split(" ")[0]) for g in gaps) == len(rows) - len(kept)
        for i, name in enumerate(names):
            shown = any(marker.format(name) in line if rows[i]["ours"] else line.startswith((name + " ", f"| {name} "))
                        for line in table)
            assert shown == (i in kept), (form, name)
        first_gap = gaps[0]
        skipped = [r["ranks"]["mean"] for r in rows[3:min(kept - set(range(3)))] if r["ranks"]["mean"]]
        assert f"(ranks {min(skipped)}-{max(skipped)})" in first_gap
    code, everything, _ = _cli([*argv, "--all"], capsys)
    assert "left out" not in everything and all(name in everything for name in names)
    code, table, _ = _cli([*argv, "--format", "csv"], capsys)
    assert [r["name"] for r in csv.DictReader(io.StringIO(table))] == names


def test_the_text_speaks_to_a_user_and_stays_narrow(tiny, tmp_path, capsys):
    """No word of how the project keeps its tables ('seed NNN', 'the project's copy'), a user file's path said once
    in the title, and no line but a signature wider than 120 characters."""
    root, runs = tiny
    code, out, _ = _cli(["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--published",
                         "--resamples", "5", "--run", f"good={runs['good']}", "--run", f"noise={runs['noise']}"], capsys)
    prose = [line for line in out.splitlines() if "signature" not in line]
    assert code == 0 and not [line for line in prose if "seed" in line or "project's" in line]
    assert "transcribed from a plain-text copy of the paper" in " ".join(out.split())
    assert max(len(line) for line in prose) <= 120
    mine = write(tmp_path / "mine.tsv", "s1\ts2\tscore\n" + "".join(f"a{i} b{i % 3}\tb{i} a\t{i % 5}\n" for i in range(20)))
    run = tmp_path / "mine-run"
    assert cli.main(["run", "token-cosine", "--test", str(mine), "--out", str(run), "--quiet"]) == 0
    capsys.readouterr()
    code, out, _ = _cli(["compare", "--dataset", str(mine), "--run", f"m={run}"], capsys)
    assert code == 0 and out.splitlines()[0] == str(mine)


def test_a_constant_run_on_a_users_file_is_undefined_not_a_traceback(tmp_path, capsys):
    """Every prediction the same: each figure undefined (n/a), no interval; it used to end in a KeyError."""
    mine = write(tmp_path / "mine.tsv", "s1\ts2\tscore\n" + "".join(f"a{i}\tb{i}\t{i % 5}\n" for i in range(20)))
    corpora.write_output(tmp_path / "run" / corpora.resolve(str(mine)).subsets[0].output_name, np.full(20, 2.5))
    code, out, err = _cli(["compare", "--dataset", str(mine), "--run", f"c={tmp_path / 'run'}"], capsys)
    assert code == 0 and "Traceback" not in err
    row = next(line for line in out.splitlines() if line.startswith("c (ours)"))
    assert row.split()[2:] == ["n/a"] * 4


@pytest.mark.parametrize("fmt", list(evaluate.COMPARE_RENDERERS))
def test_a_constant_run_is_n_a_in_every_format(tiny, tmp_path, capsys, fmt):
    """Issue 44, kind 3: an undefined figure is ``n/a`` in every form (the CSV wrote ``nan``), JSON ``null``."""
    root, runs = tiny
    const = _write_run(tmp_path / "const", np.full(40, 2.5))
    code, out, _ = _cli(["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--published",
                         "--resamples", "20", "--format", fmt, "--run", f"good={runs['good']}",
                         "--run", f"const={const}"], capsys)
    assert code == 0 and not re.search(r"\bnan\b", out.replace("nan:error", ""), re.IGNORECASE)  # a signature field
    if fmt == "json":
        row = next(r for r in json.loads(out)["rows"] if r["name"] == "const")
        assert row["scores"] == {"headlines": None, "mean": None}
    elif fmt == "csv":
        row = next(r for r in csv.DictReader(io.StringIO(out)) if r["name"] == "const")
        assert (row["headlines"], row["mean"], row["mean_rank"]) == ("n/a", "n/a", "")
    else:
        assert "n/a" in out


def test_which_mean_each_figure_is_when_our_run_prints_a_published_rows_figures(data_dir, official_runs):
    """Issue 44, kind 8: token-cosine prints the 2013 baseline's three subset figures, yet its Mean is .4027 under the
    baseline's .4028: ours is the size-weighted mean of its unrounded figures, the baseline's of the paper's printed
    (rounded) ones, and the paper's own Mean is over four subsets (.3639). The notes say which is which."""
    ds = corpora.load("sts2013-test", data_dir)
    cmp = evaluate.compare_runs(ds, {"tc13": official_runs / "sts2013-test"}, resamples=10)
    ours = next(r for r in cmp["rows"] if r["ours"])
    sizes = {"headlines": 750, "OnWN": 561, "FNWN": 189}
    by_hand = sum(ours["scores"][s] * n for s, n in sizes.items()) / 1500  # unrounded figures
    printed = sum(round(ours["scores"][s], 4) * n for s, n in sizes.items()) / 1500  # the baseline's printed ones
    assert (round(by_hand, 4), round(printed, 4)) == (.4027, .4028)
    assert ours["scores"]["mean"] == pytest.approx(by_hand)
    assert next(r for r in cmp["rows"] if r["name"] == BASELINE_2013)["scores"]["mean"] == pytest.approx(printed)
    text = " ".join(evaluate.render_compare_text(cmp).split())
    assert ("tc13 (ours) prints baseline-tokencos's figures on headlines, OnWN, FNWN but Mean .4027, the Mean of its "
            "unrounded figures; baseline-tokencos's .4028 is recomputed from its printed (rounded) figures on these "
            "subsets (the paper's Mean over all its subsets: .3639)") in text
    assert ("each published Mean is recomputed as the size-weighted mean of its printed (rounded) figures on headlines, "
            "OnWN, FNWN, not the paper's Mean over all its subsets, our runs' Mean from their unrounded figures") in text


def test_without_published_rows_no_rank_column(tiny, capsys):
    root, runs = tiny
    code, out, _ = _cli(["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--resamples", "5",
                         "--run", f"good={runs['good']}", "--run", f"noise={runs['noise']}"], capsys)
    header = next(line for line in out.splitlines() if line.startswith("Run "))
    assert code == 0 and header.split()[:2] == ["Run", "Head."] and "Rank" not in header
    code, out, _ = _cli(["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--resamples", "5",
                         "--published", "--run", f"good={runs['good']}"], capsys)
    assert "Rank" in next(line for line in out.splitlines() if line.startswith("Run "))


def test_published_on_a_dataset_no_paper_ranks_says_so(tmp_path, capsys):
    ds = corpora.load("demo-test")
    run = tmp_path / "run"
    corpora.write_output(run / ds.subsets[0].output_name, np.clip(ds.gold[::-1], 0, 5))
    code = cli.main(["compare", "--dataset", "demo-test", "--run", f"mine={run}", "--published"])  # sts's notes
    out, err = capsys.readouterr()
    assert code == 0 and "mine (ours)" in out
    assert err.count("note: --published: no published table ranks demo-test; the table holds our runs alone") == 1
    assert cli.main(["compare", "--dataset", "demo-test", "--run", f"mine={run}"]) == 0
    assert "--published" not in capsys.readouterr().err


def test_sts_compare_is_evaluate_compare(tiny, capsys):
    root, runs = tiny
    argv = ["--dataset", "sts2013-test", "--data-dir", str(root), "--run", f"good={runs['good']}", "--resamples", "5"]
    assert cli.main(["compare", *argv]) == 0
    via_sts = capsys.readouterr().out
    assert evaluate.main(["compare", *argv]) == 0
    assert capsys.readouterr().out == via_sts


def test_bad_run_directory_gets_the_check_messages(tiny, tmp_path, capsys):
    root, runs = tiny
    bad = write(tmp_path / "bad" / "STS.output.headlines.txt", "1\nnan\n" + "2\n" * 37)
    code, out, err = _cli(["compare", "--dataset", "sts2013-test", "--data-dir", str(root),
                           "--run", f"bad={bad.parent}", "--run", f"none={tmp_path / 'nowhere'}"], capsys)
    assert code == 1 and out == ""
    assert f"{bad}:2: expected a finite score" in err
    assert f"{bad}:39: has 39 lines, the input has 40 pairs" in err
    assert f"{tmp_path / 'nowhere'}: no such run folder" in err and "nowhere/STS.output" not in err
    assert "Traceback" not in err and "--check FILE" in err


@pytest.mark.parametrize("argv, message", [
    (["--dataset", "sts2013-test", "--run", "noequals"], "expected NAME=DIR"),
    (["--dataset", "sts2013-test", "--run", "a=x", "--run", "a=y"], "own NAME"),
])
def test_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit):
        evaluate.main(["compare", *argv])
    assert message in capsys.readouterr().err


def test_dataset_without_a_published_table_ranks_our_runs(tmp_path):
    """The shipped demo data: no task paper, so the scorer's aggregates and ranks among our runs."""
    ds = corpora.load("demo-test")
    rng = np.random.default_rng(3)
    runs = {}
    for name, scores in (("close", ds.gold + rng.normal(0, .2, len(ds.gold))), ("far", rng.uniform(0, 5, len(ds.gold)))):
        runs[name] = tmp_path / name
        corpora.write_output(runs[name] / ds.subsets[0].output_name, np.clip(scores, 0, 5))
    cmp = evaluate.compare_runs(ds, runs, published=True, resamples=20)
    assert cmp["leaderboard"] is None and cmp["measures"] == ["all", "allnorm", "mean"]
    assert [(r["name"], r["ranks"]["all"]) for r in cmp["rows"]] == [("close", 1), ("far", 2)]


def test_aggregate_ci_by_hand():
    # one subset: Fisher's interval, tanh(atanh(r) +- 1.96 / sqrt(n - 3)), exactly as fisher_ci gives it
    lo, hi = evaluate.aggregate_ci([evaluate.SubsetScore("a", .5, 103)], "weighted")
    assert (lo, hi) == pytest.approx((np.tanh(np.arctanh(.5) - evaluate.Z95 / 10), np.tanh(np.arctanh(.5) + evaluate.Z95 / 10)))
    assert (lo, hi) == pytest.approx(evaluate.fisher_ci(.5, 103), abs=1e-12)
    # a sum of two independent Pearsons: variances add, the interval of their mean times two
    lo, hi = evaluate.aggregate_ci([evaluate.SubsetScore(s, .5, 103) for s in "ab"], "sum")
    half = evaluate.Z95 * (.75 / 10 * 2 ** .5 / 2) / .75
    assert (lo, hi) == pytest.approx((2 * np.tanh(np.arctanh(.5) - half), 2 * np.tanh(np.arctanh(.5) + half)))
    # high correlations on few pairs: the plain normal interval passed 1; this one stays inside [-1, 1]
    rs, ns = np.asarray([.99, .99, .3]), np.asarray([5, 5, 5])
    plain_half = evaluate.Z95 * np.sqrt(np.sum((1 - rs ** 2) ** 2 / (ns - 3))) / 3
    assert rs.mean() + plain_half > 1
    lo, hi = evaluate.aggregate_ci([evaluate.SubsetScore(str(i), r, n) for i, (r, n) in enumerate(zip(rs, ns))], "mean")
    assert -1 < lo < rs.mean() < hi < 1
    assert all(np.isnan(evaluate.aggregate_ci([evaluate.SubsetScore("a", float("nan"), 10)], "sum")))


def test_latex_escapes_names():
    assert latex_escape("a_b & 50% #1 †") == r"a\_b \& 50\% \#1 $\dagger$"



def test_a_strong_run_is_placed_where_its_figures_put_it(data_dir, tmp_path):
    """A run near the top (the gold plus seeded noise: ALL .765, ranks 10, 10, 7), ranked among
    all 88 published runs by its own figures, each measure checked against the table by hand."""
    ds = corpora.load("sts2012-test", data_dir)
    rng = np.random.default_rng(3)
    for sub in ds:
        noisy = np.clip(sub.gold + rng.normal(0, 1.2, len(sub)), 0, 5)
        corpora.write_output(tmp_path / "strong" / sub.output_name, noisy, score_range=sub.score_range)
    cmp = evaluate.compare_runs(ds, {"strong": tmp_path / "strong"}, resamples=50)
    ours = next(r for r in cmp["rows"] if r["ours"])
    board = leaderboards.for_dataset("sts2012-test")
    for measure in ("all", "allnorm", "mean"):
        better = [r for r in board.rows if measure in r.ranks and r.scores[measure] > round(ours["scores"][measure], 4)]
        assert ours["ranks"][measure] == (max(r.ranks[measure] for r in better) + 1 if better else 1), measure
    assert ours["ranks"] == {"all": 10, "allnorm": 10, "mean": 7}  # among the strong runs, not at an end


def test_eval_compare_and_bench_print_one_interval_for_one_figure(data_dir, tmp_path, capsys):
    """STS-B's Pearson (one subset: its Mean is that Pearson) on one run: eval, compare and bench give the same
    interval (Fisher z), and each says which method made it."""
    run = tmp_path / "run"
    assert cli.main(["run", "token-cosine", "--test", "stsb-test", "--out", str(run), "--quiet",
                     "--data-dir", str(data_dir)]) == 0
    capsys.readouterr()
    assert cli.main(["eval", "--dataset", "stsb-test", "--run", str(run), "--data-dir", str(data_dir)]) == 0
    shown = capsys.readouterr().out
    row = next(line for line in shown.splitlines() if line.startswith("sts-test "))
    r, interval = float(row.split()[2]), row.split("[")[1].rstrip("]")
    lo, hi = evaluate.fisher_ci(r, 1379)
    assert interval == f"{lo:.4f}, {hi:.4f}" and "note: 95% CI: Fisher z, tanh(atanh(r) ± 1.96 / sqrt(n - 3))" in shown
    assert cli.main(["compare", "--dataset", "stsb-test", "--run", f"t={run}", "--data-dir", str(data_dir)]) == 0
    compared = capsys.readouterr().out
    assert f"[{lo:.4f}, {hi:.4f}]".replace("0.", ".") in compared.splitlines()[3]
    assert "note: 95% CI of mean: Fisher z, tanh(atanh(r) ± 1.96 / sqrt(n - 3))" in compared
    assert cli.main(["bench", "--runs", str(run), "--convention", "official", "--format", "json", "--resamples", "20",
                     "--quiet", "--data-dir", str(data_dir)]) == 0
    doc = json.loads(capsys.readouterr().out)
    figures = doc["rows"][0]["datasets"]["stsb-test"]
    assert round(figures["official"]["Pearson"], 5) == r
    assert figures["ci"]["official"]["Pearson"] == pytest.approx(evaluate.fisher_ci(figures["official"]["Pearson"], 1379),
                                                                abs=1e-8)
    assert figures["ci"]["official"]["Pearson"] == pytest.approx([lo, hi], abs=1e-4)
