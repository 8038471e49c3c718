"""TypedDicts of the main JSON contracts (docs/contracts.md); the dicts the functions
return are those objects exactly, member for member."""
from __future__ import annotations

import sys
from typing import Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover
    from typing_extensions import NotRequired, TypedDict


class MRZInput(TypedDict):
    source: str
    line: int
    id: NotRequired[str]


class MRZFields(TypedDict):
    documentCode: Optional[str]
    issuingState: Optional[str]
    documentNumber: Optional[str]
    primaryIdentifier: Optional[str]
    secondaryIdentifier: Optional[str]
    nationality: Optional[str]
    dateOfBirth: Optional[str]
    sex: Optional[str]
    dateOfExpiry: Optional[str]
    optionalData1: Optional[str]
    optionalData2: Optional[str]


class MRZCheckDigits(TypedDict):
    documentNumber: Optional[str]
    dateOfBirth: Optional[str]
    dateOfExpiry: Optional[str]
    optionalData: Optional[str]
    composite: Optional[str]


class MRZIssue(TypedDict):
    code: str
    field: NotRequired[Optional[str]]
    line: Optional[int]
    column: Optional[int]
    expected: str
    found: str
    message: str


class MRZResolvedDates(TypedDict):
    dateOfBirth: Optional[str]
    dateOfExpiry: Optional[str]


class MRZRecord(TypedDict):
    """One record of `idkit validate --json`."""
    input: MRZInput
    format: Optional[str]
    valid: bool
    validWithDeviations: bool
    fields: MRZFields
    checkDigits: MRZCheckDigits
    errors: List[MRZIssue]
    warnings: List[MRZIssue]
    deviations: List[MRZIssue]
    resolvedDates: MRZResolvedDates
    lines: List[str]
    correction: NotRequired[Dict[str, object]]


class AAMVAResult(TypedDict):
    """`idkit aamva --json` (without its `file` member)."""
    country: Optional[str]
    elements: Dict[str, str]
    encoding: str
    fields: Dict[str, object]
    fileType: str
    iin: str
    jurisdiction: Optional[str]
    jurisdictionName: Optional[str]
    jurisdictionVersion: Optional[int]
    numberOfEntries: Optional[int]
    subfiles: List[Dict[str, object]]
    version: Optional[int]
    warnings: List[Dict[str, object]]


class BarcodeResult(TypedDict):
    """`idkit barcode --json` for one image."""
    file: str
    barcodes: List[Dict[str, object]]
    errors: List[str]


class BACKeys(TypedDict, total=False):
    """`idkit bac --json`."""
    mrzInformation: Optional[str]
    kSeed: str
    kEnc: str
    kMac: str
    bacReady: bool
    paceKPi: Dict[str, str]
