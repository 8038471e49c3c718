import Foundation
import IDKitImage
import IDKitMRZ

/// One MRZ line as found: where its first and last characters stand and how big they are.
public struct MRZLineGeometry: Sendable, Equatable, Codable {
    /// Center of the first and the last character (in reading order once ``MRZBand/oriented(upsideDown:)`` is applied).
    public var start: Point
    public var end: Point
    /// Number of components (characters) found on the line.
    public var componentCount: Int
    /// Their centers, in reading order (not in JSON).
    public var componentCenters: [Point] = []

    enum CodingKeys: String, CodingKey { case start, end, componentCount }
}

/// The machine readable zone as located in an image: its lines, character size and layout.
public struct MRZBand: Sendable, Equatable, Codable {
    public var lines: [MRZLineGeometry]
    /// Character height (cap height) in image pixels.
    public var characterHeight: Double
    /// Distance between character centers along a line, in image pixels.
    public var pitch: Double
    /// The layout that the line count and length imply.
    public var format: MRZFormat

    /// Characters per line of ``format``.
    public var lineLength: Int { format.lineLength }

    /// The band's corners around the characters: top-left, top-right, bottom-right, bottom-left of
    /// the MRZ (half a pitch beyond the end characters, half a character above and below). The
    /// scanner's bands are the lines as read (``asRead()``), so the quad holds every character read.
    public var quad: Quadrilateral {
        func corner(_ line: MRZLineGeometry, atStart: Bool, top: Bool) -> Point {
            let dx = line.end.x - line.start.x, dy = line.end.y - line.start.y
            let len = max(1e-9, (dx * dx + dy * dy).squareRoot())
            let ux = dx / len, uy = dy / len
            let nx = -uy, ny = ux        // "down" for text read left to right, in image coordinates
            let along = atStart ? -pitch / 2 : pitch / 2
            let across = (top ? -1.0 : 1.0) * characterHeight * 0.5
            let base = atStart ? line.start : line.end
            return Point(x: base.x + ux * along + nx * across, y: base.y + uy * along + ny * across)
        }
        let first = lines[0], last = lines[lines.count - 1]
        return Quadrilateral(topLeft: corner(first, atStart: true, top: true), topRight: corner(first, atStart: false, top: true),
                             bottomRight: corner(last, atStart: false, top: false), bottomLeft: corner(last, atStart: true, top: false))
    }

    /// ``quad`` with a quarter of a character height more above and below: where the MRZ's ink
    /// may be. Since the height is the printed cap height (``MRZScanner/heightFactor(_:)``), `quad`
    /// hugs the caps, and blur spreads ink a pixel or two past them; blacking out the MRZ covers this.
    public var inkQuad: Quadrilateral {
        var wider = self
        wider.characterHeight *= 1.5
        return wider.quad
    }

    /// The distance between consecutive lines' centers, across the lines (the mean; 0 for one line).
    var lineSpacing: Double {
        guard lines.count > 1 else { return 0 }
        let first = lines[0], last = lines[lines.count - 1]
        let dx = first.end.x - first.start.x, dy = first.end.y - first.start.y
        let len = max(1e-9, (dx * dx + dy * dy).squareRoot())
        let a = Point(x: (first.start.x + first.end.x) / 2, y: (first.start.y + first.end.y) / 2)
        let b = Point(x: (last.start.x + last.end.x) / 2, y: (last.start.y + last.end.y) / 2)
        return abs(-(b.x - a.x) * dy / len + (b.y - a.y) * dx / len) / Double(lines.count - 1)
    }

    /// The band in the coordinates of an image `factor` times larger (pixel centers kept).
    func scaled(by factor: Double) -> MRZBand {
        func up(_ p: Point) -> Point { Point(x: p.x * factor, y: p.y * factor) }
        var b = self
        b.lines = lines.map { MRZLineGeometry(start: up($0.start), end: up($0.end), componentCount: $0.componentCount,
                                              componentCenters: $0.componentCenters.map(up)) }
        b.characterHeight *= factor
        b.pitch *= factor
        return b
    }

    /// The band in the coordinates of an image in which this one's origin lies at `offset` (a
    /// band found in a crop, placed back in the whole image).
    public func translated(by offset: Point) -> MRZBand {
        func move(_ p: Point) -> Point { Point(x: p.x + offset.x, y: p.y + offset.y) }
        var b = self
        b.lines = lines.map { MRZLineGeometry(start: move($0.start), end: move($0.end), componentCount: $0.componentCount,
                                              componentCenters: $0.componentCenters.map(move)) }
        return b
    }

    /// The same band moved `positions` character pitches along its lines (negative: towards the
    /// lines' starts), its components kept: for a band whose first or last characters were too
    /// faint to be found and whose extent was therefore placed off its text.
    func shifted(by positions: Int) -> MRZBand {
        var b = self
        b.lines = lines.map { line in
            let dx = line.end.x - line.start.x, dy = line.end.y - line.start.y
            let len = max(1e-9, (dx * dx + dy * dy).squareRoot())
            let mx = dx / len * pitch * Double(positions), my = dy / len * pitch * Double(positions)
            return MRZLineGeometry(start: Point(x: line.start.x + mx, y: line.start.y + my), end: Point(x: line.end.x + mx, y: line.end.y + my),
                                   componentCount: line.componentCount, componentCenters: line.componentCenters)
        }
        return b
    }

    /// The band as lines of `format`'s length, centered where this band's lines are, every line
    /// starting level with the others (ICAO 9303-3 §4.1: the lines of a zone are left-aligned) along
    /// the direction of the longest line: for two lines of faint, thin print of which only a
    /// middle run of characters became components, so that the lines and the layout their length
    /// implied came out short. The ends are placed by the reading (``MRZScanner`` moves the band
    /// by the blank cells it finds at one end), and the check digits judge.
    func widened(to format: MRZFormat) -> MRZBand {
        let longest = lines.max { a, b in hypot(a.end.x - a.start.x, a.end.y - a.start.y) < hypot(b.end.x - b.start.x, b.end.y - b.start.y) }!
        let dx = longest.end.x - longest.start.x, dy = longest.end.y - longest.start.y
        let len = max(1e-9, (dx * dx + dy * dy).squareRoot())
        let ux = dx / len, uy = dy / len
        // Along-line extent of all lines together, measured from the longest line's start.
        func t(_ p: Point) -> Double { (p.x - longest.start.x) * ux + (p.y - longest.start.y) * uy }
        let from = lines.map { t($0.start) }.min()!, to = lines.map { t($0.end) }.max()!
        let span = pitch * Double(format.lineLength - 1)
        let first = (from + to) / 2 - span / 2
        var b = self
        b.format = format
        b.lines = lines.map { line in
            let mid = Point(x: (line.start.x + line.end.x) / 2, y: (line.start.y + line.end.y) / 2)
            let back = t(mid)      // the line's own center, moved along the common direction to `first`
            let start = Point(x: mid.x + ux * (first - back), y: mid.y + uy * (first - back))
            return MRZLineGeometry(start: start, end: Point(x: start.x + ux * span, y: start.y + uy * span),
                                   componentCount: line.componentCount, componentCenters: line.componentCenters)
        }
        return b
    }

    /// The same band read the other way round (the document upside down).
    public func flipped() -> MRZBand {
        var b = self
        b.lines = lines.reversed().map {
            MRZLineGeometry(start: $0.end, end: $0.start, componentCount: $0.componentCount, componentCenters: $0.componentCenters.reversed())
        }
        return b
    }
}

extension MRZBand {
    /// Where each character's center stands in the image, line by line (from the band's
    /// homography fitted to the characters found), for drawing and for callers that crop.
    public func characterCenters() -> [[Point]] {
        guard let (transform, left, top, spacing, _) = MRZLineReader.rectification(self) else { return [] }
        let w = Double(OCRBClassifier.width)
        return (0..<lines.count).map { k in
            (0..<lineLength).map { i in transform.apply(Point(x: left + Double(i) * w, y: top + Double(k) * spacing)) }
        }
    }

    /// How much of each character's glyph box (0.7 of a pitch wide, a cap height high, where
    /// OCR-B's ink stands) lies outside an image of `width` × `height`, line by line: 0 in view,
    /// 1 wholly beyond the edge, sampled on a 5 × 7 grid. Empty when the band's lines cannot be
    /// laid out (no homography).
    public func cellsOutside(width: Int, height: Int) -> [[Double]] {
        MRZLineReader.rectification(self).map { cellsOutside(width: width, height: height, geometry: $0) } ?? []
    }

    func cellsOutside(width: Int, height: Int, geometry: MRZLineReader.Rectification) -> [[Double]] {
        let (transform, left, top, spacing, _) = geometry
        let w = Double(OCRBClassifier.width), cap = Double(OCRBClassifier.height) / 1.3
        let across = [-0.3, -0.15, 0, 0.15, 0.3], down = [-0.45, -0.3, -0.15, 0, 0.15, 0.3, 0.45]
        return (0..<lines.count).map { k in
            (0..<lineLength).map { i in
                var out = 0
                for a in across {
                    for d in down {
                        let p = transform.apply(Point(x: left + (Double(i) + a) * w, y: top + Double(k) * spacing + d * cap))
                        if !(p.x >= 0 && p.y >= 0 && p.x < Double(width) && p.y < Double(height)) { out += 1 }
                    }
                }
                return Double(out) / Double(across.count * down.count)
            }
        }
    }

    /// Whether part of a character of the band lies outside an image of `width` × `height`
    /// (``MRZLineReader/partlyOutside`` of its glyph box or more): the MRZ runs off the frame, and
    /// what stood there was read from half a glyph or not at all.
    public func runsOffImage(width: Int, height: Int) -> Bool {
        cellsOutside(width: width, height: height).contains { $0.contains { $0 >= MRZLineReader.partlyOutside } }
    }

    /// The band with each line running from its first to its last character as read
    /// (``characterCenters()``: the lines' common extent, fitted to every character center found),
    /// its components kept. The locator's end points are where the components it chained end: a
    /// line found short (its last characters too small or faint to become components) is read whole
    /// along the other lines, but its quad, the document placed from it and the redaction that
    /// blacks the quad out followed the short line: on a tiny passport whose first line was found
    /// to its 16th character, the rest of the name and the check digits stayed legible. What the
    /// scanner returns is this band.
    public func asRead() -> MRZBand {
        let centers = characterCenters()
        guard centers.count == lines.count, centers.allSatisfy({ row in row.allSatisfy { $0.x.isFinite && $0.y.isFinite } }) else {
            return self
        }
        var band = self
        band.lines = zip(lines, centers).map { line, row in
            MRZLineGeometry(start: row[0], end: row[row.count - 1], componentCount: line.componentCount,
                            componentCenters: line.componentCenters)
        }
        return band
    }
}
