internal import COpenCVShim
import Foundation
import IDKitImage

// Documents the image's border cuts: outlines closed by the border, and the rules that accept them.
extension DocumentDetector {
    /// Documents the image's border cuts, beside the `found` ones: a card scanned with another,
    /// pushed into a corner of the glass, or the back of a card beside its front. Their outlines
    /// close only with the border (``idk_cut_document_quads``). One is a document when the
    /// border takes one side, or two meeting at a corner of the image, every other side lies on
    /// edges (``minimumCutSideSupport``), its shape as seen is a document's (1.3–1.75 wide for 1:
    /// a cut side shortens it by no more than the frame cuts off), it is at least
    /// ``minimumCutShare`` of the largest document found, and it overlaps none of them. Beside them,
    /// the other sides of the cards found (``otherSides(edges:beside:)``). Searched only beside a
    /// document found with its outline: the evidence that the scene holds documents at that scale.
    public func cutDocuments(edges: Edges, beside found: [DetectedDocument]) -> [DetectedDocument] {
        let outlined = found.filter(\.outlineFound)
        guard let largest = outlined.map(\.area).max() else { return [] }
        var documents: [DetectedDocument] = []
        for outline in cutOutlines(in: edges, beside: found.map(\.corners)) {
            // One side, or two that meet (0b0011, 0b0110, 0b1100, 0b1001).
            let mask = outline.cutSides
            guard mask.nonzeroBitCount == 1 || [3, 6, 12, 9].contains(mask), outline.weakestSide >= Self.minimumCutSideSupport,
                  let d = Self.oriented(outline, band: nil), d.widthHeightRatio >= 1.3, d.widthHeightRatio <= 1.75,
                  d.area >= Self.minimumCutShare * largest,
                  !(found + documents).contains(where: { Self.blocks($0, d) }) else { continue }
            documents.append(Self.restoredAtCardSize(outline, as: d, beside: outlined))
        }
        for d in otherSides(edges: edges, beside: outlined) where !(found + documents).contains(where: { Self.blocks($0, d) }) {
            documents.append(d)
        }
        return documents
    }

    /// `d`, the document of a cut `outline`, with each side on the border put back beyond the
    /// frame at the size of a card beside it (ID-1 or ID-2, its MRZ read), where the outline lies
    /// parallel to the card (within ``cardParallelTolerance``) and is no larger than it
    /// (``otherSideSizeTolerance``): the side across a cut side, where the frame cuts no other, as
    /// long as the card's side parallel to it, and the frame leaving the outline short of the card
    /// by more than that tolerance, with at least ``minimumShownOfCard`` of it in view.
    /// A card's other side, or another card of its format, scanned beside it and pushed against
    /// the frame is the card's size (ISO/IEC 7810: every ID-1 card is 85.60 × 53.98 mm); closed by
    /// the border, its outline is as narrow as the frame leaves it, and its corners are not where
    /// the document's are. Else `d` as it is. On the generated card sides (twelve seeds) this
    /// takes the sides within 2% of their diagonal from 890 to 895 of 960.
    static func restoredAtCardSize(_ outline: Outline, as d: DetectedDocument, beside cards: [DetectedDocument]) -> DetectedDocument {
        let mask = outline.cutSides
        guard mask != 0, mask.nonzeroBitCount <= 2 else { return d }
        let p = outline.points, center = centroid(p)
        let parallel = cos(cardParallelTolerance * .pi / 180)
        for card in cards where card.band != nil && (card.format == .td1 || card.format == .td2) {
            let c = card.corners.corners
            let dims = dimensions(c)
            // The card's side parallel to a direction, and its length.
            func cardLength(along direction: Point) -> Double? {
                dims.first { abs(dot($0.direction, unit(direction))) >= parallel }?.length
            }
            // Every side parallel to one of the card's, none longer than it.
            guard (0..<4).allSatisfy({ k in
                let a = p[k], b = p[(k + 1) % 4]
                return cardLength(along: sub(b, a)).map { distance(a, b) <= (1 + otherSideSizeTolerance) * $0 } ?? false
            }) else { continue }
            var q = p
            for s in 0..<4 where mask & (1 << s) != 0 && mask & (1 << ((s + 2) % 4)) == 0 {
                // Side o across from side s is seen; the sides between run from it to the border
                // (where the frame cuts two sides, the first one already put back).
                let o0 = q[(s + 2) % 4], o1 = q[(s + 3) % 4]
                let inward = neg(outwardNormal(o0, o1, center))  // from side o toward side s
                guard let target = cardLength(along: inward) else { continue }
                // Where the frame cuts only this side, the side across is the card's other side
                // whole, and must be as long.
                if mask.nonzeroBitCount == 1, let across = cardLength(along: sub(o1, o0)),
                   abs(distance(o0, o1) / across - 1) > otherSideSizeTolerance { continue }
                let extent = max(dot(sub(q[s], o1), inward), dot(sub(q[(s + 1) % 4], o0), inward))
                guard extent < (1 - otherSideSizeTolerance) * target, extent >= minimumShownOfCard * target else { continue }
                // The two sides between, from side o out to `target` from it.
                func out(from a: Point, through b: Point) -> Point? {
                    let u = unit(sub(b, a)), along = dot(u, inward)
                    return along > 0.5 ? add(a, scale(u, target / along)) : nil
                }
                guard let ps = out(from: o1, through: q[s]), let ps1 = out(from: o0, through: q[(s + 1) % 4]) else { continue }
                q[s] = ps
                q[(s + 1) % 4] = ps1
            }
            guard q != p else { return d }
            var restored = outline
            restored.points = q
            return Self.oriented(restored, band: nil) ?? d
        }
        return d
    }

    /// The least share of the card's size across a cut side that a cut outline must show to be
    /// put back at that size (``restoredAtCardSize(_:as:beside:)``): a document the frame cuts
    /// nearer its middle may be another of another size (on the real specimens, 005's older work
    /// permit beside the newer one, three fifths of its size in view).
    static let minimumShownOfCard = 0.75

    /// How far a cut outline's seen side may turn from the card's side it matches, in degrees
    /// (``restoredAtCardSize(_:as:beside:)``).
    static let cardParallelTolerance = 3.0

    /// Whether the document `existing` keeps `d` out: they overlap, and `existing` is not an
    /// outline without an MRZ lying inside `d` at under half its size (a portrait or a text block
    /// on the card's face, found as an outline of its own, which `d` replaces: ``isInside(_:_:)``).
    static func blocks(_ existing: DetectedDocument, _ d: DetectedDocument) -> Bool {
        overlaps(existing.corners, d.corners) && !isInside(existing, d)
    }

    /// Whether `inner`, without an MRZ, lies inside `outer` (its center) at under half its area.
    public static func isInside(_ inner: DetectedDocument, _ outer: DetectedDocument) -> Bool {
        inner.band == nil && outer.corners.contains(inner.corners.center) && inner.area < 0.5 * outer.area
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

    /// The share of each side off the border that a cut document's outline must have on edges.
    static let minimumCutSideSupport = 0.6
    /// The smallest cut document, as a share of the largest document found beside it (an ID-1
    /// card beside a passport page is 0.42 of it).
    static let minimumCutShare = 0.3

    /// The area two outlines share, in square pixels (OpenCV's intersection of convex polygons).
    package static func sharedArea(_ a: Quadrilateral, _ b: Quadrilateral) -> Double {
        let p = a.corners.flatMap { [$0.x, $0.y] }, q = b.corners.flatMap { [$0.x, $0.y] }
        return max(0, idk_convex_overlap(p, q))
    }

    /// Whether two outlines share more than a tenth of the smaller one's area: two documents lie
    /// side by side, turned as they may be, and overlap at most by their outlines' own error.
    static func overlaps(_ a: Quadrilateral, _ b: Quadrilateral) -> Bool {
        sharedArea(a, b) > 0.1 * min(a.area, b.area)
    }
}
