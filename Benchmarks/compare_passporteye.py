#!/usr/bin/env python3
"""PassportEye on the same real images as `idkit-bench scan-real`, in the same run (make bench-real).

PassportEye (PyPI `passporteye`, MIT) finds the MRZ with scikit-image and reads it with Tesseract
(Debian's tesseract-ocr). For each image of ../shared/testdata/mrz-real (labels.jsonl): exact (all
lines as printed), "valid" (PassportEye's own check-digit verdict, its nearest equivalent of
verified), valid-but-wrong, and seconds per image.

    python3 Benchmarks/compare_passporteye.py [DIR]
"""
import json
import os
import sys
import time

DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "testdata", "mrz-real")


def main():
    try:
        from passporteye import read_mrz
    except ImportError:
        print("compare_passporteye: PassportEye is not installed (pip install passporteye; apt-get install tesseract-ocr)")
        return
    labels = [json.loads(l) for l in open(os.path.join(DIR, "labels.jsonl")) if l.strip()]
    exact = valid = wrong = 0
    times = []
    for label in labels:
        t = time.time()
        try:
            mrz = read_mrz(os.path.join(DIR, label["file"]))
        except Exception:
            mrz = None
        times.append(time.time() - t)
        lines = mrz.aux.get("text", "").split("\n") if mrz is not None else []
        lines = [l for l in lines if l.strip()]
        is_exact = lines == label["mrz"]
        is_valid = mrz is not None and bool(mrz.valid)
        exact += is_exact
        if is_valid:
            valid += 1
            wrong += (not is_exact) or label.get("checks_fail", False)
    times.sort()
    n = len(labels)
    print(f"PassportEye {n} real images: exact {exact} ({100 * exact / n:.0f}%)  valid {valid} ({100 * valid / n:.0f}%)"
          f"  valid-but-wrong {wrong}  median {1000 * times[n // 2]:.0f} ms  p90 {1000 * times[int(n * 0.9)]:.0f} ms")


if __name__ == "__main__":
    main()
