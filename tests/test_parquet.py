"""Tests of semsts.corpora.parquet: GloVe's word index read as before (the same words, byte for byte), and a Parquet
file from someone else refused with one FormatError naming it, in bounded time and memory; without pyarrow, one line
naming the extra."""
import hashlib
import struct
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from semsts.core.extras import MissingExtra
from semsts.corpora import parquet
from semsts.corpora.errors import FormatError
from semsts.corpora.parquet import read_columns, read_strings

WORDS = [f"w{i % 97}" * (1 + i % 3) for i in range(500)] + ["", "ø", "日本語"]


def written(tmp_path: Path, table, **options) -> Path:
    path = tmp_path / "t.parquet"
    pq.write_table(table, path, **options)
    return path


def test_glove_word_index_reads_the_same_words_as_ever():
    from semsts.corpora import word_vectors
    words = read_strings(word_vectors.folder() / word_vectors.INDEX)
    assert len(words) == 400_000 and words[:4] == ["the", ",", ".", "of"]
    # the SHA-256 of the words the hand-written reader gave before pyarrow replaced it
    assert hashlib.sha256("\n".join(words).encode()).hexdigest() == \
        "029a7168ebc71f71e23e1f6ae94967234a13dcd64717754746c171be20d31a77"


@pytest.mark.parametrize("table, said", [
    (pa.table({"index": ["a", None, "b"]}), "null values in column index"),
    (pa.table({"n": [1, 2]}), r"column n is neither strings nor floats \(int64\)"),
    (pa.table({"a": ["x"], "b": ["y"]}), "expected one column of strings"),
], ids=["nulls", "integers", "two columns"])
def test_what_read_strings_does_not_read_is_one_format_error(tmp_path, table, said):
    path = written(tmp_path, table)
    with pytest.raises(FormatError, match=f"^{path}: {said}"):
        read_strings(path)
    if table.num_columns == 1:  # the same refusals when named columns are read
        with pytest.raises(FormatError, match=f"^{path}: {said}"):
            read_columns(path, table.column_names)


def _craft(tmp_path: Path, footer: bytes) -> Path:
    path = tmp_path / "crafted.parquet"
    path.write_bytes(b"PAR1" + footer + struct.pack("<I", len(footer)) + b"PAR1")
    return path


def test_a_hostile_parquet_file_is_one_format_error_in_bounded_time_and_memory(tmp_path, monkeypatch):
    """Threat: a Parquet file from a mirror or another user, crafted or damaged. Every single-byte change of a small
    file, a footer declaring a list of 2^40 booleans, and a file declaring more decoded bytes than its size allows are
    each a FormatError naming the file, never another exception, a hang or a huge allocation."""
    good = written(tmp_path, pa.table({"index": WORDS})).read_bytes()
    bad = tmp_path / "bad.parquet"
    for data in (b"", b"PAR1", good[:-1], good[:len(good) // 2] + good[-8:]):
        bad.write_bytes(data)
        with pytest.raises(FormatError, match=f"^{bad}: not a readable Parquet file"):
            read_strings(bad)
    for at in range(len(good)):
        bad.write_bytes(good[:at] + bytes([good[at] ^ 0xFF]) + good[at + 1:])
        try:
            assert isinstance(read_strings(bad), list)  # a change inside a value can read as another value
        except FormatError as exc:
            assert str(exc).startswith(f"{bad}: ")
    huge_list = b"\x15\x02\x19\xf1" + bytes([0x80] * 5 + [0x20]) + b"\x00" * 8  # field 2: 2^40 booleans
    with pytest.raises(FormatError, match="not a readable Parquet file"):
        read_strings(_craft(tmp_path, huge_list))
    path = written(tmp_path, pa.table({"index": WORDS}))
    monkeypatch.setattr(parquet, "DECODED_FLOOR", 0)
    monkeypatch.setattr(parquet, "DECODED_FACTOR", 0.5)
    with pytest.raises(FormatError, match=r"far more than its size allows; refused"):
        read_strings(path)


def test_named_columns_of_strings_and_floats(tmp_path):
    table = pa.table({"s": ["a", "b"], "x": pa.array([0.5, 4.2], pa.float32()), "y": [1.0, 2.0], "n": [1, 2]})
    path = written(tmp_path, table)
    assert read_columns(path, ("x", "s")) == [[0.5, float(pa.array([4.2], pa.float32())[0].as_py())], ["a", "b"]]
    with pytest.raises(FormatError, match=r"no column z \(it has s, x, y, n\)"):
        read_columns(path, ("s", "z"))


def test_without_pyarrow_one_line_names_the_extra(tmp_path, monkeypatch):
    path = written(tmp_path, pa.table({"s": ["a"]}))
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(MissingExtra, match=r"^reading MTEB's stsb_multi_mt Parquet files needs the 'parquet' extra \(pyarrow"):
        read_columns(path, ("s",))
    with pytest.raises(MissingExtra, match=r"^reading GloVe's word index needs the 'reference' extra \(pyarrow"):
        read_strings(path)


def test_a_column_nested_a_thousand_deep_is_one_format_error(tmp_path):
    """Issue 44, kind 7: a nested column beside MTEB's three is refused by pyarrow's schema depth limit, one error
    naming the file, never a RecursionError or a crash."""
    kind, value = pa.int64(), 1
    for _ in range(1000):
        kind, value = pa.list_(kind), [value]
    path = written(tmp_path, pa.table({"sentence1": ["a b"], "sentence2": ["c d"], "similarity_score": [3.0],
                                       "deep": pa.array([value], type=kind)}))
    with pytest.raises(FormatError, match=f"{path}: not a readable Parquet file \\(Parquet schema too deeply nested"):
        read_columns(path, ("sentence1", "sentence2", "similarity_score"))
