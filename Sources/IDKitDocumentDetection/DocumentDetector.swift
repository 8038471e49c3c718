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
            let best = outline.flatMap { $0.weakestSide >= Self.minimumFaintSide && Self.bordersAllowed($0.points, placed: request.placed.corners.corners, within: edges) ? $0 : nil }
                .flatMap { Self.document($0, band: band) }.flatMap { $0.band != nil ? $0 : nil }
                .flatMap { $0.weakestSide >= Self.minimumSnappedSide || Self.hasFormatShape($0) ? $0 : nil }
            // The placement itself where the image shows it: in the format's shape, it fits
            // better than a snapped outline with a side on a header line, and a snapped outline
            // out of its place (``outOfPlace(_:_:)``) gives way to it. An outline the search found
            // around the MRZ on its own gives way only to a better fit: under perspective or on a
            // booklet's page the placement is off by more than that place allows.
            var seen = best
            let unseen = (outline?.weakestSide ?? 0) < Self.minimumFaintSide
            if let shown = confirmed(edges, placed: request.placed.corners.corners, faintSideByShape: unseen)
                .flatMap({ Self.document($0, band: band) }).flatMap({ $0.band != nil ? $0 : nil }),
               seen.map({ Self.fit(shown) > Self.fit($0) + 0.05 || Self.outOfPlace($0, shown) }) ?? true {
                seen = shown
            }
            if let holder = candidates.firstIndex(where: { $0.band.map { Self.sameBand($0, band) } ?? false }) {
                if let seen, Self.fit(seen) > Self.fit(candidates[holder]) + 0.05 { candidates[holder] = seen }
            } else {
                // Else the placement moved along the document's height to where the image shows
                // it, or the placement unseen (its corners `null`).
                candidates.append(seen ?? shiftedPlacement(edges, request.placed, band: band, faintSideByShape: unseen) ?? request.placed)
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

    /// How far an outline's side may lie from where the placement the image confirms puts it, in
    /// MRZ character pitches (2.54 mm, ICAO 9303-3 §4.2): the issuers' print tolerance for the MRZ's
    /// position (a millimeter or two) and the confirmation's own reach.
    static let placementTolerance = 0.8

    /// Whether the outline `d` around an MRZ lies out of the place that `shown`, the format's
    /// placement from the MRZ confirmed by the image, gives it: a corner more than
    /// ``placementTolerance`` from the placement's side (``offPlacement(_:_:)``), on a flat view
    /// (`d` square within 2.5 degrees: a scan, a photo taken square on), where the MRZ places the
    /// document within the print's tolerance. There the outline took the edge of something
    /// beside the document (the other side of a card across the gap) for a side. Under
    /// perspective the placement, an affine map from the MRZ, is off by more than that toward the
    /// far side.
    static func outOfPlace(_ d: DetectedDocument, _ shown: DetectedDocument) -> Bool {
        let c = d.corners.corners
        for k in 0..<4 {
            let u = unit(sub(c[(k + 1) % 4], c[k])), v = unit(sub(c[(k + 3) % 4], c[k]))
            if abs(dot(u, v)) > sin(2.5 * Double.pi / 180) { return false }
        }
        return offPlacement(d, shown) > placementTolerance
    }

    /// The farthest a corner of `d` lies from the line of `placed`'s side through the same corner
    /// (both in reading order), in MRZ pitches at `placed`'s scale; along the bottom side only
    /// outside it (away from `placed`'s center). The bottom side is the MRZ's: nothing but the MRZ
    /// lies between them, and an issuer may print the MRZ a few millimeters nearer the edge than
    /// the format's place (a generated card 4 mm: the placement's bottom then lies below the
    /// card's). Along the other sides an outline inside took a header line or the portrait's
    /// edge, and one outside the edge of something beside the document.
    static func offPlacement(_ d: DetectedDocument, _ placed: DetectedDocument) -> Double {
        let a = d.corners.corners, b = placed.corners.corners
        guard let size = placed.format.millimeters else { return 0 }
        let pitch = 2.54 * distance(b[0], b[1]) / size.width
        let center = placed.corners.center
        var farthest = 0.0
        for s in 0..<4 {
            let outward = outwardNormal(b[s], b[(s + 1) % 4], center)
            for p in [a[s], a[(s + 1) % 4]] {
                let off = dot(sub(p, b[s]), outward)
                farthest = max(farthest, s == 2 ? off : abs(off))
            }
        }
        return farthest / max(pitch, 1)
    }

    /// Whether two bands are the same MRZ (found twice, or read the other way round).
    public static func sameBand(_ a: MRZBand, _ b: MRZBand) -> Bool {
        distance(a.quad.center, b.quad.center) < a.characterHeight * 2
    }
}
