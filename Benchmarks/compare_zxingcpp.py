#!/usr/bin/env python3
"""PyPI's zxing-cpp (3.x, the current release of the same C++ library, with Python bindings) on
the same PDF417 image set as `idkit-bench barcode-images DIR`, with the same table layout.

  python3 Benchmarks/compare_zxingcpp.py DIR     (DIR from TestVectors/pdf417/make_images.py --bench)

The image is decoded to gray before the clock starts, as in idkit-bench.
"""
import base64, collections, json, os, sys, time

import zxingcpp
from PIL import Image


def main():
    d = sys.argv[1]
    manifest = json.load(open(os.path.join(d, "manifest.json")))
    ok, n, ms, order = collections.Counter(), collections.Counter(), collections.defaultdict(list), []
    for e in manifest["images"]:
        img = Image.open(os.path.join(d, e["file"])).convert("L")
        img.load()
        expected = base64.b64decode(e["bytes"])
        t = time.perf_counter()
        found = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.PDF417)
        ms[e["variant"]].append((time.perf_counter() - t) * 1000)
        if e["variant"] not in order:
            order.append(e["variant"])
        n[e["variant"]] += 1
        ok[e["variant"]] += any(r.bytes == expected for r in found)
    med = lambda v: sorted(v)[len(v) // 2] if v else 0
    version = getattr(zxingcpp, "__version__", None)
    if version is None:
        from importlib.metadata import version as v
        version = v("zxing-cpp")
    print(f"PyPI zxing-cpp {version} on the same images (one core)")
    print("variant       images   exact        median ms")
    allms = []
    for v in order:
        allms += ms[v]
        print(f"{v:<14}{n[v]:6d}   {ok[v]:4d} ({100 * ok[v] / n[v]:3.0f}%)  {med(ms[v]):8.1f}")
    tn, tok = sum(n.values()), sum(ok.values())
    print(f"{'all':<14}{tn:6d}   {tok:4d} ({100 * tok / tn:3.0f}%)  {med(allms):8.1f}")


if __name__ == "__main__":
    main()
