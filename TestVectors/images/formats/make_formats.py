#!/usr/bin/env python3
"""The image-format test set of issue 14: one generated document photo in every format IDKit reads.

    python3 TestVectors/images/formats/make_formats.py

Source: TestVectors/images/clean-01-td1.jpg (our own generated photo, make_images.py), in gray and
at 420 px wide, saved as `twin.png`, the reference. Each other file holds the same pixels:
  - BMP: 8-bit with a gray palette (`gray8.bmp`); 24-bit RGB (`rgb24.bmp`) and top-down 32-bit
    (`rgb32-topdown.bmp`, written by hand: Pillow writes bottom-up only) of the twin's top-left
    210 x 100 pixels (CROP), to keep the files small;
  - TIFF: two pages, LZW (`two-pages.tif`: the image, then the image turned 180°) and one page
    with the orientation tag 3 (`orientation-3.tif`: stored turned, to be shown upright);
  - WebP lossless (`lossless.webp`) and lossy (`lossy.webp`, compared within a tolerance), and
    lossless with an EXIF chunk saying orientation 6 (`orientation-6.webp`: stored turned 90°
    counter-clockwise, to be shown upright);
  - GIF with a 256-gray palette (`gray.gif`);
  - JPEG 2000, a lossless JP2 in RGB (`lossless.jp2`, Pillow's OpenJPEG);
  - HEIC, lossless in RGB (`lossless.heic`, heif-enc -L -p chroma=444 --matrix_coefficients=0)
    and lossy (`lossy.heic`, default settings), from Debian's libheif-examples.
Oversized headers (100000 × 100000) are made by the tests themselves, not stored here. The
`tiny-*` files (48 x 30, every format and variant above) are the fuzzer's seeds (Fuzz/IDKitFuzz):
small enough for its 64 KiB inputs.
Needs Pillow (PyPI) and heif-enc (Debian libheif-examples).
"""
import os
import struct
import subprocess

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "clean-01-td1.jpg")
CROP = (0, 0, 210, 100)


def main():
    im = Image.open(SOURCE).convert("L")
    write_all(im.resize((420, round(420 * im.height / im.width)), Image.LANCZOS), "")
    write_all(im.resize((48, 30), Image.LANCZOS), "tiny-")


def write_all(im, prefix):
    out = lambda name: os.path.join(HERE, prefix + name)
    im.save(out("twin.png"))
    im.save(out("gray8.bmp"))
    crop = im.crop(CROP) if im.width > CROP[2] else im
    crop.convert("RGB").save(out("rgb24.bmp"))
    write_topdown_bmp32(crop, out("rgb32-topdown.bmp"))
    im.save(out("two-pages.tif"), compression="tiff_lzw", save_all=True, append_images=[im.rotate(180)])
    turned = im.rotate(180)
    turned.save(out("orientation-3.tif"), compression="tiff_lzw", tiffinfo={274: 3})
    # JPEG 2000 (issue 17: ePassport faces): a JP2 file, reversible 5/3 wavelet (lossless), RGB.
    im.convert("RGB").save(out("lossless.jp2"), irreversible=False)
    im.convert("RGB").save(out("lossless.webp"), lossless=True)
    im.convert("RGB").save(out("lossy.webp"), quality=90)
    exif = Image.Exif()
    exif[0x0112] = 6
    im.rotate(90, expand=True).convert("RGB").save(out("orientation-6.webp"), lossless=True, exif=exif.tobytes())
    gif = Image.frombytes("P", im.size, im.tobytes())
    gif.putpalette([v for g in range(256) for v in (g, g, g)])
    gif.save(out("gray.gif"))
    rgb = out("twin-rgb.png")
    im.convert("RGB").save(rgb)
    subprocess.run(["heif-enc", "-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", out("lossless.heic"), rgb], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["heif-enc", "-q", "80", "-o", out("lossy.heic"), rgb], check=True, stdout=subprocess.DEVNULL)
    os.remove(rgb)


def write_topdown_bmp32(im, path):
    """BITMAPINFOHEADER, BI_RGB, 32 bits, negative height (rows top first)."""
    w, h = im.size
    pixels = im.tobytes()
    rows = b"".join(bytes(v for p in pixels[y * w:(y + 1) * w] for v in (p, p, p, 255)) for y in range(h))
    header = struct.pack("<IiiHHIIiiII", 40, w, -h, 1, 32, 0, len(rows), 2835, 2835, 0, 0)
    with open(path, "wb") as f:
        f.write(b"BM" + struct.pack("<IHHI", 14 + 40 + len(rows), 0, 0, 14 + 40) + header + rows)


if __name__ == "__main__":
    main()
