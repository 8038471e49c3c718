"""IDKit in-process: ICAO 9303 MRZs, AAMVA DL/ID payloads, barcodes and document photos.

Every function calls libidkit (the Swift library's C interface, `idkit.h`) and returns the JSON
contract of the matching `idkit` subcommand as dicts (docs/contracts.md); input IDKit cannot
judge at all raises :class:`IDKitError` with the library's `kind`, `line`, `column` and `offset`.
An invalid MRZ is not an error: it is a record whose `valid` is false, with its `errors`.

    >>> import idkit
    >>> record = idkit.validate_mrz("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\\n"
    ...                             "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
    >>> record["valid"], record["fields"]["documentNumber"]
    (True, 'L898902C3')

The GIL is released while the library works, so threads calling IDKit run in parallel.
"""
from __future__ import annotations

import datetime as _datetime
import base64 as _base64
import importlib.metadata as _metadata
import os as _os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from . import _native
from ._native import IDKitError
from ._types import AAMVAResult, BACKeys, BarcodeResult, MRZRecord

__all__ = ["IDKitError", "validate_mrz", "validate_many", "validate_table", "parse_aamva", "parse_aamva_table", "read_barcodes", "scan", "scan_sides", "merge", "bac_keys",
           "version", "MRZRecord", "AAMVAResult", "BarcodeResult", "BACKeys"]

# This package's version as installed (python/pyproject.toml), which is the library's
# (Sources/IDKitCore/Version.swift); run from a source tree that is not installed, the library's.
try:
    __version__: str = _metadata.version("idkit")
except _metadata.PackageNotFoundError:
    __version__ = _native.version()

DateLike = Union[str, _datetime.date, None]


def version() -> str:
    """The library's version (`idkit --version`)."""
    return _native.version()


def _date(value: DateLike, name: str) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, _datetime.date):
        return value.isoformat()
    if isinstance(value, str):
        return value
    raise TypeError(f"{name} must be a date or a 'YYYY-MM-DD' string, not {type(value).__name__}")


# The options objects of the common calls, made once.
_MRZ_OPTIONS: Dict[tuple, Optional[bytes]] = {}


def _mrz_options(correct: bool, strict: bool, accept_deviations: bool, reference_date: DateLike) -> Optional[bytes]:
    key = (bool(correct), bool(strict), bool(accept_deviations), reference_date)
    cached = _MRZ_OPTIONS.get(key, False)
    if cached is not False:
        return cached  # type: ignore[return-value]
    options: Dict[str, Any] = {}
    if correct:
        options["correct"] = True
    if strict:
        options["strict"] = True
    if accept_deviations:
        options["acceptDeviations"] = True
    date = _date(reference_date, "reference_date")
    if date is not None:
        options["referenceDate"] = date
    encoded = _native.dumps(options) if options else None
    if len(_MRZ_OPTIONS) < 256:
        _MRZ_OPTIONS[key] = encoded
    return encoded


def _text(value: Union[str, bytes], name: str) -> bytes:
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{name} must be str or bytes, not {type(value).__name__}")


def validate_mrz(text: Union[str, bytes], *, correct: bool = False, strict: bool = False, accept_deviations: bool = False,
                 reference_date: DateLike = None) -> MRZRecord:
    """One MRZ (its lines joined by newlines) judged as `idkit validate --json` judges a record.

    `correct` repairs OCR confusions the check digits allow (`correction` says what changed);
    `strict` also refuses warnings; `accept_deviations` accepts known issuer deviations;
    `reference_date` (default today) resolves two-digit years and judges expiry.
    """
    # The hot path of single calls, in one frame: defaults need no options object, a str no
    # type checks; the answer copied out of the library's buffer and parsed.
    options = _mrz_options(correct, strict, accept_deviations, reference_date) \
        if correct or strict or accept_deviations or reference_date is not None else _NULL
    data = text.encode() if type(text) is str else _text(text, "text")
    pointer = _mrz_validate(data, len(data), options or _NULL)
    if pointer == _NULL:
        raise MemoryError("libidkit could not allocate its result")
    status = pointer.status
    json = _unpack(pointer.json, pointer.length)
    _free(pointer)
    if status:
        _native._raise(json, status)
    return _loads(json)


_mrz_validate = _native.mrz_validate
_NULL = _native._NULL
_unpack = _native._unpack
_free = _native._free
_loads = _native.loads


def validate_many(texts: Iterable[Union[str, bytes]], *, correct: bool = False, strict: bool = False,
                  accept_deviations: bool = False, reference_date: DateLike = None) -> List[MRZRecord]:
    """Many MRZs: one record per item, in order, each as :func:`validate_mrz` gives it. The
    items go to the library in batches of a few thousand (joined by blank lines, judged in one
    pass, answered as one JSON array). Options as :func:`validate_mrz`. Each record's
    `input.line` is its line in its batch; `input.source` is "-"."""
    options = _mrz_options(correct, strict, accept_deviations, reference_date)
    items = [t if type(t) is str else (t.decode() if isinstance(t, (bytes, bytearray)) else t) for t in texts]
    with _native.collector_paused():
        return _validate_batches(items, options, correct, strict, accept_deviations, reference_date)


def _validate_batches(items: List[Any], options: Optional[bytes], correct: bool, strict: bool, accept_deviations: bool,
                      reference_date: DateLike) -> List[MRZRecord]:
    out: List[MRZRecord] = []
    for start in range(0, len(items), _BATCH):
        chunk = items[start:start + _BATCH]
        try:
            joined = "\n\n".join(chunk)
        except TypeError:
            bad = next(i for i, t in enumerate(chunk) if not isinstance(t, str))
            raise TypeError(f"item {start + bad} must be str or bytes, not {type(chunk[bad]).__name__}") from None
        # The batch format reads an item as one record of its own unless it is blank, holds a
        # blank line, a '#' comment line or a '\r', or starts with '{' (a JSON record).
        if not (joined.startswith(("{", "#", "\n")) or "\n\n\n" in joined or "\n\n{" in joined or "\n#" in joined
                or "\r" in joined or joined.endswith("\n")):
            records = _native.call_view(_native.mrz_validate_many, joined.encode(), options)
            if len(records) == len(chunk):
                out += records
                continue
        out += [validate_mrz(t, correct=correct, strict=strict, accept_deviations=accept_deviations, reference_date=reference_date)
                for t in chunk]
    return out


# Items per library call of validate_many: the answer (about 700 bytes an MRZ) stays in the
# caches, where one call for a million MRZs would write, copy and parse 700 MB.
_BATCH = 2048


def validate_table(texts: Any, *, correct: bool = False, strict: bool = False, accept_deviations: bool = False,
                   reference_date: DateLike = None) -> "pyarrow.Table":
    """MRZs as a `pyarrow.Table`, one row per item, in order, with the values of
    `idkit validate --json` in columns (docs/arrow.md): `format`, `valid`, `validWithDeviations`,
    `verdict` (`valid`/`invalid` under the options, `notAnMRZ`), every field (dates of birth and
    expiry as `date32`, their six characters in `dateOfBirthRaw`/`dateOfExpiryRaw`), every check
    digit's state, `errors`/`warnings`/`deviations` (their codes), `lines` and `correction`.

    `texts`: a list (or other sequence) of str, a pyarrow string array or chunked array, or a
    pandas Series. A None is a row whose `valid` is null and whose `errors` is `["nullInput"]`;
    an item that is not a str raises TypeError. libidkit fills the table's Arrow buffers itself,
    with the GIL released. Options as :func:`validate_mrz`.
    """
    from . import _arrow

    return _arrow.validate_table(texts, _mrz_options(correct, strict, accept_deviations, reference_date))


def parse_aamva_table(payloads: Any) -> "pyarrow.Table":
    """AAMVA payloads (bytes; a list, a pyarrow binary or string array, a pandas Series) as a
    `pyarrow.Table`, one row per payload (docs/arrow.md): the header, every field of
    `idkit aamva --json` (dates as `date32`), `elements` as a map of every element, `warnings`
    (their codes); a payload that is not AAMVA is a row with `error` (its kind), `errorMessage`
    and `errorOffset` and every other column null, a None one whose `error` is `nullInput`."""
    from . import _arrow

    return _arrow.parse_aamva_table(payloads)


def parse_aamva(data: Union[bytes, str]) -> AAMVAResult:
    """A raw AAMVA DL/ID payload (the bytes a PDF417 or a magnetic stripe holds), as
    `idkit aamva --json`. Raises IDKitError (kind `notAAMVA`, `offset`, ...) for what is not one."""
    return _native.call(_native.aamva_parse, _text(data, "data"), None)


def _image(image: Union[bytes, str, "_os.PathLike[str]"]) -> bytes:
    if isinstance(image, (bytes, bytearray, memoryview)):
        return bytes(image)
    if isinstance(image, (str, _os.PathLike)):
        with open(image, "rb") as f:
            return f.read()
    raise TypeError(f"image must be bytes or a path, not {type(image).__name__}")


def read_barcodes(image: Union[bytes, str, "_os.PathLike[str]"], *, pdf417_only: bool = False) -> BarcodeResult:
    """The barcodes (PDF417, QR, 1D) in an encoded image (JPEG, PNG, PGM, BMP, TIFF, WebP, GIF, JPEG 2000,
    HEIC) or an image file, as `idkit barcode --json` ("file": "-")."""
    return _native.call(_native.barcode_read, _image(image), b'{"pdf417":true}' if pdf417_only else None)


def scan(image: Union[bytes, str, "_os.PathLike[str]"], *, barcodes: bool = True, reference_date: DateLike = None,
         redaction: Optional[Mapping[str, Any]] = None, viz: bool = False) -> Dict[str, Any]:
    """Documents found and read in a photo or scan (bytes or a path), as `idkit scan --json`
    ("file": "-"). `redaction` is the object of `idkit serve --redaction FILE`
    (`{"default": {"mode": ...}, "rules": [...]}`). `viz`: read each document's visual zone too
    (`idkit scan --viz`). Raises IDKitError with kind `mrzNotFound` and status IDKIT_NOT_FOUND when
    the image holds nothing of a document."""
    options = _scan_options(barcodes, reference_date, redaction)
    if viz:
        options["viz"] = True
    return _native.call(_native.scan, _image(image), _native.dumps(options) if options else None)


def _scan_options(barcodes: bool, reference_date: DateLike, redaction: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """The options of idkit_scan and idkit_scan_sides that differ from their defaults."""
    options: Dict[str, Any] = {}
    if not barcodes:
        options["barcodes"] = False
    date = _date(reference_date, "reference_date")
    if date is not None:
        options["referenceDate"] = date
    if redaction is not None:
        options["redaction"] = dict(redaction)
    return options


def scan_sides(front: Union[bytes, str, "_os.PathLike[str]"], back: Union[bytes, str, "_os.PathLike[str]"], *,
               barcodes: bool = True, reference_date: DateLike = None,
               redaction: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """Both sides of one card (bytes or paths) read as one document, as
    `idkit scan --json --sides FRONT BACK`: `result["sides"]["match"]` says whether the front
    belongs to the back's document; a front of another card is `status` `sidesMismatch`, nothing
    of it merged; two fronts are `status` `mrzNotFound` with `sides.reasonKind`
    `noMachineReadableSide`. Raises IDKitError with kind `mrzNotFound` only when neither image
    shows anything of a document."""
    options = _scan_options(barcodes, reference_date, redaction)
    return _native.call_two(_native.scan_sides, _image(front), _image(back), _native.dumps(options) if options else None)


def merge(document: Union[Mapping[str, Any], str, bytes], *, reference_date: DateLike = None,
          redaction: Optional[Mapping[str, Any]] = None, chip: Optional[Sequence[bytes]] = None,
          csca: Optional[str] = None, master_list: Optional[str] = None) -> Dict[str, Any]:
    """One document result from MRZ, barcode, VIZ and chip readings: the input document of
    `idkit merge` (`{"mrz", "barcode", "viz", "chip", "referenceDate"}`) as a dict or JSON,
    answered as `idkit merge --json`. `chip`: the files read from the chip (EF.SOD and data
    groups, raw bytes, any order); `csca` (a certificate file or folder) or `master_list` (an ICAO
    master list file): what the chip's Document Signer must chain to for the chip to come first."""
    if chip is not None:
        if not isinstance(document, Mapping):
            raise TypeError("chip= needs the document as a dict (or put \"chip\": [base64, …] in its JSON)")
        document = dict(document)
        document["chip"] = [_base64.b64encode(bytes(f)).decode("ascii") for f in chip]
    data = _native.dumps(dict(document)) if isinstance(document, Mapping) else _text(document, "document")
    options: Dict[str, Any] = {}
    if csca is not None:
        options["csca"] = _os.fspath(csca)
    if master_list is not None:
        options["masterList"] = _os.fspath(master_list)
    date = _date(reference_date, "reference_date")
    if date is not None:
        options["referenceDate"] = date
    if redaction is not None:
        options["redaction"] = dict(redaction)
    return _native.call(_native.merge, data, _native.dumps(options) if options else None)


def bac_keys(mrz: Union[str, Sequence[str], None] = None, *, document_number: Optional[str] = None,
             date_of_birth: Optional[str] = None, date_of_expiry: Optional[str] = None, can: Optional[str] = None,
             rnd_ic: Optional[str] = None, rnd_ifd: Optional[str] = None, k_ifd: Optional[str] = None,
             card_response: Optional[str] = None) -> BACKeys:
    """Chip access keys (BAC K_seed/K_enc/K_mac, PACE K_pi) from the MRZ (text or its lines) or
    from the document number and the YYMMDD dates, as `idkit bac --json`; with the challenge
    (hex) the EXTERNAL AUTHENTICATE data, and with the card's answer the session keys."""
    request: Dict[str, Any] = {}
    if isinstance(mrz, str):
        request["mrz"] = mrz
    elif mrz is not None:
        request["lines"] = list(mrz)
    for key, value in (("documentNumber", document_number), ("dateOfBirth", date_of_birth), ("dateOfExpiry", date_of_expiry),
                       ("can", can), ("rndIC", rnd_ic), ("rndIFD", rnd_ifd), ("kIFD", k_ifd), ("cardResponse", card_response)):
        if value is not None:
            request[key] = value
    return _native.call(_native.bac_keys, _native.dumps(request), None)
