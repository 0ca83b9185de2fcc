"""Tests of semsts.corpora.word_vectors: the row memo stays bounded and answers every word after it is cleared."""
from semsts.corpora import word_vectors


def test_the_row_memo_is_cleared_at_its_limit_and_still_answers_every_word(monkeypatch):
    table = word_vectors.glove()
    expected = table.rows_of(["the", "cat", "dog", "zzqxv"]).tolist()
    monkeypatch.setattr(word_vectors, "SEEN_LIMIT", 3)
    table._seen.clear()
    assert table.rows_of(["the", "cat"]).tolist() == expected[:2]
    assert table.rows_of(["the", "dog", "zzqxv"]).tolist() == [expected[0], *expected[2:]]  # over the limit: cleared
    assert len(table._seen) <= 3 and expected[3] == -1
