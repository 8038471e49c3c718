"""Every JSON contract against its schema in docs/schemas (`make schemas`): the command line's
outputs on the bundled test vectors, the Python package's results, the C interface's errors and
the service's answers, each validated with PyPI's jsonschema (draft 2020-12).

The schemas are closed (no member they do not list) and list every member a contract always
writes as required, so a member that goes missing, changes type or appears undescribed fails here.
"""
import base64
import contextlib
import json
import pathlib
import socket
import subprocess
import time
import urllib.error
import urllib.request

import jsonschema
import pytest

import idkit
from idkit import _native

ROOT = pathlib.Path(__file__).resolve().parents[2]
VECTORS = ROOT / "TestVectors"
SCHEMAS = ROOT / "docs" / "schemas"
SHARED = ROOT.parent / "shared" / "testdata"
SPECIMEN = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n"
            "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
TD1 = ["I<UTOL898902C<3<<<<<<<<<<<<<<<", "6908061F9406236UTO<<<<<<<<<<<2", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"]

# Photos that between them give every scan status the bundled vectors reach: read and verified,
# uncertain, misprinted, too small, two documents in one photo, barcodes, other image formats.
SCAN_IMAGES = [
    "images/clean-00-td3.jpg", "images/tilt-01-td1.jpg", "images/french-00-id.jpg", "images/misprinted-00-td3.jpg",
    "images/blur-02-td2.jpg", "images/lowres-01-td1.jpg", "images/upside-00-td3.jpg", "images/documents/pair-00.jpg",
    "images/conditions/occlusion-00-td3.jpg", "images/formats/gray.gif", "images/formats/lossless.webp",
    "pdf417/images/phone-00.jpg",
]


def schema(name: str) -> jsonschema.protocols.Validator:
    document = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def check(name: str, value) -> None:
    errors = sorted(schema(name).iter_errors(value), key=lambda e: list(e.absolute_path))
    assert not errors, f"{name}: " + "; ".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5])


def binary() -> pathlib.Path:
    for config in ("debug", "release"):
        path = ROOT / ".build" / config / "idkit"
        if path.exists():
            return path
    pytest.skip("no built idkit binary: run swift build first")


def run(*arguments: str, stdin: bytes = b"") -> list:
    """The JSON lines `idkit ARGUMENTS` prints (any exit status: errors are contracts too)."""
    result = subprocess.run([str(binary()), *arguments], input=stdin, capture_output=True, check=False, cwd=ROOT)
    lines = [json.loads(line) for line in result.stdout.decode().splitlines() if line.strip()]
    assert lines, f"idkit {' '.join(arguments)} printed no JSON (exit {result.returncode}): {result.stderr.decode()[:300]}"
    return lines


def check_lines(name: str, lines: list) -> None:
    """Results against `name`, the error objects the commands print instead against cli-error."""
    for line in lines:
        check("cli-error" if "error" in line else name, line)


def test_every_schema_is_a_valid_draft_2020_12_schema():
    names = sorted(p.name for p in SCHEMAS.glob("*.schema.json"))
    assert names, "no schema files in docs/schemas"
    for path in SCHEMAS.glob("*.schema.json"):
        document = json.loads(path.read_text())
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema", path.name
        jsonschema.Draft202012Validator.check_schema(document)


def test_validate_json_of_the_bundled_mrzs():
    lines = run("validate", "--json", "--reference-date", "2025-01-01", str(VECTORS / "mrz" / "samples.txt"))
    check_lines("validate", lines)
    # Corrected records carry `correction`; text that is not an MRZ carries its error in `errors`.
    check_lines("validate", run("validate", "--json", "--correct", "-", stdin=SPECIMEN.replace("0", "O").encode()))
    check_lines("validate", run("validate", "--json", "-", stdin=b"NOT AN MRZ\n\nP<UTO\n"))
    json_records = b'{"mrz": "' + SPECIMEN.replace("\n", "\\n").encode() + b'", "id": "a-1"}\n{"lines": ["X"]}\n'
    check_lines("validate", run("validate", "--json", "-", stdin=json_records))


def test_aamva_json_of_the_bundled_payloads_and_an_error():
    payloads = sorted((VECTORS / "aamva" / "generated").glob("*.bin"))[:20] + sorted((VECTORS / "aamva" / "public").glob("*.txt"))[:10]
    assert payloads
    for payload in payloads:
        check_lines("aamva", run("aamva", "--json", str(payload)))
    not_aamva = run("aamva", "--json", "-", stdin=b"hello")
    assert "error" in not_aamva[0]
    check_lines("aamva", not_aamva)


def test_barcode_json_of_the_bundled_images():
    images = sorted(str(p) for p in (VECTORS / "pdf417" / "images").glob("*.*") if p.suffix in (".png", ".jpg"))[:8]
    lines = run("barcode", "--json", *images, str(VECTORS / "images" / "clean-00-td3.jpg"), str(VECTORS / "mrz" / "samples.txt"))
    assert any(line.get("barcodes") for line in lines) and any(line.get("errors") for line in lines)
    check_lines("barcode", lines)


def test_scan_json_of_the_bundled_photos():
    lines = run("scan", "--json", "--reference-date", "2025-01-01", *(str(VECTORS / p) for p in SCAN_IMAGES),
                str(VECTORS / "mrz" / "samples.txt"))
    statuses = {line["status"] for line in lines}
    assert {"ok", "unsupportedImage"} <= statuses, statuses
    check_lines("scan", lines)


def test_scan_json_with_the_visual_zone():
    lines = run("scan", "--json", "--viz", "--reference-date", "2025-01-01", str(VECTORS / "images" / "clean-00-td3.jpg"))
    assert lines[0]["viz"] is not None and lines[0]["viz"]["side"] == "front"
    assert lines[0]["documents"][0]["viz"] == lines[0]["viz"]
    check_lines("scan", lines)
    scanned = idkit.scan(VECTORS / "images" / "clean-00-td3.jpg", reference_date="2025-01-01", viz=True)
    assert scanned["viz"] == lines[0]["viz"]
    check("scan", scanned)


def test_merge_json_of_the_bundled_cases_and_an_error(tmp_path):
    cases = json.loads((VECTORS / "document" / "merge-cases.json").read_text())["cases"]
    for case in cases:
        document = dict(case["input"])
        if "barcodeFile" in document:
            path = VECTORS / "document" / document.pop("barcodeFile")
            document["barcode"] = base64.b64encode(path.read_bytes()).decode()
        check_lines("merge", run("merge", "--json", "-", stdin=json.dumps(document).encode()))
    check_lines("merge", run("merge", "--json", "--redact", "dateOfBirth,documentNumber", "-",
                             stdin=json.dumps(cases[0]["input"]).encode()))
    bad = run("merge", "--json", "-", stdin=b'{"viz": {"front": {"shoeSize": "9"}}}')
    assert "error" in bad[0]
    check_lines("merge", bad)


def test_bac_json_and_its_errors():
    check_lines("bac", run("bac", "--json", *TD1))
    check_lines("bac", run("bac", "--json", "--can", "123456"))
    check_lines("bac", run("bac", "--json", "--document-number", "L898902C", "--birth", "690806", "--expiry", "940623",
                           "--rnd-ic", "4608F91988702212", "--rnd-ifd", "781723860C06C226", "--k-ifd", "0B795240CB7049B01C19B33E32804F0B"))
    bad = run("bac", "--json", "--document-number", "L898902C", "--birth", "690806", "--expiry", "940623",
              "--rnd-ic", "4608F91988702212", "--rnd-ifd", "781723860C06C226", "--k-ifd", "0B795240CB7049B01C19B33E32804F0B",
              "--card-response", "00" * 40)
    assert "error" in bad[0]
    check_lines("bac", bad)


def test_chip_json_of_the_shared_samples():
    emrtd = SHARED / "emrtd"
    if not emrtd.is_dir():
        pytest.skip("no ../shared/testdata/emrtd")
    folders = [p for p in sorted(emrtd.iterdir()) if p.is_dir() and (p / "EF_SOD.bin").exists()]
    folders += [p for p in sorted((emrtd / "real-documents").iterdir()) if p.is_dir()][:4] if (emrtd / "real-documents").is_dir() else []
    assert folders
    for folder in folders:
        check_lines("chip-verify", run("chip", "verify", "--json", "--reference-date", "2025-01-01", str(folder)))
    keys = ["--ks-enc", "979EC13B1CBFE9DCD01AB0FED307EAE5", "--ks-mac", "F1CB1F1FB5ADF208806B89DC579DC1F8", "--ssc", "887022120C06C226"]
    check_lines("chip-apdu", run("chip", "apdu", "--json", *keys, "--wrap", "00A4020C02011E"))
    check_lines("chip-apdu", run("chip", "apdu", "--json", *keys, "--unwrap", "990290008E08FA855A5D4C50A8ED9000"))
    check_lines("chip-apdu", run("chip", "apdu", "--json", *keys, "--unwrap", "990290008E0800000000000000009000"))


def test_python_package_results():
    check("validate", idkit.validate_mrz(SPECIMEN, reference_date="2010-01-01"))
    check("validate", idkit.validate_mrz(SPECIMEN.replace("0", "O"), correct=True))
    for record in idkit.validate_many([SPECIMEN, "\n".join(TD1), "garbage"]):
        check("validate", record)
    payload = sorted((VECTORS / "aamva" / "generated").glob("*.bin"))[0].read_bytes()
    check("aamva", idkit.parse_aamva(payload))
    barcodes = idkit.read_barcodes(VECTORS / "pdf417" / "images" / "phone-00.jpg")
    assert barcodes["barcodes"]
    check("barcode", barcodes)
    check("scan", idkit.scan(VECTORS / "images" / "clean-00-td3.jpg", reference_date="2025-01-01"))
    check("merge", idkit.merge({"mrz": SPECIMEN.split("\n"), "referenceDate": "2010-06-01"}))
    check("bac", idkit.bac_keys(TD1))


def raw_call(function, data: bytes, options: bytes = None):
    """The status and JSON of a C interface call, errors included (the package raises on them)."""
    pointer = function(data, len(data), options or _native._NULL)
    try:
        return pointer.status, json.loads(_native._unpack(pointer.json, pointer.length))
    finally:
        _native._free(pointer)


def test_c_interface_errors():
    calls = [
        (_native.mrz_validate, SPECIMEN.encode(), b'{"referenceDate": "tomorrow"}'),
        (_native.mrz_validate, SPECIMEN.encode(), b'{"frobnicate": true}'),
        (_native.aamva_parse, b"hello", None),
        (_native.barcode_read, b"not an image", None),
        (_native.scan, b"\x89PNG\r\n\x1a\n", None),
        (_native.merge, b'{"viz": {"front": {"shoeSize": "9"}}}', None),
        (_native.bac_keys, b'{"documentNumber": "L898902C"}', None),
        (_native.bac_keys, b'{"can": "12x"}', None),
    ]
    for function, data, options in calls:
        status, value = raw_call(function, data, options)
        assert status != _native.IDKIT_OK, value
        check("c-error", value)


@contextlib.contextmanager
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([str(binary()), "serve", "--listen", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
                break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def post(base: str, path: str, body: bytes, content_type: str):
    request = urllib.request.Request(base + path, data=body, headers={"Content-Type": content_type}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.headers.get("Content-Type"), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type"), error.read()


def test_service_answers_and_problems():
    photo = (VECTORS / "images" / "clean-00-td3.jpg").read_bytes()
    barcode_photo = (VECTORS / "pdf417" / "images" / "phone-00.jpg").read_bytes()
    payload = sorted((VECTORS / "aamva" / "generated").glob("*.bin"))[0].read_bytes()
    requests = [
        ("validate", "/v1/mrz", json.dumps({"mrz": SPECIMEN, "id": "x"}).encode(), "application/json"),
        ("validate", "/v1/mrz?correct=true", SPECIMEN.replace("0", "O").encode(), "text/plain"),
        ("aamva", "/v1/aamva", payload, "application/octet-stream"),
        ("barcode", "/v1/barcode", barcode_photo, "image/jpeg"),
        ("scan", "/v1/scan?referenceDate=2025-01-01", photo, "image/jpeg"),
        ("merge", "/v1/merge", json.dumps({"mrz": SPECIMEN.split("\n")}).encode(), "application/json"),
        ("bac", "/v1/bac", json.dumps({"lines": TD1}).encode(), "application/json"),
        ("problem", "/v1/aamva", b"hello", "application/octet-stream"),
        ("problem", "/v1/scan", b"not an image", "application/octet-stream"),
        ("problem", "/v1/merge", b"{", "application/json"),
        ("problem", "/v1/bac", b'{"rndIC": "zz", "lines": []}', "application/json"),
        ("problem", "/v1/mrz", SPECIMEN.encode(), "image/png"),
    ]
    with server() as base:
        for name, path, body, content_type in requests:
            status, answer_type, answer = post(base, path, body, content_type)
            assert (status >= 400) == (name == "problem"), (path, status, answer[:300])
            if name == "problem":
                assert answer_type == "application/problem+json"
            for line in answer.decode().splitlines():
                check(name, json.loads(line))


def test_the_schemas_refuse_what_the_contracts_never_write():
    record = idkit.validate_mrz(SPECIMEN)
    check("validate", record)
    broken = [
        {k: v for k, v in record.items() if k != "resolvedDates"},               # a member gone
        dict(record, confidence=1.0),                                            # a member not described
        dict(record, fields=dict(record["fields"], documentNumber=9)),           # a type changed
        dict(record, checkDigits=dict(record["checkDigits"], composite="ok")),   # a value outside its enum
    ]
    for value in broken:
        assert list(schema("validate").iter_errors(value)), value


def test_scan_json_of_both_sides_of_a_card():
    viz = VECTORS / "viz"
    lines = run("scan", "--json", "--reference-date", "2025-01-01", "--sides", str(viz / "card-a-front.png"), str(viz / "card-a-back.png"))
    assert lines[0]["sides"]["match"] is True
    check_lines("scan", lines)
    scanned = idkit.scan_sides(viz / "card-b-front.png", (viz / "card-a-back.png").read_bytes(), reference_date="2025-01-01")
    assert scanned["status"] == "sidesMismatch"
    assert scanned["sides"]["reasonKind"] == "otherCard"
    check("scan", scanned)
    # Two fronts: a result that says neither holds an MRZ, nothing merged.
    fronts = idkit.scan_sides(viz / "card-a-front.png", viz / "card-b-front.png")
    assert fronts["status"] == "mrzNotFound" and fronts["document"] is None
    assert fronts["sides"]["reasonKind"] == "noMachineReadableSide"
    with pytest.raises(idkit.IDKitError) as error:
        idkit.scan_sides(b"not an image", viz / "card-a-back.png")
    assert "front" in error.value.message
