#!/usr/bin/env python3
"""Makes PDF417 test images from IDKit's AAMVA payloads: zint draws the symbol, then it is placed
on a card in a scene and degraded the ways phone photos and scans are.

  python3 make_images.py                      # the small committed set -> images/ + manifest.json
  python3 make_images.py --bench DIR --count 50   # 2-megapixel benchmark set (not committed)

Variants (module size 1-4 px, as in issue 3): clean, rot5, rot15, rot30, rotany (any in-plane
angle), keystone15 (one edge 15% shorter), mirrored, blur (Gaussian, sigma half a module),
phone (10 deg, keystone, blur, noise, JPEG). Needs Debian's zint and PyPI's pillow and numpy.
Seeded: the same arguments write the same images.
"""
import argparse, base64, io, json, math, os, random, subprocess, tempfile

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

HERE = os.path.dirname(os.path.abspath(__file__))
PAYLOADS = os.path.join(HERE, "..", "aamva", "generated")
VARIANTS = ["clean", "rot5", "rot15", "rot30", "rotany", "keystone15", "mirrored", "blur", "phone"]


def modules(payload):
    """The PDF417 module matrix zint draws for `payload` (1 = dark)."""
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.bin"), os.path.join(d, "out.png")
        open(src, "wb").write(payload)
        subprocess.run(["zint", "-b", "55", "--binary", f"--input={src}", "-o", out, "--scale=1",
                        "--cols=8", "--secure=3"], check=True, capture_output=True)
        a = np.array(Image.open(out).convert("L"))
    # zint at scale 1 draws 2x2 pixels per module.
    return (a[::2, ::2] < 128).astype(np.uint8)


def symbol_image(m, module_px, row_modules=3):
    """The symbol at `module_px` pixels per module, anti-aliased from an 8x rendering, with a quiet zone."""
    hi = 8
    quiet = 2
    rows, cols = m.shape
    big = np.ones(((rows + 2 * quiet) * hi, (cols + 2 * quiet) * hi), np.uint8) * 255
    block = np.kron(1 - m, np.ones((hi, hi), np.uint8)) * 255
    big[quiet * hi:(quiet + rows) * hi, quiet * hi:(quiet + cols) * hi] = block
    img = Image.fromarray(big)
    w, h = img.size
    return img.resize((max(1, round(w * module_px / hi)), max(1, round(h * module_px / hi))), Image.LANCZOS)


def perspective_coeffs(src, dst):
    """PIL PERSPECTIVE coefficients mapping output (dst) points back to input (src) points."""
    A, B = [], []
    for (x, y), (u, v) in zip(dst, src):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); B.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); B.append(v)
    return np.linalg.solve(np.array(A, float), np.array(B, float)).tolist()


def scene(rng, size):
    """A card-like background: a gradient scene, a light card with text lines and boxes."""
    W, H = size
    base = np.linspace(rng.randint(40, 120), rng.randint(80, 200), W)[None, :].repeat(H, 0)
    img = Image.fromarray(base.astype(np.uint8))
    d = ImageDraw.Draw(img)
    for _ in range(12):
        x, y = rng.randrange(W), rng.randrange(H)
        d.rectangle([x, y, x + rng.randint(20, 200), y + rng.randint(5, 60)], fill=rng.randint(0, 255))
    return img


def render(rng, payload, variant, canvas):
    m = modules(payload)
    if variant == "blur":
        module_px = rng.uniform(2.0, 4.0)
    elif variant == "phone":
        module_px = rng.uniform(1.8, 4.0)
    else:
        module_px = rng.uniform(1.0, 4.0)
    sym = symbol_image(m, module_px)
    if variant == "mirrored":
        sym = sym.transpose(Image.FLIP_LEFT_RIGHT)
    W, H = canvas
    # Keep the symbol inside the frame at any angle.
    while max(sym.size) * 1.15 > min(W, H) * 0.95:
        module_px *= 0.9
        sym = symbol_image(m, module_px)
        if variant == "mirrored":
            sym = sym.transpose(Image.FLIP_LEFT_RIGHT)
    sw, sh = sym.size
    # The card: the symbol with a white margin and printed clutter above it.
    card = Image.new("L", (int(sw * 1.3), int(sh * 1.8)), rng.randint(215, 250))
    cd = ImageDraw.Draw(card)
    for k in range(4):
        cd.text((10, 4 + k * 12), "".join(rng.choice("ABCDEFGHIJ0123456789 ") for _ in range(30)), fill=rng.randint(0, 90))
    ox, oy = int(sw * 0.15), int(sh * 0.7)
    card.paste(sym, (ox, oy))
    cw, ch = card.size
    angle = {"clean": 0.0, "rot5": 5.0, "rot15": 15.0, "rot30": 30.0, "rotany": rng.uniform(0, 360),
             "keystone15": rng.uniform(-2, 2), "mirrored": rng.uniform(-3, 3), "blur": rng.uniform(-3, 3),
             "phone": 10.0}[variant]
    if variant in ("rot5", "rot15", "rot30", "phone") and rng.random() < 0.5:
        angle = -angle
    keystone = 0.15 if variant in ("keystone15",) else (rng.uniform(0.05, 0.12) if variant == "phone" else 0.0)
    # Destination corners of the card: rotate, then shrink one edge by `keystone`.
    cx, cy = rng.uniform(0.35, 0.65) * W, rng.uniform(0.35, 0.65) * H
    corners = [(-cw / 2, -ch / 2), (cw / 2, -ch / 2), (cw / 2, ch / 2), (-cw / 2, ch / 2)]
    if keystone:
        side = rng.randrange(4)
        k = keystone
        if side == 0:   corners = [(x * (1 - k) if y < 0 else x, y) for x, y in corners]
        elif side == 1: corners = [(x * (1 - k) if y > 0 else x, y) for x, y in corners]
        elif side == 2: corners = [(x, y * (1 - k) if x < 0 else y) for x, y in corners]
        else:           corners = [(x, y * (1 - k) if x > 0 else y) for x, y in corners]
    a = math.radians(angle)
    dst = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in corners]
    src = [(0, 0), (cw, 0), (cw, ch), (0, ch)]
    coeffs = perspective_coeffs(src, dst)
    bg = scene(rng, canvas)
    warped = card.transform(canvas, Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=0)
    mask = Image.new("L", card.size, 255).transform(canvas, Image.PERSPECTIVE, coeffs, Image.BILINEAR, fillcolor=0)
    img = Image.composite(warped, bg, mask)
    if variant == "blur":
        img = img.filter(ImageFilter.GaussianBlur(0.5 * module_px))
    fmt = "png"
    if variant == "phone":
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 0.8)))
        a = np.array(img).astype(float) + np.random.default_rng(rng.randrange(1 << 30)).normal(0, 6, (H, W))
        img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
        fmt = "jpg"
    # The symbol's corners in the image (for checking reported quadrilaterals).
    return img, fmt, module_px, angle


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", help="write the benchmark set here instead of images/")
    ap.add_argument("--count", type=int, default=4, help="images per variant")
    ap.add_argument("--width", type=int, default=None)
    ap.add_argument("--height", type=int, default=None)
    args = ap.parse_args()
    out = args.bench or os.path.join(HERE, "images")
    canvas = (args.width or (1632 if args.bench else 800), args.height or (1224 if args.bench else 600))
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.endswith((".png", ".jpg")):
            os.remove(os.path.join(out, f))
    rng = random.Random(20261129 if not args.bench else 4172026)
    payload_files = sorted(f for f in os.listdir(PAYLOADS) if f.startswith("v") and f.endswith(".bin"))
    manifest = []
    n = 0
    for variant in VARIANTS:
        for i in range(args.count):
            pf = payload_files[n % len(payload_files)]
            n += 1
            payload = open(os.path.join(PAYLOADS, pf), "rb").read()
            img, fmt, module_px, angle = render(rng, payload, variant, canvas)
            name = f"{variant}-{i:02d}.{fmt}"
            if fmt == "jpg":
                img.save(os.path.join(out, name), quality=rng.randint(70, 85))
            else:
                img.save(os.path.join(out, name), optimize=True)
            manifest.append({"file": name, "variant": variant, "payload": "aamva/generated/" + pf,
                             "bytes": base64.b64encode(payload).decode(), "modulePx": round(module_px, 2),
                             "angle": round(angle, 1)})
    json.dump({"source": "make_images.py (seeded), zint " + subprocess.run(["zint", "--version"], capture_output=True, text=True).stdout.strip().split()[-1],
               "canvas": list(canvas), "images": manifest}, open(os.path.join(out, "manifest.json"), "w"), indent=1)
    print(f"{len(manifest)} images in {out}")


if __name__ == "__main__":
    main()
