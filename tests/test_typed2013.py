"""Tests of semsts.corpora.typed2013: the TYPED file formats and their errors."""
import numpy as np
import pytest

from semsts import corpora
from semsts.corpora import typed2013
from tests.conftest import write

# --- TYPED files: the Europeana pair list, text/ records, 8-column gold and outputs, and their errors.


ADDR = "http://www.europeana.eu/portal/record/{}.html"


def test_record_text_round_trip_merges_repeated_fields_and_keeps_order():
    text = "dcTitle:\tA view\tSecond title\ndcCreator:\tSMITH; John (1850-1920)\ndcTitle:\tThird\r\ndcDate:\n"
    record = typed2013.parse_record(text)
    assert record == {"dcTitle": ["A view", "Second title", "Third"], "dcCreator": ["SMITH; John (1850-1920)"],
                      "dcDate": []}
    assert typed2013.format_record(record) == ("dcTitle:\tA view\tSecond title\tThird\n"
                                           "dcCreator:\tSMITH; John (1850-1920)\n")
    assert typed2013.format_record({"dcTitle": ["two\tparts\nand lines"]}) == "dcTitle:\ttwo parts and lines\n"
    assert typed2013.parse_record("") == {}


def test_bad_record_line_names_file_and_line(tmp_path):
    path = write(tmp_path / "text" / "001a_x_y.txt", "dcTitle:\tok\njust some words\n")
    with pytest.raises(corpora.FormatError, match=r"001a_x_y.txt:2: expected 'FIELD:<TAB>value"):
        typed2013.read_record(path)


def test_input_addresses_and_record_file_names(tmp_path):
    path = write(tmp_path / "in.txt", f"{ADDR.format('2022/abc_1')}\t{ADDR.format('9200/X.y')}\n")
    assert typed2013.read_typed_input(path) == [("2022/abc_1", "9200/X.y")]
    assert typed2013.record_filename(1, "a", "2022/abc_1") == "001a_2022_abc_1.txt"
    assert typed2013.record_filename(1234, "b", "1/2") == "1234b_1_2.txt"
    write(path, f"{ADDR.format('2022/abc')}\thttp://example.org/abc\n")
    with pytest.raises(corpora.FormatError, match=r"in.txt:1: expected http://www.europeana.eu/portal/record"):
        typed2013.read_typed_input(path)
    write(path, f"{ADDR.format('2022/abc')}\n")
    with pytest.raises(corpora.FormatError, match=r"in.txt:1: expected 2 tab-separated record addresses, got 1"):
        typed2013.read_typed_input(path)


def test_gold_needs_eight_numbers_in_range(tmp_path):
    path = write(tmp_path / "gs.txt", "5\t4\t3\t2\t1\t0\t0.5\t4.5\n0\t0\t0\t0\t0\t0\t0\t0\n")
    gold = typed2013.read_typed_gold(path)
    assert gold.shape == (2, 8) and gold[0, 7] == 4.5
    write(path, "5\t4\t3\t2\t1\t0\t0.5\n")
    with pytest.raises(corpora.FormatError, match=r"gs.txt:1: expected 8 tab-separated gold scores"):
        typed2013.read_typed_gold(path)
    write(path, "5\t4\t3\t2\t1\t0\t0.5\t6\n")
    with pytest.raises(corpora.FormatError, match=r"gs.txt:1: description gold score 6 is outside \[0, 5\]"):
        typed2013.read_typed_gold(path)
    write(path, "5\t4\t3\tnan\t1\t0\t0.5\t1\n")
    with pytest.raises(corpora.FormatError, match=r"gs.txt:1: expected a finite time gold score"):
        typed2013.read_typed_gold(path)


def test_output_validation_reports_every_problem(tmp_path):
    path = write(tmp_path / "out.txt", "1\t1\t1\t1\t1\t1\t1\t1\n1\t1\t1\n\n1\t1\t1\t1\t1\t1\t1\t9\n")
    messages = [str(e) for e in typed2013.check_typed_output(path, 5)]
    assert len(messages) == 4
    assert "out.txt:2: expected 8" in messages[0] and "got 3 fields" in messages[0]
    assert "out.txt:3: expected 8" in messages[1]
    assert "out.txt:4: description score 9 is outside" in messages[2]
    assert "has 4 lines, the input has 5 pairs" in messages[3]
    assert [str(e) for e in typed2013.check_typed_output(tmp_path / "none.txt")] == [f"{tmp_path / 'none.txt'}: output file is missing"]


def test_writer_round_trips_and_refuses_bad_scores(tmp_path):
    scores = np.linspace(0, 5, 16).reshape(2, 8)
    path = tmp_path / "out.txt"
    typed2013.write_typed_output(path, scores)
    assert path.read_text().splitlines()[0].split("\t")[:2] == ["0.000000", "0.333333"]
    assert np.allclose(typed2013.read_typed_output(path, 2), scores, atol=1e-6)
    with pytest.raises(ValueError, match=r"shape \(n, 8\)"):
        typed2013.write_typed_output(path, np.zeros(8))
    bad = scores.copy()
    bad[1, 3] = np.nan
    with pytest.raises(ValueError, match="pair 2 time score is nan"):
        typed2013.write_typed_output(path, bad)
    assert np.allclose(typed2013.read_typed_output(path, 2), scores, atol=1e-6)  # the old file is intact


def test_dataset_reads_records_beside_the_input_and_names_a_missing_one(tmp_path):
    folder = tmp_path / "typed2013" / "test"
    write(folder / typed2013.INPUT_NAME, f"{ADDR.format('1/a')}\t{ADDR.format('1/b')}\n{ADDR.format('1/c')}\t{ADDR.format('1/a')}\n")
    write(folder / typed2013.GOLD_NAME, "5\t4\t3\t2\t1\t0\t0.5\t4.5\n1\t1\t1\t1\t1\t1\t1\t1\n")
    write(folder / "text" / "001a_1_a.txt", "dcTitle:\tA\n")
    write(folder / "text" / "001b_1_b.txt", "dcTitle:\tB\n")
    write(folder / "text" / "002b_1_a.txt", "dcTitle:\tA\n")
    with pytest.raises(corpora.FormatError, match=r"002a_1_c.txt: record file of STS.input.europeana.txt line 2 is missing"):
        corpora.load("typed2013-test", tmp_path)
    write(folder / "text" / typed2013.MISSING_NAME, "1/c\tnot found (HTTP 404)\n")
    ds = corpora.load("typed2013-test", tmp_path)
    (sub,) = ds.subsets
    assert (ds.kind.name, sub.name, sub.output_name, sub.gold.shape) == ("typed", "europeana", "STS.output.europeana.txt", (2, 8))
    assert sub.pairs == [("dcTitle:\tA\n", "dcTitle:\tB\n"), ("", "dcTitle:\tA\n")]
    assert sub.ids == ["1/a 1/b", "1/c 1/a"]
    assert any("1 records no longer exist at Europeana" in note for note in ds.notes)


def test_a_record_id_too_long_for_a_file_name_is_refused_at_its_line(tmp_path):
    """Issue 44, kind 7: a record id names the record's cached answer and text file; one of 300 characters is
    refused where it is read, not met as "File name too long" when the fetch writes it."""
    path = write(tmp_path / "in.txt", f"{ADDR.format('2022/abc')}\t{ADDR.format('2022/' + 'x' * 300)}\n")
    with pytest.raises(corpora.FormatError, match=r"in.txt:1: expected http://www.europeana.eu/portal/record/COLLECTION/"
                                                  r"ID.html \(each at most 100 characters: they name files\), got"):
        typed2013.read_typed_input(path)
    write(path, f"{ADDR.format('2022/abc')}\t{ADDR.format('2022/' + 'x' * 100)}\n")
    assert len(typed2013.record_filename(999, "b", typed2013.read_typed_input(path)[0][1])) < 241
