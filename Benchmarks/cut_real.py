#!/usr/bin/env python3
"""The real specimens of ../shared/testdata/mrz-real cut through their MRZ, for `make bench-real-cut`.

    python3 Benchmarks/cut_real.py IDKIT REAL_DIR OUT_DIR

A photo taken too close cuts the document, and with it the MRZ's first or last characters (issue
12 counts "a line whose first character is cut off" among the failures on real images) or the
foot of its last line. For every specimen whose MRZ IDKit finds upright, six copies are cut: at
the image's left or right edge through the middle of the first (last) character cell and just
past the whole cell, and at the bottom a quarter and a half of a character height into the last
line; and two crops of the zone alone, with a margin of a tenth and of three tenths of a character
height around it (what a pipeline that crops the MRZ before reading it sends). The cut falls where `IDKIT scan --json` places the band on the whole image (its quad runs
half a pitch beyond the end characters and half a cap height, `quality.mrzCharHeightPx`, below
the last line's center; IDKit reads all 33 whole images' lines exactly but one name).
The copies stay in OUT_DIR (the build folder): the specimens' licenses are not the project's.

Then each copy is scanned, and per kind of cut the table gives:
  - in view: every character the cut left in view read as printed (the lines' lengths right; for
    a cut at the bottom, every line above the cut one);
  - exact: the whole lines as printed, the cut character too (the layout and check digits can
    restore some; a letter nobody saw is a guess);
  - verified, and verified but wrong (must be 0: nothing cut may be vouched for unless the
    check digits leave it one way only);
  - hint: `quality.hints` holds `documentPartiallyVisible`.
Needs pillow (PyPI).
"""
import json
import os
import subprocess
import sys

from PIL import Image

CUTS = [("left", 0.5), ("left", 1.0), ("right", 0.5), ("right", 1.0), ("bottom", 0.25), ("bottom", 0.5),
        ("zone", 0.1), ("zone", 0.3)]


def scan(idkit, path):
    out = subprocess.run([idkit, "scan", path, "--json", "--no-barcodes"], capture_output=True, text=True).stdout
    return json.loads(out)


def make(idkit, real, out):
    rows = []
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    for line in open(os.path.join(real, "labels.jsonl")):
        label = json.loads(line)
        whole = scan(idkit, os.path.join(real, label["file"]))
        mrz = whole.get("mrz") or {}
        quad, lines = mrz.get("quad"), mrz.get("lines") or []
        cap = (whole.get("quality") or {}).get("mrzCharHeightPx")
        if not quad or not lines or not cap:
            continue
        (x0, y0), (x1, y1) = quad[0], quad[1]
        if x1 <= x0 or abs(y1 - y0) > 0.1 * (x1 - x0):     # upright bands only
            continue
        pitch = (x1 - x0) / len(lines[0])
        left, right = min(quad[0][0], quad[3][0]), max(quad[1][0], quad[2][0])
        bottom = max(quad[2][1], quad[3][1])
        base = os.path.splitext(os.path.basename(label["file"]))[0]
        with Image.open(os.path.join(real, label["file"])) as im:
            im = im.convert("RGB")
            for side, cells in CUTS:
                name = f"images/{base}_{side}{cells:g}.png"
                path = os.path.join(out, name)
                if not os.path.exists(path):
                    top = min(quad[0][1], quad[1][1])
                    margin = cells * cap
                    box = {"left": (int(left + cells * pitch), 0, im.width, im.height),
                           "right": (0, 0, int(right - cells * pitch), im.height),
                           "bottom": (0, 0, im.width, int(bottom - cells * cap)),
                           "zone": (max(0, int(left - margin)), max(0, int(top - margin)),
                                    min(im.width, int(right + margin) + 1), min(im.height, int(bottom + margin) + 1))}[side]
                    im.crop(box).save(path)
                rows.append((side, cells, name, label["mrz"]))
    return rows


def main():
    idkit, real, out = sys.argv[1:4]
    rows = make(idkit, real, out)
    print(f"{'cut':<18}{'images':>7}{'in view':>9}{'exact':>7}{'verified':>10}{'wrong':>7}{'hint':>6}")
    for side, cells in CUTS:
        mine = [r for r in rows if r[0] == side and r[1] == cells]
        counts = [0] * 5
        for _, _, name, truth in mine:
            d = scan(idkit, os.path.join(out, name))
            mrz = d.get("mrz") or {}
            read = mrz.get("lines") or []
            shaped = len(read) == len(truth) and all(len(a) == len(b) for a, b in zip(read, truth))
            keep = {"left": lambda s: s[1:], "right": lambda s: s[:-1], "bottom": lambda s: s, "zone": lambda s: s}[side]
            above = slice(0, -1) if side == "bottom" else slice(None)
            verified = mrz.get("verified") is True
            counts[0] += shaped and all(keep(a) == keep(b) for a, b in zip(read[above], truth[above]))
            counts[1] += read == truth
            counts[2] += verified
            counts[3] += verified and read != truth
            counts[4] += "documentPartiallyVisible" in ((d.get("quality") or {}).get("hints") or [])
        unit = "cell" if side in ("left", "right") else "height"
        print(f"{side + f' {cells:g} {unit}':<18}{len(mine):>7}" + "".join(f"{c:>{w}}" for c, w in zip(counts, [9, 7, 10, 7, 6])))


if __name__ == "__main__":
    main()
