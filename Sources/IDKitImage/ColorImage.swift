/// An 8-bit RGB image (rows packed, three bytes a pixel): what a photo is before the readers see
/// its gray derivation, kept for the crops a caller stores (the document, its face photo).
public struct ColorImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Red, green, blue, row by row.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGB pixels must be width × height × 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The gray image the readers use: ITU-R BT.601 luma with the integer weights the decoders use
    /// (77, 150, 29 over 256), so that a gray pixel (v, v, v) stays v.
    public var gray: GrayImage {
        var out = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { g in
                for i in 0..<(width * height) {
                    let r = UInt32(p[3 * i]), gr = UInt32(p[3 * i + 1]), b = UInt32(p[3 * i + 2])
                    g[i] = UInt8((77 * r + 150 * gr + 29 * b + 128) >> 8)
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The pixels of the rectangle from (`x`, `y`), `width` × `height`, clipped to the image (as
    /// ``GrayImage/cropped(x:y:width:height:)``).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> ColorImage {
        let x0 = max(0, min(self.width, x)), y0 = max(0, min(self.height, y))
        let x1 = max(x0, min(self.width, x + width)), y1 = max(y0, min(self.height, y + height))
        var out = [UInt8]()
        out.reserveCapacity((x1 - x0) * (y1 - y0) * 3)
        for row in y0..<y1 { out.append(contentsOf: pixels[((row * self.width + x0) * 3)..<((row * self.width + x1) * 3)]) }
        return ColorImage(width: x1 - x0, height: y1 - y0, pixels: out)
    }

    public func applyingEXIFOrientation(_ orientation: Int) -> ColorImage {
        let (out, w, h) = ExifOrientation.apply(orientation, to: pixels, width: width, height: height, channels: 3)
        return ColorImage(width: w, height: h, pixels: out)
    }
}

/// EXIF orientation (TIFF tag 274: 1 upright … 8), applied to pixels of any channel count.
enum ExifOrientation {
    static func apply(_ orientation: Int, to pixels: [UInt8], width: Int, height: Int, channels: Int) -> ([UInt8], Int, Int) {
        guard (2...8).contains(orientation) else { return (pixels, width, height) }
        let transposed = orientation >= 5
        let w = transposed ? height : width, h = transposed ? width : height
        var out = [UInt8](repeating: 0, count: w * h * channels)
        for y in 0..<h {
            for x in 0..<w {
                // The source pixel that lands at (x, y) of the upright image.
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (width - 1 - x, y)                 // mirrored
                case 3: (sx, sy) = (width - 1 - x, height - 1 - y)    // turned 180°
                case 4: (sx, sy) = (x, height - 1 - y)                // mirrored vertically
                case 5: (sx, sy) = (y, x)                             // transposed
                case 6: (sx, sy) = (y, height - 1 - x)                // turned 90° clockwise to show
                case 7: (sx, sy) = (width - 1 - y, height - 1 - x)    // transverse
                default: (sx, sy) = (width - 1 - y, x)                // 8: turned 90° counter-clockwise
                }
                let from = (sy * width + sx) * channels, to = (y * w + x) * channels
                for c in 0..<channels { out[to + c] = pixels[from + c] }
            }
        }
        return (out, w, h)
    }
}
