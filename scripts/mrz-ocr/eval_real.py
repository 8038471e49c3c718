#!/usr/bin/env python3
"""Measures MRZ recognizer models on real print, character by character, without training on it.

    .build/release/idkit-bench recognizer-windows ../shared/testdata/mrz-real .build/real-windows
    python3 scripts/mrz-ocr/eval_real.py .build/real-windows MODEL.onnx [MODEL2.onnx ...] [-v]

The windows are what IDKit's reader fed its recognizer on the real specimens of
../shared/testdata/mrz-real (the band the scan read; images whose band has another shape than the
printed MRZ are left out). For each model, against the printed characters:
  - wrong: the model's first choice among the 37 symbols is not the printed one;
  - margin: log p(printed) - log p(best other symbol), in nats. The decoder verifies a reading
    only when every other reading that passes the check digits costs at least 6 nats and every
    character no check digit covers has no grammatical alternative within 4 nats
    (MRZDecoder.verificationMargin, unprotectedMargin), so the characters under those margins are
    what keeps a real reading unverified;
  - NLL: mean -log p(printed), how well the probabilities the verifier relies on fit real print.
The real images stay a validation set: nothing here feeds training (train.py never reads them).
Needs numpy and onnxruntime (PyPI).
"""
import json
import os
import sys

import numpy as np
import onnxruntime as ort

SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"
WIN_H, WIN_W = 32, 28


def load(folder):
    images = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".windows"):
            continue
        base = name[: -len(".windows")]
        meta = json.load(open(os.path.join(folder, base + ".json")))
        truth = "".join(meta["truth"])
        x = np.fromfile(os.path.join(folder, name), dtype=np.float32)
        if x.size != len(truth) * WIN_H * WIN_W:
            print(f"skipped {base}: {x.size // (WIN_H * WIN_W)} windows for {len(truth)} characters")
            continue
        images.append((base, x.reshape(len(truth), 1, WIN_H, WIN_W), np.array([SYMBOLS.index(c) for c in truth])))
    return images


def evaluate(model, images):
    session = ort.InferenceSession(open(model, "rb").read(), providers=["CPUExecutionProvider"])
    rows, margins, nll, wrong = [], [], 0.0, 0
    for base, x, truth in images:
        logits = session.run(None, {"window": x})[0]
        logp = logits - logits.max(1, keepdims=True)
        logp -= np.log(np.exp(logp).sum(1, keepdims=True))
        symbols = logp[:, :37]
        n = len(truth)
        printed = symbols[np.arange(n), truth]
        others = symbols.copy()
        others[np.arange(n), truth] = -np.inf
        m = printed - others.max(1)
        w = int((symbols.argmax(1) != truth).sum())
        rows.append((base, w, int((m < 4).sum()), int((m < 6).sum()), float(np.percentile(m, 5))))
        margins.append(m)
        nll -= float(printed.sum())
        wrong += w
    m = np.concatenate(margins)
    summary = {"model": model, "images": len(images), "characters": int(m.size), "wrong": wrong,
               "marginBelow4": int((m < 4).sum()), "marginBelow6": int((m < 6).sum()),
               "medianMargin": round(float(np.median(m)), 2), "nll": round(nll / m.size, 4)}
    return summary, rows


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) < 2:
        print(__doc__)
        sys.exit(2)
    images = load(args[0])
    for model in args[1:]:
        summary, rows = evaluate(model, images)
        print(json.dumps(summary))
        if "-v" in sys.argv:
            for base, w, below4, below6, p5 in rows:
                print(f"  {base:32s} wrong {w}  margin<4 {below4:3d}  <6 {below6:3d}  5th percentile {p5:5.2f}")


if __name__ == "__main__":
    main()
