"""Tests of semsts.corpora.jsonl: MTEB's JSONL exports (BIOSSES, STS22) read with the official readers' rules."""
import gzip
import json

import numpy as np
import pytest

from conftest import write
from semsts.corpora import FormatError
from semsts.corpora.jsonl import read_jsonl

ROW = {"sentence1": "A cell divides.", "sentence2": "Cells divide.", "score": 3.2}


def lines(*rows) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


def test_plain_and_gzip_files_read_the_same(tmp_path):
    text = "\ufeff" + lines(ROW, {**ROW, "score": 0, "sentence2": ""}).replace("\n", "\r\n")
    plain = write(tmp_path / "test.jsonl", text)
    packed = write(tmp_path / "test.jsonl.gz", gzip.compress(text.encode("utf-8")))
    for path in (plain, packed):
        pairs, gold, ids = read_jsonl(path, (0, 4))
        assert pairs == [("A cell divides.", "Cells divide."), ("A cell divides.", "")]
        assert gold.tolist() == [3.2, 0.0] and ids == []


def test_ids_are_kept_when_every_line_has_one(tmp_path):
    path = write(tmp_path / "t.jsonl", lines({**ROW, "id": "a_b"}, {**ROW, "id": 7}))
    assert read_jsonl(path, (1, 4))[2] == ["a_b", "7"]


@pytest.mark.parametrize("row, said", [
    ({**ROW, "score": 4.5}, "t.jsonl:2: score 4.5 is outside [1, 4]"),
    ({**ROW, "score": 0.5}, "t.jsonl:2: score 0.5 is outside [1, 4]"),
    ({**ROW, "score": "3"}, """t.jsonl:2: expected a score as a JSON number, got '"3"'"""),
    ({**ROW, "score": None}, "t.jsonl:2: expected a score as a JSON number"),
    ({**ROW, "score": True}, "t.jsonl:2: expected a score as a JSON number"),
    ('{"sentence1": "a", "sentence2": "b", "score": NaN}', "t.jsonl:2: expected one JSON object per line"),
    ('{"sentence1": "a", "sentence2": "b", "score": Infinity}', "t.jsonl:2: expected one JSON object per line"),
    ({"sentence1": "a", "score": 2}, "t.jsonl:2: the object has no sentence2"),
    ({**ROW, "sentence1": 5}, "t.jsonl:2: expected sentence1 and sentence2 as JSON strings"),
    ("[1, 2]", "t.jsonl:2: expected a JSON object with sentence1, sentence2, score, got list"),
    ("", "t.jsonl:2: expected one JSON object per line, got an empty line"),
    ("{not json", "t.jsonl:2: expected one JSON object per line"),
])
def test_bad_lines_are_one_error_naming_file_and_line(tmp_path, row, said):
    path = write(tmp_path / "t.jsonl", lines(ROW, row, ROW))
    with pytest.raises(FormatError) as err:
        read_jsonl(path, (1, 4))
    assert said in str(err.value)


def test_a_cut_gzip_file_and_bad_utf8_are_errors(tmp_path):
    packed = gzip.compress(lines(ROW, ROW).encode())
    with pytest.raises(FormatError, match="a damaged or cut gzip file"):
        read_jsonl(write(tmp_path / "cut.jsonl.gz", packed[:-6]), (0, 4))
    with pytest.raises(FormatError, match=r"bad\.jsonl:2: not valid UTF-8"):
        read_jsonl(write(tmp_path / "bad.jsonl", lines(ROW).encode() + b'{"x": "\xff"}\n'), (0, 4))


def test_gold_is_float_and_in_file_order(tmp_path):
    rows = [{**ROW, "score": s} for s in (1, 2.5, 4, 3.6666666667)]
    _, gold, _ = read_jsonl(write(tmp_path / "t.jsonl", lines(*rows)), (1, 4))
    assert gold.dtype == np.float64 and gold.tolist() == [1.0, 2.5, 4.0, 3.6666666667]


def test_a_gzip_file_expanding_past_the_bound_is_refused_unread(tmp_path, monkeypatch):
    """Someone else's archive (a mirror's BIOSSES) may be a gzip bomb: it is read no further than the bound."""
    from semsts.corpora import jsonl
    monkeypatch.setattr(jsonl, "MAX_DATA_BYTES", 1 << 20)
    path = write(tmp_path / "bomb.jsonl.gz", gzip.compress(b" " * (2 << 20)))
    with pytest.raises(FormatError, match=r"bomb\.jsonl\.gz: expands to more than 1 MiB; not an STS task's split"):
        read_jsonl(path, (0, 4))


def test_an_integer_score_too_large_for_a_float_is_one_error_line(tmp_path):
    path = write(tmp_path / "t.jsonl", lines({**ROW, "score": 10 ** 400}))
    with pytest.raises(FormatError, match=r"t.jsonl:1: score '1000+'… \(401 characters\) is outside \[0, 5\]"):
        read_jsonl(path, (0, 5))


def test_a_lone_surrogate_is_one_error_at_its_file_and_line_before_any_table_or_file(tmp_path, capsys):
    """Issue 44: JSON's "\\ud800" escape decodes to half a character, which no writer takes: `sts bench
    --save-predictions` printed its tables, then failed naming no file or pair. It is refused where it is read, at
    its file and line, for either text; the bench prints no table and writes no folder."""
    from semsts import cli
    path = write(tmp_path / "t.jsonl", lines(ROW, {**ROW, "sentence2": "b \udfff c"}))
    with pytest.raises(FormatError, match=r't.jsonl:2: sentence2 holds a lone surrogate "\\udfff", half of a '
                                          "character: not Unicode text"):
        read_jsonl(path, (0, 5))
    root = tmp_path / "root"
    sts22 = write(root / "sts2022" / "en" / "test.jsonl",
                  lines({**ROW, "sentence1": "a \ud800 b"}, ROW, {**ROW, "score": 1.0}))
    out = tmp_path / "preds"
    code = cli.main(["bench", "token-cosine", "--datasets", "sts2022-test", "--data-dir", str(root), "--resamples",
                     "0", "--save-predictions", str(out), "--quiet"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == "" and not out.exists()
    assert captured.err.splitlines() == [f'error: {sts22}:1: sentence1 holds a lone surrogate "\\ud800", half of a '
                                         "character: not Unicode text"]
