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

    /// The quadrilateral with every corner mapped by `transform`.
    public func mapped(_ transform: (Point) -> Point) -> Quadrilateral {
        Quadrilateral(topLeft: transform(topLeft), topRight: transform(topRight),
                      bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }
}
