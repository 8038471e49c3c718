import Foundation
import IDKitImage

/// One MRZ line followed along its own character centers, for a page or card that bends: a
/// booklet's data page curving up towards the spine, a card held bowed. Its lines are arcs whose
/// height and pitch change along their length, which no homography of the whole band follows
/// (ICAO 9303-3 §4.2 prints them straight at a fixed pitch; the bend is the capture's).
///
/// The center of position `i` is a cubic in `i` fitted to the centers found (``MRZLineReader/cells(_:)``),
/// held straight beyond the first and last found. Across the line, the glyph's upright runs
/// towards the same position on the neighboring lines, whose distance also gives the local
/// character height (the lines are printed at one spacing, so where they stand further apart
/// the print is nearer the camera).
struct MRZLineCurve {
    /// Coefficients of x and y in powers of `i / scale`.
    let cx: [Double], cy: [Double]
    let scale: Double
    /// The first and last positions a center was found at.
    let first: Double, last: Double

    /// The cubic through `cells` (position, center), fitted twice (the second time without the
    /// centers a third of `pitch` off the first fit: merged characters, specks); `nil` when too few
    /// centers or too short a stretch of the line were found to follow it.
    init?(cells: [(index: Int, center: Point)], lineLength: Int, pitch: Double) {
        var kept = cells
        var fit: (x: [Double], y: [Double])?
        let scale = Double(max(1, lineLength - 1))
        for _ in 0..<2 {
            guard kept.count >= max(10, lineLength / 3),
                  let lo = kept.map(\.index).min(), let hi = kept.map(\.index).max(), Double(hi - lo) >= 0.6 * scale,
                  let x = Self.cubic(kept.map { (Double($0.index) / scale, $0.center.x) }),
                  let y = Self.cubic(kept.map { (Double($0.index) / scale, $0.center.y) }) else { return nil }
            fit = (x, y)
            kept = kept.filter {
                let t = Double($0.index) / scale
                return hypot(Self.value(x, t) - $0.center.x, Self.value(y, t) - $0.center.y) < pitch / 3
            }
        }
        guard let fit, let lo = kept.map(\.index).min(), let hi = kept.map(\.index).max() else { return nil }
        (cx, cy, self.scale, first, last) = (fit.x, fit.y, scale, Double(lo), Double(hi))
    }

    /// The center of (fractional) position `i`.
    func point(_ i: Double) -> Point {
        let clamped = min(last, max(first, i))
        let t = clamped / scale
        var p = Point(x: Self.value(cx, t), y: Self.value(cy, t))
        if clamped != i {
            let d = tangent(clamped)
            p.x += d.x * (i - clamped)
            p.y += d.y * (i - clamped)
        }
        return p
    }

    /// The derivative along the line, in image pixels per position.
    func tangent(_ i: Double) -> Point {
        let t = min(last, max(first, i)) / scale
        return Point(x: Self.slope(cx, t) / scale, y: Self.slope(cy, t) / scale)
    }

    static func value(_ c: [Double], _ t: Double) -> Double { c[0] + t * (c[1] + t * (c[2] + t * c[3])) }
    static func slope(_ c: [Double], _ t: Double) -> Double { c[1] + t * (2 * c[2] + t * 3 * c[3]) }

    /// Least squares v = c0 + c1 t + c2 t² + c3 t³; `nil` when singular.
    static func cubic(_ samples: [(Double, Double)]) -> [Double]? {
        MRZLineReader.polynomial(samples, degree: 3)
    }
}

extension MRZLineReader {
    /// How far (in pitches, root mean square) the centers found may stand off the band's
    /// homography before the lines are followed along their own curves (``MRZLineCurve``): flat
    /// prints, tilted or not, fit within a few hundredths.
    static let curvedResidual = 0.12

    /// Every line of the band followed along its centers, when the band's homography misses them
    /// by more than ``curvedResidual`` and every line can be followed; otherwise `nil` (the
    /// homography and ``bend(_:centerRow:width:)`` cut the strips).
    static func curves(_ band: MRZBand, _ geometry: Rectification) -> [MRZLineCurve]? {
        let lines = geometry.cells
        guard residual(band, geometry, lines) > curvedResidual else { return nil }
        let curves = lines.compactMap { MRZLineCurve(cells: $0, lineLength: band.lineLength, pitch: band.pitch) }
        return curves.count == band.lines.count ? curves : nil
    }

    /// How far the centers found stand off the band's homography: the root mean square, in pitches.
    static func residual(_ band: MRZBand, _ geometry: Rectification, _ lines: [[(index: Int, center: Point)]]) -> Double {
        let w = Double(OCRBClassifier.width)
        var squares = 0.0, count = 0
        for (k, line) in lines.enumerated() {
            for cell in line {
                let p = geometry.transform.apply(Point(x: geometry.left + Double(cell.index) * w, y: geometry.top + Double(k) * geometry.spacing))
                squares += (pow(p.x - cell.center.x, 2) + pow(p.y - cell.center.y, 2)) / (band.pitch * band.pitch)
                count += 1
            }
        }
        return count > 0 ? (squares / Double(count)).squareRoot() : 0
    }

    /// Line `k`'s strip cut along the curves: strip pixel (x, y) is position (x − left) / 20 of the
    /// line, y − top strip pixels across it, where one strip pixel across is a twentieth of the
    /// character height there.
    static func curvedStrip(_ image: GrayImage, curves: [MRZLineCurve], line k: Int, band: MRZBand,
                            left: Double, top: Double, width: Int, height: Int) -> GrayImage {
        let w = Double(OCRBClassifier.width), cap = Double(OCRBClassifier.height) / 1.3
        let curve = curves[k], lastLine = curves.count - 1
        // The mean distance of the first and last lines, against which the local one scales.
        let samples = stride(from: 0.0, to: Double(band.lineLength), by: 1).map { i -> Double in
            let a = curves[0].point(i), b = curves[lastLine].point(i)
            return hypot(b.x - a.x, b.y - a.y)
        }
        let meanSpread = samples.reduce(0, +) / Double(max(1, samples.count))
        let unit = band.characterHeight / cap          // image pixels per strip pixel across, on average
        // Per column: the center and the upright (image pixels per strip pixel across).
        let columns = (0..<width).map { x -> (Point, Point) in
            let i = (Double(x) + 0.5 - left) / w
            let c = curve.point(i)
            var up: Point
            if lastLine > 0, meanSpread > 0 {
                let a = curves[0].point(i), b = curves[lastLine].point(i)
                let d = hypot(b.x - a.x, b.y - a.y)
                let local = unit * d / meanSpread
                up = Point(x: (b.x - a.x) / max(d, 1e-9) * local, y: (b.y - a.y) / max(d, 1e-9) * local)
            } else {
                let t = curve.tangent(i), len = max(1e-9, hypot(t.x, t.y))
                up = Point(x: -t.y / len * unit, y: t.x / len * unit)
            }
            return (c, up)
        }
        return image.remapped(width: width, height: height) { p in
            let (c, up) = columns[min(width - 1, max(0, Int(p.x)))]
            let v = p.y - top
            return Point(x: c.x + up.x * v, y: c.y + up.y * v)
        }
    }
}
