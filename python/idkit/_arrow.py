"""Columns for data pipelines: MRZs and AAMVA payloads in, a `pyarrow.Table` out, through the Arrow
C Data Interface (docs/arrow.md). The input column is handed to libidkit as an Arrow array, and
libidkit fills the output's buffers itself and hands them back as Arrow structs that pyarrow takes
over: no JSON and no Python object per record. cffi releases the GIL during each library call.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, List, Optional

import pyarrow as pa

from . import _native

_ffi = _native.ffi

# Rows per library call: each call's output (a few hundred bytes a row) stays small next to the
# table, and no string column nears the 2 GiB that int32 offsets address.
CHUNK_ROWS = 1 << 17

_ACCEPTED = {"string": pa.string(), "large_string": pa.large_string(), "binary": pa.binary(), "large_binary": pa.large_binary()}


def _address(pointer: Any) -> int:
    return int(_ffi.cast("uintptr_t", pointer))


def _chunks(values: Any, name: str, binary: bool) -> Iterator[pa.Array]:
    """`values` as Arrow arrays of strings (or bytes) of at most CHUNK_ROWS rows each: a list or
    other sequence (converted a chunk at a time, so that each chunk is still in the caches when
    libidkit reads it), a pyarrow array or chunked array, a pandas Series. Anything else, and
    items that are not `str` (or `bytes` with `binary`) or None, raise TypeError."""
    target = pa.binary() if binary else pa.string()
    kinds = "str or bytes" if binary else "str"
    if isinstance(values, (str, bytes, bytearray)):
        raise TypeError(f"{name} must be a sequence of {kinds}, a pyarrow array or a pandas Series, not one {type(values).__name__}")
    if isinstance(values, pa.ChunkedArray):
        arrays = values.chunks
    elif isinstance(values, pa.Array):
        arrays = [values]
    elif type(values).__name__ == "Series" and hasattr(values, "array"):
        try:
            arrays = [pa.Array.from_pandas(values)]
        except (pa.ArrowTypeError, pa.ArrowInvalid) as error:
            raise TypeError(f"{name} must hold {kinds} or None: {error}") from None
    else:
        items = values if isinstance(values, (list, tuple)) else list(values)
        if not items:
            yield pa.array([], type=target)
        for start in range(0, len(items), CHUNK_ROWS):
            part = items[start:start + CHUNK_ROWS]
            try:
                yield pa.array(part, type=target)
            except (pa.ArrowTypeError, pa.ArrowInvalid, TypeError):
                allowed = (str, bytes, bytearray) if binary else (str,)
                bad = next((i for i, v in enumerate(part) if v is not None and not isinstance(v, allowed)), None)
                if bad is None:
                    raise
                raise TypeError(f"{name}[{start + bad}] must be {kinds} or None, not {type(part[bad]).__name__}") from None
        return
    if not arrays:
        arrays = [pa.array([], type=target)]
    for array in arrays:
        kind = str(array.type)
        if kind == "null":
            array = array.cast(target)
        elif kind in ("string_view", "binary_view"):
            array = array.cast(pa.string() if kind == "string_view" else pa.binary())
        elif kind not in _ACCEPTED or (not binary and "binary" in kind):
            raise TypeError(f"{name} must hold {kinds}, not Arrow type {kind}")
        if len(array) == 0:
            yield array
        for start in range(0, len(array), CHUNK_ROWS):
            yield array.slice(start, CHUNK_ROWS)


def _table(function: Callable[..., Any], chunks: Iterator[pa.Array], options: Optional[bytes]) -> pa.Table:
    batches: List[pa.RecordBatch] = []
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
    return _table(_native.lib.idkit_mrz_validate_arrow, _chunks(texts, "texts", binary=False), options)


def parse_aamva_table(payloads: Any) -> pa.Table:
    return _table(_native.lib.idkit_aamva_parse_arrow, _chunks(payloads, "payloads", binary=True), None)
