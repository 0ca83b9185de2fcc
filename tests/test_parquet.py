"""Tests of semsts.corpora.parquet: the small reader gives what pyarrow gives for every layout a writer may choose for
a column of strings (codec, page version, dictionary or not, its fallback to PLAIN, row groups), GloVe's word index
above all, and one FormatError for anything else."""
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from semsts.corpora.errors import FormatError
from semsts.corpora.parquet import read_strings

# repeats (Snappy copies that overlap what they write), non-ASCII, an empty string, a long value
WORDS = [f"w{i % 997}" * (1 + i % 3) for i in range(5000)] + ["", "ø", "日本語", "a" * 300, "aaaaaaaaaaaaaaaaaaaaaa"]


def written(tmp_path: Path, values, name="t.parquet", nullable=True, **options) -> Path:
    path = tmp_path / name
    field = pa.field("index", pa.string(), nullable=nullable)
    pq.write_table(pa.table({"index": pa.array(values, type=pa.string())}, schema=pa.schema([field])), path, **options)
    return path


@pytest.mark.parametrize("options", [
    {},  # pyarrow's defaults: Snappy, dictionary, data pages v1
    {"compression": "none"},
    {"data_page_version": "2.0"},
    {"data_page_version": "2.0", "compression": "none"},
    {"use_dictionary": False},
    {"dictionary_pagesize_limit": 2000, "data_page_size": 1000},  # the dictionary overflows: PLAIN pages after it
    {"row_group_size": 700},
    {"data_page_size": 64, "write_batch_size": 16},  # many small pages
], ids=repr)
def test_the_reader_gives_what_pyarrow_gives(tmp_path, options):
    for nullable in (True, False):
        path = written(tmp_path, WORDS, nullable=nullable, **options)
        assert read_strings(path) == pq.read_table(path).column(0).to_pylist() == WORDS


def test_an_empty_column(tmp_path):
    assert read_strings(written(tmp_path, [])) == []


def test_glove_word_index_is_read_as_pyarrow_reads_it():
    from semsts.corpora import word_vectors
    path = word_vectors.folder() / word_vectors.INDEX
    words = read_strings(path)
    assert len(words) == 400_000 and words[:4] == ["the", ",", ".", "of"]
    assert words == pq.read_table(path).column(0).to_pylist()


@pytest.mark.parametrize("make, message", [
    (lambda p: written(p, ["a", None, "b"]), "null values"),
    (lambda p: written(p, WORDS, compression="gzip"), "compression codec 2"),
    (lambda p: pq.write_table(pa.table({"n": [1, 2]}), p / "t.parquet") or p / "t.parquet", "expected one column of strings"),
    (lambda p: pq.write_table(pa.table({"a": ["x"], "b": ["y"]}), p / "t.parquet") or p / "t.parquet",
     "expected one column of strings"),
], ids=["nulls", "gzip", "integers", "two columns"])
def test_what_it_does_not_read_is_one_format_error(tmp_path, make, message):
    path = make(tmp_path)
    with pytest.raises(FormatError, match=f"^{path}: not a Parquet file this reader knows: {message}"):
        read_strings(path)


def test_a_damaged_file_is_a_format_error_never_another_exception(tmp_path):
    good = written(tmp_path, WORDS).read_bytes()
    bad = tmp_path / "bad.parquet"
    for data in (b"", b"PAR1", good[:-1], good[:len(good) // 2] + good[-8:], b"PAR1" + b"\0" * 100 + good[-8:]):
        bad.write_bytes(data)
        with pytest.raises(FormatError, match=f"^{bad}: "):
            read_strings(bad)
    for at in range(4, len(good) - 8, max(1, len(good) // 200)):  # one byte changed anywhere in pages or footer
        bad.write_bytes(good[:at] + bytes([good[at] ^ 0x5A]) + good[at + 1:])
        try:
            assert isinstance(read_strings(bad), list)  # a change inside a value can read as another value
        except FormatError:
            pass
