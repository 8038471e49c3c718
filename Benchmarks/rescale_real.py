#!/usr/bin/env python3
"""The real specimens of ../shared/testdata/mrz-real made smaller, for `make bench-real-scales`.

    python3 Benchmarks/rescale_real.py REAL_DIR OUT_DIR 0.7 0.5 0.35

For each scale, OUT_DIR/s<scale>/images/ holds every image of REAL_DIR/images shrunk by that
factor (Pillow's Lanczos filter, saved as PNG so that no second JPEG loss is added), and
OUT_DIR/s<scale>/labels.jsonl the same labels with the new file names, so that `idkit-bench
scan-real OUT_DIR/s<scale>` reads them as it reads the originals. The copies stay in the build
folder: the specimens' licenses are not the project's, and nothing here is committed. A scale
whose folder is complete is not made again.

How the reader holds up as characters shrink (the originals' cap heights run from about 6 to
40 px, most 12-20) is what this measures: 0.5 puts most specimens near 8 px, 0.35 near 5 px.
Needs pillow (PyPI).
"""
import json
import os
import sys

from PIL import Image


def rescale(real, out, scale):
    folder = os.path.join(out, f"s{scale:g}")
    images = os.path.join(folder, "images")
    labels_out = os.path.join(folder, "labels.jsonl")
    if os.path.exists(labels_out):
        return folder
    os.makedirs(images, exist_ok=True)
    rows = []
    for line in open(os.path.join(real, "labels.jsonl")):
        label = json.loads(line)
        source = os.path.join(real, label["file"])
        base = os.path.splitext(os.path.basename(label["file"]))[0]
        with Image.open(source) as im:
            im = im.convert("RGB")
            size = (max(1, int(im.width * scale)), max(1, int(im.height * scale)))
            im.resize(size, Image.LANCZOS).save(os.path.join(images, base + ".png"))
        label["file"] = "images/" + base + ".png"
        rows.append(json.dumps(label))
    with open(labels_out + ".part", "w") as f:
        f.write("\n".join(rows) + "\n")
    os.replace(labels_out + ".part", labels_out)
    return folder


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    real, out = sys.argv[1], sys.argv[2]
    if not os.path.exists(os.path.join(real, "labels.jsonl")):
        sys.exit(f"rescale_real: no labels.jsonl in {real} (the shared real specimens are needed)")
    for s in sys.argv[3:]:
        scale = float(s)
        if not 0 < scale < 1:
            sys.exit(f"rescale_real: scale {s} is not between 0 and 1")
        print(rescale(real, out, scale))


if __name__ == "__main__":
    main()
