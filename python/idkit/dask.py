"""Large batches fanned out with Dask (`pip install "idkit[dask]"`), partition by partition: each
worker process imports idkit (loading libidkit) once and judges a whole partition in one call.

On one machine::

    from distributed import Client, LocalCluster
    import idkit.dask

    with LocalCluster(n_workers=4, threads_per_worker=1) as cluster, Client(cluster):
        records = idkit.dask.read_mrz_file("mrzs.txt").compute()

On a cluster the same code runs against its scheduler, `Client("tcp://scheduler:8786")` (the
workers need idkit installed, with its library, and the files on a path they can all read:
shared storage or s3:// through fsspec).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import dask.bag as _bag

import idkit as _idkit

__all__ = ["validate_frame", "validate_bag", "read_mrz_file", "validate_dataframe", "parse_aamva_bag"]


def _validate_partition(texts: List[str], options: Dict[str, Any]) -> List[Dict[str, Any]]:
    return _idkit.validate_many(list(texts), **options)


def validate_bag(texts: _bag.Bag, *, correct: bool = False, strict: bool = False, accept_deviations: bool = False,
                 reference_date: Optional[str] = None) -> _bag.Bag:
    """A bag of MRZ texts (lines joined by newlines) as a bag of `idkit validate --json` records,
    in order, one :func:`idkit.validate_many` call per partition."""
    options = dict(correct=correct, strict=strict, accept_deviations=accept_deviations, reference_date=reference_date)
    return texts.map_partitions(_validate_partition, options)


def read_mrz_file(urlpath: Any, *, blocksize: Optional[int] = 8_000_000, **options: Any) -> _bag.Bag:
    """The records of a file (or files, a glob, a list) in the input format of `idkit validate`
    with blank lines between MRZs, judged partition by partition (`blocksize` bytes each, cut at
    a blank line). Options as :func:`validate_bag`."""
    texts = _bag.read_text(urlpath, blocksize=blocksize, linedelimiter="\n\n")
    return validate_bag(texts.map(lambda text: text.strip("\n")).filter(bool), **options)


def validate_dataframe(frame: Any, column: str = "mrz", **options: Any) -> Any:
    """A Dask dataframe with a column of MRZ texts, with the columns `valid`, `format` and
    `documentNumber` (from each record) and `record` (the whole record as JSON text) added."""
    import pandas as pd

    def partition(part: "pd.DataFrame") -> "pd.DataFrame":
        records = _idkit.validate_many(part[column].tolist(), **options)
        out = part.copy()
        out["valid"] = [r["valid"] for r in records]
        out["format"] = [r["format"] for r in records]
        out["documentNumber"] = [r["fields"]["documentNumber"] for r in records]
        out["record"] = [_idkit._native.dumps(r).decode() for r in records]
        return out

    meta = frame._meta.assign(valid=pd.Series(dtype=bool), format=pd.Series(dtype=object),
                              documentNumber=pd.Series(dtype=object), record=pd.Series(dtype=object))
    return frame.map_partitions(partition, meta=meta)


def _arrow_partition(part: Any, column: str, options: Dict[str, Any], keep: bool) -> Any:
    import pandas as pd

    table = _idkit.validate_table(part[column], **options)
    out = table.to_pandas(types_mapper=pd.ArrowDtype)
    out.index = part.index
    if keep:
        out = pd.concat([part, out], axis=1)
    return out


def validate_frame(frame: Any, column: str = "mrz", *, keep_columns: bool = False, correct: bool = False,
                   strict: bool = False, accept_deviations: bool = False, reference_date: Optional[str] = None) -> Any:
    """A Dask DataFrame with the columns of :func:`idkit.validate_table` for the MRZ texts in
    `column`, partition by partition through the same Arrow path (pyarrow-backed dtypes, no
    Python object per record), on whatever scheduler the client is connected to. The index is the
    input's; `keep_columns` puts the input's columns first. Options as :func:`idkit.validate_mrz`.

        import dask.dataframe as dd
        mrzs = dd.read_parquet("mrzs.parquet")            # a string column "mrz"
        checked = idkit.dask.validate_frame(mrzs, "mrz")
        checked[checked.valid].to_parquet("valid/")
    """
    import pandas as pd

    options = dict(correct=correct, strict=strict, accept_deviations=accept_deviations, reference_date=reference_date)
    empty = _idkit.validate_table([], **options).to_pandas(types_mapper=pd.ArrowDtype)
    meta = pd.concat([frame._meta, empty], axis=1) if keep_columns else empty
    return frame.map_partitions(_arrow_partition, column, options, keep_columns, meta=meta)


def _aamva_partition(payloads: List[bytes]) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    for payload in payloads:
        try:
            out.append(_idkit.parse_aamva(payload))
        except _idkit.IDKitError as error:
            out.append({"error": {"kind": error.kind, "message": error.message, "offset": error.offset}})
    return out


def parse_aamva_bag(payloads: _bag.Bag) -> _bag.Bag:
    """A bag of raw AAMVA payloads (bytes) as a bag of `idkit aamva --json` results; a payload
    that is not AAMVA becomes `{"error": {"kind", "message", "offset"}}`, as the command line
    writes it."""
    return payloads.map_partitions(_aamva_partition)
