#!/usr/bin/env python3
"""Makes PDF417 test images from IDKit's AAMVA payloads: zint draws the symbol, then it is placed
on a card in a scene and degraded the ways phone photos and scans are.

  python3 make_images.py                      # the small committed set -> images/ + manifest.json
                                              # (800x600, 3 per variant, modules 1.5-4 px: the
                                              # range where every image must decode, for the tests)
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


MIN_MODULE = 1.0


def render(rng, payload, variant, canvas):
    m = modules(payload)
    if variant == "blur":
        module_px = rng.uniform(2.0, 4.0)
    elif variant == "phone":
        module_px = rng.uniform(1.8, 4.0)
    else:
        module_px = rng.uniform(MIN_MODULE, 4.0)
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
    src = [(0, 0), (cw, 0), (cw, ch), (0, ch)]
    # Place the card so that the whole symbol is inside the frame.
    for _ in range(200):
        dst = [(cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in corners]
        coeffs = perspective_coeffs(src, dst)
        forward = perspective_coeffs(dst, src)  # card -> image
        def to_image(px, py):
            c = forward
            w = c[6] * px + c[7] * py + 1
            return ((c[0] * px + c[1] * py + c[2]) / w, (c[3] * px + c[4] * py + c[5]) / w)
        inside = all(4 <= X <= W - 4 and 4 <= Y <= H - 4 for X, Y in
                     (to_image(px, py) for px, py in [(ox, oy), (ox + sw, oy), (ox + sw, oy + sh), (ox, oy + sh)]))
        if inside:
            break
        cx, cy = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H
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


def make_misc(out):
    """1D and QR symbols for the zbar path, a PGM copy, and a decompression-bomb PNG header."""
    import struct, zlib
    os.makedirs(out, exist_ok=True)
    items = []
    for name, kind, data in [("qr.png", "58", b"IDKIT QR \x01\x02 bytes"), ("code128.png", "20", b"IDKIT-128-0042"),
                             ("ean13.png", "13", b"400638133393")]:
        path = os.path.join(out, name)
        subprocess.run(["zint", "-b", kind, "--binary", "--scale=2", "-d", data.decode("latin-1"), "-o", path],
                       check=True, capture_output=True)
        img = Image.open(path).convert("L")
        canvas = Image.new("L", (img.width + 80, img.height + 80), 255)
        canvas.paste(img, (40, 40))
        canvas.save(path)
        items.append({"file": name, "format": {"58": "QRCode", "20": "Code128", "13": "EAN13"}[kind],
                      "bytes": base64.b64encode(data if kind != "13" else b"4006381333931").decode()})
    # EAN-13: zint adds the check digit (1).
    # The first committed PDF417 image as binary PGM (P5).
    src = Image.open(os.path.join(HERE, "images", "clean-00.png")).convert("L")
    with open(os.path.join(out, "clean-00.pgm"), "wb") as f:
        f.write(b"P5\n# IDKit test image\n%d %d\n255\n" % src.size + src.tobytes())
    # A PNG whose header claims 100000 x 100000 pixels (a decompression bomb): no pixel data.
    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
    bomb = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 0, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b"")
    open(os.path.join(out, "bomb-100000x100000.png"), "wb").write(bomb)
    json.dump({"source": "make_images.py (zint symbols; PGM copy of images/clean-00.png; hand-built PNG header)",
               "symbols": items}, open(os.path.join(out, "manifest.json"), "w"), indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", help="write the benchmark set here instead of images/")
    ap.add_argument("--count", type=int, default=3, help="images per variant")
    ap.add_argument("--width", type=int, default=None)
    ap.add_argument("--height", type=int, default=None)
    ap.add_argument("--min-module", type=float, default=None,
                    help="smallest module size in pixels (default 1.0; the committed set uses 1.5)")
    args = ap.parse_args()
    global MIN_MODULE
    MIN_MODULE = args.min_module or (1.0 if args.bench else 1.5)
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
               "canvas": list(canvas), "minModulePx": MIN_MODULE, "images": manifest}, open(os.path.join(out, "manifest.json"), "w"), indent=1)
    print(f"{len(manifest)} images in {out}")
    if not args.bench:
        make_misc(os.path.join(HERE, "misc"))


if __name__ == "__main__":
    main()
