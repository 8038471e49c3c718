#!/usr/bin/env python3
"""Renders the 37 MRZ symbols (A-Z, 0-9, <) of OCR-B into the classifier's reference templates.

Source: the OCR-B font of Debian's fonts-ocr-b (/usr/share/fonts/opentype/ocr-b/OCRB.otf, the
free OCR-B by Matthew Skala, GPL with font exception). Writes
Sources/CIDKitData/ocrb-templates.gray (compiled into IDKit): for each symbol, a W x H cell of ink 0-255,
laid out as the reader cuts cells from a rectified MRZ line: horizontally centered on the glyph,
one character pitch wide (2.54 mm for a 2.4 mm cap height, ICAO 9303-3), vertically from 15% of
the cap height above the cap line to 15% below the baseline. Each symbol has two variants: sharp,
and blurred by a 1-pixel Gaussian (a scanned or photographed glyph).

Run: python3 scripts/make_ocrb_templates.py   (needs pillow, numpy and fonts-ocr-b)
"""
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"
W, H = 20, 26
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "CIDKitData", "ocrb-templates.gray")


def render(ch, scale=12):
    size = 40 * scale
    font = ImageFont.truetype(FONT, size)
    cap = font.getbbox("H", anchor="ls")
    cap_h = -cap[1]                      # ascent of H above the baseline
    pitch = cap_h * 2.54 / 2.4
    margin = 0.15 * cap_h
    cell_w, cell_h = pitch, cap_h + 2 * margin
    img = Image.new("L", (int(cell_w * 3), int(cell_h * 2)), 0)
    d = ImageDraw.Draw(img)
    bb = d.textbbox((0, 0), ch, font=font, anchor="ls")
    cx = (bb[0] + bb[2]) / 2
    ox, oy = img.size[0] / 2 - cx, margin + cap_h
    d.text((ox, oy), ch, fill=255, font=font, anchor="ls")
    left = img.size[0] / 2 - cell_w / 2
    crop = img.crop((int(round(left)), 0, int(round(left + cell_w)), int(round(cell_h))))
    return crop


def main():
    variants = []
    for blur in (0.0, 1.0):
        for ch in SYMBOLS:
            big = render(ch)
            small = big.resize((W, H), Image.LANCZOS)
            if blur:
                small = small.filter(ImageFilter.GaussianBlur(blur))
            variants.append((ch, np.asarray(small, dtype=np.uint8)))
    # Symbol-major within each variant, row by row: the layout OCRBTemplates.swift reads.
    with open(OUT, "wb") as f:
        for _, a in variants:
            f.write(a.astype(np.uint8).tobytes())


if __name__ == "__main__":
    main()
