"""The transcribed result tables: each paper's ranks and means follow from its own figures.

A row whose paper rank or mean does not follow carries a flag in its notes (rank-tie,
rank-mismatch, mean-mismatch); the checks below require flagged rows to really differ.
"""
import re

import pytest

from conftest import write
from semsts import corpora
from semsts.corpora import leaderboards as lb
from semsts.scoring import ranking

NAMES = ["clss2014-table5", "mteb-sts", "simcse2021-table5", "sts2012-table1", "sts2012-table2-weighted", "sts2013-table2", "sts2013-table3-typed"]
RANKED = [name for name in NAMES if name not in ("sts2012-table2-weighted", "simcse2021-table5", "mteb-sts")]  # papers that rank no figure
ROUNDING = {"sts2012-table1": 4, "sts2013-table2": 4, "sts2013-table3-typed": 4, "clss2014-table5": 3}


def _ranked(board, measure):
    rows = [r for r in board.rows if measure in r.ranks]
    return rows, [ranking.value(board, r, measure) for r in rows]


def test_every_table_is_shipped_with_its_source():
    assert lb.leaderboard_names() == NAMES
    assert "embeddings-benchmark/results" in lb.load_leaderboard("mteb-sts").source
    expected = {"sts2012-table1": "Table 1", "sts2012-table2-weighted": "Table 2", "sts2013-table2": "Table 2",
                "sts2013-table3-typed": "Table 3", "clss2014-table5": "Table 5",
                "simcse2021-table5": "Table 5"}
    for name, table in expected.items():
        board = lb.load_leaderboard(name)
        assert table in board.source and "(20" in board.source, board.source


def test_row_counts_match_the_papers():
    counts = {name: {} for name in NAMES}
    for name in NAMES:
        for row in lb.load_leaderboard(name).rows:
            counts[name][row.role] = counts[name].get(row.role, 0) + 1
    assert counts["sts2012-table1"] == {"baseline": 1, "run": 88}  # "35 teams ... 88 system runs"
    assert counts["sts2012-table2-weighted"] == {"run": 10}
    assert counts["sts2013-table2"] == {"baseline": 1, "reference": 3, "run": 89}  # "submitting 89 system runs"
    assert counts["sts2013-table3-typed"] == {"baseline": 1, "run": 14}  # "submitting 14 system runs"
    assert counts["clss2014-table5"] == {"baseline": 2, "late": 4, "run": 38}  # "38 systems"
    assert counts["simcse2021-table5"] == {"run": 23}


@pytest.mark.parametrize("name", RANKED)
def test_ranks_follow_from_the_figures(name):
    board = lb.load_leaderboard(name)
    checked = 0
    for measure in board.measures:
        rows, values = _ranked(board, measure)
        if board.measures[measure] == "given":
            assert all(v is None for v in values)  # CLSS prints Spearman ranks but no Spearman figures
            assert sorted(r.ranks[measure] for r in rows) == list(range(1, len(rows) + 1))
            continue
        ranks = ranking.competition_ranks(values)
        assert max(r.ranks[measure] for r in rows) == len(rows)
        for row, value, rank in zip(rows, values, ranks):
            paper = row.ranks[measure]
            if row.flagged(f"rank-tie:{measure}"):
                ties = sum(1 for v in values if round(v, 9) == round(value, 9))
                assert ties > 1 and rank < paper <= rank + ties - 1, (row.name, rank, paper)
            elif row.flagged(f"rank-mismatch:{measure}"):
                assert rank != paper, f"{row.name}: flagged but its rank {rank} follows"
                above = next(v for r, v in zip(rows, values) if r.ranks[measure] == rank)
                assert abs(above - value) <= 4 * 0.5 * 10 ** -ROUNDING[name] + 1e-9
            else:
                assert rank == paper, f"{name} {measure}: {row.name} recomputes to rank {rank}, paper {paper}"
            checked += 1
    assert checked >= len(board.rows) - 6


def test_sts2012_weighted_table_repeats_table1():
    """Table 2's ALL and plain subset figures are Table 1's for the same runs: a transcription cross-check."""
    table1, table2 = lb.load_leaderboard("sts2012-table1"), lb.load_leaderboard("sts2012-table2-weighted")
    assert table2.subsets == tuple(n + w for n in table1.subsets for w in ("", ".w"))
    for row in table2.rows:
        same = table1.row(row.name)
        for column in ("all", *table1.subsets):
            assert row.scores[column] == same.scores[column], (row.name, column)
        assert row.ranks == {}


def test_sts2012_mean_follows_from_the_five_subsets():
    board = lb.load_leaderboard("sts2012-table1")
    assert board.subsets == ("MSRpar", "MSRvid", "SMTeuroparl", "surprise.OnWN", "surprise.SMTnews")
    for row in board.rows:
        assert row.scores["mean"] == pytest.approx(ranking.aggregate(board, row, "mean"), abs=1e-4 + 1e-9), row.name


@pytest.mark.parametrize("name", ["sts2013-table2", "sts2013-table3-typed"])
def test_sts2013_means_follow_from_the_subsets(name):
    board = lb.load_leaderboard(name)
    for row in board.rows:
        recomputed = ranking.aggregate(board, row, "mean")
        if row.flagged("mean-mismatch:mean"):
            assert abs(recomputed - row.scores["mean"]) > 1e-3, row.name
        else:
            assert row.scores["mean"] == pytest.approx(recomputed, abs=1e-4 + 1e-9), row.name


def test_unranked_rows_sit_where_they_would_rank():
    """CLSS positions late runs and baselines in the table; the 2013 text places DKPro and TakeLab."""
    board = lb.load_leaderboard("clss2014-table5")
    _, values = _ranked(board, "official")
    ranked_before = 0
    for row in board.rows:
        if "official" in row.ranks:
            ranked_before += 1
            continue
        assert ranking.placed_rank(ranking.value(board, row, "official"), values) == ranked_before + 1, row.name
    board = lb.load_leaderboard("sts2013-table2")
    _, values = _ranked(board, "mean")
    references = [r for r in board.rows if r.role == "reference"]
    assert [r.name for r in references] == ["DKPro", "TakeLab-best", "TakeLab-sts12"]
    for row in references:
        said = int(re.search(r"would-rank=(\d+)", row.notes).group(1))
        by_printed = ranking.placed_rank(row.scores["mean"], values)
        if row.flagged("rank-mismatch:would-rank"):
            assert by_printed != said and ranking.placed_rank(ranking.aggregate(board, row, "mean"), values) == said, row.name
        else:
            assert by_printed == said, row.name


def test_published_baselines():
    assert lb.for_dataset("sts2012-test").row("00-baseline/task6-baseline").ranks == {"all": 87, "allnorm": 85, "mean": 70}
    assert lb.for_dataset("sts2013-test").row("baseline-tokencos").ranks == {"mean": 73}
    assert {r.name for r in lb.for_dataset("clss2014-test").rows if r.role == "baseline"} == {"GST Baseline", "LCS Baseline"}
    with pytest.raises(corpora.DatasetNotFound, match="published"):
        lb.for_dataset("stsb-test")


def test_competition_ranks_share_ties():
    assert ranking.competition_ranks([0.5, 0.7, 0.5, None, 0.1]) == [2, 1, 2, None, 4]
    assert ranking.placed_rank(0.5, [0.7, 0.5, 0.1]) == 2


def _board(tmp_path, rows, header="name\trole\ta\tb\tmean\tmean_rank\tmarks\tnotes"):
    text = ("# A test table\n# source: nobody (2000), Table 9\n# dataset: x\n# aggregate: mean=weighted\n"
            "# primary: mean\n# sizes: a=1; b=3\n" + header + "\n" + rows)
    return write(tmp_path / "t.tsv", text)


def test_reader_aggregates_and_flags(tmp_path):
    board = lb.read_leaderboard(_board(tmp_path, "r1\trun\t.2\t.6\t.5\t1\t\trank-tie:mean x; would-rank=3\n"))
    row = board.rows[0]
    assert board.subsets == ("a", "b") and row.ranks == {"mean": 1}
    assert ranking.aggregate(board, row, "mean") == pytest.approx(0.5)
    assert ranking.aggregate(board, row, "mean", subsets=["a"]) == pytest.approx(0.2)
    assert row.flagged("rank-tie:mean") and row.flagged("would-rank=3") and not row.flagged("rank-tie:all")


@pytest.mark.parametrize("rows, message", [
    ("r1\trun\t.2\t.6\t.5\n", r"t.tsv:8: expected 8 tab-separated fields, got 5"),
    ("r1\trun\t.2\tNaNx\t.5\t1\t\t\n", r"t.tsv:8: b: expected a correlation"),
    ("r1\trun\t.2\t1.6\t.5\t1\t\t\n", r"t.tsv:8: b: 1.6 is not a correlation"),
    ("r1\twinner\t.2\t.6\t.5\t1\t\t\n", r"t.tsv:8: role 'winner'"),
    ("r1\trun\t.2\t.6\t.5\tfirst\t\t\n", r"t.tsv:8: mean_rank: expected a whole number"),
])
def test_reader_names_file_and_line(tmp_path, rows, message):
    with pytest.raises(corpora.FormatError, match=message):
        lb.read_leaderboard(_board(tmp_path, rows))


def test_reader_requires_the_source(tmp_path):
    path = write(tmp_path / "t.tsv", "# dataset: x\n# aggregate: mean=mean\n# primary: mean\nname\trole\tmarks\tnotes\n")
    with pytest.raises(corpora.FormatError, match="missing '# source"):
        lb.read_leaderboard(path)


def test_text_columns_are_read_as_text_and_must_be_in_the_header(tmp_path):
    header = "name\trole\ta\tb\tmean\trevision\tmarks\tnotes"
    path = _board(tmp_path, "r1\trun\t.2\t.6\t.5\tabc123\t\t\n", header=header)
    text = path.read_text().replace("# primary: mean\n", "# primary: mean\n# text: revision\n")
    board = lb.read_leaderboard(write(path, text))
    assert board.subsets == ("a", "b") and board.rows[0].text == {"revision": "abc123"}
    assert board.text_columns == ("revision",) and board.digits == 1
    with pytest.raises(corpora.FormatError, match="revision"):  # without the header line it is a figure
        lb.read_leaderboard(_board(tmp_path, "r1\trun\t.2\t.6\t.5\tabc123\t\t\n", header=header))
    with pytest.raises(corpora.FormatError, match="sha not in the column header"):
        lb.read_leaderboard(write(path, text.replace("# text: revision", "# text: revision; sha")))


@pytest.mark.parametrize("name", [n for n in NAMES if lb.load_leaderboard(n).dataset])
def test_a_published_table_reports_what_the_table_of_tasks_says(name):
    """Each paper's table recomputes the measures the one table of what each task reports (corpora.reports.REPORTS)
    gives its task (the paper's, else the scorer's task of its dataset's kind), and ranks by its primary one."""
    board = lb.load_leaderboard(name)
    task = board.dataset.split("-", 1)[0]
    reported = corpora.reports.REPORTS.get(task) or corpora.reports.REPORTS[corpora.spec(board.dataset).kind.scored_as]
    assert {k: rule for k, rule in board.measures.items() if rule != "given"} == reported.rules()
    assert board.primary == reported.primary
