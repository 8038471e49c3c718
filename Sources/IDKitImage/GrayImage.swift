internal import COpenCVShim
/// An 8-bit grayscale image, rows packed top to bottom. The one pixel format the readers use.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "pixel count must be width × height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A blank image filled with `value`.
    public init(width: Int, height: Int, filledWith value: UInt8 = 255) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: value, count: width * height))
    }

    @inline(__always) public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

/// A point in image coordinates (pixels; x to the right, y down).
public struct Point: Sendable, Equatable, Codable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// Four corners: top-left, top-right, bottom-right, bottom-left of the thing they bound.
public struct Quadrilateral: Sendable, Equatable, Codable, Hashable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// The quadrilateral of four points, in the order given.
    public init(_ corners: [Point]) {
        precondition(corners.count == 4, "a quadrilateral has four corners")
        self.init(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }

    /// Area in square pixels (the shoelace formula; either winding order).
    public var area: Double {
        let c = corners
        var twice = 0.0
        for i in 0..<4 { let p = c[i], n = c[(i + 1) % 4]; twice += p.x * n.y - n.x * p.y }
        return abs(twice) / 2
    }

    /// The mean of the corners.
    public var center: Point {
        Point(x: (topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4, y: (topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4)
    }

    /// Whether `p` lies inside (a convex quadrilateral, corners in either winding order).
    public func contains(_ p: Point) -> Bool {
        let c = corners
        var sign = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross != 0 {
                if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
            }
        }
        return true
    }

    /// The quadrilateral with every corner mapped by `transform`.
    public func mapped(_ transform: (Point) -> Point) -> Quadrilateral {
        Quadrilateral(topLeft: transform(topLeft), topRight: transform(topRight),
                      bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }
}

extension GrayImage {
    /// The image as it should be shown, given the JPEG EXIF orientation tag (1–8, TIFF/EXIF 2.3
    /// §4.6.4 "Orientation"): phones store the sensor's rows and record the turn in this tag.
    /// Values 0 and 1, and unknown values, leave the image as it is.
    /// Each pixel the darkest of its 3 × 3 neighborhood (a gray-level erosion of the paper, a
    /// dilation of the ink): thin or faded strokes become solid.
    public func darkened3x3() -> GrayImage { filtered3x3(maximum: false) }

    /// Each pixel the lightest of its 3 × 3 neighborhood: spread ink thins and characters that
    /// touch come apart.
    public func lightened3x3() -> GrayImage { filtered3x3(maximum: true) }

    /// A 3 × 3 rank filter, edges clamped: OpenCV's erode (`maximum` false: the darkest) or dilate
    /// (the lightest), through the shim. Unchanged if OpenCV fails.
    private func filtered3x3(maximum: Bool) -> GrayImage {
        guard width >= 3, height >= 3 else { return self }
        return filtered { idk_rank3x3($0, Int32(width), Int32(height), maximum ? 1 : 0, $1) } ?? self
    }

    /// The image of the same size that `filter` (a shim call: source, target; 0 on success) makes
    /// of this one; `nil` when it fails.
    private func filtered(_ filter: (UnsafePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) -> Int32) -> GrayImage? {
        var out = [UInt8](repeating: 0, count: pixels.count)
        let status = pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in filter(src.baseAddress, dst.baseAddress) }
        }
        return status == 0 ? GrayImage(width: width, height: height, pixels: out) : nil
    }

    /// The light background under dark marks: the gray closing by a `kernelWidth` ×
    /// `kernelHeight` rectangle (OpenCV's morphologyEx, edges replicated), which removes every
    /// dark mark the rectangle cannot fit into. `nil` if OpenCV fails.
    public func closed(kernelWidth: Int, kernelHeight: Int) -> GrayImage? {
        guard width > 0, height > 0, kernelWidth > 0, kernelHeight > 0 else { return nil }
        return filtered { idk_close_gray($0, Int32(width), Int32(height), Int32(kernelWidth), Int32(kernelHeight), $1) }
    }

    /// The dark marks narrower than a `kernel` × `kernel` square on a white ground: each pixel's
    /// depth below the image's gray closing by that square (the black-hat transform), times `gain`,
    /// subtracted from white. Paper whose brightness varies more slowly than the square (a
    /// guilloche's waves, a shadow) becomes even white, and faint thin strokes on it dark. `nil`
    /// if OpenCV fails.
    public func inkDepth(kernel: Int, gain: Int) -> GrayImage? {
        guard width > 0, height > 0, kernel > 0, gain > 0 else { return nil }
        return filtered { idk_ink_depth($0, Int32(width), Int32(height), Int32(kernel), Int32(gain), $1) }
    }

    /// The pixels of the rectangle from (`x`, `y`), `width` × `height`, clipped to the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> GrayImage {
        let x0 = max(0, min(self.width, x)), y0 = max(0, min(self.height, y))
        let x1 = max(x0, min(self.width, x + width)), y1 = max(y0, min(self.height, y + height))
        var out = [UInt8]()
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for row in y0..<y1 { out.append(contentsOf: pixels[(row * self.width + x0)..<(row * self.width + x1)]) }
        return GrayImage(width: x1 - x0, height: y1 - y0, pixels: out)
    }

    public func applyingEXIFOrientation(_ orientation: Int) -> GrayImage {
        let (out, w, h) = ExifOrientation.apply(orientation, to: pixels, width: width, height: height, channels: 1)
        return GrayImage(width: w, height: h, pixels: out)
    }
}
