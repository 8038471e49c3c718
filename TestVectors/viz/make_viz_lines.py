#!/usr/bin/env python3
"""Renders the visual-zone test page of IDKitVIZTests: labelled fields as a passport's data page
prints them, with national characters and several date forms, in DejaVu Sans (Debian's
fonts-dejavu-core, free license) at 300 dpi, gray on an off-white page, softened by a slight
blur as a scan softens print.

Writes viz-lines.png and viz-lines.json (the printed lines, the truth the tests compare with).
Made by this script alone; nothing in it comes from a real document.

    python3 TestVectors/viz/make_viz_lines.py
"""
import json
import os

from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
LINES = [
    "Surname / Nom / Apellidos",
    "ÖSTERGÅRD-MÜLLER",
    "Given names / Prénoms",
    "ZOË ŁUCJA ȘTEFAN",
    "Date of birth / Date de naissance",
    "12 AUG/AOUT 74",
    "Place of birth / Lieu de naissance",
    "SÃO PAULO",
    "Date of issue / Date de délivrance",
    "03.05.2021",
    "Authority / Autorité",
    "STADT KÖLN",
]


def main():
    font = ImageFont.truetype(FONT, 42)  # about 10 pt at 300 dpi
    width, line_height = 1400, 70
    image = Image.new("L", (width, 60 + line_height * len(LINES)), 235)
    draw = ImageDraw.Draw(image)
    for k, text in enumerate(LINES):
        draw.text((60, 30 + k * line_height), text, fill=30, font=font)
    image = image.filter(ImageFilter.GaussianBlur(0.7))
    image.save(os.path.join(HERE, "viz-lines.png"), optimize=True)
    with open(os.path.join(HERE, "viz-lines.json"), "w", encoding="utf-8") as f:
        json.dump({"source": "TestVectors/viz/make_viz_lines.py (DejaVu Sans, 300 dpi)", "lines": LINES},
                  f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
