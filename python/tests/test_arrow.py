"""Arrow tables (issue 40): idkit.validate_table and idkit.parse_aamva_table against the JSON
contracts they put in columns, their inputs (lists, pyarrow arrays and chunked arrays, pandas
Series, nulls, empty input, wrong types), and idkit.dask.validate_frame from a Parquet file on a
LocalCluster of 2 worker processes."""
import datetime
import json
import os
import random
import subprocess
import sys

import pytest

pa = pytest.importorskip("pyarrow")
import idkit  # noqa: E402

from support import ROOT, built  # noqa: E402

COUNT = 200_000
SPECIMEN = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n"
            "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
CHECK_DIGITS = {"checkDigitDocumentNumber": "documentNumber", "checkDigitDateOfBirth": "dateOfBirth",
                "checkDigitDateOfExpiry": "dateOfExpiry", "checkDigitOptionalData": "optionalData",
                "checkDigitComposite": "composite"}




def damaged_mrzs(count: int, seed: int) -> list:
    """Generated MRZs (idkit-bench make-stream); every fifth damaged: a character changed (a check
    digit fails or a field breaks), one deleted (a line's length), one made lower-case, or the
    text cut to its first line."""
    stream = subprocess.run([str(built("idkit-bench")), "make-stream", str(count), "--seed", str(seed), "--allow-debug"],
                            capture_output=True, check=True).stdout.decode()
    texts = [r for r in stream.split("\n\n") if r]
    rng = random.Random(seed)
    for i in range(0, count, 5):
        text = texts[i]
        k = rng.randrange(len(text))
        if text[k] == "\n":
            continue
        kind = (i // 5) % 4
        if kind == 0:
            texts[i] = text[:k] + rng.choice("0123456789<ABZ") + text[k + 1:]
        elif kind == 1:
            texts[i] = text[:k] + text[k + 1:]
        elif kind == 2:
            texts[i] = text[:k] + text[k].lower() + text[k + 1:]
        else:
            texts[i] = text.split("\n")[0]
    return texts


def row_as_json(row: dict) -> dict:
    """A table row in the shape of the `validate --json` record members it holds."""
    date = lambda d: d.isoformat() if d is not None else None  # noqa: E731
    fields = {name: row[name] for name in ("documentCode", "issuingState", "documentNumber", "primaryIdentifier",
                                           "secondaryIdentifier", "nationality", "sex", "optionalData1", "optionalData2")}
    fields["dateOfBirth"] = row["dateOfBirthRaw"]
    fields["dateOfExpiry"] = row["dateOfExpiryRaw"]
    return {"format": row["format"], "valid": row["valid"], "validWithDeviations": row["validWithDeviations"],
            "fields": fields, "checkDigits": {json_name: row[column] for column, json_name in CHECK_DIGITS.items()},
            "errors": row["errors"], "warnings": row["warnings"], "deviations": row["deviations"],
            "resolvedDates": {"dateOfBirth": date(row["dateOfBirth"]), "dateOfExpiry": date(row["dateOfExpiry"])},
            "lines": row["lines"]}


def record_as_row_json(record: dict) -> dict:
    """The members of a `validate --json` record the table holds, issues as their codes."""
    out = {k: record[k] for k in ("format", "valid", "validWithDeviations", "fields", "checkDigits", "resolvedDates", "lines")}
    for k in ("errors", "warnings", "deviations"):
        out[k] = [issue["code"] for issue in record[k]]
    return out


def test_the_table_equals_the_command_lines_json_field_for_field(tmp_path):
    texts = damaged_mrzs(COUNT, 40)
    path = tmp_path / "mrzs.txt"
    path.write_text("\n\n".join(texts) + "\n")
    cli = subprocess.run([str(built("idkit")), "validate", "--json", "--reference-date", "2025-01-01", str(path)],
                         capture_output=True, check=False)
    expected = [json.loads(line) for line in cli.stdout.splitlines()]
    assert len(expected) == COUNT

    table = idkit.validate_table(texts, reference_date="2025-01-01")
    assert table.num_rows == COUNT
    rows = table.to_pylist()
    mismatches = [i for i, (row, record) in enumerate(zip(rows, expected)) if row_as_json(row) != record_as_row_json(record)]
    assert mismatches[:5] == [], (rows[mismatches[0]], expected[mismatches[0]]) if mismatches else None
    verdicts = [row["verdict"] for row in rows]
    assert verdicts == ["valid" if r["valid"] else "invalid" if r["format"] else "notAnMRZ" for r in expected]
    # The damage gives every kind of row.
    assert {"valid", "invalid", "notAnMRZ"} == set(verdicts)
    assert 0.8 * COUNT < verdicts.count("valid") < 0.9 * COUNT  # a fifth damaged, some harmlessly
    # From an Arrow array the same table.
    assert idkit.validate_table(pa.array(texts), reference_date="2025-01-01").equals(table)


def test_types_nulls_and_options():
    table = idkit.validate_table([SPECIMEN, None, "HELLO", SPECIMEN.replace("<<<<<10", "<<<<<11")], reference_date="2010-01-01")
    assert table.schema.field("dateOfBirth").type == pa.date32()
    assert table.schema.field("valid").type == pa.bool_()
    assert table.schema.field("errors").type == pa.list_(pa.string())
    assert table.schema.field("format").type == pa.dictionary(pa.int8(), pa.string())
    rows = table.to_pylist()
    assert rows[0]["dateOfBirth"] == datetime.date(1974, 8, 12) and rows[0]["dateOfExpiry"] == datetime.date(2012, 4, 15)
    assert rows[0]["documentNumber"] == "L898902C3" and rows[0]["optionalData2"] is None and rows[0]["verdict"] == "valid"
    assert rows[1]["valid"] is None and rows[1]["errors"] == ["nullInput"] and rows[1]["verdict"] is None
    assert rows[1]["lines"] is None and rows[1]["format"] is None
    assert rows[2]["valid"] is False and rows[2]["errors"] == ["lineCount"] and rows[2]["lines"] == ["HELLO"]
    assert rows[3]["checkDigitComposite"] == "invalid" and rows[3]["errors"] == ["invalidCheckDigit"]
    assert all(row["correction"] is None for row in rows)

    # With correct=True: an O read for a 0 in the date of birth is corrected; a wrong letter in
    # the number that the check digit cannot single out stays, `ambiguous`, and is not valid.
    damaged = [SPECIMEN.replace("7408122", "74O8122"), SPECIMEN.replace("L898902C3", "L898902CE")]
    fixed = idkit.validate_table(damaged, correct=True, reference_date="2010-01-01").to_pylist()
    assert fixed[0]["dateOfBirthRaw"] == "740812" and fixed[0]["correction"] == "corrected" and fixed[0]["verdict"] == "valid"
    assert fixed[0]["lines"][1] == SPECIMEN.split("\n")[1]
    assert fixed[1]["correction"] == "ambiguous" and fixed[1]["verdict"] == "invalid"
    for text, row in zip(damaged, fixed):
        assert row_as_json(row) == record_as_row_json(idkit.validate_mrz(text, correct=True, reference_date="2010-01-01"))


def test_inputs_of_every_form():
    pd = pytest.importorskip("pandas")
    texts = [SPECIMEN, "X", None]
    reference = idkit.validate_table(texts)
    assert idkit.validate_table(pa.array(texts)).equals(reference)
    assert idkit.validate_table(pa.array(texts, pa.large_string())).equals(reference)
    assert idkit.validate_table(pa.chunked_array([texts[:1], texts[1:]])).to_pylist() == reference.to_pylist()
    assert idkit.validate_table(pd.Series(texts)).to_pylist() == reference.to_pylist()
    assert idkit.validate_table(tuple(texts)).equals(reference)
    # A sliced array starts at its offset.
    assert idkit.validate_table(pa.array(["junk"] + texts).slice(1)).equals(reference)

    empty = idkit.validate_table([])
    assert empty.num_rows == 0 and empty.schema == reference.schema
    assert idkit.validate_table(pa.array([], pa.string())).num_rows == 0


def test_what_is_not_text_raises_type_error():
    with pytest.raises(TypeError, match=r"texts\[1\] must be str or None, not int"):
        idkit.validate_table([SPECIMEN, 7])
    with pytest.raises(TypeError, match="not Arrow type int64"):
        idkit.validate_table(pa.array([1, 2]))
    with pytest.raises(TypeError, match="not one str"):
        idkit.validate_table(SPECIMEN)
    with pytest.raises(TypeError, match=r"texts\[0\] must be str or None, not dict"):
        idkit.validate_table([{"mrz": SPECIMEN}])


def test_aamva_table_equals_the_json():
    payloads = [p.read_bytes() for p in sorted((ROOT / "TestVectors/aamva/generated").glob("*.bin"))]
    assert len(payloads) >= 5
    table = idkit.parse_aamva_table(payloads + [b"not a payload", None])
    rows = table.to_pylist()
    assert table.schema.field("dateOfBirth").type == pa.date32()
    assert table.schema.field("elements").type == pa.map_(pa.string(), pa.string())
    for payload, row in zip(payloads, rows):
        report = idkit.parse_aamva(payload)
        for name, value in report["fields"].items():
            got = row[name]
            if isinstance(got, datetime.date):
                got = got.isoformat()
            assert got == value, name
        for name in ("version", "jurisdictionVersion", "iin", "jurisdiction", "jurisdictionName", "country", "encoding", "fileType",
                     "numberOfEntries"):
            assert row[name] == report[name], name
        assert dict(row["elements"]) == report["elements"]
        assert row["warnings"] == [w["code"] for w in report["warnings"]]
        assert row["error"] is None
    assert rows[-2]["error"] == "notAAMVA" and rows[-2]["errorOffset"] == 0 and rows[-2]["lastName"] is None
    assert rows[-1]["error"] == "nullInput" and rows[-1]["elements"] is None
    with pytest.raises(TypeError, match=r"payloads\[0\] must be str or bytes or None, not int"):
        idkit.parse_aamva_table([3])


def test_a_table_alive_at_shutdown_is_freed_without_a_crash():
    # Tables held where the interpreter frees them last (sys, a Dask client's queues) are
    # released after the idkit modules are gone: their release callbacks must still be mapped.
    code = ("import sys, idkit\n"
            f"sys._kept = [idkit.validate_table([{SPECIMEN!r}]), idkit.parse_aamva_table([b'not a payload'])]\n"
            "print(sys._kept[0].num_rows, sys._kept[1].num_rows)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "SWIFT_BACKTRACE": "enable=no"})
    assert (run.returncode, run.stdout) == (0, "1 1\n"), run.stderr[-2000:]


def test_dask_validate_frame_from_parquet_on_two_workers(tmp_path):
    distributed = pytest.importorskip("distributed")
    pytest.importorskip("pandas")
    import dask.dataframe as dd
    import pyarrow.parquet as pq

    import idkit.dask

    texts = damaged_mrzs(20_000, 41)
    pq.write_table(pa.table({"mrz": texts}), tmp_path / "mrzs.parquet", row_group_size=2_500)
    expected = idkit.validate_table(texts, reference_date="2025-01-01")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        frame = dd.read_parquet(str(tmp_path / "mrzs.parquet"), split_row_groups=True)
        assert frame.npartitions > 2
        checked = idkit.dask.validate_frame(frame, "mrz", reference_date="2025-01-01")
        assert list(checked.columns) == expected.column_names
        result = checked.compute()
        kept = idkit.dask.validate_frame(frame, "mrz", keep_columns=True, reference_date="2025-01-01").head(3)
    assert len(result) == len(texts)
    assert result["valid"].sum() == sum(v for v in expected.column("valid").to_pylist() if v)
    got = pa.Table.from_pandas(result.reset_index(drop=True), preserve_index=False).to_pylist()
    assert got == expected.to_pylist()
    assert list(kept.columns)[:2] == ["mrz", "format"] and kept["mrz"].iloc[0] == texts[0]
