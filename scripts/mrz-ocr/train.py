#!/usr/bin/env python3
"""Trains IDKit's MRZ character recognizer and exports it as ONNX for OpenCV's dnn module.

    python3 scripts/mrz-ocr/train.py            (or: make mrz-model)

A small convolutional network (three 3x3 convolutions with max pooling, two dense layers; about
52k weights) classifies a 28 x 32 window (glyphs.py) into the 37 MRZ symbols and "none" (no character in
the cell: covered by a finger or a sticker, or blank paper past a line's end). Training data
comes only from the seeded generator in glyphs.py, never from real images: the real specimens in
../shared/testdata/mrz-real stay a validation set. Same seed, same data, same initial weights.

Steps: generate (seed 9303 for training, 9304 for validation, in chunks on every core); train
with AdamW and a cosine learning-rate schedule (TensorFlow's Keras on the CPU: jax was tried
first, and its XLA convolutions ran 6 times slower on this 2-core machine); fit a temperature on the
validation set so that the probabilities the decoder and the verifier rely on are calibrated
(the logits are divided by it inside the exported model); export with the onnx package (opset 13,
every kernel_shape explicit, as OpenCV 4.6 needs); check the exported model against the Keras
network with onnxruntime; write

    Sources/CIDKitData/mrz-glyphs.onnx            the model, compiled into IDKit (C23 #embed)
    scripts/mrz-ocr/training-report.json          accuracy, loss, temperature, confusions

Needs: numpy, pillow, tensorflow-cpu, onnx, onnxruntime (PyPI); fonts-ocr-b (Debian). The seed fixes
the data and the initial weights; oneDNN's thread scheduling may still change the last bits.
"""
import hashlib
import json
import math
import os
import sys
import time
from multiprocessing import Pool

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import glyphs  # noqa: E402

SEED = int(os.environ.get("MRZ_SEED", "9303"))
# MRZ_MEMBERS (a trial knob; the committed model has one): an ensemble of networks of the same
# shape, member k trained on its own data and initial weights (seed SEED + 101 k), their logits
# averaged inside the exported model (the same softmax as averaging their log-probabilities), one
# temperature fitted to the average. Measured 2026-12-02: two members trained with thumbnails
# (glyphs.THUMB_SHARE 0.7) left 25 of the real specimens' 2,886 characters within 4 nats of
# another symbol (30 and 33 for either alone, 32 for the committed model) and read the 33 exactly,
# but verified 27 of them (28), at 13 -> 20 ms median on the stress set: not kept.
MEMBERS = int(os.environ.get("MRZ_MEMBERS", "1"))
TRAIN_LINES = int(os.environ.get("MRZ_TRAIN_LINES", "10000"))
VAL_LINES = 600
EPOCHS = int(os.environ.get("MRZ_EPOCHS", "10"))
BATCH = 256
# 8/24/48 channels and 64 hidden units: 1 M multiply-adds a window, 88 windows in about 5 ms on one
# core through OpenCV 4.6 (24/48/64 and 96 read the real specimens no better at 4 times the cost;
# 16/32/64 and 96, 2026-12-02, no better either on them shrunk to 0.7, 0.5 and 0.35 times).
CHANNELS = tuple(int(c) for c in os.environ.get("MRZ_CHANNELS", "8,24,48").split(","))
HIDDEN = int(os.environ.get("MRZ_HIDDEN", "64"))
# No label smoothing: smoothing by 0.02 caps the log-odds the network can learn for a clear glyph at
# about ln(0.98 / (0.02 / 37)) = 7.5 nats, close to the decoder's verification margin of 6, so that
# clean real characters looked doubtful: on the real specimens (make mrz-model-eval), 325 of 2,886
# printed characters had another symbol within 6 nats with smoothing, 134 without, log-loss 0.016
# -> 0.011, and 28 readings verified instead of 26 (the temperature still calibrates the whole).
LABEL_SMOOTHING = float(os.environ.get("MRZ_LABEL_SMOOTHING", "0"))
# MRZ_OUT: a folder for a trial model (its .onnx and report), leaving the committed one alone; read
# with it through IDKIT_MRZ_MODEL=DIR/mrz-glyphs.onnx (IDKIT_MRZ_MODEL_DEGRADED for the second opinion).
OUT_DIR = os.environ.get("MRZ_OUT")
if OUT_DIR:
    os.makedirs(OUT_DIR, exist_ok=True)      # made before the hours of training, not after
# MRZ_MODEL=degraded: the second opinion for hard captures (make mrz-model-degraded: trained with
# long motion blur and shaded occluders, MRZGlyphModel.degraded), written beside the main model
# under its own names; the main model otherwise.
MODEL = os.environ.get("MRZ_MODEL", "main")
SUFFIX = "" if MODEL == "main" else "-" + MODEL
OUT_ONNX = os.path.join(OUT_DIR or os.path.join(HERE, "..", "..", "Sources", "CIDKitData"), "mrz-glyphs%s.onnx" % SUFFIX)
OUT_REPORT = os.path.join(OUT_DIR or HERE, "training-report%s.json" % SUFFIX)


def chunk(args):
    seed, lines = args
    return glyphs.dataset(seed, lines)


def make(seed, lines, parts=16):
    per = math.ceil(lines / parts)
    with Pool(os.cpu_count()) as pool:
        out = pool.map(chunk, [(seed * 1000 + k, per) for k in range(parts)])
    x = np.concatenate([o[0] for o in out])
    y = np.concatenate([o[1] for o in out])
    return glyphs.normalize(x)[:, None, :, :].astype(np.float32), y


def train_member(tf, seed, xva_k, yva):
    """One member: its own training data and initial weights from `seed`. Returns its Keras
    model, its logits on the validation windows and how many windows it was trained on."""
    t0 = time.time()
    xtr, ytr = make(seed, TRAIN_LINES)
    print(f"member {seed}: {len(ytr)} training windows in {time.time() - t0:.0f} s", flush=True)
    xtr_k = xtr.transpose(0, 2, 3, 1)            # Keras wants NHWC; the exported model takes NCHW
    del xtr
    tf.keras.utils.set_random_seed(seed)
    L = tf.keras.layers
    c1, c2, c3 = CHANNELS
    model = tf.keras.Sequential([
        tf.keras.Input((glyphs.WIN_H, glyphs.WIN_W, 1)),
        L.Conv2D(c1, 3, padding="same", activation="relu"), L.MaxPool2D(),     # 16 x 14
        L.Conv2D(c2, 3, padding="same", activation="relu"), L.MaxPool2D(),     # 8 x 7
        L.Conv2D(c3, 3, padding="same", activation="relu"), L.MaxPool2D(),     # 4 x 3
        L.Flatten(), L.Dense(HIDDEN, activation="relu"), L.Dense(glyphs.CLASSES),
    ])
    steps = EPOCHS * (len(ytr) // BATCH)
    schedule = tf.keras.optimizers.schedules.CosineDecay(3e-3, steps, alpha=0.02)
    model.compile(optimizer=tf.keras.optimizers.AdamW(schedule, weight_decay=1e-4),
                  loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=LABEL_SMOOTHING),
                  metrics=["accuracy"])
    model.fit(xtr_k, tf.one_hot(ytr, glyphs.CLASSES), batch_size=BATCH, epochs=EPOCHS, shuffle=True, verbose=2,
              validation_data=(xva_k, tf.one_hot(yva, glyphs.CLASSES)))
    lv = model.predict(xva_k, batch_size=2048, verbose=0)
    return model, lv, len(ytr)


def member_weights(tf, model, scale):
    """Keras weights to the NCHW graph: kernels HWIO -> OIHW; the first dense layer's rows from
    (h, w, c) order, as Keras flattens, to (c, h, w), as ONNX's Flatten of NCHW does. The last
    layer is multiplied by `scale` (1 / (members x temperature))."""
    L = tf.keras.layers
    c3 = CHANNELS[2]
    conv = [l for l in model.layers if isinstance(l, L.Conv2D)]
    dense = [l for l in model.layers if isinstance(l, L.Dense)]
    P = {}
    for i, l in enumerate(conv, 1):
        k, b = l.get_weights()
        P[f"w{i}"], P[f"b{i}"] = k.transpose(3, 2, 0, 1), b
    k4, b4 = dense[0].get_weights()
    P["w4"] = k4.reshape(4, 3, c3, HIDDEN).transpose(2, 0, 1, 3).reshape(-1, HIDDEN)
    P["b4"] = b4
    k5, b5 = dense[1].get_weights()
    P["w5"], P["b5"] = k5 * scale, b5 * scale
    return P


def main():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    t0 = time.time()
    xva, yva = make(SEED + 1, VAL_LINES, parts=4)
    xva_k = xva.transpose(0, 2, 3, 1)
    seeds = [SEED + 101 * k for k in range(MEMBERS)]
    members, logits, windows = [], [], 0
    for seed in seeds:
        model, lv, n = train_member(tf, seed, xva_k, yva)
        members.append(model)
        logits.append(lv)
        windows += n
    member_accuracy = [float((lv.argmax(1) == yva).mean()) for lv in logits]
    # The ensemble's logits: the members' mean (the same softmax as the mean of their
    # log-probabilities). Temperature: the one that minimizes the validation log-loss.
    lv = np.mean(logits, axis=0)

    def nll(t):
        z = lv / t
        z = z - z.max(1, keepdims=True)
        return float(-(z[np.arange(len(yva)), yva] - np.log(np.exp(z).sum(1))).mean())

    temps = np.exp(np.linspace(math.log(0.5), math.log(4), 60))
    temperature = float(min(temps, key=nll))
    print(f"temperature {temperature:.3f}: validation NLL {nll(1.0):.4f} -> {nll(temperature):.4f}")
    pred = lv.argmax(1)
    confusions = {}
    for t, p_ in zip(yva, pred):
        if t != p_:
            k = (glyphs.SYMBOLS + "_")[t] + "->" + (glyphs.SYMBOLS + "_")[p_]
            confusions[k] = confusions.get(k, 0) + 1

    onnx_model = export_onnx([member_weights(tf, m, 1 / (MEMBERS * temperature)) for m in members])
    data = onnx_model.SerializeToString()
    with open(OUT_ONNX, "wb") as f:
        f.write(data)

    # The exported model against the networks it came from.
    import onnxruntime as ort
    sess = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    sample = xva[:512]
    got = sess.run(None, {"window": sample})[0]
    want = lv[:512] / temperature
    diff = float(np.abs(got - want).max())
    assert diff < 1e-3, diff
    print(f"onnxruntime agrees with Keras: max |diff| {diff:.2e}")

    report = {
        "seed": SEED, "memberSeeds": seeds, "trainLines": TRAIN_LINES, "trainWindows": windows,
        "validationWindows": int(len(yva)), "epochs": EPOCHS, "labelSmoothing": LABEL_SMOOTHING,
        "lowResolutionShare": glyphs.LOW_RES_SHARE, "thumbnailShare": glyphs.THUMB_SHARE, "model": MODEL,
        "motionShare": glyphs.MOTION_SHARE, "motionLong": glyphs.MOTION_LONG, "occluderShade": glyphs.OCCLUDER_SHADE,
        "obliqueShare": glyphs.OBLIQUE_SHARE, "patchyShare": glyphs.PATCHY_SHARE,
        "channels": list(CHANNELS), "hidden": HIDDEN, "memberValidationAccuracy": member_accuracy,
        "validationAccuracy": float((pred == yva).mean()), "temperature": temperature,
        "validationNLL": nll(temperature), "onnxBytes": len(data), "onnxSHA256": hashlib.sha256(data).hexdigest(),
        "confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:25]),
        "trainingSeconds": round(time.time() - t0), "tensorflow": tf.__version__,
    }
    with open(OUT_REPORT, "w") as f:
        json.dump(report, f, indent=1)
    print(json.dumps(report))


def export_onnx(members):
    """One graph: each member's convolutions and dense layers on the same window, their logits
    summed (each member's last layer already carries 1 / (members x temperature))."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []

    def init(name, arr):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr, np.float32), name))

    outputs = []
    for m, P in enumerate(members):
        # One member keeps the names of the single-network graph (the committed model's bytes).
        pre = f"m{m}_" if len(members) > 1 else ""
        x = "window"
        for i in (1, 2, 3):
            w, b = f"{pre}w{i}", f"{pre}b{i}"
            init(w, P[f"w{i}"])
            init(b, P[f"b{i}"])
            nodes.append(helper.make_node("Conv", [x, w, b], [f"{pre}conv{i}"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1]))
            nodes.append(helper.make_node("Relu", [f"{pre}conv{i}"], [f"{pre}relu{i}"]))
            nodes.append(helper.make_node("MaxPool", [f"{pre}relu{i}"], [f"{pre}pool{i}"], kernel_shape=[2, 2], strides=[2, 2]))
            x = f"{pre}pool{i}"
        nodes.append(helper.make_node("Flatten", [x], [f"{pre}flat"], axis=1))
        init(f"{pre}w4", P["w4"].T)
        init(f"{pre}b4", P["b4"])
        nodes.append(helper.make_node("Gemm", [f"{pre}flat", f"{pre}w4", f"{pre}b4"], [f"{pre}dense"], transB=1))
        nodes.append(helper.make_node("Relu", [f"{pre}dense"], [f"{pre}hidden"]))
        init(f"{pre}w5", P["w5"].T)
        init(f"{pre}b5", P["b5"])
        out = "logits" if len(members) == 1 else f"{pre}logits"
        nodes.append(helper.make_node("Gemm", [f"{pre}hidden", f"{pre}w5", f"{pre}b5"], [out], transB=1))
        outputs.append(out)
    total = outputs[0]
    for k, o in enumerate(outputs[1:], 1):        # pairwise Add: OpenCV 4.6 reads it as an eltwise sum
        total_next = "logits" if k == len(outputs) - 1 else f"sum{k}"
        nodes.append(helper.make_node("Add", [total, o], [total_next]))
        total = total_next
    graph = helper.make_graph(
        nodes, "idkit-mrz-glyphs",
        [helper.make_tensor_value_info("window", TensorProto.FLOAT, ["n", 1, glyphs.WIN_H, glyphs.WIN_W])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", glyphs.CLASSES])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="idkit scripts/mrz-ocr/train.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


if __name__ == "__main__":
    main()
