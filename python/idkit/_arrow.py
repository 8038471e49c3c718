"""Columns for data pipelines: MRZs and AAMVA payloads in, a `pyarrow.Table` out, through the Arrow
C Data Interface (docs/arrow.md). The input column is handed to libidkit as an Arrow array, and
libidkit fills the output's buffers itself and hands them back as Arrow structs that pyarrow takes
over: no JSON and no Python object per record. cffi releases the GIL during each library call.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import pyarrow as pa

from . import _native

_ffi = _native.ffi

# Rows per library call: each call's output (a few hundred bytes a row) stays small next to the
# table, and no string column nears the 2 GiB that int32 offsets address.
CHUNK_ROWS = 1 << 17

_ACCEPTED = {"string": pa.string(), "large_string": pa.large_string(), "binary": pa.binary(), "large_binary": pa.large_binary()}


def _address(pointer: Any) -> int:
    return int(_ffi.cast("uintptr_t", pointer))


def _column(values: Any, name: str, binary: bool) -> pa.ChunkedArray:
    """`values` as a chunked Arrow array of strings (or bytes): a list or other sequence, a pyarrow
    array or chunked array, a pandas Series. Anything else, and items that are not `str` (or `bytes`
    with `binary`) or None, raise TypeError."""
    target = pa.binary() if binary else pa.string()
    kinds = "str or bytes" if binary else "str"
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(f"{name} must be a sequence of {kinds}, a pyarrow array or a pandas Series, not one {type(values).__name__}")
    if isinstance(values, pa.ChunkedArray):
        column = values
    elif isinstance(values, pa.Array):
        column = pa.chunked_array([values], type=values.type)
    elif type(values).__name__ == "Series" and hasattr(values, "array"):
        try:
            column = pa.chunked_array([pa.Array.from_pandas(values)])
        except (pa.ArrowTypeError, pa.ArrowInvalid) as error:
            raise TypeError(f"{name} must hold {kinds} or None: {error}") from None
    else:
        try:
            column = pa.chunked_array([pa.array(values, type=target)], type=target)
        except (pa.ArrowTypeError, pa.ArrowInvalid, TypeError):
            allowed = (str, bytes, bytearray) if binary else (str,)
            items = list(values)
            bad = next((i for i, v in enumerate(items) if v is not None and not isinstance(v, allowed)), None)
            if bad is None:
                raise
            raise TypeError(f"{name}[{bad}] must be {kinds} or None, not {type(items[bad]).__name__}") from None
    kind = str(column.type)
    if kind == "null":
        column = column.cast(target)
    elif kind in ("string_view", "binary_view"):
        column = column.cast(pa.string() if kind == "string_view" else pa.binary())
    elif kind not in _ACCEPTED or (not binary and "binary" in kind):
        raise TypeError(f"{name} must hold {kinds}, not Arrow type {kind}")
    return column


def _table(function: Callable[..., Any], column: pa.ChunkedArray, options: Optional[bytes]) -> pa.Table:
    batches: List[pa.RecordBatch] = []
    chunks = [chunk.slice(start, CHUNK_ROWS) for chunk in column.chunks for start in range(0, len(chunk), CHUNK_ROWS)]
    if not chunks:
        chunks = [pa.array([], type=column.type)]
    in_array = _ffi.new("struct ArrowArray *")
    in_schema = _ffi.new("struct ArrowSchema *")
    for chunk in chunks:
        out_array = _ffi.new("struct ArrowArray *")
        out_schema = _ffi.new("struct ArrowSchema *")
        chunk._export_to_c(_address(in_array), _address(in_schema))
        try:
            # Releases the GIL while libidkit reads the chunk and fills the table's buffers.
            result = function(in_array, in_schema, options or _native._NULL, out_schema, out_array)
            _native._taken(result)
        finally:
            if in_array.release != _ffi.NULL:
                in_array.release(in_array)
            if in_schema.release != _ffi.NULL:
                in_schema.release(in_schema)
        batches.append(pa.RecordBatch._import_from_c(_address(out_array), _address(out_schema)))
    return pa.Table.from_batches(batches)


def validate_table(texts: Any, options: Optional[bytes]) -> pa.Table:
    return _table(_native.lib.idkit_mrz_validate_arrow, _column(texts, "texts", binary=False), options)


def parse_aamva_table(payloads: Any) -> pa.Table:
    return _table(_native.lib.idkit_aamva_parse_arrow, _column(payloads, "payloads", binary=True), None)
