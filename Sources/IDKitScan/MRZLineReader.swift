import Foundation
import IDKitImage
import IDKitMRZ

/// The classifier's view of one MRZ: for every line and position, a correlation per symbol.
struct MRZScores: Sendable {
    var format: MRZFormat
    /// `[line][position][symbol]`, correlations in −1…1 (`OCRBTemplates.symbols` order).
    var correlations: [[[Float]]]

    /// Mean of the best correlation per position: how well the image reads this way round.
    var meanBest: Float {
        let all = correlations.flatMap { $0 }.map { $0.max() ?? 0 }
        return all.isEmpty ? 0 : all.reduce(0, +) / Float(all.count)
    }
}

/// Cuts each MRZ line out of the image along its own geometry (a homography per line, so that
/// perspective and rotation are undone), at the template scale: one pitch = 20 px.
struct MRZLineReader: Sendable {
    static let pad = 4

    func read(_ image: GrayImage, band: MRZBand, lineLimit: Int? = nil, positionLimit: Int? = nil) -> MRZScores {
        let n = band.lineLength
        let w = OCRBClassifier.width, h = OCRBClassifier.height
        let pad = Self.pad
        let stripWidth = n * w + 2 * pad, stripHeight = h + 2 * pad
        let corners = Self.centreCorners(band)
        // One homography for the whole band, from the centres of its four corner characters, so
        // that perspective (a tilted camera) shortens the pitch along a line as it does in the
        // image; each line's strip is a horizontal slice of the rectified band.
        let lastLine = Double(band.lines.count - 1)
        let left = Double(pad) + Double(w) / 2, right = Double(pad + (n - 1) * w) + Double(w) / 2
        let lineSpacing = Self.lineSpacing(band, corners)        // in strip pixels
        let top = Double(pad) + Double(h) / 2
        let bandRect = [Point(x: left, y: top), Point(x: right, y: top),
                        Point(x: right, y: top + lastLine * lineSpacing), Point(x: left, y: top + lastLine * lineSpacing)]
        var correlations: [[[Float]]] = []
        let classifier = OCRBClassifier.shared
        guard let cornerTransform = Homography(from: bandRect, to: corners) else {
            return MRZScores(format: band.format, correlations: [])
        }
        let bandTransform = Self.fitted(band, initial: cornerTransform, left: left, top: top, spacing: lineSpacing) ?? cornerTransform
        for k in 0..<min(band.lines.count, lineLimit ?? band.lines.count) {
            // The strip of line k: strip (x, y) is band-rectified (x, y + k·spacing).
            let dy = Double(k) * lineSpacing
            let stripCorners = [Point(x: 0, y: 0), Point(x: Double(stripWidth), y: 0),
                                Point(x: Double(stripWidth), y: Double(stripHeight)), Point(x: 0, y: Double(stripHeight))]
            let imageCorners = stripCorners.map { bandTransform.apply(Point(x: $0.x, y: $0.y + dy)) }
            guard let transform = Homography(from: stripCorners, to: imageCorners) else { continue }
            let strip = image.warped(width: stripWidth, height: stripHeight, by: transform, fill: 255)
            // Ink: dark is high. (The correlation ignores gain and offset.)
            let ink = strip.pixels.map { Float(255 - Int($0)) }
            var lineScores: [[Float]] = []
            ink.withUnsafeBufferPointer { buffer in
                for i in 0..<min(n, positionLimit ?? n) {
                    lineScores.append(classifier.scores(ink: buffer, stride: stripWidth, rows: stripHeight,
                                                        x: pad + i * w, y: pad, reachX: 2, reachY: 1))
                }
            }
            correlations.append(lineScores)
        }
        return MRZScores(format: band.format, correlations: correlations)
    }

    /// The band's homography fitted to every character centre found (each assigned to its line
    /// and position through the current estimate), twice: four corners alone leave the
    /// perspective of a two-line band poorly determined, dozens of centres do not.
    static func fitted(_ band: MRZBand, initial: Homography, left: Double, top: Double, spacing: Double) -> Homography? {
        let w = Double(OCRBClassifier.width)
        var transform = initial
        for _ in 0..<2 {
            // Image → rectified band, to assign each centre to a (line, position).
            var grid: [Point] = []
            let span = Double(band.lineLength - 1) * w
            for i in 0...4 {
                for k in 0..<max(2, band.lines.count) {
                    grid.append(Point(x: left + Double(i) * span / 4, y: top + Double(k) * spacing))
                }
            }
            guard let inverse = Homography(fitting: grid.map(transform.apply), to: grid) else { return nil }
            var from: [Point] = [], to: [Point] = []
            for (k, line) in band.lines.enumerated() {
                for c in line.componentCenters {
                    let r = inverse.apply(c)
                    let f: Double = (r.x - left) / w
                    let i: Double = f.rounded()
                    let lineY: Double = top + Double(k) * spacing
                    let offLine: Double = abs(r.y - lineY)
                    guard abs(f - i) < 0.3, i >= 0, Int(i) < band.lineLength, offLine < 0.4 * spacing + 4 else { continue }
                    from.append(Point(x: left + i * w, y: lineY))
                    to.append(c)
                }
            }
            guard from.count >= 12, let fit = Homography(fitting: from, to: to) else { return nil }
            transform = fit
        }
        return transform
    }

    /// Centres of the first and last characters of the first and last lines (top-left, top-right,
    /// bottom-right, bottom-left), over the extent common to all lines: a line whose end
    /// characters were not found as components is still cut from the right place.
    static func centreCorners(_ band: MRZBand) -> [Point] {
        let base = band.lines[0]
        let bx = base.end.x - base.start.x, by = base.end.y - base.start.y
        let blen = max(1e-9, (bx * bx + by * by).squareRoot())
        let ux = bx / blen, uy = by / blen
        func t(_ p: Point) -> Double { (p.x - base.start.x) * ux + (p.y - base.start.y) * uy }
        let tStart = band.lines.map { t($0.start) }.min()!
        let tEnd = band.lines.map { t($0.end) }.max()!
        func at(_ line: MRZLineGeometry, _ tt: Double) -> Point {
            let dx = line.end.x - line.start.x, dy = line.end.y - line.start.y
            let len = max(1e-9, (dx * dx + dy * dy).squareRoot())
            let scale = len / max(1e-9, t(line.end) - t(line.start))
            let d = (tt - t(line.start)) * scale
            return Point(x: line.start.x + dx / len * d, y: line.start.y + dy / len * d)
        }
        let first = band.lines[0], last = band.lines[band.lines.count - 1]
        return [at(first, tStart), at(first, tEnd), at(last, tEnd), at(last, tStart)]
    }

    /// The distance between line centres in strip pixels (the strip's cell is 1.3 character
    /// heights tall), from the band's own geometry.
    static func lineSpacing(_ band: MRZBand, _ c: [Point]) -> Double {
        guard band.lines.count > 1 else { return 0 }
        let left = hypot(c[3].x - c[0].x, c[3].y - c[0].y), right = hypot(c[2].x - c[1].x, c[2].y - c[1].y)
        let perLine = (left + right) / 2 / Double(band.lines.count - 1)
        return perLine / band.characterHeight * Double(OCRBClassifier.height) / 1.3
    }
}

extension MRZBand {
    /// Where each character's centre stands in the image, line by line (from the band's
    /// homography fitted to the characters found), for drawing and for callers that crop.
    public func characterCenters() -> [[Point]] {
        let w = Double(OCRBClassifier.width), h = Double(OCRBClassifier.height)
        let pad = Double(MRZLineReader.pad)
        let corners = MRZLineReader.centreCorners(self)
        let left = pad + w / 2, right = pad + Double(lineLength - 1) * w + w / 2, top = pad + h / 2
        let spacing = MRZLineReader.lineSpacing(self, corners)
        let last = Double(lines.count - 1) * spacing
        let rect = [Point(x: left, y: top), Point(x: right, y: top), Point(x: right, y: top + last), Point(x: left, y: top + last)]
        guard let initial = Homography(from: rect, to: corners) else { return [] }
        let transform = MRZLineReader.fitted(self, initial: initial, left: left, top: top, spacing: spacing) ?? initial
        return (0..<lines.count).map { k in
            (0..<lineLength).map { i in transform.apply(Point(x: left + Double(i) * w, y: top + Double(k) * spacing)) }
        }
    }
}
