"""libidkit through cffi: finding the library, declaring its functions (idkit.h), turning
results into Python objects. cffi releases the GIL for the length of each call, so threads run in
parallel.
"""
from __future__ import annotations

import contextlib
import ctypes.util
import gc as _gc
import os
import pathlib
from typing import Any, Iterator, Optional

import cffi

try:
    import orjson as _orjson

    _loads = _orjson.loads
    _dumps = _orjson.dumps
except ImportError:  # pragma: no cover - orjson is a dependency; json is the fallback
    import json as _json

    _loads = _json.loads

    def _dumps(value: Any) -> bytes:
        return _json.dumps(value, separators=(",", ":")).encode()


ABI_VERSION = 1

IDKIT_OK = 0
IDKIT_INVALID_INPUT = 1
IDKIT_INVALID_OPTIONS = 2
IDKIT_TOO_LARGE = 3
IDKIT_NOT_FOUND = 4
IDKIT_INTERNAL_ERROR = 5

_HOW_TO_BUILD = (
    "build it in the IDKit repository with `swift build -c release` (or `make release`), then "
    "`pip install ./python` bundles it; or point IDKIT_LIBRARY at the built .build/release/libIDKitC.so"
)


class IDKitError(Exception):
    """Input IDKit cannot judge, with the library's error kind and where: `line` and `column` for
    MRZ text, `offset` for a byte offset into a payload. `status` is the C interface's status."""

    def __init__(self, kind: str, message: str, line: Optional[int] = None, column: Optional[int] = None,
                 offset: Optional[int] = None, status: int = IDKIT_INVALID_INPUT) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.status = status

    def __repr__(self) -> str:
        return f"IDKitError(kind={self.kind!r}, message={self.message!r}, line={self.line}, column={self.column}, offset={self.offset})"


_CDEF = """
typedef struct idkit_result { int32_t status; char *json; size_t length; } idkit_result;
const char *idkit_version(void);
int32_t idkit_abi_version(void);
idkit_result *idkit_mrz_validate(const uint8_t *text, size_t length, const char *options_json);
idkit_result *idkit_mrz_validate_many(const uint8_t *text, size_t length, const char *options_json);
idkit_result *idkit_aamva_parse(const uint8_t *payload, size_t length, const char *options_json);
idkit_result *idkit_barcode_read(const uint8_t *image, size_t length, const char *options_json);
idkit_result *idkit_scan(const uint8_t *image, size_t length, const char *options_json);
idkit_result *idkit_scan_sides(const uint8_t *front, size_t front_length, const uint8_t *back, size_t back_length, const char *options_json);
idkit_result *idkit_merge(const uint8_t *input_json, size_t length, const char *options_json);
idkit_result *idkit_bac_keys(const uint8_t *request_json, size_t length, const char *options_json);
void idkit_result_free(idkit_result *result);
struct ArrowSchema { const char *format; const char *name; const char *metadata; int64_t flags; int64_t n_children;
                     struct ArrowSchema **children; struct ArrowSchema *dictionary; void (*release)(struct ArrowSchema *);
                     void *private_data; };
struct ArrowArray { int64_t length; int64_t null_count; int64_t offset; int64_t n_buffers; int64_t n_children;
                    const void **buffers; struct ArrowArray **children; struct ArrowArray *dictionary;
                    void (*release)(struct ArrowArray *); void *private_data; };
idkit_result *idkit_mrz_validate_arrow(const struct ArrowArray *texts, const struct ArrowSchema *texts_schema,
                                       const char *options_json, struct ArrowSchema *out_schema, struct ArrowArray *out_array);
idkit_result *idkit_aamva_parse_arrow(const struct ArrowArray *payloads, const struct ArrowSchema *payloads_schema,
                                      const char *options_json, struct ArrowSchema *out_schema, struct ArrowArray *out_array);
"""


def _candidates() -> list:
    here = pathlib.Path(__file__).resolve().parent
    found = []
    if os.environ.get("IDKIT_LIBRARY"):
        found.append(pathlib.Path(os.environ["IDKIT_LIBRARY"]))
    found.append(here / "libidkit.so")
    # Used from the repository itself (python/idkit beside .build).
    for config in ("release", "debug"):
        found.append(here.parent.parent / ".build" / config / "libIDKitC.so")
    return found


def _load() -> Any:
    # Tesseract (the visual zone, scan(viz=True)) runs its LSTM in OpenMP teams of a fixed size
    # that only OMP_THREAD_LIMIT caps, read once when the library loads: on one page the teams
    # cost several times the work. A setting of the caller's own stays.
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    # Never unloaded: the Arrow tables the library fills carry its release callbacks, and a
    # table still alive when the interpreter shuts down (held by sys, a cache, a Dask client's
    # queues) is freed after cffi has closed the library; unmapped, that call would crash.
    flags = _ffi.RTLD_NOW | _ffi.RTLD_NODELETE
    tried = []
    for path in _candidates():
        if path.exists():
            return _ffi.dlopen(str(path), flags)
        tried.append(str(path))
    system = ctypes.util.find_library("idkit")
    if system:
        return _ffi.dlopen(system, flags)
    raise IDKitError("libraryNotFound", "libidkit not found (looked at " + ", ".join(tried)
                     + " and the loader's path): " + _HOW_TO_BUILD, status=IDKIT_INTERNAL_ERROR)


# cffi in ABI mode (nothing to compile): the declarations of idkit.h, the library opened once per
# process. cffi releases the GIL for the length of each call.
_ffi = cffi.FFI()
_ffi.cdef(_CDEF)
_lib = _load()

if _lib.idkit_abi_version() != ABI_VERSION:
    raise IDKitError("abiMismatch", f"libidkit has ABI version {_lib.idkit_abi_version()}, this package needs {ABI_VERSION}: "
                     + _HOW_TO_BUILD, status=IDKIT_INTERNAL_ERROR)

_NULL = _ffi.NULL
_free = _lib.idkit_result_free
_unpack = _ffi.unpack
_buffer = _ffi.buffer
mrz_validate = _lib.idkit_mrz_validate
mrz_validate_many = _lib.idkit_mrz_validate_many
aamva_parse = _lib.idkit_aamva_parse
barcode_read = _lib.idkit_barcode_read
scan = _lib.idkit_scan
scan_sides = _lib.idkit_scan_sides
merge = _lib.idkit_merge
bac_keys = _lib.idkit_bac_keys
ffi = _ffi
lib = _lib


def version() -> str:
    return _ffi.string(_lib.idkit_version()).decode()


def _raise(text: Any, status: int) -> None:
    error = _loads(text)["error"]
    raise IDKitError(error["kind"], error["message"], error.get("line"), error.get("column"), error.get("offset"), status)


def call_raw(function: Any, data: bytes, options: Optional[bytes]) -> bytes:
    """The JSON bytes of a call; an IDKitError when its status is not IDKIT_OK."""
    return _taken(function(data, len(data), options or _NULL))


def _taken(pointer: Any) -> bytes:
    """A result's JSON bytes, the result freed; an IDKitError when its status is not IDKIT_OK."""
    if pointer == _NULL:
        raise MemoryError("libidkit could not allocate its result")
    status = pointer.status
    text = _unpack(pointer.json, pointer.length)
    _free(pointer)
    if status != IDKIT_OK:
        _raise(text, status)
    return text


def call_two(function: Any, first: bytes, second: bytes, options: Optional[bytes]) -> Any:
    """`call` for a function of two inputs (idkit_scan_sides)."""
    return _loads(_taken(function(first, len(first), second, len(second), options or _NULL)))


def call(function: Any, data: bytes, options: Optional[bytes]) -> Any:
    """The JSON of a call, parsed (a few hundred bytes: copied out, cheaper than a view)."""
    return _loads(call_raw(function, data, options))


def call_view(function: Any, data: bytes, options: Optional[bytes]) -> Any:
    """`call` for a large answer: parsed straight from the library's buffer, without a copy."""
    pointer = function(data, len(data), options or _NULL)
    if pointer == _NULL:
        raise MemoryError("libidkit could not allocate its result")
    try:
        if pointer.status != IDKIT_OK:
            _raise(_unpack(pointer.json, pointer.length), pointer.status)
        return _loads(memoryview(_buffer(pointer.json, pointer.length)))
    finally:
        _free(pointer)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a batch's many containers are made (each of
    its passes would walk every record made so far, so that a batch of a million took minutes;
    nothing made there can be cyclic garbage), then resumed as it was."""
    enabled = _gc.isenabled()
    if enabled:
        _gc.disable()
    try:
        yield
    finally:
        if enabled:
            _gc.enable()


loads = _loads
dumps = _dumps
