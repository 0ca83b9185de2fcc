"""SimCSE's Table 5 as a leaderboard of the project: its rows, sections and its one inconsistent Avg."""
import pytest

from semsts.corpora import leaderboards as lb
from semsts.corpora.published_encoders import DATASETS, NAME, contenders, labels
from semsts.scoring import ranking


def test_the_table_reads_as_the_paper_prints_it():
    rows = contenders()
    assert len(rows) == 23 and sum(not r.supervised for r in rows) == 12  # 12 unsupervised, 11 supervised rows
    glove = rows[0]
    assert glove.name == "GloVe embeddings (avg.)" and not glove.supervised
    assert [glove.figures[d] for d in DATASETS] == [55.14, 70.66, 59.73, 68.25, 63.66, 58.02, 53.76]
    assert glove.average == 61.32
    last = rows[-1]
    assert last.name == "sup-SimCSE-RoBERTa-large" and last.supervised and last.average == 83.76
    assert len({r.name for r in rows}) == 23
    assert {r.name for r in rows if r.marks == "♣"} == {"InferSent-GloVe", "Universal Sentence Encoder",
                                                        "SBERT-base", "SRoBERTa-base"}
    assert list(labels().values()) == ["STS12", "STS13", "STS14", "STS15", "STS16", "STS-B", "SICK-R"]
    assert "Table 5" in lb.load_leaderboard(NAME).source


def test_every_average_follows_from_its_columns_but_sbert_base():
    differ = [r for r in contenders() if abs(r.recomputed_average - r.average) > 0.005 + 1e-9]
    assert [r.name for r in differ] == ["SBERT-base"]
    (sbert,) = differ
    assert sbert.average == 74.89 and sbert.recomputed_average == pytest.approx(74.86)
    board = lb.load_leaderboard(NAME)
    assert board.row("SBERT-base").flagged("mean-mismatch:avg")
    assert [r.name for r in board.rows if r.flagged("mean-mismatch:avg")] == ["SBERT-base"]
    assert ranking.aggregate(board, board.row("SBERT-base"), "avg") == pytest.approx(.7486)
