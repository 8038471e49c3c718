"""The Python API over libidkit: each function's answer, its options, its errors (issue 16).

Run by `make test` in the virtual environment it makes (.build/python-venv), against the
package installed from python/ with the library just built.
"""
import datetime
import json
import importlib.metadata
import pathlib
import subprocess
import threading

import pytest

import idkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = ROOT / "TestVectors"
SPECIMEN = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n"
            "L898902C36UTO7408122F1204159ZE184226B<<<<<10")


def idkit_binary() -> pathlib.Path:
    for config in ("debug", "release"):
        path = ROOT / ".build" / config / "idkit"
        if path.exists():
            return path
    pytest.skip("no built idkit binary: run swift build first")


def test_the_package_uses_a_library_of_its_own_version():
    # The installed distribution's version (pyproject.toml) against the loaded library's.
    assert importlib.metadata.version("idkit") == idkit.version()
    assert idkit.__version__ == idkit.version()
    assert idkit._native._lib.idkit_abi_version() == idkit._native.ABI_VERSION


def test_validate_mrz_gives_the_record_of_validate_json():
    record = idkit.validate_mrz(SPECIMEN, reference_date="2010-01-01")
    assert record["valid"] is True
    assert record["format"] == "TD3"
    assert record["fields"]["documentNumber"] == "L898902C3"
    assert record["fields"]["secondaryIdentifier"] == "ANNA MARIA"
    assert record["resolvedDates"] == {"dateOfBirth": "1974-08-12", "dateOfExpiry": "2012-04-15"}
    # Member for member what the command line writes for the same MRZ (but `input`).
    cli = subprocess.run([str(idkit_binary()), "validate", "--json", "--reference-date", "2010-01-01", "-"],
                         input=SPECIMEN.encode(), capture_output=True, check=False)
    expected = json.loads(cli.stdout)
    assert {k: v for k, v in record.items() if k != "input"} == {k: v for k, v in expected.items() if k != "input"}
    assert record["input"] == {"source": "-", "line": 1}


def test_reference_date_accepts_a_date_object_and_resolves_the_century():
    fresh = idkit.validate_mrz(SPECIMEN, reference_date=datetime.date(2010, 1, 1))
    early = idkit.validate_mrz(SPECIMEN, reference_date=datetime.date(1970, 1, 1))
    assert fresh["resolvedDates"]["dateOfBirth"] == "1974-08-12"
    # A birth date after the reference date belongs to the century before.
    assert early["resolvedDates"]["dateOfBirth"] == "1874-08-12"
    with pytest.raises(TypeError):
        idkit.validate_mrz(SPECIMEN, reference_date=20100101)


def test_an_invalid_mrz_is_a_record_not_an_exception():
    record = idkit.validate_mrz("HELLO")
    assert record["valid"] is False
    assert record["errors"][0]["code"] == "lineCount"
    wrong_digit = SPECIMEN.replace("7408122F", "7408123F")
    record = idkit.validate_mrz(wrong_digit, reference_date="2010-01-01")
    assert record["valid"] is False
    assert record["checkDigits"]["dateOfBirth"] == "invalid"


def test_correct_repairs_a_confusion_the_check_digits_allow():
    confused = SPECIMEN.replace("7408122F", "74O8122F")
    assert idkit.validate_mrz(confused, reference_date="2010-01-01")["valid"] is False
    record = idkit.validate_mrz(confused, correct=True, reference_date="2010-01-01")
    assert record["valid"] is True
    assert record["fields"]["dateOfBirth"] == "740812"
    assert record["correction"]["outcome"] == "corrected"


def test_validate_many_keeps_order_and_count_whatever_the_items():
    items = [SPECIMEN, "HELLO", "", "{\"mrz\": \"x\"}", SPECIMEN + "\n\n" + SPECIMEN, SPECIMEN.encode(), "# comment"]
    records = idkit.validate_many(items, reference_date="2010-01-01")
    assert len(records) == len(items)
    singles = [idkit.validate_mrz(t, reference_date="2010-01-01") for t in items]
    strip = lambda r: {k: v for k, v in r.items() if k != "input"}
    assert [strip(r) for r in records] == [strip(r) for r in singles]
    assert [r["valid"] for r in records] == [True, False, False, False, False, True, False]


def test_validate_many_batches_a_large_input():
    n = 5000
    items = [SPECIMEN if i % 3 else SPECIMEN.replace("L898902C3", "L898902C4") for i in range(n)]
    records = idkit.validate_many(items, reference_date="2010-01-01")
    assert len(records) == n
    assert sum(r["valid"] for r in records) == n - (n + 2) // 3
    assert records[0]["checkDigits"]["documentNumber"] == "invalid"
    assert records[1]["valid"] is True
    with pytest.raises(TypeError, match="item 2"):
        idkit.validate_many([SPECIMEN, SPECIMEN, 5])


def test_bad_options_and_inputs_raise_idkit_error_with_kind_and_place():
    with pytest.raises(idkit.IDKitError) as error:
        idkit.validate_mrz(SPECIMEN, reference_date="2010-13-01")
    assert error.value.kind == "invalidOptions"
    assert "referenceDate" in error.value.message
    with pytest.raises(idkit.IDKitError) as error:
        idkit.parse_aamva(b"@\n\x1e\rANSI 6360")
    assert (error.value.kind, error.value.offset) == ("invalidHeader", 9)
    with pytest.raises(idkit.IDKitError) as error:
        idkit.parse_aamva(b"garbage")
    assert (error.value.kind, error.value.offset, error.value.line) == ("notAAMVA", 0, None)
    with pytest.raises(idkit.IDKitError) as error:
        idkit.read_barcodes(b"not an image")
    assert error.value.kind == "unsupportedFormat"
    assert error.value.status == 1


def test_parse_aamva_reads_a_payload():
    payload = (VECTORS / "aamva/generated/v10-dl-va.bin").read_bytes()
    result = idkit.parse_aamva(payload)
    assert result["version"] == 10
    assert result["jurisdiction"] == "VA"
    assert result["fields"]["lastName"] == "GARCIA"
    assert result["elements"]["DAQ"] == "Y17895625"
    assert result["fields"]["dateOfBirth"] == "1951-03-16"


def test_read_barcodes_and_scan_from_bytes_and_paths():
    image = VECTORS / "pdf417/images/blur-00.png"
    found = idkit.read_barcodes(image.read_bytes(), pdf417_only=True)
    assert found["file"] == "-"
    assert [b["format"] for b in found["barcodes"]] == ["PDF417"]
    assert idkit.read_barcodes(str(image))["barcodes"][0]["bytes"] == found["barcodes"][0]["bytes"]

    manifest = json.loads((VECTORS / "images/manifest.json").read_text())
    truth = next(i for i in manifest["images"] if i["file"] == "clean-00-td3.jpg")
    scanned = idkit.scan(VECTORS / "images" / "clean-00-td3.jpg", barcodes=False)
    assert scanned["status"] == "ok"
    assert scanned["mrz"]["lines"] == truth["lines"]
    assert scanned["mrz"]["verified"] is True


def test_scan_of_an_image_without_a_document_raises_not_found():
    png = subprocess.run(["python3", "-c", "import sys, zlib, struct\n"
                          "def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))\n"
                          "raw = b''.join(b'\\x00' + b'\\xff' * 200 for _ in range(200))\n"
                          "sys.stdout.buffer.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 200, 200, 8, 0, 0, 0, 0))"
                          " + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))"], capture_output=True, check=True).stdout
    with pytest.raises(idkit.IDKitError) as error:
        idkit.scan(png)
    assert error.value.status == 4
    assert error.value.kind in ("mrzNotFound", "imageTooSmall")


def test_an_image_over_the_limit_is_too_large_for_scan_and_barcodes():
    import struct, zlib
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    # Declares 7000 x 7000 (49 MP, over the 40 MP limit); its data holds one row.
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 7000, 7000, 8, 0, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(b"\x00" * 7001)) + chunk(b"IEND", b""))
    for call in (idkit.scan, idkit.read_barcodes):
        with pytest.raises(idkit.IDKitError) as error:
            call(png)
        assert error.value.kind == "tooLarge", call.__name__
        assert error.value.status == 3, call.__name__


def test_a_model_that_cannot_be_loaded_is_an_error_on_scan(tmp_path):
    # The library loads its models once per process: a fresh interpreter with IDKIT_MRZ_MODEL set.
    bad = tmp_path / "not-a-model.onnx"
    bad.write_bytes(b"not an ONNX model\n")
    code = ("import idkit, sys\n"
            "print(idkit.validate_mrz(sys.argv[2])['valid'])\n"
            "try:\n"
            "    idkit.scan(sys.argv[1])\n"
            "except idkit.IDKitError as e:\n"
            "    print(e.kind, e.status, str(e))\n")
    import os, sys
    env = dict(os.environ, IDKIT_MRZ_MODEL=str(bad))
    out = subprocess.run([sys.executable, "-c", code, str(VECTORS / "images" / "clean-00-td3.jpg"), SPECIMEN],
                         env=env, capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "True"
    assert out[1].startswith("modelUnavailable 5 ")
    assert "the MRZ recognizer cannot be loaded: OpenCV cannot read " + str(bad) in out[1]


def test_merge_and_bac_keys():
    lines = SPECIMEN.split("\n")
    result = idkit.merge({"mrz": lines, "referenceDate": "2010-01-01"})
    assert result["fields"]["documentNumber"]["value"] == "L898902C3"
    assert result["fields"]["documentNumber"]["source"] == "mrz"
    redacted = idkit.merge({"mrz": lines, "referenceDate": "2010-01-01"},
                           redaction={"default": {"mode": "resultFieldsOnly", "fields": ["documentNumber"]}})
    assert "documentNumber" in redacted["redacted"]
    assert redacted["fields"]["documentNumber"]["value"] != "L898902C3"
    with pytest.raises(idkit.IDKitError) as error:
        idkit.merge("[]")
    assert error.value.kind == "invalidInput"

    # ICAO 9303-11 Appendix D.1: document L898902C<, born 690806, expiring 940623.
    keys = idkit.bac_keys(document_number="L898902C<", date_of_birth="690806", date_of_expiry="940623")
    assert keys["kSeed"] == "239AB9CB282DAF66231DC5A4DF6BFBAE"
    assert keys["bacReady"] is True
    assert idkit.bac_keys(lines)["mrzInformation"] == "L898902C3674081221204159"
    with pytest.raises(idkit.IDKitError) as error:
        idkit.bac_keys(document_number="L898902C<")
    assert error.value.kind == "invalidRequest"


def test_merge_with_chip_files(tmp_path):
    """A whole document of IDKit's test PKI (TestVectors/chip/make_pki.sh): the chip comes first
    when its Document Signer chains to the CSCA given, last without it."""
    subprocess.run([str(VECTORS / "chip/make_pki.sh"), str(tmp_path)], check=True, capture_output=True)
    files = [(tmp_path / name).read_bytes() for name in ("sod/document.bin", "EF_DG1.bin", "EF_DG11.bin", "EF_DG12.bin")]
    document = {"mrz": SPECIMEN.split("\n"), "referenceDate": "2026-12-01"}
    trusted = idkit.merge(document, chip=files, csca=tmp_path / "csca")
    assert trusted["chip"]["passiveAuthentication"] == "passed"
    assert trusted["fields"]["documentNumber"]["source"] == "chip"
    assert trusted["fields"]["dateOfIssue"]["value"] == "2002-04-16"
    assert trusted["dataMatch"]["wholeDocument"] == "match"
    untrusted = idkit.merge(document, chip=files)
    assert untrusted["chip"]["passiveAuthentication"] == "incomplete"
    assert untrusted["fields"]["documentNumber"]["source"] == "mrz"
    assert [w["code"] for w in untrusted["warnings"]] == ["chipNotAuthenticated"]
    with pytest.raises(idkit.IDKitError) as error:
        idkit.merge(document, chip=files[1:])
    assert error.value.kind == "invalidChip"
    with pytest.raises(idkit.IDKitError) as error:
        idkit.merge(document, chip=files, csca=tmp_path / "csca", master_list=tmp_path / "x.ml")
    assert error.value.kind == "invalidOptions"


def test_threads_call_at_once_and_agree():
    results = [None] * 4

    def work(k):
        results[k] = [idkit.validate_mrz(SPECIMEN, reference_date="2010-01-01")["fields"]["documentNumber"] for _ in range(500)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == ["L898902C3"] * 500 for r in results)


def test_the_declarations_are_the_headers():
    """cffi is given idkit.h's declarations (_native._CDEF); they must be the header's, function for function."""
    import re

    header = (ROOT / "Sources/CIDKit/include/idkit.h").read_text()
    header = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
    prototype = re.compile(r"^[A-Za-z_][\w \*]*\bidkit_\w+\([^)]*\);", re.M)
    normal = lambda text: sorted(" ".join(p.split()) for p in prototype.findall(text))
    declared = normal(idkit._native._CDEF)
    assert declared == normal(header)
    assert len(declared) == 13  # the two Arrow exports among them
    fields = lambda text: " ".join(re.search(r"typedef struct idkit_result \{(.*?)\} idkit_result;", text, re.S).group(1).split())
    assert fields(idkit._native._CDEF) == fields(header)
    # The Arrow C Data Interface's structs, member for member.
    for name in ("ArrowSchema", "ArrowArray"):
        members = lambda text: " ".join(re.search(r"struct %s \{(.*?)\};" % name, text, re.S).group(1).split())
        assert members(idkit._native._CDEF) == members(header)
    assert re.search(r"#define IDKIT_ABI_VERSION (\d+)", header).group(1) == str(idkit._native.ABI_VERSION)
    statuses = dict(re.findall(r"\b(IDKIT_[A-Z_]+) = (\d+)", header))
    assert statuses == {name: str(getattr(idkit._native, name)) for name in statuses}
    assert len(statuses) == 6
