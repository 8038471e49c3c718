#!/usr/bin/env python3
"""Renders both sides of ID-1 cards (ICAO 9303-5 TD1) for the scan's both-sides tests
(Tests/IDKitScanTests/CardSidesTests.swift): a front with the visual zone (portrait, names with
national characters, number, dates in the issuer's printed form) and a back with the MRZ and the
fields the MRZ lacks (date of issue, authority, place of birth); and the front of another card,
which must not be taken for the first card's; and the first card's back again with a Code 128
symbol of its number beside the captioned fields (zint, Debian's `zint`), which the visual zone's
reading must leave out.

Writes card-*.png and viz-cards.json (each card's MRZ and printed values). Everything is made
here: DejaVu Sans (fonts-dejavu-core) for the visual zone, OCR-B (fonts-ocr-b) for the MRZ,
made-up people, each side photographed on a desk at about 300 dpi. No randomness.

    python3 TestVectors/viz/make_viz_cards.py
"""
import json
import os
import subprocess
import tempfile

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from make_viz_pages import BOLD, DPMM, HERE, OCRB, SANS, check_digit, mrz_name

GERMAN_CAPTIONS = {"surname": "Name / Surname", "given": "Vornamen / Given names", "birth": "Geburtstag / Date of birth",
                   "expiry": "Gültig bis / Date of expiry", "number": "Ausweis-Nr. / Card No.",
                   "issue": "Ausstellungsdatum / Date of issue", "place": "Geburtsort / Place of birth",
                   "authority": "Behörde / Authority"}

CARDS = [
    {"id": "a", "state": "D", "number": "L01X00T47", "sex": "F", "nationality": "D", "surname": "MÜLLER",
     "given": "JOHANNA ELIF", "birth": "830614", "expiry": "320311",
     "printed": {"birth": "14.06.1983", "expiry": "11.03.2032", "issue": "12.03.2022", "place": "DÜSSELDORF",
                 "authority": "STADT DÜSSELDORF"},
     "captions": GERMAN_CAPTIONS},
    {"id": "b", "state": "D", "number": "T22K91R05", "sex": "M", "nationality": "D", "surname": "SCHRÖDER",
     "given": "KONSTANTIN", "birth": "910102", "expiry": "300825",
     "printed": {"birth": "02.01.1991", "expiry": "25.08.2030", "issue": "26.08.2020", "place": "LEIPZIG",
                 "authority": "STADT LEIPZIG"},
     "captions": GERMAN_CAPTIONS},
]


def td1_lines(c):
    """TD1 (ICAO 9303-5 §4.2): number, dates, nationality and the name over three lines of 30."""
    number = c["number"].ljust(9, "<")
    line1 = ("I<" + c["state"].ljust(3, "<") + number + check_digit(number)).ljust(30, "<")
    line2 = (c["birth"] + check_digit(c["birth"]) + c["sex"] + c["expiry"] + check_digit(c["expiry"])
             + c["nationality"].ljust(3, "<")).ljust(29, "<")
    composite = line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29]
    line2 += check_digit(composite)
    line3 = (mrz_name(c["surname"]) + "<<" + mrz_name(c["given"]).replace(" ", "<"))[:30].ljust(30, "<")
    return [line1, line2, line3]


def card_canvas():
    w, h = int(85.6 * DPMM), int(53.98 * DPMM)
    return Image.new("RGB", (w, h), (226, 234, 238)), w, h


def fonts():
    return ImageFont.truetype(SANS, 17), ImageFont.truetype(BOLD, 27), ImageFont.truetype(BOLD, 30)


def front(c):
    card, w, h = card_canvas()
    d = ImageDraw.Draw(card)
    caption, value, header = fonts()
    d.text((int(4 * DPMM), int(3 * DPMM)), "PERSONALAUSWEIS / IDENTITY CARD", fill=(40, 40, 90), font=header)
    px, py, pw, ph = int(4 * DPMM), int(12 * DPMM), int(24 * DPMM), int(32 * DPMM)
    d.rectangle([px, py, px + pw, py + ph], fill=(150, 140, 130))
    d.ellipse([px + pw // 4, py + ph // 8, px + 3 * pw // 4, py + 5 * ph // 8], fill=(190, 170, 150))
    left, right = int(32 * DPMM), int(62 * DPMM)
    rows = [[("surname", c["surname"], left)], [("given", c["given"], left)],
            [("birth", c["printed"]["birth"], left), ("number", c["number"], right)],
            [("expiry", c["printed"]["expiry"], left)]]
    y = int(11 * DPMM)
    for row in rows:
        for key, text, x in row:
            d.text((x, y), c["captions"][key], fill=(90, 90, 90), font=caption)
            d.text((x, y + 20), text, fill=(20, 20, 20), font=value)
        y += int(8.5 * DPMM)
    return card


def code128(text, height_mm):
    """A Code 128 symbol of `text` as zint draws it (no human-readable line), 3 px a module."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "code128.png")
        subprocess.run(["zint", "-b", "20", "--notext", "--scale=1.5", f"--height={height_mm * DPMM / 3:.0f}",
                        f"--data={text}", "-o", out], check=True, capture_output=True)
        return Image.open(out).convert("RGB")


def back(c, lines, barcode=False):
    card, w, h = card_canvas()
    d = ImageDraw.Draw(card)
    caption, value, _ = fonts()
    y = int(4 * DPMM)
    for key, text in [("issue", c["printed"]["issue"]), ("place", c["printed"]["place"]), ("authority", c["printed"]["authority"])]:
        d.text((int(5 * DPMM), y), c["captions"][key], fill=(90, 90, 90), font=caption)
        d.text((int(5 * DPMM), y + 20), text, fill=(20, 20, 20), font=value)
        y += int(7.5 * DPMM)
    if barcode:
        symbol = code128(c["number"], 9)
        card.paste(symbol, (w - symbol.width - int(5 * DPMM), int(6 * DPMM)))
    # Zone VII: OCR-B at 10 characters per inch, the lines about 3.5 mm apart, above the bottom edge.
    ocr = ImageFont.truetype(OCRB, int(round(3.4 * DPMM)))
    for k, line in enumerate(lines):
        base = h - int((1.5 + 3.53 * (3 - k)) * DPMM)
        for i, ch in enumerate(line):
            d.text((int(4.7 * DPMM + i * 2.54 * DPMM), base), ch, fill=(15, 15, 15), font=ocr)
    return card


def photographed(card, turn):
    """On a dark desk with a margin, turned a little, slightly soft."""
    w, h = card.size
    desk = Image.new("RGB", (w + 240, h + 240), (52, 46, 40))
    desk.paste(card, (120, 120))
    return desk.rotate(turn, resample=Image.BICUBIC, fillcolor=(52, 46, 40)).convert("L").filter(ImageFilter.GaussianBlur(0.6))


def main():
    manifest = {"source": "TestVectors/viz/make_viz_cards.py (DejaVu Sans, OCR-B, about 300 dpi, no randomness)", "cards": []}
    for k, c in enumerate(CARDS):
        lines = td1_lines(c)
        files = {"front": f"card-{c['id']}-front.png"}
        photographed(front(c), 2 - 3 * k).save(os.path.join(HERE, files["front"]), optimize=True)
        if k == 0:
            files["back"] = f"card-{c['id']}-back.png"
            photographed(back(c, lines), -1.5).save(os.path.join(HERE, files["back"]), optimize=True)
            files["backWithBarcode"] = f"card-{c['id']}-back-barcode.png"
            photographed(back(c, lines, barcode=True), -1.5).save(os.path.join(HERE, files["backWithBarcode"]), optimize=True)
        manifest["cards"].append({"files": files, "mrz": lines, "surname": c["surname"], "given": c["given"],
                                  "number": c["number"], "printed": c["printed"],
                                  **({"barcode": {"format": "Code128", "text": c["number"]}} if k == 0 else {})})
    with open(os.path.join(HERE, "viz-cards.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
