internal import COpenCVShim
import Foundation
import IDKitImage
import IDKitMRZ
import IDKitMRZReading

/// Finds documents in an image: their outlines from the image itself (OpenCV imgproc: edges,
/// contours, four-sided hulls with each side refitted to its edge pixels), confirmed and turned the
/// right way up by the MRZ where one lies inside, or placed from the MRZ by the format's geometry
/// (ICAO 9303 Parts 4–6) where no outline is found around it. Works without an MRZ too (a card's
/// front, a license with only a barcode): then the outline and its shape alone decide.
public struct DocumentDetector: Sendable {
    /// The smallest document reported, as a share of the image area.
    public var minimumShare: Double = 0.03
    /// Documents below this confidence are not reported.
    public var minimumConfidence: Double = 0.45

    public init() {}

    /// A four-sided outline the edge search found, before any MRZ is matched to it.
    public struct Outline: Sendable, Equatable {
        /// In contour order (either turning direction).
        public var points: [Point]
        /// Share of the sides that lie on edges (0…1).
        public var support: Double
        /// That share on its worst-supported side: a document has edges along all four, a box
        /// around text or a hull around clutter leaves a side on nothing.
        public var weakestSide: Double
        /// Bit s set where the side from point s to point s+1 lies on the image's border (a
        /// document the frame cuts): `support` and `weakestSide` count the other sides.
        public var cutSides: Int

        public init(points: [Point], support: Double, weakestSide: Double, cutSides: Int = 0) {
            self.points = points
            self.support = support
            self.weakestSide = weakestSide
            self.cutSides = cutSides
        }
    }

    /// The edges of an image, found once for the outline search and for placing outlines around
    /// MRZs (OpenCV's Canny on the image at most 400 pixels across). `@unchecked Sendable`: made
    /// once, then only read.
    public final class Edges: @unchecked Sendable {
        fileprivate let handle: OpaquePointer
        /// The part of the image the edges were found in: all of it but a uniform frame along its
        /// border (``DocumentDetector/content(of:)``), in image pixels.
        package let x: Int, y: Int, width: Int, height: Int
        fileprivate init(_ handle: OpaquePointer, x: Int, y: Int, width: Int, height: Int) {
            self.handle = handle
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
        deinit { idk_edges_free(handle) }
    }

    /// The edges of `image`; `nil` when OpenCV fails (the scan then goes on without detection).
    public func edges(of image: GrayImage) -> Edges? {
        let box = Self.content(of: image)
        let inner = box.width == image.width && box.height == image.height ? image : image.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
        var error = [CChar](repeating: 0, count: 256)
        let handle = inner.pixels.withUnsafeBufferPointer { pixels in
            idk_edges_new(pixels.baseAddress, Int32(inner.width), Int32(inner.height), &error, error.count)
        }
        return handle.map { Edges($0, x: box.x, y: box.y, width: box.width, height: box.height) }
    }

    /// The image without a frame drawn around it: a strip of one gray (within ±3) along all four
    /// sides, the same gray on each, up to 4 pixels or 0.5% of the image wide, as an export or a
    /// screenshot adds around a scan. The frame's inner border is its edge, never a document's: a
    /// page lying inside the frame would otherwise get the frame for its outline, and a page
    /// reaching the frame has its side there, on the border of what was scanned, as on any scan
    /// cropped to the page. A uniform strip along some sides only, or a wider one, is the
    /// background a document lies on (a scanner's lid, a figure's white page), whose edge against
    /// the document must stay in view; the image is then searched whole.
    package static func content(of image: GrayImage) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = image.width, h = image.height
        let whole = (x: 0, y: 0, width: w, height: h)
        /// The lowest and highest gray of a strip's line, `nil` when they differ by more than 6.
        func uniform(_ values: some Sequence<UInt8>) -> (low: Int, high: Int)? {
            var low = UInt8.max, high = UInt8.min
            for v in values { low = min(low, v); high = max(high, v) }
            return Int(high) - Int(low) <= 6 ? (Int(low), Int(high)) : nil
        }
        func row(_ r: Int) -> ArraySlice<UInt8> { image.pixels[(r * w)..<((r + 1) * w)] }
        func column(_ c: Int) -> some Sequence<UInt8> { stride(from: c, to: w * h, by: w).lazy.map { image.pixels[$0] } }
        var low = 255, high = 0
        /// How many lines from the border in are uniform, all of them within 6 grays of every other
        /// side's; `nil` for none or more than `limit`.
        func strip(_ line: (Int) -> (low: Int, high: Int)?, limit: Int) -> Int? {
            var count = 0
            while count <= limit, let range = line(count) {
                low = min(low, range.low)
                high = max(high, range.high)
                count += 1
            }
            return count >= 1 && count <= limit ? count : nil
        }
        let limitY = max(4, h / 200), limitX = max(4, w / 200)
        guard w > 4 * limitX, h > 4 * limitY,
              let top = strip({ uniform(row($0)) }, limit: limitY), let bottom = strip({ uniform(row(h - 1 - $0)) }, limit: limitY),
              let left = strip({ uniform(column($0)) }, limit: limitX), let right = strip({ uniform(column(w - 1 - $0)) }, limit: limitX),
              high - low <= 6 else { return whole }
        return (left, top, w - left - right, h - top - bottom)
    }

    /// The outlines along the edges, best supported first (the expensive part of detection: run
    /// it beside the MRZ reading).
    public func outlines(in edges: Edges) -> [Outline] {
        let capacity = 24
        var quads = [Double](repeating: 0, count: capacity * 8), support = [Double](repeating: 0, count: capacity)
        var weakest = support
        var error = [CChar](repeating: 0, count: 256)
        let count = idk_document_quads(edges.handle, minimumShare, &quads, &support, &weakest, Int32(capacity), &error, error.count)
        guard count > 0 else { return [] }
        return (0..<Int(count)).map { k in
            Outline(points: (0..<4).map { Point(x: quads[8 * k + 2 * $0] + Double(edges.x), y: quads[8 * k + 2 * $0 + 1] + Double(edges.y)) },
                    support: support[k], weakestSide: weakest[k])
        }
    }

    /// Documents the image's border cuts, beside the `found` ones: a card scanned with another,
    /// pushed into a corner of the glass, or the back of a card beside its front. Their outlines
    /// close only with the border (``idk_cut_document_quads``). One is a document when the
    /// border takes one side, or two meeting at a corner of the image, every other side lies on
    /// edges (``minimumCutSideSupport``), its shape as seen is a document's (1.3–1.75 wide for 1:
    /// a cut side shortens it by no more than the frame cuts off), it is at least
    /// ``minimumCutShare`` of the largest document found, and it overlaps none of them. Searched
    /// only beside a document found with its outline: the evidence that the scene holds documents
    /// at that scale.
    public func cutDocuments(edges: Edges, beside found: [DetectedDocument]) -> [DetectedDocument] {
        guard let largest = found.filter(\.outlineFound).map(\.area).max() else { return [] }
        var documents: [DetectedDocument] = []
        for outline in cutOutlines(in: edges, beside: found.map(\.corners)) {
            // One side, or two that meet (0b0011, 0b0110, 0b1100, 0b1001).
            let mask = outline.cutSides
            guard mask.nonzeroBitCount == 1 || [3, 6, 12, 9].contains(mask), outline.weakestSide >= Self.minimumCutSideSupport,
                  let d = Self.oriented(outline, band: nil), d.widthHeightRatio >= 1.3, d.widthHeightRatio <= 1.75,
                  d.area >= Self.minimumCutShare * largest,
                  !(found + documents).contains(where: { Self.overlap($0.corners, d.corners) > 0.1 * min($0.area, d.area) }) else { continue }
            documents.append(d)
        }
        return documents
    }

    /// The outlines the image's border cuts, with the `known` documents erased from the edges, best
    /// supported first, each with the sides that lie on the border (``Outline/cutSides``).
    package func cutOutlines(in edges: Edges, beside known: [Quadrilateral]) -> [Outline] {
        let capacity = 16
        let corners = known.flatMap { $0.corners.flatMap { [$0.x - Double(edges.x), $0.y - Double(edges.y)] } }
        var quads = [Double](repeating: 0, count: capacity * 8), support = [Double](repeating: 0, count: capacity)
        var weakest = support, cut = [Int32](repeating: 0, count: capacity)
        var error = [CChar](repeating: 0, count: 256)
        let count = idk_cut_document_quads(edges.handle, minimumShare, corners, Int32(known.count), &quads, &support, &weakest, &cut,
                                           Int32(capacity), &error, error.count)
        guard count > 0 else { return [] }
        let x0 = Double(edges.x), y0 = Double(edges.y), x1 = x0 + Double(edges.width), y1 = y0 + Double(edges.height)
        return (0..<Int(count)).map { k in
            var points = (0..<4).map { Point(x: quads[8 * k + 2 * $0] + x0, y: quads[8 * k + 2 * $0 + 1] + y0) }
            // A side on the border lies on it exactly (found on the reduced image, it lies up to a
            // pixel of that image inside).
            for s in 0..<4 where cut[k] & (1 << s) != 0 {
                let a = points[s], b = points[(s + 1) % 4], mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                let away = [mid.x - x0, x1 - mid.x, mid.y - y0, y1 - mid.y]
                let border = away.indices.min { away[$0] < away[$1] }!
                for i in [s, (s + 1) % 4] {
                    switch border {
                    case 0: points[i].x = x0
                    case 1: points[i].x = x1
                    case 2: points[i].y = y0
                    default: points[i].y = y1
                    }
                }
            }
            return Outline(points: points, support: support[k], weakestSide: weakest[k], cutSides: Int(cut[k]))
        }
    }

    /// The share of its worst side that an outline snapped from an MRZ's placement must have on
    /// edges to be taken as seen: a side on nothing is where the placement put it, not where the
    /// image shows an edge (the document's corners are then `null`, not an estimate).
    static let minimumSnappedSide = 0.5

    /// The share of each side off the border that a cut document's outline must have on edges.
    static let minimumCutSideSupport = 0.6
    /// The smallest cut document, as a share of the largest document found beside it (an ID-1
    /// card beside a passport page is 0.42 of it).
    static let minimumCutShare = 0.3

    /// The area the bounding boxes of two outlines share, in square pixels.
    static func overlap(_ a: Quadrilateral, _ b: Quadrilateral) -> Double {
        let ax = a.corners.map(\.x), ay = a.corners.map(\.y), bx = b.corners.map(\.x), by = b.corners.map(\.y)
        let w = min(ax.max()!, bx.max()!) - max(ax.min()!, bx.min()!), h = min(ay.max()!, by.max()!) - max(ay.min()!, by.min()!)
        return max(0, w) * max(0, h)
    }

    /// The share of the pixels inside `corners` (its outer tenth left out) that are edges: print,
    /// a portrait, a pattern on a document's face; next to nothing inside a plain box.
    public func printShare(_ edges: Edges, within corners: Quadrilateral) -> Double {
        let points = corners.corners.flatMap { [$0.x - Double(edges.x), $0.y - Double(edges.y)] }
        return max(0, idk_interior_edge_share(edges.handle, points))
    }

    /// ``outlines(in:)`` and the documents they make with the MRZ bands given.
    public func detect(_ image: GrayImage, bands: [MRZBand] = []) -> [DetectedDocument] {
        guard let edges = edges(of: image) else { return bands.compactMap { Self.placed(from: $0) } }
        return documents(edges: edges, outlines: outlines(in: edges), bands: bands)
    }

    /// The documents: every outline shaped like a document, and every MRZ with the document around
    /// it (the outline that holds it where its format puts it, else the format's outline placed from
    /// it and moved onto the image's edges), none inside another, largest first.
    /// The bands are read ones (``MRZScanner``'s, turned the right way up by its probes): a band's
    /// direction is its document's. A band only located, not read, may be either way round and is
    /// not given here (the scanner reads the other bands first and keeps those that read as an MRZ).
    public func documents(edges: Edges, outlines: [Outline], bands: [MRZBand]) -> [DetectedDocument] {
        var candidates: [DetectedDocument] = []
        var claimed = Set<Int>()
        for outline in outlines {
            // The first band inside that sits where the format puts an MRZ.
            let inside = bands.indices.filter { !claimed.contains($0) && Self.contains(outline.points, bands[$0].quad.center) }
            var document: DetectedDocument?
            for i in inside {
                if let d = Self.document(outline, band: bands[i]), d.band != nil {
                    document = d
                    claimed.insert(i)
                    break
                }
            }
            if document == nil { document = Self.document(outline, band: inside.first.map { bands[$0] }) }
            if let document, document.confidence >= minimumConfidence { candidates.append(document) }
        }
        // An MRZ no outline was found around: the format's outline placed from it, moved onto
        // the edges there are; where none line up, the placed outline itself, with low confidence.
        // Also where the outline around it is poorly supported (merged with a thumb or the desk's
        // clutter): the better supported of the two stays.
        var requests: [(band: Int, placed: DetectedDocument)] = []
        for (i, band) in bands.enumerated() {
            let holder = candidates.firstIndex { $0.band.map { Self.sameBand($0, band) } ?? false }
            if let holder, candidates[holder].confidence >= 0.99 { continue }
            if holder == nil, claimed.contains(i) { continue }
            // Another line of text inside a document an MRZ already confirms is not a document.
            let center = band.quad.center
            if holder == nil, candidates.contains(where: { $0.band != nil && Self.contains($0.corners.corners, center) }) { continue }
            if let placed = Self.placed(from: band) { requests.append((i, placed)) }
        }
        let snapped = snap(edges, requests.map { $0.placed.corners.corners }, keepingOut: requests.map { Self.keepOut(bands[$0.band]) })
        for (request, outline) in zip(requests, snapped) {
            let band = bands[request.band]
            // The snapped outline, if the MRZ still sits in it where the format puts one and it
            // takes the image's border for a side only where the document may end there.
            let best = outline.flatMap { $0.weakestSide >= Self.minimumSnappedSide && Self.bordersAllowed($0.points, placed: request.placed.corners.corners, within: edges) ? $0 : nil }
                .flatMap { Self.document($0, band: band) }.flatMap { $0.band != nil ? $0 : nil }
            if let holder = candidates.firstIndex(where: { $0.band.map { Self.sameBand($0, band) } ?? false }) {
                if let best, Self.fit(best) > Self.fit(candidates[holder]) + 0.05 { candidates[holder] = best }
            } else {
                candidates.append(best ?? request.placed)
            }
        }
        // Outlines an MRZ confirms first, then documents placed from an MRZ alone, then other
        // outlines; among equals the best supported, the larger a little ahead: a document's photo is
        // an outline too (portrait, so its confidence is lowered) and gives way to the document
        // it lies in, while an outline merged with the clutter next to a document is larger but
        // follows the edges worse than the document's own.
        // A document an MRZ confirms, even one placed from the MRZ alone, comes before every
        // outline without one: a box around the portrait or a text block inside a card whose own
        // outline was not found is not a document beside it.
        func rank(_ d: DetectedDocument) -> Int { (d.band != nil ? 2 : 0) + (d.outlineFound ? 1 : 0) }
        let largest = candidates.map(\.area).max() ?? 1
        func score(_ d: DetectedDocument) -> Double { d.confidence + 0.1 * d.area / largest }
        candidates.sort { (rank($0), score($0)) > (rank($1), score($1)) }
        var kept: [DetectedDocument] = []
        for c in candidates {
            let center = c.corners.center
            if kept.contains(where: { Self.contains($0.corners.corners, center) || Self.contains(c.corners.corners, $0.corners.center) }) {
                continue
            }
            kept.append(c)
        }
        return kept.sorted { $0.area > $1.area }
    }

    /// How well an outline an MRZ confirms fits its document: its confidence, less twice how far its
    /// shape is from the format's (the log of the seen width-to-height ratio over the nominal one).
    /// A found outline with a corner pulled along a shadow or the background's texture is as well
    /// supported as the one the MRZ's placement snaps onto the page's own edges, but out of shape;
    /// a snapped outline that took a border or a line of print for a side is out of shape too.
    static func fit(_ d: DetectedDocument) -> Double {
        guard let nominal = d.format.nominalRatio else { return d.confidence }
        return d.confidence - 2 * abs(log(d.widthHeightRatio / nominal))
    }

    /// Each outline moved onto the image's edges (``idk_snap_quad``, the edges found once), `nil`
    /// where no side lines up with edges.
    /// No side is moved through `keepingOut[k]` (four points: the MRZ with its margin).
    package func snap(_ edges: Edges, _ outlines: [[Point]], keepingOut: [[Point]]) -> [Outline?] {
        guard !outlines.isEmpty else { return [] }
        let x0 = Double(edges.x), y0 = Double(edges.y)
        var corners = outlines.flatMap { $0.flatMap { [$0.x - x0, $0.y - y0] } }
        let keep = keepingOut.flatMap { $0.flatMap { [$0.x - x0, $0.y - y0] } }
        var support = [Double](repeating: 0, count: outlines.count), weakest = support
        var error = [CChar](repeating: 0, count: 256)
        let status = idk_snap_quads(edges.handle, Int32(outlines.count), &corners, keep, 0.05, &support, &weakest, &error, error.count)
        guard status == 0 else { return outlines.map { _ in nil } }
        return outlines.indices.map { k in
            support[k] >= 0.5 ? Outline(points: (0..<4).map { Point(x: corners[8 * k + 2 * $0] + x0, y: corners[8 * k + 2 * $0 + 1] + y0) },
                                        support: support[k], weakestSide: weakest[k]) : nil
        }
    }

    /// Whether the left and right sides of a snapped outline (in reading order, as placed) that lie
    /// on the image's border may be the document's edges: only where the outline the format places
    /// from the MRZ puts that side no further than 1.25% of its diagonal outside the image. A scan
    /// cropped to a card or page has its sides on the border, and the MRZ, centered across the
    /// document (ICAO 9303-3 §4.2), places them there within the issuers' print tolerance (under
    /// 0.6% of the diagonal on the real specimens); a scan cropped inside the page places them
    /// 1–2% beyond it, and there the border is the frame, not the document: no outline is seen.
    /// (A side placed well inside the image is never snapped onto the border: ``idk_snap_quads``.)
    package static func bordersAllowed(_ snapped: [Point], placed: [Point], within edges: Edges) -> Bool {
        let diagonal = distance(placed[0], placed[2])
        let near = max(2, 0.005 * diagonal)
        let x0 = Double(edges.x), y0 = Double(edges.y), x1 = x0 + Double(edges.width), y1 = y0 + Double(edges.height)
        for s in [1, 3] {
            let a = snapped[s], b = snapped[(s + 1) % 4]
            let onBorder = (abs(a.x - x0) < near && abs(b.x - x0) < near) || (abs(a.x - x1) < near && abs(b.x - x1) < near)
                || (abs(a.y - y0) < near && abs(b.y - y0) < near) || (abs(a.y - y1) < near && abs(b.y - y1) < near)
            guard onBorder else { continue }
            let p = Point(x: (placed[s].x + placed[(s + 1) % 4].x) / 2, y: (placed[s].y + placed[(s + 1) % 4].y) / 2)
            let outside = max(0, x0 - p.x, p.x - x1, y0 - p.y, p.y - y1)
            if outside > 0.0125 * diagonal { return false }
        }
        return true
    }

    /// The MRZ with the margin no document edge comes within: the band's box (half a pitch beyond
    /// the end characters' centers, half a character above and below the lines) widened by half a
    /// pitch and a quarter character. ICAO 9303-4/5/6 leave 1.8–2.6 pitches between the end
    /// characters' centers and the document's sides, and 3–4 mm below the last line.
    package static func keepOut(_ band: MRZBand) -> [Point] {
        let q = band.quad
        let along = unit(sub(q.topRight, q.topLeft)), across = unit(sub(q.bottomLeft, q.topLeft))
        let dx = 0.5 * band.pitch, dy = 0.25 * band.characterHeight
        func moved(_ p: Point, _ sx: Double, _ sy: Double) -> Point {
            Point(x: p.x + sx * dx * along.x + sy * dy * across.x, y: p.y + sx * dx * along.y + sy * dy * across.y)
        }
        return [moved(q.topLeft, -1, -1), moved(q.topRight, 1, -1), moved(q.bottomRight, 1, 1), moved(q.bottomLeft, -1, 1)]
    }

    /// Whether every side of the convex outline `corners` passes outside every point of `keep`.
    static func clears(_ corners: [Point], _ keep: [Point]) -> Bool {
        keep.allSatisfy { contains(corners, $0) }
    }

    // MARK: One outline

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

    /// The document placed around an MRZ by its format's geometry: the characters 2.54 mm apart
    /// (ICAO 9303-3 §4.2), the first character's center and the last line's center where documents
    /// print them (``MRZPlacement``), the page as wide as tall per millimeter as the MRZ is along its
    /// lines (the line spacing, which issuers vary from 4.2 to 6.7 mm, gives only the direction
    /// down the page). An estimate (issuers place the MRZ within a millimeter or two), reported
    /// with low confidence and moved onto the image's edges where they line up.
    package static func placed(from band: MRZBand) -> DetectedDocument? {
        let format = DocumentFormat(mrz: band.format)
        guard let size = format.millimeters, let first = band.lines.first, let last = band.lines.last else { return nil }
        let placement = MRZPlacement(band.format)
        let n = Double(band.lineLength)
        let startX = placement.firstCenterFromLeft, endX = startX + (n - 1) * 2.54
        let lastY = size.height - placement.lastCenterAboveBottom
        // The band's line ends are character centers: an affine map from millimeters to pixels.
        let ex = Point(x: (first.end.x - first.start.x) / (endX - startX), y: (first.end.y - first.start.y) / (endX - startX))
        let scale = hypot(ex.x, ex.y)
        var down = Point(x: -ex.y / scale, y: ex.x / scale)
        if band.lines.count > 1 {
            // Down the page as the lines follow one another (a camera's shear), if it agrees.
            let across = unit(sub(last.start, first.start))
            if dot(across, down) > 0.9 { down = across }
        }
        let ey = Point(x: down.x * scale, y: down.y * scale)
        let origin = last.start
        func map(_ x: Double, _ y: Double) -> Point {
            Point(x: origin.x + ex.x * (x - startX) + ey.x * (y - lastY), y: origin.y + ex.y * (x - startX) + ey.y * (y - lastY))
        }
        let corners = Quadrilateral(topLeft: map(0, 0), topRight: map(size.width, 0), bottomRight: map(size.width, size.height),
                                    bottomLeft: map(0, size.height))
        return DetectedDocument(corners: corners, confidence: 0.4, widthHeightRatio: size.width / size.height, format: format,
                                band: band, outlineFound: false)
    }

    /// Whether two bands are the same MRZ (found twice, or read the other way round).
    public static func sameBand(_ a: MRZBand, _ b: MRZBand) -> Bool {
        distance(a.quad.center, b.quad.center) < a.characterHeight * 2
    }

    // MARK: Geometry

    static func signedArea(_ c: [Point]) -> Double {
        var a = 0.0
        for i in 0..<c.count { let p = c[i], n = c[(i + 1) % c.count]; a += p.x * n.y - n.x * p.y }
        return a / 2
    }
    /// Whether `p` lies inside the convex quadrilateral `c`.
    public static func contains(_ c: [Point], _ p: Point) -> Bool { Quadrilateral(c).contains(p) }
    /// Where `p` lies in the quadrilateral `q` (TL, TR, BR, BL) as fractions of its width and height.
    static func fraction(of p: Point, in q: [Point]) -> Point {
        let unit = [Point(x: 0, y: 0), Point(x: 1, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 1)]
        guard let h = Homography(from: q, to: unit) else { return Point(x: 0.5, y: 0.5) }
        return h.apply(p)
    }
    static func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }
    static func sub(_ a: Point, _ b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    static func neg(_ a: Point) -> Point { Point(x: -a.x, y: -a.y) }
    static func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }
    static func unit(_ a: Point) -> Point { let l = max(1e-9, hypot(a.x, a.y)); return Point(x: a.x / l, y: a.y / l) }
}
