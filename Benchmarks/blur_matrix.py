#!/usr/bin/env python3
"""Blurred PDF417 symbols by module size and blur strength (issue 14: "blurred 4 px/module symbols
>= 80%"): IDKit (`idkit barcode --json`, whole process) and PyPI zxing-cpp on the same images.

Each cell: COUNT symbols of IDKit's generated AAMVA payloads (TestVectors/aamva/generated), drawn by
zint at MODULE pixels per module (TestVectors/pdf417/make_images.py's renderer), on a light card in
a 1200 x 900 gray scene, blurred with a Gaussian of sigma = STRENGTH x the module size, mild noise,
PNG. Seeded. Needs zint (Debian), pillow, numpy, zxing-cpp (PyPI).

    python3 Benchmarks/blur_matrix.py .build/release/idkit [OUT_DIR] [COUNT]
"""
import base64, json, os, random, subprocess, sys

import numpy as np
from PIL import Image, ImageFilter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "TestVectors", "pdf417"))
import make_images as gen  # noqa: E402

MODULES = [2.0, 3.0, 4.0]
STRENGTHS = [0.5, 0.6, 0.7, 0.8]


def main():
    idkit = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, ".build", "blur-matrix")
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    os.makedirs(out, exist_ok=True)
    import zxingcpp
    payloads = sorted(f for f in os.listdir(gen.PAYLOADS) if f.endswith(".bin"))
    rng = random.Random(14)
    print("PDF417 by module size and blur (sigma as a share of a module), %d symbols a cell" % count)
    print("module px  sigma      IDKit      zxing-cpp 3")
    for module in MODULES:
        for strength in STRENGTHS:
            ok_idkit = ok_zx = 0
            for k in range(count):
                payload = open(os.path.join(gen.PAYLOADS, payloads[(k * 7 + int(module * 10)) % len(payloads)]), "rb").read()
                symbol = gen.symbol_image(gen.modules(payload), module)
                W, H = 1200, 900
                canvas = Image.new("L", (W, H), rng.randint(60, 140))
                card = Image.new("L", (symbol.width + 120, symbol.height + 120), rng.randint(215, 245))
                card.paste(symbol, (60, 60))
                card = card.rotate(rng.uniform(-4, 4), expand=True, fillcolor=canvas.getpixel((0, 0)))
                x, y = (W - card.width) // 2 + rng.randint(-40, 40), (H - card.height) // 2 + rng.randint(-40, 40)
                canvas.paste(card, (max(0, x), max(0, y)))
                img = canvas.filter(ImageFilter.GaussianBlur(strength * module))
                arr = np.asarray(img).astype(np.float32) + np.random.default_rng(rng.randint(0, 1 << 30)).normal(0, 3, (H, W))
                img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
                path = os.path.join(out, "m%.0f-s%.2f-%02d.png" % (module, strength, k))
                img.save(path)
                r = subprocess.run([idkit, "barcode", "--json", path], capture_output=True, text=True)
                try:
                    first = json.loads(r.stdout.splitlines()[0])
                    read = [base64.b64decode(b["bytes"]) for b in first.get("barcodes", [])]
                except (ValueError, IndexError, KeyError):
                    read = []
                if payload in read:
                    ok_idkit += 1
                zx = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.PDF417)
                if any(z.bytes == payload for z in zx):
                    ok_zx += 1
            print("%-10.0f %-10.2f %3d/%-6d %3d/%d" % (module, strength, ok_idkit, count, ok_zx, count))


if __name__ == "__main__":
    main()
