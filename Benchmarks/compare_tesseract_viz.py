#!/usr/bin/env python3
"""The visual zone as a team would script it instead: Tesseract's own command line on the same
straightened pages `idkit scan --viz` reads (written by `idkit-bench viz-real DIR --dump PAGES`),
and each MRZ field looked for in its text by the plain rules such a script uses: the value's
letters and digits in the text (names transliterated to A-Z, numbers without spaces), a date as
DD.MM.YYYY, DD MM YYYY, DD/MM/YYYY or DD MON YY with English month names.

    python3 Benchmarks/compare_tesseract_viz.py LABELS.jsonl PAGES [LANG]

LABELS.jsonl is ../shared/testdata/mrz-real/labels.jsonl (the printed MRZ lines); LANG is the
Tesseract model (default eng, Tesseract's own default). Prints the fields found and the time per
page, beside which `make bench-viz-real` gives IDKit's on the same pages.
"""
import json
import os
import re
import subprocess
import sys
import time
import unicodedata

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def plain(text):
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text.upper() if c.isascii() and c.isalnum())


def dates(yymmdd, expiry):
    yy, mm, dd = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:6])
    year = 2000 + yy if (expiry or yy <= 25) else 1900 + yy
    forms = [f"{dd:02d}.{mm:02d}.{year}", f"{dd:02d} {mm:02d} {year}", f"{dd:02d}/{mm:02d}/{year}"]
    if 1 <= mm <= 12:
        forms.append(f"{dd:02d} {MONTHS[mm - 1]}")
    return forms


def fields(format_, lines):
    """The MRZ's fields by the same names `idkit-bench viz-real` counts."""
    if format_ == "TD3" or format_ == "MRVA":
        names = lines[0][5:].split("<<", 1)
        l2 = lines[1]
        out = {"documentNumber": l2[0:9].replace("<", ""), "dateOfBirth": l2[13:19], "dateOfExpiry": l2[21:27]}
        personal = l2[28:42].replace("<", "")
        if format_ == "TD3" and len(personal) >= 4:
            out["personalIdNumber"] = personal
    elif format_ == "TD2" or format_ == "MRVB":
        names = lines[0][5:].split("<<", 1)
        l2 = lines[1]
        out = {"documentNumber": l2[0:9].replace("<", ""), "dateOfBirth": l2[13:19], "dateOfExpiry": l2[21:27]}
    else:  # TD1
        names = lines[2].split("<<", 1)
        out = {"documentNumber": lines[0][5:14].replace("<", ""), "dateOfBirth": lines[1][0:6], "dateOfExpiry": lines[1][8:14]}
    out["lastName"] = names[0].replace("<", " ").strip()
    if len(names) > 1 and names[1].replace("<", ""):
        out["firstName"] = names[1].replace("<", " ").strip()
    return {k: v for k, v in out.items() if v}


def found(name, value, text):
    squeezed = plain(text)
    if name in ("dateOfBirth", "dateOfExpiry"):
        upper = " ".join(text.upper().split())
        return any(form in upper for form in dates(value, name == "dateOfExpiry"))
    return plain(value) in squeezed


def main():
    labels, pages = sys.argv[1], sys.argv[2]
    lang = sys.argv[3] if len(sys.argv) > 3 else "eng"
    wanted = hit = 0
    times = []
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    for line in open(labels, encoding="utf-8"):
        label = json.loads(line)
        page = os.path.join(pages, os.path.basename(label["file"]) + ".page.png")
        if not os.path.exists(page):
            continue
        start = time.perf_counter()
        text = subprocess.run(["tesseract", page, "-", "-l", lang], capture_output=True, text=True, env=env).stdout
        times.append((time.perf_counter() - start) * 1000)
        for name, value in fields(label["format"], label["mrz"]).items():
            wanted += 1
            hit += found(name, value, text)
    times.sort()
    print(f"tesseract {lang} (its command line, default settings) on {len(times)} pages: MRZ fields found in its text "
          f"{hit} of {wanted} ({100 * hit / max(1, wanted):.0f}%); per page median {times[len(times) // 2]:.0f} ms, "
          f"p90 {times[min(len(times) - 1, len(times) * 9 // 10)]:.0f} ms (a process each, the model loaded each time)")


if __name__ == "__main__":
    main()
