import Foundation
import IDKitImage
import IDKitMRZ

// Straightening a bent line: a quadratic fitted to its character centers, and the strip shifted by it.
extension MRZLineReader {
    /// Rows of slack above and below a strip for straightening a bent line.
    static let bendMargin = 6

    /// The vertical offset of a line's character centers along the strip, as a quadratic fitted
    /// (twice, the second time without centers more than 3 px off the first fit) to the centers in
    /// strip coordinates; `nil` when the line is straight to within a pixel or too few centers.
    static func bend(_ centers: [Point], centerRow: Double, width: Int) -> [Double]? {
        var points = centers.filter { $0.x >= 0 && $0.x <= Double(width) && abs($0.y - centerRow) < Double(bendMargin) + 4 }
        guard points.count >= 10 else { return nil }
        var coefficients: (Double, Double, Double)?
        for _ in 0..<2 {
            guard points.count >= 10, let c = fitQuadratic(points.map { ($0.x / Double(width), $0.y - centerRow) }) else { return nil }
            coefficients = c
            points = points.filter { abs(c.0 + c.1 * $0.x / Double(width) + c.2 * pow($0.x / Double(width), 2) - ($0.y - centerRow)) < 3 }
        }
        guard let (a, b, c) = coefficients else { return nil }
        // Beyond the centers it was fitted to, a quadratic runs off: it holds its value at the
        // last center found (a line whose first characters were too faint to be found as
        // components was cut from above them).
        let xs = points.map(\.x)
        let first = (xs.min() ?? 0) / Double(width), last = (xs.max() ?? Double(width)) / Double(width)
        let offsets = (0..<width).map { x -> Double in
            let t = min(last, max(first, Double(x) / Double(width)))
            return max(-Double(bendMargin), min(Double(bendMargin), a + b * t + c * t * t))
        }
        return offsets.contains { abs($0) > 1 } ? offsets : nil
    }

    /// Least squares y = a + b·t + c·t².
    static func fitQuadratic(_ samples: [(Double, Double)]) -> (Double, Double, Double)? {
        polynomial(samples, degree: 2).map { ($0[0], $0[1], $0[2]) }
    }

    /// Least squares y = c₀ + c₁·t + … + c_degree·t^degree (normal equations, Gauss–Jordan
    /// elimination with partial pivoting); `nil` when singular.
    static func polynomial(_ samples: [(Double, Double)], degree: Int) -> [Double]? {
        let k = degree + 1
        var m = [[Double]](repeating: [Double](repeating: 0, count: k + 1), count: k)
        for (t, y) in samples {
            var powers = [Double](repeating: 1, count: k)
            for i in 1..<k { powers[i] = powers[i - 1] * t }
            for i in 0..<k {
                for j in 0..<k { m[i][j] += powers[i] * powers[j] }
                m[i][k] += powers[i] * y
            }
        }
        for col in 0..<k {
            guard let pivot = (col..<k).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-9 else { return nil }
            m.swapAt(col, pivot)
            for row in 0..<k where row != col {
                let f = m[row][col] / m[col][col]
                for j in col...k { m[row][j] -= f * m[col][j] }
            }
        }
        return (0..<k).map { m[$0][k] / m[$0][$0] }
    }

    /// The strip cut out of the taller one, each column moved by its offset (linear between rows).
    static func shifted(_ tall: GrayImage, rows: Int, margin: Int, by offsets: [Double]?) -> GrayImage {
        let width = tall.width
        guard let offsets else {
            return GrayImage(width: width, height: rows, pixels: Array(tall.pixels[(margin * width)..<((margin + rows) * width)]))
        }
        var out = [UInt8](repeating: 255, count: width * rows)
        for x in 0..<width {
            for y in 0..<rows {
                let sy = Double(y + margin) + offsets[x]
                let y0 = Int(sy.rounded(.down)), f = sy - Double(y0)
                guard y0 >= 0, y0 + 1 < tall.height else { continue }
                let a = Double(tall.pixels[y0 * width + x]), b = Double(tall.pixels[(y0 + 1) * width + x])
                out[y * width + x] = UInt8(max(0, min(255, (a + (b - a) * f).rounded())))
            }
        }
        return GrayImage(width: width, height: rows, pixels: out)
    }
}
