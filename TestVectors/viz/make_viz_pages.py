#!/usr/bin/env python3
"""Renders passport data pages whose visual zone prints what their MRZ holds, for the scan's
visual-zone tests (Tests/IDKitScanTests/GeneratedVisualZoneTests.swift): captions in the issuer's
language and English or French, names with national characters that the MRZ transliterates
(ICAO 9303-3 §6) and a name the MRZ cuts (§4.6), dates in each issuer's printed form, and the
fields the MRZ lacks (date of issue, place of birth, authority).

Writes page-*.png and viz-pages.json (each page's MRZ, the printed values and the values the scan
must find). Everything is made here: DejaVu Sans (fonts-dejavu-core) for the visual zone, OCR-B
(fonts-ocr-b) for the MRZ, made-up people. No randomness.

    python3 TestVectors/viz/make_viz_pages.py
"""
import json
import os

from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
OCRB = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"
DPMM = 300 / 25.4  # 300 dpi

# ICAO 9303-3 §6, the recommended forms of the characters these pages print.
TRANSLITERATION = {"Ä": "AE", "Å": "AA", "Ö": "OE", "Ü": "UE", "Ø": "OE", "Æ": "AE", "ß": "SS", "É": "E", "È": "E",
                   "Ê": "E", "Ë": "E", "Á": "A", "Í": "I", "Ó": "O", "Ú": "U", "Ñ": "N", "Ç": "C", "Ł": "L", "Ś": "S",
                   "Ą": "A", "Ę": "E", "Ż": "Z", "Ź": "Z", "Ć": "C", "Ń": "N", "Ã": "A", "Õ": "O"}

PAGES = [
    {"file": "page-deu.png", "state": "D", "nationality": "D", "number": "C01X00T47", "sex": "F",
     "surname": "ÖSTERGÅRD-MÜLLER", "given": "ZOË LUCIA", "birth": "740812", "expiry": "310502",
     "captions": {"surname": "Name / Surname / Nom", "given": "Vornamen / Given names / Prénoms",
                  "birth": "Geburtstag / Date of birth / Date de naissance", "expiry": "Gültig bis / Date of expiry",
                  "number": "Pass-Nr. / Passport No.", "issue": "Ausstellungsdatum / Date of issue",
                  "place": "Geburtsort / Place of birth", "authority": "Behörde / Authority / Autorité"},
     "printed": {"birth": "12.08.1974", "expiry": "02.05.2031", "issue": "03.05.2021", "place": "KÖLN",
                 "authority": "STADT KÖLN"},
     "values": {"dateOfIssue": "2021-05-03", "placeOfBirth": "KÖLN", "issuingAuthority": "STADT KÖLN"}},
    {"file": "page-fra.png", "state": "FRA", "nationality": "FRA", "number": "18AB12345", "sex": "M",
     "surname": "LEFÈVRE", "given": "FRANÇOIS ÉMILE", "birth": "840229", "expiry": "300117",
     "captions": {"surname": "Nom / Surname", "given": "Prénoms / Given names", "birth": "Date de naissance / Date of birth",
                  "expiry": "Date d'expiration / Date of expiry", "number": "Passeport N° / Passport No.",
                  "issue": "Date de délivrance / Date of issue", "place": "Lieu de naissance / Place of birth",
                  "authority": "Autorité / Authority"},
     "printed": {"birth": "29 FÉV/FEB 1984", "expiry": "17 JANV/JAN 2030", "issue": "18 JANV/JAN 2020",
                 "place": "SAINT-ÉTIENNE", "authority": "PRÉFECTURE DE LA LOIRE"},
     "values": {"dateOfIssue": "2020-01-18", "placeOfBirth": "SAINT-ÉTIENNE", "issuingAuthority": "PRÉFECTURE DE LA LOIRE"}},
    {"file": "page-esp.png", "state": "ESP", "nationality": "ESP", "number": "PAA123456", "sex": "F",
     "surname": "FERNÁNDEZ DE CÓRDOBA Y ÁLVAREZ DE TOLEDO", "given": "MARÍA ÁNGELES", "birth": "900307", "expiry": "290915",
     "captions": {"surname": "Apellidos / Surname", "given": "Nombre / Given names", "birth": "Fecha de nacimiento / Date of birth",
                  "expiry": "Fecha de caducidad / Date of expiry", "number": "Pasaporte N° / Passport No.",
                  "issue": "Fecha de expedición / Date of issue", "place": "Lugar de nacimiento / Place of birth",
                  "authority": "Autoridad / Authority"},
     "printed": {"birth": "07 03 1990", "expiry": "15 09 2029", "issue": "16 09 2019", "place": "SEVILLA",
                 "authority": "DGP 41057"},
     "values": {"dateOfIssue": "2019-09-16", "placeOfBirth": "SEVILLA", "issuingAuthority": "DGP 41057"}},
]


def check_digit(text):
    weights, total = [7, 3, 1], 0
    for i, c in enumerate(text):
        value = int(c) if c.isdigit() else 0 if c == "<" else ord(c) - 55
        total += value * weights[i % 3]
    return str(total % 10)


def mrz_name(name):
    out = ""
    for c in name:
        out += TRANSLITERATION.get(c, c if c.isalpha() else "<")
    return out


def mrz_lines(p):
    """TD3 (ICAO 9303-4): the name cut at the field's end where it is too long (§4.6)."""
    name = (mrz_name(p["surname"]) + "<<" + mrz_name(p["given"]))[:39]
    line1 = ("P<" + p["state"].ljust(3, "<") + name).ljust(44, "<")
    number = p["number"].ljust(9, "<")
    personal = "<" * 14
    line2 = (number + check_digit(number) + p["nationality"].ljust(3, "<") + p["birth"] + check_digit(p["birth"]) + p["sex"]
             + p["expiry"] + check_digit(p["expiry"]) + personal + check_digit(personal))
    composite = line2[0:10] + line2[13:20] + line2[21:43]
    return [line1, line2 + check_digit(composite)]


def render(p):
    w, h = int(125 * DPMM), int(88 * DPMM)
    page = Image.new("RGB", (w, h), (236, 232, 220))
    d = ImageDraw.Draw(page)
    caption, value, header = ImageFont.truetype(SANS, 22), ImageFont.truetype(BOLD, 34), ImageFont.truetype(BOLD, 40)
    d.text((int(5 * DPMM), int(4 * DPMM)), "PASSPORT", fill=(40, 40, 90), font=header)
    # The portrait (zone V): a plain tone with a face's oval.
    px, py, pw, ph = int(5 * DPMM), int(17 * DPMM), int(32 * DPMM), int(42 * DPMM)
    d.rectangle([px, py, px + pw, py + ph], fill=(150, 140, 130))
    d.ellipse([px + pw // 4, py + ph // 8, px + 3 * pw // 4, py + 5 * ph // 8], fill=(190, 170, 150))
    # Zone II, in two columns: caption, value below it.
    left, right = int(44 * DPMM), int(88 * DPMM)
    rows = [
        [("number", p["number"], right)],
        [("surname", p["surname"], left)],
        [("given", p["given"], left)],
        [("birth", p["printed"]["birth"], left), ("place", p["printed"]["place"], right)],
        [("issue", p["printed"]["issue"], left), ("expiry", p["printed"]["expiry"], right)],
        [("authority", p["printed"]["authority"], left)],
    ]
    y = int(12 * DPMM)
    for row in rows:
        for key, text, x in row:
            d.text((x, y), p["captions"][key], fill=(90, 90, 90), font=caption)
            d.text((x, y + 26), text, fill=(20, 20, 20), font=value)
        y += int(8.5 * DPMM)
    # Zone VII: the MRZ, OCR-B at 10 characters per inch, its lines 6.35 mm apart from the bottom.
    ocr = ImageFont.truetype(OCRB, int(round(3.4 * DPMM)))
    lines = mrz_lines(p)
    for k, line in enumerate(lines):
        base = h - int((11.5 - 6.35 * k) * DPMM) - int(6.35 * DPMM)
        for i, c in enumerate(line):
            d.text((int(6 * DPMM + i * 2.54 * DPMM), base), c, fill=(15, 15, 15), font=ocr)
    # On a dark desk, a margin around it, as a flatbed scan with the lid open.
    scan = Image.new("RGB", (w + 160, h + 160), (45, 48, 52))
    scan.paste(page, (80, 80))
    return scan.convert("L").filter(ImageFilter.GaussianBlur(0.6)), lines


def main():
    manifest = {"source": "TestVectors/viz/make_viz_pages.py (DejaVu Sans, OCR-B, 300 dpi, no randomness)", "pages": []}
    for p in PAGES:
        image, lines = render(p)
        image.save(os.path.join(HERE, p["file"]), optimize=True)
        manifest["pages"].append({"file": p["file"], "mrz": lines, "surname": p["surname"], "given": p["given"],
                                  "printed": p["printed"], "values": p["values"]})
    with open(os.path.join(HERE, "viz-pages.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
