"""``sts bench``: the figures of each convention on fixtures computed by hand, a toy encoder through the
command line, runs written by ``sts run``, the published layout, and the published token-cosine baseline."""
import json
import math
import re

import numpy as np
import pytest

from conftest import write
from semsts import cli, corpora
from semsts.scoring.bench import FAMILY, bench_row, dataset_figures, signature
from semsts.scoring.bench_tables import published_table, render

NAN = math.nan


def _pearson(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    dx, dy = x - x.mean(), y - y.mean()
    return float(dx @ dy / math.sqrt((dx @ dx) * (dy @ dy)))


def _ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    ranks = [0.0] * len(v)
    i = 0
    while i < len(v):  # average ranks of ties
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


# Two subsets; the NaN gold lines are unscored and must be dropped before anything is computed.
PARTS = {"A": ([1, 2, NAN, 3, 5], [1.0, 3.0, 4.0, 2.0, 4.0]),
         "B": ([0, 4, 2], [1.0, 2.0, 2.0])}
A_GOLD, A_SYS = [1, 2, 3, 5], [1.0, 3.0, 2.0, 4.0]
B_GOLD, B_SYS = [0, 4, 2], [1.0, 2.0, 2.0]


def test_each_convention_by_hand_unscored_lines_dropped():
    f = dataset_figures("sts2014-test", PARTS)
    ra, rb = _pearson(A_SYS, A_GOLD), _pearson(B_SYS, B_GOLD)
    sa, sb = _pearson(_ranks(A_SYS), _ranks(A_GOLD)), _pearson(_ranks(B_SYS), _ranks(B_GOLD))
    assert f.sizes == {"A": 4, "B": 3} and f.n == 7
    assert f.official == {"Mean": pytest.approx((4 * ra + 3 * rb) / 7)}
    assert f.senteval["pearson"] == {"mean": pytest.approx((ra + rb) / 2), "wmean": pytest.approx((4 * ra + 3 * rb) / 7)}
    assert f.senteval["spearman"] == {"mean": pytest.approx((sa + sb) / 2), "wmean": pytest.approx((4 * sa + 3 * sb) / 7)}
    pooled = _pearson(_ranks(A_SYS + B_SYS), _ranks(A_GOLD + B_GOLD))
    assert f.simcse == pytest.approx(100 * pooled) and f.mteb == pytest.approx(100 * pooled)


def test_sts2012_official_figures_and_sick_mteb_pool_by_hand():
    f = dataset_figures("sts2012-test", PARTS)
    assert f.official["ALL"] == pytest.approx(_pearson(A_SYS + B_SYS, A_GOLD + B_GOLD))
    assert set(f.official) == {"ALL", "ALLnorm", "Mean"}
    test = {"SICK_test": ([1, 2, 3], [1.0, 3.0, 2.0])}
    alone = dataset_figures("sick2014-test", test)
    assert alone.official == {"Pearson": pytest.approx(_pearson([1.0, 3.0, 2.0], [1, 2, 3]))}
    assert alone.mteb is None  # MTEB's SICK-R is all of SICK: not computable from the test set alone
    pool = {"train/x": ([4, 5], [5.0, 4.0]), **test}
    pooled = dataset_figures("sick2014-test", test, mteb_parts=pool)
    assert pooled.mteb == pytest.approx(100 * _pearson(_ranks([5.0, 4.0, 1.0, 3.0, 2.0]), _ranks([4, 5, 1, 2, 3])))
    assert pooled.mteb_n == 5 and pooled.simcse == alone.simcse


def _dataset(name, subsets):
    return corpora.Dataset(name, corpora.KINDS["sts"], tuple(corpora.Subset(name, s, corpora.KINDS["sts"], [("a", "b")] * len(g), np.asarray(g, float),
                                                             corpora.paths.Path("x"), None) for s, (g, _) in subsets.items()))


def test_a_row_orders_the_family_pools_sick_and_averages_the_printed_figures():
    parts = {"sick2014-test": {"SICK_test": ([1, 2, 3, 4], [1.0, 2.0, 4.0, 3.0])},
             "stsb-test": {"sts-test": ([1, 2, 3], [1.0, 3.0, 2.0])}}
    datasets = [_dataset(n, p) for n, p in parts.items()]
    row = bench_row("toy", datasets, parts, pools={"sick2014-train": {"t": ([1, 2], [2.0, 1.0])},
                                                   "sick2014-trial": {"u": ([0, 1], [0.0, 1.0])}})
    assert list(row.figures) == ["stsb-test", "sick2014-test"]
    assert row.figures["sick2014-test"].mteb_n == 8
    assert row.simcse_average is None  # five of SimCSE's seven columns are missing
    sig = str(signature("mteb", row.figures.values()))
    assert "sick-r-n:8" in sig and "data:stsb-test=3,sick2014-test=4" in sig and sig.endswith("version:1.0.0")


def test_the_published_layout_marks_rows_trained_on_sts_and_ranks_the_others():
    figures = {d: dataset_figures(d, {"x": ([1, 2, 3, 4], [1.0, 2.0, 4.0, 3.0])}) for d in FAMILY[:7]}
    from semsts.scoring.bench import BenchRow
    rows = [BenchRow("mine", figures), BenchRow("supervised", figures, trained_on_sts=True)]
    header, body, notes = published_table(rows)
    assert header[0] == "model" and header[-1] == "Avg."
    assert ["mine", *["80.00"] * 7, "80.00"] in body and ["supervised †", *["80.00"] * 7, "80.00"] in body
    sbert = next(r for r in body if r[0].startswith("SBERT-base ♣"))
    assert sbert[-1] == "74.89 *"
    assert any(n.startswith("mine: Avg. 80.00 would rank 4 of 24") for n in notes)  # 81.57, 82.52, 83.76 above
    assert not any(n.startswith("supervised:") for n in notes)
    text = render(rows, published=True, conventions=("simcse",))
    assert "† trained on STS-family gold scores: not comparable" in text


def test_a_toy_encoder_flows_through_sts_bench(toy_encoder, data_dir, capsys):
    argv = ["bench", "--encoder", "toy_encoder:encode", "--datasets", "stsb-test,sick2014-test",
            "--data-dir", str(data_dir), "--format", "json", "--quiet"]
    assert cli.main(argv) == 0
    batches = list(toy_encoder.calls)
    doc = json.loads(capsys.readouterr().out)
    (row,) = doc["rows"]
    assert row["system"] == "toy_encoder:encode" and not row["trained_on_sts"]
    assert row["datasets"]["stsb-test"]["n"] == 1379 and row["datasets"]["sick2014-test"]["mteb_n"] == 9927
    # the figures are those of the toy encoder's cosines, scored by hand
    stsb = corpora.load("stsb-test", data_dir).subsets[0]
    vectors = toy_encoder.encode([t for p in stsb.pairs for t in p])
    a, b = vectors[0::2], vectors[1::2]
    cos = np.einsum("ij,ij->i", a, b) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    written = np.array([float(f"{2.5 + 2.5 * c:.6f}") for c in cos])  # as an output file holds them
    assert row["datasets"]["stsb-test"]["official"]["Pearson"] == pytest.approx(_pearson(written, stsb.gold), abs=1e-8)
    # (a cosine computed another way may round to the other side of a sixth decimal: 1e-4 of x100)
    assert row["datasets"]["stsb-test"]["simcse"] == pytest.approx(
        100 * _pearson(_ranks(list(written)), _ranks(list(stsb.gold))), abs=1e-4)
    assert max(batches) == 512  # encoded in batches


def test_runs_written_by_sts_run_bench_like_the_system(tmp_path, data_dir, capsys):
    root = ["--data-dir", str(data_dir)]
    for name in ("stsb-test", "sts2015-test"):
        assert cli.main(["run", "token-cosine", "--test", name, "--out", str(tmp_path / name), "--quiet", *root]) == 0
    capsys.readouterr()
    assert cli.main(["bench", "--runs", str(tmp_path / "stsb-test"), str(tmp_path / "sts2015-test"),
                     "--format", "json", "--quiet", *root]) == 0
    from_runs = json.loads(capsys.readouterr().out)["rows"][0]
    assert cli.main(["bench", "token-cosine", "--datasets", "stsb-test,sts2015-test", "--format", "json", "--quiet",
                     *root]) == 0
    direct = json.loads(capsys.readouterr().out)["rows"][0]
    assert from_runs["system"] == "token-cosine" and list(from_runs["datasets"]) == ["sts2015-test", "stsb-test"]
    for name in ("stsb-test", "sts2015-test"):  # bench scores the predictions as the files hold them
        for key in ("n", "official", "senteval", "simcse", "mteb"):
            assert from_runs["datasets"][name][key] == direct["datasets"][name][key], (name, key)


def test_sts_bench_reproduces_the_published_token_cosine_baseline(data_dir, capsys):
    """STS 2012's baseline: ALL .3110, ALLnrm .6732, Mean .4356 (Agirre et al. 2012, Table 1)."""
    assert cli.main(["bench", "token-cosine", "--datasets", "sts2012-test", "--convention", "official",
                     "--format", "json", "--quiet", "--data-dir", str(data_dir)]) == 0
    official = json.loads(capsys.readouterr().out)["rows"][0]["datasets"]["sts2012-test"]["official"]
    assert [round(official[k], 4) for k in ("ALL", "ALLnorm", "Mean")] == [0.3110, 0.6732, 0.4356]


@pytest.mark.parametrize("argv, message", [
    (["bench"], "give at least one SYSTEM"),
    (["bench", "no-such-system"], "unknown system no-such-system"),
])
def test_bad_command_lines_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main([*argv, "--quiet"])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["bench", "regression"], "regression learns from scored pairs: give --train"),
    (["bench", "token-cosine", "--datasets", "sts2099-test"], "not in the bench family: sts2099-test"),
    (["bench", "--encoder", "nomodule_xyz:encode"], "cannot import module 'nomodule_xyz'"),
])
def test_bad_requests_say_what_is_expected(argv, message, data_dir, capsys):
    assert cli.main([*argv, "--quiet", "--data-dir", str(data_dir)]) == 1
    assert message in capsys.readouterr().err


def test_runs_without_a_record_are_refused(tmp_path, data_dir, capsys):
    (tmp_path / "d").mkdir()
    assert cli.main(["bench", "--runs", str(tmp_path / "d"), "--quiet", "--data-dir", str(data_dir)]) == 1
    assert "no sts-run.json; --runs takes directories written by `sts run`" in capsys.readouterr().err



def test_the_html_report_holds_the_chart_and_the_published_table(tmp_path, data_dir, capsys):
    out = tmp_path / "report"
    assert cli.main(["bench", "token-cosine", "--datasets", "stsb-test,sts2016-test", "--convention", "simcse",
                     "--report", str(out), "--quiet", "--data-dir", str(data_dir)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert (out / "bench.svg").read_text(encoding="utf-8").startswith("<!-- semsts --report -->\n<svg")  # marked
    assert (out / "bench.svg").read_text(encoding="utf-8") in page and "data:image" not in page and "<tr class=ours><td>token-cosine</td>" in page
    assert "sup-SimCSE-RoBERTa-large" in page and "74.89 *" in page
    assert "signature: <code>convention:simcse|" in page and "official:" not in page  # only what was asked
    assert "token-cosine: system token-cosine" in page  # how the row was made


def test_the_html_report_holds_every_convention_asked_for_with_its_signature(tmp_path, data_dir, capsys):
    out = tmp_path / "report"
    assert cli.main(["bench", "token-cosine", "--datasets", "stsb-test", "--convention", "official", "--convention",
                     "mteb", "--report", str(out), "--data-dir", str(data_dir)]) == 0
    printed, err = capsys.readouterr()
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.index("<h2>SimCSE/SBERT") < page.index("<h2>official:") < page.index("<h2>MTEB:")
    for convention in ("simcse", "official", "mteb"):
        assert f"signature: <code>convention:{convention}|" in page
    assert "absent: sick2014-train" not in page and f"wrote {out / 'index.html'}" in err
    assert "STS-B Pearson" in printed and "STS-B Pearson" in page  # the printed tables, in the page too


def test_a_report_without_matplotlib_is_refused_before_predicting(tmp_path, data_dir, capsys, monkeypatch):
    from semsts.baselines import bench_predictions as predictions
    from semsts.core.errors import Unavailable
    from semsts.scoring import html_report

    def absent():
        raise Unavailable("the HTML report draws its plots with matplotlib, which is not installed: x")

    def never(*args, **kwargs):
        raise AssertionError("predicted before refusing the report")

    monkeypatch.setattr(html_report, "pyplot", absent)
    monkeypatch.setattr(predictions, "predict_family", never)
    assert cli.main(["bench", "token-cosine", "--datasets", "stsb-test", "--report", str(tmp_path / "r"),
                     "--data-dir", str(data_dir)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "error: the HTML report draws its plots with matplotlib" in err
    assert not (tmp_path / "r").exists()


def test_common_task_rank_by_hand():
    from semsts.scoring.ranking import common_task_rank
    ours = {"a": 70.0, "b": 80.0, "c": None}
    others = [{"a": 72.0, "b": 79.0},  # mean 75.5 over a, b against our 75: above
              {"a": 71.0},  # a alone: 71 against our 70: above, compared on fewer
              {"b": 79.0, "c": 99.0},  # b alone (we have no c): 79 against 80: below
              {"c": 50.0}]  # nothing in common: not counted
    rank, compared = common_task_rank(ours, others, ["a", "b", "c"])
    assert rank == 3 and compared == [("a", "b"), ("a",), ("b",), ()]


def test_the_mteb_published_layout_places_a_toy_row_by_hand():
    """A toy row at 80.00 on the seven core tasks, ranked by the count of published rows whose mean over the
    tasks both have is higher, counted here from the file itself."""
    import csv

    from semsts.corpora import leaderboards as lb
    from semsts.scoring.bench import BenchRow
    from semsts.scoring.bench_tables import mteb_published_table
    figures = {d: dataset_figures(d, {"x": ([1, 2, 3, 4], [1.0, 2.0, 4.0, 3.0])}) for d in FAMILY[:7]}
    figures["sick2014-test"] = dataset_figures("sick2014-test", {"x": ([1, 2, 3, 4], [1.0, 2.0, 4.0, 3.0])},
                                               mteb_parts={"x": ([1, 2, 3, 4], [1.0, 2.0, 4.0, 3.0])})
    rows = [BenchRow("mine", figures), BenchRow("supervised", figures, trained_on_sts=True)]
    header, body, notes = mteb_published_table(rows)
    assert header[0] == "model" and header[-1] == "Mean (7)" and "STS22 en" in header
    assert ["mine", *["80.00"] * 7, "-", "-", "80.00"] in body
    lines = [line for line in (lb.FOLDER / "mteb-sts.tsv").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    table = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    core = FAMILY[:7]
    above = fewer = full = full_above = 0
    for r in table:
        have = [100 * float(r[d]) for d in core if r[d]]
        above += sum(have) / len(have) > 80
        fewer += len(have) < 7
        full += len(have) == 7
        full_above += len(have) == 7 and sum(have) / 7 > 80
    assert len(table) == 75 and fewer == 16 and 0 < above < 75
    line = next(n for n in notes if n.startswith("mine: Mean (7) 80.00 would rank "))
    assert line.startswith(f"mine: Mean (7) 80.00 would rank {full_above + 1} of {full + 1} among the published rows "
                           "that have it, as the table's rank column places it; by another rule, its mean over 7 tasks")
    assert f"each published row compared on the tasks both have, places {above + 1} of 76" in line
    assert f"among the {full} holding all 7: {full_above + 1} of {full + 1}" in line
    assert "11 lacking STS16" in line
    per_task = next(n for n in notes if n.startswith("mine per task: "))
    stsb = sum(100 * float(r["stsb-test"]) > 80 for r in table if r["stsb-test"])
    assert f"STSBenchmark {stsb + 1} of 76" in per_task
    assert not any(n.startswith("supervised") for n in notes)
    bge = next(b for b in body if b[0] == "BAAI/bge-small-en-v1.5")
    assert bge[5] == "-" and bge[-1] == "-" and bge[1] == "77.44"  # STS16 not read: no Mean (7)
    assert any(b[0] == "thenlper/gte-base ◇" for b in body) and any(b[0].endswith(" °") for b in body)
    text = render(rows, published=True, conventions=("mteb",))
    assert "would rank" in text and "◇ the authors' self-reported figures, not an MTEB run" in text


def test_the_rank_column_and_the_sentence_under_it_agree():
    """Issue 44, kind 8: the MTEB view's rank column placed a row by Mean (7) (among the rows that have it) while the
    line under it said "would rank" by the mean over the tasks each published row shares: two numbers for one place.
    Both now say the rank by Mean (7), counted here by hand from the file; the other rule is named as another."""
    import csv

    from semsts.corpora import leaderboards as lb
    from semsts.scoring.bench import BenchRow
    from semsts.scoring.bench_tables import mteb_published_view
    pred = [1.0, 2.0, 4.0, 3.0]  # Spearman .8 against 1..4: 80.00 on every task
    figures = {d: dataset_figures(d, {"x": ([1, 2, 3, 4], pred)}) for d in FAMILY[:6]}
    figures["sick2014-test"] = dataset_figures("sick2014-test", {"x": ([1, 2, 3, 4], pred)},
                                               mteb_parts={"x": ([1, 2, 3, 4], pred)})
    rows = [BenchRow("mine", figures)]
    lines = [line for line in (lb.FOLDER / "mteb-sts.tsv").read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    table = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    means = [sum(100 * float(r[d]) for d in FAMILY[:7]) / 7 for r in table if all(r[d] for d in FAMILY[:7])]
    by_hand = 1 + sum(round(m, 2) > 80 for m in means)
    header, body, _, _ = mteb_published_view(rows)
    shown = next(line[0] for line in body if line[1] == "mine")
    notes = published_notes(rows)
    said = next(n for n in notes if n.startswith("mine: "))
    assert shown == str(by_hand) and said.startswith(f"mine: Mean (7) 80.00 would rank {by_hand} of {len(means) + 1} ")
    assert said.count("would rank") == 1  # the other rule "places", and says it is another
    # a row without Mean (7) is ranked nowhere in the table, and the sentence says so
    del figures["sts2016-test"]
    header, body, _, _ = mteb_published_view(rows)
    assert next(line[0] for line in body if line[1] == "mine") == "-"
    said = next(n for n in published_notes(rows) if n.startswith("mine: "))
    assert said.startswith("mine: no Mean (7) (no figure for STS16), so the table ranks it nowhere; by another rule")


@pytest.mark.parametrize("published", [False, True])
@pytest.mark.parametrize("form", ["text", "markdown", "csv", "latex", "json", "html"])
def test_a_constant_system_prints_every_undefined_figure_as_n_a_in_every_table_and_form(form, published):
    """Issue 44, kind 3: one score for every pair made the SimCSE and MTEB tables print ``nan`` where the official and
    SentEval ones print ``n/a`` (docs/scorer.md): every table of every form says ``n/a`` (JSON ``null``); a ranked
    published view does not rank the row, and no note ranks it."""
    from semsts.scoring.bench import BenchRow
    from semsts.scoring.bench_tables import Bench
    gold, const = [1, 2, 3, 4, 5], [3.0] * 5
    figures = {d: dataset_figures(d, {"x": (gold, const)}) for d in FAMILY[:6]}
    figures["sick2014-test"] = dataset_figures("sick2014-test", {"x": (gold, const)}, mteb_parts={"x": (gold, const)})
    bench = Bench((BenchRow("const", figures),), published=published, every_row=form != "text")
    out = bench.render(form)
    assert not re.search(r"\bnan\b", out, re.IGNORECASE), out
    if form == "json":
        doc = json.loads(out)["rows"][0]
        assert doc["simcse_avg"] is None and doc["mteb_mean"] is None
        assert all(f["simcse"] is None and f["mteb"] is None for f in doc["datasets"].values())
    else:
        assert "n/a" in out
    if published and form == "text":
        line = next(line for line in out.splitlines() if line.split()[1:2] == ["const"])
        assert line.split()[0] == "-" and set(line.split()[2:]) == {"n/a"}  # not ranked: no Avg. to rank it by
        assert "const: " not in out and "const would rank" not in out


def test_a_constant_pair_scorer_note_says_what_happened(data_dir, tmp_path, monkeypatch, capsys):
    """Issue 44, kind 3: every score 3 said "mapped from [2, 4]"; it says there was nothing to map."""
    write(tmp_path / "const44.py", "def three(pairs):\n    return [3.0 for _ in pairs]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cli.main(["bench", "--scorer", "const44:three", "--datasets", "stsb-test", "--no-cache", "--quiet",
                     "--resamples", "0", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert "mapped from" not in out and "nan" not in out.split()
    assert ("const44:three: a pair scorer: every score was 3: nothing to map, each pair put at the middle of the "
            "tasks' range, so each correlation is undefined (n/a)") in " ".join(out.split())


def published_notes(rows):
    from semsts.scoring.bench_tables import mteb_published_table
    return mteb_published_table(rows)[2]


def test_the_mteb_eng_v2_suite_benches_its_sts_tasks_and_names_the_missing(data_dir, capsys):
    """MTEB(eng, v2)'s STS tasks (mteb's benchmark definition): STS12-15, STS17, STSBenchmark, SICK-R, BIOSSES and
    STS22.v2 en; the absent ones are said, not dropped."""
    from semsts.scoring.bench import SUITES
    assert "sts2016-test" not in SUITES["mteb-eng-v2"] and "stsb-test" in SUITES["mteb-eng-v2"]
    assert {"biosses-test", "sts2022-v2-test"} <= set(SUITES["mteb-eng-v2"]) and "sts2022-test" not in SUITES["mteb-eng-v2"]
    assert cli.main(["bench", "token-cosine", "--suite", "mteb-eng-v2", "--convention", "mteb", "--format", "json",
                     "--quiet", "--data-dir", str(data_dir)]) == 0
    doc = json.loads(capsys.readouterr().out)
    present = [d for d in SUITES["mteb-eng-v2"] if (data_dir / corpora.datasets.spec(d).folder).is_dir()]
    assert list(doc["rows"][0]["datasets"]) == present
    absent = {a["dataset"] for a in doc["absent"]}
    assert absent == set(SUITES["mteb-eng-v2"]) - set(present)


def test_stsb_v2_works_in_every_command(data_dir, tmp_path, capsys):
    root = ["--data-dir", str(data_dir)]
    assert cli.main(["data", "list", *root]) == 0
    assert "stsb-v2-test     present    1362 pairs" in capsys.readouterr().out
    out = tmp_path / "v2"
    assert cli.main(["run", "token-cosine", "--test", "stsb-v2-test", "--out", str(out), "--quiet", *root]) == 0
    assert len((out / "STS.output.sts-test.v2.txt").read_text().splitlines()) == 1362
    assert cli.main(["eval", "--dataset", "stsb-v2-test", "--run", str(out), *root]) == 0
    assert "sts-test.v2=1362" in capsys.readouterr().out
    assert cli.main(["bench", "token-cosine", "--datasets", "stsb-v2-test", "--format", "json", "--quiet", *root]) == 0
    figures = json.loads(capsys.readouterr().out)["rows"][0]["datasets"]["stsb-v2-test"]
    sub = corpora.load("stsb-v2-test", data_dir).subsets[0]
    from semsts.scoring.runs import run_predictions
    written = run_predictions(corpora.load("stsb-v2-test", data_dir), out)["sts-test.v2"]
    assert figures["n"] == 1362 and figures["mteb"] == pytest.approx(
        100 * _pearson(_ranks(list(written)), _ranks(list(sub.gold))), abs=1e-6)  # json keeps 7 decimals


# --- Issue 22: a saved model predicts every subset it scores in one call, with the figures of one call per subset.


def test_a_saved_model_predicts_its_subsets_at_once_as_one_by_one():
    from pathlib import Path

    from semsts.baselines.bench_predictions import predict_family, predict_scored
    from semsts.baselines.model_file import load_model
    models, _ = load_model(Path(__file__).resolve().parents[1] / "models" / "sts2012.skops")
    dataset = corpora.load("sts2012-test")
    assert len({models.model_name(sub.name) for sub in dataset}) >= 3  # MSRpar, MSRvid, SMTeuroparl, all
    batched, _ = predict_family(models, [dataset])
    for sub in dataset:
        gold, scores = predict_scored(models.for_subset(sub.name), [sub])[id(sub)]
        assert np.array_equal(batched[dataset.name][sub.name][0], gold)
        assert np.array_equal(batched[dataset.name][sub.name][1], scores), sub.name


def test_a_bad_pair_in_a_batch_is_named_at_its_subsets_file_line(tmp_path):
    from semsts.baselines.base import PairError
    from semsts.baselines.bench_predictions import predict_family
    from semsts.baselines.subset_models import SubsetModels

    class Refuses:
        score_range = (0.0, 5.0)

        def predict(self, pairs):
            for i, (a, _) in enumerate(pairs):
                if a == "bad":
                    raise PairError(i, "cannot be scored")
            return np.full(len(pairs), 2.5)

    root = tmp_path / "data"
    write(root / "sts2015/test/STS.input.answers-forums.txt", "fine\tx\nsecond\ty\nthird\tz\n")
    write(root / "sts2015/test/STS.gs.answers-forums.txt", "1\n2\n3\n")
    write(root / "sts2015/test/STS.input.belief.txt", "fine\tx\nsecond\ty\nbad\tz\n")  # after an unscored line
    write(root / "sts2015/test/STS.gs.belief.txt", "1\n\n3\n")
    dataset = corpora.load("sts2015-test", root)
    assert [sub.name for sub in dataset] == ["answers-forums", "belief"]
    with pytest.raises(corpora.FormatError) as caught:
        predict_family(SubsetModels({"all": Refuses()}), [dataset])
    assert str(caught.value) == f"{root}/sts2015/test/STS.input.belief.txt:3: cannot be scored"


def test_a_model_predicts_the_subsets_it_scores_in_one_call(tmp_path):
    from semsts.baselines.bench_predictions import predict_family, predict_scored
    from semsts.baselines.subset_models import SubsetModels

    class Counts:
        score_range = (0.0, 5.0)
        seen: list = []

        def predict(self, pairs):
            self.seen.append(len(pairs))
            return np.asarray([len(a) % 5 + len(b) % 3 / 10 for a, b in pairs], dtype=float)

    root = tmp_path / "data"
    write(root / "sts2015/test/STS.input.answers-forums.txt", "a\tbb\nccc\td\neeee\tff\n")
    write(root / "sts2015/test/STS.gs.answers-forums.txt", "1\n2\n3\n")
    write(root / "sts2015/test/STS.input.belief.txt", "eeee\tff\nxy\tz\na\tbb\n")  # two pairs of the other subset
    write(root / "sts2015/test/STS.gs.belief.txt", "1\n2\n3\n")
    dataset = corpora.load("sts2015-test", root)
    model = Counts()
    batched, _ = predict_family(SubsetModels({"all": model}), [dataset])
    assert model.seen == [6]  # six scored pairs, one call
    for sub in dataset:
        assert np.array_equal(batched[dataset.name][sub.name][1], predict_scored(model, [sub])[id(sub)][1]), sub.name


def test_a_model_predicts_the_subsets_of_every_dataset_and_pool_in_one_call(tmp_path):
    """Issue 46: `sts bench` of a saved model is one call a model over all its datasets (20,000 pairs that keep every
    worker busy), with the figures of a call per dataset."""
    from semsts.baselines.bench_predictions import predict_family, predict_scored
    from semsts.baselines.subset_models import SubsetModels

    class Counts:
        score_range = (0.0, 5.0)

        def __init__(self):
            self.seen = []

        def predict(self, pairs):
            self.seen.append(len(pairs))
            return np.asarray([len(a) % 5 + len(b) % 3 / 10 for a, b in pairs], dtype=float)

    root = tmp_path / "data"
    write(root / "sts2015/test/STS.input.belief.txt", "eeee\tff\nxy\tz\na\tbb\n")
    write(root / "sts2015/test/STS.gs.belief.txt", "1\n\n3\n")  # one pair unscored: not predicted
    write(root / "sts2016/test/STS.input.question-question.txt", "q\tqq\nrrr\ts\n")
    write(root / "sts2016/test/STS.gs.question-question.txt", "4\n5\n")
    write(root / "sts2014/test/STS.input.images.txt", "i\tjj\n")
    write(root / "sts2014/test/STS.gs.images.txt", "0\n")
    datasets = [corpora.load(name, root) for name in ("sts2015-test", "sts2016-test")]
    pool = corpora.load("sts2014-test", root)
    model = Counts()
    parts, pool_parts = predict_family(SubsetModels({"all": model}), datasets, pools=[pool])
    assert model.seen == [5]  # 2 + 2 + 1 scored pairs, one call
    for dataset in (*datasets, pool):
        for sub in dataset:
            got = (pool_parts if dataset is pool else parts)[dataset.name][sub.name]
            alone = predict_scored(Counts(), [sub])[id(sub)]
            assert np.array_equal(got[0], alone[0]) and np.array_equal(got[1], alone[1]), sub.name


def test_published_text_keeps_the_top_rows_and_those_around_ours(data_dir, capsys):
    """--published: text shows SimCSE's rows ranked by Avg., the top three, ours at its rank and two rows on each side
    of it, one line for each run of rows left out; --all the paper's layout; JSON every figure either way. No line
    but a signature is wider than 120 characters."""
    from semsts.corpora.published_encoders import contenders
    argv = ["bench", "token-cosine", "--convention", "simcse", "--published", "--resamples", "20", "--quiet",
            "--data-dir", str(data_dir)]
    assert cli.main(argv) == 0
    text = capsys.readouterr().out
    assert all(len(line) <= 120 for line in text.splitlines() if not line.startswith("signature: "))
    published = sorted(contenders(), key=lambda c: -c.average)
    lines = text.splitlines()
    last_block = max(i for i, line in enumerate(lines) if line.startswith("rank ") and line.endswith("Avg."))
    mine = next(line for line in lines[last_block:] if line.split()[1:2] == ["token-cosine"])
    rank, avg = int(mine.split()[0]), float(mine.split()[-1])
    assert rank == 1 + sum(c.average > avg for c in published) and 10 < rank
    shown = [c.name for c in published if any(line.split()[1:2] and " ".join(line.split()[1:]).startswith(c.name + " ")
                                              for line in text.splitlines())]
    assert shown[:3] == [c.name for c in published[:3]]
    assert [c.name for c in published[rank - 3:rank - 1]] == shown[-2:] and len(shown) == 5
    gaps = [line for line in text.splitlines() if "left out" in line]
    assert gaps and all(line.startswith("… ") and line.endswith("--all shows every row") for line in gaps)
    assert sum(int(g.split()[1]) for g in gaps) == 2 * (len(published) - 5)  # the table comes in two blocks
    assert cli.main([*argv, "--all"]) == 0
    everything = capsys.readouterr().out
    assert "left out" not in everything and all(c.name in everything for c in published)
    assert "(unsupervised, as published)" in everything and "(unsupervised, as published)" not in text


def test_published_text_puts_a_row_without_the_ranking_figure_last_and_alone(data_dir, capsys):
    """A row of ours with no Avg. (STS-B alone) is not ranked: it comes after every published row, not beside the
    lowest ones as if it ranked below them."""
    from semsts.corpora.published_encoders import contenders
    assert cli.main(["bench", "token-cosine", "--datasets", "stsb-test", "--convention", "simcse", "--published",
                     "--resamples", "0", "--quiet", "--data-dir", str(data_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    body = lines[lines.index(next(line for line in lines if line.startswith("rank "))) + 1:]
    body = body[:body.index("")]
    published = sorted(contenders(), key=lambda c: -c.average)
    assert [line.split()[0] for line in body] == ["1", "2", "3", "…", "-"]
    assert body[3] == f"… {len(published) - 3} published rows left out (ranks 4-{len(published)}); --all shows every row"
    assert body[4].split()[1:] == ["token-cosine", *["-"] * 5, body[4].split()[7], "-", "-"]


def test_no_sts_trained_leaves_the_published_rows_trained_on_sts_data_out_of_mteb_s_table(data_dir, capsys):
    """Issue 47: MTEB's published rows marked † (trained on STS data, by mteb's model metadata) are in the table by
    default, its notes say so; --no-sts-trained leaves exactly them out of the table and of our row's rank."""
    from semsts.corpora.published_encoders import mteb_contenders
    argv = ["bench", "token-cosine", "--datasets", "stsb-test", "--convention", "mteb", "--published", "--all",
            "--resamples", "0", "--quiet", "--data-dir", str(data_dir)]
    assert cli.main(argv) == 0
    every = capsys.readouterr().out
    assert cli.main([*argv, "--no-sts-trained"]) == 0
    kept = capsys.readouterr().out
    trained = [c.name for c in mteb_contenders() if c.trained_on_sts]
    assert trained and all(f"{name} " in every and name not in kept for name in trained)
    assert all(c.name in kept for c in mteb_contenders(sts_trained=False))
    every, kept = " ".join(every.split()), " ".join(kept.split())  # the notes are wrapped to the terminal's width
    assert "--no-sts-trained ranks without them" in every and "those rows are left out here" in kept
    assert "◈ an MTEB run with the tasks its folder lacks taken from the authors' own files" in every


def test_no_dataset_under_the_data_root_is_one_short_line(tmp_path, capsys, monkeypatch):
    """Every bench dataset absent: one line naming the root, the missing datasets once each, and the advice once."""
    from semsts.scoring.bench import SUITES
    monkeypatch.delenv("STS_DATA", raising=False)
    assert cli.main(["bench", "token-cosine", "--quiet", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    (line,) = err.splitlines()
    assert line.startswith(f"error: none of the bench datasets is under the data root {tmp_path}: missing ")
    assert all(line.count(name) == 1 for name in SUITES["classic"] if name != "sts2017-test")
    assert line.count("sts data fetch") == 1 and line.count("STS_DATA") == 1 and len(line) < 350


def test_a_dataset_named_with_datasets_is_never_silently_absent(data_dir, tmp_path, capsys):
    """STS 2017 is left out silently from the default bench when absent, but not when the user names it."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "sts2012").symlink_to(data_dir / "sts2012", target_is_directory=True)
    assert cli.main(["bench", "token-cosine", "--quiet", "--data-dir", str(root), "--datasets", "sts2017-test"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: none of the bench datasets is under the data root {root}: missing sts2017-test; ")
    assert cli.main(["bench", "token-cosine", "--quiet", "--data-dir", str(root), "--resamples", "0",
                     "--datasets", "sts2012-test,sts2017-test", "--convention", "simcse"]) == 0
    assert "sts2017-test" in capsys.readouterr().out  # listed among the absent, with how to get it
