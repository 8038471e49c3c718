/// A plane projective transform (3×3, h22 = 1), mapping points of one plane to another.
/// Used to straighten a located symbol: output rectangle → quadrilateral in the photo.
public struct Homography: Sendable, Equatable {
    /// Row-major h00…h21 (h22 = 1).
    public var h: [Double]

    /// The transform that maps each of `from` onto the matching point of `to` (4 pairs),
    /// or `nil` when three of the points are collinear.
    public init?(from: [Point], to: [Point]) {
        guard from.count == 4, to.count == 4 else { return nil }
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for k in 0..<4 {
            let (x, y, u, v) = (from[k].x, from[k].y, to[k].x, to[k].y)
            a[2 * k] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * k + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        // Gaussian elimination with partial pivoting on the 8×9 augmented matrix.
        for col in 0..<8 {
            var pivot = col
            for r in col..<8 where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            guard abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<8 where r != col {
                let f = a[r][col] / a[col][col]
                if f == 0 { continue }
                for c in col..<9 { a[r][c] -= f * a[col][c] }
            }
        }
        h = (0..<8).map { a[$0][8] / a[$0][$0] }
    }

    @inline(__always) public func apply(_ p: Point) -> Point {
        let w = h[6] * p.x + h[7] * p.y + 1
        return Point(x: (h[0] * p.x + h[1] * p.y + h[2]) / w, y: (h[3] * p.x + h[4] * p.y + h[5]) / w)
    }
}

extension GrayImage {
    /// An image of `width`×`height` whose pixel (x, y) is this image sampled (bilinear) at
    /// `transform(x + 0.5, y + 0.5)`; outside this image, `fill`.
    public func warped(width: Int, height: Int, by transform: Homography, fill: UInt8 = 255) -> GrayImage {
        var out = [UInt8](repeating: fill, count: width * height)
        let h = transform.h
        let sw = self.width, sh = self.height
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let fy = Double(y) + 0.5
                    for x in 0..<width {
                        let fx = Double(x) + 0.5
                        let w = h[6] * fx + h[7] * fy + 1
                        let sx = (h[0] * fx + h[1] * fy + h[2]) / w - 0.5
                        let sy = (h[3] * fx + h[4] * fy + h[5]) / w - 0.5
                        guard sx >= 0, sy >= 0, sx < Double(sw - 1), sy < Double(sh - 1) else { continue }
                        let ix = Int(sx), iy = Int(sy)
                        let ax = sx - Double(ix), ay = sy - Double(iy)
                        let i = iy * sw + ix
                        let top = Double(src[i]) * (1 - ax) + Double(src[i + 1]) * ax
                        let bottom = Double(src[i + sw]) * (1 - ax) + Double(src[i + sw + 1]) * ax
                        dst[y * width + x] = UInt8(top * (1 - ay) + bottom * ay + 0.5)
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The image flipped left to right.
    public func mirrored() -> GrayImage {
        var out = pixels
        for y in 0..<height {
            let row = y * width
            for x in 0..<width { out[row + x] = pixels[row + width - 1 - x] }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
