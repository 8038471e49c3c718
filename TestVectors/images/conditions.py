#!/usr/bin/env python3
"""Hard capture conditions: document photos whose MRZ a camera or a printer has made hard to read,
with the truth each was made with.

    python3 TestVectors/images/conditions.py DIR [--count N] [--seed S] [--groups g1,g2] [--ink MODE]

writes N photos per condition into DIR (names `<group>-NN-<layout>.jpg`) and DIR/manifest.json:
per image the MRZ lines as printed (every check digit valid), the layout, the band quadrilateral
(`quad`: the MRZ's corners in image pixels, top-left first, clockwise), the document's corners
(`corners`, same order), the cap height in image pixels (`capHeightPx`) and the condition's
parameters (`params`). Seeded and deterministic. The committed set in
TestVectors/images/conditions is `--count 2 --seed 37`; `make bench-conditions` draws another
seed into .build.

The conditions (issue 37), each drawn across its whole range so that mild and severe cases both
occur:

  curved      the page bent as a booklet's near the spine or a card held bowed: a cylinder seen
              at an angle, so that the lines arc by up to 2.5 cap heights, the pitch shortens
              towards the bent side and the height changes along the line
  motion      linear motion blur of 0.15-1.0 cap height at any angle (a hand-held camera)
  distractor  monospaced text within a line height above or below the MRZ: a short serial, a
              full-width line of MRZ-like characters, or two lines of another zone whose check
              digits do not hold
  occlusion   a finger or a shadow over one to three characters at either end of a line (a finger
              often over the lines next to it too); `params.covered_cells` lists the characters
              ([line, index]) a finger covers a fifth or more of, which the check digits restore
              only where they cover them
  printer     other printers: ink spread or starved, patchy ink, dot-matrix and thermal print,
              uneven pitch and a wobbling baseline, in the three OCR-B cuts

Documents come from make_images.py (render_document: its visual zone, portrait and background)
with the MRZ printed here. Needs pillow, numpy; fonts-ocr-b, fonts-dejavu-core, fonts-urw-base35.
"""
import argparse
import json
import math
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

import make_images as mi

GROUPS = ["curved", "motion", "distractor", "occlusion", "printer"]
# The printer's ink mode for every photo of the printer group (--ink), or None: drawn at random.
FORCED_INK = None
OCRB_CUTS = ["/usr/share/fonts/opentype/ocr-b/OCRB.otf", "/usr/share/fonts/opentype/ocr-b/OCRBS.otf",
             "/usr/share/fonts/opentype/ocr-b/OCRBL.otf"]
MONO = ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "/usr/share/fonts/opentype/ocr-b/OCRB.otf"]
MRZ_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"


def mrz_geometry(layout, lines, W, H, dpmm):
    """Where render_document prints the MRZ: pitch, first cell's left edge, each line's baseline."""
    pitch = 2.54 * dpmm
    line_pitch = mi.mrz_line_pitch(layout, lines, dpmm)
    n = len(lines[0])
    x0 = (W - n * pitch) / 2
    last = H - (mi.mrz_last_center_mm(layout, lines) - 1.2) * dpmm
    bases = [last - line_pitch * (len(lines) - 1 - k) for k in range(len(lines))]
    return pitch, line_pitch, x0, bases


def draw_line(ink, text, font, x0, base, pitch, offsets=None):
    """Characters of `text` centered in their cells on `ink` (mode L, 255 = ink); `offsets`: per
    character (dx, dy) in pixels."""
    d = ImageDraw.Draw(ink)
    for i, ch in enumerate(text):
        dx, dy = offsets[i] if offsets else (0, 0)
        bb = d.textbbox((0, 0), ch, font=font, anchor="ls")
        d.text((x0 + i * pitch + pitch / 2 - (bb[0] + bb[2]) / 2 + dx, base + dy), ch, fill=255, font=font, anchor="ls")


def printer_ink(rng, ink, dpmm, params):
    """The printer's effect on the MRZ's ink (float 0-1 array): spread or starved, patchy,
    dot-matrix or thermal."""
    mode = rng.choice(["spread", "starved", "patchy", "dotmatrix", "thermal"])
    mode = FORCED_INK or mode  # drawn all the same, so that --ink changes nothing else
    params["ink_mode"] = mode
    img = Image.fromarray((ink * 255).astype(np.uint8))
    if mode == "spread":
        r = rng.choice([3, 5]) if dpmm > 9 else 3
        params["ink_spread_px"] = r // 2
        img = img.filter(ImageFilter.MaxFilter(r))
    elif mode == "starved":
        params["ink_spread_px"] = -1
        img = img.filter(ImageFilter.MinFilter(3))
    a = np.asarray(img).astype(np.float32) / 255
    h, w = a.shape
    if mode in ("patchy", "starved"):
        # Low-frequency fading: ink that did not take evenly.
        small = np.random.default_rng(rng.randint(0, 1 << 30)).random((max(2, h // 40), max(2, w // 40)))
        field = np.asarray(Image.fromarray((small * 255).astype(np.uint8)).resize((w, h), Image.BICUBIC)).astype(np.float32) / 255
        depth = rng.uniform(0.3, 0.6)
        params["ink_patchy"] = round(depth, 3)
        a = a * (1 - depth * field)
    if mode == "dotmatrix":
        # Ink only where the print head's pins strike: round dots on a grid a seventh of a cap.
        period = max(2.0, 2.4 * dpmm / rng.uniform(6, 9))
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        fx, fy = (xx % period) - period / 2, (yy % period) - period / 2
        dots = (fx * fx + fy * fy <= (0.5 * period * rng.uniform(0.8, 1.1)) ** 2).astype(np.float32)
        params["dot_period_px"] = round(period, 2)
        a = np.asarray(Image.fromarray((a * dots * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.5))).astype(np.float32) / 255
        a = np.clip(a * 1.3, 0, 1)
    if mode == "thermal":
        # A thermal head: rows that heat unevenly, some faint, and a little smear along the feed.
        rows = np.random.default_rng(rng.randint(0, 1 << 30)).uniform(rng.uniform(0.35, 0.7), 1.0, h).astype(np.float32)
        a = a * rows[:, None]
        a = np.asarray(Image.fromarray((a * 255).astype(np.uint8)).filter(ImageFilter.BoxBlur(0.6))).astype(np.float32) / 255
    strength = rng.uniform(0.55, 1.0)
    params["ink_strength"] = round(strength, 3)
    return a * strength


def render(rng, group, layout, lines, dpmm, params):
    """The upright document with its MRZ printed under `group`'s condition, and the band."""
    doc, band = mi.render_document(rng, layout, lines, dpmm, "nomrz")
    W, H = doc.size
    pitch, line_pitch, x0, bases = mrz_geometry(layout, lines, W, H, dpmm)
    cap = 2.4 * dpmm
    font_path = mi.OCRB
    offsets = None
    size = int(round(3.4 * dpmm))
    shift = 0.0
    if group == "distractor" and rng.random() < 0.3:
        # The distractor below the zone: the zone a line higher on this document.
        shift = -line_pitch
        params["distractor_side"] = "below"
    elif group == "distractor":
        params["distractor_side"] = "above"
    bases = [b + shift for b in bases]
    if group == "printer":
        font_path = rng.choice(OCRB_CUTS)
        params["printer_font"] = os.path.basename(font_path)
        scale = rng.uniform(0.97, 1.0)
        jitter = rng.uniform(0.005, 0.035)
        wobble = rng.uniform(0.0, 0.06) * cap
        params.update(pitch_scale=round(scale, 4), pitch_jitter=round(jitter, 4), baseline_wobble_px=round(wobble, 2))
        pitch *= scale
        x0 = (W - len(lines[0]) * pitch) / 2
        offsets = [[(rng.gauss(0, jitter * pitch), rng.gauss(0, wobble)) for _ in line] for line in lines]
    font = ImageFont.truetype(font_path, size)
    ink = Image.new("L", (W, H), 0)
    for k, line in enumerate(lines):
        draw_line(ink, line, font, x0, bases[k], pitch, offsets[k] if offsets else None)
    a = np.asarray(ink).astype(np.float32) / 255
    if group == "printer":
        a = printer_ink(rng, a, dpmm, params)
    tone = rng.randint(0, 45)
    arr = np.asarray(doc).astype(np.float32)
    arr = arr * (1 - a[:, :, None]) + np.array([tone, tone, tone + 8], np.float32) * a[:, :, None]
    doc = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    n = len(lines[0])
    band = (x0, bases[0] - cap, x0 + n * pitch, bases[-1])
    if group == "distractor":
        distractor(rng, doc, layout, lines, dpmm, pitch, line_pitch, x0, bases, params)
    if group == "occlusion":
        occlude(rng, doc, lines, dpmm, pitch, x0, bases, cap, params)
    return doc, band


def distractor(rng, doc, layout, lines, dpmm, pitch, line_pitch, x0, bases, params):
    """Monospaced text within a line height of the zone (params["distractor_side"])."""
    kind = rng.choice(["serial_small", "serial_full_width", "fake_band"])
    n = len(lines[0])
    below = params["distractor_side"] == "below"
    gap = rng.uniform(0.75, 1.25) * line_pitch            # baseline to baseline
    if kind == "serial_small":
        texts = ["".join(rng.choice(MRZ_CHARS) for _ in range(rng.randint(12, 22)))]
        font = ImageFont.truetype(rng.choice(MONO), int(round(rng.uniform(2.2, 3.0) * dpmm)))
        step = None
    elif kind == "serial_full_width":
        texts = ["".join(rng.choice(MRZ_CHARS) for _ in range(n))]
        font = ImageFont.truetype(rng.choice(MONO), int(round(3.4 * dpmm)))
        step = pitch
    else:
        # MRZ-like print: another zone's lines with their check digits wrong (a second valid
        # zone a line above this one would be a second document).
        layout = {44: "TD3", 36: "TD2", 30: "TD1"}[n]
        other = [list(line) for line in mi.make_mrz(rng, layout)[:2]]
        checks = {"TD3": [(1, 9), (1, 19), (1, 27), (1, 43)], "TD2": [(1, 9), (1, 19), (1, 27), (1, 35)],
                  "TD1": [(0, 14), (1, 6), (1, 14), (1, 29)]}[layout]
        for line, pos in checks:
            c = other[line][pos]
            other[line][pos] = str((int(c) + rng.randint(1, 9)) % 10) if c.isdigit() else str(rng.randint(0, 9))
        texts = ["".join(line) for line in other]
        font = ImageFont.truetype(mi.OCRB, int(round(3.4 * dpmm)))
        step = pitch
    ink = Image.new("L", doc.size, 0)
    d = ImageDraw.Draw(ink)
    out = []
    for j, text in enumerate(texts):
        if below:
            base = bases[-1] + gap + j * line_pitch
        else:
            base = bases[0] - gap - (len(texts) - 1 - j) * line_pitch
        if step:
            draw_line(ink, text, font, x0 + rng.uniform(-0.3, 0.3) * pitch, base, step)
        else:
            d.text((x0 + rng.uniform(0, 20) * dpmm, base), text, fill=255, font=font, anchor="ls")
        out.append(text)
    a = np.asarray(ink).astype(np.float32)[:, :, None] / 255
    tone = rng.randint(10, 70)
    arr = np.asarray(doc).astype(np.float32) * (1 - a) + tone * a
    doc.paste(Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)))
    params.update(distractor_kind=kind, distractor_lines=out, distractor_gap_lines=round(gap / line_pitch, 3))


def occlude(rng, doc, lines, dpmm, pitch, x0, bases, cap, params):
    """A finger or a shadow over 1-3 characters at one end of a line."""
    k = rng.randint(0, len(lines) - 1)
    count = rng.randint(1, 3)
    side = rng.choice(["left", "right"])
    n = len(lines[0])
    edge = x0 + count * pitch + 0.1 * pitch if side == "left" else x0 + (n - count) * pitch - 0.1 * pitch
    W, H = doc.size
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    arr = np.asarray(doc).astype(np.float32)
    kind = rng.choice(["finger", "shadow"])
    cy = bases[k] - cap / 2
    if kind == "finger":
        # A fingertip coming in from the document's side: an ellipse, shaded towards its rim.
        half = rng.uniform(7, 10) * dpmm
        cx = edge - half if side == "left" else edge + half
        ry = rng.uniform(0.9, 1.6) * half
        r2 = ((xx - cx) / half) ** 2 + ((yy - cy) / ry) ** 2
        inside = np.clip((1 - r2) * 8, 0, 1)
        skin = np.array(rng.choice([(224, 172, 150), (198, 134, 100), (120, 84, 62), (240, 200, 180)]), np.float32)
        shade = (0.75 + 0.25 * np.clip(1 - r2, 0, 1))[:, :, None]
        arr = arr * (1 - inside[:, :, None]) + skin * shade * inside[:, :, None]
        params["finger_half_width_mm"] = round(half / dpmm, 2)
        # The characters the finger covers: a fifth or more of the cell's glyph box (its pitch wide,
        # a cap height tall above the baseline) under the fingertip. No reader can know them all.
        covered = []
        for j, line in enumerate(lines):
            for i in range(len(line)):
                box = inside[int(bases[j] - cap):int(bases[j]) + 1, int(x0 + i * pitch):int(x0 + (i + 1) * pitch) + 1]
                if box.size and (box > 0.5).mean() >= 0.2:
                    covered.append([j, i])
        params["covered_cells"] = covered
    else:
        darkness = rng.uniform(0.75, 0.92)
        soft = rng.uniform(0.1, 0.3) * pitch
        t = (edge - xx) / soft if side == "left" else (xx - edge) / soft
        cover = np.clip(0.5 + t, 0, 1)
        arr = arr * (1 - darkness * cover[:, :, None])
        params["shadow_darkness"] = round(darkness, 3)
    doc.paste(Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)))
    params.update(occluder=kind, occluded_line=k, occluded_chars=count, occluded_side=side)


def bent(rng, doc, band, params):
    """The document bent around a cylinder and seen at an angle: returns the image (RGBA, the
    page's mask in alpha) and the forward map of page points."""
    W, H = doc.size
    theta = math.radians(rng.uniform(15, 50))                # half the arc the page's width spans
    R = W / (2 * theta)
    cap = 2.4 / 2.54 * (band[2] - band[0]) / len(params["lines"][0])     # OCR-B's cap height, pixels
    bow = rng.uniform(0.5, 2.5) * cap
    up = rng.choice([-1, 1])                                 # the page's ends bend towards or away
    tilt = rng.uniform(-0.08, 0.08)                          # one end nearer the camera: taller
    bend_side = rng.choice(["centre", "left", "right"])     # a spine on one side bends that end most
    params.update(bend_half_angle_deg=round(math.degrees(theta), 2), bow_px=round(bow, 2), bow_direction=up,
                  height_change=round(tilt, 3), bend_side=bend_side)

    def phi_of(xs):                                          # arc angle of page column xs
        return (xs - W / 2) / R

    def weight(phi):                                         # 0 at the page's flat part, 1 at the bent end
        if bend_side == "centre":
            return (1 - np.cos(phi)) / (1 - math.cos(theta))
        s = (phi + theta) / (2 * theta) if bend_side == "right" else (theta - phi) / (2 * theta)
        return np.clip(s, 0, 1) ** 2

    # The bent page drawn on a canvas taller by what the bow and the height change add, so that
    # no part of it falls off.
    pad = int(math.ceil(bow + abs(tilt) * H / 2)) + 4

    def fwd(xs, ys):
        phi = phi_of(np.asarray(xs, np.float64))
        xo = W / 2 + R * np.sin(phi)
        scale = 1 + tilt * (xo - W / 2) / (W / 2)
        yo = pad + H / 2 + (np.asarray(ys, np.float64) - H / 2) * scale + up * bow * weight(phi)
        return xo, yo

    # Inverse per output pixel: the column from the arc, then the row from the column's scale.
    yy, xx = np.mgrid[0:H + 2 * pad, 0:W].astype(np.float64)
    u = np.clip((xx - W / 2) / R, -1, 1)
    phi = np.arcsin(u)
    xs = W / 2 + R * phi
    scale = 1 + tilt * (xx - W / 2) / (W / 2)
    ys = H / 2 + (yy - pad - H / 2 - up * bow * weight(phi)) / scale
    valid = (np.abs((xx - W / 2)) <= R * math.sin(theta)) & (xs >= 0) & (xs <= W - 1) & (ys >= 0) & (ys <= H - 1)
    src = np.asarray(doc.convert("RGB")).astype(np.float32)
    x0i = np.clip(np.floor(xs).astype(int), 0, W - 2)
    y0i = np.clip(np.floor(ys).astype(int), 0, H - 2)
    fx, fy = (xs - x0i)[:, :, None], (ys - y0i)[:, :, None]
    img = (src[y0i, x0i] * (1 - fx) * (1 - fy) + src[y0i, x0i + 1] * fx * (1 - fy)
           + src[y0i + 1, x0i] * (1 - fx) * fy + src[y0i + 1, x0i + 1] * fx * fy)
    # Shading: the bent part turns away from the light.
    img = img * (1 - 0.18 * weight(phi)[:, :, None] * (rng.random() < 0.7))
    rgba = np.dstack([np.clip(img, 0, 255), valid.astype(np.float32) * 255]).astype(np.uint8)
    return Image.fromarray(rgba, "RGBA"), fwd


def motion_blur(rng, arr, cap_px, params):
    """Linear motion blur along a random direction, 0.15-1 cap height long."""
    length = rng.uniform(0.15, 1.0) * cap_px
    angle = rng.uniform(0, 180)
    params.update(motion_length_px=round(length, 2), motion_angle_deg=round(angle, 2))
    steps = max(2, int(math.ceil(length)) + 1)
    out = np.zeros_like(arr)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    for t in np.linspace(-length / 2, length / 2, steps):
        dx, dy = t * c, t * s
        ix, iy = int(math.floor(dx)), int(math.floor(dy))
        fx, fy = dx - ix, dy - iy
        for (ox, oy, wgt) in ((ix, iy, (1 - fx) * (1 - fy)), (ix + 1, iy, fx * (1 - fy)), (ix, iy + 1, (1 - fx) * fy), (ix + 1, iy + 1, fx * fy)):
            if wgt > 0:
                out += wgt * np.roll(np.roll(arr, oy, axis=0), ox, axis=1)
    return out / steps


def make(rng, group, layout):
    """One photo: (image, record for the manifest)."""
    lines = mi.make_mrz(rng, layout)
    params = {"lines": lines}
    dpmm = rng.uniform(7.5, 11.0)
    doc, band = render(rng, group, layout, lines, dpmm, params)
    dw, dh = doc.size
    page = [(0, 0), (dw, 0), (dw, dh), (0, dh)]
    mrz = [(band[0], band[1]), (band[2], band[1]), (band[2], band[3]), (band[0], band[3])]
    if group == "curved":
        doc, fwd = bent(rng, doc, band, params)
        def mapped(points):
            xo, yo = fwd([p[0] for p in points], [p[1] for p in points])
            return list(zip(xo.tolist(), yo.tolist()))
        page, mrz = mapped(page), mapped(mrz)
        mask_src = doc.split()[3]
        doc = doc.convert("RGB")
        dw, dh = doc.size
    else:
        mask_src = Image.new("L", doc.size, 255)
    margin = rng.uniform(0.12, 0.3)
    W, H = int(dw * (1 + 2 * margin)), int(dh * (1 + 2 * margin))
    angle = math.radians(rng.uniform(-5, 5))
    k = rng.uniform(0, 0.06)                                 # keystone: one side a little shorter
    canvas = [(-dw / 2, -dh / 2 * (1 - k)), (dw / 2, -dh / 2), (dw / 2, dh / 2), (-dw / 2, dh / 2 * (1 - k))]
    cx, cy = W / 2 + rng.uniform(-0.04, 0.04) * W, H / 2 + rng.uniform(-0.04, 0.04) * H
    placed = [(cx + x * math.cos(angle) - y * math.sin(angle), cy + x * math.sin(angle) + y * math.cos(angle)) for x, y in canvas]
    src = [(0, 0), (dw, 0), (dw, dh), (0, dh)]
    coeffs = mi.perspective_coeffs(src, placed)
    bg = mi.scene(rng, (W, H), clutter=rng.random() < 0.3)
    bg.paste(doc.transform((W, H), Image.PERSPECTIVE, coeffs, Image.BICUBIC), (0, 0),
             mask_src.transform((W, H), Image.PERSPECTIVE, coeffs, Image.BILINEAR))
    Hm = np.array(mi.perspective_coeffs(placed, src) + [1.0]).reshape(3, 3)

    def to_image(p):
        q = Hm @ np.array([p[0], p[1], 1.0])
        return [round(q[0] / q[2], 1), round(q[1] / q[2], 1)]
    quad, corners = [to_image(p) for p in mrz], [to_image(p) for p in page]
    cap_px = 2.4 * dpmm                                      # the placement does not scale the page
    arr = np.asarray(bg).astype(np.float32)
    if group == "motion":
        arr = motion_blur(rng, arr, cap_px, params)
    nrng = np.random.default_rng(rng.randint(0, 1 << 30))
    arr = arr + nrng.normal(0, rng.uniform(1.5, 4), arr.shape)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")
    quality = rng.randint(75, 92)
    del params["lines"]
    record = {"group": group, "layout": layout, "lines": lines, "quad": quad, "corners": corners,
              "capHeightPx": round(cap_px, 2), "width": W, "height": H, "params": params, "quality": quality}
    return img, record


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=2, help="photos per condition")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--groups", default=",".join(GROUPS))
    ap.add_argument("--ink", choices=["spread", "starved", "patchy", "dotmatrix", "thermal"],
                    help="the printer group's ink mode for every photo (default: drawn per photo)")
    ap.add_argument("--picks", type=int, nargs="+",
                    help="keep only the photos of these numbers (every photo is still drawn, so that each is the one the full set holds)")
    args = ap.parse_args()
    global FORCED_INK
    FORCED_INK = args.ink
    os.makedirs(args.out, exist_ok=True)
    options = "" if args.groups == ",".join(GROUPS) else " --groups " + args.groups
    options += " --ink " + args.ink if args.ink else ""
    options += " --picks " + " ".join(map(str, args.picks)) if args.picks else ""
    manifest = {"generator": "TestVectors/images/conditions.py --count %d --seed %d%s" % (args.count, args.seed, options),
                "seed": args.seed, "images": []}
    layouts = ["TD3", "TD1", "TD2"]
    for group in args.groups.split(","):
        rng = random.Random("%d/%s" % (args.seed, group))
        for i in range(args.count):
            layout = layouts[i % 3]
            img, record = make(rng, group, layout)
            if args.picks and i not in args.picks:
                continue
            name = "%s-%02d-%s.jpg" % (group, i, layout.lower())
            img.save(os.path.join(args.out, name), "JPEG", quality=record.pop("quality"))
            manifest["images"].append({"file": name, **record})
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
