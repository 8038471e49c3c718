#!/usr/bin/env python3
"""The zxing projects' own PDF417 suites (../shared/testdata/pdf417-zxing), judged as they judge:
IDKit's `idkit barcode` (the thorough reader) and `idkit scan` (the quick barcode search of the
document scanner), and PyPI zxing-cpp when installed, in one run.

IDKit and zxing-cpp are given the suites' own files (PNG, JPEG, WebP, GIF: IDKit decodes them all
since issue 14). A unit `image` is read when some barcode's
bytes equal the expectation (`.txt` compared as UTF-8 text, `.bin` as bytes); a Macro PDF417 set
(`sa:<group>`) when the segments read from its images, in segment-index order, join to the expectation.

    python3 Benchmarks/compare_pdf417_zxing.py [IDKIT] [DIR]
"""
import base64
import csv
import json
import os
import subprocess
import sys
import time

IDKIT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".build", "release", "idkit")
DIR = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "testdata", "pdf417-zxing")


def idkit_bytes(command, path):
    out = subprocess.run([IDKIT, command, "--json", path], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        found += [Found(base64.b64decode(b["bytes"]), (b.get("macro") or {}).get("segmentIndex", -1)) for b in o.get("barcodes", [])]
    return found


class Found(bytes):
    """A barcode's bytes with its Macro PDF417 segment index (-1 when it stands alone)."""
    def __new__(cls, data, index):
        b = super().__new__(cls, data)
        b.index = index
        return b


def zxingcpp_bytes(path):
    import zxingcpp
    from PIL import Image
    return [Found(r.bytes, getattr(r, "sequence_index", -1)) for r in
            zxingcpp.read_barcodes(Image.open(path), formats=zxingcpp.BarcodeFormat.PDF417)]


def main():
    rows = list(csv.DictReader(open(os.path.join(DIR, "manifest.tsv")), delimiter="\t"))
    try:
        import zxingcpp  # noqa: F401
        readers = ["barcode", "scan", "zxing-cpp"]
    except ImportError:
        readers = ["barcode", "scan"]
    results = {r: {} for r in readers}
    times = {r: [] for r in readers}
    for row in rows:
        src = os.path.join(DIR, row["image"])
        for r in readers:
            t = time.time()
            results[r][row["image"]] = zxingcpp_bytes(src) if r == "zxing-cpp" else idkit_bytes(r, src)
            times[r].append(time.time() - t)

    def expected(row):
        data = open(os.path.join(DIR, row["expected"]), "rb").read()
        return data.decode("utf-8") if row["kind"] == "txt" else data

    def matches(found, row):
        want = expected(row)
        return any((f.decode("utf-8", "replace") if row["kind"] == "txt" else f) == want for f in found)

    units = {}
    for row in rows:
        key = (row["suite"], row["unit"]) if row["unit"].startswith("sa:") else (row["suite"], row["image"])
        units.setdefault(key, []).append(row)
    unitsRead = {}
    for r in readers:
        read = 0
        unitsRead[r] = set()
        photos = [0, 0]
        for (suite, unit), members in units.items():
            if unit.startswith("sa:"):
                # Every segment found in the set's images, by segment index (images in order
                # when a reader gives no index), each index once.
                segments = {}
                for k, m in enumerate(sorted(members, key=lambda m: m["image"])):
                    for j, f in enumerate(results[r][m["image"]]):
                        segments.setdefault(f.index if f.index >= 0 else (k, j), f)
                joined = b"".join(bytes(segments[i]) for i in sorted(segments, key=lambda i: (i,) if isinstance(i, int) else i))
                want = expected(members[0])
                ok = (joined.decode("utf-8", "replace") if members[0]["kind"] == "txt" else joined) == want
            else:
                ok = all(matches(results[r][m["image"]], m) for m in members)
            read += ok
            if ok:
                unitsRead[r].add((suite, unit))
            if members[0]["capture"] == "photo":
                photos[0] += ok
                photos[1] += 1
        ts = sorted(times[r])
        print(f"{r:10s} units read {read}/{len(units)}  photos {photos[0]}/{photos[1]}  median {1000 * ts[len(ts) // 2]:.0f} ms per image (whole process)")
    if "zxing-cpp" in readers:
        for r in ("barcode", "scan"):
            missed = sorted(unitsRead["zxing-cpp"] - unitsRead[r])
            print(f"units zxing-cpp reads and idkit {r} does not: {len(missed)}" + "".join(f"\n  {s} {u}" for s, u in missed))


if __name__ == "__main__":
    main()
