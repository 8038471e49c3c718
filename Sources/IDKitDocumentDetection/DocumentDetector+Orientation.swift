import Foundation
import IDKitImage
import IDKitMRZ
import IDKitMRZReading

// One outline as a document: corners in reading order, format and confidence.
extension DocumentDetector {
    /// The outline as a document: corners in reading order, its ratio and format, and its
    /// confidence; `nil` when its shape is no document's.
    package static func document(_ outline: Outline, band: MRZBand?) -> DetectedDocument? {
        guard let band else { return oriented(outline, band: nil) }
        // An outline with a side through the MRZ is no document's (the box of the MRZ lines, a
        // card's edge snapped to the column of its first characters).
        guard clears(outline.points, keepOut(band)) else { return nil }
        if let d = oriented(outline, band: band), d.band != nil { return d }
        // An MRZ inside that is not where the format puts one: the outline of something else
        // (a sheet the document lies on, the MRZ's own box), or the document with a misread band.
        return oriented(outline, band: nil).map { var d = $0; d.confidence *= 0.85; return d }
    }

    /// The most an outline's bottom side may turn from the MRZ's last line, in degrees.
    static let bottomSideSkew = 3.0

    /// ``document(_:band:)``, the band's direction taken as the document's; without a band, by shape.
    static func oriented(_ outline: Outline, band: MRZBand?) -> DetectedDocument? {
        var points = outline.points
        // Clockwise in image coordinates (y down).
        if signedArea(points) < 0 { points.reverse() }
        let sides = (0..<4).map { distance(points[$0], points[($0 + 1) % 4]) }
        guard sides.allSatisfy({ $0 > 8 }) else { return nil }
        let pairA = (sides[0] + sides[2]) / 2, pairB = (sides[1] + sides[3]) / 2
        // The long sides are the width (every ICAO format is landscape).
        let longFirst = pairA >= pairB
        let ratio = max(pairA, pairB) / min(pairA, pairB)
        guard ratio > 1.15, ratio < 1.95 else { return nil }
        // Which way is right: along the MRZ's lines when there is one in it, else along the long
        // sides, pointing right in the image (up when they are upright).
        var axis: Point
        var confirmed = false
        var format = DocumentFormat.unknown
        if let band, let first = band.lines.first {
            axis = unit(Point(x: first.end.x - first.start.x, y: first.end.y - first.start.y))
            let long = longFirst ? unit(sub(points[1], points[0])) : unit(sub(points[2], points[1]))
            if abs(dot(axis, long)) > cos(15 * Double.pi / 180) {
                format = DocumentFormat(mrz: band.format)
                confirmed = true
            }
        } else {
            let long = longFirst ? unit(sub(points[1], points[0])) : unit(sub(points[2], points[1]))
            axis = abs(long.x) >= abs(long.y) ? (long.x >= 0 ? long : neg(long)) : (long.y <= 0 ? long : neg(long))
        }
        // Top-left: least along the axis and least along its normal (down the page).
        let down = Point(x: -axis.y, y: axis.x)
        let start = (0..<4).min { a, b in
            dot(points[a], axis) + dot(points[a], down) < dot(points[b], axis) + dot(points[b], down)
        }!
        let ordered = (0..<4).map { points[($0 + start) % 4] }
        let corners = Quadrilateral(topLeft: ordered[0], topRight: ordered[1], bottomRight: ordered[2], bottomLeft: ordered[3])
        let width = (distance(ordered[0], ordered[1]) + distance(ordered[3], ordered[2])) / 2
        let height = (distance(ordered[0], ordered[3]) + distance(ordered[1], ordered[2])) / 2
        let seenRatio = width / max(height, 1)
        var confidence = outline.support
        if confirmed, let band {
            // ICAO 9303: the MRZ spans nearly the whole width (TD1 76.2 of 85.6 mm, TD2 91.4 of
            // 105, TD3 111.8 of 125) along the bottom edge.
            let bandWidth = distance(band.quad.topLeft, band.quad.topRight)
            let share = bandWidth / max(width, 1)
            let depth = fraction(of: band.quad.center, in: ordered).y
            // (ICAO 9303-4/5/6: the last line's center lies 5–7 mm above the bottom edge, 0.87 of
            // an ID-1 card's height, 0.92 of a passport page's: an outline whose bottom edge runs
            // along the MRZ itself is something else, such as the box of the MRZ lines.)
            guard share > 0.75, share < 1.0, depth > 0.6, depth < 0.97 else { return nil }
            // The last line runs 3–4 mm above the bottom edge and parallel to it, so close that no
            // perspective and no page's curve turns one from the other by more than a degree or
            // two (the real specimens' and both generators' outlines: at most 2°): a bottom side
            // more than 3° off the last line is not the document's (a corner pulled out along the
            // background's texture or a shadow).
            if let last = band.lines.last {
                let along = unit(Point(x: last.end.x - last.start.x, y: last.end.y - last.start.y))
                guard dot(along, unit(sub(ordered[2], ordered[3]))) > cos(Self.bottomSideSkew * Double.pi / 180) else { return nil }
            }
            confidence = 0.5 + 0.5 * confidence
        }
        if !confirmed {
            // Without an MRZ, the shape: ID-1 cards are 1.586 wide for 1; ID-2, ID-3 and visas
            // are 1.42–1.5 and cannot be told apart by shape.
            if abs(seenRatio / DocumentFormat.td1.nominalRatio! - 1) < 0.05 {
                format = .td1
            } else if seenRatio < 1.3 || seenRatio > 1.75 {
                confidence *= 0.8
            }
        }
        return DetectedDocument(corners: corners, confidence: min(1, confidence), widthHeightRatio: seenRatio, format: format,
                                band: confirmed ? band : nil, outlineFound: true, weakestSide: outline.weakestSide)
    }
}
